// Stage 2, free motion (docs/method.md §3 and §4): every body's end-of-step velocity without
// constraints, and the pose it would reach (collision and cavities are detected there).
#include "rigid/rigid_dynamics.h"
#include "stages/stages.h"

namespace suction {

// force drivers active at time t: per-node forces split by mass, per-rigid-body forces
static void add_driver_forces(const Model& model, double t, std::vector<Points>& fem_force,
                              std::vector<Vec3>& rigid_force) {
  for (const Driver& d : model.drivers) {
    if (d.kind != DriverKind::Force) continue;
    const Vec3 F = d.keyframes.value(t);
    if (d.body.type == BodyType::Rigid) {
      rigid_force[d.body.index] += F;
      continue;
    }
    const FemBody& b = model.fem[d.body.index];
    double mass = 0.0;
    for (int n : d.nodes) mass += b.node_mass[n];
    for (int n : d.nodes) fem_force[d.body.index][n] += F * (b.node_mass[n] / mass);
  }
}

void free_motion(const Model& model, const State& state, Workspace& work) {
  const double h = model.settings.dt;
  const double t_end = state.time + h;
  const Vec3& g = model.settings.gravity;

  // applied forces: gravity and force drivers, evaluated at the end of the step (implicit)
  std::vector<Points> fem_force(model.fem.size());
  for (size_t i = 0; i < model.fem.size(); ++i) {
    const FemBody& b = model.fem[i];
    fem_force[i].resize(b.rest.nodes.size());
    for (size_t n = 0; n < b.rest.nodes.size(); ++n) fem_force[i][n] = b.node_mass[n] * g;
  }
  std::vector<Vec3> rigid_force(model.rigid.size(), Vec3::Zero());
  for (size_t i = 0; i < model.rigid.size(); ++i)
    if (model.rigid[i].kind == RigidKind::Dynamic) rigid_force[i] = model.rigid[i].mass * g;
  add_driver_forces(model, t_end, fem_force, rigid_force);

  // FEM bodies: held nodes reach their prescribed position at t + h exactly
  for (size_t i = 0; i < model.fem.size(); ++i) {
    const FemBody& b = model.fem[i];
    const FemBodyState& s = state.fem[i];
    Points v_held(b.rest.nodes.size(), Vec3::Zero());
    for (size_t n = 0; n < b.rest.nodes.size(); ++n) {
      const int c = b.node_constraint[n];
      if (c >= 0)
        v_held[n] = (b.rest.nodes[n] + model.drivers[c].displacement(t_end) + state.driver_offset[c] -
                     s.x[n]) / h;
    }
    fem_free_motion(b, model.materials[b.material], s.x, s.v, v_held, fem_force[i], h,
                    work.fem[i], work.fem_v_free[i], model.settings.factorization);
    Points& xf = work.fem_x_free[i];
    xf.resize(s.x.size());
    for (size_t n = 0; n < s.x.size(); ++n) xf[n] = s.x[n] + h * work.fem_v_free[i][n];
  }

  // rigid bodies
  for (size_t i = 0; i < model.rigid.size(); ++i) {
    const RigidBody& b = model.rigid[i];
    const RigidBodyState& s = state.rigid[i];
    RigidWork& w = work.rigid[i];
    switch (b.kind) {
      case RigidKind::Dynamic:
        rigid_free_motion(b, s, rigid_force[i], h, w.v_free, w.w_free);
        break;
      case RigidKind::Fixed:
        w.v_free.setZero();
        w.w_free.setZero();
        break;
      case RigidKind::Kinematic:
        w.v_free = b.driver >= 0
                       ? Vec3((b.initial_position + model.drivers[b.driver].displacement(t_end) +
                               state.driver_offset[b.driver] - s.position) / h)
                       : Vec3::Zero();
        w.w_free.setZero();
        break;
    }
    // free-motion pose (collision is detected there)
    RigidBodyState pose = s;
    pose.velocity = w.v_free;
    pose.angular_velocity = w.w_free;
    integrate_rigid_pose(pose, h);
    w.x_free = pose.position;
    w.q_free = pose.orientation;
    // the compliance and the correction use the start-of-step inertia
    if (b.kind == RigidKind::Dynamic) w.inertia_inv = world_inertia(b, s.orientation).inverse();
  }
}


}  // namespace suction
