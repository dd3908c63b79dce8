// Scene loader: a valid scene builds the expected Model; each kind of bad field is reported
// with its JSON pointer and what was expected; overrides; several issues at once.
#include <gtest/gtest.h>

#include <filesystem>

#include "scene/json_reader.h"
#include "scene/scene.h"
#include "scene/scene_issues.h"

namespace suction {
namespace {

/// a small valid scene: one fem block (fixed bottom, driven top), a fixed ground, probes
Json base_scene() {
  return Json::parse(R"({
    "name": "test",
    "parameters": {
      "E_mpa": {"default": 1, "unit": "MPa", "doc": "Young's modulus", "min": 0.1, "max": 10},
      "push_mm": {"default": 2, "unit": "mm"},
      "push_m": {"default": "=push_mm*1e-3", "unit": "m"}
    },
    "settings": {"dt": 0.01, "duration": 0.1},
    "materials": {
      "silicone": {"young": "=E_mpa*1e6", "poisson": 0.45, "density": 1100}
    },
    "bodies": [
      {"name": "block", "type": "fem", "material": "silicone",
       "mesh": {"generator": "box", "size": [0.02, 0.02, 0.01], "cells": [2, 2, 1]},
       "node_sets": {"top": {"top": 0.0001}, "bottom": {"bottom": 0.0001}, "all": {"all": true}},
       "fixed_nodes": "bottom"},
      {"name": "ground", "type": "fixed",
       "mesh": {"generator": "box", "size": [0.1, 0.1, 0.01]}, "position": [0, 0, -0.0101]}
    ],
    "drivers": [
      {"name": "hand", "type": "position", "body": "block", "node_set": "top",
       "keyframes": [[0, 0, 0, 0], [1, 0, 0, "=-push_m"]]}
    ],
    "probes": [
      {"name": "hand_force", "type": "driver_force", "driver": "hand", "scale": -1},
      {"name": "block_z", "type": "position", "body": "block"}
    ]
  })");
}

using scene_issues::dump;
using scene_issues::expect_single_issue;
using scene_issues::issues_of;

TEST(SceneLoader, BaseSceneBuildsTheModel) {
  Model m = load_scene_text(base_scene().dump(), ".");
  EXPECT_EQ(m.name, "test");
  EXPECT_DOUBLE_EQ(m.settings.dt, 0.01);
  EXPECT_DOUBLE_EQ(m.settings.duration, 0.1);
  EXPECT_DOUBLE_EQ(m.settings.gravity.z(), -9.81);
  EXPECT_DOUBLE_EQ(m.settings.p_atm, 101325.0);
  // materials: silicone, then "default" appended for the ground
  ASSERT_EQ(m.materials.size(), 2u);
  EXPECT_EQ(m.materials[0].name, "silicone");
  EXPECT_DOUBLE_EQ(m.materials[0].young, 1e6);
  EXPECT_DOUBLE_EQ(m.materials[0].density, 1100.0);
  EXPECT_EQ(m.materials[1].name, "default");
  // bodies
  ASSERT_EQ(m.fem.size(), 1u);
  ASSERT_EQ(m.rigid.size(), 1u);
  const FemBody& block = m.fem[0];
  EXPECT_EQ(block.name, "block");
  EXPECT_EQ(block.rest.nodes.size(), 3u * 3u * 2u);
  EXPECT_EQ(block.node_sets.at("top").size(), 9u);
  EXPECT_EQ(block.node_sets.at("bottom").size(), 9u);
  EXPECT_EQ(block.node_sets.at("all").size(), 18u);
  for (int n : block.node_sets.at("bottom")) EXPECT_EQ(block.node_constraint[n], -2);
  for (int n : block.node_sets.at("top")) EXPECT_EQ(block.node_constraint[n], 0);
  EXPECT_EQ(m.rigid[0].kind, RigidKind::Fixed);
  EXPECT_EQ(m.rigid[0].material, 1);
  EXPECT_NEAR(m.rigid[0].initial_position.z(), -0.0101, 1e-12);
  // driver: keyframes with the expression evaluated through two parameters
  ASSERT_EQ(m.drivers.size(), 1u);
  EXPECT_EQ(m.drivers[0].kind, DriverKind::Position);
  EXPECT_EQ(m.drivers[0].body.type, BodyType::Fem);
  EXPECT_EQ(m.drivers[0].nodes.size(), 9u);
  ASSERT_EQ(m.drivers[0].keyframes.times.size(), 2u);
  EXPECT_DOUBLE_EQ(m.drivers[0].keyframes.values[1].z(), -0.002);
  // probes
  ASSERT_EQ(m.probes.size(), 2u);
  EXPECT_EQ(m.probes[0].kind, ProbeKind::DriverForce);
  EXPECT_EQ(m.probes[0].driver, 0);
  EXPECT_DOUBLE_EQ(m.probes[0].scale, -1.0);
  EXPECT_EQ(m.probes[1].kind, ProbeKind::Position);
  EXPECT_EQ(m.probes[1].component, 2);
}

TEST(SceneLoader, DefaultNameIsTheFileStem) {
  Json doc = base_scene();
  doc.erase("name");
  EXPECT_EQ(load_scene_text(doc.dump(), ".", {}, "dir/my_scene.json").name, "my_scene");
}

TEST(SceneLoader, StringInsteadOfNumberNamesThePointer) {
  Json doc = base_scene();
  doc["materials"]["silicone"]["young"] = "abc";
  expect_single_issue(doc, "/materials/silicone/young", "expected a number, got string \"abc\"");
}

TEST(SceneLoader, MissingRequiredKey) {
  Json doc = base_scene();
  doc["materials"]["silicone"].erase("young");
  expect_single_issue(doc, "/materials/silicone/young", "missing required key 'young'");
  Json doc2 = base_scene();
  doc2["bodies"][0].erase("mesh");
  expect_single_issue(doc2, "/bodies/0/mesh", "missing required key 'mesh'");
}

TEST(SceneLoader, UnknownKeyIsATypo) {
  Json doc = base_scene();
  doc["materials"]["silicone"]["youngs"] = 1e6;
  expect_single_issue(doc, "/materials/silicone/youngs", "did you mean 'young'?");
  Json doc2 = base_scene();
  doc2["setings"] = Json::object();
  expect_single_issue(doc2, "/setings", "unknown key; did you mean 'settings'?");
}

TEST(SceneLoader, CommentsAreAllowedAnywhere) {
  Json doc = base_scene();
  doc["comment"] = "top";
  doc["$schema"] = "../docs/scene-format.md";
  doc["materials"]["silicone"]["comment"] = "soft";
  doc["materials"]["comment"] = "not a material";
  doc["bodies"][0]["mesh"]["comment"] = "box";
  EXPECT_TRUE(issues_of(doc).empty()) << dump(issues_of(doc));
}

TEST(SceneLoader, WrongEnumValue) {
  Json doc = base_scene();
  doc["bodies"][0]["type"] = "fme";
  expect_single_issue(doc, "/bodies/0/type", "expected one of fem, rigid, fixed, kinematic, got \"fme\"");
  Json doc2 = base_scene();
  doc2["probes"][1]["component"] = "w";
  expect_single_issue(doc2, "/probes/1/component", "expected one of x, y, z, norm, got \"w\"");
}

TEST(SceneLoader, WrongArrayLength) {
  Json doc = base_scene();
  doc["bodies"][1]["position"] = {0, 0};
  expect_single_issue(doc, "/bodies/1/position", "expected an array of 3 numbers, got an array of 2");
}

TEST(SceneLoader, NegativeTimeStep) {
  Json doc = base_scene();
  doc["settings"]["dt"] = -0.01;
  expect_single_issue(doc, "/settings/dt", "expected a value > 0, got -0.01");
}

TEST(SceneLoader, SelfContactExclusionMustExceedTheReach) {
  Json doc = base_scene();
  doc["bodies"][0]["self_contact"] = true;
  doc["settings"]["contact"] = {{"alarm_distance", 0.001}, {"self_contact_exclusion", 0.002}};
  expect_single_issue(doc, "/settings/contact/self_contact_exclusion",
                      "more than the detector's reach, max(alarm_distance + contact_distance, 3 x alarm_distance) = 0.003 m, got 0.002");
  doc["settings"]["contact"]["self_contact_exclusion"] = 0.004;
  const Model m = load_scene_text(doc.dump(), ".");
  EXPECT_TRUE(m.fem[0].self_contact);
  EXPECT_DOUBLE_EQ(m.settings.contact.self_contact_exclusion, 0.004);
  // a rigid body has no self-contact: the key is unknown there
  doc["bodies"][1]["self_contact"] = true;
  EXPECT_FALSE(issues_of(doc).empty());
}

TEST(SceneLoader, PoissonOutOfRange) {
  Json doc = base_scene();
  doc["materials"]["silicone"]["poisson"] = 0.5;
  expect_single_issue(doc, "/materials/silicone/poisson", "expected a value in (-1, 0.5), got 0.5");
}

TEST(SceneLoader, UnknownMaterialReference) {
  Json doc = base_scene();
  doc["bodies"][0]["material"] = "silicon";
  expect_single_issue(doc, "/bodies/0/material", "unknown material 'silicon'; materials: silicone");
}

TEST(SceneLoader, UnknownBodyInDriverAndProbe) {
  Json doc = base_scene();
  doc["drivers"][0]["body"] = "blok";
  expect_single_issue(doc, "/drivers/0/body", "unknown body 'blok'; bodies: block, ground");
  Json doc2 = base_scene();
  doc2["probes"][1]["body"] = "nobody";
  expect_single_issue(doc2, "/probes/1/body", "unknown body 'nobody'");
  Json doc3 = base_scene();
  doc3["probes"][0]["driver"] = "foot";
  expect_single_issue(doc3, "/probes/0/driver", "unknown driver 'foot'; drivers: hand");
}

TEST(SceneLoader, DuplicateNames) {
  Json doc = base_scene();
  doc["bodies"][1]["name"] = "block";
  expect_single_issue(doc, "/bodies/1/name", "duplicate body name 'block' (also /bodies/0)");
  Json doc2 = base_scene();
  doc2["probes"][1]["name"] = "hand_force";
  expect_single_issue(doc2, "/probes/1/name", "duplicate probe name 'hand_force'");
  Json doc3 = base_scene();
  doc3["drivers"].push_back(doc3["drivers"][0]);
  doc3["drivers"][1]["node_set"] = "all";
  doc3["drivers"][1]["type"] = "force";
  expect_single_issue(doc3, "/drivers/1/name", "duplicate driver name 'hand'");
  Json doc4 = base_scene();
  doc4["probes"][1]["name"] = "pressure_min";
  expect_single_issue(doc4, "/probes/1/name", "clashes with a fixed CSV column");
}

TEST(SceneLoader, NonIncreasingKeyframeTimes) {
  Json doc = base_scene();
  doc["drivers"][0]["keyframes"] = Json::parse("[[0, 0, 0, 0], [0.5, 0, 0, 1], [0.5, 0, 0, 2]]");
  expect_single_issue(doc, "/drivers/0/keyframes/2/0", "strictly increasing");
  Json doc2 = base_scene();
  doc2["drivers"][0]["keyframes"] = Json::parse(R"({"t": [0, 1, 0.5], "value": [[0,0,0],[0,0,1],[0,0,2]]})");
  expect_single_issue(doc2, "/drivers/0/keyframes/t/2", "strictly increasing");
  Json doc3 = base_scene();
  doc3["drivers"][0]["keyframes"] = Json::parse("[[0, 0, 0]]");
  expect_single_issue(doc3, "/drivers/0/keyframes/0", "expected a keyframe [t, x, y, z]");
}

TEST(SceneLoader, KeyframesAsObject) {
  Json doc = base_scene();
  doc["drivers"][0]["keyframes"] = Json::parse(R"({"t": [0, 1], "value": [[0,0,0],[0,0,"=-push_m"]]})");
  Model m = load_scene_text(doc.dump(), ".");
  EXPECT_DOUBLE_EQ(m.drivers[0].keyframes.values[1].z(), -0.002);
  doc["drivers"][0]["keyframes"]["value"].erase(1);
  expect_single_issue(doc, "/drivers/0/keyframes/value", "expected 2 values (one per time), got 1");
}

TEST(SceneLoader, SegmentsExpandIntoKeyframes) {
  Json doc = base_scene();
  doc["drivers"][0].erase("keyframes");
  doc["drivers"][0]["segments"] = Json::parse(R"([
    {"move": [0, 0, -0.006], "duration": 0.5}, {"hold": 0.3}, {"move": [0, 0, 0.02], "duration": 1}])");
  Model m = load_scene_text(doc.dump(), ".");
  const Keyframes& k = m.drivers[0].keyframes;
  ASSERT_EQ(k.times.size(), 4u);
  EXPECT_DOUBLE_EQ(k.times[1], 0.5);
  EXPECT_DOUBLE_EQ(k.times[2], 0.8);
  EXPECT_DOUBLE_EQ(k.times[3], 1.8);
  EXPECT_DOUBLE_EQ(k.values[0].z(), 0.0);
  EXPECT_DOUBLE_EQ(k.values[2].z(), -0.006);
  EXPECT_NEAR(k.values[3].z(), 0.014, 1e-15);
  doc["drivers"][0]["segments"][1]["hold"] = -1;
  expect_single_issue(doc, "/drivers/0/segments/1/hold", "expected a value > 0");
}

