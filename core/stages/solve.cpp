// Stage 5b, solve (docs/method.md §8): the contact forces and cavity pressures of the step by
// the model's method (settings.solver.method: solver/solver.h), warm-started from the last step.
#include <algorithm>
#include <cmath>

#include "solver/solver.h"
#include "stages/stages.h"

namespace suction {

namespace {
/// a last-step contact force warm-starts this step's contact of the same feature pair when
/// their normals agree to this cosine (a contact that turned over starts from zero)
constexpr double kWarmStartNormalCos = 0.99;
/// The rows' velocity change H Δv that impulses h Hᵀλ make, Δv exact for each body: FEM by
/// the step's A (fem_impulse_response, as the correction does), dynamic rigid bodies by M⁻¹.
VecX exact_row_velocities(const Model& model, Workspace& work, const VecX& lambda) {
  VecX hv = VecX::Zero(lambda.size()), rhs;
  for (size_t b = 0; b < model.fem.size(); ++b) {
    if (!fem_impulse_response(model, work, b, lambda, rhs)) continue;
    const FemSystem& sys = work.fem[b];
    for (const auto& t : work.rows.fem_terms)
      if (t.body == static_cast<int>(b) && sys.free_index[t.node] >= 0)
        hv[t.row] += t.coeff.dot(rhs.segment<3>(3 * sys.free_index[t.node]));
  }
  std::vector<Vec3> dv, dw;
  rigid_impulse_response(model, work, lambda, dv, dw);
  for (const auto& t : work.rows.rigid_terms) hv[t.row] += t.linear.dot(dv[t.body]) + t.angular.dot(dw[t.body]);
  return hv;
}

}  // namespace

void solve_constraints(const Model& model, State& state, Workspace& work) {
  const ConstraintLayout& layout = work.rows.layout;
  const int nc = layout.contacts;  // contact blocks; the joint-limit blocks follow them
  const int np = layout.cavities;
  work.lambda.setZero(layout.count());
  work.solver_iterations = 0;
  work.solver_residual = 0.0;
  work.solver_converged = true;
  if (layout.count() == 0) return;
  // warm start: last step's force of the same feature pair (state.contacts is sorted by key)
  for (int k = 0; k < nc; ++k) {  // (a limit block starts from zero)
    const auto it = std::lower_bound(state.contacts.begin(), state.contacts.end(), work.contacts[k].key,
                                     [](const ContactForce& f, std::uint64_t key) { return f.key < key; });
    if (it != state.contacts.end() && it->key == work.contacts[k].key &&
        it->normal.dot(work.contacts[k].normal) > kWarmStartNormalCos)
      work.lambda.segment<3>(layout.contact_row(k)) = it->local;
  }
  const CavitySettings& cs = model.settings.cavity;
  const double n = cs.gas.step_exponent();  // 1: Boyle's quadratic, the law unused
  std::vector<CavityRow> cavities(np);
  for (int k = 0; k < np; ++k) {
    const CavityState& c = state.book.cavities[work.cavity_index[k]];
    CavityRow& row = cavities[k];
    row.volume_free = work.cavity_volume_free[k];
    row.air = c.air;
    row.p_atm = model.settings.p_atm;
    row.p_max = std::max(cs.p_max, row.p_atm);
    row.pressure = c.pressure;
    work.lambda[layout.cavity_row(k)] = c.pressure - row.p_atm;  // warm start
    // a non-isothermal law (§6.8): P·V^n = θ N V_t^(n−1) along the step, θ = T / T_ambient
    const double vt = work.cavity_volume_t[k];
    if (n != 1.0 && vt > 0.0) {
      row.exponent = n;
      row.law = c.temperature / cs.gas.t_ambient * c.air * std::pow(vt, n - 1.0);
    }
  }
  // the methods see the limit blocks as frictionless contacts whose gap is the angle left
  std::vector<double> gap(nc), mu = work.contact_mu;
  for (int k = 0; k < nc; ++k) gap[k] = work.contacts[k].gap;
  for (const auto& limit : work.joint_limits) {
    gap.push_back(limit.gap);
    mu.push_back(0.0);
  }
  // refinement against a kept factorization (below) starts each pass from the rows as built
  const FactorizationReuse& reuse = model.settings.factorization;
  const bool refine = reuse.reuse && reuse.refinements > 0 &&
                    std::any_of(work.fem.begin(), work.fem.end(), [](const FemSystem& f) { return f.factor_age > 0 && !f.lagged; });
  const std::vector<CavityRow> cavity_rows = refine ? cavities : std::vector<CavityRow>{};
  const double h = model.settings.dt;
  const SolverSettings& ss = model.settings.solver;
  auto solve = [&](const VecX& u_free, const std::vector<double>& gaps) {  // warm-started from work.lambda
    return solve_constraints_with(*work.solver, work.W, work.compliance->device_matrix(layout.count()), u_free, gaps,
                                  mu, cavities, work.soft_rows, h, ss.max_iterations, ss.tolerance, work.lambda,
                                  ss.subspace_every, ss.subspace_sliding, ss.subspace_newton);
  };
  SolveResult r = solve(work.u_free, gap);
  // refinement against a kept factorization (method §7.6): W came from the kept A₀, the
  // correction will be exact for the step's A; each pass measures what the exact response
  // adds to the rows, d = H A⁻¹ h Hᵀλ − W λ, and solves again with it as a known velocity
  // (on the gaps, the tangents, the soft rows and the cavities' volumes), warm-started
  for (int pass = 0; refine && pass < reuse.refinements; ++pass) {
    const VecX d = exact_row_velocities(model, work, work.lambda) - work.W * work.lambda;
    std::vector<double> g = gap;
    for (size_t k = 0; k < g.size(); ++k) g[k] += h * d[ConstraintLayout::kRowsPerContact * k];
    cavities = cavity_rows;
    for (int k = 0; k < np; ++k) cavities[k].volume_free += h * d[layout.cavity_row(k)];
    const int before = r.iterations;
    r = solve(work.u_free + d, g);
    r.iterations += before;
  }
  const double cv = 1.0 / (cs.gas.gamma - 1.0);  // the air's internal energy U = cv N θ
  for (int k = 0; k < np; ++k) {
    CavityState& c = state.book.cavities[work.cavity_index[k]];
    const CavityRow& row = cavities[k];
    // the air that stays went along its law from P_t = θ N / V_t to P
    const double theta0 = c.temperature / cs.gas.t_ambient;
    const double vt = work.cavity_volume_t[k];
    const double p_t = vt > 0.0 ? theta0 * c.air / vt : 0.0;
    if (row.exponent != 1.0) {
      // T ∝ P^((n−1)/n); the work −∫P dV of P V^n = const is N Δθ / (n − 1), U changes by cv N Δθ
      if (row.pressure > 0.0 && p_t > 0.0)
        c.temperature *= std::pow(row.pressure / p_t, (row.exponent - 1.0) / row.exponent);
      const double dtheta = c.temperature / cs.gas.t_ambient - theta0;
      const double w = c.air * dtheta / (row.exponent - 1.0);
      work.air.work += w;
      work.air.heat += cv * c.air * dtheta - w;
    } else if (row.pressure > 0.0 && p_t > 0.0 && c.air > 0.0) {
      // Boyle's law: −∫P dV = N θ ln(P / P_t), given up to the walls as heat
      const double w = c.air * theta0 * std::log(row.pressure / p_t);
      work.air.work += w;
      work.air.heat -= w;
    }
    c.pressure = cavities[k].pressure;
    c.outflow = cavities[k].outflow;
    const double air = std::max(0.0, c.air + c.outflow);
    work.air.outflow += air - c.air;
    work.air.energy_out += cv * (air - c.air) * c.temperature / cs.gas.t_ambient;
    c.air = air;
  }
  work.solver_iterations = r.iterations;
  work.solver_residual = r.residual;
  work.solver_converged = r.converged;
}

}  // namespace suction
