#include "solver/pgs.h"

#include "solver/projection.h"
#include "solver/solver.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/LU>

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

/// a contact sticks (the subspace step holds its three rows as equalities) when its tangential
/// force is inside the disk by more than this share of μ λ_n
constexpr double kStickMargin = 1e-3;
/// added to the diagonal of W on the set, relative to its mean (SubspaceStep)
constexpr double kSubspaceRegularization = 1e-9;
/// the most passes of the subspace step's active set with sliding contacts (SubspaceStep)
constexpr int kSlidingPasses = 8;
/// (newton) the passes go on while a sliding contact's friction turned by more than this (the
/// change of its unit direction)
constexpr double kTurnTolerance = 1e-6;
/// (newton) how often a contact that left the set may come back in one subspace step
constexpr int kSlidingEntries = 1;

/// The subspace step (docs/method.md §8.9; the PGS subspace minimization of Silcowitz-Niebe,
/// Erleben and Niebe 2010): the sweeps have found which contacts press, and which of them stick
/// and which slide, so on that set the rows are linear equalities, solved exactly at once.  The
/// cavities' gas laws are solved on the Schur complement of the set; the contacts outside it keep
/// their forces.  The result, projected on the cones, replaces λ only when its common residual is
/// lower; the sweeps go on from there either way, so the fixed point and the stopping test are
/// the plain PGS's.
///   sliding false: the set is the contacts that stick (a Cholesky factor of W on it, kept while
///     the set stays the same); the sliding ones keep their forces.
///   sliding true: a sliding contact joins with its normal row, its friction along its current
///     direction d (λ_t = μ λ_n d), which makes the set's matrix unsymmetric (an LU each time);
///     passes of an active set then move a contact whose normal force came out negative out of
///     the set, a sticking one whose friction left the disk to sliding, and a sliding one whose
///     slip runs along its friction force (u_t·d > 0) to sticking, until none moves.
///   newton true (with sliding): each sliding contact's direction d is turned by Newton's method
///     on the condition that its slip runs along it (the force across d one more unknown, the
///     slip across d its equation), the passes going on until no direction turns; a contact that
///     left the set comes back once when the set's forces close its gap past zero; and the
///     proximal term pulls towards the forces of the pass before.
class SubspaceStep {
 public:
  SubspaceStep(bool sliding, bool newton) : sliding_(sliding), newton_(newton) {}

  /// true when λ (and u = u_free + W λ) were replaced
  bool apply(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
             const std::vector<double>& mu, std::vector<CavityRow>& cavities, double h, VecX& lambda, VecX& u) {
    VecX trial;
    if (!(sliding_ ? solve_with_sliding(W, u_free, gap, mu, cavities, h, lambda, u, trial)
                   : solve_sticking(W, u_free, gap, mu, cavities, h, lambda, u, trial)))
      return false;
    const int nc = static_cast<int>(gap.size());
    const ConstraintLayout layout{nc, static_cast<int>(cavities.size())};
    for (int k = 0; k < nc; ++k) {  // on the cones
      const int i = layout.contact_row(k);
      trial[i] = std::max(0.0, trial[i]);
      const double limit = mu[k] * trial[i];
      const double norm = trial.segment<2>(i + 1).norm();
      if (norm > limit) trial.segment<2>(i + 1) *= norm > 0.0 ? limit / norm : 0.0;
    }
    // u = u_free + W λ moved by the columns that changed (the set's and the cavities'), not
    // formed again from all of W
    VecX trial_u = u;
    add_columns(W, trial - lambda, trial_u);
    const RowProblem p = RowProblem::of(W, u_free, gap, mu, cavities, h);
    if (!(natural_residual(p, trial, trial_u - u_free) < natural_residual(p, lambda, u - u_free))) return false;
    lambda = trial;
    u = trial_u;
    return true;
  }

 private:
  /// Each cavity's pressure (λ_P) from its gas law when the rows of the set answer: (W λ)_P =
  /// base + Wpp λ_P; Gauss-Seidel over the cavities (exact for one).
  static void cavities_on_schur(const Eigen::MatrixXd& Wpp, const VecX& base, const std::vector<CavityRow>& cavities,
                                double h, VecX& lp) {
    const int np = static_cast<int>(cavities.size());
    for (int pass = 0; pass < 100; ++pass) {
      double change = 0.0;
      for (int k = 0; k < np; ++k) {
        CavityRow row = cavities[k];  // a copy: cavity_pressure writes the outflow
        const double a = h * Wpp(k, k);
        const double v_eff = row.volume_free + h * (base[k] + Wpp.row(k).dot(lp) - Wpp(k, k) * lp[k]);
        const double p = cavity_pressure(a, v_eff, row) - row.p_atm;
        change = std::max(change, std::abs(p - lp[k]));
        lp[k] = p;
      }
      if (np == 1 || change <= 1e-12 * kPAtm) break;
    }
  }

