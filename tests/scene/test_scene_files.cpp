// Every shipped scene (scenes/*.json) loads, and the ones the other tests and demos rely on
// contain what they promise.
#include <gtest/gtest.h>

#include <filesystem>

#include "scene/scene.h"

namespace suction {
namespace {

std::string scene_path(const std::string& name) { return std::string(SUCTION_SCENES_DIR) + "/" + name; }

TEST(SceneFiles, EveryShippedSceneLoads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(SUCTION_SCENES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    ++count;
    auto issues = validate_scene_file(entry.path().string());
    std::string text;
    for (const auto& i : issues) text += "  " + i.pointer + ": " + i.message + "\n";
    EXPECT_TRUE(issues.empty()) << entry.path() << ":\n" << text;
  }
  EXPECT_GE(count, 5);
}

TEST(SceneFiles, DefaultSceneDrivesTheCupHandle) {
  Model m = load_scene_file(scene_path("default.json"));
  EXPECT_EQ(m.name, "default");
  ASSERT_EQ(m.fem.size(), 1u);
  ASSERT_EQ(m.drivers.size(), 1u);
  EXPECT_EQ(m.drivers[0].name, "hand");
  // push 6 mm in 0.5 s, hold 0.3 s, pull 20 mm in 1 s
  const Keyframes& k = m.drivers[0].keyframes;
  ASSERT_EQ(k.times.size(), 4u);
  EXPECT_NEAR(k.values[1].z(), -0.006, 1e-15);
  EXPECT_NEAR(k.times[3], 1.8, 1e-15);
  EXPECT_NEAR(k.values[3].z(), 0.014, 1e-15);
  EXPECT_FALSE(m.drivers[0].nodes.empty());
  // the paper's cup weighs 20 g
  double mass = 0;
  for (double mi : m.fem[0].node_mass) mass += mi;
  EXPECT_NEAR(mass, 0.020, 0.001);
  // the ground's top face is 1 mm below the lip
  ASSERT_EQ(m.rigid.size(), 1u);
  EXPECT_NEAR(m.rigid[0].initial_position.z(), -0.006, 1e-12);
}

TEST(SceneFiles, InclineParametersReachTheModel) {
  Model m = load_scene_file(scene_path("incline.json"), {parse_override("/parameters/mu=0.7")});
  EXPECT_DOUBLE_EQ(m.materials[0].friction, 0.7);
  auto issues = validate_scene_file(scene_path("incline.json"), {parse_override("/parameters/angle_deg=95")});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].pointer, "/parameters/angle_deg/default");
}

}  // namespace
}  // namespace suction
