#include "model/state.h"

#include "model/model.h"
#include "model/springs.h"

namespace suction {

State make_initial_state(const Model& model) {
  State s;
  s.fem.resize(model.fem.size());
  for (size_t i = 0; i < model.fem.size(); ++i) {
    const FemBody& b = model.fem[i];
    s.fem[i].x = b.rest.nodes;
    s.fem[i].v.assign(b.rest.nodes.size(), b.initial_velocity);
    // held nodes start at rest
    for (size_t n = 0; n < b.node_constraint.size(); ++n)
      if (b.node_constraint[n] != kNodeFree) s.fem[i].v[n].setZero();
  }
  s.rigid.resize(model.rigid.size());
  for (size_t i = 0; i < model.rigid.size(); ++i) {
    const RigidBody& b = model.rigid[i];
    RigidBodyState& r = s.rigid[i];
    r.position = b.initial_position;
    r.orientation = b.initial_orientation;
    if (b.kind == RigidKind::Dynamic) {
      r.velocity = b.initial_velocity;
      r.angular_velocity = b.initial_angular_velocity;
    }
  }
  s.driver_reaction.assign(model.drivers.size(), Vec3::Zero());
  s.driver_offset.assign(model.drivers.size(), Vec3::Zero());
  s.spring_force.assign(model.springs.size(), Vec3::Zero());
  s.spring_axis.assign(model.springs.size(), Vec3::UnitZ());
  for (size_t k = 0; k < model.springs.size(); ++k)
    s.spring_axis[k] = spring_geometry(model, s, static_cast<int>(k)).axis;
  s.joint_angle.assign(model.joints.size(), 0.0);  // θ = 0 at the initial pose, by definition
  s.joint_torque.assign(model.joints.size(), 0.0);
  return s;
}

}  // namespace suction
