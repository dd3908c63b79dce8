// Quality levels (scene/quality.h): what the interactive quality derives from a scene, that it
// never overrides the user, and that a scene can limit it or turn it off.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.h"
#include "scene/quality.h"
#include "scene/scene.h"
#include "scene_issues.h"

namespace suction {
namespace {

/// a cup on the ground (the cup generator at its default resolution)
Json cup_scene() {
  return Json::parse(R"({
    "name": "cup",
    "settings": {"dt": 0.01, "duration": 0.1},
    "materials": {"silicone": {"young": 1e6, "poisson": 0.45, "density": 1100}},
    "bodies": [
      {"name": "cup", "type": "fem", "material": "silicone", "mesh": {"generator": "cup"}},
      {"name": "ground", "type": "fixed", "mesh": {"generator": "box", "size": [0.1, 0.1, 0.01]},
       "position": [0, 0, -0.0051]}
    ]
  })");
}

Model load(const Json& doc, Quality q, const std::vector<SceneOverride>& overrides = {}) {
  return load_scene_text(doc.dump(), ".", overrides, "scene", q);
}

// the message of the error loading `doc` at interactive quality gives ("" when it loads)
std::string interactive_error(const Json& doc) {
  try {
    load(doc, Quality::Interactive);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Quality, NamesParseAndAnUnknownOneListsTheLevels) {
  EXPECT_EQ(parse_quality("reference"), Quality::Reference);
  EXPECT_EQ(parse_quality("interactive"), Quality::Interactive);
  EXPECT_STREQ(quality_name(Quality::Interactive), "interactive");
  try {
    parse_quality("fast");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("reference, interactive"), std::string::npos) << e.what();
  }
}

TEST(Quality, ReferenceIsTheSceneAsWritten) {
  const Model m = load(cup_scene(), Quality::Reference);
  EXPECT_EQ(m.quality, Quality::Reference);
  EXPECT_TRUE(m.quality_changes.empty());
  EXPECT_DOUBLE_EQ(m.settings.dt, 0.01);
  EXPECT_FALSE(m.settings.factorization.reuse);
}

TEST(Quality, InteractiveDoublesTheStepAndKeepsTheFactorization) {
  const Model ref = load(cup_scene(), Quality::Reference);
  const Model m = load(cup_scene(), Quality::Interactive);
  EXPECT_EQ(m.quality, Quality::Interactive);
  EXPECT_DOUBLE_EQ(m.settings.dt, 0.02);
  EXPECT_TRUE(m.settings.factorization.reuse);
  EXPECT_FALSE(m.settings.factorization.follow_rotation) << "the turned factor only where a scene asks";
  EXPECT_EQ(m.settings.solver.subspace_every, 10) << "the pgs's subspace step";
  EXPECT_FALSE(m.settings.cavity.unite_on_ring_change) << "cavities carried through ring changes";
  EXPECT_TRUE(m.settings.cavity.follow_seal) << "their seams following the bodies";
  ASSERT_EQ(m.quality_changes.size(), 6u);
  EXPECT_EQ(m.quality_changes[0], "/settings/dt=0.02");
  EXPECT_EQ(m.quality_changes[1], "/settings/factorization/reuse=true");
  EXPECT_EQ(m.quality_changes[2], "/settings/factorization/lag_drift=0.01");
  EXPECT_EQ(m.quality_changes[3], "/settings/solver/subspace_every=10");
  EXPECT_EQ(m.quality_changes[4], "/settings/cavity/unite_on_ring_change=false");
  EXPECT_EQ(m.quality_changes[5], "/settings/cavity/follow_seal=true");
  EXPECT_DOUBLE_EQ(m.settings.factorization.lag_drift, 0.01) << "the kept matrix the step's own while it drifts little";
  EXPECT_EQ(m.settings.factorization.refinements, 0) << "a lagged step leaves nothing to refine";
  EXPECT_EQ(ref.settings.factorization.lag_drift, 0.0);
  EXPECT_EQ(ref.settings.factorization.refinements, 0);
  EXPECT_EQ(ref.settings.solver.subspace_every, 0) << "the reference is the paper's Algorithm 2";
  EXPECT_TRUE(ref.settings.cavity.unite_on_ring_change) << "the reference unites on every seal change";
  EXPECT_FALSE(ref.settings.cavity.follow_seal) << "... and its seams stay on the union's points";
  // the meshes are the reference's unless the scene allows coarser ones
  EXPECT_EQ(m.fem[0].rest.nodes.size(), ref.fem[0].rest.nodes.size());
}

TEST(Quality, TheStepIsCappedAndNeverShortened) {
  Json doc = cup_scene();
  doc["settings"]["dt"] = 0.015;  // × 2 = 30 ms: capped at max_dt 20 ms
  EXPECT_DOUBLE_EQ(load(doc, Quality::Interactive).settings.dt, 0.02);
  doc["settings"]["dt"] = 0.025;  // already above the cap: kept
  Model m = load(doc, Quality::Interactive);
  EXPECT_DOUBLE_EQ(m.settings.dt, 0.025);
  ASSERT_EQ(m.quality_changes.size(), 5u);  // the factorization (kept, lagged), the solver and the cavities only
  doc["settings"]["dt"] = 0.002;
  doc["settings"]["interactive"] = {{"time_step_factor", 3}, {"max_dt", 0.005}};
  EXPECT_DOUBLE_EQ(load(doc, Quality::Interactive).settings.dt, 0.005);
  doc["settings"]["interactive"] = {{"time_step_factor", 1}};
  EXPECT_DOUBLE_EQ(load(doc, Quality::Interactive).settings.dt, 0.002);
  // no dt in the scene: the default 10 ms is doubled
  doc["settings"].erase("dt");
  doc["settings"].erase("interactive");
  EXPECT_DOUBLE_EQ(load(doc, Quality::Interactive).settings.dt, 2 * Settings{}.dt);
}

TEST(Quality, TheUsersOverridesWin) {
  const Model m = load(cup_scene(), Quality::Interactive,
                       {parse_override("/settings/dt=0.005"), parse_override("/settings/factorization={\"reuse\": false}"),
                        parse_override("/settings/solver={\"subspace_every\": 3}"),
                        parse_override("/settings/cavity={\"unite_on_ring_change\": true}")});
  EXPECT_DOUBLE_EQ(m.settings.dt, 0.005);
  EXPECT_FALSE(m.settings.factorization.reuse);
  EXPECT_EQ(m.settings.solver.subspace_every, 3);
  EXPECT_TRUE(m.settings.cavity.unite_on_ring_change);
  EXPECT_TRUE(m.quality_changes.empty());
}

TEST(Quality, ASceneCanTurnItOff) {
  Json doc = cup_scene();
  doc["settings"]["interactive"] = {{"enabled", false}};
  const Model m = load(doc, Quality::Interactive);
  EXPECT_TRUE(m.quality_changes.empty());
  EXPECT_DOUBLE_EQ(m.settings.dt, 0.01);
  EXPECT_FALSE(m.settings.factorization.reuse);
  doc["settings"]["interactive"] = {{"factorization_reuse", false}};
  EXPECT_FALSE(load(doc, Quality::Interactive).settings.factorization.reuse);
}

// A scene asks for the kept factorization turned with its nodes at interactive quality; its own
// factorization settings stay, and the reference is as written.
TEST(Quality, ASceneCanTurnTheKeptFactorizationWithItsNodes) {
  Json doc = cup_scene();
  doc["settings"]["interactive"] = {{"follow_rotation", true}};
  doc["settings"]["factorization"] = {{"max_cg_iterations", 6}};
  const Model m = load(doc, Quality::Interactive);
  EXPECT_TRUE(m.settings.factorization.reuse);
  EXPECT_TRUE(m.settings.factorization.follow_rotation);
  EXPECT_EQ(m.settings.factorization.max_cg_iterations, 6);
  ASSERT_EQ(m.quality_changes.size(), 7u);
  EXPECT_EQ(m.quality_changes[2], "/settings/factorization/follow_rotation=true");
  const Model ref = load(doc, Quality::Reference);
  EXPECT_FALSE(ref.settings.factorization.reuse);
  EXPECT_FALSE(ref.settings.factorization.follow_rotation);
  EXPECT_EQ(m.quality_changes[3], "/settings/factorization/refinements=1");
  // the scene's own word on the turn wins
  doc["settings"]["factorization"] = {{"follow_rotation", false}};
  EXPECT_FALSE(load(doc, Quality::Interactive).settings.factorization.follow_rotation);
  // and so does its word on the refinement, in the interactive block or its factorization
  // (without the lagged matrix, which leaves nothing to refine)
  doc["settings"]["interactive"] = {{"refinements", 0}, {"lag_drift", 0}};
  EXPECT_EQ(load(doc, Quality::Interactive).settings.factorization.refinements, 0);
  doc["settings"]["interactive"] = {{"refinements", 3}, {"lag_drift", 0}};
  EXPECT_EQ(load(doc, Quality::Interactive).settings.factorization.refinements, 3);
  EXPECT_EQ(load(doc, Quality::Interactive).settings.factorization.lag_drift, 0.0);
  doc["settings"]["factorization"] = {{"refinements", 2}};
  EXPECT_EQ(load(doc, Quality::Interactive).settings.factorization.refinements, 2);
  EXPECT_EQ(load(doc, Quality::Interactive, {parse_override("/settings/factorization/refinements=0")})
                .settings.factorization.refinements,
            0);
}

// The lagged matrix (FactorizationReuse::lag_drift) at interactive quality: 1 % by default, the
// scene's interactive block or its own factorization may change it or turn it off (the
// refinement then as before); not with a factor turned with its body, which a scene asking for
// both is told.
TEST(Quality, TheKeptMatrixIsTheStepsOwnWhileItDriftsLittle) {
  Json doc = cup_scene();
  EXPECT_DOUBLE_EQ(load(doc, Quality::Interactive).settings.factorization.lag_drift, 0.01);
  doc["settings"]["interactive"] = {{"lag_drift", 0.05}};
  EXPECT_DOUBLE_EQ(load(doc, Quality::Interactive).settings.factorization.lag_drift, 0.05);
  doc["settings"]["interactive"] = {{"lag_drift", 0}};
  Model m = load(doc, Quality::Interactive);
  EXPECT_EQ(m.settings.factorization.lag_drift, 0.0);
  EXPECT_EQ(m.settings.factorization.refinements, 1) << "without it the solve is refined, as before";
  doc["settings"].erase("interactive");
  doc["settings"]["factorization"] = {{"lag_drift", 0.002}};
  m = load(doc, Quality::Interactive);
  EXPECT_DOUBLE_EQ(m.settings.factorization.lag_drift, 0.002) << "the scene's own word wins";
  EXPECT_EQ(m.settings.factorization.refinements, 0);
  EXPECT_EQ(load(doc, Quality::Reference).settings.factorization.lag_drift, 0.002) << "as written";
  EXPECT_DOUBLE_EQ(load(doc, Quality::Interactive, {parse_override("/settings/factorization/lag_drift=0.03")})
                       .settings.factorization.lag_drift,
                   0.03);
  // a turned factor: no lag (its refinement instead)
  doc["settings"].erase("factorization");
  doc["settings"]["interactive"] = {{"follow_rotation", true}};
  m = load(doc, Quality::Interactive);
  EXPECT_TRUE(m.settings.factorization.follow_rotation);
  EXPECT_EQ(m.settings.factorization.lag_drift, 0.0);
  EXPECT_EQ(m.settings.factorization.refinements, 1);
  // both asked for in the scene: an error at the lag's pointer
  doc["settings"].erase("interactive");
  doc["settings"]["factorization"] = {{"reuse", true}, {"follow_rotation", true}, {"lag_drift", 0.01}};
  try {
    load(doc, Quality::Reference);
    ADD_FAILURE() << "both accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/settings/factorization/lag_drift"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("follow_rotation"), std::string::npos) << e.what();
  }
  doc["settings"]["factorization"] = {{"lag_drift", -0.1}};
  EXPECT_THROW(load(doc, Quality::Reference), InputError);
}

