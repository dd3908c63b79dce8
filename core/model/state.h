// State: everything that changes during a simulation.  Copyable; a copy restarts exactly.
#pragma once
#include <cstdint>

#include "common/types.h"

namespace suction {

struct Model;

struct FemBodyState {
  Points x;  // #nodes×3 positions [m]
  Points v;  // #nodes×3 velocities [m/s]
};

struct RigidBodyState {
  Vec3 position = Vec3::Zero();         // centre of mass [m]
  Quat orientation = Quat::Identity();  // body -> world
  Vec3 velocity = Vec3::Zero();         // [m/s]
  Vec3 angular_velocity = Vec3::Zero(); // world frame [rad/s]
};

/// A contact of the last step and the force it carried (also the next step's warm start).
struct ContactForce {
  std::uint64_t key = 0;        // feature-pair identity (Contact::key)
  int body_a = -1, body_b = -1; // collision slots (FEM bodies first, then rigid bodies)
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
};

/// The state at t = 0: rest positions, initial velocities.
State make_initial_state(const Model& model);

}  // namespace suction
