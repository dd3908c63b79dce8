// The suction scenes' stories (docs/validation.md): ground (push, hold, pull, release),
// rigid_lift (the cube leaves the ground under the cup), pull_test (the peak force is bounded
// by P_atm times the cup's area), and air conservation through forced recomputations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cavity/cavity_mesh.h"
#include "common/parallel.h"
#include "model/body_slots.h"
#include "probes/probes.h"
#include "scene/scene.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

Model load(const std::string& name, const std::vector<std::string>& sets = {}) {
  std::vector<SceneOverride> o;
  for (const auto& s : sets) o.push_back(parse_override(s));
  return load_scene_file(std::string(SUCTION_SCENES_DIR) + "/" + name, o);
}

int probe_index(const Model& m, const std::string& name) {
  for (size_t i = 0; i < m.probes.size(); ++i)
    if (m.probes[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no probe " << name;
  return 0;
}

struct Sample {
  double t;
  int cavities;
  int contacts;
  double pressure, volume, air, force, z;
};

std::vector<Sample> run(Simulation& sim, const std::string& force_probe, const std::string& z_probe) {
  const int pf = probe_index(sim.model(), force_probe), pz = probe_index(sim.model(), z_probe);
  const int pp = probe_index(sim.model(), "pressure"), pv = probe_index(sim.model(), "volume"),
            pa = probe_index(sim.model(), "air");
  std::vector<Sample> out;
  const long steps = std::lround(sim.model().settings.duration / sim.model().settings.dt);
  for (long i = 0; i < steps; ++i) {
    sim.step();
    const auto v = sim.probe_values();
    out.push_back({sim.state().time, sim.cavity_summary().count, static_cast<int>(sim.state().contacts.size()),
                   v[pp], v[pv], v[pa], v[pf], v[pz]});
  }
  return out;
}

// ground run with the given overrides: the lowest cavity pressure and the release time (the
// first step without a cavity after one with); t_release < 0 when the cup never lets go
struct GroundOutcome {
  double p_min, t_release, p_atm;
};
GroundOutcome run_ground(const std::vector<std::string>& sets) {
  Simulation sim(load("ground.json", sets));
  const auto s = run(sim, "hand_force", "cup_z");
  GroundOutcome g{sim.model().settings.p_atm, -1.0, sim.model().settings.p_atm};
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i].cavities > 0) g.p_min = std::min(g.p_min, s[i].pressure);
    if (g.t_release < 0 && i > 0 && s[i].cavities == 0 && s[i - 1].cavities > 0) g.t_release = s[i].t;
  }
  return g;
}

}  // namespace

TEST(SuctionScenesStory, GroundPushHoldPullRelease) {
  Simulation sim(load("ground.json"));
  const double p_atm = sim.model().settings.p_atm;
  const double z0 = sim.probe_values()[probe_index(sim.model(), "cup_z")];
  const auto s = run(sim, "hand_force", "cup_z");
  // push (0, 0.5 s]: a cavity forms at ambient pressure and air is pushed out
  double n_first = 0.0, n_end_push = 0.0;
  for (const Sample& x : s) {
    if (x.t > 0.5 + 1e-9) break;
    if (x.cavities > 0 && n_first == 0.0) n_first = x.air;
    if (x.cavities > 0) n_end_push = x.air;
  }
  ASSERT_GT(n_first, 0.0) << "the cup seals while pushed";
  // hold (0.5, 0.8]: ΔN < 0 since the seal formed, and P ≈ P_atm
  int hold_samples = 0;
  for (const Sample& x : s)
    if (x.t > 0.5 + 1e-9 && x.t <= 0.8 + 1e-9 && x.cavities > 0) {
      ++hold_samples;
      EXPECT_LT(x.air, 0.5 * n_first) << "t = " << x.t << ": air was expelled";
      EXPECT_NEAR(x.pressure, p_atm, 0.02 * p_atm) << "t = " << x.t;
    }
  EXPECT_GT(hold_samples, 10);
  // pull (0.8 s, ...): the pressure falls below ambient while the hand pulls up and the cup holds
  double p_min = p_atm, attached_pulling = 0.0, t_release = -1.0;
  for (size_t i = 0; i < s.size(); ++i) {
    const Sample& x = s[i];
    if (x.t <= 0.8 + 1e-9) continue;
    if (x.cavities > 0) p_min = std::min(p_min, x.pressure);
    if (x.cavities > 0 && x.pressure < p_atm && x.force > 0.0) attached_pulling += sim.model().settings.dt;
    if (t_release < 0 && x.cavities == 0 && i > 0 && s[i - 1].cavities > 0) t_release = x.t;
  }
  EXPECT_LT(p_min, 0.8 * p_atm) << "the pull lowers the cavity pressure";
  EXPECT_GE(attached_pulling, 0.1) << "the cup stays attached for a visible time while pulled";
  ASSERT_GT(t_release, 0.8) << "the cup lets go";
  // after the release: no cavity, no contact, the cup above where it started
  EXPECT_EQ(s.back().cavities, 0);
  EXPECT_EQ(s.back().contacts, 0);
  EXPECT_GT(s.back().z, z0 + 0.005);
  std::printf("ground: N first %.4g J, end of push %.4g J, P_min %.0f Pa, pulled while attached %.2f s, "
              "release at %.2f s\n", n_first, n_end_push, p_min, attached_pulling, t_release);
}