TEST(SceneLoader, BadExpressions) {
  Json doc = base_scene();
  doc["bodies"][1]["position"][2] = "=pusm_mm*1e-3";
  expect_single_issue(doc, "/bodies/1/position/2", "unknown parameter 'pusm_mm' in expression");
  Json doc2 = base_scene();
  doc2["materials"]["silicone"]["young"] = "=E_mpa*/1e6";
  expect_single_issue(doc2, "/materials/silicone/young", "syntax error in expression");
  // parameters may only use earlier parameters
  Json doc3 = base_scene();
  doc3["parameters"]["push_mm"]["default"] = "=push_m*1e3";
  auto issues = issues_of(doc3);
  ASSERT_FALSE(issues.empty());
  EXPECT_EQ(issues[0].pointer, "/parameters/push_mm/default");
  EXPECT_NE(issues[0].message.find("unknown parameter 'push_m'"), std::string::npos);
}

TEST(SceneLoader, OverrideOfAParameterChangesTheModel) {
  Model m = load_scene_text(base_scene().dump(), ".", {parse_override("/parameters/E_mpa=4")});
  EXPECT_DOUBLE_EQ(m.materials[0].young, 4e6);
  // expressions and other pointers
  Model m2 = load_scene_text(base_scene().dump(), ".",
                             {parse_override("/parameters/push_mm==3+1"), parse_override("/settings/dt=0.005"),
                              parse_override("/settings/gravity=[0,0,-1]")});
  EXPECT_DOUBLE_EQ(m2.drivers[0].keyframes.values[1].z(), -0.004);
  EXPECT_DOUBLE_EQ(m2.settings.dt, 0.005);
  EXPECT_DOUBLE_EQ(m2.settings.gravity.z(), -1.0);
  // a new key of an existing object
  Model m3 = load_scene_text(base_scene().dump(), ".", {parse_override("/materials/silicone/friction=0.9")});
  EXPECT_DOUBLE_EQ(m3.materials[0].friction, 0.9);
}

