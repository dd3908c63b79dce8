// The gradient-type methods on the contact and cavity rows (docs/method.md §8.7): the
// accelerated projected gradient (apgd: Nesterov's method as FISTA, with Lipschitz
// backtracking and adaptive restart, after Mazhar, Heyn, Negrut and Tasora 2015) and the
// bi-potential Uzawa scheme (uzawa: the same step without acceleration, with a fixed step from
// a power iteration, after De Saxcé and Feng 1998).
//
// Both minimize f(λ) = ½ λᵀWλ + rᵀλ plus the rows' non-smooth terms, in the metric of the
// rows' diagonal (each contact block and each cavity row scaled by 1/its mean diagonal, so a
// Newton and a Pascal take comparable steps):
//   r: gap/h on normals, u_free on tangents, V_free/h on cavity rows;
//   contacts: the Coulomb cone, with De Saxcé's modified normal velocity v_n + μ‖v_t‖ in the
//     step, so the fixed point is the Coulomb law with Signorini (not the associated law);
//   cavities: −(N/h) ln P, whose proximal step is the gas law's quadratic (projection.h),
//     capped at p_max.
// One product with W per iteration (two where the step is backtracked); the residual
// (natural_residual) is taken every iteration from W λ, and the best iterate is returned.
#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/projection.h"
#include "solver/solver.h"

namespace suction {

GradientTerms gradient_terms(const RowProblem& p) {
  const Eigen::MatrixXd& W = *p.W;
  const int nc = p.contacts(), np = p.num_cavities();
  const ConstraintLayout layout{nc, np};
  GradientTerms t;
  t.r.resize(p.rows());
  t.scale.setZero(p.rows());
  for (int k = 0; k < nc; ++k) {
    const int i = layout.contact_row(k);
    t.r[i] = (*p.gap)[k] / p.h;
    t.r[i + 1] = (*p.u_free)[i + 1];
    t.r[i + 2] = (*p.u_free)[i + 2];
    const double mean = (W(i, i) + W(i + 1, i + 1) + W(i + 2, i + 2)) / 3.0;
    // a block whose normal moves nothing carries nothing (as in the PGS)
    if (W(i, i) > 0.0 && mean > 0.0) t.scale.segment<3>(i).setConstant(1.0 / mean);
  }
  for (int k = 0; k < np; ++k) {
    const int i = layout.cavity_row(k);
    t.r[i] = (*p.cavities)[k].volume_free / p.h;
    if (W(i, i) > 0.0) t.scale[i] = 1.0 / W(i, i);
  }
  return t;
}

namespace {

/// What both methods share: the linear term, the rows' scaling and the projection step.
struct GradientRows {
  int nc = 0, np = 0, n = 0;
  VecX r;      // linear term: the velocity at λ = 0
  VecX scale;  // per row: 1 / the mean diagonal of its block; 0 for a row that moves nothing

  explicit GradientRows(const RowProblem& p) {
    nc = p.contacts();
    np = p.num_cavities();
    n = 3 * nc + np;
    GradientTerms terms = gradient_terms(p);
    r = std::move(terms.r);
    scale = std::move(terms.scale);
  }

  /// g at rows: the (modified) velocity W λ + r, De Saxcé's μ‖v_t‖ added to each normal
  void modified_gradient(const RowProblem& p, const VecX& w_y, VecX& g) const {
    g = w_y + r;
    for (int k = 0; k < nc; ++k) {
      const int i = 3 * k;
      g[i] = projection::de_saxce_normal((*p.mu)[k], g[i], g[i + 1], g[i + 2]);
    }
  }

