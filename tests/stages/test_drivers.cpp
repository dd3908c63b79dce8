// Drivers that press by force (core/stages/drivers.cpp, PressSegment in core/model/model.h):
// the admittance controller reaches the requested force and respects its speed limit, and the
// scene format reports malformed press segments at their JSON pointer.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "scene/scene.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

Model ground_pressed(const std::string& segments, double duration) {
  return load_scene_file(std::string(SUCTION_SCENES_DIR) + "/ground.json",
                         {{"/drivers/0/segments", segments},
                          {"/settings/duration", std::to_string(duration)},
                          {"/settings/cavity/enabled", "false"}});
}

}  // namespace

TEST(PressDrivers, ThePressReachesTheRequestedForceAndRespectsItsSpeedLimit) {
  // the ground scene's cup (E 4 MPa) pressed on the ground with 8 N, at most 20 mm/s
  Simulation sim(ground_pressed(R"([{"press": [0, 0, -8], "duration": 1.5}])", 1.5));
  ASSERT_EQ(sim.model().drivers.at(0).presses.size(), 1u);
  const double h = sim.model().settings.dt, vmax = sim.model().drivers[0].presses[0].max_speed;
  Vec3 last = Vec3::Zero();
  double worst_step = 0.0;
  const long steps = std::lround(1.5 / h);
  for (long i = 0; i < steps; ++i) {
    sim.step();
    const Vec3 offset = sim.state().driver_offset[0];
    worst_step = std::max(worst_step, (offset - last).norm());
    last = offset;
  }
  const Vec3 reaction = sim.state().driver_reaction[0];
  std::printf("press 8 N: reaction (%.3f, %.3f, %.3f) N after %.1f mm of travel\n", reaction.x(), reaction.y(),
              reaction.z(), -1e3 * last.z());
  EXPECT_NEAR(reaction.z(), -8.0, 0.03 * 8.0) << "the hand presses with the requested force";
  EXPECT_LT(last.z(), -1e-3) << "it moved the handle down to get there";
  EXPECT_LE(worst_step, vmax * h * (1 + 1e-12)) << "never faster than max_speed";
}

TEST(PressDrivers, LaterSegmentsMoveOnFromWhereThePressEnded) {
  Simulation sim(ground_pressed(R"([{"press": [0, 0, -5], "duration": 1.0}, {"move": [0, 0, 0.002], "duration": 0.2}])",
                                1.2));
  const long steps = std::lround(1.2 / sim.model().settings.dt);
  Vec3 offset_after_press = Vec3::Zero();
  for (long i = 0; i < steps; ++i) {
    sim.step();
    if (std::abs(sim.state().time - 1.0) < 1e-9) offset_after_press = sim.state().driver_offset[0];
  }
  EXPECT_LT(offset_after_press.z(), -1e-4);
  EXPECT_EQ(sim.state().driver_offset[0], offset_after_press) << "the offset is frozen after the press";
  EXPECT_NEAR(sim.model().drivers[0].displacement(1.2).z(), 0.002, 1e-15) << "the keyframes held still during it";
}

TEST(PressDrivers, MalformedPressSegmentsAreReportedAtTheirPointer) {
  const std::string file = std::string(SUCTION_SCENES_DIR) + "/ground.json";
  auto issues_for = [&](const std::string& segments) {
    return validate_scene_file(file, {{"/drivers/0/segments", segments}});
  };
  auto has = [](const std::vector<SceneIssue>& issues, const std::string& pointer) {
    for (const SceneIssue& i : issues)
      if (i.pointer == pointer) return true;
    return false;
  };
  EXPECT_TRUE(has(issues_for(R"([{"press": [0, 0, -5]}])"), "/drivers/0/segments/0/duration"));
  EXPECT_TRUE(has(issues_for(R"([{"press": [0, 0, -5], "duration": 1, "gain": -1}])"), "/drivers/0/segments/0/gain"));
  EXPECT_TRUE(has(issues_for(R"([{"move": [0, 0, 1], "duration": 1, "gain": 1}])"), "/drivers/0/segments/0/gain"));
  EXPECT_TRUE(has(issues_for(R"([{"press": [0, 0, -5], "hold": 1}])"), "/drivers/0/segments/0"));
  EXPECT_TRUE(issues_for(R"([{"press": [0, 0, -5], "duration": 1, "gain": 0.002, "max_speed": 0.01}])").empty());
}
