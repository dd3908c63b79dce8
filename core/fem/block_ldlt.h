// Supernodal sparse Cholesky (L Lᵀ) for symmetric positive definite matrices made of dense
// node blocks (3×3 for FEM displacements), a faster drop-in for Eigen::SimplicialLDLT when the
// sparsity pattern is fixed and the values change (one analyze, many factorize).
//
//   analyze:   AMD on the node graph (each node's DOFs stay together), postordered elimination
//              tree, column counts, fundamental supernodes relaxed into larger ones, and every
//              index the numeric phase needs (scatter map of A's values, update lists).
//   factorize: left-looking supernodal L Lᵀ with register-blocked dense kernels written as
//              plain loops (no BLAS; as fast as Eigen's GEMM natively, much faster in scalar
//              WebAssembly), pure arithmetic.
//   solve:     permuted supernodal forward / backward substitution, one or several right-hand sides.
#pragma once
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstddef>
#include <utility>
#include <vector>

#include "fem/factorization.h"

namespace suction {

class BlockCholesky final : public Factorization {
 public:
  using SparseMatrix = Eigen::SparseMatrix<double>;
  using VecX = Eigen::VectorXd;
  using MatX = Eigen::MatrixXd;

  /// Symbolic analysis of A (square, column-major, full symmetric pattern; only the lower
  /// triangle's values are read).  block_size: DOFs per node (A's rows must be a multiple of
  /// it, otherwise 1 is used).  A's pattern must be the same in every later factorize().
  void analyze(const SparseMatrix& A, int block_size = 3);

  /// Numeric factorization of A (same pattern as in analyze).  Returns false when A is not
  /// (numerically) positive definite; the factor is then unusable until the next success.
  bool factorize(const SparseMatrix& A);

  /// x = A⁻¹ b (after a successful factorize()).
  VecX solve(const VecX& b) const;
  void solve_in_place(Eigen::Ref<VecX> b) const override;
  /// X = A⁻¹ B for several right-hand sides (the columns of B).
  MatX solve_many(const MatX& B) const;
  void solve_many_in_place(Eigen::Ref<MatX> B) const override;
  /// G = Bᵀ A⁻¹ B = Yᵀ Y with Y = L⁻¹ P B: forward substitution only, and for each column only
  /// over the supernodes it reaches (the union of the paths from its nonzeros' supernodes to
  /// the root of the elimination tree).  Columns are grouped (16) by their first supernode so
  /// that a group's paths are shared; block (p, q) of Yᵀ Y sums the products of groups p and q
  /// over the supernodes both reach.  Natively a wide root supernode, which every group reaches,
  /// is solved once for all groups (one blocked TRSM and one rank-k update, added last).  A compliance W = h H A⁻¹ Hᵀ with H's rows touching a few
  /// nodes each costs a fraction of a full solve per row.  The groups' substitutions and the
  /// blocks are tasks of parallel_for (common/parallel.h): the same numbers for any thread count.
  void inverse_quadratic_form(const SparseMatrix& B, MatX& G) const override;

  int rows() const override { return n_; }
  bool analyzed() const { return analyzed_; }
  bool factorized() const { return factorized_; }
  /// stored entries of L: the dense supernodal panels (explicit zeros of the relaxed supernodes
  /// and the unused upper triangles of the diagonal blocks included)
  size_t factor_nonzeros() const { return values_.size(); }
  int num_supernodes() const { return static_cast<int>(sn_col_.size()) - 1; }
  /// columns (DOFs) of supernode J, 0 <= J < num_supernodes()
  int supernode_columns(int J) const { return sn_col_[J + 1] - sn_col_[J]; }
  /// DOF permutation: perm()[k] is the original index of the k-th eliminated DOF
  const std::vector<int>& perm() const { return perm_; }

 private:
  struct Update {  // supernode `source` updates the target with its rows [r1, r2) × [r1, end)
    int source, r1, r2;
  };

  int n_ = 0;
  bool analyzed_ = false, factorized_ = false;
  std::vector<int> perm_;             // perm_[new] = old DOF
  std::vector<int> iperm_;            // iperm_[old DOF] = new
  std::vector<int> col_sn_;           // per permuted DOF: its supernode
  std::vector<int> sn_parent_;        // per supernode: parent in the elimination tree, -1 root
  std::vector<int> sn_col_;           // #supernodes+1: first (permuted) column of each supernode
  std::vector<int> sn_rowptr_;        // #supernodes+1: offsets into sn_rows_
  std::vector<int> sn_rows_;          // permuted row indices per supernode, own columns first
  std::vector<std::size_t> sn_valptr_;  // #supernodes+1: offsets into values_ (panels nrow×ncol)
  std::vector<double> values_;        // column-major supernodal panels of L
  std::vector<int> upd_ptr_;          // #supernodes+1: offsets into upd_ per target supernode
  std::vector<Update> upd_;
  std::ptrdiff_t a_nnz_ = 0;           // stored entries of A (the pattern factorize expects)
  std::vector<int> sn_aptr_;          // #supernodes+1: offsets into sn_amap_
  std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> sn_amap_;  // per panel: (A value, L value)
  std::vector<int> rel_;              // factorize workspace: target rows of an update
  std::vector<std::ptrdiff_t> tcol_;  // factorize workspace: target column offsets of an update
  std::vector<int> relpos_;           // per permuted row: position in the current target's rows
  // inverse_quadratic_form: columns per group, and its scratch (kept: a step allocates nothing)
  static constexpr int kGroup = 16;  // the rank-update kernel (add_atb) is written for 16
  mutable MatX iqf_gs_;
  mutable MatX iqf_root_;  // natively: all groups' rows at a wide root supernode, solved at once
  struct IqfScratch {  // per thread of parallel_for (common/parallel.h)
    std::vector<double> y;   // dense Y of one group: n × kGroup
    std::vector<int> mark;   // per supernode: the last group that reached it
    Eigen::Matrix<double, Eigen::Dynamic, kGroup, Eigen::RowMajor> t;  // wide supernodes' L21 X
  };
  mutable std::vector<IqfScratch> iqf_scratch_;
  struct IqfGroup {
    int m = 0;
    int cols[kGroup];
    std::vector<int> sn;          // reached supernodes, ascending
    std::vector<size_t> offset;   // per reached supernode: start of its rows in y
    std::vector<double> y;        // rows of the reached supernodes' columns, kGroup values each
  };
  mutable std::vector<IqfGroup> iqf_groups_;  // capacities kept between calls
  mutable std::vector<std::pair<int, int>> iqf_pairs_;  // the blocks (p, q ≤ p) of Yᵀ Y
  mutable std::vector<std::pair<int, int>> iqf_first_;
};

}  // namespace suction