TEST(SceneLoader, OverrideIsValidated) {
  // outside the parameter's [min, max]
  expect_single_issue(base_scene(), "/parameters/E_mpa/default", "is above its max",
                      ".", {parse_override("/parameters/E_mpa=20")});
  // a string value where a number is expected
  expect_single_issue(base_scene(), "/settings/dt", "expected a number, got string \"fast\"",
                      ".", {parse_override("/settings/dt=fast")});
}

TEST(SceneLoader, OverrideOfASettingMakesTheSettingsObjectsTheSceneLeavesOut) {
  Json doc = base_scene();
  doc["settings"].erase("solver");
  doc["settings"].erase("factorization");
  Model m = load_scene_text(doc.dump(), ".", {parse_override("/settings/solver/max_iterations=77"),
                                              parse_override("/settings/factorization/max_cg_iterations=9")});
  EXPECT_EQ(m.settings.solver.max_iterations, 77);
  EXPECT_EQ(m.settings.factorization.max_cg_iterations, 9);
  // a scene without settings at all
  Json bare = base_scene();
  bare.erase("settings");
  Model b = load_scene_text(bare.dump(), ".", {parse_override("/settings/solver/max_iterations=5")});
  EXPECT_EQ(b.settings.solver.max_iterations, 5);
  // a misspelt object or key is still named by the settings' reader
  expect_single_issue(doc, "/settings/solvr", "unknown key", ".", {parse_override("/settings/solvr/max_iterations=5")});
  expect_single_issue(doc, "/settings/solver/max_iteration", "unknown key", ".",
                      {parse_override("/settings/solver/max_iteration=5")});
  // outside /settings nothing is made
  expect_single_issue(base_scene(), "/materials/gel/young", "no such location", ".",
                      {parse_override("/materials/gel/young=1e6")});
}

