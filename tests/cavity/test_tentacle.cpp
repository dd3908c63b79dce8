// The paper's octopus tentacle (scenes/tentacle.json, docs/scenes.md): a tapered arm with a row
// of cup-shaped suckers (the `tentacle` generator) over a rigid soda can lying on its side.
// The hand lowers the arm's root onto the can (the free arm falls onto it), presses, lets go
// of the press and lifts: the can comes up, held by several sucker cavities at once.  With
// cavities disabled the can stays on the ground.
//
// Oracles, not snapshots:
//  - at least three cavities between the arm and the can sealed at once, to the end;
//  - the can lifted more than 20 mm, below ambient pressure in every sealed sucker;
//  - Newton's law on the hanging can, over the final hold: the cavities' pull on the can,
//    Σ_k (P_k − P_atm) ∂V_k/∂z over the cavity vertices on the can (the force the cavity rows
//    apply, docs/method.md §6.3), plus the contact forces on the can (the arm's rims and body
//    pressing on it, downward), carries its weight.  This is the net force per body: the core's
//    holding force (P_atm − P)·A takes half the absolute area the whole cavity projects along its
//    sealing ring's normal, which for a sucker's pocket on the can is the mouth's area, so it is
//    compared with the pull too, but it cannot see the contacts;
//  - the hand carries the arm and the can.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cavity/cavity_mesh.h"
#include "cavity/story.h"
#include "model/body_slots.h"
#include "probes/probes.h"
#include "scene/scene.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

using story::probe;

constexpr int kArm = 0;                   // the scene's FEM body (slot 0)
constexpr int kCan = 0, kGround = 1;      // its rigid bodies, in file order

struct Hanging {                // means over the final hold (the last 0.4 s)
  double pull = 0;              // z of Σ (P − P_atm)·∂V/∂x over the sealed cavities' vertices on the can [N]
  double hold = 0;              // Σ of the core's holding force (P_atm − P)·A over the same cavities [N]
  double contact = 0;           // z of all contact forces on the can [N]
  double ground = 0;            // z of the ground's contact forces on the can [N]
  double hand = 0;              // hand force [N]
  double p_max = 0;             // the highest pressure among the sealed cavities [Pa]
};

struct TentacleRun {
  double z_rest = 0, lift = 0;        // the can's centre at rest; lifted at the end [m]
  double w_can = 0, w_arm = 0;        // weights [N]
  int most_sealed = 0;                // the most cavities between the arm and the can at once
  int sealed_at_end = 0;
  bool any_cavity = false;
  double p_min = kPAtm;
  Hanging h;
};

/// the cavity's sealing pull on rigid slot `slot`: z of (P − P_atm) Σ ∂V/∂x over its vertices there
double pull_on(const Model& m, const State& s, const CavityState& c, int slot) {
  const Points x = cavity_world_vertices(m, s, c);
  const Points grad = mesh_volume_gradient(x, c.triangles);
  double fz = 0.0;
  for (size_t k = 0; k < c.vertices.size(); ++k)
    if (c.vertices[k].slot == slot) fz += grad[k].z();
  return (c.pressure - m.settings.p_atm) * fz;
}

