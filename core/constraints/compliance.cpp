#include "constraints/compliance.h"

#include "rigid/rigid_dynamics.h"

namespace suction {

void build_compliance(const Model& model, const State& state, Workspace& work) {
  if (work.rows.count == 0) {
    work.W.resize(0, 0);
    return;
  }
  if (!work.compliance) work.compliance = make_compliance_backend(model.settings.compliance_backend);
  work.compliance->build(model, state, work, work.rows, model.settings.dt, work.W);
}

void apply_constraint_impulses(const Model& model, const State& state, Workspace& work) {
  if (work.rows.count == 0) return;
  const double h = model.settings.dt;
  // FEM: Δv = A⁻¹ (h Hᵀλ) on free nodes
  for (size_t b = 0; b < model.fem.size(); ++b) {
    FemSystem& sys = work.fem[b];
    VecX rhs = VecX::Zero(3 * sys.num_free);
    bool any = false;
    for (const auto& t : work.rows.fem_terms) {
      if (t.body != static_cast<int>(b) || sys.free_index[t.node] < 0) continue;
      rhs.segment<3>(3 * sys.free_index[t.node]) += h * work.lambda[t.row] * t.coeff;
      any = true;
    }
    if (!any) continue;
    sys.solver->solve_in_place(rhs);
    Points& v = work.fem_v_free[b];
    for (size_t n = 0; n < v.size(); ++n)
      if (sys.free_index[n] >= 0) v[n] += rhs.segment<3>(3 * sys.free_index[n]);
  }
  // rigid: Δv = h F/m, Δω = h I_w⁻¹ τ
  std::vector<Vec3> F(model.rigid.size(), Vec3::Zero()), T(model.rigid.size(), Vec3::Zero());
  for (const auto& t : work.rows.rigid_terms) {
    F[t.body] += work.lambda[t.row] * t.linear;
    T[t.body] += work.lambda[t.row] * t.angular;
  }
  for (size_t i = 0; i < model.rigid.size(); ++i) {
    if (model.rigid[i].kind != RigidKind::Dynamic) continue;
    const Mat3 Iinv = world_inertia(model.rigid[i], state.rigid[i].orientation).inverse();
    work.rigid[i].v_free += h * F[i] / model.rigid[i].mass;
    work.rigid[i].w_free += h * (Iinv * T[i]);
  }
}

}  // namespace suction
