// Quality levels (docs/scene-format.md, "settings.interactive"; docs/validation.md, "Quality
// levels"): one scene file, run either exactly as written (`reference`: the CLI's default, every
// test and validation number) or at `interactive` quality (the page's default), where the core
// derives cheaper settings from the scene within the limits its "settings.interactive" declares:
// a longer time step, the kept factorization, and (only where the scene allows it) coarser
// generated meshes.  The interactive quality is a list of overrides, applied like `--set` after
// the user's own (a pointer the user set is never changed), so what it changed can be shown.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/model.h"
#include "scene/json_reader.h"

namespace suction {

/// "reference" / "interactive"
const char* quality_name(Quality q);
/// the quality named `name`; InputError listing the names otherwise
Quality parse_quality(const std::string& name);

/// A cap on a generated mesh's resolution: a number, or an expression of the scene's parameters
/// (without its '='), written into the mesh as "=min(resolution, expression)".
struct ResolutionCap {
  int value = 0;           // > 0: the cap
  std::string expression;  // not empty: the cap, evaluated with the parameters
  bool set() const { return value > 0 || !expression.empty(); }
};

/// The rules the core applies at interactive quality (settings.interactive; defaults here).
struct InteractiveRules {
  bool enabled = true;             // false: the scene plays at reference quality
  double time_step_factor = 2.0;   // dt × this ...
  double max_dt = 0.02;            // ... but not above this [s] (30 ms lets a cube through 10 mm)
  bool factorization_reuse = true;
  /// with the kept factorization: turn it with the body (FactorizationReuse::follow_rotation);
  /// off unless a scene asks: on the page's scenes it saves no factorization (docs/validation.md)
  bool follow_rotation = false;
  /// with the kept factorization: the solve refined this many times against the step's A
  /// (FactorizationReuse::refinements), so that the rows end at its answer with the exact
  /// correction; 0: the scene's own setting
  int refinements = 1;
  /// with the kept factorization: the step's matrix is the kept one while the free motion it
  /// gives is within this of the step's own (FactorizationReuse::lag_drift), which then replaces
  /// the refinement (unused there);
  /// 0: the scene's own setting.  Not with follow_rotation.
  double lag_drift = 0.01;
  /// generated FEM meshes' "resolution" capped at it (unset: kept)
  ResolutionCap max_resolution;
  /// > 0: a generated FEM box's "cells" scaled so that no axis has more than this; 0: kept
  int max_cells = 0;
  /// the generated surfaces of rigid, kinematic and fixed bodies (cylinder, sphere, curved_slab)
  /// have their "resolution" capped at it (unset: kept)
  ResolutionCap max_surface_resolution;
  /// the pgs method's subspace step after every this many sweeps (SolverSettings::subspace_every);
  /// 0: the scene's own setting
  int solver_subspace = 10;
  /// a cavity carried while its group's seals change only within its ring
  /// (CavitySettings::unite_on_ring_change = false): a union only where a cavity may start or
  /// open; its seam following the bodies between unions (CavitySettings::follow_seal = true)
  bool carry_cavities = true;
  std::vector<std::string> compare;  // the story numbers `suction quality` compares (empty: defaults)
};

/// Reads and checks a parsed scene's "settings.interactive" (every problem an issue with its
/// pointer; defaults for what is absent or bad).  Read before the parameters are evaluated, so
/// its numbers must be plain numbers.
InteractiveRules read_interactive(JsonReader& reader, const Json& doc);

/// Applies the interactive quality's `rules` to a parsed scene (the user's overrides already
/// applied): a pointer the user set (`user_pointers`, or one below it) is left alone.  Returns the
/// changes as "POINTER=VALUE" (none when the rules are not enabled).  A dt or mesh the reader
/// will reject is left as it is, for the reader to report with its pointer.
std::vector<std::string> apply_interactive(Json& doc, const InteractiveRules& rules,
                                           const std::vector<std::string>& user_pointers);

}  // namespace suction
