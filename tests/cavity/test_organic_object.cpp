// The paper's organic object (scenes/organic_object.json, docs/scenes.md): the cup seals on the
// doubly curved back of a rigid 147 g Stanford bunny (scenes/meshes/bunny.obj) and lifts it.
// Checked against the force balances while it hangs: the hand carries the cup and the bunny;
// the cavity's pull (P_atm − P)·A along its sealing ring's normal, less the lip's push, carries
// the bunny; and the bunny swings toward hanging under the cup.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "probes/probes.h"
#include "scene/scene.h"
#include "cavity/story.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

using story::probe;

struct BunnyLift {
  bool sealed_in_press = false, sealed_throughout = true;
  double lift = 0.0;                       // rise of the bunny's centre of mass at the end [mm]
  double hand = 0.0, weights = 0.0;        // mean hand force over the last 0.3 s; cup + bunny [N]
  double balance = 0.0, bunny_weight = 0.0;  // mean suction + contact forces on the bunny (z) [N]
  double suction = 0.0, tilt_deg = 0.0;    // mean (P_atm − P)·A; the sealing ring's tilt at the end
  double offset0 = 0.0, offset = 0.0;      // horizontal distance of its centre of mass from the lip's centre [mm]
};

BunnyLift bunny_run(double dt = 0.0) {
  std::vector<SceneOverride> o;
  if (dt > 0) o.push_back(parse_override("/settings/dt=" + std::to_string(dt)));
  Simulation sim(load_scene_file(std::string(SUCTION_SCENES_DIR) + "/organic_object.json", o));
  const Model& m = sim.model();
  const int pf = probe(m, "hand_force"), pl = probe(m, "bunny_lift"), ps = probe(m, "suction"),
            pc = probe(m, "bunny_contact");
  const double g = m.settings.gravity.norm();
  const double cup_mass = story::fem_mass(m, 0);
  BunnyLift r;
  r.bunny_weight = m.rigid[0].mass * g;
  r.weights = r.bunny_weight + cup_mass * g;
  const std::vector<int>& lip = m.fem[0].node_sets.at("lip");
  auto offset = [&]() {
    Vec3 c = Vec3::Zero();
    for (int i : lip) c += sim.state().fem[0].x[i];
    c /= static_cast<double>(lip.size());
    const Vec3 d = sim.state().rigid[0].position - c;
    return 1e3 * std::hypot(d.x(), d.y());
  };
  r.offset0 = offset();
  const long steps = std::lround(m.settings.duration / m.settings.dt), tail = std::lround(0.3 / m.settings.dt);
  const long press_end = std::lround(1.1 / m.settings.dt);
  bool seen = false;
  for (long i = 1; i <= steps; ++i) {
    sim.step();
    const auto v = sim.probe_values();
    const bool cavity = sim.cavity_summary().count > 0;
    if (cavity) seen = true;
    else if (seen) r.sealed_throughout = false;
    if (i == press_end) r.sealed_in_press = cavity;
    if (i > steps - tail) {
      r.hand += v[pf] / tail;
      // the cavity pulls along its sealing ring's normal, which tilts with the hanging bunny
      double pull_z = 0.0;
      for (const CavityState& c : sim.state().book.cavities)
        if (!c.dormant) {
          const CavityHold h = cavity_hold(m, sim.state(), c);
          pull_z += h.force * h.normal.z();
          r.tilt_deg = std::acos(std::min(1.0, h.normal.z())) * 180.0 / kPi;
        }
      r.balance += (pull_z + v[pc]) / tail;
      r.suction += v[ps] / tail;
    }
    r.lift = 1e3 * v[pl];
  }
  r.offset = offset();
  std::printf("organic_object dt %.3g: sealed in the press %d, throughout %d; lifted %.1f mm; hand %.3f N for "
              "weights %.3f N; suction %.3f N along the ring's normal (tilted %.1f deg), its z part + contact "
              "%.3f N for the bunny's %.3f N; its centre of mass %.1f mm from the lip's centre at rest, %.1f mm "
              "hanging\n",
              m.settings.dt, r.sealed_in_press, r.sealed_throughout, r.lift, r.hand, r.weights, r.suction, r.tilt_deg,
              r.balance, r.bunny_weight, r.offset0, r.offset);
  return r;
}

}  // namespace

TEST(OrganicObjectStory, TheCupSealsOnTheBunnysBackAndLiftsIt) {
  for (double dt : {0.01, 0.005}) {
    SCOPED_TRACE(dt);
    const BunnyLift r = bunny_run(dt);
    EXPECT_TRUE(r.sealed_in_press) << "the lip seals on the doubly curved back";
    EXPECT_TRUE(r.sealed_throughout) << "and keeps the seal";
    EXPECT_GT(r.lift, 25.0) << "mm of the 40 mm pull";
    EXPECT_NEAR(r.hand, r.weights, 0.02 * r.weights) << "hanging, the hand carries the cup and the bunny";
    EXPECT_NEAR(r.balance, r.bunny_weight, 0.03 * r.bunny_weight)
        << "the suction less the lip's push on it carries the bunny";
    EXPECT_GT(r.offset0, 15.0) << "mm: the back's top is not above the centre of mass";
    EXPECT_LT(r.offset, 0.75 * r.offset0)
        << "hanging, the centre of mass swings toward the cup (not under it: the cup is no pivot, its bending "
           "and the lip's contact carry the moment)";
  }
}
