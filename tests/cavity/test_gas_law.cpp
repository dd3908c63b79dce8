// The air's heat (docs/method.md §6.8): the law of a non-isothermal cavity row and its proximal
// step against their defining equations; a sealed rigid piston compressed and expanded along the
// adiabat P·V^γ and the polytropic P·V^n; Newton's cooling after a fast compression (the analytic
// exponential); the work P dV against the loss of internal energy; the gas spring of a free
// piston stiffer by γ (its period); isothermal unchanged; bad values refused at their pointer.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "scene/scene.h"
#include "sim/simulation.h"
#include "solver/pgs.h"
#include "solver/projection.h"
#include "support/piston.h"

using namespace suction;

namespace {

/// a compression of the bore from 20 to 10 mm and back over `duration` seconds each way
std::string there_and_back(double duration) {
  const std::string d = std::to_string(duration);
  return R"([{"move": [0, 0, -0.01], "duration": )" + d + R"(}, {"move": [0, 0, 0.01], "duration": )" + d + "}]";
}

std::unique_ptr<Simulation> piston(const std::string& gas, const std::string& segments, double dt = 0.002,
                                   bool free = false) {
  auto sim = std::make_unique<Simulation>(
      load_scene_text(test::piston_scene(R"({"p_max": 1e7, "gas": )" + gas + "}", segments, dt, free), "", {}));
  EXPECT_TRUE(test::seal_piston_bore(*sim));
  return sim;
}

}  // namespace

TEST(GasLaw, ThePressureOfTheLawSatisfiesItWithAndWithoutCompliance) {
  const double p_atm = kPAtm;
  for (double n : {1.05, 1.2, 1.4, 5.0 / 3.0}) {
    for (double a : {0.0, 1e-15, 1e-12, 1e-10}) {
      for (double v : {1e-6, 5e-6, 2e-5}) {
        CavityRow row;
        row.air = p_atm * 1e-5;
        row.exponent = n;
        row.law = p_atm * std::pow(1e-5, n);  // ambient air of 10 cm³ at the start
        row.p_atm = p_atm;
        row.p_max = 1e12;
        const double p = cavity_pressure(a, v, row);
        ASSERT_GT(p, 0.0);
        const double volume = v + a * (p - p_atm);
        EXPECT_NEAR(p * std::pow(volume, n) / row.law, 1.0, 1e-12) << "n " << n << " a " << a << " V " << v;
        EXPECT_EQ(row.outflow, 0.0);
      }
    }
  }
  // n → 1 tends to Boyle's quadratic
  CavityRow boyle, near;
  boyle.air = near.air = p_atm * 1e-5;
  boyle.p_max = near.p_max = 1e12;
  near.exponent = 1.0 + 1e-9;
  near.law = p_atm * std::pow(1e-5, near.exponent);
  EXPECT_NEAR(cavity_pressure(1e-12, 5e-6, near), cavity_pressure(1e-12, 5e-6, boyle), 1e-6 * p_atm);
  // at the cap: the air that stays obeys the law at P_max
  CavityRow capped;
  capped.air = p_atm * 1e-5;
  capped.exponent = 1.4;
  capped.law = p_atm * std::pow(1e-5, 1.4);
  capped.p_max = 1.2 * p_atm;
  const double a = 1e-12, v = 5e-6;
  EXPECT_EQ(cavity_pressure(a, v, capped), capped.p_max);
  const double volume = v + a * (capped.p_max - p_atm);
  const double kept = capped.air + capped.outflow;
  EXPECT_LT(capped.outflow, 0.0);
  EXPECT_NEAR(capped.p_max * std::pow(volume * capped.air / kept, 1.4) / capped.law, 1.0, 1e-12);
  // vacuum
  capped.air = 0.0;
  EXPECT_EQ(cavity_pressure(a, v, capped), 0.0);
}

TEST(GasLaw, TheProximalStepMeetsItsStationarityAndIsBoylesAtNOne) {
  const double h = 0.01, law14 = kPAtm * std::pow(1e-5, 1.4), air = kPAtm * 1e-5;
  for (double z : {-2e5, -1e3, 0.0, 5e4, 3e5}) {
    for (double tau : {1e-3, 1.0, 1e3}) {
      const double p = projection::gas_prox_n(z, tau, air, law14, 1.4, h, 1e12);
      ASSERT_GT(p, 0.0);
      const double f = p - z - tau / h * std::pow(law14 / p, 1.0 / 1.4);
      EXPECT_NEAR(f, 0.0, 1e-10 * std::max(std::abs(z), p)) << "z " << z << " tau " << tau;
      // n = 1: the quadratic of gas_prox
      EXPECT_NEAR(projection::gas_prox_n(z, tau, air, air, 1.0, h, 1e12), projection::gas_prox(z, tau, air, h, 1e12),
                  1e-10 * projection::gas_prox(z, tau, air, h, 1e12));
    }
  }
  EXPECT_EQ(projection::gas_prox_n(1e6, 1.0, air, law14, 1.4, h, 2e5), 2e5) << "capped at p_max";
}