// The paper's Fig. 9 in time: the lowest pressure before the release must not depend on the
// step.  A seal that opens during a step is released in that step; held until the next step's
// detection, the step it opens in is solved with the cavity's row on a peeling lip (at dt =
// 0.03 s the volume grew 8 % in that step and the minimum fell 8 % below dt = 0.01 s).
TEST(SuctionScenesStory, GroundMinimumPressureDoesNotDependOnTheTimeStep) {
  double p_min[2], t_release[2];
  const double dts[2] = {0.03, 0.01};
  for (int k = 0; k < 2; ++k) {
    const GroundOutcome g = run_ground({"/settings/dt=" + std::to_string(dts[k])});
    p_min[k] = g.p_min;
    t_release[k] = g.t_release;
    ASSERT_GT(t_release[k], 0.8) << "dt = " << dts[k] << ": the cup lets go";
  }
  EXPECT_NEAR(p_min[0], p_min[1], 0.05 * p_min[1]) << "dt 0.03 vs 0.01";
  EXPECT_NEAR(t_release[0], t_release[1], 0.031) << "released within a step of each other";
  std::printf("ground: P_min %.0f / %.0f Pa, release %.2f / %.2f s at dt 0.03 / 0.01\n", p_min[0], p_min[1],
              t_release[0], t_release[1]);
}
// The paper's Fig. 9 in space: one uniform refinement of the cup (16 segments and 2 layers to
// 24 and 3: 453 to 1375 nodes, elements of the same shape) moves the lowest pressure before the
// release by less than 5 %, and the release by at most two steps.  (make convergence runs the
// whole study: 453 to 5571 nodes and dt 0.03 to 0.001 s; docs/validation.md.)
TEST(SuctionScenesStory, GroundMinimumPressureConvergesUnderMeshRefinement) {
  const char* meshes[2][2] = {{"16", "2"}, {"24", "3"}};
  double p_min[2], t_release[2];
  for (int k = 0; k < 2; ++k) {
    const GroundOutcome g = run_ground({std::string("/bodies/0/mesh/resolution=") + meshes[k][0],
                                        std::string("/bodies/0/mesh/layers=") + meshes[k][1]});
    p_min[k] = g.p_min;
    t_release[k] = g.t_release;
    ASSERT_GT(t_release[k], 0.8) << meshes[k][0] << "/" << meshes[k][1] << ": the cup lets go";
    ASSERT_LT(p_min[k], 0.5 * g.p_atm) << "the pull lowers the pressure";
  }
  EXPECT_NEAR(p_min[1], p_min[0], 0.05 * p_min[0]) << "16/2 vs 24/3";
  EXPECT_NEAR(t_release[1], t_release[0], 0.021) << "released within two steps of each other";
  std::printf("ground: P_min %.0f / %.0f Pa, release %.2f / %.2f s with the 16/2 / 24/3 cup\n", p_min[0],
              p_min[1], t_release[0], t_release[1]);
}
TEST(SuctionScenesStory, RigidLiftRaisesTheCubeUnderSuction) {
  Simulation sim(load("rigid_lift.json"));
  const double p_atm = sim.model().settings.p_atm;
  const auto s = run(sim, "hand_force", "object_z");
  const double z0 = 0.025;
  double lift_under_suction = 0.0, p_when_lifted = p_atm;
  bool rests_while_pressure_falls = false;
  for (const Sample& x : s) {
    if (x.cavities > 0 && x.pressure < p_atm && x.z - z0 > lift_under_suction) {
      lift_under_suction = x.z - z0;
      p_when_lifted = x.pressure;
    }
    // phase 2: the pressure falls below ambient while the cube still rests
    if (x.cavities > 0 && x.pressure < 0.9 * p_atm && std::abs(x.z - z0) < 1e-4) rests_while_pressure_falls = true;
  }
  EXPECT_TRUE(rests_while_pressure_falls);
  EXPECT_GT(lift_under_suction, 0.010) << "the cube rises more than 10 mm while P < P_atm";
  std::printf("rigid_lift: cube lifted %.1f mm, P = %.0f Pa\n", 1e3 * lift_under_suction, p_when_lifted);
}

