// The implicit Euler free motion of one FEM body (docs/method.md §3):
//   A Δv = b,  A = (1 + hα) M + (hβ + h²) K_w,  b = h (f_el + f_ext − α M v − β K_w v) − h² K_w v
// with K_w = Σ_e R_e K_e R_eᵀ the warped stiffness (K = −K_w, B = −(αM + βK_w)).  Held nodes
// (fixed or driven) have a prescribed velocity and are removed from A; their coupling goes to b.
// The factorization of A is kept for every other A⁻¹ product of the step.
#pragma once
#include <Eigen/SparseCore>
#include <cstdint>
#include <memory>

#include "fem/block_ldlt.h"
#include "fem/fem_body.h"

namespace suction {

using SparseMatrix = Eigen::SparseMatrix<double>;

struct FemSystem {
  std::vector<int> free_index;     // per node: index among free nodes, -1 when held
  int num_free = 0;
  SparseMatrix A;                  // (3·free)×(3·free), full symmetric pattern
  std::vector<int> block_offset;   // per tet, 16 blocks × 3 columns: value offset of the block's
                                   // first row in each column (-1 when a node is held)
  std::unique_ptr<BlockCholesky> solver;  // supernodal factorization of A (fem/block_ldlt.h)
  std::vector<int> held_tets;      // tets touching a held node (for reactions)
  // per step
  std::vector<Mat3> rotations;     // #tets: R_e at the start of the step
  Points elastic_force;            // #nodes: f_el at the start of the step [N]
  Points applied_force;            // #nodes: gravity + force drivers [N]
  VecX rhs, dv;                    // 3·free
  double elastic_energy = 0.0;     // [J]
  // per tet, this step (the parallel element pass of fem_free_motion): force columns and energy
  // (fem/corotational.h, ElementElastic)
  std::vector<Mat3> element_H;
  std::vector<double> element_energy;
  // the factorization's history (FactorizationReuse)
  SparseMatrix A_factored;         // the A that `solver` factorized (a copy, kept only with reuse)
  std::uint64_t factor_generation = 0;  // counts factorizations: the same number, the same factor
  int factor_age = -1;             // steps since the factorization was made (-1: none yet)
  /// (FactorizationReuse::lag_drift) this step's matrix is A_factored (the kept factor solves
  /// exactly), and the relative error of its free motion against the step's own A, estimated
  bool lagged = false;
  double lag = 0.0;
  /// with FactorizationReuse::follow_rotation, per free node: its rotation (node_rotations)
  /// when the kept factor was made, and Q_i, its turn since then (A⁻¹ ≈ Q A₀⁻¹ Qᵀ); empty
  /// otherwise
  std::vector<Mat3> factor_rotation, rotation;
  std::vector<Mat3> node_scratch;  // this step's node rotations
  int cg_iterations = 0;           // this step: CG iterations on the old factor (0: factorized)
  int cg_backoff = 0, cg_wait = 0; // after failed CG attempts: steps to factorize without trying
  VecX cg_r, cg_z, cg_p, cg_q, cg_x, cg_b;  // CG scratch (3·free)
};

/// Per free node (sys.free_index order): the rotation of the polar decomposition of the sum of
/// the rotations R_e of the elements around it (sys.rotations, this step's).  When every
/// element turned by the same Q, every node's rotation turned by Q, exactly.
void node_rotations(const FemBody& body, const FemSystem& sys, std::vector<Mat3>& out);

/// Solves with a factorization of A₀ as with one of Q A₀ Qᵀ, Q = diag(Q_i) over the 3-row
/// blocks: b ← Q A₀⁻¹ Qᵀ b (FactorizationReuse::follow_rotation).
class RotatedFactorization final : public Factorization {
 public:
  RotatedFactorization(const Factorization& f, const std::vector<Mat3>& q) : f_(f), q_(q) {}
  int rows() const override { return f_.rows(); }
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> b) const override;
  void solve_many_in_place(Eigen::Ref<Eigen::MatrixXd> B) const override;

 private:
  const Factorization& f_;
  const std::vector<Mat3>& q_;
};

/// Builds the sparsity pattern of A for the body's held/free split and analyses it.
void init_fem_system(const FemBody& body, FemSystem& sys);

/// Assembles A, solves for the free velocities.
///   x, v: #nodes×3 start-of-step positions and velocities
///   v_held: #nodes×3 end-of-step velocities of held nodes (others ignored)
///   applied: #nodes×3 gravity and driver forces [N]
///   v_free (out): #nodes×3 end-of-step velocities without constraints
/// Without reuse A is factorized every step.  With reuse the last factorization A₀ is kept
/// while conjugate gradients on A, preconditioned by A₀, reach an error estimate of
/// kCgTolerance · ‖Δv‖ within max_cg_iterations and A₀ is at most max_age steps old; otherwise
/// A is factorized (and solved directly) in this step.  sys.cg_iterations says which happened.
void fem_free_motion(const FemBody& body, const Material& material, const Points& x,
                     const Points& v, const Points& v_held, const Points& applied, double h,
                     FemSystem& sys, Points& v_free, const FactorizationReuse& reuse = {});

/// b ← A⁻¹ b with the step's A: the factorization's solve when it is this step's, otherwise
/// conjugate gradients preconditioned by the kept one (their iterations add to
/// sys.cg_iterations); when those do not converge within 3 × max_cg_iterations, A is
/// factorized now.  The correction's solve (docs/method.md §7.6): the constraint impulses act
/// through the step's own A, so a body at rest under balanced forces stays at rest.
void fem_solve_step_system(const FemBody& body, FemSystem& sys, const FactorizationReuse& reuse,
                           Eigen::Ref<VecX> b);

/// relative error estimate at which conjugate gradients on an old factorization stop
constexpr double kCgTolerance = 1e-10;
/// the longest wait (steps) before trying an old factorization again after failures
constexpr int kMaxCgBackoff = 8;

/// Conjugate gradients on A x = b preconditioned by the factorization M (of a nearby
/// matrix), started from x = M⁻¹ b, until the preconditioned residual M⁻¹ (b − A x), the
/// error estimate, is below tol · ‖x‖.  Returns the iterations used (0: M⁻¹ b was already
/// within it), or -1 when max_iterations did not reach it (x is then the last iterate).
/// r, z, p, q: scratch of b's size.
int preconditioned_cg(const SparseMatrix& A, const Factorization& M, const VecX& b, VecX& x,
                      int max_iterations, double tol, VecX& r, VecX& z, VecX& p, VecX& q);

/// Σ over `nodes` (held nodes) of the force the holder exerted during the step [N]:
///   r = (A Δv − b)/h = M Δv/h + α M v' + (β + h) K_w v' − f_el − f_applied
Vec3 fem_held_reaction(const FemBody& body, const Material& material, const FemSystem& sys,
                       const Points& v_old, const Points& v_new, double h,
                       const std::vector<int>& nodes);

}  // namespace suction
