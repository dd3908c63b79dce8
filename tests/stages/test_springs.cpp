// Springs (Model::springs, core/stages/springs.cpp, docs/method.md §8.6): a spring-damper
// between two bodies, solved implicitly as a soft row of the constraint solve.  Oracles: the
// exact implicit Euler recurrence of a mass on a spring and the continuous period 2π√(m/k);
// the static extension m g / k and the tension m g of a body hanging from one, rigid or FEM;
// momentum conservation between two free bodies; torque balance of a zero-length attachment
// off the centre of mass; a finite-difference check of the rows' velocity Jacobian; the scene
// format's errors at their JSON pointers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "common/error.h"
#include "model/springs.h"
#include "probes/probes.h"
#include "scene/scene.h"
#include "scene/scene_issues.h"
#include "sim/simulation.h"
#include "stages/stages.h"

using namespace suction;

namespace {


std::string spring_num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// a fixed 1 cm anchor at the origin and a rigid 2 cm cube of 8 g (density 1000) whose centre
/// is at `cube`; `springs` and `settings` are spliced in as JSON
Model anchor_and_cube(const Vec3& cube, const std::string& springs, const std::string& settings,
                      const std::string& probes = "[]") {
  const std::string text = R"({
    "settings": )" + settings + R"(,
    "materials": {"m": {"young": 1e9, "density": 1000}},
    "bodies": [
      {"name": "anchor", "type": "fixed", "material": "m", "mesh": {"generator": "box", "size": [0.01, 0.01, 0.01]},
       "position": [0, 0, 0]},
      {"name": "cube", "type": "rigid", "material": "m", "mesh": {"generator": "box", "size": [0.02, 0.02, 0.02]},
       "position": [)" + spring_num(cube.x()) + ", " + spring_num(cube.y()) + ", " + spring_num(cube.z()) + R"(]}],
    "springs": )" + springs + R"(,
    "probes": )" + probes + "}";
  return load_scene_text(text, ".");
}

}  // namespace

TEST(Springs, AMassOnASpringFollowsTheImplicitEulerRecurrenceExactly) {
  // no gravity; the cube starts 1 cm beyond the rest length along x and is released
  const double k = 1.25, c = 0.01, L0 = 0.1, A = 0.01, h = 0.01;
  Simulation sim(anchor_and_cube(Vec3(L0 + A, 0, 0),
                                 R"([{"name": "s", "a": {"body": "cube"}, "b": {"body": "anchor", "point": [0, 0, 0]},
                                      "stiffness": )" + spring_num(k) + R"(, "damping": )" + spring_num(c) + R"(, "rest_length": )" +
                                     spring_num(L0) + "}]",
                                 R"({"dt": )" + spring_num(h) + R"(, "gravity": [0, 0, 0], "solver": {"tolerance": 1e-14}})"));
  const double m = sim.model().rigid.at(1).mass;
  ASSERT_NEAR(m, 8e-3, 1e-9);
  ASSERT_EQ(sim.model().springs.size(), 1u);
  EXPECT_DOUBLE_EQ(sim.model().springs[0].rest_length, L0);
  // implicit Euler of m ë = −k e − c ė:  v⁺ = (m v − h k e) / (m + h c + h² k),  e⁺ = e + h v⁺
  double e = A, v = 0.0, worst = 0.0;
  for (int i = 0; i < 300; ++i) {
    sim.step();
    v = (m * v - h * k * e) / (m + h * c + h * h * k);
    e += h * v;
    worst = std::max(worst, std::abs(sim.state().rigid[1].position.x() - L0 - e));
    ASSERT_NEAR(sim.state().rigid[1].position.y(), 0.0, 1e-15);
  }
  EXPECT_LT(worst, 1e-12 * A) << "the spring row is exactly implicit Euler";
  // the tension the probe reads is the end-of-step force k e⁺ + c ė⁺ (with e the extension)
  EXPECT_NEAR(spring_tension(sim.model().springs[0], sim.state().spring_force[0]), k * e + c * v, 1e-12);
}