TEST(SuctionScenesStory, PullTestPeakForceIsBoundedByAtmosphericPressure) {
  Simulation sim(load("pull_test.json"));
  const double p_atm = sim.model().settings.p_atm;
  const auto s = run(sim, "pull_force", "cup_z");
  double peak = 0.0;
  bool sealed = false;
  for (const Sample& x : s) {
    peak = std::max(peak, x.force);
    sealed = sealed || x.cavities > 0;
  }
  const double radius = 0.01575;  // the scene's cup: 31.5 mm diameter
  const double bound = p_atm * 3.14159265358979 * radius * radius;
  EXPECT_TRUE(sealed);
  EXPECT_GT(peak, 0.0);
  EXPECT_LE(peak, bound) << "the pull can at most hold P_atm times the cup's area";
  EXPECT_EQ(s.back().cavities, 0) << "it detaches";
  std::printf("pull_test flat: peak %.3f N (bound P_atm*pi*r^2 = %.1f N)\n", peak, bound);
}

// docs/method.md §7.6: a factorization kept across steps (an option) against one per step.
// The bounds: ground's lowest pressure, pull_test's peak pull and rigid_lift's lift
// within 1 % of the exact path, with the factorization kept on at least 30 % of the steps.
TEST(SuctionScenesStory, ReusedFactorizationKeepsTheStoriesWithinOnePercent) {
  struct Story {
    const char* scene;
    const char* force_probe;
    const char* z_probe;
  };
  for (const Story& story : {Story{"ground.json", "hand_force", "cup_z"}, Story{"pull_test.json", "pull_force", "cup_z"},
                             Story{"rigid_lift.json", "hand_force", "object_z"}}) {
    double p_min[2], peak[2], lift[2], suction[2];
    long factorizations[2] = {0, 0}, steps = 0;
    for (int exact = 0; exact < 2; ++exact) {
      Simulation sim(load(story.scene, {exact ? "/settings/factorization={\"reuse\": false}"
                                              : "/settings/factorization={\"reuse\": true}"}));
      const int pf = probe_index(sim.model(), story.force_probe), pz = probe_index(sim.model(), story.z_probe),
                pp = probe_index(sim.model(), "pressure");
      const long n = std::lround(sim.model().settings.duration / sim.model().settings.dt);
      const double z0 = sim.probe_values()[pz];
      p_min[exact] = sim.model().settings.p_atm;
      peak[exact] = -1e30;
      lift[exact] = 0.0;
      for (long i = 0; i < n; ++i) {
        sim.step();
        factorizations[exact] += sim.profile().factorizations;
        const auto v = sim.probe_values();
        p_min[exact] = std::min(p_min[exact], v[pp]);
        peak[exact] = std::max(peak[exact], v[pf]);
        lift[exact] = std::max(lift[exact], v[pz] - z0);
      }
      suction[exact] = sim.model().settings.p_atm - p_min[exact];
      steps = n;
    }
    std::printf("%s: kept %ld of %ld factorizations; P_min %.1f / %.1f Pa, peak force %.4f / %.4f N, "
                "lift %.3f / %.3f mm (kept / exact)\n",
                story.scene, steps - factorizations[0], steps, p_min[0], p_min[1], peak[0], peak[1], 1e3 * lift[0],
                1e3 * lift[1]);
    EXPECT_EQ(factorizations[1], steps) << story.scene;
    EXPECT_LT(factorizations[0], steps * 7 / 10) << story.scene << ": the factorization is kept on some steps";
    EXPECT_NEAR(p_min[0], p_min[1], 0.01 * p_min[1]) << story.scene;
    EXPECT_NEAR(suction[0], suction[1], 0.01 * suction[1]) << story.scene;
    EXPECT_NEAR(peak[0], peak[1], 0.01 * std::abs(peak[1])) << story.scene;
    EXPECT_NEAR(lift[0], lift[1], 0.01 * lift[1]) << story.scene;
  }
}