TEST(Quality, CoarserGeneratedMeshesOnlyWhereTheSceneAllowsThem) {
  Json doc = cup_scene();
  doc["settings"]["interactive"] = {{"max_resolution", 12}};
  const Model ref = load(doc, Quality::Reference);
  const Model m = load(doc, Quality::Interactive);
  ASSERT_EQ(m.quality_changes.size(), 7u);
  EXPECT_EQ(m.quality_changes[6], "/bodies/0/mesh/resolution=12");
  EXPECT_LT(m.fem[0].rest.nodes.size(), ref.fem[0].rest.nodes.size());  // 12 segments around, not 16
  // a resolution below the cap, or written as an expression, is left as it is
  doc["bodies"][0]["mesh"]["resolution"] = 10;
  EXPECT_EQ(load(doc, Quality::Interactive).quality_changes.size(), 6u);
  doc["bodies"][0]["mesh"]["resolution"] = "=8 + 8";
  EXPECT_EQ(load(doc, Quality::Interactive).quality_changes.size(), 6u);
  // the user's own resolution wins
  doc["bodies"][0]["mesh"]["resolution"] = 16;
  EXPECT_EQ(load(doc, Quality::Interactive, {parse_override("/bodies/0/mesh/resolution=20")}).quality_changes.size(), 6u);
}

