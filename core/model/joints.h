// Joint geometry (Model::joints, docs/method.md §8.8): where a joint's anchors and axes are in a
// State, and its angle.  The stage that turns joints into constraint rows, and projects the
// bodies back onto them after a step, is stages/joints.cpp; the probes read angles from here.
#pragma once
#include "model/model.h"
#include "model/state.h"

namespace suction {

/// A joint end's pose in a state: the world's is the identity at the origin.
struct JointEndPose {
  Vec3 position = Vec3::Zero();          // centre of mass [m]
  Quat orientation = Quat::Identity();   // body -> world
};
JointEndPose joint_end_pose(const Model& model, const State& state, const JointEnd& end);
/// The same at t = 0 (the bodies' initial poses: what the scene loader measures anchors on).
JointEndPose joint_end_initial_pose(const Model& model, const JointEnd& end);

/// A revolute joint in a state: both anchors and both axes in world coordinates, and the
/// lever arms from each body's centre of mass to its anchor.
struct HingeFrame {
  Vec3 pa = Vec3::Zero(), pb = Vec3::Zero();  // anchors [m]
  Vec3 ra = Vec3::Zero(), rb = Vec3::Zero();  // anchor − centre of mass [m]
  Vec3 na = Vec3::UnitZ(), nb = Vec3::UnitZ();  // axes (unit)
};
HingeFrame hinge_frame(const Model& model, const State& state, const Joint& joint);

/// The angle of b relative to a about the axis since t = 0, in (−π, π]: the twist of
/// q_a⁻¹ q_b (q_a⁻¹ q_b)₀⁻¹ about axis_a.
double hinge_angle_wrapped(const Model& model, const State& state, const Joint& joint);

/// previous + the change to `wrapped` taken the short way round: an angle continuous across ±π.
double unwrap_angle(double previous, double wrapped);

}  // namespace suction
