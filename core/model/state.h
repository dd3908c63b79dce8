// State: everything that changes during a simulation.  Copyable; a copy restarts exactly.
#pragma once
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

struct State {
  double time = 0.0;   // [s]
  long step = 0;
  std::vector<FemBodyState> fem;
  std::vector<RigidBodyState> rigid;
  std::vector<Vec3> driver_reaction;  // per driver: force it exerted on its target last step [N]
};

/// The state at t = 0: rest positions, initial velocities.
State make_initial_state(const Model& model);

}  // namespace suction
