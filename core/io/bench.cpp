#include "io/bench.h"

#include <algorithm>
#include <cstdio>

namespace suction {

namespace {

// the paper's five columns (Table 1), in its order
constexpr std::array<Stage, 5> kPaperStages = {Stage::FreeMotion, Stage::Collision,
                                               Stage::Cavities, Stage::Compliance, Stage::Solve};
constexpr std::array<const char*, 5> kPaperHeadings = {"free motion", "collision", "cavities",
                                                       "compliance", "solve"};

nlohmann::json timing_json(const TimingStats& t) {
  return {{"mean_ms", t.mean_ms}, {"max_ms", t.max_ms}};
}

}  // namespace

ModelCounts count_model(const Model& model) {
  ModelCounts c;
  c.fem_bodies = static_cast<int>(model.fem.size());
  c.rigid_bodies = static_cast<int>(model.rigid.size());
  c.bodies = c.fem_bodies + c.rigid_bodies;
  for (const FemBody& body : model.fem) {
    const int nodes = static_cast<int>(body.rest.nodes.size());
    c.fem_nodes += nodes;
    c.fem_tets += static_cast<int>(body.rest.tets.size());
    c.collision_nodes += static_cast<int>(body.boundary.surface.vertices.size());
    c.surface_triangles += static_cast<int>(body.boundary.surface.triangles.size());
    c.dofs += 3 * nodes;
  }
  for (const RigidBody& body : model.rigid) {
    c.collision_nodes += static_cast<int>(body.surface.vertices.size());
    c.surface_triangles += static_cast<int>(body.surface.triangles.size());
    if (body.kind == RigidKind::Dynamic) c.dofs += 6;
  }
  return c;
}

void BenchStats::add(const StepProfile& p) {
  for (int s = 0; s < kStageCount; ++s) {
    sum_ms_[s] += p.ms[s];
    max_ms_[s] = samples_ == 0 ? p.ms[s] : std::max(max_ms_[s], p.ms[s]);
  }
  const double other =
      p.ms[static_cast<int>(Stage::Leak)] + p.ms[static_cast<int>(Stage::Correction)];
  sum_other_ += other;
  max_other_ = samples_ == 0 ? other : std::max(max_other_, other);
  sum_total_ += p.total_ms;
  max_total_ = samples_ == 0 ? p.total_ms : std::max(max_total_, p.total_ms);
  sum_constraints_ += p.constraints;
  sum_contacts_ += p.contacts;
  sum_contacts_reduced_ += p.contacts_reduced;
  sum_cavities_ += p.cavities;
  sum_iterations_ += p.solver_iterations;
  if (p.constraints > 0) {
    ++solves_;
    sum_residual_ += p.solver_residual;
    max_residual_ = std::max(max_residual_, p.solver_residual);
    if (!p.solver_converged) ++unconverged_;
  }
  unions_ += p.cavity_unions;
  factorizations_ += p.factorizations;
  cg_iterations_ += p.cg_iterations;
  max_constraints_ = samples_ == 0 ? p.constraints : std::max(max_constraints_, p.constraints);
  ++samples_;
}

TimingStats BenchStats::stage(Stage stage) const {
  const int s = static_cast<int>(stage);
  return {mean(sum_ms_[s]), max_ms_[s]};
}

TimingStats BenchStats::total() const { return {mean(sum_total_), max_total_}; }

TimingStats BenchStats::other() const { return {mean(sum_other_), max_other_}; }

std::string format_bench_table(const BenchStats& stats, const ModelCounts& counts) {
  char line[256];
  std::string out;
  std::snprintf(line, sizeof(line),
                "FEM nodes %d   collision nodes %d   mean constraints %.2f   steps %ld   unions %ld   "
                "factorizations %ld   CG iterations %ld\n",
                counts.fem_nodes, counts.collision_nodes, stats.mean_constraints(),
                stats.samples(), stats.cavity_unions(), stats.factorizations(), stats.cg_iterations());
  out += line;
  if (stats.mean_contacts_reduced() > 0.0) {  // only where the contact reduction dropped some
    std::snprintf(line, sizeof(line), "contacts: mean %.2f with rows, %.2f more dropped as implied (settings.contact.reduction)\n",
                  stats.mean_contacts(), stats.mean_contacts_reduced());
    out += line;
  }
  std::snprintf(line, sizeof(line),
                "solver: mean iterations %.1f   residual mean %.3g, max %.3g   not converged %ld of %ld solves\n",
                stats.mean_solver_iterations(), stats.mean_solver_residual(), stats.max_solver_residual(),
                stats.unconverged_solves(), stats.solves());
  out += line;
  // heading
  std::snprintf(line, sizeof(line), "%-9s", "");
  out += line;
  for (const char* heading : kPaperHeadings) {
    std::snprintf(line, sizeof(line), " %11s", heading);
    out += line;
  }
  std::snprintf(line, sizeof(line), " %11s %11s\n", "other", "total");
  out += line;
  // rows: mean, max
  for (int row = 0; row < 2; ++row) {
    auto pick = [row](const TimingStats& t) { return row == 0 ? t.mean_ms : t.max_ms; };
    std::snprintf(line, sizeof(line), "%-9s", row == 0 ? "mean ms" : "max ms");
    out += line;
    for (Stage stage : kPaperStages) {
      std::snprintf(line, sizeof(line), " %11.3f", pick(stats.stage(stage)));
      out += line;
    }
    std::snprintf(line, sizeof(line), " %11.3f %11.3f\n", pick(stats.other()),
                  pick(stats.total()));
    out += line;
  }
  return out;
}

nlohmann::json bench_json(const BenchStats& stats, const ModelCounts& counts) {
  nlohmann::json stages = nlohmann::json::object();
  for (int s = 0; s < kStageCount; ++s)
    stages[stage_name(static_cast<Stage>(s))] = timing_json(stats.stage(static_cast<Stage>(s)));
  return {{"steps", stats.samples()},
          {"fem_nodes", counts.fem_nodes},
          {"collision_nodes", counts.collision_nodes},
          {"mean_constraints", stats.mean_constraints()},
          {"max_constraints", stats.max_constraints()},
          {"mean_contacts", stats.mean_contacts()},
          {"mean_contacts_reduced", stats.mean_contacts_reduced()},
          {"mean_cavities", stats.mean_cavities()},
          {"mean_solver_iterations", stats.mean_solver_iterations()},
          {"mean_solver_residual", stats.mean_solver_residual()},
          {"max_solver_residual", stats.max_solver_residual()},
          {"solves", stats.solves()},
          {"unconverged_solves", stats.unconverged_solves()},
          {"cavity_unions", stats.cavity_unions()},
          {"factorizations", stats.factorizations()},
          {"cg_iterations", stats.cg_iterations()},
          {"stages", stages},
          {"other", timing_json(stats.other())},
          {"total", timing_json(stats.total())}};
}

}  // namespace suction