TEST(SceneLoader, OverrideOfUnknownLocationIsAnError) {
  expect_single_issue(base_scene(), "/parameters/nope", "unknown parameter 'nope'; parameters: E_mpa, push_mm, push_m",
                      ".", {parse_override("/parameters/nope=1")});
  expect_single_issue(base_scene(), "/bodies/7/name", "no such location",
                      ".", {parse_override("/bodies/7/name=x")});
  expect_single_issue(base_scene(), "/nothing/here", "no such location",
                      ".", {parse_override("/nothing/here=1")});
}

TEST(SceneLoader, ParseOverride) {
  SceneOverride o = parse_override("/parameters/push_mm=8");
  EXPECT_EQ(o.pointer, "/parameters/push_mm");
  EXPECT_EQ(o.value, "8");
  SceneOverride e = parse_override("/materials/a/young==2*E");  // split at the first '='
  EXPECT_EQ(e.pointer, "/materials/a/young");
  EXPECT_EQ(e.value, "=2*E");
  EXPECT_THROW(parse_override("no_equals"), InputError);
  EXPECT_THROW(parse_override("settings/dt=1"), InputError);
}

TEST(SceneLoader, ACupProfileIsReadPointByPoint) {
  Json doc = base_scene();
  doc["bodies"][1]["mesh"] = Json::parse(R"({"generator": "cup", "profile": [[0.005, "=0.012"], [0.02, 0.002]]})");
  EXPECT_TRUE(issues_of(doc).empty()) << dump(issues_of(doc));
  doc["bodies"][1]["mesh"]["radius"] = 0.02;
  expect_single_issue(doc, "/bodies/1/mesh/radius", "not used with a profile");
  doc["bodies"][1]["mesh"] = Json::parse(
      R"({"generator": "cup", "profile": [[0.005, 0.012, 0.002], [0.02, 0.002, 0.001]], "lip_thickness": 0.001})");
  expect_single_issue(doc, "/bodies/1/mesh/lip_thickness", "not used when the profile's points give their thickness");
  doc["bodies"][1]["mesh"] = Json::parse(R"({"generator": "cup", "profile": [[0.005, 0.012], [0.02]]})");
  expect_single_issue(doc, "/bodies/1/mesh/profile/1", "expected a point of 2 numbers like the first");
  doc["bodies"][1]["mesh"] = Json::parse(R"({"generator": "cup", "profile": [[-0.005, 0.012], [0.02, 0.002]]})");
  expect_single_issue(doc, "/bodies/1/mesh/profile/0/0", "expected a value > 0");
  doc["bodies"][1]["mesh"] = Json::parse(R"({"generator": "cup", "profile": [[0.005, 0.012]]})");
  expect_single_issue(doc, "/bodies/1/mesh/profile", "at least 2 points");
  // a geometric error of the generator names the mesh
  doc["bodies"][1]["mesh"] =
      Json::parse(R"({"generator": "cup", "profile": [[0.005, 0.01], [0.02, 0], [0.01, 0.02], [0.012, -0.005]]})");
  expect_single_issue(doc, "/bodies/1/mesh", "crosses itself");
}

TEST(SceneLoader, MissingMeshFileNamesThePointerAndResolvedPath) {
  Json doc = base_scene();
  doc["bodies"][1]["mesh"] = Json::parse(R"({"file": "meshes/missing.obj"})");
  std::vector<SceneIssue> issues;
  try {
    load_scene_text(doc.dump(), "/tmp/scene_dir", {});
  } catch (const SceneError& e) {
    issues = e.issues();
  }
  ASSERT_EQ(issues.size(), 1u) << dump(issues);
  EXPECT_EQ(issues[0].pointer, "/bodies/1/mesh/file");
  EXPECT_EQ(issues[0].message, "cannot open 'meshes/missing.obj' (resolved to /tmp/scene_dir/meshes/missing.obj)");
}