TEST(Quality, CoarserGeneratedSurfacesOfRigidBodiesOnlyWhereTheSceneAllowsThem) {
  Json doc = cup_scene();
  doc["bodies"].push_back(Json::parse(R"({"name": "slab", "type": "fixed",
    "mesh": {"generator": "curved_slab", "size": [0.08, 0.08, 0.01], "radius": 0.05, "resolution": 64},
    "position": [0, 0, -0.02]})"));
  doc["bodies"].push_back(Json::parse(R"({"name": "can", "type": "rigid", "material": "silicone",
    "mesh": {"generator": "cylinder", "radius": 0.02, "height": 0.05}, "position": [0.2, 0, 0.1]})"));
  const Model ref = load(doc, Quality::Reference);
  EXPECT_EQ(load(doc, Quality::Interactive).quality_changes.size(), 6u) << "not without the scene's word";
  doc["settings"]["interactive"] = {{"max_surface_resolution", 24}};
  const Model m = load(doc, Quality::Interactive);
  ASSERT_EQ(m.quality_changes.size(), 7u);
  EXPECT_EQ(m.quality_changes[6], "/bodies/2/mesh/resolution=24");  // the can's 16 is below the cap
  ASSERT_EQ(m.rigid.size(), 3u);
  // the convex slab is a prism: 2 (resolution + 3) vertices, 4 resolution + 8 triangles
  EXPECT_EQ(ref.rigid[1].surface.vertices.size(), 2u * (64 + 3));
  EXPECT_EQ(m.rigid[1].surface.vertices.size(), 2u * (24 + 3));
  EXPECT_EQ(m.rigid[1].surface.triangles.size(), 4u * 24 + 8);
  EXPECT_EQ(m.rigid[2].surface.vertices.size(), ref.rigid[2].surface.vertices.size());
  // an FEM body's resolution is not the surfaces' cap, and a slab without one has its
  // generator's 48, capped too
  EXPECT_EQ(m.fem[0].rest.nodes.size(), ref.fem[0].rest.nodes.size());
  doc["bodies"][2]["mesh"].erase("resolution");
  doc["settings"]["interactive"]["max_surface_resolution"] = 12;
  const Model c = load(doc, Quality::Interactive);
  ASSERT_EQ(c.quality_changes.size(), 8u);
  EXPECT_EQ(c.quality_changes[6], "/bodies/2/mesh/resolution=12");
  EXPECT_EQ(c.quality_changes[7], "/bodies/3/mesh/resolution=12");
  // an expression is kept, and the user's own resolution wins
  doc["bodies"][2]["mesh"]["resolution"] = "=32 + 32";
  EXPECT_EQ(load(doc, Quality::Interactive).quality_changes.size(), 7u);
  doc["bodies"][2]["mesh"]["resolution"] = 64;
  EXPECT_EQ(load(doc, Quality::Interactive, {parse_override("/bodies/2/mesh/resolution=40")}).quality_changes.size(), 7u);
  // below any generator's smallest resolution the rule is refused where it is written
  doc["settings"]["interactive"]["max_surface_resolution"] = 4;
  const std::string low = interactive_error(doc);
  EXPECT_NE(low.find("/settings/interactive/max_surface_resolution"), std::string::npos) << low;
}

