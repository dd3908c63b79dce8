// Frictional contact against analytic oracles: resting block, Coulomb stick/slip on an incline,
// a ramped push, a soft cube dropped and squeezed (Signorini, Coulomb cone, energy).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "fem/corotational.h"
#include "probes/probes.h"
#include "scene/scene.h"
#include "sim/simulation.h"
#include "support/shipped_scenes.h"

using namespace suction;

namespace {

using test::load;
using test::scene;

BodyRef body(const Simulation& sim, const std::string& name) { return *sim.model().find_body(name); }

// Signorini and Coulomb at every contact of the last step
void expect_contact_laws(const Simulation& sim, double mu, const char* where) {
  for (const ContactForce& c : sim.state().contacts) {
    ASSERT_GE(c.local[0], 0.0) << where;
    ASSERT_LE(c.local.tail<2>().norm(), mu * c.local[0] * (1 + 1e-9) + 1e-12) << where;
  }
}

double total_energy(const Simulation& sim) {
  double e = sim.kinetic_energy();
  const Model& m = sim.model();
  for (size_t i = 0; i < m.fem.size(); ++i) {
    e += elastic_energy(m.fem[i].elements, m.fem[i].rest, sim.state().fem[i].x);
    for (size_t n = 0; n < m.fem[i].node_mass.size(); ++n)
      e -= m.fem[i].node_mass[n] * m.settings.gravity.dot(sim.state().fem[i].x[n]);
  }
  for (size_t i = 0; i < m.rigid.size(); ++i)
    if (m.rigid[i].kind == RigidKind::Dynamic)
      e -= m.rigid[i].mass * m.settings.gravity.dot(sim.state().rigid[i].position);
  return e;
}

}  // namespace

TEST(ContactScenes, BlockRestsOnGroundAndContactsCarryItsWeight) {
  Simulation sim(load("block_on_ground.json"));
  const BodyRef block = body(sim, "block");
  const double weight = sim.model().rigid[block.index].mass * 9.81;
  double worst_height = 0.0, worst_force = 0.0;
  for (int i = 0; i < 2000; ++i) {
    sim.step();
    worst_height = std::max(worst_height, std::abs(sim.state().rigid[block.index].position.z() - 0.05));
    if (i >= 2) worst_force = std::max(worst_force, std::abs(body_contact_force(sim.model(), sim.state(), block).z() - weight) / weight);
    expect_contact_laws(sim, 0.5, "block on ground");
  }
  std::printf("block on ground, 2000 steps: worst height error %.3g m, worst force error %.3g\n", worst_height,
              worst_force);
  EXPECT_LT(worst_height, 1e-5);
  EXPECT_LT(worst_force, 0.005);
  EXPECT_EQ(sim.profile().contacts, 4);  // the four corners, nothing on the ground's face diagonals
}

TEST(ContactScenes, InclineSticksBelowTheFrictionAngle) {
  Simulation sim(load("incline.json", {"/parameters/angle_deg=10", "/parameters/mu=0.3"}));
  for (int i = 0; i < 200; ++i) sim.step();  // 1 s
  const double s = sim.probe_values()[0];
  std::printf("incline 10 deg, mu 0.3: slide after 1 s %.3g m\n", s);
  EXPECT_LT(std::abs(s), 1e-5);
}

TEST(ContactScenes, InclineSlidesWithCoulombAcceleration) {
  const double angle = 30.0 * kPi / 180.0, mu = 0.3, g = 9.81;
  Simulation sim(load("incline.json", {"/parameters/angle_deg=30", "/parameters/mu=0.3"}));
  const BodyRef block = body(sim, "block");
  const Vec3 down(std::cos(angle), 0, -std::sin(angle));
  auto speed = [&] { return sim.state().rigid[block.index].velocity.dot(down); };
  for (int i = 0; i < 40; ++i) sim.step();  // settle onto the slope (0.2 s)
  const double v0 = speed(), t0 = sim.state().time;
  for (int i = 0; i < 100; ++i) {
    sim.step();
    expect_contact_laws(sim, mu, "incline");
  }
  const double a = (speed() - v0) / (sim.state().time - t0);
  const double expected = g * (std::sin(angle) - mu * std::cos(angle));
  std::printf("incline 30 deg, mu 0.3: acceleration %.5g m/s², Coulomb %.5g m/s²\n", a, expected);
  EXPECT_NEAR(a, expected, 0.02 * expected);
}

