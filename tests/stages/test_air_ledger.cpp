// The air books of a step (AirLedger, docs/reliability.md): over whole suction scenes the air
// of the cavities changes only by the leak, new seals, lost seals and the outflow above p_max,
// every step, to rounding; air is never created from nothing.
#include <gtest/gtest.h>

#include <cmath>

#include "scene/scene.h"
#include "sim/simulation.h"

namespace suction {
namespace {

struct Totals {
  double created = 0, released = 0, leaked_in = 0, outflow = 0, worst = 0;
  int merges = 0, splits = 0, steps_with_air = 0;
};

Totals run_and_check_books(const std::string& name, const std::vector<std::string>& sets, double seconds) {
  std::vector<SceneOverride> o;
  for (const auto& s : sets) o.push_back(parse_override(s));
  Simulation sim(load_scene_file(std::string(SUCTION_SCENES_DIR) + "/" + name, o));
  Totals t;
  double previous_end = 0.0;
  const int steps = static_cast<int>(std::lround(seconds / sim.model().settings.dt));
  for (int i = 0; i < steps; ++i) {
    sim.step();
    const AirLedger& a = sim.profile().air;
    double now = 0.0;
    for (const CavityState& c : sim.state().cavities) {
      now += c.air;
      EXPECT_GE(c.air, 0.0);
    }
    // the books start where the last step ended and end with the state's air
    EXPECT_NEAR(a.start, previous_end, 1e-12 * std::max(1.0, previous_end)) << name << " step " << i + 1;
    EXPECT_NEAR(a.end, now, 1e-12 * std::max(1.0, now)) << name << " step " << i + 1;
    const double scale = std::max({a.start, a.end, a.created, a.released, 1e-6});
    EXPECT_LE(std::abs(a.imbalance()), 1e-9 * scale) << name << " step " << i + 1;
    t.worst = std::max(t.worst, std::abs(a.imbalance()) / scale);
    t.created += a.created;
    t.released += a.released;
    t.leaked_in += a.leaked_in;
    t.outflow += a.outflow;
    t.merges += a.merges;
    t.splits += a.splits;
    t.steps_with_air += now > 0.0;
    previous_end = now;
  }
  return t;
}

TEST(AirLedger, GroundSealsHoldsAndLetsGoWithClosedBooks) {
  // ground: the cup seals (new air), holds at low pressure, and is pulled off (air released)
  const Totals t = run_and_check_books("ground.json", {}, 2.5);
  EXPECT_GT(t.created, 0.0);
  EXPECT_GT(t.released, 0.0);
  EXPECT_GT(t.steps_with_air, 50);
  EXPECT_EQ(t.leaked_in, 0.0);  // the scene has no leak
}

TEST(AirLedger, LeakAndOutflowAreBookedWhereTheyHappen) {
  // a leak lets air in each step; p_max at ambient pushes out what the press compresses
  const Totals t = run_and_check_books("ground.json", {"/settings/cavity/leak_rate=0.002"}, 1.2);
  EXPECT_GT(t.leaked_in, 0.0);
  EXPECT_LT(t.outflow, 0.0);  // the press squeezes air out through p_max = p_atm
}

}  // namespace
}  // namespace suction