TEST(Quality, AResolutionCapMayDependOnTheParameters) {
  // a curved slab under a cup: the coarse cup and slab only where the surface is flat
  Json doc = cup_scene();
  doc["parameters"] = {{"R_mm", {{"default", 0}, {"min", 0}}}};
  doc["bodies"][1] = Json::parse(R"({"name": "slab", "type": "fixed",
    "mesh": {"generator": "curved_slab", "size": [0.08, 0.08, 0.01], "radius": "=R_mm*1e-3", "resolution": 64},
    "position": [0, 0, -0.02]})");
  doc["settings"]["interactive"] = {{"max_resolution", "=12 + 8 * (R_mm > 0)"},
                                    {"max_surface_resolution", "=max(2, 64 * (R_mm > 0))"}};
  const Model ref = load(doc, Quality::Reference);
  const Model flat = load(doc, Quality::Interactive);
  ASSERT_EQ(flat.quality_changes.size(), 8u);
  EXPECT_EQ(flat.quality_changes[6], "/bodies/0/mesh/resolution==min(16, 12 + 8 * (R_mm > 0))");
  EXPECT_EQ(flat.quality_changes[7], "/bodies/1/mesh/resolution==min(64, max(2, 64 * (R_mm > 0)))");
  EXPECT_LT(flat.fem[0].rest.nodes.size(), ref.fem[0].rest.nodes.size());  // 12 segments, not 16
  EXPECT_EQ(flat.rigid[0].surface.vertices.size(), 2u * (2 + 3));          // 2 strips, not 64
  // curved (the user's parameter, as the page's slider sets it): both as written
  const Model curved = load(doc, Quality::Interactive, {parse_override("/parameters/R_mm=31.5")});
  EXPECT_EQ(curved.fem[0].rest.nodes.size(), ref.fem[0].rest.nodes.size());
  EXPECT_EQ(curved.rigid[0].surface.vertices.size(), 2u * (64 + 3));
  // the reference is the scene as written whatever the parameters
  EXPECT_EQ(load(doc, Quality::Reference, {parse_override("/parameters/R_mm=31.5")}).fem[0].rest.nodes.size(),
            ref.fem[0].rest.nodes.size());
  // a cap that does not parse, or names no parameter, is reported where it is written
  for (const char* bad : {"=12 + * 2", "=12 + 8 * (radius > 0)"}) {
    doc["settings"]["interactive"]["max_resolution"] = bad;
    const std::string e = interactive_error(doc);
    EXPECT_NE(e.find("/settings/interactive/max_resolution"), std::string::npos) << bad << ": " << e;
  }
  // a cap whose value is not an integer is reported at the mesh, with the expression
  doc["settings"]["interactive"]["max_resolution"] = "=12.5";
  const std::string e = interactive_error(doc);
  EXPECT_NE(e.find("/bodies/0/mesh/resolution"), std::string::npos) << e;
}

