// Probes (core/probes/probes.cpp): cavity probes select the k-th active cavity, oldest first,
// optionally among the cavities one body bounds (a cup's cavity, alone or shared).
#include <gtest/gtest.h>

#include <algorithm>

#include "model/body_slots.h"
#include "scene/scene.h"
#include "sim/simulation.h"

namespace suction {
namespace {

const char* kThreeBodies = R"({
  "name": "three bodies",
  "settings": {"dt": 0.01, "gravity": [0, 0, 0]},
  "materials": {"steel": {"young": 2e11, "poisson": 0.3, "density": 7800}},
  "bodies": [
    {"name": "base", "type": "fixed", "material": "steel", "mesh": {"generator": "box", "size": [0.1, 0.1, 0.01]}},
    {"name": "cup_a", "type": "kinematic", "material": "steel",
     "mesh": {"generator": "box", "size": [0.01, 0.01, 0.01]}, "position": [-0.03, 0, 0.1]},
    {"name": "cup_b", "type": "kinematic", "material": "steel",
     "mesh": {"generator": "box", "size": [0.01, 0.01, 0.01]}, "position": [0.03, 0, 0.1]}
  ],
  "probes": [
    {"name": "any_0", "type": "cavity_pressure"},
    {"name": "any_1", "type": "cavity_pressure", "cavity": 1},
    {"name": "base_0", "type": "cavity_pressure", "body": "base"},
    {"name": "base_1", "type": "cavity_pressure", "body": "base", "cavity": 1},
    {"name": "a_0", "type": "cavity_pressure", "body": "cup_a"},
    {"name": "b_0", "type": "cavity_pressure", "body": "cup_b"},
    {"name": "b_1", "type": "cavity_pressure", "body": "cup_b", "cavity": 1},
    {"name": "b_volume", "type": "cavity_volume", "body": "cup_b"}
  ]
})";

CavityState cavity(int id, std::vector<int> slots, double pressure, double volume, bool dormant = false) {
  CavityState c;
  c.id = id;
  c.slots = std::move(slots);
  c.pressure = pressure;
  c.volume = volume;
  c.dormant = dormant;
  return c;
}

TEST(Probes, CavityProbesSelectTheCavitiesOfABody) {
  Simulation sim(load_scene_text(kThreeBodies, "", {}));
  const BodySlots slots(sim.model());
  const int base = slots.slot({BodyType::Rigid, 0}), a = slots.slot({BodyType::Rigid, 1}),
            b = slots.slot({BodyType::Rigid, 2});
  auto sorted = [](std::vector<int> s) {
    std::sort(s.begin(), s.end());
    return s;
  };
  // oldest first: one under cup a on the base, a dormant one under cup b, one shared by all
  // three (the two cups over a tunnel through the base)
  sim.mutable_state().book.cavities = {cavity(0, sorted({a, base}), 5e4, 1e-6),
                                  cavity(1, sorted({b, base}), 9e4, 2e-6, true),
                                  cavity(2, sorted({a, base, b}), 7e4, 3e-6)};
  const std::vector<double> v = sim.probe_values();
  const double p_atm = sim.model().settings.p_atm;
  EXPECT_EQ(v[0], 5e4) << "any body: the oldest active cavity";
  EXPECT_EQ(v[1], 7e4) << "the dormant one is not counted";
  EXPECT_EQ(v[2], 5e4) << "the base bounds both active cavities";
  EXPECT_EQ(v[3], 7e4);
  EXPECT_EQ(v[4], 5e4) << "cup a: its own cavity first";
  EXPECT_EQ(v[5], 7e4) << "cup b: the shared cavity (its own is dormant)";
  EXPECT_EQ(v[6], p_atm) << "cup b bounds no second active cavity";
  EXPECT_EQ(v[7], 3e-6);
}

TEST(Probes, ACavityProbeOnAnUnknownBodyIsAnIssueAtItsPointer) {
  std::string text = kThreeBodies;
  const std::string from = R"("body": "cup_a"})", to = R"("body": "cup_c"})";
  text.replace(text.find(from), from.size(), to);
  try {
    load_scene_text(text, "", {});
    FAIL() << "an unknown body must be an issue";
  } catch (const SceneError& e) {
    bool found = false;
    for (const auto& issue : e.issues()) found = found || issue.pointer == "/probes/4/body";
    EXPECT_TRUE(found) << e.what();
  }
}

}  // namespace
}  // namespace suction
