// The air books of a step (AirLedger, docs/reliability.md): over whole suction scenes the air
// of the cavities changes only by the leak, new seals, lost seals and the outflow above p_max,
// every step, to rounding; air is never created from nothing.  And its energy (method §6.8):
// the internal energy U = Σ N θ / (γ − 1) changes only by new and lost air, the leak's
// enthalpy, the outflow, the work along the law and the heat from the walls.
#include <gtest/gtest.h>

#include <cmath>

#include "scene/scene.h"
#include "sim/simulation.h"

namespace suction {
namespace {

struct Totals {
  double created = 0, released = 0, leaked_in = 0, outflow = 0, worst = 0;
  double work = 0, heat = 0, enthalpy_in = 0, energy_created = 0, energy_released = 0, worst_energy = 0;
  int merges = 0, splits = 0, steps_with_air = 0;
};

Totals run_and_check_books(const std::string& name, const std::vector<std::string>& sets, double seconds) {
  std::vector<SceneOverride> o;
  for (const auto& s : sets) o.push_back(parse_override(s));
  Simulation sim(load_scene_file(std::string(SUCTION_SCENES_DIR) + "/" + name, o));
  Totals t;
  double previous_end = 0.0, previous_energy = 0.0;
  const GasSettings& gas = sim.model().settings.cavity.gas;
  const int steps = static_cast<int>(std::lround(seconds / sim.model().settings.dt));
  for (int i = 0; i < steps; ++i) {
    sim.step();
    const AirLedger& a = sim.profile().air;
    double now = 0.0;
    for (const CavityState& c : sim.state().book.cavities) {
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
    // the energy books: U from the state, and every term
    double u = 0.0;
    for (const CavityState& c : sim.state().book.cavities) u += c.air * (c.temperature / gas.t_ambient) / (gas.gamma - 1.0);
    EXPECT_NEAR(a.energy_start, previous_energy, 1e-12 * std::max(1.0, previous_energy)) << name << " step " << i + 1;
    EXPECT_NEAR(a.energy_end, u, 1e-12 * std::max(1.0, u)) << name << " step " << i + 1;
    const double escale = std::max({a.energy_start, a.energy_end, a.energy_created, a.energy_released, std::abs(a.work),
                                    std::abs(a.heat), 1e-6});
    EXPECT_LE(std::abs(a.energy_imbalance()), 1e-9 * escale) << name << " step " << i + 1;
    t.worst_energy = std::max(t.worst_energy, std::abs(a.energy_imbalance()) / escale);
    t.work += a.work;
    t.heat += a.heat;
    t.enthalpy_in += a.enthalpy_in;
    t.energy_created += a.energy_created;
    t.energy_released += a.energy_released;
    previous_energy = u;
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

TEST(AirLedger, TheEnergyBooksCloseUnderEveryGasLawWithLeakAndOutflow) {
  // ground pressed (air pushed out above p_max = P_atm), held and pulled off, with a leak, under
  // each law: the books close every step; their terms are the physics of each law
  const std::vector<std::string> leak = {"/settings/cavity/leak_rate=0.002"};
  auto with = [&](const std::string& gas) {
    std::vector<std::string> s = leak;
    s.push_back("/settings/cavity/gas=" + gas);
    return s;
  };
  const Totals iso = run_and_check_books("ground.json", leak, 1.6);
  const Totals adia = run_and_check_books("ground.json", with(R"({"law": "adiabatic"})"), 1.6);
  const Totals poly = run_and_check_books("ground.json", with(R"({"law": "polytropic", "exponent": 1.2})"), 1.6);
  const Totals exch = run_and_check_books("ground.json", with(R"({"law": "exchange", "tau": 0.05})"), 1.6);
  for (const Totals* t : {&iso, &adia, &poly, &exch}) {
    EXPECT_GT(t->energy_created, 0.0);
    EXPECT_GT(t->energy_released, 0.0);
    EXPECT_GT(t->enthalpy_in, 0.0);
    EXPECT_NE(t->work, 0.0);
  }
  // isothermal: the walls take the work and the leak's flow work, so U moves only with the amount
  EXPECT_NEAR(iso.heat, -(iso.work + iso.leaked_in), 1e-9 * std::abs(iso.work) + 1e-12);
  // adiabatic: no heat at all (the leak's enthalpy stays in the air)
  EXPECT_LE(std::abs(adia.heat), 1e-9 * std::max(std::abs(adia.work), adia.enthalpy_in));
  // polytropic n = 1.2 < γ: heat flows in while the air expands (work out), out while compressed
  EXPECT_NE(poly.heat, 0.0);
  // exchange: the walls take heat from the air the press warmed (and give it back when it cools)
  EXPECT_NE(exch.heat, 0.0);
  std::printf("energy books, worst |imbalance| / scale: isothermal %.1e, adiabatic %.1e, polytropic %.1e, exchange %.1e\n"
              "  work on the air [mJ]: %.4f %.4f %.4f %.4f; heat from the walls [mJ]: %.4f %.4f %.4f %.4f\n",
              iso.worst_energy, adia.worst_energy, poly.worst_energy, exch.worst_energy, 1e3 * iso.work, 1e3 * adia.work,
              1e3 * poly.work, 1e3 * exch.work, 1e3 * iso.heat, 1e3 * adia.heat, 1e3 * poly.heat, 1e3 * exch.heat);
}

}  // namespace
}  // namespace suction