TEST(ContactScenes, RampedPushSticksThenSlidesWithCoulombEnergy) {
  const double mu = 0.4, g = 9.81;
  Simulation sim(load("push_block.json"));
  const BodyRef cube = body(sim, "cube");
  const double m = sim.model().rigid[cube.index].mass;
  const double x0 = sim.state().rigid[cube.index].position.x();
  for (int i = 0; i < 200; ++i) {  // ramp to 0.9 μ m g over 1 s: no motion
    sim.step();
    ASSERT_LT(std::abs(sim.state().rigid[cube.index].position.x() - x0), 1e-6) << "t = " << sim.state().time;
  }
  for (int i = 0; i < 100; ++i) sim.step();  // 0.5 s at F = 1.5 μ m g
  const double t = 0.5, F = 1.5 * mu * m * g;
  const Vec3 v = sim.state().rigid[cube.index].velocity;
  const double ke = 0.5 * m * v.squaredNorm();
  const double expected = (F - mu * m * g) * (F - mu * m * g) * t * t / (2 * m);
  std::printf("push: kinetic energy after sliding 0.5 s %.5g J, Coulomb %.5g J\n", ke, expected);
  EXPECT_NEAR(ke, expected, 0.02 * expected);
  EXPECT_NEAR(v.y(), 0.0, 1e-9);
}

TEST(ContactScenes, SoftCubeDropComesToRestWithoutGainingEnergy) {
  Simulation sim(load("soft_cube_drop.json"));
  const BodyRef cube = body(sim, "cube");
  double e_prev = total_energy(sim), worst_gain = 0.0, deepest = 0.0;
  const double e_scale = sim.model().fem[0].node_mass.size() ? 0.1 * 9.81 * 0.02 : 1.0;
  for (int i = 0; i < 300; ++i) {
    sim.step();
    const double e = total_energy(sim);
    if (sim.profile().contacts > 0) worst_gain = std::max(worst_gain, e - e_prev);
    e_prev = e;
    for (const Vec3& x : sim.state().fem[cube.index].x) deepest = std::min(deepest, x.z());
    expect_contact_laws(sim, 0.6, "soft cube drop");
  }
  const double vz = body_velocity(sim.model(), sim.state(), cube).z();
  std::printf("soft cube drop: final vz %.3g m/s, deepest node %.3g m, worst energy gain %.3g J\n", vz, deepest,
              worst_gain);
  EXPECT_LT(std::abs(vz), 1e-3);
  EXPECT_GT(deepest, -2e-4);
  EXPECT_LE(worst_gain, 1e-6 * e_scale);
}

TEST(ContactScenes, SqueezedSoftCubeStaysBetweenThePlates) {
  Simulation sim(load("soft_cube_squeeze.json"));
  const BodyRef cube = body(sim, "cube"), top = body(sim, "top");
  double deepest = 0.0, worst_above = 0.0, max_speed = 0.0, press_at_hold = 0.0;
  for (int i = 0; i < 400; ++i) {
    sim.step();
    const double top_face = sim.state().rigid[top.index].position.z() - 0.005;
    for (size_t n = 0; n < sim.state().fem[cube.index].x.size(); ++n) {
      const Vec3& x = sim.state().fem[cube.index].x[n];
      deepest = std::min(deepest, x.z());
      worst_above = std::max(worst_above, x.z() - top_face);
      max_speed = std::max(max_speed, sim.state().fem[cube.index].v[n].norm());
    }
    expect_contact_laws(sim, 0.6, "squeeze");
    if (std::abs(sim.state().time - 1.2) < 1e-9) {
      press_at_hold = sim.probe_values()[1];
      // at rest in the hold, the plates' contact forces on the cube balance its weight
      double mass = 0.0;
      for (double m : sim.model().fem[cube.index].node_mass) mass += m;
      EXPECT_NEAR(body_contact_force(sim.model(), sim.state(), cube).z(), mass * 9.81, 0.01 * mass * 9.81);
    }
  }
  std::printf("squeeze: deepest %.3g m below the bottom plate, %.3g m above the top plate, max speed %.3g m/s, "
              "press force in the hold %.4g N\n", -deepest, worst_above, max_speed, press_at_hold);
  EXPECT_GT(deepest, -2e-4);
  EXPECT_LT(worst_above, 2e-4);
  EXPECT_LT(max_speed, 0.5);
  EXPECT_GT(press_at_hold, 1.0);  // compressing 10 mm of a 50 mm gel cube takes newtons
}
