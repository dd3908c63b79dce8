// Bench statistics: per-stage mean and max, model counts, table and JSON.
#include <gtest/gtest.h>

#include "io/bench.h"

namespace suction {
namespace {

StepProfile profile_with(double scale, int constraints) {
  StepProfile p;
  for (int s = 0; s < kStageCount; ++s) p.ms[s] = scale * (s + 1);
  p.total_ms = scale * 100.0;
  p.constraints = constraints;
  p.contacts = constraints / 3;
  p.contacts_reduced = constraints / 10;
  p.cavities = 1;
  p.solver_iterations = 10;
  p.cavity_unions = constraints == 60 ? 2 : 0;
  return p;
}

TEST(Bench, MeanAndMaxPerStage) {
  BenchStats stats;
  stats.add(profile_with(1.0, 30));
  stats.add(profile_with(3.0, 60));
  stats.add(profile_with(2.0, 90));
  EXPECT_EQ(stats.samples(), 3);
  for (int s = 0; s < kStageCount; ++s) {
    const TimingStats t = stats.stage(static_cast<Stage>(s));
    EXPECT_DOUBLE_EQ(t.mean_ms, 2.0 * (s + 1)) << s;
    EXPECT_DOUBLE_EQ(t.max_ms, 3.0 * (s + 1)) << s;
  }
  EXPECT_DOUBLE_EQ(stats.total().mean_ms, 200.0);
  EXPECT_DOUBLE_EQ(stats.total().max_ms, 300.0);
  // other = leak (stage 0, 1 ms per unit) + correction (stage 6, 7 ms per unit)
  EXPECT_DOUBLE_EQ(stats.other().mean_ms, 16.0);
  EXPECT_DOUBLE_EQ(stats.other().max_ms, 24.0);
  EXPECT_DOUBLE_EQ(stats.mean_constraints(), 60.0);
  EXPECT_EQ(stats.max_constraints(), 90);
  EXPECT_DOUBLE_EQ(stats.mean_contacts(), 20.0);
  EXPECT_DOUBLE_EQ(stats.mean_contacts_reduced(), 6.0);
  EXPECT_DOUBLE_EQ(stats.mean_cavities(), 1.0);
  EXPECT_DOUBLE_EQ(stats.mean_solver_iterations(), 10.0);
  EXPECT_EQ(stats.cavity_unions(), 2);  // a count over the steps, not a mean
}

TEST(Bench, MaxStartsFromFirstSampleAndClearResets) {
  // max must not be stuck at the zero-initialized value
  BenchStats stats;
  StepProfile p;
  p.total_ms = 0.5;
  stats.add(p);
  EXPECT_DOUBLE_EQ(stats.total().max_ms, 0.5);
  stats.clear();
  EXPECT_EQ(stats.samples(), 0);
  EXPECT_DOUBLE_EQ(stats.total().mean_ms, 0.0);  // no division by zero
}

Model small_model() {
  Model model;
  FemBody cup;
  cup.name = "cup";
  cup.rest.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 1, 1)};
  cup.rest.tets = {{0, 1, 2, 3}, {1, 2, 3, 4}};
  cup.boundary.surface.vertices = cup.rest.nodes;
  cup.boundary.surface.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 4, 3}, {1, 2, 4}, {2, 3, 4}};
  model.fem.push_back(cup);
  RigidBody box;
  box.name = "box";
  box.kind = RigidKind::Dynamic;
  box.surface.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  box.surface.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  model.rigid.push_back(box);
  RigidBody ground = box;
  ground.name = "ground";
  ground.kind = RigidKind::Fixed;
  model.rigid.push_back(ground);
  return model;
}

TEST(Bench, ModelCounts) {
  const ModelCounts c = count_model(small_model());
  EXPECT_EQ(c.bodies, 3);
  EXPECT_EQ(c.fem_bodies, 1);
  EXPECT_EQ(c.rigid_bodies, 2);
  EXPECT_EQ(c.fem_nodes, 5);
  EXPECT_EQ(c.fem_tets, 2);
  EXPECT_EQ(c.collision_nodes, 5 + 4 + 4);
  EXPECT_EQ(c.surface_triangles, 6 + 4 + 4);
  EXPECT_EQ(c.dofs, 15 + 6);  // the fixed ground has none
}