  /// out += W delta, from the columns where delta is not zero (the set's and the cavities': a
  /// few of W's columns, where W delta would read them all)
  static void add_columns(const Eigen::MatrixXd& W, const VecX& delta, VecX& out) {
    for (Eigen::Index c = 0; c < delta.size(); ++c)
      if (delta[c] != 0.0) out.noalias() += W.col(c) * delta[c];
  }

  /// W on the cavities' rows and columns
  static Eigen::MatrixXd cavity_block(const Eigen::MatrixXd& W, const ConstraintLayout& layout) {
    const int first = layout.cavity_row(0), np = layout.cavities;
    return W.block(first, first, np, np);
  }

  /// a row's target: (W λ)_n = −gap/h closes the gap at the end of the step; (W λ)_t = −u_free,t
  /// stops the slide
  static double target(int row, const VecX& u_free, const std::vector<double>& gap, double h) {
    return row % ConstraintLayout::kRowsPerContact == 0 ? -gap[row / ConstraintLayout::kRowsPerContact] / h
                                                        : -u_free[row];
  }

  bool solve_sticking(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                      const std::vector<double>& mu, const std::vector<CavityRow>& cavities, double h,
                      const VecX& lambda, const VecX& u, VecX& trial) {
    const int nc = static_cast<int>(gap.size());
    const int np = static_cast<int>(cavities.size());
    const ConstraintLayout layout{nc, np};
    rows_.clear();
    for (int k = 0; k < nc; ++k) {
      const int i = layout.contact_row(k);
      if (!(lambda[i] > 0.0) || !(W(i, i) > 0.0)) continue;
      if (mu[k] == 0.0) {  // frictionless: the tangents carry nothing, the normal is an equality
        rows_.push_back(i);
      } else if (lambda.segment<2>(i + 1).norm() < (1.0 - kStickMargin) * mu[k] * lambda[i]) {
        rows_.insert(rows_.end(), {i, i + 1, i + 2});
      }
    }
    const int m = static_cast<int>(rows_.size());
    if (m == 0) return false;
    if (rows_ != factored_) {  // a new set: factor W on it, and the cavities' Schur complement
      factored_.clear();
      Eigen::MatrixXd Waa(m, m);
      for (int b = 0; b < m; ++b)
        for (int a = 0; a < m; ++a) Waa(a, b) = W(rows_[a], rows_[b]);
      // a rigid body on more contacts than its six degrees of freedom makes W_AA singular (the
      // forces that balance it are not unique): a relative 1e-9 on the diagonal picks one
      Waa.diagonal().array() += kSubspaceRegularization * Waa.diagonal().mean();
      llt_.compute(Waa);
      if (llt_.info() != Eigen::Success) return false;
      Wap_.resize(m, np);
      for (int k = 0; k < np; ++k)
        for (int a = 0; a < m; ++a) Wap_(a, k) = W(rows_[a], layout.cavity_row(k));
      // λ_A = x0 + S λ_P (no cavities: no columns, and no solve: Eigen's on zero columns binds a
      // reference to null data, which UBSan reports)
      if (np > 0) S_ = -llt_.solve(Wap_);
      else S_.resize(m, 0);
      Wpp_ = cavity_block(W, layout);  // W_PP + W_PA S: the pressure rows once the set has answered
      if (np > 0) Wpp_.noalias() += Wap_.transpose() * S_;
      factored_ = rows_;
    }
    // the right-hand side: each row's target velocity less what the forces outside the set give
    // (W λ = u − u_free, less the set's and the cavities' own columns)
    VecX la(m), lp(np);
    for (int a = 0; a < m; ++a) la[a] = lambda[rows_[a]];
    for (int k = 0; k < np; ++k) lp[k] = lambda[layout.cavity_row(k)];
    VecX b(m);
    for (int a = 0; a < m; ++a) b[a] = target(rows_[a], u_free, gap, h) - (u[rows_[a]] - u_free[rows_[a]]);
    b.noalias() += llt_.matrixL() * (llt_.matrixU() * la);  // + W_AA λ_A
    if (np > 0) b.noalias() += Wap_ * lp;                   // + W_AP λ_P
    const VecX x0 = llt_.solve(b);
    if (np > 0) {
      // (W λ)_P from the forces outside the set, plus the set's x0: (W λ)_P − W_PA λ_A − W_PP λ_P + W_PA x0
      VecX base = Wap_.transpose() * (x0 - la);
      for (int k = 0; k < np; ++k) {
        const int i = layout.cavity_row(k);
        for (int q = 0; q < np; ++q) base[k] -= W(i, layout.cavity_row(q)) * lp[q];
        base[k] += u[i] - u_free[i];
      }
      cavities_on_schur(Wpp_, base, cavities, h, lp);
    }
    trial = lambda;
    const VecX xa = np > 0 ? VecX(x0 + S_ * lp) : x0;
    for (int a = 0; a < m; ++a) trial[rows_[a]] = xa[a];
    for (int k = 0; k < np; ++k) trial[layout.cavity_row(k)] = lp[k];
    return true;
  }

