#include "solver/pgs.h"

#include "solver/projection.h"
#include "solver/solver.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>

namespace suction {

double cavity_outflow(const CavityRow& row, double pressure, double volume) {
  if (row.air <= 0.0) return 0.0;
  if (row.exponent == 1.0) return std::min(0.0, pressure * volume - row.air);
  // the air that stays obeys the law at (pressure, volume): N' = N V (P / law)^(1/n)
  const double kept = volume > 0.0 && row.law > 0.0 ? row.air * volume * std::pow(pressure / row.law, 1.0 / row.exponent) : 0.0;
  return std::min(0.0, kept - row.air);
}

double cavity_pressure(double a, double volume_eff, CavityRow& row) {
  row.outflow = 0.0;
  if (row.air <= 0.0) return 0.0;  // vacuum
  if (row.exponent != 1.0) {  // P·V^n = law (§6.8)
    double p = projection::gas_law_pressure_n(a, volume_eff, row.air, row.law, row.exponent, row.p_atm, row.p_max);
    if (p > row.p_max) {
      p = row.p_max;
      row.outflow = cavity_outflow(row, p, volume_eff + (a > 0.0 ? a * (p - row.p_atm) : 0.0));
    }
    return p;
  }
  const double b = volume_eff - a * row.p_atm;
  const double c = -row.air;
  // (the same expression as the GPU methods', shared with them: solver/projection.h)
  double p = projection::gas_law_pressure(a, volume_eff, row.air, row.p_atm, row.p_max);
  if (p > row.p_max) {
    p = row.p_max;
    row.outflow = std::min(0.0, a * p * p + b * p + c);  // ΔN = a P² + b P − N ≤ 0
    if (a <= 0.0) row.outflow = std::min(0.0, p * volume_eff - row.air);
  }
  return p;
}

namespace {

// contacts and cavities (no soft rows): the Gauss-Seidel loop; u (= u_free + W λ) out
PgsResult pgs_rows(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                   const std::vector<double>& mu, std::vector<CavityRow>& cavities, double h,
                   int max_iterations, double tolerance, VecX& lambda, VecX& u) {
  const int nc = static_cast<int>(gap.size());
  const int np = static_cast<int>(cavities.size());
  const ConstraintLayout layout{nc, np};
  PgsResult result;
  if (nc == 0 && np == 0) return result;
  // u = u_free + W λ kept up to date incrementally (column updates)
  u = u_free + W * lambda;
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
    // stop when the sweep changed little and the common residual agrees (it is evaluated only
    // then: O(rows) against the sweep's O(rows²)); the two nearly always agree
    if (result.residual <= tolerance) {
      const RowProblem p = RowProblem::of(W, u_free, gap, mu, cavities, h);
      if (natural_residual(p, lambda, u - u_free) <= tolerance) break;
    }
  }
  return result;
}

class PgsSolver final : public ConstraintSolver {
 public:
  const char* name() const override { return "pgs"; }
  int solve_rows(const RowProblem& p, VecX& lambda, VecX& w_lambda) override {
    // the Gauss-Seidel sweep sets each cavity's pressure and outflow as it goes; it stops on its
    // own measure (the largest change in a sweep), and the caller takes the common residual
    VecX u;
    const PgsResult r = pgs_rows(*p.W, *p.u_free, *p.gap, *p.mu, *p.cavities, p.h, p.max_iterations, p.tolerance,
                                 lambda, u);
    if (u.size() == p.u_free->size()) w_lambda = u - *p.u_free;
    else w_lambda.setZero(p.u_free->size());
    return r.iterations;
  }
};

}  // namespace

std::unique_ptr<ConstraintSolver> make_pgs_solver() { return std::make_unique<PgsSolver>(); }

PgsResult solve_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                    const std::vector<double>& mu, std::vector<CavityRow>& cavities,
                    const std::vector<SoftRow>& soft, double h, int max_iterations, double tolerance,
                    VecX& lambda) {
  PgsSolver pgs;
  const SolveResult r = solve_constraints_with(pgs, W, nullptr, u_free, gap, mu, cavities, soft, h, max_iterations,
                                               tolerance, lambda);
  return {r.iterations, r.residual};
}

PgsResult solve_contacts_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                             const std::vector<double>& mu, double h, int max_iterations,
                             double tolerance, VecX& lambda) {
  std::vector<CavityRow> none;
  return solve_pgs(W, u_free, gap, mu, none, {}, h, max_iterations, tolerance, lambda);
}

}  // namespace suction
