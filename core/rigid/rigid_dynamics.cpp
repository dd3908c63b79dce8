#include "rigid/rigid_dynamics.h"

namespace suction {

Mat3 world_inertia(const RigidBody& body, const Quat& orientation) {
  const Mat3 R = orientation.toRotationMatrix();
  return R * body.inertia_body * R.transpose();
}

void rigid_free_motion(const RigidBody& body, const RigidBodyState& s, const Vec3& force,
                       double h, Vec3& v_free, Vec3& w_free) {
  v_free = s.velocity + h * force / body.mass;
  // implicit gyroscopic step in the body frame: solve Ib(ω'−ω) + h ω'×Ib ω' = 0 by one Newton step
  const Mat3& Ib = body.inertia_body;
  const Vec3 wb = s.orientation.conjugate() * s.angular_velocity;
  const Vec3 residual = h * wb.cross(Ib * wb);
  const Mat3 J = Ib + h * (skew(wb) * Ib - skew(Ib * wb));
  const Vec3 wb_new = wb - J.lu().solve(residual);
  w_free = s.orientation * wb_new;
}

void integrate_rigid_pose(RigidBodyState& s, double h) {
  s.position += h * s.velocity;
  const double angle = h * s.angular_velocity.norm();
  if (angle > 0.0) {
    const Quat dq(Eigen::AngleAxisd(angle, s.angular_velocity.normalized()));
    s.orientation = (dq * s.orientation).normalized();
  }
}

}  // namespace suction