TEST(Quality, CoarserGeneratedBoxesKeepTheirProportionsOnlyWhereTheSceneAllowsThem) {
  Json doc = cup_scene();
  doc["bodies"].push_back(Json::parse(R"({"name": "jelly", "type": "fem", "material": "silicone",
    "mesh": {"generator": "box", "size": [0.05, 0.05, 0.05], "cells": [10, 10, 6]}, "position": [0, 0, 0.1]})"));
  const Model ref = load(doc, Quality::Reference);
  EXPECT_EQ(load(doc, Quality::Interactive).quality_changes.size(), 6u) << "not without the scene's word";
  doc["settings"]["interactive"] = {{"max_cells", 7}};
  const Model m = load(doc, Quality::Interactive);
  ASSERT_EQ(m.quality_changes.size(), 7u);
  EXPECT_EQ(m.quality_changes[6], "/bodies/2/mesh/cells=[7,7,4]") << "10 10 6 × 7/10, rounded";
  EXPECT_EQ(m.fem[1].rest.nodes.size(), 8u * 8u * 5u);
  EXPECT_EQ(ref.fem[1].rest.nodes.size(), 11u * 11u * 7u);
  EXPECT_EQ(m.fem[0].rest.nodes.size(), ref.fem[0].rest.nodes.size()) << "the cup is no box";
  EXPECT_EQ(ref.quality_changes.size(), 0u) << "reference: as written";
  // no axis below one cell; cells within the cap, or written as expressions, as they are
  doc["settings"]["interactive"] = {{"max_cells", 2}};
  doc["bodies"][2]["mesh"]["cells"] = {20, 10, 1};
  EXPECT_EQ(load(doc, Quality::Interactive).quality_changes.back(), "/bodies/2/mesh/cells=[2,1,1]");
  doc["bodies"][2]["mesh"]["cells"] = {2, 2, 1};
  EXPECT_EQ(load(doc, Quality::Interactive).quality_changes.size(), 6u);
  doc["bodies"][2]["mesh"]["cells"] = {"=5 + 5", 10, 6};
  EXPECT_EQ(load(doc, Quality::Interactive).quality_changes.size(), 6u);
  // the user's own cells win, and a bad cap is named
  doc["bodies"][2]["mesh"]["cells"] = {10, 10, 6};
  EXPECT_EQ(load(doc, Quality::Interactive, {parse_override("/bodies/2/mesh/cells=[9,9,9]")}).quality_changes.size(), 6u);
  doc["settings"]["interactive"] = {{"max_cells", 0}};
  scene_issues::expect_single_issue(doc, "/settings/interactive/max_cells", ">= 1");
}