  /// out = prox(y − t·scale∘g): each contact block on its cone, each cavity by the gas law.
  /// Rows that move nothing: contacts carry nothing, a cavity takes its gas-law pressure at
  /// the free volume (its pressure moves nothing either).
  void step(const RowProblem& p, const VecX& y, const VecX& g, double t, VecX& out) const {
    out.resize(n);
    for (int k = 0; k < nc; ++k) {
      const int i = 3 * k;
      if (scale[i] == 0.0) {
        out.segment<3>(i).setZero();
        continue;
      }
      const double ts = t * scale[i];
      double ln = y[i] - ts * g[i], t1 = y[i + 1] - ts * g[i + 1], t2 = y[i + 2] - ts * g[i + 2];
      projection::friction_cone((*p.mu)[k], ln, t1, t2);
      out[i] = ln;
      out[i + 1] = t1;
      out[i + 2] = t2;
    }
    for (int k = 0; k < np; ++k) {
      const int i = 3 * nc + k;
      const CavityRow& c = (*p.cavities)[k];
      if (scale[i] == 0.0) {
        CavityRow copy = c;
        out[i] = cavity_pressure(0.0, c.volume_free, copy) - c.p_atm;
        continue;
      }
      const double tau = t * scale[i];
      const double z = c.p_atm + y[i] - tau * g[i];
      out[i] = (c.exponent == 1.0 ? projection::gas_prox(z, tau, c.air, p.h, c.p_max)
                                  : projection::gas_prox_n(z, tau, c.air, c.law, c.exponent, p.h, c.p_max)) -
               c.p_atm;
    }
  }

  /// f(λ) = ½ λᵀWλ + rᵀλ from W λ
  double objective(const VecX& lambda, const VecX& w_lambda) const {
    return 0.5 * lambda.dot(w_lambda) + r.dot(lambda);
  }

  /// ‖d‖² in the metric of the step: Σ d_i² / scale_i (rows that move nothing excluded)
  double metric_norm2(const VecX& d) const {
    double s = 0.0;
    for (int i = 0; i < n; ++i)
      if (scale[i] > 0.0) s += d[i] * d[i] / scale[i];
    return s;
  }

  /// the warm start made feasible: λ ← prox(λ) (a zero step)
  void project(const RowProblem& p, VecX& lambda) const {
    const VecX zero = VecX::Zero(n);
    VecX out;
    step(p, lambda, zero, 0.0, out);
    // a zero step leaves a cavity row at its warm start only through gas_prox(z, 0) = z
    lambda = out;
  }
};

/// out = W v, reading only the columns where v is not zero: the contacts that carry nothing
/// (a third or more of the rows in a grasp) cost nothing, as they cost nothing in the PGS's
/// column updates.  W is symmetric, so its columns are contiguous rows.
void product_on_support(const Eigen::MatrixXd& W, const VecX& v, VecX& out) {
  const Eigen::Index n = v.size();
  Eigen::Index support = 0;
  for (Eigen::Index j = 0; j < n; ++j) support += v[j] != 0.0;
  if (4 * support > 3 * n) {  // mostly full: the blocked product is faster
    out.noalias() = W * v;
    return;
  }
  out.setZero(n);
  for (Eigen::Index j = 0; j < n; ++j)
    if (v[j] != 0.0) out.noalias() += W.col(j) * v[j];
}

/// the largest eigenvalue of diag(scale)^½ W diag(scale)^½ by power iteration from a fixed
/// vector (deterministic); an upper bound with a margin
double scaled_norm_estimate(const Eigen::MatrixXd& W, const VecX& scale, int iterations) {
  const VecX root = scale.cwiseSqrt();
  VecX v = VecX::Ones(scale.size());
  double estimate = 0.0;
  for (int it = 0; it < iterations; ++it) {
    const double norm = v.norm();
    if (norm == 0.0) break;
    v /= norm;
    const VecX w = root.cwiseProduct(W * root.cwiseProduct(v));
    estimate = v.dot(w);
    v = w;
  }
  return std::max(estimate, std::numeric_limits<double>::min());
}

class ApgdSolver final : public ConstraintSolver {
 public:
  const char* name() const override { return "apgd"; }

