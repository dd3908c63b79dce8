// Keyframes and motion drivers: piecewise-linear values, their exact integral (velocity
// drivers), and a kinematic body following a velocity driver.
#include <gtest/gtest.h>

#include "mesh/generators.h"
#include "model/build.h"
#include "sim/simulation.h"

using namespace suction;

namespace {
Keyframes ramp() {  // v = 0 at t = 0.5, 2 at t = 1.5, 2 until t = 2, then 0 at 3 (x only)
  Keyframes k;
  k.times = {0.5, 1.5, 2.0, 3.0};
  k.values = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(2, 0, 0), Vec3(0, 0, 0)};
  return k;
}
// ∫_0^t of ramp() by hand: 0 before 0.5, (t-0.5)² on [0.5, 1.5], 1 + 2 (t-1.5) on [1.5, 2],
// 2 + 2 (t-2) - (t-2)² on [2, 3], 3 after
double exact(double t) {
  if (t <= 0.5) return 0.0;
  if (t <= 1.5) return (t - 0.5) * (t - 0.5);
  if (t <= 2.0) return 1.0 + 2.0 * (t - 1.5);
  if (t <= 3.0) return 2.0 + 2.0 * (t - 2.0) - (t - 2.0) * (t - 2.0);
  return 3.0;
}
}  // namespace

TEST(Keyframes, ValueIsPiecewiseLinearAndConstantOutside) {
  const Keyframes k = ramp();
  EXPECT_EQ(k.value(0.0).x(), 0.0);
  EXPECT_NEAR(k.value(1.0).x(), 1.0, 1e-15);
  EXPECT_NEAR(k.value(2.5).x(), 1.0, 1e-15);
  EXPECT_EQ(k.value(9.0).x(), 0.0);
}

TEST(Keyframes, IntegralIsExact) {
  const Keyframes k = ramp();
  for (double t = 0.0; t <= 4.0; t += 0.0625) EXPECT_NEAR(k.integral(t).x(), exact(t), 1e-12) << "t = " << t;
  Keyframes from_zero;  // first keyframe at t = 0 with a non-zero value
  from_zero.times = {0.0, 1.0};
  from_zero.values = {Vec3(1, 0, 0), Vec3(3, 0, 0)};
  EXPECT_NEAR(from_zero.integral(0.5).x(), 0.5 * (1.0 + 2.0) / 2.0, 1e-12);  // a trapezoid
  EXPECT_NEAR(from_zero.integral(2.0).x(), 2.0 + 3.0, 1e-12);
}

TEST(Keyframes, KinematicBodyFollowsItsVelocityDriverExactly) {
  Model model;
  model.materials = {Material{}};
  model.settings.dt = 0.01;
  model.rigid.push_back(make_rigid_body("plate", RigidKind::Kinematic, make_box_surface(Vec3(0.1, 0.1, 0.01)), 0, 1000.0));
  Driver d;
  d.name = "lift";
  d.kind = DriverKind::Velocity;
  d.body = {BodyType::Rigid, 0};
  d.keyframes = ramp();
  model.drivers.push_back(d);
  model.rigid[0].driver = 0;
  const Vec3 x0 = model.rigid[0].initial_position;
  Simulation sim(std::move(model));
  for (int i = 0; i < 350; ++i) {
    sim.step();
    const double t = sim.state().time;
    ASSERT_NEAR(sim.state().rigid[0].position.x() - x0.x(), exact(t), 1e-12) << "t = " << t;
  }
}
