// suction::wasm::Facade: the simulator as JavaScript sees it (docs/wasm-api.md),
// as a plain C++ class.  No Emscripten and no physics here: it only
// calls into the core (load_scene_text, parse_override, Simulation, CsvRecorder,
// cavity_world_vertices) and keeps the flat float/index buffers that wasm/bindings.cpp hands
// to JavaScript as typed-memory views.  Compiled natively too (it needs nothing from Emscripten).
//
// Errors are returned as strings ('' = success), never thrown: a scene error lists one
// "JSON-pointer: message" per line.  Every query is safe without a loaded scene (zeros, empty
// buffers) and with out-of-range indices (empty / zero results).
//
// Buffers: the pointers returned by the *_data() accessors stay valid until the next call that
// changes the simulation (load, set_override, step, reset) or refreshes the same buffer; in
// JavaScript, wasm memory may also grow, so views must be re-acquired after every such call.
#pragma once
#include <cstdint>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace suction {
class Simulation;
}

namespace suction::wasm {

/// per-stage timings [ms] and counters of the last step (sim/profile.h StepProfile, whose
/// names it keeps: a time ends in _ms, `cavities` is a count).  JavaScript sees it as a plain
/// object with the same fields in camelCase (bindings.cpp registers it once: value_object).
struct ProfileInfo {
  double leak_ms = 0, free_motion_ms = 0, collision_ms = 0, cavities_ms = 0, compliance_ms = 0, solve_ms = 0,
         correction_ms = 0, total_ms = 0;
  int contacts = 0;         // contacts found in the last step
  int constraints = 0;      // constraint rows (3 per contact + 1 per cavity)
  int cavities = 0;         // active cavities (pressure rows)
  int iterations = 0;       // iterations of the constraint solver
  double residual = 0;      // its final residual (the common definition, method.md §8.5)
  int factorizations = 0;   // FEM bodies factorized in the last step (settings.factorization)
  int cg_iterations = 0;    // CG iterations of bodies that kept their factorization
};

/// a tracked cavity (model/state.h CavityState)
struct CavityInfo {
  int id = -1;
  double pressure = 0;  // absolute [Pa]
  double volume = 0;    // [m³]
  double air = 0;       // N = P·V [J]
  double outflow = 0;   // ΔN of the last step (≤ 0: air pushed out) [J]
  double temperature = 0;  // the air's temperature [K] (the ambient one under the isothermal law)
  bool dormant = false;
  std::vector<int> bodies;  // the body indices (= body slots) that bound it, ascending (≥ 2)
  // from the core (probes/probes.h cavity_hold): what holds the cup on
  double area = 0;                       // the area the air pulls the bodies with [m²]
  std::array<double, 3> normal{{0, 0, 1}};  // unit normal of the sealing ring
  double holding_force = 0;              // (P_atm − P)·A [N]; 0 when dormant
};

/// a scene parameter with the overrides applied: the Model's own (model/model.h Parameter)
using ParameterInfo = Parameter;

class Facade {
 public:
  Facade();
  ~Facade();
  Facade(const Facade&) = delete;
  Facade& operator=(const Facade&) = delete;

  // --- scene and simulation -----------------------------------------------------------
  /// Loads a scene from its JSON text; relative mesh paths resolve against base_dir.  Clears
  /// the overrides.  '' on success, else the error (the previous scene is kept).
  std::string load(const std::string& scene_json, const std::string& base_dir);
  /// Adds (or replaces, for the same pointer) an override "pointer=value" as the CLI's --set,
  /// rebuilds the model from the scene text with every override so far, and resets.
  /// '' on success, else the error (the old simulation and override list are kept).
  std::string set_override(const std::string& pointer, const std::string& value);
  /// Live tuning: the same override as set_override, taken by the running simulation from its
  /// next step on without a reset (Simulation::retune: state, cavities and air kept; drivers go
  /// on at the new profile's velocity).  '' on success, else the error: a change of a mesh or of
  /// the scene's structure starts "cannot change while the simulation runs: " and names what
  /// differs (set_override then applies it with a reset); the simulation and the override list
  /// are unchanged on any error.
  std::string tune(const std::string& pointer, const std::string& value);
  /// Removes every override, rebuilds and resets ('' or the error).
  std::string clear_overrides();
  /// the overrides in effect, as "pointer=value"
  std::vector<std::string> overrides() const;
  /// "reference" or "interactive" (scene/quality.h): the quality of this and every later load;
  /// with a scene loaded, rebuilds it (overrides kept) and resets.  '' or the error (an unknown
  /// name, or a scene that fails at that quality: the old simulation and quality are kept).
  /// A new Facade runs at reference quality.
  std::string set_quality(const std::string& name);
  /// the current quality's name
  std::string quality() const;
  /// what the quality changed in the loaded scene ("pointer=value"; empty at reference)
  std::vector<std::string> quality_changes() const;
  /// n steps; '' or the error of the first failing step (the state stays at the last good step)
  std::string step(int n);
  /// the warnings of the steps since the last call (a failed mesh union; the watchdog's
  /// tunnelling, deep contact and left-the-stage warnings), each with its step; then cleared
  std::vector<std::string> take_warnings();
  /// back to the initial state (driver offsets cleared too)
  void reset();
  bool loaded() const { return sim_ != nullptr; }

