// The pop-up toy (scenes/popup_toy.json, docs/scenes.md): a hand pushes the head down, the cup
// sticks to the base, the compressed spring lattice pulls on the sealed cup while a leak lets
// air in, the seal breaks after a delay and the toy jumps.  Oracles: Newton's law on the head
// and cup while they are held (springs + the base's push on the lip = the suction's pull + the
// weight), the air rising at exactly the leak rate while sealed, and the same release time at
// another time step.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "model/springs.h"
#include "probes/probes.h"
#include "scene/scene.h"
#include "cavity/story.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

Model load_toy(const std::vector<std::string>& sets = {}) {
  std::vector<SceneOverride> o;
  for (const auto& s : sets) o.push_back(parse_override(s));
  return load_scene_file(std::string(SUCTION_SCENES_DIR) + "/popup_toy.json", o);
}

using story::probe;

/// the vertical force of every spring between the head and the base on the head [N]
double lattice_force_on_head(const Model& m, const State& s, int head) {
  double fz = 0.0;
  for (size_t k = 0; k < m.springs.size(); ++k) {
    const Spring& sp = m.springs[k];
    const bool a_head = sp.a.body.type == BodyType::Rigid && sp.a.body.index == head;
    const bool b_head = sp.b.body.type == BodyType::Rigid && sp.b.body.index == head;
    if (sp.zero_length() || (!a_head && !b_head)) continue;
    // the row force acts on end a along the axis from b to a, and opposite on b
    const double along = s.spring_force[k].x() * spring_geometry(m, s, static_cast<int>(k)).axis.z();
    fz += a_head ? along : -along;
  }
  return fz;
}

struct ToyRun {
  double t_seal = -1, t_release = -1;  // first step with a cavity; first step without one after it
  double base_rest = 0, head_rest = 0, base_max = -1e9, head_max = -1e9;  // [mm]
  double worst_balance = 0, hold_at_worst = 0;  // largest |Newton residual| while held [N]
  double air_held_start = 0, t_held_start = 0, air_before_release = 0, t_before_release = 0;
};

ToyRun run_toy(Simulation& sim) {
  const Model& m = sim.model();
  const int ph = probe(m, "head_z"), pb = probe(m, "base_z"), phold = probe(m, "hold"),
            pc = probe(m, "cup_contact"), pa = probe(m, "air");
  const int head = m.find_body("head")->index, cup = m.find_body("cup")->index;
  double weight = m.rigid[head].mass;
  for (double nm : m.fem[cup].node_mass) weight += nm;
  weight *= -m.settings.gravity.z();
  ToyRun r;
  auto v = sim.probe_values();
  r.head_rest = v[ph];
  r.base_rest = v[pb];
  const long steps = std::lround(m.settings.duration / m.settings.dt);
  const double t_hand_off = 0.95;  // the hand's force is 0 from here (the scene's keyframes)
  double last_air = 0, last_t = 0;
  for (long i = 0; i < steps; ++i) {
    sim.step();
    v = sim.probe_values();
    const double t = sim.state().time;
    const int cavities = sim.cavity_summary().count;
    if (cavities > 0 && r.t_seal < 0) r.t_seal = t;
    if (r.t_seal > 0 && r.t_release < 0) {
      if (cavities == 0) {
        r.t_release = t;
        r.air_before_release = last_air;
        r.t_before_release = last_t;
      } else if (t >= t_hand_off + 0.15) {
        // held, quasi-static: springs up on the head + the base up on the lip = suction + weight
        if (r.t_held_start == 0) {
          r.t_held_start = t;
          r.air_held_start = v[pa];
        }
        const double residual = lattice_force_on_head(m, sim.state(), head) + v[pc] - v[phold] - weight;
        if (std::abs(residual) > std::abs(r.worst_balance)) {
          r.worst_balance = residual;
          r.hold_at_worst = v[phold];
        }
      }
      last_air = v[pa];
      last_t = t;
    }
    if (r.t_release > 0) {
      r.base_max = std::max(r.base_max, v[pb]);
      r.head_max = std::max(r.head_max, v[ph]);
    }
  }
  return r;
}

}  // namespace

