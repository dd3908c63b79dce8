// State: everything that changes during a simulation.  Copyable; a copy restarts exactly.
#pragma once
#include <cstdint>

#include "cavity/cavity_state.h"
#include "common/types.h"
#include "fem/fem_body.h"
#include "rigid/rigid_body.h"

namespace suction {

struct Model;

/// A contact of the last step and the force it carried (also the next step's warm start).
struct ContactForce {
  std::uint64_t key = 0;        // feature-pair identity (Contact::key)
  int body_a = -1, body_b = -1; // body slots (model/body_slots.h)
  int vertex_a = -1;            // a vertex–triangle contact's vertex of body_a; -1 otherwise
  Vec3 point = Vec3::Zero();    // contact point on b, world [m]
  Vec3 normal = Vec3::UnitZ();  // from b towards a
  Vec3 local = Vec3::Zero();    // (λ_n, λ_t1, λ_t2) in the contact frame [N]
  Vec3 force = Vec3::Zero();    // world force on a (−force on b) [N]
};

struct State {
  double time = 0.0;   // [s]
  long step = 0;
  std::vector<FemBodyState> fem;
  std::vector<RigidBodyState> rigid;
  std::vector<Vec3> driver_reaction;  // per driver: force it exerted on its target last step [N]
  std::vector<ContactForce> contacts; // last step's contacts, sorted by key
  /// the cavity book (cavity/cavity_state.h): the tracked cavities, the contacts within the
  /// sealing distance at the last cavity update (the groups of bodies they join are compared
  /// with the next update's: a group that changed is united again, stages/cavities.cpp) and
  /// the next cavity id, as one value that the cavity stage takes and gives back and that a
  /// redo restores with the rest of the state
  CavityBook book;
  /// per driver: a user offset added to its displacement (interactive dragging) [m]
  std::vector<Vec3> driver_offset;
  /// per spring: its row forces of the last step (1 or 3, Spring::rows()) [N], for the probes
  /// (the solver eliminates the soft rows exactly: no warm start), and its axis: the unit
  /// vector from end b to end a where they last were apart
  std::vector<Vec3> spring_force;
  std::vector<Vec3> spring_axis;
  /// per joint: its angle θ, continuous across ±π (revolute) [rad], and the torque its drive
  /// and limits exerted on body b about the axis in the last step [N m]
  std::vector<double> joint_angle;
  std::vector<double> joint_torque;
};

/// The state at t = 0: rest positions, initial velocities.
State make_initial_state(const Model& model);

}  // namespace suction
