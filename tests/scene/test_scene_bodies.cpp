// Scene bodies from the block generators and from surfaces tetrahedralized at load
// (core/scene/scene_bodies.cpp, docs/scene-format.md "pocket_block", "tunnel_block", "tentacle",
// "tetrahedralize"): an FEM tunnel block loads, is meshed, timed and steps; rigid blocks use the
// surface; an FEM tentacle loads; bad keys are issues at their JSON pointers.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "mesh/generators.h"
#include "scene/json_reader.h"
#include "scene/scene.h"
#include "scene/scene_issues.h"
#include "sim/simulation.h"

namespace suction {
namespace {

/// an FEM tunnel block (coarse) resting on a fixed pocket block
Json block_scene() {
  return Json::parse(R"({
    "name": "blocks",
    "settings": {"dt": 0.005, "duration": 0.01},
    "materials": {"rubber": {"young": 1e6, "poisson": 0.45, "density": 1100}},
    "bodies": [
      {"name": "tunnel", "type": "fem", "material": "rubber",
       "mesh": {"generator": "tunnel_block", "size": [0.04, 0.02, 0.02], "hole_diameter": 0.006,
                "spacing": 0.016, "depth": 0.012, "resolution": 12,
                "tetrahedralize": {"cell_size": 0.005}},
       "position": [0, 0, 0.0101]},
      {"name": "base", "type": "fixed",
       "mesh": {"generator": "pocket_block", "size": [0.06, 0.06, 0.01], "depth": 0.004,
                "outline": {"radius": 0.01, "points": 10, "roughness": 0.3, "seed": 5}},
       "position": [0, 0, -0.005]}
    ]
  })");
}

using scene_issues::dump;
using scene_issues::expect_single_issue;
using scene_issues::issues_of;

TEST(SceneBodies, FemTunnelBlockLoadsMeshedAndSteps) {
  Model m = load_scene_text(block_scene().dump(), ".");
  ASSERT_EQ(m.fem.size(), 1u);
  ASSERT_EQ(m.rigid.size(), 1u);
  const FemBody& tunnel = m.fem[0];
  EXPECT_GT(tunnel.rest.tets.size(), 100u);
  // the mesh has the block's volume (the mesher's tests check it closely) and a genus-1 boundary
  const double v = tunnel_block_volume({0.04, 0.02, 0.02}, 0.006, 0.016, 0.012, 12);
  EXPECT_NEAR(total_volume(tunnel.rest), v, 0.01 * v);
  // the meshing is recorded for suction info
  ASSERT_EQ(m.meshing.size(), 1u);
  EXPECT_EQ(m.meshing[0].body, "tunnel");
  EXPECT_EQ(m.meshing[0].nodes, static_cast<int>(tunnel.rest.nodes.size()));
  EXPECT_EQ(m.meshing[0].tets, static_cast<int>(tunnel.rest.tets.size()));
  EXPECT_GT(m.meshing[0].seconds, 0.0);
  // the rigid base is the pocket block's surface, with its volume
  const std::vector<Point2> outline = star_outline(5, 10, 0.01, 0.3);
  const double base_volume = pocket_block_volume({0.06, 0.06, 0.01}, outline, 0.004);
  EXPECT_NEAR(enclosed_volume(m.rigid[0].surface), base_volume, 1e-12 * base_volume);
  // and the scene steps
  Simulation sim(std::move(m));
  EXPECT_NO_THROW(sim.step());
  EXPECT_NO_THROW(sim.step());
}

TEST(SceneBodies, BadBlockKeysAreIssuesAtTheirPointers) {
  Json doc = block_scene();
  doc["bodies"][0]["mesh"]["tetrahedralize"] = Json::parse(R"({"cell_sise": 0.005})");
  expect_single_issue(doc, "/bodies/0/mesh/tetrahedralize/cell_sise", "unknown key");

  doc = block_scene();
  doc["bodies"][0]["mesh"]["tetrahedralize"]["cell_size"] = -1;
  expect_single_issue(doc, "/bodies/0/mesh/tetrahedralize/cell_size", "> 0");

  doc = block_scene();
  doc["bodies"][0]["mesh"]["spacing"] = 0.004;  // the holes overlap
  expect_single_issue(doc, "/bodies/0/mesh", "spacing must be larger than hole_diameter");

  doc = block_scene();
  doc["bodies"][1]["mesh"]["tetrahedralize"] = Json::parse(R"({"cell_size": 0.005})");
  expect_single_issue(doc, "/bodies/1/mesh/tetrahedralize", "only fem bodies");

  doc = block_scene();
  doc["bodies"][1]["mesh"]["outline"] = Json::parse(R"([[0, 0], [0.01, 0]])");
  expect_single_issue(doc, "/bodies/1/mesh/outline", "at least 3 points");

  doc = block_scene();
  doc["bodies"][1]["mesh"]["outline"]["roughness"] = 1.5;
  expect_single_issue(doc, "/bodies/1/mesh/outline/roughness", "[0, 1)");
}

/// an FEM tentacle (coarse) above a fixed box
Json tentacle_scene() {
  return Json::parse(R"({
    "name": "tentacle",
    "settings": {"dt": 0.005, "duration": 0.01},
    "materials": {"rubber": {"young": 1e6, "poisson": 0.45, "density": 1100}},
    "bodies": [
      {"name": "arm", "type": "fem", "material": "rubber",
       "mesh": {"generator": "tentacle", "length": 0.08, "base_radius": 0.01, "tip_radius": 0.006,
                "sucker_count": 3, "sucker_radius": 0.002, "sucker_depth": 0.002, "rim_thickness": 0.0008,
                "rim_height": 0.001, "sucker_first": 0.02, "sucker_last": 0.06,
                "tetrahedralize": {"cell_size": 0.006, "facet_size": 0.005, "edge_size": 0.0015}},
       "position": [0, 0, 0.02]},
      {"name": "base", "type": "fixed", "mesh": {"generator": "box", "size": [0.1, 0.05, 0.01]},
       "position": [0, 0, -0.005]}
    ]
  })");
}