TEST(SceneLoader, RigidBodyFromAnObjFileRelativeToTheScene) {
  // a 2 cm cube, outward oriented, in a folder next to the "scene"
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "suction_scene_test_obj";
  fs::create_directories(dir / "meshes");
  {
    std::FILE* f = std::fopen((dir / "meshes" / "cube.obj").string().c_str(), "w");
    std::fputs("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
               "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n", f);
    std::fclose(f);
  }
  Json doc = base_scene();
  doc["bodies"][1]["mesh"] = Json::parse(R"({"file": "meshes/cube.obj", "scale": 0.02})");
  doc["bodies"][1]["position"] = {0, 0, 1};
  Model m = load_scene_text(doc.dump(), dir.string());
  ASSERT_EQ(m.rigid.size(), 1u);
  EXPECT_NEAR(m.rigid[0].initial_position.z(), 1.01, 1e-12);
  EXPECT_NEAR(m.rigid[0].mass, 1000.0 * 0.02 * 0.02 * 0.02, 1e-12);
  fs::remove_all(dir);
}

TEST(SceneLoader, ASelfIntersectingMeshFileIsAnErrorAtLoad) {
  // two unit cubes, each closed and outward, the second pushed half into the first: the file is
  // a closed 2-manifold, but the cavities' union cannot take it
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "suction_scene_test_selfx";
  fs::create_directories(dir);
  {
    std::FILE* f = std::fopen((dir / "cubes.obj").string().c_str(), "w");
    for (double o : {0.0, 0.5})
      std::fprintf(f, "v %g 0 0\nv %g 0 0\nv %g 1 0\nv %g 1 0\nv %g 0 1\nv %g 0 1\nv %g 1 1\nv %g 1 1\n", o, o + 1,
                   o + 1, o, o, o + 1, o + 1, o);
    for (int k : {0, 8})
      std::fprintf(f, "f %d %d %d %d\nf %d %d %d %d\nf %d %d %d %d\nf %d %d %d %d\nf %d %d %d %d\nf %d %d %d %d\n",
                   k + 1, k + 4, k + 3, k + 2, k + 5, k + 6, k + 7, k + 8, k + 1, k + 2, k + 6, k + 5, k + 2, k + 3,
                   k + 7, k + 6, k + 3, k + 4, k + 8, k + 7, k + 4, k + 1, k + 5, k + 8);
    std::fclose(f);
  }
  Json doc = base_scene();
  doc["bodies"][1]["mesh"] = Json::parse(R"({"file": "cubes.obj", "scale": 0.02})");
  std::vector<SceneIssue> issues;
  try {
    load_scene_text(doc.dump(), dir.string(), {});
  } catch (const SceneError& e) {
    issues = e.issues();
  }
  ASSERT_EQ(issues.size(), 1u) << dump(issues);
  EXPECT_EQ(issues[0].pointer, "/bodies/1/mesh/file");
  EXPECT_NE(issues[0].message.find("'cubes.obj': the mesh self-intersects"), std::string::npos) << dump(issues);
  // one cube alone loads
  {
    std::FILE* f = std::fopen((dir / "cube.obj").string().c_str(), "w");
    std::fputs("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
               "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n", f);
    std::fclose(f);
  }
  doc["bodies"][1]["mesh"] = Json::parse(R"({"file": "cube.obj", "scale": 0.02})");
  EXPECT_NO_THROW(load_scene_text(doc.dump(), dir.string(), {}));
  fs::remove_all(dir);
}

TEST(SceneLoader, FemBodiesNeedATetMeshFile) {
  Json doc = base_scene();
  std::string obj = (std::filesystem::temp_directory_path() / "suction_scene_test_cube.obj").string();
  { std::FILE* f = std::fopen(obj.c_str(), "w"); std::fputs("v 0 0 0\n", f); std::fclose(f); }
  doc["bodies"][0]["mesh"] = Json{{"file", obj}};
  auto issues = issues_of(doc);
  ASSERT_FALSE(issues.empty());
  EXPECT_EQ(issues[0].pointer, "/bodies/0/mesh/file");
  EXPECT_NE(issues[0].message.find("fem bodies need a tetrahedral mesh (.msh)"), std::string::npos);
  std::filesystem::remove(obj);
}

TEST(SceneLoader, SeveralIssuesAtOnce) {
  Json doc = base_scene();
  doc["materials"]["silicone"]["young"] = "abc";
  doc["settings"]["dt"] = -1;
  doc["bodies"][1]["type"] = "fixd";
  doc["probes"][1]["body"] = "nobody";
  auto issues = issues_of(doc);
  ASSERT_EQ(issues.size(), 4u) << dump(issues);
  EXPECT_EQ(issues[0].pointer, "/settings/dt");
  EXPECT_EQ(issues[1].pointer, "/materials/silicone/young");
  EXPECT_EQ(issues[2].pointer, "/bodies/1/type");
  EXPECT_EQ(issues[3].pointer, "/probes/1/body");
  // the exception's text lists them all
  try {
    load_scene_text(doc.dump(), ".");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("/probes/1/body: unknown body 'nobody'"), std::string::npos);
  }
}