TEST(Springs, AMassOnASpringOscillatesWithThePeriodTwoPiRootMOverK) {
  // a fine step: implicit Euler's period 2π h / atan(ω h) is within 1e-4 of 2π/ω here
  const double k = 1.25, L0 = 0.1, A = 0.005, h = 2e-4;
  Simulation sim(anchor_and_cube(Vec3(L0 + A, 0, 0),
                                 R"([{"name": "s", "a": {"body": "cube"}, "b": {"body": "anchor"}, "stiffness": )" +
                                     spring_num(k) + R"(, "rest_length": )" + spring_num(L0) + "}]",
                                 R"({"dt": )" + spring_num(h) + R"(, "gravity": [0, 0, 0]})"));
  const double m = sim.model().rigid.at(1).mass;
  const double period = 2 * kPi * std::sqrt(m / k);
  // two upward zero crossings of the extension, interpolated
  std::vector<double> crossings;
  double last = A, t_last = 0.0;
  while (crossings.size() < 3 && sim.state().time < 4 * period) {
    sim.step();
    const double e = sim.state().rigid[1].position.x() - L0;
    if (last < 0.0 && e >= 0.0) crossings.push_back(t_last + h * (-last) / (e - last));
    last = e;
    t_last = sim.state().time;
  }
  ASSERT_GE(crossings.size(), 2u);
  const double measured = crossings[1] - crossings[0];
  std::printf("period %.6f s, 2 pi sqrt(m/k) = %.6f s\n", measured, period);
  EXPECT_NEAR(measured, period, 2e-3 * period);
}

TEST(Springs, ABodyHangingFromASpringRestsAtMgOverKWithTensionMg) {
  // anchor at the origin, the cube hangs 8 cm below: rest length 8 cm, critically damped
  const double k = 5.0, L0 = 0.08, g = 9.81;
  const double m = 8e-3, c = 2 * std::sqrt(k * m);
  Simulation sim(anchor_and_cube(Vec3(0, 0, -L0),
                                 R"([{"name": "s", "a": {"body": "anchor"}, "b": {"body": "cube"}, "stiffness": )" +
                                     spring_num(k) + R"(, "damping": )" + spring_num(c) + "}]",
                                 R"({"dt": 0.01})",
                                 R"([{"name": "T", "type": "spring_force", "spring": "s"},
                                     {"name": "L", "type": "spring_length", "spring": "s"}])"));
  EXPECT_NEAR(sim.model().springs[0].rest_length, L0, 1e-15) << "the rest length defaults to the ends' distance";
  for (int i = 0; i < 300; ++i) sim.step();
  const double tension = evaluate_probe(sim.model(), sim.state(), sim.model().probes[0]);
  const double length = evaluate_probe(sim.model(), sim.state(), sim.model().probes[1]);
  std::printf("hanging: tension %.6f N (m g = %.6f), length %.6f m (L0 + m g / k = %.6f)\n", tension, m * g, length,
              L0 + m * g / k);
  EXPECT_NEAR(tension, m * g, 1e-6 * m * g);
  EXPECT_NEAR(length, L0 + m * g / k, 1e-6 * L0);
  EXPECT_NEAR(sim.state().rigid[1].position.x(), 0.0, 1e-12);
}