  double time() const;
  long step_count() const;
  double dt() const;
  double duration() const;
  double p_atm() const;
  /// |g| of the scene [m/s²] (weights in the page's words)
  double gravity() const;
  std::string scene_name() const;
  std::string scene_description() const;

  // --- bodies (FEM bodies first, then rigid bodies; index = collision slot) ------------
  int body_count() const;
  std::string body_name(int i) const;
  bool body_is_soft(int i) const;
  bool body_is_fixed(int i) const;
  /// "fem", "dynamic", "fixed", "kinematic" ("" for a bad index)
  std::string body_kind(int i) const;
  int surface_vertex_count(int i) const;
  int surface_triangle_count(int i) const;
  /// x,y,z per surface vertex, world frame [m] (refreshed lazily after a step)
  const std::vector<float>& surface_positions(int i);
  /// 3 vertex indices per surface triangle (constant after load)
  const std::vector<std::uint32_t>& surface_indices(int i);
  /// the body's mass [kg]: an FEM body's lumped node masses summed, a dynamic rigid body's
  /// mass; 0 for a fixed or kinematic body (forces do not move it) and a bad index
  double body_mass(int i) const;
  /// [x,y,z] of the body's centre of mass, world frame [m] (an FEM body: the mass-weighted
  /// mean of its nodes; the `position` probe's value); empty for a bad index
  std::vector<double> body_center_of_mass(int i) const;

  // --- cavities ---------------------------------------------------------------------------
  int cavity_count() const;
  CavityInfo cavity_info(int k) const;
  /// x,y,z per cavity-mesh vertex, world frame [m]
  const std::vector<float>& cavity_positions(int k);
  /// 3 vertex indices per cavity triangle
  const std::vector<std::uint32_t>& cavity_indices(int k);
  /// sealing ring: 6 floats (x0,y0,z0,x1,y1,z1) per segment [m]
  const std::vector<float>& cavity_seam(int k);

  // --- contacts ---------------------------------------------------------------------------
  int contact_count() const;
  /// px,py,pz [m], fx,fy,fz [N] per contact of the last step (force on body a)
  const std::vector<float>& contacts();
  /// per body (index = slot), how many of the last step's contacts touch it (as body a or b)
  std::vector<int> body_contact_counts() const;
  /// the springs' ends: 6 floats per spring (end a, end b) [m], Model::springs order
  const std::vector<float>& springs();
  int spring_count() const;

  // --- probes, profile --------------------------------------------------------------------
  std::vector<std::string> probe_names() const;
  const std::vector<double>& probe_values();
  ProfileInfo profile() const;

  // --- drivers ----------------------------------------------------------------------------
  int driver_count() const;
  std::string driver_name(int k) const;
  int driver_body(int k) const;  // body index (collision slot), -1 for a bad index
  /// offset added to the driver's scripted displacement from the next step on [m]; '' or error
  std::string set_driver_offset(int k, double x, double y, double z);
  std::vector<double> driver_offset(int k) const;    // [x,y,z] m
  std::vector<double> driver_reaction(int k) const;  // [x,y,z] N

  // --- parameters, CSV --------------------------------------------------------------------
  /// the scene's parameters (empty before a load)
  const std::vector<ParameterInfo>& parameters() const;
  /// the CLI's --csv header / the row of the current state, without the line break
  std::string csv_header() const;
  std::string csv_row() const;

 private:
  std::string rebuild(const std::vector<SceneOverride>& overrides);
  void invalidate();
  int num_fem() const;

  std::string scene_text_, base_dir_;
  std::vector<SceneOverride> overrides_;
  Quality quality_ = Quality::Reference;
  std::unique_ptr<Simulation> sim_;
  std::uint64_t generation_ = 0;  // bumped by every change of the state

  std::vector<std::vector<float>> surface_positions_;
  std::vector<std::uint64_t> surface_generation_;  // generation_ of each body's buffer
  std::vector<std::vector<std::uint32_t>> surface_indices_;
  std::vector<std::vector<float>> cavity_positions_, cavity_seam_;
  std::vector<std::vector<std::uint32_t>> cavity_indices_;
  std::vector<float> contacts_;
  std::vector<float> springs_;
  std::vector<double> probe_values_;
  std::vector<std::string> warnings_;  // gathered by step(), handed out by take_warnings()
  std::vector<float> empty_float_;
  std::vector<std::uint32_t> empty_index_;
};

/// "pointer: message" per line for a SceneError ("message" alone when the pointer is empty)
std::string format_scene_error(const SceneError& e);

}  // namespace suction::wasm