TEST(SceneLoader, NodeConstraintConflicts) {
  // a motion driver on fixed nodes
  Json doc = base_scene();
  doc["drivers"][0]["node_set"] = "bottom";
  expect_single_issue(doc, "/drivers/0/node_set", "is already fixed");
  // two motion drivers on the same nodes
  Json doc2 = base_scene();
  doc2["drivers"].push_back(doc2["drivers"][0]);
  doc2["drivers"][1]["name"] = "other";
  expect_single_issue(doc2, "/drivers/1/node_set", "already driven by driver 'hand'");
  // fem motion drivers need a node set
  Json doc3 = base_scene();
  doc3["drivers"][0].erase("node_set");
  expect_single_issue(doc3, "/drivers/0/node_set", "missing required key 'node_set'");
  // unknown node set
  Json doc4 = base_scene();
  doc4["drivers"][0]["node_set"] = "handle";
  expect_single_issue(doc4, "/drivers/0/node_set", "unknown node set 'handle' of body 'block'");
}

TEST(SceneLoader, RigidDriverTargets) {
  // a motion driver must move a kinematic body
  Json doc = base_scene();
  doc["drivers"].push_back(Json::parse(R"({"name": "lift", "type": "velocity", "body": "ground",
                                           "keyframes": [[0, 0, 0, 1]]})"));
  expect_single_issue(doc, "/drivers/1/body", "'ground' is a fixed body");
  doc["bodies"][1]["type"] = "kinematic";
  Model m = load_scene_text(doc.dump(), ".");
  EXPECT_EQ(m.rigid[0].kind, RigidKind::Kinematic);
  EXPECT_EQ(m.rigid[0].driver, 1);
  EXPECT_EQ(m.drivers[1].body.type, BodyType::Rigid);
  // force drivers push dynamic bodies
  doc["drivers"][1]["type"] = "force";
  expect_single_issue(doc, "/drivers/1/body", "force drivers push fem node sets or dynamic");
  doc["bodies"][1]["type"] = "rigid";
  doc["bodies"][1]["mass"] = 2.0;
  doc["bodies"][1]["velocity"] = {0, 0, 1};
  Model m2 = load_scene_text(doc.dump(), ".");
  EXPECT_EQ(m2.rigid[0].kind, RigidKind::Dynamic);
  EXPECT_NEAR(m2.rigid[0].mass, 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(m2.rigid[0].initial_velocity.z(), 1.0);
}

TEST(SceneLoader, KeysDependOnTheBodyType) {
  Json doc = base_scene();
  doc["bodies"][1]["velocity"] = {0, 0, 1};  // a fixed body does not move
  expect_single_issue(doc, "/bodies/1/velocity", "unknown key");
  Json doc2 = base_scene();
  doc2["bodies"][1]["node_sets"] = Json::object();
  expect_single_issue(doc2, "/bodies/1/node_sets", "unknown key");
}

TEST(SceneLoader, EmptyNodeSelectionIsAnError) {
  Json doc = base_scene();
  doc["bodies"][0]["node_sets"]["far"] = Json::parse(R"({"box": {"min": [1, 1, 1], "max": [2, 2, 2]}})");
  expect_single_issue(doc, "/bodies/0/node_sets/far", "selects no node");
  Json doc2 = base_scene();
  doc2["bodies"][0]["node_sets"]["bad"] = Json::parse(R"({"nodes": [0, 99]})");
  expect_single_issue(doc2, "/bodies/0/node_sets/bad/nodes/1", "out of range");
}

TEST(SceneLoader, RotationAndPlacement) {
  Json doc = base_scene();
  doc["bodies"][0]["rotation"] = Json::parse(R"({"axis": [0, 0, 1], "angle_deg": 90})");
  doc["bodies"][0]["position"] = {1, 0, 0};
  Model m = load_scene_text(doc.dump(), ".");
  Aabb box = bounding_box(m.fem[0].rest.nodes);
  EXPECT_NEAR(box.lo.x(), 1 - 0.01, 1e-12);
  EXPECT_NEAR(box.hi.z(), 0.005, 1e-12);
  doc["bodies"][0]["rotation"]["axis"] = {0, 0, 0};
  expect_single_issue(doc, "/bodies/0/rotation/axis", "a non-zero vector of finite length");
}

// Fuzz finding 4: an axis whose length overflows ([1e300, 1e300, 0]) passed the zero check,
// normalized() made it the zero vector, and AngleAxis then scaled the body by cos(angle): a 1 cm
// block came out 0.87 cm, silently.  The length is now computed without overflow.
TEST(SceneLoader, RotationAxisOfHugeOrTinyComponentsIsStillAUnitAxis) {
  Json doc = base_scene();
  doc["bodies"][0]["rotation"] = Json::parse(R"({"axis": [0, 0, 1], "angle_deg": 30})");
  const Model ref = load_scene_text(doc.dump(), ".");
  for (double scale : {1e300, 1e-300}) {
    doc["bodies"][0]["rotation"]["axis"] = {0, 0, scale};
    const Model m = load_scene_text(doc.dump(), ".");
    ASSERT_EQ(m.fem[0].rest.nodes.size(), ref.fem[0].rest.nodes.size());
    for (size_t i = 0; i < ref.fem[0].rest.nodes.size(); ++i)
      EXPECT_LT((m.fem[0].rest.nodes[i] - ref.fem[0].rest.nodes[i]).norm(), 1e-15) << scale;
  }
  doc["bodies"][0]["rotation"]["axis"] = {1, 1, 0};
  const Model tilted = load_scene_text(doc.dump(), ".");
  doc["bodies"][0]["rotation"]["axis"] = {1e300, 1e300, 0};
  const Model m = load_scene_text(doc.dump(), ".");
  for (size_t i = 0; i < tilted.fem[0].rest.nodes.size(); ++i)
    EXPECT_LT((m.fem[0].rest.nodes[i] - tilted.fem[0].rest.nodes[i]).norm(), 1e-15) << "the block was scaled";
  doc["bodies"][0]["rotation"]["axis"] = {1.5e308, 1.5e308, 0};  // each finite, the length is not
  expect_single_issue(doc, "/bodies/0/rotation/axis", "finite length");
}

TEST(SceneLoader, ProbeTypes) {
  Json doc = base_scene();
  doc["probes"].push_back(Json::parse(R"({"name": "top_z", "type": "node_set_position", "body": "block", "node_set": "top"})"));
  doc["probes"].push_back(Json::parse(R"({"name": "time", "type": "time"})"));
  doc["probes"].push_back(Json::parse(R"({"name": "speed", "type": "velocity", "body": "block", "component": "norm"})"));
  Model m = load_scene_text(doc.dump(), ".");
  ASSERT_EQ(m.probes.size(), 5u);
  EXPECT_EQ(m.probes[2].kind, ProbeKind::NodeSetPosition);
  EXPECT_EQ(m.probes[2].nodes.size(), 9u);
  EXPECT_EQ(m.probes[3].kind, ProbeKind::Time);
  EXPECT_EQ(m.probes[4].component, 3);
  doc["probes"][3]["body"] = "block";  // a time probe has no body
  expect_single_issue(doc, "/probes/3/body", "unknown key");
}

// Fuzz finding 3: a probe direction whose length overflows normalised to the zero vector and the
// probe recorded 0 for the whole run, silently.
TEST(SceneLoader, ProbeDirectionOfHugeComponentsIsAUnitDirection) {
  Json doc = base_scene();
  doc["probes"].push_back(Json::parse(
      R"({"name": "d", "type": "displacement", "body": "block", "direction": [1e300, 0, 1e300]})"));
  const Model m = load_scene_text(doc.dump(), ".");
  ASSERT_EQ(m.probes.size(), 3u);
  EXPECT_NEAR(m.probes[2].direction.norm(), 1.0, 1e-15);
  EXPECT_NEAR(m.probes[2].direction.x(), std::sqrt(0.5), 1e-15);
  doc["probes"][2]["direction"] = {0, 0, 0};
  expect_single_issue(doc, "/probes/2/direction", "a non-zero vector of finite length");
  doc["probes"][2]["direction"] = {1.5e308, 1.5e308, 0};
  expect_single_issue(doc, "/probes/2/direction", "finite length");
}

// Fuzz finding 2: an override value that is not UTF-8 became a JSON string, and the message
// quoting it threw nlohmann's type_error.316 out of load_scene_text (no pointer, and out of
// validate_scene_file, which never throws for scene problems).
TEST(SceneLoader, OverrideThatIsNotUtf8IsAnInputError) {
  try {
    parse_override("/settings/dt=\xff");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("/settings/dt=..."), std::string::npos) << what;
    EXPECT_NE(what.find("not valid UTF-8 (byte 0xFF at offset 13)"), std::string::npos) << what;
  }
  EXPECT_THROW(parse_override("/settings/\xc3\x28=1"), InputError);  // in the pointer
  EXPECT_NO_THROW(parse_override("/name=caf\xc3\xa9"));           // well-formed: fine
  // and a message quoting a string never throws, whatever the string holds
  EXPECT_NO_THROW(describe_json(Json(std::string("\xff\xfe"))));
}