// The cup lets go when the pull balances the suction, not before.  Just before the seal is
// lost the cup is in quasi-static balance: pull + F_contact = (P_atm − P)·A + its weight, with
// A the area the pressure difference pulls the cup with (docs/method.md §6.3) and F_contact
// what the surface still pushes on the lip (the contact term; the elastic forces are internal
// to the cup and reach the hand through the pull).  The pressure term is measured on the
// cavity's geometry, not on the solver's rows, so the balance fails if the pressure acts on
// the wrong area or the seal is lost while the suction still holds.  A seal judged on the
// free-motion shape broke while the lip carried half of the suction (9.6 N of pull for 18.1 N).
// Until issue 49, A was the cavity's shadow, which counts the seam's outer part once the lip
// has slid inward: 6 % above the air's pull on the cup at the 10 N press's last sealed step
// (26.20 N against 24.68 N), and the balance read 1 % there for that reason.  With the pull
// itself (checked against the rows below) the last sealed steps are not quite quasi-static:
// the pull and the lip's contact change by 1 N per step there, and the balance is off by the
// tolerances given (measured in the printout).
void expect_detachment_balances(const std::string& scene, const std::vector<std::string>& sets, const char* label,
                                const std::string& force_probe, double tolerance = 0.02) {
  Simulation sim(load(scene, sets));
  double cup_mass = 0.0;
  for (double m : sim.model().fem[0].node_mass) cup_mass += m;
  const double weight = cup_mass * sim.model().settings.gravity.norm();
  const int pf = probe_index(sim.model(), force_probe);
  const long steps = std::lround(sim.model().settings.duration / sim.model().settings.dt);
  const double pull_start = sim.model().drivers.at(0).keyframes.times.at(2);  // after press and hold
  double last_pull = 0.0, last_hold = 0.0, last_contact = 0.0, last_t = 0.0, last_rows = 0.0;
  bool pulling_sealed = false, released = false;
  for (long i = 0; i < steps && !released; ++i) {
    sim.step();
    if (sim.state().time <= pull_start) continue;
    const CavitySummary c = sim.cavity_summary();
    const double pull = sim.probe_values()[pf];
    if (c.count > 0 && pull > 0.0) {
      pulling_sealed = true;
      last_pull = pull;
      last_hold = c.holding_force;
      last_contact = body_contact_force(sim.model(), sim.state(), BodyRef{BodyType::Fem, 0}).z();
      last_t = sim.state().time;
      // the air's pull on the cup as the rows apply it: (P − P_atm)·∂V/∂x over the cavity's
      // vertices on the cup (its walls and its side of the seam), at the same shape
      const int cup_slot = BodySlots(sim.model()).slot({BodyType::Fem, 0});
      last_rows = 0.0;
      for (const CavityState& cav : sim.state().book.cavities) {
        if (cav.dormant) continue;
        const Points grad = mesh_volume_gradient(cavity_world_vertices(sim.model(), sim.state(), cav), cav.triangles);
        for (size_t k = 0; k < cav.vertices.size(); ++k)
          if (cav.vertices[k].slot == cup_slot) last_rows -= (cav.pressure - sim.model().settings.p_atm) * grad[k].z();
      }
    } else if (pulling_sealed && c.count == 0) {
      released = true;
    }
  }
  ASSERT_TRUE(pulling_sealed) << label << ": the cup is pulled while sealed";
  ASSERT_TRUE(released) << label << ": and lets go";
  const double expected = last_hold + weight - last_contact;
  std::printf("%s: last sealed step t = %.2f s: pull %.2f N = (P_atm - P)A %.2f N + weight %.3f N - contact "
              "%.2f N = %.2f N (%+.1f %%); the rows' pull on the cup %.3f N\n", label, last_t, last_pull, last_hold, weight,
              last_contact, expected, 100.0 * (last_pull - expected) / expected, last_rows);
  // the holding force is the air's net pull on the cup (issue 49), the force its rows apply
  EXPECT_NEAR(last_hold, last_rows, 0.005 * last_rows) << label << ": the holding force is the air's pull on the cup";
  // flat: measured to 0.5–1.5 % (the issue asks for 10 %): the solver and the geometry agree
  EXPECT_NEAR(last_pull, expected, tolerance * expected) << label << ": at detachment the pull balances the suction";
  EXPECT_GT(last_pull, 0.5 * (last_hold + weight)) << label << ": the seal holds until the pull carries most of the suction";
}