TEST(GasLaw, AnAdiabaticPistonFollowsPVGammaAndComesBackToAmbient) {
  auto owned = piston(R"({"law": "adiabatic"})", there_and_back(0.5));
  Simulation& sim = *owned;
  const double p0 = kPAtm, v0 = test::kBoreArea * test::kBoreHeight, t0 = kTAmbient, gamma = 1.4;
  const double k0 = p0 * std::pow(v0, gamma);
  const double n0 = sim.state().book.cavities.at(0).air;
  double worst_law = 0.0, worst_t = 0.0, p_peak = 0.0, t_peak = 0.0;
  for (int i = 0; i < 500; ++i) {
    sim.step();
    ASSERT_EQ(sim.state().book.cavities.size(), 1u);
    const CavityState& c = sim.state().book.cavities[0];
    worst_law = std::max(worst_law, std::abs(c.pressure * std::pow(c.volume, gamma) / k0 - 1.0));
    worst_t = std::max(worst_t, std::abs(c.temperature * std::pow(c.volume, gamma - 1.0) /
                                             (t0 * std::pow(v0, gamma - 1.0)) - 1.0));
    p_peak = std::max(p_peak, c.pressure);
    t_peak = std::max(t_peak, c.temperature);
    ASSERT_EQ(c.air, n0) << "sealed: the amount of air stays";
  }
  EXPECT_LT(worst_law, 1e-9) << "P V^γ = const";
  EXPECT_LT(worst_t, 1e-9) << "T V^(γ−1) = const";
  // halved volume: P = 2^γ P_atm (2.64 P_atm against Boyle's 2), T = 2^(γ−1) T_atm
  EXPECT_NEAR(p_peak, p0 * std::pow(2.0, gamma), 1e-9 * p_peak);
  EXPECT_NEAR(t_peak, t0 * std::pow(2.0, gamma - 1.0), 1e-9 * t_peak);
  const CavityState& c = sim.state().book.cavities[0];
  EXPECT_NEAR(c.volume, v0, 1e-12 * v0);
  EXPECT_NEAR(c.pressure, p0, 1e-9 * p0) << "reversible: back at ambient";
  EXPECT_NEAR(c.temperature, t0, 1e-9 * t0);
  std::printf("adiabatic piston: worst |P V^γ / K − 1| = %.2e, peak %.1f Pa and %.2f K\n", worst_law, p_peak, t_peak);
}

TEST(GasLaw, APolytropicPistonFollowsPVn) {
  auto owned = piston(R"({"law": "polytropic", "exponent": 1.2})", there_and_back(0.5));
  Simulation& sim = *owned;
  const double v0 = test::kBoreArea * test::kBoreHeight, n = 1.2, k0 = kPAtm * std::pow(v0, n);
  double worst = 0.0, p_peak = 0.0;
  for (int i = 0; i < 500; ++i) {
    sim.step();
    const CavityState& c = sim.state().book.cavities.at(0);
    worst = std::max(worst, std::abs(c.pressure * std::pow(c.volume, n) / k0 - 1.0));
    p_peak = std::max(p_peak, c.pressure);
  }
  EXPECT_LT(worst, 1e-9) << "P V^n = const";
  EXPECT_NEAR(p_peak, kPAtm * std::pow(2.0, n), 1e-9 * p_peak);
}

TEST(GasLaw, ExchangeRelaxesToTheIsothermalPressureWithTheAnalyticExponential) {
  // compressed to half in 20 ms (nearly adiabatic for τ = 100 ms), then held
  const double tau = 0.1, dt = 0.001;
  auto owned = piston(R"({"law": "exchange", "tau": 0.1})",
                          R"([{"move": [0, 0, -0.01], "duration": 0.02}, {"hold": 1.0}])", dt);
  Simulation& sim = *owned;
  const double v0 = test::kBoreArea * test::kBoreHeight, n_air = kPAtm * v0;
  while (sim.state().time < 0.02 - 1e-12) sim.step();
  const CavityState c1 = sim.state().book.cavities.at(0);
  const double t1 = sim.state().time, theta1 = c1.temperature / kTAmbient;
  EXPECT_GT(theta1, 1.1) << "a fast compression heats the air";
  EXPECT_LT(theta1, std::pow(2.0, 0.4)) << "but less than the adiabat";
  double worst = 0.0;
  while (sim.state().time < t1 + 0.5 - 1e-12) {
    sim.step();
    const CavityState& c = sim.state().book.cavities.at(0);
    const double expected = n_air / c.volume * (1.0 + (theta1 - 1.0) * std::exp(-(sim.state().time - t1) / tau));
    worst = std::max(worst, std::abs(c.pressure / expected - 1.0));
  }
  EXPECT_LT(worst, 1e-3);
  const CavityState& c = sim.state().book.cavities.at(0);
  EXPECT_NEAR(c.pressure, 2.0 * kPAtm, 0.01 * kPAtm) << "after 5 τ: Boyle's pressure";
  std::printf("exchange: θ after the compression %.4f, worst relative error of the relaxation %.2e\n", theta1, worst);
}