namespace {
// `settings`: the scene's settings object; `factorizations`: the FEM factorizations of the 300 steps
void hang_fem_block(const std::string& settings, int* factorizations = nullptr) {
  // a 4 cm FEM cube (E 0.1 MPa) hangs about 5 cm below a fixed anchor from the mass-weighted
  // mean of its top face (off the face's centre by a few mm: the tets' lumped masses are not
  // symmetric), a zero-length dashpot (k = 0) on its bottom face damping the swing and the rocking
  const double k = 20.0, g = 9.81;
  const std::string text = R"({
    "settings": )" + settings + R"(,
    "materials": {"m": {"young": 1e9, "density": 1000}, "gel": {"young": 1e5, "poisson": 0.3, "density": 1000}},
    "bodies": [
      {"name": "anchor", "type": "fixed", "material": "m", "mesh": {"generator": "box", "size": [0.01, 0.01, 0.01]},
       "position": [0, 0, 0.0]},
      {"name": "block", "type": "fem", "material": "gel",
       "mesh": {"generator": "box", "size": [0.04, 0.04, 0.04], "cells": [3, 3, 3]}, "position": [0, 0, -0.07],
       "node_sets": {"top": {"box": {"min": [-1, -1, -0.0500001], "max": [1, 1, 1]}},
                     "bottom": {"box": {"min": [-1, -1, -1], "max": [1, 1, -0.0899999]}}}}],
    "springs": [{"name": "s", "a": {"body": "anchor"}, "b": {"body": "block", "node_set": "top"},
                 "stiffness": 20, "damping": 1.0},
                {"name": "dashpot", "a": {"body": "block", "node_set": "bottom"}, "b": {"body": "anchor"},
                 "stiffness": 0, "damping": 0.5, "rest_length": 0}],
    "probes": [{"name": "T", "type": "spring_force", "spring": "s"}]})";
  Simulation sim(load_scene_text(text, "."));
  const Spring& s = sim.model().springs.at(0);
  ASSERT_EQ(s.b.nodes.size(), 16u) << "the top face of a 3x3x3 box has 4x4 nodes";
  EXPECT_NEAR(s.rest_length, 0.05, 0.005);
  const double L0 = s.rest_length;
  double mass = 0.0;
  for (double nm : sim.model().fem[0].node_mass) mass += nm;
  ASSERT_NEAR(mass, 0.064, 1e-9);
  int made = 0;
  for (int i = 0; i < 300; ++i) {
    sim.step();
    made += sim.profile().factorizations;
  }
  if (factorizations) *factorizations = made;
  const double tension = evaluate_probe(sim.model(), sim.state(), sim.model().probes[0]);
  const double length = spring_geometry(sim.model(), sim.state(), 0).length;
  EXPECT_LT(sim.state().spring_force[1].norm(), 1e-3 * tension) << "the dashpot is at rest";
  std::printf("fem block: tension %.5f N (M g = %.5f), extension %.5f m (M g / k = %.5f)\n", tension, mass * g,
              length - L0, mass * g / k);
  EXPECT_NEAR(tension, mass * g, 1e-4 * mass * g) << "the spring carries the block's weight";
  EXPECT_NEAR(length - L0, mass * g / k, 1e-4 * mass * g / k);
  EXPECT_LT(body_velocity(sim.model(), sim.state(), {BodyType::Fem, 0}).norm(), 2e-4) << "at rest";
}
}  // namespace

TEST(Springs, AnFemBlockHangsFromItsTopNodeSetWithTensionEqualToItsWeight) { hang_fem_block(R"({"dt": 0.01})"); }

// With a factorization kept across steps (method §7.6) the block comes to rest as well: when
// the correction also used the kept factorization, forces in balance left a velocity
// (A₀⁻¹ − A⁻¹) h Hᵀλ and the block kept swinging at about 2 mm/s.
TEST(Springs, AnFemBlockHangsAndComesToRestWithAKeptFactorization) {
  hang_fem_block(R"({"dt": 0.01, "factorization": {"reuse": true}})");
}

TEST(Springs, TwoFreeBodiesOnASpringKeepTheirMomentumAndCentreOfMass) {
  // no gravity: two cubes 10 cm apart on a spring of rest length 6 cm, one moving sideways
  const std::string text = R"({
    "settings": {"dt": 0.005, "gravity": [0, 0, 0]},
    "materials": {"m": {"young": 1e9, "density": 1000}, "h": {"young": 1e9, "density": 3000}},
    "bodies": [
      {"name": "a", "type": "rigid", "material": "m", "mesh": {"generator": "box", "size": [0.02, 0.02, 0.02]},
       "position": [0, 0, 0], "velocity": [0, 0.05, 0]},
      {"name": "b", "type": "rigid", "material": "h", "mesh": {"generator": "box", "size": [0.02, 0.02, 0.02]},
       "position": [0.1, 0, 0]}],
    "springs": [{"name": "s", "a": {"body": "a", "point": [0.01, 0, 0.005]}, "b": {"body": "b", "point": [0.09, 0, 0]},
                 "stiffness": 3, "damping": 0.02, "rest_length": 0.06}]})";
  Simulation sim(load_scene_text(text, "."));
  auto momentum = [&] {
    Vec3 p = Vec3::Zero();
    for (size_t i = 0; i < 2; ++i) p += sim.model().rigid[i].mass * sim.state().rigid[i].velocity;
    return p;
  };
  const Vec3 p0 = momentum();
  double worst = 0.0, min_length = 1.0, max_angular = 0.0;
  for (int i = 0; i < 400; ++i) {
    sim.step();
    worst = std::max(worst, (momentum() - p0).norm());
    min_length = std::min(min_length, spring_geometry(sim.model(), sim.state(), 0).length);
    max_angular = std::max(max_angular, sim.state().rigid[0].angular_velocity.norm());
  }
  EXPECT_LT(worst, 1e-12 * p0.norm()) << "the spring's forces on its ends are equal and opposite";
  EXPECT_LT(min_length, 0.075) << "it pulled the bodies together";
  EXPECT_GT(max_angular, 1e-3) << "an end off the centre of mass turns its body";
}