  int solve_rows(const RowProblem& p, VecX& lambda, VecX& w_lambda) override {
    const Eigen::MatrixXd& W = *p.W;
    const GradientRows rows(p);
    rows.project(p, lambda);
    VecX x = lambda, w_x;  // the last iterate and W times it
    product_on_support(W, x, w_x);
    VecX y = x, w_y = w_x;         // the extrapolated point
    VecX best = x, w_best = w_x;
    double best_residual = natural_residual(p, x, w_x);
    if (best_residual <= p.tolerance) {
      lambda = best;
      w_lambda = w_best;
      finish_cavities(p, lambda, w_lambda);
      return 0;
    }
    // the scaled W has unit mean diagonal per block, so its Lipschitz constant is ≥ about 1;
    // backtracking raises the estimate where it is larger, and it decays by 0.9 per iteration
    double L = 1.0, theta = 1.0;
    VecX g, g_true, candidate, w_candidate;
    int it = 0;
    while (it < p.max_iterations) {
      ++it;
      rows.modified_gradient(p, w_y, g);
      g_true = w_y + rows.r;
      const double f_y = rows.objective(y, w_y);
      for (int tries = 0;; ++tries) {
        rows.step(p, y, g, 1.0 / L, candidate);
        product_on_support(W, candidate, w_candidate);
        const VecX d = candidate - y;
        const double bound = f_y + g_true.dot(d) + 0.5 * L * rows.metric_norm2(d);
        if (rows.objective(candidate, w_candidate) <= bound + 1e-12 * std::abs(f_y) || tries >= 40) break;
        L *= 2.0;
      }
      const double residual = natural_residual(p, candidate, w_candidate);
      if (residual < best_residual) {
        best_residual = residual;
        best = candidate;
        w_best = w_candidate;
      }
      if (residual <= p.tolerance) break;
      const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
      const double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
      if (g.dot(candidate - x) > 0.0) {  // the objective went up along the momentum: restart
        y = candidate;
        w_y = w_candidate;
        theta = 1.0;
      } else {
        y = candidate + beta * (candidate - x);
        w_y = w_candidate + beta * (w_candidate - w_x);
        theta = theta_next;
      }
      x.swap(candidate);
      w_x.swap(w_candidate);
      L *= 0.9;
    }
    lambda = best;
    w_lambda = w_best;
    finish_cavities(p, lambda, w_lambda);
    return it;
  }
};

class UzawaSolver final : public ConstraintSolver {
 public:
  const char* name() const override { return "uzawa"; }

  int solve_rows(const RowProblem& p, VecX& lambda, VecX& w_lambda) override {
    const Eigen::MatrixXd& W = *p.W;
    const GradientRows rows(p);
    rows.project(p, lambda);
    VecX x = lambda, w_x;
    product_on_support(W, x, w_x);
    double best_residual = natural_residual(p, x, w_x);
    VecX best = x, w_best = w_x;
    // the step 1/ρ(S^½ W S^½): the projected step is then a contraction of the bi-potential
    // (10 power iterations, with a margin of 10 % for the estimate's shortfall)
    const double t = 1.0 / (1.1 * scaled_norm_estimate(W, rows.scale, 10));
    VecX g, next;
    int it = 0;
    while (best_residual > p.tolerance && it < p.max_iterations) {
      ++it;
      rows.modified_gradient(p, w_x, g);
      rows.step(p, x, g, t, next);
      x.swap(next);
      product_on_support(W, x, w_x);
      const double residual = natural_residual(p, x, w_x);
      if (residual < best_residual) {
        best_residual = residual;
        best = x;
        w_best = w_x;
      }
    }
    lambda = best;
    w_lambda = w_best;
    finish_cavities(p, lambda, w_lambda);
    return it;
  }
};

}  // namespace

std::unique_ptr<ConstraintSolver> make_apgd_solver() { return std::make_unique<ApgdSolver>(); }
std::unique_ptr<ConstraintSolver> make_uzawa_solver() { return std::make_unique<UzawaSolver>(); }

}  // namespace suction