// The pgs's subspace step at interactive quality: only for the pgs, never over the scene's or the
// user's own word, off where the scene says 0; asked of another method, a clear error.
TEST(Quality, TheSubspaceStepOnlyForThePgsAndOnlyWhereNobodySaidOtherwise) {
  Json doc = cup_scene();
  doc["settings"]["solver"] = {{"method", "apgd"}};
  EXPECT_EQ(load(doc, Quality::Interactive).settings.solver.subspace_every, 0) << "apgd has no subspace step";
  doc["settings"]["solver"] = {{"method", "pgs"}, {"subspace_every", 4}};
  EXPECT_EQ(load(doc, Quality::Interactive).settings.solver.subspace_every, 4) << "the scene's own";
  EXPECT_EQ(load(doc, Quality::Reference).settings.solver.subspace_every, 4) << "at reference too, where it asks";
  doc["settings"]["solver"] = {{"method", "pgs"}};
  doc["settings"]["interactive"] = {{"solver_subspace", 0}};
  EXPECT_EQ(load(doc, Quality::Interactive).settings.solver.subspace_every, 0) << "a scene can turn it off";
  doc["settings"]["interactive"] = {{"solver_subspace", 25}};
  EXPECT_EQ(load(doc, Quality::Interactive).settings.solver.subspace_every, 25);
  EXPECT_EQ(load(doc, Quality::Interactive, {parse_override("/settings/solver/method=\"uzawa\"")}).settings.solver.subspace_every, 0)
      << "the user chose another method";
  doc["settings"]["interactive"] = {{"solver_subspace", -1}};
  scene_issues::expect_single_issue(doc, "/settings/interactive/solver_subspace", ">= 0");
  doc["settings"].erase("interactive");
  doc["settings"]["solver"] = {{"method", "apgd"}, {"subspace_every", 10}};
  scene_issues::expect_single_issue(doc, "/settings/solver/subspace_every", "belongs to the pgs method");
  // the sliding contacts in the step: on by default, a scene may turn them off, another method
  // may not ask for them
  doc["settings"]["solver"] = {{"method", "pgs"}};
  EXPECT_TRUE(load(doc, Quality::Interactive).settings.solver.subspace_sliding);
  doc["settings"]["solver"] = {{"method", "pgs"}, {"subspace_sliding", false}};
  EXPECT_FALSE(load(doc, Quality::Interactive).settings.solver.subspace_sliding);
  EXPECT_EQ(load(doc, Quality::Interactive).settings.solver.subspace_every, 10) << "the step itself stays";
  doc["settings"]["solver"] = {{"method", "uzawa"}, {"subspace_sliding", true}};
  scene_issues::expect_single_issue(doc, "/settings/solver/subspace_sliding", "belongs to the pgs method");
  doc["settings"]["solver"] = {{"method", "pgs"}, {"subspace_sliding", 1}};
  scene_issues::expect_single_issue(doc, "/settings/solver/subspace_sliding", "expected true or false");
  // Newton's step on their slip directions: the same
  doc["settings"]["solver"] = {{"method", "pgs"}};
  EXPECT_TRUE(load(doc, Quality::Interactive).settings.solver.subspace_newton);
  doc["settings"]["solver"] = {{"method", "pgs"}, {"subspace_newton", false}};
  EXPECT_FALSE(load(doc, Quality::Interactive).settings.solver.subspace_newton);
  EXPECT_TRUE(load(doc, Quality::Interactive).settings.solver.subspace_sliding) << "the sliding contacts stay";
  doc["settings"]["solver"] = {{"method", "apgd"}, {"subspace_newton", true}};
  scene_issues::expect_single_issue(doc, "/settings/solver/subspace_newton", "belongs to the pgs method");
  doc["settings"]["solver"] = {{"method", "pgs"}, {"subspace_newton", "yes"}};
  scene_issues::expect_single_issue(doc, "/settings/solver/subspace_newton", "expected true or false");
}