// A light press (3 N: the cup attaches keeping most of its air): the lip lifts evenly.
TEST(SuctionScenesStory, PullTestLetsGoWhenThePullBalancesTheSuctionOnFlat) {
  expect_detachment_balances("pull_test.json", {"/parameters/press_N=3"}, "flat, 3 N press", "pull_force");
}

// The default 10 N press nearly flattens the cup: it lets go later, at another pressure, and
// faster: the lip's contact falls from 11 to 5 N over the last 0.1 s sealed, and the balance,
// 1 % at t = 2.32 s, is off by 6.9 % at the last sealed step (measured), so 8 % here.
TEST(SuctionScenesStory, PullTestBalanceAtDetachmentAfterTheDefaultPress) {
  expect_detachment_balances("pull_test.json", {}, "flat, 10 N press", "pull_force", 0.08);
}

// On the cylinder the area A measured on the cavity's geometry jitters by ±2 % from step to step
// at a steady pressure (the sealing ring follows the lip contacts across the curved surface),
// while the pull is smooth: measured 3.0 % at the last sealed step (14.5 mm cup), so 5 % here.
TEST(SuctionScenesStory, PullTestBalanceAtDetachmentOnACylinder) {
  expect_detachment_balances("pull_test.json", {"/parameters/R_mm=31.5"}, "R = 31.5 mm, 10 N press", "pull_force",
                             0.05);
}

// The cup lifts the 100 g jelly cube by suction (issue 10): the cube hangs under the cup, the
// hand carries both weights, and the cavity's pressure difference times its area carries at
// least the cube (1.0 N here, about 1 kPa over the cup's 9.6 cm²).
TEST(SuctionScenesStory, SoftCubeIsLiftedBySuction) {
  Simulation sim(load("soft_cube_lift.json"));
  double cup_mass = 0.0, cube_mass = 0.0;
  for (double m : sim.model().fem[0].node_mass) cup_mass += m;
  for (double m : sim.model().fem[1].node_mass) cube_mass += m;
  const double g = sim.model().settings.gravity.norm();
  const auto s = run(sim, "hand_force", "object_z");
  const double z_rest = 0.025;
  const Sample& end = s.back();
  const double hold = sim.cavity_summary().holding_force;
  std::printf("soft cube: lifted %.1f mm, P %.0f Pa, (P_atm - P)A %.2f N, hand %.3f N for weights %.3f N\n",
              1e3 * (end.z - z_rest), end.pressure, hold, end.force, (cup_mass + cube_mass) * g);
  EXPECT_GT(end.z - z_rest, 0.020) << "the cube hangs under the cup, more than 20 mm up";
  ASSERT_EQ(end.cavities, 1);
  EXPECT_LT(end.pressure, sim.model().settings.p_atm);
  EXPECT_GT(hold, cube_mass * g) << "the suction carries the cube";
  // the last 0.3 s: constant-speed pull, so the hand carries cup and cube (±10 %)
  for (const Sample& x : s)
    if (x.t > end.t - 0.3) {
      EXPECT_NEAR(x.force, (cup_mass + cube_mass) * g, 0.10 * (cup_mass + cube_mass) * g) << "t = " << x.t;
      EXPECT_EQ(x.cavities, 1) << "t = " << x.t;
    }
}