  bool solve_with_sliding(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                          const std::vector<double>& mu, const std::vector<CavityRow>& cavities, double h,
                          const VecX& lambda, const VecX& u, VecX& trial) {
    const int nc = static_cast<int>(gap.size());
    const int np = static_cast<int>(cavities.size());
    const ConstraintLayout layout{nc, np};
    enum class Held { Sticks, Slides, Normal, Out };  // Normal: frictionless
    struct Member {
      int contact, row;  // row: its normal's
      Held held;
      Eigen::Vector2d d;  // sliding: the friction's direction
      Eigen::Vector2d slip = Eigen::Vector2d::Zero();  // its end-of-step slip u_t at the pass's forces (newton)
      int entries = 0;  // how often it came back into the set (newton)
    };
    std::vector<Member> set;
    for (int k = 0; k < nc; ++k) {
      const int i = layout.contact_row(k);
      if (!(lambda[i] > 0.0) || !(W(i, i) > 0.0)) continue;
      const Eigen::Vector2d lt = lambda.segment<2>(i + 1);
      if (mu[k] == 0.0) set.push_back({k, i, Held::Normal, Eigen::Vector2d::Zero()});
      else if (lt.norm() < (1.0 - kStickMargin) * mu[k] * lambda[i]) set.push_back({k, i, Held::Sticks, Eigen::Vector2d::Zero()});
      else set.push_back({k, i, Held::Slides, lt.normalized(), u.segment<2>(i + 1)});
    }
    if (set.empty()) return false;
    // what the forces outside the set give on every row: W λ = u − u_free, less the set's
    // columns and the cavities'
    VecX rest = u - u_free;
    {
      VecX held = VecX::Zero(lambda.size());
      for (const Member& c : set) held.segment<3>(c.row) = -lambda.segment<3>(c.row);
      for (int k = 0; k < np; ++k) held[layout.cavity_row(k)] = -lambda[layout.cavity_row(k)];
      add_columns(W, held, rest);
    }
    VecX lp0(np);
    for (int k = 0; k < np; ++k) lp0[k] = lambda[layout.cavity_row(k)];
    // An unknown is a force along a pattern of its contact's three rows, (c₀, scale c₁, scale c₂)
    // from the normal row on: a plain row's is one unit entry; a sliding contact's normal force
    // carries its friction, (1, μ d); (newton) the force across its direction, (0, d⊥), is
    // another.  A plain unknown's equation is its row, a sliding normal force's its normal row,
    // the force across d's the slip across d (below).
    struct Unknown {
      int row;             // the row of c₀
      Eigen::Vector3d c;   // the pattern
      double scale;        // of its tangential entries
      int member;          // a sliding member's index, else -1
      bool across;         // the force across the slip direction (newton)
      double s;            // (across) s, added to its equation's diagonal
    };
    std::vector<Unknown> unknowns;
    // W(row, ·) along an unknown's pattern
    const auto w_along = [&](int row, const Unknown& x) {
      double v = x.c[0] != 0.0 ? W(row, x.row) * x.c[0] : 0.0;
      if (x.member >= 0) v += x.scale * (W(row, x.row + 1) * x.c[1] + W(row, x.row + 2) * x.c[2]);
      return v;
    };
    // an equation: its velocity along the across unknown's pattern, or its row alone
    const auto equation = [&](const Unknown& x, auto&& of_row) {
      if (!x.across) return of_row(x.row);
      return x.c[1] * of_row(x.row + 1) + x.c[2] * of_row(x.row + 2);
    };
    VecX now = lambda;  // the forces where this pass linearizes the slip directions (newton)
    for (int pass = 0; pass < kSlidingPasses; ++pass) {
      unknowns.clear();
      for (int s = 0; s < static_cast<int>(set.size()); ++s) {
        const Member& c = set[s];
        if (c.held == Held::Sticks) {
          for (int r = 0; r < 3; ++r) unknowns.push_back({c.row + r, Eigen::Vector3d(1, 0, 0), 0.0, -1, false, 0.0});
        } else if (c.held == Held::Normal) {
          unknowns.push_back({c.row, Eigen::Vector3d(1, 0, 0), 0.0, -1, false, 0.0});
        } else if (c.held == Held::Slides) {
          unknowns.push_back({c.row, Eigen::Vector3d(1, c.d[0], c.d[1]), mu[c.contact], s, false, 0.0});
          // Newton's step on the direction (method §8.9): the slip must run along d, g(φ) =
          // u_t·d⊥ = 0, d = (cos φ, sin φ).  With λ_t = μ λ_n d(φ) turned by δφ, the force across d
          // is ψ = μ λ_n δφ, and g linearized, d⊥·u_t(λ) − (u_t·d) δφ = 0, is the equation
          // d⊥·u_t(λ) + s ψ = 0 with s = −u_t·d / (μ λ_n) ≥ 0 at the forces of the pass
          if (newton_ && now[c.row] > 0.0)
            unknowns.push_back({c.row, Eigen::Vector3d(0, -c.d[1], c.d[0]), 1.0, s, true,
                                std::max(0.0, -c.slip.dot(c.d)) / (mu[c.contact] * now[c.row])});
        }
      }
      const int m = static_cast<int>(unknowns.size());
      if (m == 0) return false;
      Eigen::MatrixXd M(m, m), Mp(m, np), C(np, m);
      for (int b = 0; b < m; ++b) {
        for (int a = 0; a < m; ++a) M(a, b) = equation(unknowns[a], [&](int row) { return w_along(row, unknowns[b]); });
        for (int k = 0; k < np; ++k) C(k, b) = w_along(layout.cavity_row(k), unknowns[b]);
      }
      for (int a = 0; a < m; ++a) M(a, a) += unknowns[a].s;
      // the small diagonal (a proximal term: it pulls towards the forces held now, so the answer
      // at the fixed point is the unregularized one).  With newton, towards the forces of the
      // pass before: the passes are then proximal-point iterations, which matters where the set's
      // matrix is nearly singular (a stiff body on a few contacts: organic_object's bunny)
      const double eps = kSubspaceRegularization * M.diagonal().cwiseAbs().mean();
      M.diagonal().array() += eps;
      const VecX& pull = newton_ ? now : lambda;
      for (int k = 0; k < np; ++k)
        for (int a = 0; a < m; ++a)
          Mp(a, k) = equation(unknowns[a], [&](int row) { return W(row, layout.cavity_row(k)); });
      VecX b(m);
      for (int a = 0; a < m; ++a) {
        const Unknown& x = unknowns[a];
        const double held = x.across ? x.c[1] * pull[x.row + 1] + x.c[2] * pull[x.row + 2] : pull[x.row];
        b[a] = equation(x, [&](int row) { return target(row, u_free, gap, h) - rest[row]; }) + eps * held;
      }
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(M);
      VecX y = lu.solve(b);
      VecX lp = lp0;
      if (np > 0) {  // y = y0 + S λ_P; the pressure rows: rest_P + C y0 + (W_PP + C S) λ_P
        const Eigen::MatrixXd S = -lu.solve(Mp);
        Eigen::MatrixXd Wpp = cavity_block(W, layout);
        Wpp.noalias() += C * S;
        VecX base(np);
        for (int k = 0; k < np; ++k) base[k] = rest[layout.cavity_row(k)] + C.row(k).dot(y);
        cavities_on_schur(Wpp, base, cavities, h, lp);
        y.noalias() += S * lp;
      }
      trial = lambda;
      for (const Member& c : set) trial.segment<3>(c.row).setZero();
      for (int a = 0; a < m; ++a) {
        const Unknown& x = unknowns[a];
        if (x.c[0] != 0.0) trial[x.row] += y[a] * x.c[0];
        if (x.member >= 0) trial.segment<2>(x.row + 1) += x.scale * y[a] * x.c.tail<2>();
      }
      for (int k = 0; k < np; ++k) trial[layout.cavity_row(k)] = lp[k];
      // the active set: who leaves, who slides, who sticks (the sliding ones by their
      // end-of-step slip, u_free + W λ on their tangents); with newton, who comes back
      VecX w_trial;
      if (newton_ || std::any_of(set.begin(), set.end(), [](const Member& c) { return c.held == Held::Slides; })) {
        w_trial = u - u_free;
        add_columns(W, trial - lambda, w_trial);
      }
      bool moved = false;
      double turned = 0.0;
      for (Member& c : set) {
        if (c.held == Held::Out) {
          // a contact that left the set and whose gap the set's forces close beyond zero comes
          // back (once per step: a bound that keeps the passes finite)
          if (newton_ && c.entries < kSlidingEntries && gap[c.contact] / h + w_trial[c.row] < 0.0) {
            c.held = mu[c.contact] == 0.0 ? Held::Normal : Held::Sticks;
            ++c.entries, moved = true;
          }
          continue;
        }
        const double ln = trial[c.row];
        if (newton_) c.slip = u_free.segment<2>(c.row + 1) + w_trial.segment<2>(c.row + 1);
        if (!(ln > 0.0)) {
          c.held = Held::Out, moved = true;
        } else if (c.held == Held::Sticks) {
          const Eigen::Vector2d lt = trial.segment<2>(c.row + 1);
          if (lt.norm() > mu[c.contact] * ln) c.held = Held::Slides, c.d = lt.normalized(), moved = true;
        } else if (c.held == Held::Slides) {
          if (newton_) {  // the turned direction, its friction back on the cone
            const Eigen::Vector2d d = trial.segment<2>(c.row + 1).normalized();
            turned = std::max(turned, (d - c.d).norm());
            c.d = d;
            trial.segment<2>(c.row + 1) = mu[c.contact] * ln * d;
          }
          const Eigen::Vector2d ut = u_free.segment<2>(c.row + 1) + w_trial.segment<2>(c.row + 1);
          if (ut.dot(c.d) > 0.0) c.held = Held::Sticks, moved = true;
        }
      }
      now = trial;
      if (!moved && !(turned > kTurnTolerance)) break;
    }
    return true;
  }