TEST(Quality, ABadInteractiveBlockIsReportedWithItsPointer) {
  Json doc = cup_scene();
  doc["settings"]["interactive"] = {{"max_dt", -1}};
  scene_issues::expect_single_issue(doc, "/settings/interactive/max_dt", "> 0");
  doc["settings"]["interactive"] = {{"time_step_factr", 2}};
  scene_issues::expect_single_issue(doc, "/settings/interactive/time_step_factr", "did you mean 'time_step_factor'");
  doc["settings"]["interactive"] = {{"compare", Json::array()}};
  scene_issues::expect_single_issue(doc, "/settings/interactive/compare", "non-empty array");
  doc["settings"]["interactive"] = {{"compare", {"release_t", 3}}};
  scene_issues::expect_single_issue(doc, "/settings/interactive/compare/1", "string");
  doc["settings"]["interactive"] = {{"compare", {"pressure_min_min", "release_t"}}};
  EXPECT_EQ(load(doc, Quality::Reference).settings.story_numbers,
            (std::vector<std::string>{"pressure_min_min", "release_t"}));
  doc["settings"]["interactive"] = {{"max_dt", "=0.02"}};
  {
    const auto issues = scene_issues::issues_of(doc);
    ASSERT_GE(issues.size(), 1u);
    EXPECT_EQ(issues[0].pointer, "/settings/interactive/max_dt");
    EXPECT_NE(issues[0].message.find("not an expression"), std::string::npos) << issues[0].message;
  }
  // at interactive quality too, the same issue (the derivation leaves bad values to the reader)
  doc["settings"]["interactive"] = {{"max_dt", "soon"}};
  try {
    load(doc, Quality::Interactive);
    FAIL() << "no error";
  } catch (const SceneError& e) {
    ASSERT_EQ(e.issues().size(), 1u);
    EXPECT_EQ(e.issues()[0].pointer, "/settings/interactive/max_dt");
  }
}

}  // namespace
// carry_cavities: on by default at interactive quality, off by the scene's rule, never over the
// user's or the scene's own cavity.unite_on_ring_change or cavity.follow_seal
TEST(Quality, CavitiesAreCarriedThroughRingChangesUnlessTheSceneOrTheUserSaysSo) {
  Json doc = cup_scene();
  EXPECT_FALSE(load(doc, Quality::Interactive).settings.cavity.unite_on_ring_change);
  EXPECT_TRUE(load(doc, Quality::Interactive).settings.cavity.follow_seal);
  doc["settings"]["interactive"] = {{"carry_cavities", false}};
  EXPECT_TRUE(load(doc, Quality::Interactive).settings.cavity.unite_on_ring_change) << "the scene's rule";
  EXPECT_FALSE(load(doc, Quality::Interactive).settings.cavity.follow_seal) << "the scene's rule";
  doc = cup_scene();
  doc["settings"]["cavity"]["follow_seal"] = false;
  const Model kept = load(doc, Quality::Interactive);
  EXPECT_FALSE(kept.settings.cavity.follow_seal) << "the scene's own setting";
  EXPECT_FALSE(kept.settings.cavity.unite_on_ring_change) << "the other half of the rule still applies";
  EXPECT_FALSE(load(cup_scene(), Quality::Interactive, {parse_override("/settings/cavity/follow_seal=false")})
                   .settings.cavity.follow_seal)
      << "the user's override";
  doc = cup_scene();
  doc["settings"]["cavity"]["unite_on_ring_change"] = true;
  const Model own = load(doc, Quality::Interactive);
  EXPECT_TRUE(own.settings.cavity.unite_on_ring_change) << "the scene's own setting";
  for (const auto& c : own.quality_changes) EXPECT_EQ(c.find("unite_on_ring_change"), std::string::npos) << c;
  doc = cup_scene();
  doc["settings"]["cavity"] = {{"enabled", true}};
  EXPECT_TRUE(load(doc, Quality::Interactive, {parse_override("/settings/cavity/unite_on_ring_change=true")})
                  .settings.cavity.unite_on_ring_change)
      << "the user's override";
}

}  // namespace suction
