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

namespace {

// contacts and cavities (no soft rows): the Gauss-Seidel loop
PgsResult solve_rows(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                     const std::vector<double>& mu, std::vector<CavityRow>& cavities, double h,
                     int max_iterations, double tolerance, VecX& lambda) {
  const int nc = static_cast<int>(gap.size());
  const int np = static_cast<int>(cavities.size());
  const ConstraintLayout layout{nc, np};
  PgsResult result;
  if (nc == 0 && np == 0) return result;
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
    result.iterations = it + 1;
    result.residual = std::max(max_force > 0.0 ? max_change / max_force : 0.0,
                               np > 0 ? max_dp / cavities[0].p_atm : 0.0);
    if (result.residual <= tolerance) break;
  }
  return result;
}

}  // namespace

PgsResult solve_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                    const std::vector<double>& mu, std::vector<CavityRow>& cavities,
                    const std::vector<SoftRow>& soft, double h, int max_iterations, double tolerance,
                    VecX& lambda) {
  const int ns = static_cast<int>(soft.size());
  if (ns == 0) return solve_rows(W, u_free, gap, mu, cavities, h, max_iterations, tolerance, lambda);
  // The soft rows are linear equalities, W_ss λ_s + W_so λ_o + u_free,s + γ∘λ_s + b = 0, so they
  // are eliminated exactly: λ_s = −S⁻¹ (u_free,s + b + W_so λ_o) with S = W_ss + diag γ
  // (positive definite: W is positive semi-definite and every γ > 0).  The other rows (o:
  // contacts, cavities) see the reduced W' = W_oo − W_os S⁻¹ W_so and u_free' = u_free,o −
  // W_os S⁻¹ (u_free,s + b): the springs relax in response to every contact force and
  // pressure within the same solve.  Gauss-Seidel between a contact set and stiff springs on
  // the same body instead converged slowly or not at all.  The kernel reads its gaps and free
  // volumes relative to u_free, so they move by h (u_free' − u_free).
  const int nc = static_cast<int>(gap.size());
  const int np = static_cast<int>(cavities.size());
  const ConstraintLayout layout{nc, np, ns};
  const int no = layout.spring_row(0);
  Eigen::MatrixXd S = W.block(no, no, ns, ns);
  VecX rhs(ns);
  for (int j = 0; j < ns; ++j) {
    S(j, j) += soft[j].compliance;
    rhs[j] = u_free[no + j] + soft[j].bias;
  }
  const Eigen::LDLT<Eigen::MatrixXd> S_ldlt(S);
  const VecX y = S_ldlt.solve(rhs);
  PgsResult result;
  if (no == 0) {
    lambda = -y;
    result.iterations = 1;
    return result;
  }
  const Eigen::MatrixXd X = S_ldlt.solve(W.block(no, 0, ns, no));  // S⁻¹ W_so
  Eigen::MatrixXd Wr = W.topLeftCorner(no, no);
  Wr.noalias() -= W.block(0, no, no, ns) * X;
  Wr = 0.5 * (Wr + Wr.transpose()).eval();  // symmetric to rounding
  const VecX shift = -W.block(0, no, no, ns) * y;  // u_free' − u_free
  const VecX ur = u_free.head(no) + shift;
  std::vector<double> gap_r(gap);
  for (int k = 0; k < nc; ++k) gap_r[k] += h * shift[layout.contact_row(k)];
  for (int k = 0; k < np; ++k) cavities[k].volume_free += h * shift[layout.cavity_row(k)];
  VecX lo = lambda.head(no);
  result = solve_rows(Wr, ur, gap_r, mu, cavities, h, max_iterations, tolerance, lo);
  for (int k = 0; k < np; ++k) cavities[k].volume_free -= h * shift[layout.cavity_row(k)];
  lambda.head(no) = lo;
  lambda.segment(no, ns) = -y - X * lo;
  return result;
}

PgsResult solve_contacts_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                             const std::vector<double>& mu, double h, int max_iterations,
                             double tolerance, VecX& lambda) {
  std::vector<CavityRow> none;
  return solve_pgs(W, u_free, gap, mu, none, {}, h, max_iterations, tolerance, lambda);
}

}  // namespace suction
