// The implicit Euler free motion of one FEM body (docs/method.md §3):
//   A Δv = b,  A = (1 + hα) M + (hβ + h²) K_w,  b = h (f_el + f_ext − α M v − β K_w v) − h² K_w v
// with K_w = Σ_e R_e K_e R_eᵀ the warped stiffness (K = −K_w, B = −(αM + βK_w)).  Held nodes
// (fixed or driven) have a prescribed velocity and are removed from A; their coupling goes to b.
// The factorization of A is kept for every other A⁻¹ product of the step.
#pragma once
#include <Eigen/SparseCore>
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
};

/// Builds the sparsity pattern of A for the body's held/free split and analyses it.
void init_fem_system(const FemBody& body, FemSystem& sys);

/// Assembles and factorizes A, solves for the free velocities.
///   x, v: #nodes×3 start-of-step positions and velocities
///   v_held: #nodes×3 end-of-step velocities of held nodes (others ignored)
///   applied: #nodes×3 gravity and driver forces [N]
///   v_free (out): #nodes×3 end-of-step velocities without constraints
void fem_free_motion(const FemBody& body, const Material& material, const Points& x,
                     const Points& v, const Points& v_held, const Points& applied, double h,
                     FemSystem& sys, Points& v_free);

/// Σ over `nodes` (held nodes) of the force the holder exerted during the step [N]:
///   r = (A Δv − b)/h = M Δv/h + α M v' + (β + h) K_w v' − f_el − f_applied
Vec3 fem_held_reaction(const FemBody& body, const Material& material, const FemSystem& sys,
                       const Points& v_old, const Points& v_new, double h,
                       const std::vector<int>& nodes);

}  // namespace suction
