// The constraint solve (docs/method.md §8): one problem — contact blocks with Signorini and
// Coulomb friction, cavity rows with the gas law, soft spring rows — and several methods
// behind one interface, as the compliance backends are (backends/compliance_backend.h).
//
//   pgs    projected Gauss-Seidel (solver/pgs.h): the reference, the paper's Algorithm 2
//   apgd   accelerated projected gradient (Nesterov / FISTA with adaptive step and restart):
//          one product with W per iteration (solver/apgd.cpp)
//   uzawa  the bi-potential Uzawa scheme (De Saxcé and Feng): projected Jacobi steps on the
//          whole of λ at once with a fixed step (solver/apgd.cpp)
//   apgd_cuda  apgd on the GPU (backends/cuda), in builds with SUCTION_WITH_CUDA
//
// Every method solves the same rows to the same fixed point and is judged by the same
// residual (natural_residual below), computed from the method's final forces; soft rows are
// eliminated exactly before any method runs (their Schur complement).  The factory that
// knows which methods exist is backends/factory.cpp (make_constraint_solver).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/types.h"
#include "solver/pgs.h"

namespace suction {

/// What a method reports for one solve.
struct SolveResult {
  int iterations = 0;
  /// natural_residual of the forces returned (the same definition for every method)
  double residual = 0.0;
  /// residual ≤ the requested tolerance
  bool converged = true;
};

/// The contact and cavity rows (soft rows already eliminated) as a method sees them.
/// Row order is ConstraintLayout's: contact k on rows 3k..3k+2 (normal, two tangents), then
/// cavity k on row 3·nc + k.
struct RowProblem {
  const Eigen::MatrixXd* W = nullptr;  // n × n, n = 3 nc + np
  /// W on the GPU (column-major, n × n, the same values), when the compliance backend kept it
  /// there for this step; null otherwise.  Only GPU methods read it.
  const double* W_device = nullptr;
  const VecX* u_free = nullptr;        // n
  const std::vector<double>* gap = nullptr;  // per contact: gap at the free positions [m]
  const std::vector<double>* mu = nullptr;   // per contact: friction coefficient
  std::vector<CavityRow>* cavities = nullptr;  // per cavity: in, and pressure/outflow out
  double h = 0.0;
  int max_iterations = 300;
  double tolerance = 1e-6;
  /// pgs only: a subspace step after every this many sweeps (0: none; solver/pgs.cpp, docs/method.md §8.9)
  int subspace_every = 0;
  /// pgs only: the subspace step holds the sliding contacts too (false: only those that stick)
  bool subspace_sliding = true;
  /// pgs only, with subspace_sliding: the sliding contacts' directions turned by Newton's method
  /// on their slip within the step (false: held at their directions from the sweeps)
  bool subspace_newton = true;
  /// the rows of W, u_free, gap, mu, cavities at step h (the caps left at their defaults)
  static RowProblem of(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                       const std::vector<double>& mu, std::vector<CavityRow>& cavities, double h) {
    RowProblem p;
    p.W = &W;
    p.u_free = &u_free;
    p.gap = &gap;
    p.mu = &mu;
    p.cavities = &cavities;
    p.h = h;
    return p;
  }
  int contacts() const { return static_cast<int>(gap->size()); }
  int num_cavities() const { return static_cast<int>(cavities->size()); }
  int rows() const { return 3 * contacts() + num_cavities(); }
};

/// The common residual of forces λ on the rows, given Wλ (the method's, kept as it iterates):
/// per contact the natural map of Signorini and Coulomb,
///   r_n = λ_n − max(0, λ_n − v_n / W_nn),   v_n = gap/h + (Wλ)_n (the end-of-step gap / h)
///   r_t = λ_t − Π_{‖·‖ ≤ μ λ_n}(λ_t − u_t / w_t),   u_t = u_free,t + (Wλ)_t, w_t = max(W_t1t1, W_t2t2),
/// relative to the larger of the largest contact force and the largest ‖r‖; per cavity |P(λ) − P_atm − λ_p| / P_atm, P(λ) the
/// gas law's pressure given every other force (cavity_pressure).  Zero exactly at a solution;
/// the larger of the two is returned.
double natural_residual(const RowProblem& p, const VecX& lambda, const VecX& w_lambda);

/// A method.  solve_rows() runs on the rows of a RowProblem; λ holds the warm start (contacts'
/// forces, cavities' P − P_atm) and receives the solution; w_lambda receives W λ.  It sets
/// each cavity's pressure and outflow (finish_cavities) and returns its iterations; the
/// residual is computed by the caller (solve_constraints_with, below) with natural_residual.
class ConstraintSolver {
 public:
  virtual ~ConstraintSolver() = default;
  virtual const char* name() const = 0;
  virtual int solve_rows(const RowProblem& p, VecX& lambda, VecX& w_lambda) = 0;
};

/// Each cavity's pressure P_atm + λ_p and outflow from the end-of-step volume
/// V_free + h (Wλ)_p: ΔN = min(0, P·V − N) at the cap p_max (the air pushed out), else 0.
void finish_cavities(const RowProblem& p, const VecX& lambda, const VecX& w_lambda);

/// The whole solve (contacts, cavities and soft rows) with `method`: soft rows eliminated
/// exactly, the method on the remaining rows, the soft forces recovered, the residual taken.
/// lambda: ConstraintLayout order, warm start in for contacts and cavities, solution out.
SolveResult solve_constraints_with(ConstraintSolver& method, const Eigen::MatrixXd& W, const double* W_device,
                                   const VecX& u_free, const std::vector<double>& gap,
                                   const std::vector<double>& mu, std::vector<CavityRow>& cavities,
                                   const std::vector<SoftRow>& soft, double h, int max_iterations,
                                   double tolerance, VecX& lambda, int subspace_every = 0,
                                   bool subspace_sliding = true, bool subspace_newton = true);

/// What the gradient-type methods (apgd, uzawa, apgd_cuda) share: the linear term r of
/// f(λ) = ½ λᵀWλ + rᵀλ (gap/h on normals, u_free on tangents, V_free/h on cavity rows) and
/// each row's step scale (1 / the mean diagonal of its contact block, 1 / W_pp for a cavity;
/// 0 for a row that moves nothing).
struct GradientTerms {
  VecX r, scale;
};
GradientTerms gradient_terms(const RowProblem& p);

/// The CPU methods, for the factory (backends/factory.cpp) and the tests.
std::unique_ptr<ConstraintSolver> make_pgs_solver();
std::unique_ptr<ConstraintSolver> make_apgd_solver();
std::unique_ptr<ConstraintSolver> make_uzawa_solver();

}  // namespace suction