TEST(Springs, AZeroLengthSpringOffTheCentreHangsTheBodyBelowItsAttachment) {
  // the cube hangs by a zero-length spring attached at an edge of its top face, 1 cm off its
  // centre in x and 1 cm above it: it turns until its centre is straight below the attachment
  // (torque balance), √2 cm below it, the attachment m g / k below the anchor point.  A
  // zero-length dashpot (k = 0) on its centre damps the swing.
  const double k = 40.0, g = 9.81, m = 8e-3;
  Simulation sim(anchor_and_cube(Vec3(-0.01, 0, -0.03),
                                 R"([{"name": "s", "a": {"body": "cube", "point": [0, 0, -0.02]},
                                      "b": {"body": "anchor", "point": [0, 0, -0.02]}, "stiffness": 40,
                                      "damping": 0.05, "rest_length": 0},
                                     {"name": "dashpot", "a": {"body": "cube"}, "b": {"body": "anchor"},
                                      "stiffness": 0, "damping": 0.05, "rest_length": 0}])",
                                 R"({"dt": 0.005})"));
  ASSERT_TRUE(sim.model().springs[0].zero_length());
  for (int i = 0; i < 1200; ++i) sim.step();
  const Vec3 x = sim.state().rigid[1].position;
  const Vec3 end = spring_end_position(sim.model(), sim.state(), sim.model().springs[0].a);
  std::printf("zero-length: centre (%.5f, %.5f, %.5f), attachment (%.5f, %.5f, %.5f)\n", x.x(), x.y(), x.z(),
              end.x(), end.y(), end.z());
  EXPECT_NEAR(end.z(), -0.02 - m * g / k, 1e-6) << "the attachment sits m g / k below the anchor";
  EXPECT_NEAR(end.x(), 0.0, 1e-6);
  EXPECT_NEAR(x.x(), end.x(), 1e-4) << "the centre of mass hangs straight below its attachment";
  EXPECT_NEAR(x.z(), end.z() - std::sqrt(2.0) * 0.01, 1e-4);
  EXPECT_NEAR(spring_tension(sim.model().springs[0], sim.state().spring_force[0]), m * g, 1e-6);
}

TEST(Springs, TheRowsVelocityJacobianMatchesFiniteDifferencesOfTheLength) {
  // one axial spring between a turning rigid body and an FEM node set, one zero-length spring;
  // their rows' u_free = H v against central differences of the length (components) along v
  const std::string text = R"({
    "settings": {"dt": 0.01, "gravity": [0, 0, 0]},
    "materials": {"m": {"young": 1e9, "density": 1000}, "gel": {"young": 1e5, "poisson": 0.3, "density": 1000}},
    "bodies": [
      {"name": "cube", "type": "rigid", "material": "m", "mesh": {"generator": "box", "size": [0.02, 0.03, 0.04]},
       "position": [0.01, 0.02, 0.1], "rotation": {"axis": [1, 2, 3], "angle_deg": 30}},
      {"name": "block", "type": "fem", "material": "gel",
       "mesh": {"generator": "box", "size": [0.04, 0.04, 0.04], "cells": [2, 2, 2]}, "position": [0, 0, 0],
       "node_sets": {"corner": {"box": {"min": [0.0, 0.0, 0.0], "max": [1, 1, 1]}}}}],
    "springs": [{"name": "axial", "a": {"body": "cube", "point": [0.015, 0.025, 0.11]},
                 "b": {"body": "block", "node_set": "corner"}, "stiffness": 10, "rest_length": 0.05},
                {"name": "zero", "a": {"body": "block", "node_set": "corner"}, "b": {"body": "cube"},
                 "stiffness": 10, "rest_length": 0}]})";
  const Model model = load_scene_text(text, ".");
  State state = make_initial_state(model);
  Workspace work;
  work.rigid.resize(1);
  work.rigid[0].v_free = Vec3(0.3, -0.2, 0.5);
  work.rigid[0].w_free = Vec3(2.0, -1.0, 3.0);
  work.fem_v_free.assign(1, Points(model.fem[0].rest.nodes.size()));
  for (size_t n = 0; n < work.fem_v_free[0].size(); ++n)
    work.fem_v_free[0][n] = Vec3(std::sin(1.0 + n), std::cos(2.0 * n), std::sin(0.5 * n + 3));
  work.u_free.resize(0);
  add_spring_rows(model, state, work);
  ASSERT_EQ(work.rows.layout.spring_rows, 4);
  // the state moved by ε along the velocities (the rotation by ε ω)
  auto moved = [&](double eps) {
    State s = state;
    for (size_t n = 0; n < s.fem[0].x.size(); ++n) s.fem[0].x[n] += eps * work.fem_v_free[0][n];
    RigidBodyState& r = s.rigid[0];
    r.position += eps * work.rigid[0].v_free;
    const Vec3 w = work.rigid[0].w_free * eps;
    r.orientation = (Quat(Eigen::AngleAxisd(w.norm(), w.normalized())) * r.orientation).normalized();
    return s;
  };
  const double eps = 1e-6;
  const State plus = moved(eps), minus = moved(-eps);
  const double dL = (spring_geometry(model, plus, 0).length - spring_geometry(model, minus, 0).length) / (2 * eps);
  EXPECT_NEAR(work.u_free[0], dL, 1e-7 * std::max(1.0, std::abs(dL)));
  const Vec3 dd = (spring_geometry(model, plus, 1).delta - spring_geometry(model, minus, 1).delta) / (2 * eps);
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(work.u_free[1 + j], dd[j], 1e-7) << "zero-length row " << j;
  // the terms give the same velocities (H v = u_free): every node of the set is free here
  VecX hv = VecX::Zero(4);
  for (const auto& t : work.rows.fem_terms) hv[t.row] += t.coeff.dot(work.fem_v_free[0][t.node]);
  for (const auto& t : work.rows.rigid_terms)
    hv[t.row] += t.linear.dot(work.rigid[0].v_free) + t.angular.dot(work.rigid[0].w_free);
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(hv[j], work.u_free[j], 1e-12) << "row " << j;
}