// Without cavities the cup cannot lift the jelly cube, and the press must not push it through
// the ground (at the paper's 50 PGS iterations it did, at t ≈ 0.3 s, and then fell freely with
// no contact: issue 10, finding 4).
TEST(SuctionScenesStory, SoftCubeWithoutCavitiesStaysOnTheGroundAndIsNotLifted) {
  Simulation sim(load("soft_cube_lift.json", {"/settings/cavity/enabled=false"}));
  const auto s = run(sim, "hand_force", "object_z");
  const double z_rest = 0.025;  // the 50 mm cube's centre resting on the ground
  double z_min = z_rest;
  for (const Sample& x : s) z_min = std::min(z_min, x.z);
  std::printf("soft cube without cavities: centre from %.2f mm (lowest) to %.2f mm (end)\n", 1e3 * z_min,
              1e3 * s.back().z);
  EXPECT_GT(z_min, z_rest - 0.005) << "pressed, not pushed through the ground";
  EXPECT_LT(s.back().z, z_rest + 0.001) << "not lifted without suction";
  EXPECT_GT(s.back().contacts, 0) << "still on the ground";
  for (const Sample& x : s) ASSERT_EQ(x.cavities, 0);
}

TEST(SuctionScenes, ForcedRecomputationsConserveAirWhileSealed) {
  // no outflow (P_max high), no leak: N is constant while the cup is sealed, whatever the
  // recomputations do
  Simulation sim(load("ground.json", {"/settings/cavity/p_max=1e7", "/parameters/push_mm=4"}));
  while (sim.state().time < 0.6 - 1e-9) sim.step();
  ASSERT_EQ(sim.cavity_summary().count, 1);
  const CavityState before = sim.state().book.cavities.at(0);
  int unions = 0;
  for (int i = 0; i < 20; ++i) {
    sim.mutable_state().book.sealing_contacts.clear();  // forces a new union for the pair
    sim.step();
    unions += sim.profile().cavity_unions;
    ASSERT_EQ(sim.cavity_summary().count, 1);
    const CavityState& c = sim.state().book.cavities.at(0);
    EXPECT_EQ(c.id, before.id) << "tracked across the recomputation";
    EXPECT_DOUBLE_EQ(c.air, before.air) << "step " << i;
    EXPECT_NEAR(c.pressure * c.volume, c.air, 0.02 * c.air) << "the gas law at the end of the step";
    // pushed with no outflow the cavity is above P_atm, and the summary says so
    EXPECT_GT(c.pressure, sim.model().settings.p_atm) << "step " << i;
    EXPECT_DOUBLE_EQ(sim.cavity_summary().pressure_min, c.pressure) << "step " << i;
    if (i == 19)
      std::printf("remesh: N %.6g J kept over %d unions; PV/N - 1 = %.2e; PGS %d iterations, residual %.1e\n",
                  c.air, unions, c.pressure * c.volume / c.air - 1, sim.profile().solver_iterations,
                  sim.profile().solver_residual);
  }
  EXPECT_GE(unions, 20);
}

TEST(SuctionScenes, LeakLetsAirIn) {
  const double rate = 0.05;  // J/s
  Simulation sim(load("ground.json", {"/settings/cavity/p_max=1e7", "/parameters/push_mm=4",
                                      "/settings/cavity/leak_rate=0.05"}));
  while (sim.state().time < 0.6 - 1e-9) sim.step();
  ASSERT_EQ(sim.cavity_summary().count, 1);
  const double n0 = sim.state().book.cavities.at(0).air;
  for (int i = 0; i < 10; ++i) sim.step();
  EXPECT_NEAR(sim.state().book.cavities.at(0).air - n0, 10 * sim.model().settings.dt * rate, 1e-12);
}

