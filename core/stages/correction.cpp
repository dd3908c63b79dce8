// Stage 6, correction (docs/method.md §7): the constraint impulses, the new positions, the
// contacts of the step (the next step's warm start) and the drivers' reaction forces.
#include <algorithm>

#include "probes/probes.h"
#include "rigid/rigid_dynamics.h"
#include "stages/stages.h"

namespace suction {

namespace {

// v_free += h A⁻¹ Hᵀ λ on FEM bodies (one solve with the step's factorization, or conjugate
// gradients on the step's A when the factorization is an older one: method §7.6) and dynamic
// rigid bodies (Bernardin 2023, Eq. 3; docs/method.md §7); v_free is corrected in place
void apply_constraint_impulses(const Model& model, Workspace& work) {
  if (work.rows.count() == 0) return;
  // FEM: Δv = A⁻¹ (h Hᵀλ) on free nodes
  VecX rhs;
  for (size_t b = 0; b < model.fem.size(); ++b) {
    if (!fem_impulse_response(model, work, b, work.lambda, rhs)) continue;
    const FemSystem& sys = work.fem[b];
    Points& v = work.fem_v_free[b];
    for (size_t n = 0; n < v.size(); ++n)
      if (sys.free_index[n] >= 0) v[n] += rhs.segment<3>(3 * sys.free_index[n]);
  }
  // rigid: Δv = h F/m, Δω = h I_w⁻¹ τ
  std::vector<Vec3> dv, dw;
  rigid_impulse_response(model, work, work.lambda, dv, dw);
  for (size_t i = 0; i < model.rigid.size(); ++i) {
    if (model.rigid[i].kind != RigidKind::Dynamic) continue;
    work.rigid[i].v_free += dv[i];
    work.rigid[i].w_free += dw[i];
  }
}

// contacts of this step with their forces, sorted by key (next step's warm start)
void record_contacts(const Workspace& work, State& state) {
  state.contacts.clear();
  const ConstraintLayout& layout = work.rows.layout;
  for (int k = 0; k < layout.contacts; ++k) {
    const Contact& c = work.contacts[k];
    ContactForce f;
    f.key = c.key;
    f.body_a = c.a.body;
    f.body_b = c.b.body;
    f.vertex_a = c.a.count == 1 && c.b.count == 3 ? c.a.vertex[0] : -1;
    f.point = c.point_b;
    f.normal = c.normal;
    f.local = work.lambda.segment<3>(layout.contact_row(k));
    Vec3 t1, t2;
    tangent_basis(c.normal, t1, t2);
    f.force = f.local[0] * c.normal + f.local[1] * t1 + f.local[2] * t2;
    state.contacts.push_back(f);
  }
  std::sort(state.contacts.begin(), state.contacts.end(),
            [](const ContactForce& a, const ContactForce& b) { return a.key < b.key; });
}

}  // namespace

bool fem_impulse_response(const Model& model, Workspace& work, size_t b, const VecX& lambda, VecX& dv) {
  const double h = model.settings.dt;
  FemSystem& sys = work.fem[b];
  bool any = false;
  for (const auto& t : work.rows.fem_terms) {
    if (t.body != static_cast<int>(b) || sys.free_index[t.node] < 0) continue;
    if (!any) dv = VecX::Zero(3 * sys.num_free);
    dv.segment<3>(3 * sys.free_index[t.node]) += h * lambda[t.row] * t.coeff;
    any = true;
  }
  if (any) fem_solve_step_system(model.fem[b], sys, model.settings.factorization, dv);
  return any;
}

void rigid_impulse_response(const Model& model, const Workspace& work, const VecX& lambda, std::vector<Vec3>& dv,
                            std::vector<Vec3>& dw) {
  const double h = model.settings.dt;
  std::vector<Vec3> F(model.rigid.size(), Vec3::Zero()), T(model.rigid.size(), Vec3::Zero());
  for (const auto& t : work.rows.rigid_terms) {
    F[t.body] += lambda[t.row] * t.linear;
    T[t.body] += lambda[t.row] * t.angular;
  }
  dv.assign(model.rigid.size(), Vec3::Zero());
  dw.assign(model.rigid.size(), Vec3::Zero());
  for (size_t i = 0; i < model.rigid.size(); ++i) {
    if (model.rigid[i].kind != RigidKind::Dynamic) continue;
    dv[i] = h * F[i] / model.rigid[i].mass;
    dw[i] = h * (work.rigid[i].inertia_inv * T[i]);
  }
}

void correct_and_integrate(const Model& model, State& state, Workspace& work) {
  const double h = model.settings.dt;
  // v = v_free + h A⁻¹ Hᵀ λ   (Bernardin 2023, Eq. 3)
  apply_constraint_impulses(model, work);
  record_contacts(work, state);
  record_springs(model, state, work);
  record_joints(model, state, work);
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
  project_joints(model, state);  // back onto the hinges, and the joints' angles
  // force drivers exert their prescribed force; a kinematic body's driver balances the contact
  // forces on it (its own inertia and weight are the script's business)
  for (size_t d = 0; d < model.drivers.size(); ++d) {
    const Driver& dr = model.drivers[d];
    if (dr.kind == DriverKind::Force) {
      state.driver_reaction[d] = dr.keyframes.value(state.time + h);
    } else if (dr.body.type == BodyType::Rigid) {
      // (the contacts are the state's now: the same sum as the contact_force probe)
      state.driver_reaction[d] = -body_contact_force(model, state, dr.body);
    }
  }
  update_spring_axes(model, state);
  state.time += h;
  state.step += 1;
}

}  // namespace suction