TEST(Bench, TableHasPaperColumnsAndRows) {
  BenchStats stats;
  stats.add(profile_with(1.0, 30));
  stats.add(profile_with(3.0, 60));
  const std::string table = format_bench_table(stats, count_model(small_model()));
  for (const char* heading :
       {"free motion", "collision", "cavities", "compliance", "solve", "other", "total",
        "mean ms", "max ms", "FEM nodes 5", "collision nodes 13", "mean constraints 45.00"})
    EXPECT_NE(table.find(heading), std::string::npos) << heading << "\n" << table;
  // free motion (stage 1): mean 4, max 6; total: mean 200, max 300
  EXPECT_NE(table.find("4.000"), std::string::npos) << table;
  EXPECT_NE(table.find("300.000"), std::string::npos) << table;
  // the heading columns line up with the numbers: both lines have the same length
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = table.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(table.substr(start, end - start));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[1], "contacts: mean 15.00 with rows, 4.50 more dropped as implied (settings.contact.reduction)");
  EXPECT_EQ(lines[2], "solver: mean iterations 10.0   residual mean 0, max 0   not converged 0 of 2 solves");
  EXPECT_EQ(lines[3].size(), lines[4].size());
  EXPECT_EQ(lines[4].size(), lines[5].size());
  // no contacts line where the reduction dropped nothing
  StepProfile p = profile_with(1.0, 30);
  p.contacts_reduced = 0;
  BenchStats unreduced;
  unreduced.add(p);
  EXPECT_EQ(format_bench_table(unreduced, count_model(small_model())).find("contacts:"), std::string::npos);
}

TEST(Bench, CountsTheSolvesThatDidNotConvergeAndTheirResidual) {
  BenchStats stats;
  StepProfile a = profile_with(1.0, 30), b = profile_with(1.0, 60), none = profile_with(1.0, 0);
  a.solver_residual = 1e-7;
  b.solver_residual = 3e-3;
  b.solver_converged = false;
  none.solver_residual = 0.0;  // a step without rows is no solve
  stats.add(a);
  stats.add(b);
  stats.add(none);
  EXPECT_EQ(stats.solves(), 2);
  EXPECT_EQ(stats.unconverged_solves(), 1);
  EXPECT_DOUBLE_EQ(stats.max_solver_residual(), 3e-3);
  EXPECT_DOUBLE_EQ(stats.mean_solver_residual(), (1e-7 + 3e-3) / 2);
  const nlohmann::json j = bench_json(stats, ModelCounts{});
  EXPECT_EQ(j.at("unconverged_solves"), 1);
  EXPECT_EQ(j.at("solves"), 2);
}

TEST(Bench, JsonHasEveryStage) {
  BenchStats stats;
  stats.add(profile_with(1.0, 30));
  stats.add(profile_with(3.0, 60));
  const nlohmann::json j = bench_json(stats, count_model(small_model()));
  EXPECT_EQ(j["steps"], 2);
  EXPECT_EQ(j["fem_nodes"], 5);
  EXPECT_EQ(j["collision_nodes"], 13);
  EXPECT_DOUBLE_EQ(j["mean_constraints"].get<double>(), 45.0);
  ASSERT_EQ(j["stages"].size(), static_cast<size_t>(kStageCount));
  for (int s = 0; s < kStageCount; ++s) {
    const auto& entry = j["stages"][stage_name(static_cast<Stage>(s))];
    EXPECT_DOUBLE_EQ(entry["mean_ms"].get<double>(), 2.0 * (s + 1));
    EXPECT_DOUBLE_EQ(entry["max_ms"].get<double>(), 3.0 * (s + 1));
  }
  EXPECT_DOUBLE_EQ(j["total"]["mean_ms"].get<double>(), 200.0);
  EXPECT_DOUBLE_EQ(j["total"]["max_ms"].get<double>(), 300.0);
}

}  // namespace
}  // namespace suction