TEST(SceneLoader, ValidateSceneFileNeverThrows) {
  auto missing = validate_scene_file("/nonexistent/scene.json");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].pointer, "");
  EXPECT_NE(missing[0].message.find("cannot open scene file"), std::string::npos);

  std::string path = (std::filesystem::temp_directory_path() / "suction_scene_test_bad.json").string();
  { std::FILE* f = std::fopen(path.c_str(), "w"); std::fputs("{\"settings\": {\"dt\": }}", f); std::fclose(f); }
  auto syntax = validate_scene_file(path);
  ASSERT_EQ(syntax.size(), 1u);
  EXPECT_NE(syntax[0].message.find("invalid JSON"), std::string::npos);
  std::filesystem::remove(path);
}

TEST(SceneLoader, TopLevelMustBeAnObject) {
  std::vector<SceneIssue> issues;
  try {
    load_scene_text("[1, 2]", ".");
  } catch (const SceneError& e) {
    issues = e.issues();
  }
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_NE(issues[0].message.find("expected a JSON object"), std::string::npos);
}

// --- hostile input: every case used to crash, hang, exhaust memory or pass silently ---------

std::vector<SceneIssue> issues_of_text(const std::string& text, const std::vector<SceneOverride>& overrides = {}) {
  try {
    load_scene_text(text, ".", overrides);
  } catch (const SceneError& e) {
    return e.issues();
  }
  return {};
}