TEST(GasLaw, AdiabaticWorkEqualsTheLossOfInternalEnergy) {
  auto owned = piston(R"({"law": "adiabatic"})", R"([{"move": [0, 0, -0.008], "duration": 1.0}])", 0.001);
  Simulation& sim = *owned;
  const double gamma = 1.4;
  const CavityState& c0 = sim.state().book.cavities.at(0);
  const double n_air = c0.air, u0 = n_air * (c0.temperature / kTAmbient) / (gamma - 1.0);
  double p_prev = c0.pressure, v_prev = c0.volume, work = 0.0, books_work = 0.0, books_heat = 0.0;
  for (int i = 0; i < 1000; ++i) {
    sim.step();
    books_work += sim.profile().air.work;
    books_heat += sim.profile().air.heat;
    const CavityState& c = sim.state().book.cavities.at(0);
    work += 0.5 * (p_prev + c.pressure) * (c.volume - v_prev);  // done by the air (< 0: compressed)
    p_prev = c.pressure;
    v_prev = c.volume;
  }
  const CavityState& c = sim.state().book.cavities.at(0);
  const double u1 = n_air * (c.temperature / kTAmbient) / (gamma - 1.0);
  EXPECT_NEAR(-work / (u1 - u0), 1.0, 1e-6) << "∫P dV = −ΔU";
  EXPECT_NEAR(books_work / -work, 1.0, 1e-6) << "the energy books' work is the trapezoid's −∫P dV";
  EXPECT_LE(std::abs(books_heat), 1e-12 * std::abs(books_work)) << "adiabatic: no heat in the books";
  std::printf("adiabatic work %.9f J, ΔU %.9f J\n", work, u1 - u0);
}

TEST(GasLaw, AFreePistonOnAdiabaticAirOscillatesFasterByTheRootOfGamma) {
  // a 0.1248 kg piston on the 32 cm³ bore, pushed down by 5 N from rest: a gas spring of
  // stiffness k = n P A² / V about its equilibrium P = P_atm + F/A, so ω² = n P A² / (m V)
  const double m = 7800.0 * 0.04 * 0.04 * 0.01, force = 5.0, area = test::kBoreArea;
  const double v0 = area * test::kBoreHeight, p_eq = kPAtm + force / area;
  struct Run {
    double period = 0.0, p_end = 0.0;
  };
  auto run = [&](const std::string& law, const std::string& method) {
    Model model = load_scene_text(
        test::piston_scene(R"({"p_max": 1e7, "gas": {"law": ")" + law + R"("}})", R"([[0, 0, 0, -5], [10, 0, 0, -5]])",
                           1e-5, true),
        "", {{"/settings/solver", R"({"method": ")" + method + R"(", "tolerance": 1e-10, "max_iterations": 1000})"}});
    Simulation sim(std::move(model));
    EXPECT_TRUE(test::seal_piston_bore(sim));
    std::vector<double> crossings;  // upward zero crossings of the piston's velocity
    double v_prev = 0.0;
    for (int i = 0; i < 6000 && crossings.size() < 3; ++i) {
      sim.step();
      const double v = sim.state().rigid[1].velocity.z();
      if (v_prev < 0.0 && v >= 0.0) crossings.push_back(sim.state().time);
      v_prev = v;
    }
    EXPECT_EQ(crossings.size(), 3u) << law << " " << method;
    Run r;
    if (crossings.size() == 3) r.period = (crossings[2] - crossings[0]) / 2.0;
    r.p_end = sim.state().book.cavities.at(0).pressure;
    return r;
  };
  const Run iso = run("isothermal", "pgs"), adi = run("adiabatic", "pgs"), adi_apgd = run("adiabatic", "apgd");
  const double v_iso = v0 * kPAtm / p_eq, v_adi = v0 * std::pow(kPAtm / p_eq, 1.0 / 1.4);
  const double t_iso = 2.0 * kPi / std::sqrt(p_eq * area * area / (m * v_iso));
  const double t_adi = 2.0 * kPi / std::sqrt(1.4 * p_eq * area * area / (m * v_adi));
  EXPECT_NEAR(iso.period / t_iso, 1.0, 0.005);
  EXPECT_NEAR(adi.period / t_adi, 1.0, 0.005);
  // stiffer by γ (√γ in the period), less the adiabat's smaller compression at equilibrium
  EXPECT_NEAR(iso.period / adi.period, t_iso / t_adi, 0.002) << "stiffer by γ";
  EXPECT_NEAR(t_iso / t_adi, std::sqrt(1.4 * v_iso / v_adi), 1e-12);
  EXPECT_NEAR(adi_apgd.period, adi.period, 2e-5) << "apgd's gas prox gives the same motion";
  EXPECT_NEAR(adi_apgd.p_end, adi.p_end, 1e-5 * kPAtm);
  std::printf("free piston: period isothermal %.4f ms (linear %.4f), adiabatic %.4f ms (linear %.4f), apgd %.4f ms\n",
              1e3 * iso.period, 1e3 * t_iso, 1e3 * adi.period, 1e3 * t_adi, 1e3 * adi_apgd.period);
}