// The paper's masses scene (scenes/masses.json, masses_two_cups.json): one cup lifts 1.25,
// 2.5 and 5 kg, stretching further and reaching a lower pressure the heavier the cube, the hand
// carrying the weights; it lets go of 7 kg with the cube still on the ground, the pull then
// balancing the suction; two cups lift the 7 kg cube, each carrying half.
namespace {
struct Lift {
  double p_min, z_end, lifted, hand_mean;  // hand_mean: mean total hand force over the last 0.3 s
  std::vector<double> hands;               // each hand's mean over the last 0.3 s
};
Lift lift(const std::string& scene, double mass_kg, const std::vector<std::string>& hands) {
  Simulation sim(load(scene, {"/parameters/mass_kg=" + std::to_string(mass_kg)}));
  const double p_atm = sim.model().settings.p_atm;
  std::vector<int> hp;
  for (const auto& h : hands) hp.push_back(probe_index(sim.model(), h));
  const int pz = probe_index(sim.model(), "object_z");
  const double z0 = sim.probe_values()[pz], duration = sim.model().settings.duration;
  Lift r{p_atm, z0, 0.0, 0.0, std::vector<double>(hp.size(), 0.0)};
  int n = 0;
  const long steps = std::lround(duration / sim.model().settings.dt);
  for (long i = 0; i < steps; ++i) {
    sim.step();
    const auto v = sim.probe_values();
    const CavitySummary c = sim.cavity_summary();
    if (c.count > 0) {
      r.p_min = std::min(r.p_min, c.pressure_min);
      if (c.pressure_min < p_atm) r.lifted = std::max(r.lifted, v[pz] - z0);
    }
    if (sim.state().time > duration - 0.3 + 1e-9) {
      for (size_t k = 0; k < hp.size(); ++k) r.hands[k] += v[hp[k]];
      ++n;
    }
    r.z_end = v[pz];
  }
  for (double& h : r.hands) {
    h /= std::max(n, 1);
    r.hand_mean += h;
  }
  return r;
}
double total_weight(const Model& m) {
  double mass = 0.0;
  for (const auto& f : m.fem)
    for (double x : f.node_mass) mass += x;
  for (const auto& b : m.rigid)
    if (b.kind == RigidKind::Dynamic) mass += b.mass;
  return mass * m.settings.gravity.norm();
}
}  // namespace

TEST(SuctionScenesStory, MassesOneCupLiftsHeavierCubesStretchingFurther) {
  double last_p = 1e9, last_z = 1e9;
  for (double kg : {1.25, 2.5, 5.0}) {
    const Lift r = lift("masses.json", kg, {"hand_force"});
    const double w = total_weight(load("masses.json", {"/parameters/mass_kg=" + std::to_string(kg)}));
    std::printf("masses, one cup, %.2f kg: lifted %.1f mm, P_min %.1f kPa, hand %.2f N for weights %.2f N\n", kg,
                1e3 * r.lifted, 1e-3 * r.p_min, r.hand_mean, w);
    EXPECT_GT(r.lifted, 0.02) << kg << " kg: lifted more than 20 mm under suction";
    EXPECT_NEAR(r.hand_mean, w, 0.02 * w) << kg << " kg: the hand carries cup and cube";
    EXPECT_LT(r.p_min, last_p) << kg << " kg: a heavier cube takes a lower pressure";
    EXPECT_LT(r.z_end, last_z) << kg << " kg: and the cup stretches further (the cube hangs lower)";
    last_p = r.p_min;
    last_z = r.z_end;
  }
}

TEST(SuctionScenesStory, MassesOneCupLetsGoOfSevenKilogramsInBalance) {
  const Lift r = lift("masses.json", 7.0, {"hand_force"});
  EXPECT_LT(r.lifted, 0.001) << "7 kg is not lifted by one cup";
  EXPECT_LT(r.z_end, 0.0305) << "and stays on the ground";
  // measured 2.3 % at the last sealed step (with the air's net pull, issue 49), so 3 %
  expect_detachment_balances("masses.json", {"/parameters/mass_kg=7"}, "masses, one cup, 7 kg", "hand_force", 0.03);
}

