// Projected Gauss-Seidel on contact blocks and cavity rows (docs/method.md §8; Jourdan, Alart,
// Jean 1998; the paper's Algorithm 2): per contact, Signorini on the normal written at
// velocity level with the gap term, Coulomb friction by projection on the disk
// ‖λ_t‖ ≤ μ λ_n; then one gas-law quadratic per cavity.  A kernel: dense W and plain arrays
// in, rows in ConstraintLayout order; the solve stage (stages/solve.cpp) warm-starts it.
#pragma once
#include <vector>

#include "common/types.h"
#include "constraints/rows.h"

namespace suction {

struct PgsResult {
  int iterations = 0;
  double residual = 0.0;  // largest change of a force in the last sweep, relative to the largest force
};

/// One cavity's pressure row (docs/method.md §6): row ConstraintLayout::cavity_row(k) of W.
struct CavityRow {
  double volume_free = 0.0;  // V(x_free) [m³]
  double air = 0.0;          // N at the start of the solve (after the leak) [J]
  double p_atm = kPAtm;      // [Pa]
  double p_max = kPAtm;      // [Pa]
  /// the gas law within the step (docs/method.md §6.8): P·V^n = law for the air that stays.
  /// n = 1 is Boyle's P·V = N (law unused); otherwise law = θ N V_t^(n−1) [Pa·m^(3n)]
  double exponent = 1.0;
  double law = 0.0;
  // results
  double pressure = kPAtm;   // absolute pressure P at the end of the step [Pa]
  double outflow = 0.0;        // ΔN ≤ 0: air pushed out when P would exceed p_max [J]
};

/// The pressure of one cavity from the gas law P (V_eff + a (P − P_atm)) = N + ΔN with
/// a = h·W_pp (the quadratic a P² + b P + c = 0, b = V_eff − a P_atm, c = −N), clamped at p_max
/// with the outflow ΔN; N ≤ 0 is vacuum (P = 0).  Returns P; sets row.outflow.
double cavity_pressure(double a, double volume_eff, CavityRow& row);

/// The air pushed out when a cavity ends its step at `pressure` ≥ p_max in `volume`: what
/// makes the row's law hold at that pressure for the air that stays, min(0, N' − N) [J].
double cavity_outflow(const CavityRow& row, double pressure, double volume);

/// A soft bilateral row (a spring, docs/method.md §8.6): its force λ [N] is free in sign and
/// satisfies u + compliance·λ + bias = 0 at the end of the step, u = u_free + (Wλ) its velocity.
/// A spring of stiffness k and damping c over a step h has compliance 1/(k h + c) and bias
/// k (L − L0)/(k h + c): the implicit Euler force −k (L + h u − L0) − c u.
struct SoftRow {
  double compliance = 0.0;  // [m/(N s)], > 0
  double bias = 0.0;        // [m/s]
};

/// Contacts, cavities and soft rows together (paper Algorithm 2): the soft rows, linear
/// equalities, are eliminated exactly (their Schur complement); on the reduced rows each
/// iteration sweeps the contact blocks, then solves each cavity's quadratic with the current
/// forces (Gauss-Seidel); the soft forces follow from the others.  lambda: rows 3k..3k+2
/// contact forces [N], row 3·nc + k the pressure difference P − P_atm of cavity k [Pa], then
/// the soft rows' forces [N] (ConstraintLayout).  Contacts and cavities warm-start from lambda;
/// the soft rows' entries are only written.  The residual is the larger of the contacts'
/// (largest force change / largest force) and the cavities' (largest pressure change / P_atm).
PgsResult solve_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                    const std::vector<double>& mu, std::vector<CavityRow>& cavities,
                    const std::vector<SoftRow>& soft, double h, int max_iterations, double tolerance,
                    VecX& lambda);

/// The contact problem alone, for tests and backends: rows 3k, 3k+1, 3k+2 are contact k's
/// normal and tangents; target normal velocity −gap_k/h; friction mu_k.  lambda: warm start in,
/// solution out.
PgsResult solve_contacts_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                             const std::vector<double>& mu, double h, int max_iterations,
                             double tolerance, VecX& lambda);

}  // namespace suction
