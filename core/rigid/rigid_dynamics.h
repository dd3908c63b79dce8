// Rigid-body free motion: 6 DOF, mass and world inertia as the system matrix A (docs/method.md §4).
#pragma once
#include "rigid/rigid_body.h"

namespace suction {

/// World-frame inertia R I_body Rᵀ [kg m²].
Mat3 world_inertia(const RigidBody& body, const Quat& orientation);

/// Unconstrained end-of-step velocities of a dynamic body under a force at its centre of mass
/// (gravity included by the caller): v' = v + h F/m, and the gyroscopic term ω × Iω integrated
/// implicitly in the body frame (one Newton step, Catto 2015) so a free tumbling body stays
/// stable; rotation about a principal axis is preserved exactly.
void rigid_free_motion(const RigidBody& body, const RigidBodyState& s, const Vec3& force,
                       double h, Vec3& v_free, Vec3& w_free);

/// x ← x + h v, q ← exp(h ω) q (normalized).
void integrate_rigid_pose(RigidBodyState& s, double h);

/// World position of a body-frame point.
inline Vec3 rigid_point(const RigidBodyState& s, const Vec3& p_body) {
  return s.position + s.orientation * p_body;
}

}  // namespace suction
