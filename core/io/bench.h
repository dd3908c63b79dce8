// Benchmark statistics: per-stage step timings accumulated over a run and formatted like the
// paper's Table 1 (docs/validation.md).  Shared by the native CLI (`suction bench`,
// the summary of `suction run`) and the wasm build.
#pragma once
#include <array>
#include <string>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "sim/profile.h"

namespace suction {

/// Sizes of a model as the paper's tables count them.
struct ModelCounts {
  int bodies = 0;
  int fem_bodies = 0;
  int rigid_bodies = 0;
  int fem_nodes = 0;            // Σ FEM nodes (the "FEM" column)
  int fem_tets = 0;
  int collision_nodes = 0;      // Σ boundary vertices of FEM bodies + rigid surface vertices
  int surface_triangles = 0;    // Σ FEM boundary triangles + rigid surface triangles
  int dofs = 0;                 // 3 per FEM node + 6 per dynamic rigid body
};
ModelCounts count_model(const Model& model);

/// Mean and maximum of one timing [ms].
struct TimingStats {
  double mean_ms = 0.0;
  double max_ms = 0.0;
};

/// Accumulates StepProfile samples (one per timed step).
class BenchStats {
 public:
  void add(const StepProfile& profile);
  void clear() { *this = BenchStats(); }

  long samples() const { return samples_; }
  TimingStats stage(Stage stage) const;
  TimingStats total() const;
  /// leak + correction: the stages outside the paper's five columns
  TimingStats other() const;
  double mean_constraints() const { return mean(sum_constraints_); }
  double mean_contacts() const { return mean(sum_contacts_); }
  /// contacts the reduction dropped (implied by others; not in mean_contacts)
  double mean_contacts_reduced() const { return mean(sum_contacts_reduced_); }
  double mean_cavities() const { return mean(sum_cavities_); }
  double mean_solver_iterations() const { return mean(sum_iterations_); }
  /// over the steps that had rows: the common residual (mean, max) and the solves that ended
  /// above the tolerance (at the iteration cap)
  double mean_solver_residual() const { return solves_ > 0 ? sum_residual_ / solves_ : 0.0; }
  double max_solver_residual() const { return max_residual_; }
  long solves() const { return solves_; }
  long unconverged_solves() const { return unconverged_; }
  /// mesh unions computed over the timed steps (the cavity stage's dominant cost when they run)
  long cavity_unions() const { return unions_; }
  /// FEM factorizations over the timed steps (one per body and step unless
  /// settings.factorization.reuse keeps one), and the CG iterations on kept ones
  long factorizations() const { return factorizations_; }
  long cg_iterations() const { return cg_iterations_; }
  int max_constraints() const { return max_constraints_; }

 private:
  double mean(double sum) const { return samples_ > 0 ? sum / samples_ : 0.0; }
  long samples_ = 0;
  std::array<double, kStageCount> sum_ms_{};
  std::array<double, kStageCount> max_ms_{};
  double sum_total_ = 0.0, max_total_ = 0.0;
  double sum_other_ = 0.0, max_other_ = 0.0;
  double sum_constraints_ = 0.0, sum_contacts_ = 0.0, sum_cavities_ = 0.0, sum_iterations_ = 0.0;
  double sum_contacts_reduced_ = 0.0;
  int max_constraints_ = 0;
  long unions_ = 0, factorizations_ = 0, cg_iterations_ = 0;
  long solves_ = 0, unconverged_ = 0;
  double sum_residual_ = 0.0, max_residual_ = 0.0;
};

/// The timing table, columns as the paper's Table 1 plus "other" (leak + correction):
///
///            free motion  collision  cavities  compliance    solve    other    total
///   mean ms        9.021      0.401     3.130      21.310    1.330    0.120   38.510
///   max ms        ...
///
/// preceded by a line with FEM nodes, collision nodes, mean constraints, the sample count and
/// the mesh unions, FEM factorizations and CG iterations (settings.factorization) over them,
/// a line on the contacts where the contact reduction dropped some (with rows, dropped), and a
/// line on the constraint solver (iterations, residual, solves not converged).
std::string format_bench_table(const BenchStats& stats, const ModelCounts& counts);

/// The same as JSON:
///   {"steps": n, "fem_nodes", "collision_nodes", "mean_constraints", "mean_contacts",
///    "mean_contacts_reduced",
///    "mean_cavities", "mean_solver_iterations", "mean_solver_residual", "max_solver_residual",
///    "solves", "unconverged_solves", "cavity_unions", "factorizations", "cg_iterations",
///    "stages": {"<stage_name>": {"mean_ms", "max_ms"}, ...},   // all seven stages
///    "other": {...}, "total": {"mean_ms", "max_ms"}}
nlohmann::json bench_json(const BenchStats& stats, const ModelCounts& counts);

}  // namespace suction
