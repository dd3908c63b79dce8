// The step's factorization of an FEM body's system matrix A, as other modules see it: the
// compliance backends (core/backends) solve with it through this interface and never need
// to know which factorization the FEM kernels chose (fem/block_ldlt.h today).
#pragma once
#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace suction {

/// Reuse of an FEM body's factorization across steps (the scene's settings.factorization;
/// docs/method.md §7.6).  Off (the default): A is factorized every step.  On: the last
/// factorization A₀ is kept while conjugate gradients on the step's A, preconditioned by A₀,
/// converge within `max_cg_iterations` and A₀ is at most `max_age` steps old.  The free motion
/// and the correction then solve the step's A by those CG iterations (exact to 1e-10), and only
/// the compliance W (what the constraint solver sees) is built from A₀.
///
/// follow_rotation (the interactive quality's; off by default): the kept A₀ is turned with the
/// body, node by node.  A co-rotational A depends on the shape only through the element
/// rotations R_e (A = (1 + hα) M + (hβ + h²) Σ R_e K_e R_eᵀ), so a configuration whose
/// elements all turned by Q has A = Q A₀ Qᵀ exactly.  Each free node i gets Q_i, the turn of
/// the mean rotation of its elements since the factorization (fem/implicit_euler.h,
/// node_rotations), and A₀'s factor serves as Q A₀⁻¹ Qᵀ, Q = diag(Q_i): SOFA's warped
/// preconditioner.  The preconditioner, the correction and the compliance (whose kept G stays
/// in A₀'s frame; each row coefficient of node i enters as Q_iᵀ c) then see turns as no
/// change; what is left is the elements' turns relative to their nodes.
struct FactorizationReuse {
  bool reuse = false;
  int max_cg_iterations = 4;  // more needed: factorize again in this step
  int max_age = 20;           // steps one factorization may serve
  bool follow_rotation = false;
  /// refinements: with a kept factorization (and the exact correction), the solve is repeated
  /// this many times with the rows' velocity that the exact response adds to W₀'s, so that the
  /// rows end at the solve's answer for the step's A (method §7.6, point 6); 0: none
  int refinements = 0;
  /// lag_drift (the interactive quality's; 0: off): while the free motion the kept A₀ gives,
  /// Δv₀ = A₀⁻¹ b, is within this of the step's own A⁻¹ b (its error A⁻¹ (b − A Δv₀), estimated
  /// with A₀, at most lag_drift ‖Δv₀‖), the step takes A₀ as its matrix: the free motion, the
  /// compliance and the correction all solve with A₀ itself (implicit Euler with a lagged
  /// matrix: the forces are the step's own).  Beyond it A is factorized again.  No
  /// conjugate gradients and no refinement: W is exact for the matrix the correction uses, so
  /// the rows end where the solve put them and a body in balance stays at rest.  Ignored with
  /// follow_rotation (whose kept factor is served turned); max_cg_iterations is then unused.
  double lag_drift = 0.0;
};

class Factorization {
 public:
  virtual ~Factorization() = default;
  /// number of unknowns (3 per free node)
  virtual int rows() const = 0;
  /// b ← A⁻¹ b
  virtual void solve_in_place(Eigen::Ref<Eigen::VectorXd> b) const = 0;
  /// B ← A⁻¹ B for several right-hand sides (the columns of B)
  virtual void solve_many_in_place(Eigen::Ref<Eigen::MatrixXd> B) const = 0;
  /// G = Bᵀ A⁻¹ B for a sparse B (rows() × k): k × k, symmetric.  The default solves with every
  /// column of B; a factorization may exploit B's sparsity (fem/block_ldlt.h does).
  virtual void inverse_quadratic_form(const Eigen::SparseMatrix<double>& B, Eigen::MatrixXd& G) const {
    Eigen::MatrixXd X = B;
    solve_many_in_place(X);
    G = B.transpose() * X;
    G = 0.5 * (G + G.transpose()).eval();
  }
};

}  // namespace suction