TEST(Springs, AZeroLengthMountWithoutAPointStartsUnstressed) {
  // a cup-like FEM block mounted on a rigid head by a zero-length spring from its top node set:
  // the head's end defaults to where the node set's mean starts, not to the head's centre
  const std::string text = R"({
    "settings": {"dt": 0.01, "gravity": [0, 0, 0]},
    "materials": {"m": {"young": 1e9, "density": 1000}, "gel": {"young": 1e5, "poisson": 0.3, "density": 1000}},
    "bodies": [
      {"name": "head", "type": "rigid", "material": "m", "mesh": {"generator": "box", "size": [0.04, 0.04, 0.01]},
       "position": [0.003, 0, 0.03]},
      {"name": "block", "type": "fem", "material": "gel",
       "mesh": {"generator": "box", "size": [0.02, 0.02, 0.02], "cells": [2, 2, 2]}, "position": [0, 0, 0],
       "node_sets": {"top": {"top": 0.001}}}],
    "springs": [{"name": "mount", "a": {"body": "block", "node_set": "top"}, "b": {"body": "head"},
                 "stiffness": 1e4, "rest_length": 0},
                {"name": "axial", "a": {"body": "block", "node_set": "top"}, "b": {"body": "head"}, "stiffness": 1}]})";
  Simulation sim(load_scene_text(text, "."));
  const Model& m = sim.model();
  EXPECT_LT(spring_geometry(m, sim.state(), 0).delta.norm(), 1e-15) << "the mount starts at its rest";
  EXPECT_NEAR(spring_end_position(m, sim.state(), m.springs[1].b).x(), 0.003, 1e-15)
      << "an axial spring's rigid end still defaults to the centre of mass";
  for (int i = 0; i < 20; ++i) sim.step();
  EXPECT_LT(sim.state().spring_force[0].norm(), 1e-9) << "no gravity, no load: the mount carries nothing";
}

