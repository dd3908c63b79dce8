// The watchdog (sim/watchdog.h): tunnelling, deep contacts and bodies leaving the scene are
// warned about with the step, once; a well-resolved run gives no warning.
#include <gtest/gtest.h>

#include <cmath>

#include "mesh/generators.h"
#include "scene/scene.h"
#include "sim/simulation.h"
#include "sim/watchdog.h"
#include "support/shipped_scenes.h"

namespace suction {
namespace {

using test::scene;

/// a rigid 6 cm cube above a 2 cm thick fixed plate (top at z = 0), or beside a small one
Model cube_over_plate(double dt, double height, bool beside = false) {
  std::string text = R"({
    "settings": {"dt": )" + std::to_string(dt) + R"(, "duration": 1},
    "materials": {"wood": {"young": 1e9, "density": 700}},
    "bodies": [
      {"name": "cube", "type": "rigid", "material": "wood",
       "mesh": {"generator": "box", "size": [0.06, 0.06, 0.06]}, "position": [0, 0, )" +
                     std::to_string(0.03 + height) + R"(]})";
  if (!beside)
    text += R"(,
      {"name": "plate", "type": "fixed", "mesh": {"generator": "box", "size": [0.5, 0.5, 0.02]},
       "position": [0, 0, -0.01]})";
  else
    text += R"(,
      {"name": "plate", "type": "fixed", "mesh": {"generator": "box", "size": [0.1, 0.1, 0.02]},
       "position": [0.3, 0, -0.01]})";
  text += "]}";
  return load_scene_text(text, ".");
}

std::vector<std::string> run_collecting_warnings(Simulation& sim, int steps) {
  std::vector<std::string> all;
  for (int i = 0; i < steps; ++i) {
    sim.step();
    all.insert(all.end(), sim.warnings().begin(), sim.warnings().end());
  }
  return all;
}

std::string joined(const std::vector<std::string>& w) {
  std::string s;
  for (const auto& x : w) s += x + "\n";
  return s;
}

TEST(Watchdog, SegmentMeetsBox) {
  Aabb box;
  box.extend(Vec3(-1, -1, -1));
  box.extend(Vec3(1, 1, 1));
  EXPECT_TRUE(segment_meets_box(Vec3(0, 0, 5), Vec3(0, 0, -5), box));    // straight through
  EXPECT_TRUE(segment_meets_box(Vec3(0, 0, 5), Vec3(0, 0, 0.5), box));   // ends inside
  EXPECT_FALSE(segment_meets_box(Vec3(0, 0, 5), Vec3(0, 0, 2), box));    // stops short
  EXPECT_FALSE(segment_meets_box(Vec3(2, 0, 5), Vec3(2, 0, -5), box));   // passes beside
  EXPECT_TRUE(segment_meets_box(Vec3(-5, -5, -5), Vec3(5, 5, 5), box));  // diagonal
  EXPECT_FALSE(segment_meets_box(Vec3(-5, 0, 3), Vec3(5, 0, 3), box));   // parallel, above
  EXPECT_TRUE(segment_meets_box(Vec3(0, 0, 0), Vec3(0, 0, 0), box));     // a point inside
}

TEST(Watchdog, ABodyJumpingThroughAPlateInOneStepIsReported) {
  // dt = 0.25 s from 1 cm: the first step moves the cube g dt^2 = 61 cm, through the 2 cm plate
  Simulation sim(cube_over_plate(0.25, 0.01));
  const auto warnings = run_collecting_warnings(sim, 2);
  ASSERT_GE(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("step 1 (t = 0.25 s): 'cube' moved 613 mm in one step", 0), 0u) << joined(warnings);
  EXPECT_NE(warnings[0].find("across 'plate'"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("tunnelling"), std::string::npos);
  EXPECT_LT(sim.state().rigid[0].position.z(), -0.02);  // it really went through
}

TEST(Watchdog, SoftCubeSqueezeAtOneSecondStepsIsReported) {
  // the issue's case: at dt = 1 s the soft cube falls through the ground without a word.  Its
  // first step already finds a contact metres deep (or, missing it, a jump across): warned
  Simulation sim(load_scene_file(scene("soft_cube_squeeze.json"), {parse_override("/settings/dt=1")}));
  std::vector<std::string> warnings;
  try {
    warnings = run_collecting_warnings(sim, 3);
  } catch (const SimulationError&) {
  }
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings[0].find("'cube'"), std::string::npos) << joined(warnings);
  EXPECT_NE(warnings[0].find("use a smaller time step"), std::string::npos) << joined(warnings);
}

TEST(Watchdog, AResolvedLandingGivesNoWarning) {
  // the same drop at dt = 5 ms: it lands and rests on the plate, no warning at any step
  Simulation sim(cube_over_plate(0.005, 0.01));
  const auto warnings = run_collecting_warnings(sim, 100);
  EXPECT_TRUE(warnings.empty()) << joined(warnings);
  EXPECT_NEAR(sim.state().rigid[0].position.z(), 0.03, 2e-3);
}

TEST(Watchdog, ABodyLeavingTheSceneIsReportedOnce) {
  // the plate lies beside the cube: it falls past.  The scene's extent is the initial boxes
  // (x in [-0.03, 0.35], y in [-0.05, 0.05], z in [-0.02, 0.06]) grown by their diagonal: the
  // warning comes when the cube's top passes below -0.02 - diagonal
  const double dt = 0.01;
  Simulation sim(cube_over_plate(dt, 0.0, /*beside=*/true));
  const auto warnings = run_collecting_warnings(sim, 60);
  ASSERT_EQ(warnings.size(), 1u) << joined(warnings);
  EXPECT_NE(warnings[0].find("'cube' has left the scene"), std::string::npos) << warnings[0];
  const double diagonal = Vec3(0.38, 0.1, 0.08).norm();
  const double fall = 0.06 - (-0.02 - diagonal);
  // implicit Euler falls g dt^2 n (n + 1) / 2 after n steps
  const double n = 0.5 * (-1.0 + std::sqrt(1.0 + 8.0 * fall / (9.81 * dt * dt)));
  const long step = std::stol(warnings[0].substr(5));
  EXPECT_NEAR(static_cast<double>(step), std::ceil(n), 1.0) << warnings[0];
  // a free fall with no fixed body has no stage to leave: no warning
  Simulation free(load_scene_file(scene("cup_fall.json")));
  EXPECT_TRUE(run_collecting_warnings(free, 50).empty());
}

TEST(Watchdog, ADeepContactIsReportedOnceAboveTheSetFraction) {
  Model model = cube_over_plate(0.01, 0.0);
  State state = make_initial_state(model);
  Watchdog dog;
  dog.reset(model, state);
  Contact c;
  c.a.body = 0;  // the cube (rigid slot 0: no FEM bodies)
  c.b.body = 1;  // the plate, 2 cm thick: the thinner body
  std::vector<std::string> warnings;
  c.gap = -0.014;  // 70 % of 2 cm: below the default 75 %
  dog.check(model, state, state, {c}, warnings);
  EXPECT_TRUE(warnings.empty()) << joined(warnings);
  c.gap = -0.016;  // 80 %
  dog.check(model, state, state, {c}, warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("a contact of 'cube' and 'plate' penetrates 16 mm"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("80 % of the size of the body it enters (20 mm"), std::string::npos) << warnings[0];
  dog.check(model, state, state, {c}, warnings);  // once per pair and run
  EXPECT_EQ(warnings.size(), 1u);
  // the fraction is a setting; 0 turns it off
  model.settings.contact.penetration_warning = 0.0;
  Watchdog off;
  off.reset(model, state);
  std::vector<std::string> none;
  off.check(model, state, state, {c}, none);
  EXPECT_TRUE(none.empty());
}

// The interpenetration check's test: a vertical ray's crossings of a closed surface, odd inside,
// and the distance to it.  Points on the ray through the box's face diagonals (x = y) and
// through its edges' columns test the rule that gives a shared edge to one triangle.
TEST(Watchdog, VerticesInsideAClosedSurfaceAreFoundWithTheirDepth) {
  const SurfaceMesh box = make_box_surface(Vec3(2, 2, 2));  // [−1, 1]³
  const Points pts = {Vec3(0.5, 0, 0),   Vec3(0.95, 0, 0),  Vec3(1.5, 0, 0),    Vec3(0, 0, 0),   Vec3(0.3, 0.3, 0),
                      Vec3(-0.4, -0.4, 0.2), Vec3(0.3, 0.3, 5), Vec3(0.3, 0.3, -5), Vec3(-0.6, 0.6, -0.1)};
  // inside deeper than 0.1: (0.5, 0, 0) by 0.5, the centre by 1, (0.3, 0.3, 0) by 0.7,
  // (−0.4, −0.4, 0.2) by 0.6, (−0.6, 0.6, −0.1) by 0.4; (0.95, 0, 0) is 0.05 deep; the rest outside
  for (int turned = 0; turned < 2; ++turned) {
    SCOPED_TRACE(turned ? "turned" : "axis-aligned");
    const Mat3 R = turned ? Mat3(Eigen::AngleAxisd(0.9, Vec3(1, 2, -1).normalized())) : Mat3::Identity();
    Points x = box.vertices, p = pts;
    for (Vec3& v : x) v = R * v;
    for (Vec3& v : p) v = R * v;
    TriangleBvh bvh;
    bvh.build(box.triangles, x);
    const Interpenetration in = vertices_inside(p, bvh, x, 0.1);
    EXPECT_EQ(in.vertices, 5);
    EXPECT_NEAR(in.deepest, 1.0, 1e-12);
    EXPECT_EQ(vertices_inside(p, bvh, x, 0.01).vertices, 6) << "with (0.95, 0, 0)";
    EXPECT_EQ(vertices_inside(p, bvh, x, 2.0).vertices, 0);
  }
}

TEST(Watchdog, ABodyStartedInsideAnotherIsReported) {
  // a cube started 5 mm into the plate: deeper than contacts see (3 alarm distances), so no
  // contact pushes it out, and nothing else would say so
  Simulation sim(cube_over_plate(0.005, -0.005));
  const auto warnings = run_collecting_warnings(sim, 3);
  std::vector<std::string> inside;
  for (const auto& w : warnings)
    if (w.find("are inside") != std::string::npos) inside.push_back(w);
  ASSERT_EQ(inside.size(), 1u) << joined(warnings);
  EXPECT_EQ(inside[0].rfind("step 1 (t = 0.005 s): ", 0), 0u) << inside[0];
  EXPECT_NE(inside[0].find("surface vertices of 'cube' are inside 'plate', up to 5"), std::string::npos) << inside[0];
  EXPECT_NE(inside[0].find("passed through each other"), std::string::npos);
}

// A block driven through a 1 mm plate, 0.3 mm a step (a position driver on every node: no
// contact can stop it).  Its bottom vertices touch the top face, are held there at the start
// of each step and pressed on; past the plate's middle the nearest face is the bottom one and
// their contact normal turns over.  The depth test cannot see it (no point of a 1 mm plate is
// deeper than 0.5 mm, below the 1 mm alarm); the turn is reported, once, naming both bodies.
TEST(Watchdog, AVertexPushedPastTheMiddleOfAThinWallIsReported) {
  const std::string text = R"({
    "settings": {"dt": 0.01, "duration": 0.1},
    "materials": {"rubber": {"young": 1e6, "poisson": 0.3, "density": 1000}, "steel": {"young": 1e9, "density": 7800}},
    "bodies": [
      {"name": "block", "type": "fem", "material": "rubber", "mesh": {"generator": "box", "size": [0.01, 0.01, 0.01]},
       "position": [0, 0, 0.0055], "node_sets": {"all": {"top": 1}}},
      {"name": "plate", "type": "fixed", "material": "steel", "mesh": {"generator": "box", "size": [0.1, 0.1, 0.001]}}],
    "drivers": [{"name": "hand", "type": "position", "body": "block", "node_set": "all",
                 "segments": [{"move": [0, 0, -0.0015], "duration": 0.05}]}]})";
  Simulation sim(load_scene_text(text, "."));
  const auto warnings = run_collecting_warnings(sim, 8);
  std::vector<std::string> far;
  for (const auto& w : warnings)
    if (w.find("went to the far side of") != std::string::npos) far.push_back(w);
  ASSERT_EQ(far.size(), 1u) << joined(warnings);
  EXPECT_NE(far[0].find("surface vertices of 'block' went to the far side of 'plate'"), std::string::npos) << far[0];
  for (const auto& w : warnings) EXPECT_EQ(w.find("are inside"), std::string::npos) << "the depth test does not see it: " << w;
}

TEST(Watchdog, ShippedScenesRunWithoutWatchdogWarnings) {
  // the scenes as shipped are resolved: a warning here would be a false alarm (first 0.3 s)
  for (const char* name : {"ground.json", "rigid_lift.json", "soft_cube_squeeze.json", "pull_test.json"}) {
    SCOPED_TRACE(name);
    Simulation sim(load_scene_file(scene(name)));
    const int steps = static_cast<int>(0.3 / sim.model().settings.dt);
    std::vector<std::string> warnings;
    for (const auto& w : run_collecting_warnings(sim, steps))
      if (w.find("mesh union") == std::string::npos) warnings.push_back(w);
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
  }
}

}  // namespace
}  // namespace suction