TEST(SceneBodies, FemTentacleLoadsAndItsBadKeysAreIssuesAtTheirPointers) {
  const Model m = load_scene_text(tentacle_scene().dump(), ".");
  ASSERT_EQ(m.fem.size(), 1u);
  EXPECT_GT(m.fem[0].rest.tets.size(), 100u);
  ASSERT_EQ(m.meshing.size(), 1u);

  Json doc = tentacle_scene();
  doc["bodies"][0]["mesh"]["tip_radius"] = 0.012;  // wider than the base
  expect_single_issue(doc, "/bodies/0/mesh/tip_radius", "must not exceed base_radius");

  doc = tentacle_scene();
  doc["bodies"][0]["mesh"]["sucker_count"] = 9;  // they overlap
  const auto issues = issues_of(doc);
  ASSERT_FALSE(issues.empty());
  for (const SceneIssue& i : issues) EXPECT_EQ(i.pointer, "/bodies/0/mesh/sucker_count") << dump(issues);

  doc = tentacle_scene();
  doc["bodies"][0]["mesh"]["sucker_last"] = 0.079;  // reaches the tip
  expect_single_issue(doc, "/bodies/0/mesh/sucker_last", "reaches the tip");

  doc = tentacle_scene();
  doc["bodies"][0]["mesh"]["rows"] = 3;
  expect_single_issue(doc, "/bodies/0/mesh/rows", "2");

  doc = tentacle_scene();
  doc["bodies"][0]["mesh"].erase("length");
  expect_single_issue(doc, "/bodies/0/mesh/length", "missing required key");

  doc = tentacle_scene();
  doc["bodies"][1]["mesh"] = doc["bodies"][0]["mesh"];  // a fixed body is not tetrahedralized
  expect_single_issue(doc, "/bodies/1/mesh/tetrahedralize", "only fem bodies");
}

TEST(SceneBodies, FemBodyFromASurfaceFileIsTetrahedralized) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "suction_scene_bodies_test";
  fs::create_directories(dir);
  {
    std::FILE* f = std::fopen((dir / "cube.obj").string().c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
               "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n", f);
    std::fclose(f);
  }
  Json doc = block_scene();
  doc["bodies"][0]["mesh"] = Json::parse(R"({"file": "cube.obj", "scale": 0.02, "tetrahedralize": {"cell_size": 0.006}})");
  const Model m = load_scene_text(doc.dump(), dir.string());
  ASSERT_EQ(m.fem.size(), 1u);
  EXPECT_NEAR(total_volume(m.fem[0].rest), 8e-6, 1e-9 * 8e-6);  // sharp corners kept
  ASSERT_EQ(m.meshing.size(), 1u);

  // a .msh is already tetrahedral; a fixed body is not meshed
  doc["bodies"][0]["mesh"]["tetrahedralize"] = Json::parse(R"({"cell_size": 0})");
  expect_single_issue(doc, "/bodies/0/mesh/tetrahedralize/cell_size", "> 0", dir.string());
  doc["bodies"][0]["mesh"].erase("tetrahedralize");
  expect_single_issue(doc, "/bodies/0/mesh/file", "\"tetrahedralize\"", dir.string());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace suction
