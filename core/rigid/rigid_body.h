// A rigid body as the rigid kernels see it: shape and mass properties (read-only during a
// step) and its state.  The Model (core/model) holds a list of these.
#pragma once
#include <string>

#include "common/types.h"
#include "mesh/tet_mesh.h"

namespace suction {

enum class RigidKind { Dynamic, Fixed, Kinematic };

/// A rigid body (dynamic, fixed, or kinematic = moved by a driver).
struct RigidBody {
  std::string name;
  RigidKind kind = RigidKind::Dynamic;
  int material = 0;
  SurfaceMesh surface;            // closed surface in the body frame, origin at the centre of mass [m]
  double mass = 0.0;              // [kg] (infinite for fixed/kinematic: not used)
  Mat3 inertia_body = Mat3::Zero();  // about the centre of mass, body frame [kg m²]
  Vec3 initial_position = Vec3::Zero();       // centre of mass, world [m]
  Quat initial_orientation = Quat::Identity();
  Vec3 initial_velocity = Vec3::Zero();          // [m/s]
  Vec3 initial_angular_velocity = Vec3::Zero();  // world frame [rad/s]
  int driver = -1;                // kinematic: the position/velocity driver moving it
};

struct RigidBodyState {
  Vec3 position = Vec3::Zero();         // centre of mass [m]
  Quat orientation = Quat::Identity();  // body -> world
  Vec3 velocity = Vec3::Zero();         // [m/s]
  Vec3 angular_velocity = Vec3::Zero(); // world frame [rad/s]
};

}  // namespace suction
