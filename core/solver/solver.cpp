#include "solver/solver.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>

namespace suction {

double natural_residual(const RowProblem& p, const VecX& lambda, const VecX& w_lambda) {
  const Eigen::MatrixXd& W = *p.W;
  const VecX& u_free = *p.u_free;
  const int nc = p.contacts();
  const int np = p.num_cavities();
  const ConstraintLayout layout{nc, np};
  double max_r = 0.0, max_f = 0.0;
  for (int k = 0; k < nc; ++k) {
    const int i = layout.contact_row(k);
    const double ln = lambda[i];
    const Eigen::Vector2d lt = lambda.segment<2>(i + 1);
    max_f = std::max(max_f, lambda.segment<3>(i).cwiseAbs().maxCoeff());
    const double vn = (*p.gap)[k] / p.h + w_lambda[i];
    const double rn = W(i, i) > 0.0 ? ln - std::max(0.0, ln - vn / W(i, i)) : ln;
    const double wt = std::max(W(i + 1, i + 1), W(i + 2, i + 2));
    const Eigen::Vector2d ut = u_free.segment<2>(i + 1) + w_lambda.segment<2>(i + 1);
    Eigen::Vector2d z = wt > 0.0 ? Eigen::Vector2d(lt - ut / wt) : Eigen::Vector2d::Zero();
    const double limit = (*p.mu)[k] * std::max(0.0, ln);
    const double norm = z.norm();
    if (norm > limit) z *= norm > 0.0 ? limit / norm : 0.0;
    max_r = std::max(max_r, std::max(std::abs(rn), (lt - z).cwiseAbs().maxCoeff()));
  }
  const double contacts = max_r > 0.0 ? max_r / std::max(max_f, max_r) : 0.0;
  double cavities = 0.0;
  for (int k = 0; k < np; ++k) {
    const int i = layout.cavity_row(k);
    CavityRow row = (*p.cavities)[k];  // a copy: cavity_pressure writes the outflow
    const double a = p.h * W(i, i);
    const double v_eff = row.volume_free + p.h * (w_lambda[i] - W(i, i) * lambda[i]);
    const double pressure = cavity_pressure(a, v_eff, row);
    cavities = std::max(cavities, std::abs(pressure - row.p_atm - lambda[i]) / row.p_atm);
  }
  return std::max(contacts, cavities);
}

void finish_cavities(const RowProblem& p, const VecX& lambda, const VecX& w_lambda) {
  const int nc = p.contacts();
  const ConstraintLayout layout{nc, p.num_cavities()};
  for (int k = 0; k < p.num_cavities(); ++k) {
    CavityRow& c = (*p.cavities)[k];
    const int i = layout.cavity_row(k);
    const double pressure = c.p_atm + lambda[i];
    c.pressure = pressure;
    c.outflow = 0.0;
    if (c.air > 0.0 && pressure >= c.p_max) {
      const double volume = c.volume_free + p.h * w_lambda[i];
      c.outflow = cavity_outflow(c, pressure, volume);
    }
  }
}

SolveResult solve_constraints_with(ConstraintSolver& method, const Eigen::MatrixXd& W, const double* W_device,
                                   const VecX& u_free, const std::vector<double>& gap,
                                   const std::vector<double>& mu, std::vector<CavityRow>& cavities,
                                   const std::vector<SoftRow>& soft, double h, int max_iterations,
                                   double tolerance, VecX& lambda, int subspace_every, bool subspace_sliding,
                                   bool subspace_newton) {
  SolveResult result;
  const int nc = static_cast<int>(gap.size());
  const int np = static_cast<int>(cavities.size());
  const int ns = static_cast<int>(soft.size());
  auto run = [&](const Eigen::MatrixXd& Wo, const double* Wo_device, const VecX& uo, const std::vector<double>& go,
                 VecX& lo) {
    RowProblem p = RowProblem::of(Wo, uo, go, mu, cavities, h);
    p.W_device = Wo_device;
    p.max_iterations = max_iterations;
    p.tolerance = tolerance;
    p.subspace_every = subspace_every;
    p.subspace_sliding = subspace_sliding;
    p.subspace_newton = subspace_newton;
    if (p.rows() == 0) return;
    VecX w_lambda;
    result.iterations = method.solve_rows(p, lo, w_lambda);
    result.residual = natural_residual(p, lo, w_lambda);
    result.converged = result.residual <= tolerance;
  };
  if (ns == 0) {
    run(W, W_device, u_free, gap, lambda);
    return result;
  }
  // The soft rows are linear equalities, W_ss λ_s + W_so λ_o + u_free,s + γ∘λ_s + b = 0, so they
  // are eliminated exactly: λ_s = −S⁻¹ (u_free,s + b + W_so λ_o) with S = W_ss + diag γ
  // (positive definite: W is positive semi-definite, every spring's γ > 0, and a joint's hard
  // rows, γ = 0, are independent of each other and move some body).  The other rows (o:
  // contacts, cavities) see the reduced W' = W_oo − W_os S⁻¹ W_so and u_free' = u_free,o −
  // W_os S⁻¹ (u_free,s + b): the springs relax in response to every contact force and
  // pressure within the same solve.  Gauss-Seidel between a contact set and stiff springs on
  // the same body instead converged slowly or not at all.  The methods read their gaps and free
  // volumes relative to u_free, so they move by h (u_free' − u_free).
  const ConstraintLayout layout{nc, np, ns};
  const int no = layout.spring_row(0);
  Eigen::MatrixXd S = W.block(no, no, ns, ns);
  VecX rhs(ns);
  for (int j = 0; j < ns; ++j) {
    S(j, j) += soft[j].compliance;
    rhs[j] = u_free[no + j] + soft[j].bias;
    if (!(S(j, j) > 0.0)) {  // a hard row that moves nothing (a joint between held bodies):
      S(j, j) = 1.0;         // its W row is zero, so it is left out with no force
      rhs[j] = 0.0;
    }
  }
  const Eigen::LDLT<Eigen::MatrixXd> S_ldlt(S);
  const VecX y = S_ldlt.solve(rhs);
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
  run(Wr, nullptr, ur, gap_r, lo);  // the reduced W lives on the host only
  for (int k = 0; k < np; ++k) cavities[k].volume_free -= h * shift[layout.cavity_row(k)];
  lambda.head(no) = lo;
  lambda.segment(no, ns) = -y - X * lo;
  return result;
}

}  // namespace suction