TentacleRun tentacle_run(const std::vector<std::string>& sets) {
  std::vector<SceneOverride> o;
  for (const auto& s : sets) o.push_back(parse_override(s));
  Simulation sim(load_scene_file(std::string(SUCTION_SCENES_DIR) + "/tentacle.json", o));
  const Model& m = sim.model();
  const BodySlots slots(m);
  const int arm = slots.slot({BodyType::Fem, kArm}), can = slots.slot({BodyType::Rigid, kCan});
  const int ground = slots.slot({BodyType::Rigid, kGround});
  const double g = m.settings.gravity.norm(), dt = m.settings.dt;
  const int pz = probe(m, "object_z"), pf = probe(m, "hand_force");
  TentacleRun s;
  s.w_can = m.rigid[kCan].mass * g;
  s.w_arm = story::fem_mass(m, kArm) * g;
  s.z_rest = sim.probe_values()[pz];
  const long steps = std::lround(m.settings.duration / dt), tail = std::lround(0.4 / dt);
  for (long i = 1; i <= steps; ++i) {
    sim.step();
    const State& st = sim.state();
    // the cavities between the arm and the can
    std::vector<const CavityState*> sealed;
    for (const CavityState& c : st.book.cavities) {
      if (c.dormant) continue;
      s.any_cavity = true;
      if (std::count(c.slots.begin(), c.slots.end(), arm) && std::count(c.slots.begin(), c.slots.end(), can))
        sealed.push_back(&c);
    }
    s.most_sealed = std::max(s.most_sealed, static_cast<int>(sealed.size()));
    s.sealed_at_end = static_cast<int>(sealed.size());
    for (const CavityState* c : sealed) s.p_min = std::min(s.p_min, c->pressure);
    const auto v = sim.probe_values();
    s.lift = v[pz] - s.z_rest;
    if (i > steps - tail) {
      Hanging& h = s.h;
      h.hand += v[pf] / tail;
      for (const ContactForce& c : st.contacts) {
        if (c.body_a != can && c.body_b != can) continue;
        const double fz = c.body_a == can ? c.force.z() : -c.force.z();
        h.contact += fz / tail;
        if (c.body_a == ground || c.body_b == ground) h.ground += fz / tail;
      }
      for (const CavityState* c : sealed) {
        h.pull += pull_on(m, st, *c, can) / tail;
        h.hold += cavity_hold(m, st, *c).force / tail;
        h.p_max = std::max(h.p_max, c->pressure);
      }
    }
  }
  return s;
}

}  // namespace

// The default scene: 7 suckers seal on the can's curved top, the can (100 g) is lifted 40 mm
// and hangs from them.
TEST(TentacleStory, SeveralSuckersLiftTheCan) {
  const TentacleRun s = tentacle_run({});
  const Hanging& h = s.h;
  std::printf("tentacle: can %.4f N, arm %.4f N; cavities at most %d at once, %d at the end; lifted %.1f mm; "
              "P_min %.0f Pa, hanging P_max %.0f Pa\n", s.w_can, s.w_arm, s.most_sealed, s.sealed_at_end, 1e3 * s.lift,
              s.p_min, h.p_max);
  std::printf("  hanging: cavities' pull on the can %.4f N, contacts on it %.4f N (ground %.4f N): %.4f N for its "
              "weight %.4f N; the core's holding force %.4f N; hand %.4f N for %.4f N\n", h.pull, h.contact, h.ground,
              h.pull + h.contact, s.w_can, h.hold, h.hand, s.w_can + s.w_arm);
  EXPECT_GE(s.most_sealed, 3) << "several suckers seal at once";
  EXPECT_GE(s.sealed_at_end, 3) << "and hold the can to the end";
  EXPECT_GT(s.lift, 0.020) << "the can is lifted more than 20 mm";
  EXPECT_LT(h.p_max, kPAtm - 1000) << "every sealed sucker below ambient while it hangs";
  EXPECT_EQ(h.ground, 0.0) << "the can hangs: nothing of the ground is left";
  // Newton on the hanging can: the suckers' pull less the arm's push carries its weight
  EXPECT_NEAR(h.pull + h.contact, s.w_can, 0.02 * s.w_can) << "the can in balance (measured to 1e-4)";
  EXPECT_GT(h.pull, s.w_can) << "the suction exceeds the weight: the rims are pressed";
  // the core's holding force: the mouths' areas, the same pull
  EXPECT_NEAR(h.hold, h.pull, 0.05 * h.pull) << "(P_atm - P) A over the suckers is their pull on the can (0.3 %)";
  EXPECT_NEAR(h.hand, s.w_can + s.w_arm, 0.02 * (s.w_can + s.w_arm)) << "the hand carries the arm and the can";
}

// The control: no cavities, the same motion; the arm's rims and friction do not lift the can.
TEST(TentacleStory, WithoutCavitiesTheCanStaysOnTheGround) {
  const TentacleRun s = tentacle_run({"/settings/cavity/enabled=false"});
  std::printf("tentacle without cavities: lifted %.2f mm, ground under the can %.4f N for its weight %.4f N, hand "
              "%.4f N\n", 1e3 * s.lift, s.h.ground, s.w_can, s.h.hand);
  EXPECT_FALSE(s.any_cavity);
  EXPECT_LT(std::abs(s.lift), 0.002) << "not lifted";
  EXPECT_NEAR(s.h.ground, s.w_can, 0.02 * s.w_can) << "resting on the ground at the end";
  EXPECT_NEAR(s.h.hand, s.w_arm, 0.02 * s.w_arm) << "the hand carries the arm alone";
}