TEST(PopupToyStory, SticksHoldsWhileAirLeaksInThenJumps) {
  Simulation sim(load_toy());
  const Model& m = sim.model();
  const double leak = m.settings.cavity.leak_rate;
  ASSERT_GT(leak, 0.0);
  const ToyRun r = run_toy(sim);
  std::printf("popup_toy: sealed at %.3f s, released at %.3f s (%.2f s after the hand let go); Newton residual "
              "while held %.4f N (suction %.3f N); base up %.2f mm, head up %.2f mm\n",
              r.t_seal, r.t_release, r.t_release - 0.95, r.worst_balance, r.hold_at_worst, r.base_max - r.base_rest,
              r.head_max - r.head_rest);
  ASSERT_GT(r.t_seal, 0.2) << "no cavity before the push";
  EXPECT_LT(r.t_seal, 0.6) << "the push makes the cup stick";
  ASSERT_GT(r.t_release, 0.0) << "the seal breaks within the run";
  EXPECT_GT(r.t_release - 0.95, 0.5) << "it holds for a while after the hand lets go";
  // the suction is what holds: Newton on head and cup while held
  EXPECT_GT(r.hold_at_worst, 2.0);
  EXPECT_LT(std::abs(r.worst_balance), 0.05 * r.hold_at_worst)
      << "springs + the base's push on the lip = the suction's pull + the weight of head and cup";
  // while held below P_max the air only changes by the leak
  const double expected = leak * (r.t_before_release - r.t_held_start);
  EXPECT_NEAR(r.air_before_release - r.air_held_start, expected, 0.01 * expected);
  // the toy jumps: the head shoots up and the spring lifts the base off the table
  EXPECT_GT(r.head_max - r.head_rest, 1.0) << "mm above where the head rested before the push";
  EXPECT_GT(r.base_max - r.base_rest, 1.0) << "mm: the base leaves the table";
}

TEST(PopupToyStory, TheReleaseTimeDoesNotDependOnTheTimeStep) {
  Simulation a(load_toy({"/settings/duration=3"}));
  Simulation b(load_toy({"/settings/duration=3", "/settings/dt=0.003"}));
  const ToyRun ra = run_toy(a), rb = run_toy(b);
  std::printf("release at %.3f s (dt 2 ms) and %.3f s (dt 3 ms)\n", ra.t_release, rb.t_release);
  ASSERT_GT(ra.t_release, 0.0);
  ASSERT_GT(rb.t_release, 0.0);
  EXPECT_NEAR(ra.t_release - 0.95, rb.t_release - 0.95, 0.05 * (ra.t_release - 0.95));
}

TEST(PopupToyStory, AFinerCupTellsTheSameStory) {
  // 24 segments around the axis instead of 16: the cup sticks, holds, lets go and the toy
  // jumps; the delay moves with the mesh (1.37 s at 16 segments, 1.70 s at 24: the lip's
  // stiffness and the pressure at which it peels differ) but stays the same story
  Simulation sim(load_toy({"/bodies/0/mesh/resolution=24"}));
  const ToyRun r = run_toy(sim);
  std::printf("resolution 24: released at %.3f s (%.2f s after the hand), base up %.2f mm, Newton residual %.4f N\n",
              r.t_release, r.t_release - 0.95, r.base_max - r.base_rest, r.worst_balance);
  ASSERT_GT(r.t_release, 0.0);
  EXPECT_GT(r.t_release - 0.95, 0.5);
  EXPECT_LT(std::abs(r.worst_balance), 0.05 * r.hold_at_worst);
  EXPECT_GT(r.base_max - r.base_rest, 1.0);
}