TEST(GasLaw, AirLeakingIntoAHeldAdiabaticCavityWarmsItLikeAFillingTank) {
  // the piston held: a rigid cavity at constant volume.  Air from outside brings its enthalpy
  // c_p T_ambient per amount into the internal energy c_v N T, so N θ grows by γ ΔN:
  // θ = (N0 + γ (N − N0)) / N (a tank filled from the atmosphere warms), and P V = N θ
  const double leak = 0.5, dt = 0.002;  // [J/s]: the air grows by half its amount in 3.24 s
  auto owned = piston(R"({"law": "adiabatic"}, "leak_rate": 0.5)", R"([{"hold": 2.0}])", dt);
  Simulation& sim = *owned;
  const double n0 = sim.state().book.cavities.at(0).air, v0 = sim.state().book.cavities.at(0).volume;
  for (int i = 0; i < 500; ++i) sim.step();  // 1 s
  const CavityState& c = sim.state().book.cavities.at(0);
  EXPECT_NEAR(c.air, n0 + leak * 1.0, 1e-12 * n0);
  const double theta = (n0 + 1.4 * (c.air - n0)) / c.air;
  EXPECT_NEAR(c.temperature / kTAmbient, theta, 1e-12);
  EXPECT_NEAR(c.pressure * v0, c.air * theta, 1e-9 * c.air);
  EXPECT_GT(c.temperature, kTAmbient + 10.0) << "it warms";
}

TEST(GasLaw, IsothermalSpelledOutOrPolytropicWithNOneChangesNoNumber) {
  auto final_state = [](const std::string& cavity) {
    Simulation sim(load_scene_text(test::piston_scene(cavity, there_and_back(0.2)), "", {}));
    EXPECT_TRUE(test::seal_piston_bore(sim));
    for (int i = 0; i < 200; ++i) sim.step();
    return sim.state().book.cavities.at(0);
  };
  const CavityState base = final_state(R"({"p_max": 1e7})");
  for (const char* gas : {R"({"p_max": 1e7, "gas": {"law": "isothermal", "gamma": 1.67, "tau": 3}})",
                          R"({"p_max": 1e7, "gas": {"law": "polytropic", "exponent": 1}})"}) {
    const CavityState c = final_state(gas);
    EXPECT_EQ(c.pressure, base.pressure) << gas;
    EXPECT_EQ(c.volume, base.volume) << gas;
    EXPECT_EQ(c.air, base.air) << gas;
    EXPECT_EQ(c.temperature, kTAmbient) << gas;
  }
}

TEST(GasLaw, BadValuesAreRefusedAtTheirPointer) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"gamma": 1})", "/settings/cavity/gas/gamma"},
      {R"({"gamma": 0.9})", "/settings/cavity/gas/gamma"},
      {R"({"law": "polytropic", "exponent": 0.9})", "/settings/cavity/gas/exponent"},
      {R"({"law": "exchange", "tau": 0})", "/settings/cavity/gas/tau"},
      {R"({"tau": -1})", "/settings/cavity/gas/tau"},
      {R"({"t_ambient": 0})", "/settings/cavity/gas/t_ambient"},
      {R"({"law": "isentropic"})", "/settings/cavity/gas/law"},
      {R"({"lawn": "adiabatic"})", "/settings/cavity/gas/lawn"},
      {R"("adiabatic")", "/settings/cavity/gas"},
  };
  for (const auto& [gas, pointer] : cases) {
    try {
      load_scene_text(test::piston_scene(R"({"gas": )" + gas + "}", there_and_back(0.1)), "", {});
      ADD_FAILURE() << gas << " was accepted";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find(pointer), std::string::npos) << gas << ": " << e.what();
    }
  }
}
