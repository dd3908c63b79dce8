// The cavities stage (stages/cavities.cpp): a cavity carried while its seals change only
// within its ring (cavity.unite_on_ring_change false, the interactive quality's
// carry_cavities) against a fresh union of the same state (docs/method.md §9.1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "scene/scene.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

Model pull_test(bool carry) {
  Model m = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/pull_test.json", {}, Quality::Interactive);
  m.settings.cavity.unite_on_ring_change = !carry;
  return m;
}

const CavityState* largest(const State& s) {
  const CavityState* best = nullptr;
  for (const CavityState& c : s.cavities)
    if (!c.dormant && (!best || c.volume > best->volume)) best = &c;
  return best;
}

struct Drift {
  long compared = 0, unions = 0;
  double volume = 0.0, pressure = 0.0;  // largest relative differences
};

// At every step a run did not unite: the same state handed to a simulation that forgets the
// last seals (so it unites every group again) and stepped once; the two cavities compared.
Drift drift_against_fresh_unions(bool carry, double tolerance) {
  Simulation sim(pull_test(carry));
  const long steps = std::lround(sim.model().settings.duration / sim.model().settings.dt);
  Drift d;
  for (long k = 0; k < steps; ++k) {
    State before = sim.state();
    sim.step();
    const int u = sim.profile().cavity_unions;
    d.unions += u;
    const CavityState* c = largest(sim.state());
    if (u > 0 || !c || before.cavities.empty()) continue;
    Simulation fresh(pull_test(false));
    before.sealing_contacts.clear();  // every group is new: united again
    fresh.mutable_state() = before;
    fresh.step();
    EXPECT_GT(fresh.profile().cavity_unions, 0) << "step " << k;
    const CavityState* f = largest(fresh.state());
    if (!f) {
      ADD_FAILURE() << "step " << k << ": the fresh union finds no cavity";
      continue;
    }
    d.volume = std::max(d.volume, std::abs(c->volume / f->volume - 1.0));
    d.pressure = std::max(d.pressure, std::abs(c->pressure / f->pressure - 1.0));
    EXPECT_NEAR(c->volume, f->volume, tolerance * f->volume) << "step " << k;
    EXPECT_NEAR(c->pressure, f->pressure, tolerance * f->pressure) << "step " << k;
    ++d.compared;
  }
  return d;
}

}  // namespace

// Over the whole pull test (the cup pressed, held and pulled off a flat surface), every step a
// cavity was carried ends with the cavity a fresh union of the same state gives within 1.5 % in
// volume and pressure (measured: 1.3 % and 1.0 %; a cavity moved 0.5 % in volume from its
// union's is united again, stages/cavities.cpp).  Uniting on every seal
// change carries too (a step whose seals did not change), and is held to the same.  Carrying
// through ring changes saves unions.
TEST(CarriedCavityStory, ACavityCarriedThroughAPullTestMatchesAFreshUnion) {
  const Drift carried = drift_against_fresh_unions(true, 0.015);
  const Drift uniting = drift_against_fresh_unions(false, 0.015);
  std::printf("pull_test interactive, carried through ring changes: %ld steps carried, volume within %.2e and "
              "pressure within %.2e of a fresh union, %ld unions; uniting on every seal change: %ld steps carried, "
              "%.2e and %.2e, %ld unions\n",
              carried.compared, carried.volume, carried.pressure, carried.unions, uniting.compared, uniting.volume,
              uniting.pressure, uniting.unions);
  EXPECT_GT(carried.compared, uniting.compared);
  EXPECT_LT(carried.unions, uniting.unions);
}
