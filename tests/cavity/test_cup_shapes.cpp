// The paper's cup shapes (scenes/cup_shapes_*.json, docs/scenes.md): three cup designs drawn as
// profiles (CupParams::profile) each lift a rigid 190 g cube.  The plunger-like and the
// octopus-sucker-like cups keep their chamber's walls and take the press in their top; the
// store-bought cup flattens.  Checked against the force balances while hanging (the hand carries
// the cup and the cube; the suction (P_atm − P)·A less the lip's push on the cube carries the
// cube) and against the
// chamber's own heights, not against a snapshot.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "scene/scene.h"
#include "cavity/story.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

using story::probe;

struct ShapeRun {
  double roof = 0.0, shoulder = 0.0;  // heights above the cube's top after the press, / initial
  double lift = 0.0;                  // rise of the cube at the end [mm]
  double hand = 0.0, weights = 0.0;   // mean hand force over the last 0.3 s, cup + cube weights [N]
  double holding = 1e9, cube_weight = 0.0;  // least (P_atm − P)·A over the last 0.3 s [N]
  double cube_balance = 0.0;          // mean (P_atm − P)·A + contact forces on the cube (z) [N]
  bool sealed_throughout = true;     // one cavity from the first seal to the end
};

ShapeRun shape_run(const std::string& design) {
  Simulation sim(load_scene_file(std::string(SUCTION_SCENES_DIR) + "/cup_shapes_" + design + ".json", {}));
  const Model& m = sim.model();
  const int pf = probe(m, "hand_force"), pz = probe(m, "object_z"), pr = probe(m, "roof_z"),
            ps = probe(m, "shoulder_z"), pc = probe(m, "cube_contact"), ph = probe(m, "suction");
  const double g = m.settings.gravity.norm(), half_cube = 0.025;
  const double cup_mass = story::fem_mass(m, 0);
  ShapeRun s;
  s.cube_weight = m.rigid[0].mass * g;
  s.weights = s.cube_weight + cup_mass * g;
  const auto v0 = sim.probe_values();
  const double z0 = v0[pz], top0 = z0 + half_cube;
  const double roof0 = v0[pr] - top0, shoulder0 = v0[ps] - top0;
  const long steps = std::lround(m.settings.duration / m.settings.dt);
  const long press_end = std::lround(0.8 / m.settings.dt), tail = std::lround(0.3 / m.settings.dt);
  bool seen = false;
  for (long i = 1; i <= steps; ++i) {
    sim.step();
    const auto v = sim.probe_values();
    const CavitySummary c = sim.cavity_summary();
    if (c.count > 0) seen = true;
    else if (seen) s.sealed_throughout = false;
    if (i == press_end) {  // pressed and held: the cube still rests
      const double top = v[pz] + half_cube;
      s.roof = (v[pr] - top) / roof0;
      s.shoulder = (v[ps] - top) / shoulder0;
    }
    if (i > steps - tail) {
      s.hand += v[pf] / tail;
      s.holding = std::min(s.holding, c.holding_force);
      s.cube_balance += (v[ph] + v[pc]) / tail;
    }
    s.lift = 1e3 * (v[pz] - z0);
  }
  s.sealed_throughout = s.sealed_throughout && seen;
  std::printf("cup_shapes_%s: after the press roof %.2f and shoulder %.2f of their heights; lifted %.1f mm; "
              "hand %.3f N for weights %.3f N; suction %.2f N for the cube's %.3f N, suction + contact %.3f N\n",
              design.c_str(), s.roof, s.shoulder, s.lift, s.hand, s.weights, s.holding, s.cube_weight, s.cube_balance);
  return s;
}

void expect_lifted_in_balance(const ShapeRun& s) {
  EXPECT_TRUE(s.sealed_throughout) << "one cavity from the press to the end";
  EXPECT_GT(s.lift, 30.0) << "mm of the 40 mm pull";
  EXPECT_NEAR(s.hand, s.weights, 0.02 * s.weights) << "hanging, the hand carries the cup and the cube";
  EXPECT_GT(s.holding, s.cube_weight) << "the suction carries the cube";
  EXPECT_NEAR(s.cube_balance, s.cube_weight, 0.03 * s.cube_weight)
      << "the cube hangs in balance: the suction less the lip's push on it is its weight";
}

}  // namespace

TEST(CupShapesStory, ThePlungerLiftsTheCubeTakingThePressInItsTop) {
  const ShapeRun s = shape_run("plunger");
  expect_lifted_in_balance(s);
  EXPECT_LT(s.roof, 0.9) << "the dome's top gives way to the press";
  EXPECT_GT(s.shoulder, 0.9) << "its walls keep their height: it does not flatten";
}

TEST(CupShapesStory, TheOctopusSuckerLiftsTheCubeTakingThePressInItsTop) {
  const ShapeRun s = shape_run("octopus");
  expect_lifted_in_balance(s);
  EXPECT_LT(s.roof, 0.9) << "the thin chamber's roof gives way to the press";
  EXPECT_GT(s.shoulder, 0.9) << "the stiff rim keeps its height";
}

TEST(CupShapesStory, TheStoreBoughtCupLiftsTheCubeFlattened) {
  const ShapeRun s = shape_run("store");
  expect_lifted_in_balance(s);
  EXPECT_LT(s.shoulder, 0.5) << "the skirt flattens on the cube";
  EXPECT_LT(s.roof, 0.5);
}
