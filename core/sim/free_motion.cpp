#include <algorithm>

#include "collision/collision.h"
#include "constraints/compliance.h"
#include "model/workspace.h"
#include "rigid/rigid_dynamics.h"
#include "sim/stages.h"

namespace suction {

void init_workspace(const Model& model, Workspace& work) {
  work.fem.clear();
  work.fem.resize(model.fem.size());
  work.fem_v_free.resize(model.fem.size());
  work.fem_x_free.resize(model.fem.size());
  for (size_t i = 0; i < model.fem.size(); ++i) init_fem_system(model.fem[i], work.fem[i]);
  work.rigid.assign(model.rigid.size(), RigidWork{});
  init_collision(model, work);
  work.compliance.reset();
}

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
                    work.fem[i], work.fem_v_free[i]);
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
  }
}

// contacts of this step with their forces, sorted by key (next step's warm start)
static void record_contacts(const Workspace& work, State& state) {
  state.contacts.clear();
  for (int k = 0; k < work.num_contacts; ++k) {
    const Contact& c = work.contacts[k];
    ContactForce f;
    f.key = c.key;
    f.body_a = c.a.body;
    f.body_b = c.b.body;
    f.point = c.point_b;
    f.normal = c.normal;
    f.local = work.lambda.segment<3>(3 * k);
    Vec3 t1, t2;
    tangent_basis(c.normal, t1, t2);
    f.force = f.local[0] * c.normal + f.local[1] * t1 + f.local[2] * t2;
    state.contacts.push_back(f);
  }
  std::sort(state.contacts.begin(), state.contacts.end(),
            [](const ContactForce& a, const ContactForce& b) { return a.key < b.key; });
}

void correct_and_integrate(const Model& model, State& state, Workspace& work) {
  const double h = model.settings.dt;
  // v = v_free + h A⁻¹ Hᵀ λ   (Bernardin 2023, Eq. 3)
  apply_constraint_impulses(model, state, work);
  record_contacts(work, state);
  for (size_t i = 0; i < model.fem.size(); ++i) {
    FemBodyState& s = state.fem[i];
    const Points v_old = s.v;
    s.v = work.fem_v_free[i];
    for (size_t n = 0; n < s.x.size(); ++n) s.x[n] += h * s.v[n];
    // reaction of the motion drivers holding this body's nodes
    for (size_t d = 0; d < model.drivers.size(); ++d) {
      const Driver& dr = model.drivers[d];
      if (dr.kind == DriverKind::Force || dr.body.type != BodyType::Fem || dr.body.index != (int)i)
        continue;
      state.driver_reaction[d] = fem_held_reaction(model.fem[i], model.materials[model.fem[i].material],
                                                   work.fem[i], v_old, s.v, h, dr.nodes);
    }
  }
  for (size_t i = 0; i < model.rigid.size(); ++i) {
    RigidBodyState& s = state.rigid[i];
    s.velocity = work.rigid[i].v_free;
    s.angular_velocity = work.rigid[i].w_free;
    integrate_rigid_pose(s, h);
  }
  // force drivers exert their prescribed force; a kinematic body's driver balances the contact
  // forces on it (its own inertia and weight are the script's business)
  for (size_t d = 0; d < model.drivers.size(); ++d) {
    const Driver& dr = model.drivers[d];
    if (dr.kind == DriverKind::Force) {
      state.driver_reaction[d] = dr.keyframes.value(state.time + h);
    } else if (dr.body.type == BodyType::Rigid) {
      Vec3 on_body = Vec3::Zero();
      for (const ContactForce& c : state.contacts) {
        const BodyRef a = work.collision_body[c.body_a], b = work.collision_body[c.body_b];
        if (a.type == BodyType::Rigid && a.index == dr.body.index) on_body += c.force;
        if (b.type == BodyType::Rigid && b.index == dr.body.index) on_body -= c.force;
      }
      state.driver_reaction[d] = -on_body;
    }
  }
  state.time += h;
  state.step += 1;
}

}  // namespace suction
