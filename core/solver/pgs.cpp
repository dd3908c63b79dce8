#include "solver/pgs.h"

#include <algorithm>
#include <cmath>

namespace suction {

PgsResult solve_contacts_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                             const std::vector<double>& mu, double h, int max_iterations,
                             double tolerance, VecX& lambda) {
  const int nc = static_cast<int>(gap.size());
  PgsResult result;
  if (nc == 0) return result;
  // u = u_free + W λ kept up to date incrementally (column updates)
  VecX u = u_free + W * lambda;
  for (int it = 0; it < max_iterations; ++it) {
    double max_change = 0.0, max_force = 0.0;
    for (int k = 0; k < nc; ++k) {
      const int i = 3 * k;
      const Vec3 old = lambda.segment<3>(i);
      Vec3 l = old;
      // normal: 0 ≤ λ_n ⟂ gap/h + (u − u_free)_n ≥ 0: the end-of-step gap is gap + h (Wλ)_n
      const double un = gap[k] / h + (u[i] - u_free[i]);
      l[0] = std::max(0.0, old[0] - un / W(i, i));
      // tangents: a step against the end-of-step sliding velocity, then the projection on the
      // disk ‖λ_t‖ ≤ μ λ_n.  The step is scalar (1 / the larger tangential compliance): its fixed
      // point has λ_t antiparallel to u_t when slipping (maximal dissipation), which a full
      // W_tt⁻¹ step would skew wherever W_tt is anisotropic (rigid lever arms)
      const double wt = std::max(W(i + 1, i + 1), W(i + 2, i + 2));
      const Eigen::Vector2d ut = u.segment<2>(i + 1) + W.block<2, 1>(i + 1, i) * (l[0] - old[0]);
      Eigen::Vector2d lt = old.tail<2>() - ut / wt;
      const double limit = mu[k] * l[0];
      const double norm = lt.norm();
      if (norm > limit) lt *= (norm > 0.0 ? limit / norm : 0.0);
      l.tail<2>() = lt;
      const Vec3 delta = l - old;
      if (delta.squaredNorm() > 0.0) {
        u += W.middleCols<3>(i) * delta;
        lambda.segment<3>(i) = l;
      }
      max_change = std::max(max_change, delta.cwiseAbs().maxCoeff());
      max_force = std::max(max_force, l.cwiseAbs().maxCoeff());
    }
    result.iterations = it + 1;
    result.residual = max_force > 0.0 ? max_change / max_force : 0.0;
    if (result.residual <= tolerance) break;
  }
  return result;
}

void solve_constraints(const Model& model, State& state, Workspace& work) {
  const int nc = work.num_contacts;
  work.lambda.setZero(3 * nc);
  work.solver_iterations = 0;
  work.solver_residual = 0.0;
  if (nc == 0) return;
  // warm start: last step's force of the same feature pair (state.contacts is sorted by key)
  for (int k = 0; k < nc; ++k) {
    const auto it = std::lower_bound(state.contacts.begin(), state.contacts.end(), work.contacts[k].key,
                                     [](const ContactForce& f, std::uint64_t key) { return f.key < key; });
    if (it != state.contacts.end() && it->key == work.contacts[k].key &&
        it->normal.dot(work.contacts[k].normal) > 0.99)
      work.lambda.segment<3>(3 * k) = it->local;
  }
  std::vector<double> gap(nc);
  for (int k = 0; k < nc; ++k) gap[k] = work.contacts[k].gap;
  const PgsResult r = solve_contacts_pgs(work.W, work.u_free, gap, work.contact_mu, model.settings.dt,
                                         model.settings.solver.max_iterations,
                                         model.settings.solver.tolerance, work.lambda);
  work.solver_iterations = r.iterations;
  work.solver_residual = r.residual;
}

}  // namespace suction