TEST(Springs, MalformedSpringsAreReportedAtTheirPointer) {
  const std::string head = R"({
    "materials": {"m": {"young": 1e9, "density": 1000}},
    "bodies": [
      {"name": "anchor", "type": "fixed", "material": "m", "mesh": {"generator": "box", "size": [0.01, 0.01, 0.01]}},
      {"name": "cube", "type": "rigid", "material": "m", "mesh": {"generator": "box", "size": [0.02, 0.02, 0.02]},
       "position": [0, 0, -0.1]},
      {"name": "gel", "type": "fem", "material": "m", "mesh": {"generator": "box", "size": [0.02, 0.02, 0.02]},
       "position": [0.1, 0, 0], "node_sets": {"all": {"box": {"min": [-1, -1, -1], "max": [1, 1, 1]}}}}],
    "springs": )";
  auto issues = [&](const std::string& springs, const std::string& probes = "[]") {
    return scene_issues::issues_of_text(head + springs + R"(, "probes": )" + probes + "}");
  };
  const auto has = scene_issues::has_issue;
  const std::string ok = R"({"name": "s", "a": {"body": "anchor"}, "b": {"body": "cube"}, "stiffness": 5})";
  EXPECT_TRUE(issues("[" + ok + "]").empty());
  EXPECT_TRUE(has(issues(R"([{"name": "s", "a": {"body": "nope"}, "b": {"body": "cube"}, "stiffness": 5}])"),
                  "/springs/0/a/body", "unknown body 'nope'"));
  EXPECT_TRUE(has(issues(R"([{"name": "s", "a": {"body": "gel"}, "b": {"body": "cube"}, "stiffness": 5}])"),
                  "/springs/0/a/node_set", "missing required key"));
  EXPECT_TRUE(has(issues(R"([{"name": "s", "a": {"body": "cube", "node_set": "all"}, "b": {"body": "anchor"},
                             "stiffness": 5}])"),
                  "/springs/0/a/node_set", "give its end as"));
  EXPECT_TRUE(has(issues(R"([{"name": "s", "a": {"body": "gel", "node_set": "none"}, "b": {"body": "cube"},
                             "stiffness": 5}])"),
                  "/springs/0/a/node_set", "unknown node set 'none'"));
  EXPECT_TRUE(has(issues(R"([{"name": "s", "a": {"body": "anchor"}, "b": {"body": "cube"}, "stiffness": -1}])"),
                  "/springs/0/stiffness", ""));
  EXPECT_TRUE(has(issues(R"([{"name": "s", "a": {"body": "anchor"}, "b": {"body": "cube"}, "stiffness": 0}])"),
                  "/springs/0/stiffness", "stiffness > 0 or a damping > 0"));
  EXPECT_TRUE(has(issues(R"([{"name": "s", "a": {"body": "cube"}, "b": {"body": "cube", "point": [0, 0, 0]},
                             "stiffness": 5}])"),
                  "/springs/0/b", "both ends are on rigid body 'cube'"));
  EXPECT_TRUE(has(issues(R"([{"name": "s", "a": {"body": "anchor"}, "b": {"body": "cube", "point": [0, 0, 0]},
                             "stiffness": 5, "rest_length": 0.01}])"),
                  "/springs/0/rest_length", "no direction"));
  EXPECT_TRUE(has(issues("[" + ok + ", " + ok + "]"), "/springs/1/name", "duplicate spring name 's'"));
  EXPECT_TRUE(has(issues(R"([{"name": "s", "a": {"body": "anchor"}, "b": {"body": "cube"}, "stiffness": 5, "k": 1}])"),
                  "/springs/0/k", ""));
  EXPECT_TRUE(has(issues("[" + ok + "]", R"([{"name": "T", "type": "spring_force", "spring": "x"}])"),
                  "/probes/0/spring", "unknown spring 'x'; springs: s"));
  EXPECT_TRUE(has(issues("{}"), "/springs", "an array of springs"));
}

// And with the solve refined against the kept factorization (settings.factorization.refinements,
// method §7.6 point 6): the correction stays exact, so the block comes to rest too.
TEST(Springs, AnFemBlockHangsAndComesToRestWithAKeptFactorizationAndARefinedSolve) {
  hang_fem_block(R"({"dt": 0.01, "factorization": {"reuse": true, "refinements": 1}})");
}

// And with the kept matrix as the step's own while it drifts little (settings.factorization.
// lag_drift, method §7.6 point 7): the free motion and the correction solve the same A₀, so
// forces in balance leave no velocity, and the block comes to rest on few factorizations.
TEST(Springs, AnFemBlockHangsAndComesToRestWithALaggedMatrix) {
  int factorizations = -1;
  hang_fem_block(R"({"dt": 0.01, "factorization": {"reuse": true, "lag_drift": 0.01}})", &factorizations);
  std::printf("lagged matrix: %d factorizations in 300 steps\n", factorizations);
  EXPECT_LT(factorizations, 300 / 3) << "the matrix lagged on most steps";
}
