// The pick and place (scenes/pick_and_place.json, planned by scripts/pick_and_place_plan.py;
// docs/scenes.md): a four-joint arm on hard position servos, the standard cup welded under its
// hand, picks a rigid apple from a table, carries it over a box of two compartments, lowers it
// into the right one and lets go of it by pushing it against the compartment's far wall.
// Checked against oracles, not a snapshot: the apple ends at rest inside the compartment's box
// (read from the scene's bodies) with the floor carrying its weight; it was carried more than
// 100 mm under a sealed cavity below P_atm at every step; hanging still, Newton's law on the
// apple (the cavity's pull on its own walls and the cup's contacts against its weight) and the
// cavity's holding force against its weight; the shoulder's torque probe at the same pose
// before and after the pick differs by the apple's gravity moment about the shoulder axis; the
// seal opens (leak_rate 0) at a step where the wall pushes the apple, and stays open.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "cavity/cavity_mesh.h"
#include "cavity/story.h"
#include "model/body_slots.h"
#include "model/joints.h"
#include "probes/probes.h"
#include "scene/scene.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

using story::probe;

int rigid_index(const Model& m, const std::string& name) {
  for (size_t i = 0; i < m.rigid.size(); ++i)
    if (m.rigid[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no rigid body " << name;
  return 0;
}

int joint_index(const Model& m, const std::string& name) {
  for (size_t i = 0; i < m.joints.size(); ++i)
    if (m.joints[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no joint " << name;
  return 0;
}

/// a fixed body's world bounding box (its surface at its initial pose)
struct Box {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = -Vec3::Constant(std::numeric_limits<double>::infinity());
};
Box bounds(const Model& m, int rigid) {
  const RigidBody& b = m.rigid[rigid];
  Box box;
  for (const Vec3& v : b.surface.vertices) {
    const Vec3 x = b.initial_position + b.initial_orientation * v;
    box.lo = box.lo.cwiseMin(x);
    box.hi = box.hi.cwiseMax(x);
  }
  return box;
}

/// The holds of the plan: the keyframe intervals over which every driven joint's target stays
/// put, in time order (the arm holds a pose)
struct Hold {
  double t0 = 0, t1 = 0;
  std::vector<double> pose;  // the joints' targets [rad]
};
std::vector<Hold> holds(const Model& m) {
  std::vector<const Joint*> driven;
  for (const Joint& j : m.joints)
    if (j.mode == JointTargetMode::Position) driven.push_back(&j);
  EXPECT_FALSE(driven.empty());
  const std::vector<double>& times = driven[0]->target.times;
  std::vector<Hold> out;
  for (size_t k = 0; k + 1 < times.size(); ++k) {
    bool still = true;
    Hold h{times[k], times[k + 1], {}};
    for (const Joint* j : driven) {
      EXPECT_EQ(j->target.times, times) << "the plan keys every joint at the same times";
      const double a = j->target.values[k].x(), b = j->target.values[k + 1].x();
      still = still && a == b;
      h.pose.push_back(a);
    }
    if (still) out.push_back(h);
  }
  return out;
}

struct PickRun {
  double weight = 0;                   // the apple's [N]
  bool sealed_in_press = false;        // a cup–apple cavity at the end of the press's hold
  // the carry: from the hold above the table with the apple to the end of the hold in the box
  bool sealed_throughout = true;
  double p_max_carry = 0;              // the highest cavity pressure over the carry [Pa]
  double carried = 0;                  // horizontal travel of the apple's centre while sealed [m]
  // hanging still (second half of the hold after the pick)
  double speed_hanging = 0, hold_force = 0, pull_z = 0, contact_z = 0, pressure_hanging = 0;
  double torque_before = 0, torque_after = 0, moment = 0, lever = 0;
  // the release
  double t_release = -1, t_first_wall = -1;
  double wall_last_sealed = 0, wall_release = 0;  // the walls' force on the apple [N]
  bool resealed = false;
  double p_after = 0;                  // the highest cup pressure probe after the release [Pa]
  // the end
  Vec3 end = Vec3::Zero();
  double end_speed = 0, end_spin = 0, floor_z = 0, cup_on_apple = 0;
  Box compartment;
};

PickRun pick_run() {
  Simulation sim(load_scene_file(std::string(SUCTION_SCENES_DIR) + "/pick_and_place.json"));
  const Model& m = sim.model();
  const BodySlots slots(m);
  const int apple = rigid_index(m, "apple"), cup = 0;
  EXPECT_EQ(m.fem.at(cup).name, "cup");
  const int apple_slot = slots.slot({BodyType::Rigid, apple}), cup_slot = slots.slot({BodyType::Fem, cup});
  const int floor_slot = slots.slot({BodyType::Rigid, rigid_index(m, "box_floor")});
  std::vector<int> wall_slots;
  for (const char* w : {"wall_near", "wall_far", "wall_left", "wall_right", "divider"})
    wall_slots.push_back(slots.slot({BodyType::Rigid, rigid_index(m, w)}));
  const int shoulder = joint_index(m, "shoulder");
  const int pt = probe(m, "shoulder_torque"), pp = probe(m, "pressure_cup");
  const double dt = m.settings.dt, p_atm = m.settings.p_atm;
  const Vec3 gravity = m.settings.gravity;
  EXPECT_EQ(m.settings.cavity.leak_rate, 0.0) << "no leak: only the push may open the seal";

  PickRun s;
  s.weight = m.rigid[apple].mass * gravity.norm();
  // the target compartment: right of the divider, between the near and far walls, above the floor
  const Box divider = bounds(m, rigid_index(m, "divider")), right = bounds(m, rigid_index(m, "wall_right")),
            near = bounds(m, rigid_index(m, "wall_near")), far = bounds(m, rigid_index(m, "wall_far")),
            floor = bounds(m, rigid_index(m, "box_floor"));
  s.compartment.lo = Vec3(divider.hi.x(), near.hi.y(), floor.hi.z());
  s.compartment.hi = Vec3(right.lo.x(), far.lo.y(), far.hi.z());

  // the plan's holds: above the apple (before), the press, the same pose with the apple (after),
  // in the box (settle), the end (rest)
  const std::vector<Hold> h = holds(m);
  EXPECT_EQ(h.size(), 5u);
  if (h.size() != 5u) return s;
  EXPECT_EQ(h[0].pose, h[2].pose) << "the torques are compared at one pose";
  const Hold &before = h[0], &press = h[1], &after = h[2], &settle = h[3], &rest = h[4];

  // the cup's cavity with the apple (not dormant), if any
  auto cup_cavity = [&]() -> const CavityState* {
    for (const CavityState& c : sim.state().book.cavities)
      if (!c.dormant && std::count(c.slots.begin(), c.slots.end(), cup_slot) &&
          std::count(c.slots.begin(), c.slots.end(), apple_slot))
        return &c;
    return nullptr;
  };
  // the contact forces on the apple from a set of slots, summed [N]
  auto force_on_apple = [&](auto from) {
    Vec3 f = Vec3::Zero();
    for (const ContactForce& c : sim.state().contacts) {
      if (c.body_a == apple_slot && from(c.body_b)) f += c.force;
      if (c.body_b == apple_slot && from(c.body_a)) f -= c.force;
    }
    return f;
  };
  auto is_wall = [&](int slot) { return std::count(wall_slots.begin(), wall_slots.end(), slot) > 0; };
  auto in = [](double t, double t0, double t1) { return t > t0 + 1e-9 && t <= t1 + 1e-9; };

  const long steps = std::lround(m.settings.duration / dt);
  Vec3 sealed_from = Vec3::Zero();
  bool carrying = false;
  double n_before = 0, n_after = 0, wall_previous = 0;
  for (long i = 1; i <= steps; ++i) {
    sim.step();
    const State& st = sim.state();
    const double t = st.time;
    const auto v = sim.probe_values();
    const CavityState* cav = cup_cavity();
    const Vec3 x = st.rigid[apple].position;
    const double wall = force_on_apple(is_wall).norm();
    if (std::abs(t - press.t1) < 0.5 * dt) s.sealed_in_press = cav != nullptr;
    if (in(t, before.t0 + 0.5 * (before.t1 - before.t0), before.t1)) {
      s.torque_before += v[pt];
      ++n_before;
    }
    // the carry: sealed, below P_atm, at every step
    if (in(t, after.t0, settle.t1)) {
      if (!cav) s.sealed_throughout = false;
      else s.p_max_carry = std::max(s.p_max_carry, cav->pressure);
      if (!carrying) sealed_from = x;
      carrying = true;
      if (cav) s.carried = std::max(s.carried, std::hypot(x.x() - sealed_from.x(), x.y() - sealed_from.y()));
    }
    // hanging still at the pose of `before`
    if (in(t, after.t0 + 0.5 * (after.t1 - after.t0), after.t1)) {
      ++n_after;
      s.torque_after += v[pt];
      s.speed_hanging = std::max(s.speed_hanging, st.rigid[apple].velocity.norm());
      const Vec3 r = x - hinge_frame(m, st, m.joints[shoulder]).pa;
      const Vec3 axis = hinge_frame(m, st, m.joints[shoulder]).na;
      // the drive holds the apple's gravity moment about the axis: the opposite torque on the arm
      s.moment += -axis.dot(r.cross(m.rigid[apple].mass * gravity));
      s.lever += (r - r.dot(axis) * axis - r.dot(gravity.normalized()) * gravity.normalized()).norm();
      if (cav) {
        s.pressure_hanging += cav->pressure;
        s.hold_force += cavity_hold(m, st, *cav).force;
        // the cavity's pull on the apple's own walls: (P − P_atm) ∂V/∂x of its vertices
        const Points xs = cavity_world_vertices(m, st, *cav);
        const Points grad = mesh_volume_gradient(xs, cav->triangles);
        for (size_t k = 0; k < cav->vertices.size(); ++k)
          if (cav->vertices[k].slot == apple_slot) s.pull_z += (cav->pressure - p_atm) * grad[k].z();
      }
      s.contact_z += force_on_apple([&](int slot) { return slot == cup_slot; }).z();
    }
    // the push: the first touch of a wall, the release, nothing after it
    if (t > settle.t1 + 1e-9) {
      if (wall > 0 && s.t_first_wall < 0) s.t_first_wall = t;
      if (s.t_release < 0 && !cav) {
        s.t_release = t;
        s.wall_last_sealed = wall_previous;
        s.wall_release = wall;
      } else if (s.t_release >= 0) {
        s.resealed = s.resealed || cav != nullptr;
        s.p_after = std::max(s.p_after, v[pp]);
      }
    }
    wall_previous = wall;
    if (std::abs(t - rest.t1) < 0.5 * dt || i == steps) {
      s.end = x;
      s.end_speed = st.rigid[apple].velocity.norm();
      s.end_spin = st.rigid[apple].angular_velocity.norm();
      s.floor_z = force_on_apple([&](int slot) { return slot == floor_slot; }).z();
      s.cup_on_apple = force_on_apple([&](int slot) { return slot == cup_slot; }).norm();
    }
  }
  s.torque_before /= n_before;
  s.torque_after /= n_after;
  s.moment /= n_after;
  s.lever /= n_after;
  s.hold_force /= n_after;
  s.pull_z /= n_after;
  s.contact_z /= n_after;
  s.pressure_hanging /= n_after;
  std::printf("pick_and_place: apple %.4f N; sealed in the press %d, through the carry %d (P at most %.0f Pa), "
              "carried %.1f mm\n", s.weight, s.sealed_in_press, s.sealed_throughout, s.p_max_carry, 1e3 * s.carried);
  std::printf("  hanging: P %.0f Pa, holding force %.4f N = %.2f x weight; cavity pull %.4f N + cup contacts %.4f N "
              "= %.4f N for %.4f N (speed %.2g m/s)\n", s.pressure_hanging, s.hold_force, s.hold_force / s.weight,
              s.pull_z, s.contact_z, s.pull_z + s.contact_z, s.weight, s.speed_hanging);
  std::printf("  shoulder torque %.5f -> %.5f N m: difference %.5f against the apple's moment %.5f N m "
              "(lever %.2f mm)\n", s.torque_before, s.torque_after, s.torque_after - s.torque_before, s.moment,
              1e3 * s.lever);
  std::printf("  wall first touched at %.2f s, seal open at %.2f s (wall force %.3f N the step before, %.3f N then); "
              "resealed %d, cup pressure after at most %.0f Pa\n", s.t_first_wall, s.t_release, s.wall_last_sealed,
              s.wall_release, s.resealed, s.p_after);
  std::printf("  end: (%.2f, %.2f, %.2f) mm in [%.1f, %.1f] x [%.1f, %.1f] x [%.1f, %.1f] mm; speed %.2g m/s, "
              "spin %.2g rad/s; the floor carries %.4f N, the cup touches it with %.3g N\n",
              1e3 * s.end.x(), 1e3 * s.end.y(), 1e3 * s.end.z(), 1e3 * s.compartment.lo.x(), 1e3 * s.compartment.hi.x(),
              1e3 * s.compartment.lo.y(), 1e3 * s.compartment.hi.y(), 1e3 * s.compartment.lo.z(),
              1e3 * s.compartment.hi.z(), s.end_speed, s.end_spin, s.floor_z, s.cup_on_apple);
  return s;
}

}  // namespace

TEST(PickAndPlaceStory, TheArmPicksTheAppleCarriesItAndLetsGoAgainstTheWall) {
  const PickRun s = pick_run();
  // picked: the press seals, the seal holds below P_atm at every step of the carry, over > 100 mm
  EXPECT_TRUE(s.sealed_in_press);
  EXPECT_TRUE(s.sealed_throughout) << "a cup–apple cavity at every step from the lift to the hold in the box";
  EXPECT_LT(s.p_max_carry, kPAtm - 1000.0) << "held by suction: below P_atm by more than 1 kPa throughout";
  EXPECT_GT(s.carried, 0.100) << "m, horizontally, while sealed";
  // hanging still: the suction carries it (Newton on the apple: the cavity's pull on its walls,
  // less the lip's push, is its weight), and the cavity's holding force exceeds its weight
  EXPECT_LT(s.speed_hanging, 1e-3) << "m/s: hanging still";
  EXPECT_GE(s.hold_force, s.weight) << "(P_atm − P)·A at least the weight";
  EXPECT_NEAR(s.pull_z + s.contact_z, s.weight, 0.02 * s.weight) << "the hanging apple in balance";
  EXPECT_GT(s.pull_z, s.weight) << "the suction pulls more than the weight: the lip is pressed on";
  // the shoulder's servo takes the apple's gravity moment (m g times its horizontal lever arm)
  EXPECT_GT(s.lever, 0.2) << "m: the apple hangs well out from the shoulder";
  EXPECT_NEAR(s.torque_after - s.torque_before, s.moment, 0.10 * std::abs(s.moment));
  EXPECT_NEAR(std::abs(s.moment), s.weight * s.lever, 1e-6 * s.weight * s.lever);
  // let go by the push: after the apple met the wall, while the wall pushes it; it stays open
  ASSERT_GT(s.t_release, 0.0) << "the seal opens";
  ASSERT_GT(s.t_first_wall, 0.0) << "the apple meets the wall";
  EXPECT_LE(s.t_first_wall, s.t_release) << "the seal opens after the apple met the wall";
  EXPECT_GT(std::max(s.wall_last_sealed, s.wall_release), 0.1 * s.weight)
      << "the wall pushes the apple when the seal opens";
  EXPECT_FALSE(s.resealed);
  EXPECT_EQ(s.p_after, kPAtm) << "the cup's pressure probe is back at P_atm";
  // and it rests in the target compartment, on its floor
  for (int c = 0; c < 3; ++c) {
    EXPECT_GT(s.end[c], s.compartment.lo[c]) << "axis " << c;
    EXPECT_LT(s.end[c], s.compartment.hi[c]) << "axis " << c;
  }
  EXPECT_LT(s.end_speed, 1e-3) << "m/s";
  EXPECT_LT(s.end_spin, 1e-2) << "rad/s";
  EXPECT_EQ(s.cup_on_apple, 0.0) << "the cup has left it";
  EXPECT_NEAR(s.floor_z, s.weight, 0.02 * s.weight) << "the floor carries it";
}
