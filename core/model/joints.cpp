#include "model/joints.h"

#include <cmath>

namespace suction {

JointEndPose joint_end_pose(const Model& model, const State& state, const JointEnd& end) {
  if (end.world() || end.body.type != BodyType::Rigid) return {};
  const RigidBodyState& r = state.rigid[end.body.index];
  return {r.position, r.orientation};
}

JointEndPose joint_end_initial_pose(const Model& model, const JointEnd& end) {
  if (end.world() || end.body.type != BodyType::Rigid) return {};
  const RigidBody& r = model.rigid[end.body.index];
  return {r.initial_position, r.initial_orientation};
}

HingeFrame hinge_frame(const Model& model, const State& state, const Joint& joint) {
  const JointEndPose a = joint_end_pose(model, state, joint.a);
  const JointEndPose b = joint_end_pose(model, state, joint.b);
  HingeFrame f;
  f.ra = a.orientation * joint.anchor_a;
  f.rb = b.orientation * joint.anchor_b;
  f.pa = a.position + f.ra;
  f.pb = b.position + f.rb;
  f.na = a.orientation * joint.axis_a;
  f.nb = b.orientation * joint.axis_b;
  return f;
}

double hinge_angle_wrapped(const Model& model, const State& state, const Joint& joint) {
  const Quat qa = joint_end_pose(model, state, joint.a).orientation;
  const Quat qb = joint_end_pose(model, state, joint.b).orientation;
  // the rotation of b relative to a since t = 0, in a's frame; its twist about the axis
  Quat d = (qa.conjugate() * qb) * joint.rest_relative.conjugate();
  if (d.w() < 0.0) d.coeffs() *= -1.0;  // q and −q are one rotation: the one with w ≥ 0 turns ≤ π
  return 2.0 * std::atan2(d.vec().dot(joint.axis_a), d.w());
}

double unwrap_angle(double previous, double wrapped) {
  constexpr double kTwoPi = 6.283185307179586;
  double delta = std::remainder(wrapped - previous, kTwoPi);  // in [−π, π]
  return previous + delta;
}

}  // namespace suction
