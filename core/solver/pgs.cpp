#include "solver/pgs.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>

namespace suction {

double cavity_pressure(double a, double volume_eff, CavityRow& row) {
  row.outflow = 0.0;
  if (row.air <= 0.0) return 0.0;  // vacuum
  const double b = volume_eff - a * row.p_atm;
  const double c = -row.air;
  double p;
  if (a <= 0.0) {
    // no compliance (all walls fixed): the volume is what it is
    p = volume_eff > 0.0 ? row.air / volume_eff : row.p_max;
  } else {
    // the root ≥ 0 of a P² + b P + c (discriminant ≥ b² since a > 0, c ≤ 0), written without
    // cancellation for b > 0
    const double disc = std::sqrt(b * b - 4.0 * a * c);
    p = b > 0.0 ? (-2.0 * c) / (b + disc) : (-b + disc) / (2.0 * a);
  }
  if (p > row.p_max) {
    p = row.p_max;
    row.outflow = std::min(0.0, a * p * p + b * p + c);  // ΔN = a P² + b P − N ≤ 0
    if (a <= 0.0) row.outflow = std::min(0.0, p * volume_eff - row.air);
  }
  return p;
}

PgsResult solve_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                    const std::vector<double>& mu, std::vector<CavityRow>& cavities,
                    const std::vector<SoftRow>& soft, double h, int max_iterations, double tolerance,
                    VecX& lambda) {
  const int nc = static_cast<int>(gap.size());
  const int np = static_cast<int>(cavities.size());
  const int ns = static_cast<int>(soft.size());
  const ConstraintLayout layout{nc, np, ns};
  PgsResult result;
  if (nc == 0 && np == 0 && ns == 0) return result;
  // the soft rows' block W_ss + diag(compliance), factorized once per solve (positive definite:
  // W is positive semi-definite and every compliance is > 0)
  Eigen::LDLT<Eigen::MatrixXd> soft_block;
  if (ns > 0) {
    const int s0 = layout.spring_row(0);
    Eigen::MatrixXd S = W.block(s0, s0, ns, ns);
    for (int j = 0; j < ns; ++j) S(j, j) += soft[j].compliance;
    soft_block.compute(S);
  }
  // u = u_free + W λ kept up to date incrementally (column updates)
  VecX u = u_free + W * lambda;
  VecX du(u.size());  // a contact's column update, evaluated here instead of a temporary per row
  for (int it = 0; it < max_iterations; ++it) {
    double max_change = 0.0, max_force = 0.0;
    for (int k = 0; k < nc; ++k) {
      const int i = layout.contact_row(k);
      const Vec3 old = lambda.segment<3>(i);
      Vec3 l = old;
      // normal: 0 ≤ λ_n ⟂ gap/h + (u − u_free)_n ≥ 0: the end-of-step gap is gap + h (Wλ)_n
      const double un = gap[k] / h + (u[i] - u_free[i]);
      // (a row that touches no degree of freedom has W_nn = 0: no force can move it)
      l[0] = W(i, i) > 0.0 ? std::max(0.0, old[0] - un / W(i, i)) : 0.0;
      // tangents: a step against the end-of-step sliding velocity, then the projection on the
      // disk ‖λ_t‖ ≤ μ λ_n.  The step is scalar (1 / the larger tangential compliance): its fixed
      // point has λ_t antiparallel to u_t when slipping (maximal dissipation), which a full
      // W_tt⁻¹ step would skew wherever W_tt is anisotropic (rigid lever arms)
      const double wt = std::max(W(i + 1, i + 1), W(i + 2, i + 2));
      const Eigen::Vector2d ut = u.segment<2>(i + 1) + W.block<2, 1>(i + 1, i) * (l[0] - old[0]);
      Eigen::Vector2d lt = wt > 0.0 ? Eigen::Vector2d(old.tail<2>() - ut / wt) : Eigen::Vector2d::Zero();
      const double limit = mu[k] * l[0];
      const double norm = lt.norm();
      if (norm > limit) lt *= (norm > 0.0 ? limit / norm : 0.0);
      l.tail<2>() = lt;
      const Vec3 delta = l - old;
      if (delta.squaredNorm() > 0.0) {
        du.noalias() = W.middleCols<3>(i) * delta;  // the same product as before, into a kept buffer
        u += du;
        lambda.segment<3>(i) = l;
      }
      max_change = std::max(max_change, delta.cwiseAbs().maxCoeff());
      max_force = std::max(max_force, l.cwiseAbs().maxCoeff());
    }
    double max_dp = 0.0;
    for (int k = 0; k < np; ++k) {
      const int i = layout.cavity_row(k);
      CavityRow& c = cavities[k];
      const double a = h * W(i, i);
      // V_eff: the free volume moved by every other force (contacts, other cavities)
      const double v_eff = c.volume_free + h * ((u[i] - u_free[i]) - W(i, i) * lambda[i]);
      const double p = cavity_pressure(a, v_eff, c);
      c.pressure = p;
      const double delta = (p - c.p_atm) - lambda[i];
      if (delta != 0.0) {
        u += W.col(i) * delta;
        lambda[i] = p - c.p_atm;
      }
      max_dp = std::max(max_dp, std::abs(delta));
    }
    // the soft rows as one block, solved exactly given the other forces (block Gauss-Seidel):
    // stiff springs sharing a body couple strongly, and row-by-row sweeps over them converge
    // slowly (a zero-length mount of four rows took > 300 sweeps)
    if (ns > 0) {
      const int s0 = layout.spring_row(0);
      VecX r(ns);
      for (int j = 0; j < ns; ++j) r[j] = u[s0 + j] + soft[j].compliance * lambda[s0 + j] + soft[j].bias;
      const VecX delta = -soft_block.solve(r);
      u.noalias() += W.middleCols(s0, ns) * delta;
      lambda.segment(s0, ns) += delta;
      max_change = std::max(max_change, delta.cwiseAbs().maxCoeff());
      max_force = std::max(max_force, lambda.segment(s0, ns).cwiseAbs().maxCoeff());
    }
    result.iterations = it + 1;
    result.residual = std::max(max_force > 0.0 ? max_change / max_force : 0.0,
                               np > 0 ? max_dp / cavities[0].p_atm : 0.0);
    if (result.residual <= tolerance) break;
  }
  return result;
}

PgsResult solve_contacts_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                             const std::vector<double>& mu, double h, int max_iterations,
                             double tolerance, VecX& lambda) {
  std::vector<CavityRow> none;
  return solve_pgs(W, u_free, gap, mu, none, {}, h, max_iterations, tolerance, lambda);
}

}  // namespace suction