  bool sliding_, newton_;
  std::vector<int> rows_, factored_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::MatrixXd Wap_, S_, Wpp_;
};

// contacts and cavities (no soft rows): the Gauss-Seidel loop; u (= u_free + W λ) out.
// subspace_every > 0: a subspace step after every that many sweeps (SubspaceStep; sliding: with
// the sliding contacts; newton: their directions turned by Newton's method)
PgsResult pgs_rows(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                   const std::vector<double>& mu, std::vector<CavityRow>& cavities, double h,
                   int max_iterations, double tolerance, int subspace_every, bool subspace_sliding,
                   bool subspace_newton, VecX& lambda, VecX& u) {
  const int nc = static_cast<int>(gap.size());
  const int np = static_cast<int>(cavities.size());
  const ConstraintLayout layout{nc, np};
  PgsResult result;
  if (nc == 0 && np == 0) return result;
  // u = u_free + W λ kept up to date incrementally (column updates)
  u = u_free + W * lambda;
  VecX du(u.size());  // a contact's column update, evaluated here instead of a temporary per row
  SubspaceStep subspace(subspace_sliding, subspace_newton);
  // the sweep after which the next subspace step runs; a step that did not lower the residual
  // (sliding contacts, which it holds fixed, dominate) doubles the wait for the next
  int subspace_wait = subspace_every, subspace_next = subspace_every;
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
    // (never after the last sweep: a sweep follows every step and sets the cavities' pressures)
    if (subspace_every > 0 && it + 1 == subspace_next && it + 1 < max_iterations) {
      subspace_wait = subspace.apply(W, u_free, gap, mu, cavities, h, lambda, u) ? subspace_every : 2 * subspace_wait;
      subspace_next += subspace_wait;
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
                                 p.subspace_every, p.subspace_sliding, p.subspace_newton, lambda, u);
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