TEST(SceneLoader, JsonStrictnessReachesTheLoaderAndOverrides) {
  // a duplicate key in the file (was accepted, keeping one value)
  std::string text = base_scene().dump();
  text.insert(text.find("\"settings\":{") + 12, "\"dt\":0.5,");
  auto dup = issues_of_text(text);
  ASSERT_EQ(dup.size(), 1u) << dump(dup);
  EXPECT_EQ(dup[0].pointer, "/settings/dt");
  EXPECT_NE(dup[0].message.find("duplicate key"), std::string::npos);
  // a number overflow, in the file and through --set (was exit 1, no pointer / a "string")
  std::string ovf = base_scene().dump();
  ovf.replace(ovf.find("\"dt\":0.01"), 9, "\"dt\":1e999");
  auto o1 = issues_of_text(ovf);
  ASSERT_EQ(o1.size(), 1u) << dump(o1);
  EXPECT_EQ(o1[0].pointer, "/settings/dt");
  expect_single_issue(base_scene(), "/settings/dt", "override: the number 1e999 is out of range",
                      ".", {parse_override("/settings/dt=1e999")});
  // a value nested 100 000 levels deep through --set
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  expect_single_issue(base_scene(), "/settings/dt", "override: nested deeper than 100 levels",
                      ".", {parse_override("/settings/dt=" + deep)});
}

TEST(SceneLoader, OversizedSceneTextIsRejectedBeforeParsing) {
  auto issues = issues_of_text("{\"description\": \"" + std::string(kMaxSceneBytes, 'x') + "\"}");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_NE(issues[0].message.find("more than the limit of 16777216"), std::string::npos) << dump(issues);
}

TEST(SceneLoader, MeshSizesBeyondTheLimitsAreIssuesNotAllocations) {
  // box cells: 1000^3 cells ended in std::bad_alloc
  expect_single_issue(base_scene(), "/bodies/0/mesh", "more than the limit of 100000 (settings.limits.max_nodes",
                      ".", {parse_override("/bodies/0/mesh/cells=[1000, 1000, 1000]")});
  expect_single_issue(base_scene(), "/bodies/1/mesh", "settings.limits.max_triangles",
                      ".", {parse_override("/bodies/1/mesh/cells=[100000, 100000, 1]")});
  // a sphere's resolution, a cylinder's aspect
  expect_single_issue(base_scene(), "/bodies/0/mesh", "sphere: ",
                      ".", {parse_override("/bodies/0/mesh={\"generator\": \"sphere\", \"radius\": 0.01, \"resolution\": 100000}"),
                       parse_override("/bodies/0/node_sets/top={\"all\": true}"),
                       parse_override("/bodies/0/node_sets/bottom={\"all\": true}")});
  expect_single_issue(base_scene(), "/bodies/1/mesh", "cylinder surface: ",
                      ".", {parse_override("/bodies/1/mesh={\"generator\": \"cylinder\", \"radius\": 1, \"height\": 1, \"resolution\": 2000000000}")});
  // the cup's layers: 300 took 12.7 s and 3.7 GB in validate
  Json cup = base_scene();
  cup["bodies"][0]["mesh"] = Json::parse(R"({"generator": "cup", "layers": 300})");
  cup["bodies"][0]["node_sets"] = Json::parse(R"({"top": {"top": 0.0001}, "bottom": {"top": 0.0001}, "all": {"all": true}})");
  expect_single_issue(cup, "/bodies/0/mesh", "cup: ");
  // the limits are settings: lower them and a small box fails, raise them and it passes
  Json low = base_scene();
  low["settings"]["limits"] = Json::parse(R"({"max_nodes": 17})");  // the block has 3*3*2 = 18 nodes
  expect_single_issue(low, "/bodies/0/mesh", "box: 18 nodes, more than the limit of 17");
  low["settings"]["limits"]["max_nodes"] = 18;
  EXPECT_TRUE(issues_of(low).empty()) << dump(issues_of(low));
  Json bad = base_scene();
  bad["settings"]["limits"] = Json::parse(R"({"max_nodes": 0, "max_cells": 3})");
  auto issues = issues_of(bad);
  ASSERT_EQ(issues.size(), 2u) << dump(issues);
}

TEST(SceneLoader, AbsurdPositionsAreIssues) {
  // -1e308 passed validate (its tets then read as degenerate)
  expect_single_issue(base_scene(), "/bodies/1/position", "expected coordinates within ±10000 m",
                      ".", {parse_override("/bodies/1/position=[0, 0, -1e308]")});
  // a mesh scaled into kilometres
  Json big = base_scene();
  big["bodies"][1]["mesh"] = Json::parse(R"({"generator": "box", "size": [100000, 1, 1]})");
  expect_single_issue(big, "/bodies/1/mesh", "beyond the limit of ±10000 m");
}

TEST(SceneLoader, ManyIssuesAreCappedWithACount) {
  Json doc = base_scene();
  for (int i = 0; i < 500; ++i) doc["settings"]["typo" + std::to_string(i)] = 1;
  auto issues = issues_of(doc);
  ASSERT_EQ(issues.size(), JsonReader::kMaxIssues + 1);
  EXPECT_NE(issues.back().message.find("and 400 more issues"), std::string::npos);
}

}  // namespace
}  // namespace suction