TEST(SuctionScenesStory, MassesTwoCupsLiftSevenKilograms) {
  const Lift r = lift("masses_two_cups.json", 7.0, {"hand_a_force", "hand_b_force"});
  const double w = total_weight(load("masses_two_cups.json"));
  std::printf("masses, two cups, 7 kg: lifted %.1f mm, P_min %.1f kPa, hands %.2f N for weights %.2f N\n",
              1e3 * r.lifted, 1e-3 * r.p_min, r.hand_mean, w);
  EXPECT_GT(r.lifted, 0.02) << "two cups lift what one cannot";
  EXPECT_NEAR(r.hand_mean, w, 0.02 * w) << "the two hands carry cups and cube";
  EXPECT_NEAR(r.hands[0], 0.5 * w, 0.05 * w) << "each cup carries half";
  EXPECT_NEAR(r.hands[1], 0.5 * w, 0.05 * w) << "each cup carries half";
}

// Determinism across reset (the page's reset button after a drag): a reset simulation runs
// exactly like a fresh one, whatever it ran before.  (The workspace keeps what the seal check
// found at the end of a step for the next one, keyed by the step number; reset clears it.
// Kept, a union of the dragged run could stand in for the same step of the new run when its
// sealing contacts were the same; no run we tried hit that, so this test guards reset as a
// whole.)
TEST(SuctionScenes, ResetRunsExactlyLikeAFreshSimulation) {
  const Model model = load("ground.json");
  Simulation fresh(model), reused(model);
  // a hand dragged sideways: the lip touches the ground plate's same triangles, so each step
  // has the same sealing contacts as in the fresh run, at a shape 2 mm away
  reused.set_driver_offset(0, Vec3(0.002, 0.0, 0.0));
  for (int i = 0; i < 13; ++i) reused.step();  // unions at steps 12 to 14 while the lip seals
  reused.reset();
  for (int i = 0; i < 60; ++i) {
    fresh.step();
    reused.step();
    ASSERT_EQ(fresh.cavity_summary().count, reused.cavity_summary().count) << "step " << i;
    ASSERT_EQ(fresh.cavity_summary().air_total, reused.cavity_summary().air_total) << "step " << i;
    ASSERT_EQ(fresh.cavity_summary().volume_total, reused.cavity_summary().volume_total) << "step " << i;
  }
  for (size_t n = 0; n < fresh.state().fem[0].x.size(); ++n)
    ASSERT_EQ(fresh.state().fem[0].x[n], reused.state().fem[0].x[n]) << "node " << n;
}

// Determinism across thread counts (common/parallel.h): rigid_lift, about 400 rows, through the
// seal, the lift and the cavity's pressure, run on one thread and on three gives the very same
// numbers, step by step.
TEST(SuctionScenes, RigidLiftGivesTheSameNumbersOnAnyThreadCount) {
  const Model model = load("rigid_lift.json");
  const int old_threads = thread_count();
  std::vector<std::vector<Vec3>> x[2];
  std::vector<double> pressure[2];
  for (int k = 0; k < 2; ++k) {
    set_thread_count(k == 0 ? 1 : 3);
    Simulation sim(model);
    for (int i = 0; i < 120; ++i) {
      sim.step();
      x[k].push_back(sim.state().fem[0].x);
      pressure[k].push_back(sim.cavity_summary().count > 0 ? sim.probe_values()[probe_index(model, "pressure")]
                                                            : model.settings.p_atm);
    }
  }
  set_thread_count(old_threads);
  for (size_t i = 0; i < x[0].size(); ++i) {
    ASSERT_EQ(pressure[0][i], pressure[1][i]) << "step " << i;
    for (size_t n = 0; n < x[0][i].size(); ++n) ASSERT_EQ(x[0][i][n], x[1][i][n]) << "step " << i << ", node " << n;
  }
  EXPECT_LT(*std::min_element(pressure[0].begin(), pressure[0].end()), 0.9 * model.settings.p_atm)
      << "the run reaches the suction phase";
}
