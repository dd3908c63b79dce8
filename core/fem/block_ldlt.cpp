#include "fem/block_ldlt.h"

#include "fem/block_kernels.h"

#include "common/parallel.h"

#include <Eigen/Cholesky>
#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace suction {

namespace {

// Relaxed supernode amalgamation (CHOLMOD-like rules, in DOF columns): a child supernode is
// merged into its parent when the merged one has at most kRelaxCols[i] columns and a fraction
// of explicit zeros below kRelaxZeros[i - 1] (always for i = 0; any size below kRelaxZeros[2]).
constexpr int kRelaxCols[3] = {4, 16, 48};
constexpr double kRelaxZeros[3] = {0.8, 0.1, 0.05};

// Elimination tree of the symmetric pattern given as, per column k, its neighbours j < k.
void elimination_tree(int n, const std::vector<int>& ptr, const std::vector<int>& idx,
                      std::vector<int>& parent) {
  std::vector<int> ancestor(n, -1);
  parent.assign(n, -1);
  for (int k = 0; k < n; ++k)
    for (int p = ptr[k]; p < ptr[k + 1]; ++p)
      for (int i = idx[p], next; i != -1 && i < k; i = next) {
        next = ancestor[i];
        ancestor[i] = k;
        if (next == -1) parent[i] = k;
      }
}

// Per (permuted) node k, its neighbours j < k in the node graph.
void permuted_lower(int nb, const Eigen::SparseMatrix<double>& G, const std::vector<int>& order,
                    std::vector<int>& ptr, std::vector<int>& idx) {
  std::vector<int> inv(nb);
  for (int k = 0; k < nb; ++k) inv[order[k]] = k;
  ptr.assign(nb + 1, 0);
  for (int j = 0; j < nb; ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(G, j); it; ++it)
      if (inv[it.row()] < inv[j]) ++ptr[inv[j] + 1];
  for (int k = 0; k < nb; ++k) ptr[k + 1] += ptr[k];
  idx.resize(ptr[nb]);
  std::vector<int> fill(ptr.begin(), ptr.end() - 1);
  for (int j = 0; j < nb; ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(G, j); it; ++it)
      if (inv[it.row()] < inv[j]) idx[fill[inv[j]]++] = inv[it.row()];
}

}  // namespace

using namespace block_kernels;

void BlockCholesky::analyze(const SparseMatrix& A, int block_size) {
  if (A.rows() != A.cols()) throw std::invalid_argument("BlockCholesky: matrix is not square");
  analyzed_ = factorized_ = false;
  n_ = static_cast<int>(A.rows());
  const int bs = (block_size >= 1 && n_ % block_size == 0) ? block_size : 1;
  const int nb = n_ / bs;

  // node graph (symmetrized, with diagonal) and its AMD ordering
  Eigen::SparseMatrix<double> G(nb, nb);
  {
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(A.nonZeros() / (bs * bs) * 2 + nb);
    for (int i = 0; i < nb; ++i) t.emplace_back(i, i, 1.0);
    for (int j = 0; j < n_; ++j)
      for (SparseMatrix::InnerIterator it(A, j); it; ++it) {
        const int bi = static_cast<int>(it.row()) / bs, bj = j / bs;
        if (bi == bj) continue;
        t.emplace_back(bi, bj, 1.0);
        t.emplace_back(bj, bi, 1.0);
      }
    G.setFromTriplets(t.begin(), t.end());
  }
  std::vector<int> order(nb);  // order[new] = old node
  if (nb > 1) {
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> P;
    Eigen::AMDOrdering<int>()(G, P);
    for (int k = 0; k < nb; ++k) order[k] = P.indices()[k];
  } else {
    for (int k = 0; k < nb; ++k) order[k] = k;
  }

  // elimination tree, postordered so that every subtree (hence every supernode) is contiguous
  std::vector<int> lptr, lidx, parent;
  permuted_lower(nb, G, order, lptr, lidx);
  elimination_tree(nb, lptr, lidx, parent);
  {
    std::vector<int> head(nb, -1), next(nb, -1), post, stack;
    post.reserve(nb);
    for (int j = nb - 1; j >= 0; --j)
      if (parent[j] != -1) {
        next[j] = head[parent[j]];
        head[parent[j]] = j;
      }
    for (int r = 0; r < nb; ++r) {
      if (parent[r] != -1) continue;
      stack.push_back(r);
      while (!stack.empty()) {  // iterative DFS: emit a node after all its children
        const int p = stack.back();
        const int c = head[p];
        if (c == -1) {
          stack.pop_back();
          post.push_back(p);
        } else {
          head[p] = next[c];
          stack.push_back(c);
        }
      }
    }
    std::vector<int> order2(nb);
    for (int k = 0; k < nb; ++k) order2[k] = order[post[k]];
    order.swap(order2);
  }
  permuted_lower(nb, G, order, lptr, lidx);
  elimination_tree(nb, lptr, lidx, parent);

  // column structures of the node-level factor (strictly below the diagonal), row by row
  std::vector<std::vector<int>> colstruct(nb);
  {
    std::vector<int> mark(nb, -1);
    for (int k = 0; k < nb; ++k) {
      mark[k] = k;
      for (int p = lptr[k]; p < lptr[k + 1]; ++p)
        for (int i = lidx[p]; mark[i] != k; i = parent[i]) {
          colstruct[i].push_back(k);
          mark[i] = k;
        }
    }
  }
  auto cnt = [&](int j) { return static_cast<long>(colstruct[j].size()); };

  // fundamental supernodes, then relaxed amalgamation (child merged into its parent when the
  // child is the parent's last child, i.e. numbered right before it)
  std::vector<int> fund;  // first node of each fundamental supernode
  for (int j = 0; j < nb; ++j)
    if (j == 0 || !(parent[j - 1] == j && cnt(j - 1) == cnt(j) + 1)) fund.push_back(j);
  fund.push_back(nb);
  std::vector<int> sn_node;  // first node of each supernode
  if (nb > 0) {
    auto real_nnz = [&](int a, int b) {
      long r = 0;
      for (int j = a; j < b; ++j) r += cnt(j) + 1;
      return r;
    };
    int a = fund[0];
    long real = real_nnz(fund[0], fund[1]);
    sn_node.push_back(a);
    for (size_t f = 1; f + 1 < fund.size(); ++f) {
      const int b = fund[f], c = fund[f + 1];
      const long real_t = real_nnz(b, c);
      bool merge = false;
      if (parent[b - 1] == b) {
        const long k = c - a;
        const long entries = k * (k + 1) / 2 + k * cnt(c - 1);
        const double zeros = static_cast<double>(entries - (real + real_t)) / entries;
        const long cols = k * bs;
        merge = (cols <= kRelaxCols[0]) || (cols <= kRelaxCols[1] && zeros < kRelaxZeros[0]) ||
                (cols <= kRelaxCols[2] && zeros < kRelaxZeros[1]) || zeros < kRelaxZeros[2];
      }
      if (merge) {
        real += real_t;
      } else {
        a = b;
        real = real_t;
        sn_node.push_back(a);
      }
    }
  }
  sn_node.push_back(nb);
  const int ns = static_cast<int>(sn_node.size()) - 1;

  // DOF-level supernodes
  perm_.resize(n_);
  for (int k = 0; k < nb; ++k)
    for (int d = 0; d < bs; ++d) perm_[k * bs + d] = order[k] * bs + d;
  sn_col_.resize(ns + 1);
  sn_rowptr_.assign(ns + 1, 0);
  sn_valptr_.assign(ns + 1, 0);
  sn_rows_.clear();
  std::vector<int> col_sn(n_);
  for (int s = 0; s < ns; ++s) {
    const int a = sn_node[s], b = sn_node[s + 1];
    sn_col_[s] = a * bs;
    for (int j = a; j < b; ++j)
      for (int d = 0; d < bs; ++d) {
        sn_rows_.push_back(j * bs + d);
        col_sn[j * bs + d] = s;
      }
    for (int j : colstruct[b - 1])
      for (int d = 0; d < bs; ++d) sn_rows_.push_back(j * bs + d);
    sn_rowptr_[s + 1] = static_cast<int>(sn_rows_.size());
    const size_t nrow = sn_rowptr_[s + 1] - sn_rowptr_[s];
    sn_valptr_[s + 1] = sn_valptr_[s] + nrow * (b - a) * bs;
  }
  sn_col_[ns] = n_;
  values_.assign(sn_valptr_[ns], 0.0);
  iperm_.resize(n_);
  for (int k = 0; k < n_; ++k) iperm_[perm_[k]] = k;
  col_sn_ = col_sn;
  sn_parent_.assign(ns, -1);
  for (int s = 0; s < ns; ++s) {
    const int nrow = sn_rowptr_[s + 1] - sn_rowptr_[s], ncol = sn_col_[s + 1] - sn_col_[s];
    if (nrow > ncol) sn_parent_[s] = col_sn[sn_rows_[sn_rowptr_[s] + ncol]];
  }

  // update lists: source supernode K, rows [r1, r2) of K fall in the columns of target J
  upd_ptr_.assign(ns + 1, 0);
  size_t max_m = 0, max_w = 0;
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> fill;
    if (pass == 1) {
      for (int s = 0; s < ns; ++s) upd_ptr_[s + 1] += upd_ptr_[s];
      upd_.resize(upd_ptr_[ns]);
      fill.assign(upd_ptr_.begin(), upd_ptr_.end() - 1);
    }
    for (int k = 0; k < ns; ++k) {
      const int begin = sn_rowptr_[k], end = sn_rowptr_[k + 1];
      const int ncol = sn_col_[k + 1] - sn_col_[k];
      for (int r1 = ncol; r1 < end - begin;) {
        const int t = col_sn[sn_rows_[begin + r1]];
        int r2 = r1 + 1;
        while (r2 < end - begin && sn_rows_[begin + r2] < sn_col_[t + 1]) ++r2;
        if (pass == 0) {
          ++upd_ptr_[t + 1];
          max_m = std::max(max_m, static_cast<size_t>(end - begin - r1));
          max_w = std::max(max_w, static_cast<size_t>(r2 - r1));
        } else {
          upd_[fill[t]++] = Update{k, r1, r2};
        }
        r1 = r2;
      }
    }
  }
  // (also the scratch of panel_cholesky_tiled: a wide panel's rows and a block's columns)
  for (int s = 0; s < ns; ++s) max_m = std::max(max_m, static_cast<size_t>(sn_rowptr_[s + 1] - sn_rowptr_[s]));
  rel_.resize(max_m);
  tcol_.resize(std::max(max_w, static_cast<size_t>(kTiledBlock)));
  relpos_.assign(n_, 0);

  // scatter map of A's values (lower triangle after permutation) into the panels, grouped by
  // supernode: factorize zeroes and fills each panel right before its updates, while it is in
  // cache.  Per stored entry q of A: its supernode (-1 above the diagonal) and place in values_.
  std::vector<int> inv(n_);
  for (int k = 0; k < n_; ++k) inv[perm_[k]] = k;
  std::vector<int> entry_sn;
  std::vector<std::ptrdiff_t> entry_at;
  entry_sn.reserve(A.nonZeros());
  entry_at.reserve(A.nonZeros());
  sn_aptr_.assign(ns + 1, 0);
  for (int j = 0; j < n_; ++j)
    for (SparseMatrix::InnerIterator it(A, j); it; ++it) {
      const int pi = inv[it.row()], pj = inv[j];
      if (pi < pj) {
        entry_sn.push_back(-1);
        entry_at.push_back(-1);
        continue;
      }
      const int s = col_sn[pj];
      const int* rb = sn_rows_.data() + sn_rowptr_[s];
      const int* re = sn_rows_.data() + sn_rowptr_[s + 1];
      const int* pos = std::lower_bound(rb, re, pi);
      if (pos == re || *pos != pi) throw std::logic_error("BlockCholesky: entry outside the factor");
      entry_sn.push_back(s);
      entry_at.push_back(static_cast<std::ptrdiff_t>(sn_valptr_[s]) +
                         static_cast<std::ptrdiff_t>(pj - sn_col_[s]) * (re - rb) + (pos - rb));
      ++sn_aptr_[s + 1];
    }
  a_nnz_ = static_cast<std::ptrdiff_t>(entry_sn.size());
  for (int J = 0; J < ns; ++J) sn_aptr_[J + 1] += sn_aptr_[J];
  sn_amap_.resize(sn_aptr_[ns]);
  std::vector<int> fill(sn_aptr_.begin(), sn_aptr_.end() - 1);
  for (std::ptrdiff_t q = 0; q < a_nnz_; ++q)
    if (entry_sn[q] >= 0) sn_amap_[fill[entry_sn[q]]++] = {q, entry_at[q]};
  analyzed_ = true;
}

bool BlockCholesky::factorize(const SparseMatrix& A) {
  if (!analyzed_ || A.rows() != n_ || A.cols() != n_)
    throw std::invalid_argument("BlockCholesky::factorize: not analysed for this matrix");
  factorized_ = false;
  if (!A.isCompressed()) {  // the scatter map indexes the compressed value array
    SparseMatrix compressed = A;
    compressed.makeCompressed();
    return factorize(compressed);
  }
  if (A.nonZeros() != a_nnz_) throw std::invalid_argument("BlockCholesky::factorize: pattern changed");
  const double* avals = A.valuePtr();

  const int ns = num_supernodes();
  int* rel = rel_.data();
  std::ptrdiff_t* tcol = tcol_.data();
  for (int J = 0; J < ns; ++J) {
    const int* rowsJ = sn_rows_.data() + sn_rowptr_[J];
    const int nJ = sn_rowptr_[J + 1] - sn_rowptr_[J];
    const int kJ = sn_col_[J + 1] - sn_col_[J];
    const int c0 = sn_col_[J];
    double* LJ = values_.data() + sn_valptr_[J];
    std::fill(LJ, values_.data() + sn_valptr_[J + 1], 0.0);  // explicit zeros of relaxed panels
    for (int q = sn_aptr_[J]; q < sn_aptr_[J + 1]; ++q) values_[sn_amap_[q].second] = avals[sn_amap_[q].first];
    if (upd_ptr_[J + 1] > upd_ptr_[J])
      for (int i = 0; i < nJ; ++i) relpos_[rowsJ[i]] = i;
    for (int u = upd_ptr_[J]; u < upd_ptr_[J + 1]; ++u) {
      const Update& up = upd_[u];
      const int K = up.source;
      const int* rowsK = sn_rows_.data() + sn_rowptr_[K];
      const int nK = sn_rowptr_[K + 1] - sn_rowptr_[K];
      const int kK = sn_col_[K + 1] - sn_col_[K];
      const int m = nK - up.r1, w = up.r2 - up.r1;
      for (int i = 0; i < m; ++i) rel[i] = relpos_[rowsK[up.r1 + i]];
      for (int c = 0; c < w; ++c)
        tcol[c] = static_cast<std::ptrdiff_t>(rowsK[up.r1 + c] - c0) * nJ;
      update(values_.data() + sn_valptr_[K] + up.r1, nK, kK, m, w, rel, tcol, LJ);
    }
    const bool ok = kJ < kBlockedPanel ? panel_cholesky(LJ, nJ, kJ)
                    : kEigenBlocked  ? panel_cholesky_blocked(LJ, nJ, kJ)
                                     : panel_cholesky_tiled(LJ, nJ, kJ, rel, tcol);
    if (!ok) return false;
  }
  factorized_ = true;
  return true;
}

void BlockCholesky::solve_many_in_place(Eigen::Ref<MatX> B) const {
  if (!factorized_) throw std::logic_error("BlockCholesky::solve: no factorization");
  if (B.rows() != n_) throw std::invalid_argument("BlockCholesky::solve: wrong size");
  // right-hand sides in chunks, stored row-major (the chunk's values of one row contiguous), so
  // each factor entry is read once per chunk and the inner loops run over contiguous columns
  constexpr Eigen::Index kChunk = 32;
  const int ns = num_supernodes();
  std::vector<double> ybuf;
  for (Eigen::Index c0 = 0; c0 < B.cols(); c0 += kChunk) {
    const int m = static_cast<int>(std::min(kChunk, B.cols() - c0));
    ybuf.assign(static_cast<size_t>(n_) * m, 0.0);
    double* __restrict Y = ybuf.data();
    for (int k = 0; k < n_; ++k)
      for (int c = 0; c < m; ++c) Y[static_cast<size_t>(k) * m + c] = B(perm_[k], c0 + c);
    for (int J = 0; J < ns; ++J) {  // L Y = B; a supernode whose block is still zero adds nothing
      const int* rows = sn_rows_.data() + sn_rowptr_[J];
      const int nJ = sn_rowptr_[J + 1] - sn_rowptr_[J];
      const int kJ = sn_col_[J + 1] - sn_col_[J];
      double* __restrict X = Y + static_cast<size_t>(sn_col_[J]) * m;
      bool zero = true;
      for (int q = 0; q < kJ * m && zero; ++q) zero = X[q] == 0.0;
      if (zero) continue;
      const double* L = values_.data() + sn_valptr_[J];
      for (int j = 0; j < kJ; ++j, L += nJ) {
        double* __restrict xj = X + static_cast<size_t>(j) * m;
        const double inv = 1.0 / L[j];
        for (int c = 0; c < m; ++c) xj[c] *= inv;
        for (int i = j + 1; i < kJ; ++i) {
          double* __restrict xi = X + static_cast<size_t>(i) * m;
          const double l = L[i];
          for (int c = 0; c < m; ++c) xi[c] -= l * xj[c];
        }
        for (int i = kJ; i < nJ; ++i) {
          double* __restrict yi = Y + static_cast<size_t>(rows[i]) * m;
          const double l = L[i];
          for (int c = 0; c < m; ++c) yi[c] -= l * xj[c];
        }
      }
    }
    std::vector<double> acc(m);
    for (int J = ns - 1; J >= 0; --J) {  // Lᵀ X = Y
      const int* rows = sn_rows_.data() + sn_rowptr_[J];
      const int nJ = sn_rowptr_[J + 1] - sn_rowptr_[J];
      const int kJ = sn_col_[J + 1] - sn_col_[J];
      double* __restrict X = Y + static_cast<size_t>(sn_col_[J]) * m;
      for (int j = kJ - 1; j >= 0; --j) {
        const double* L = values_.data() + sn_valptr_[J] + static_cast<std::ptrdiff_t>(j) * nJ;
        double* __restrict s = acc.data();
        const double* xj = X + static_cast<size_t>(j) * m;
        for (int c = 0; c < m; ++c) s[c] = xj[c];
        for (int i = j + 1; i < kJ; ++i) {
          const double* xi = X + static_cast<size_t>(i) * m;
          const double l = L[i];
          for (int c = 0; c < m; ++c) s[c] -= l * xi[c];
        }
        for (int i = kJ; i < nJ; ++i) {
          const double* yi = Y + static_cast<size_t>(rows[i]) * m;
          const double l = L[i];
          for (int c = 0; c < m; ++c) s[c] -= l * yi[c];
        }
        const double inv = 1.0 / L[j];
        double* out = X + static_cast<size_t>(j) * m;
        for (int c = 0; c < m; ++c) out[c] = s[c] * inv;
      }
    }
    for (int k = 0; k < n_; ++k)
      for (int c = 0; c < m; ++c) B(perm_[k], c0 + c) = Y[static_cast<size_t>(k) * m + c];
  }
}

void BlockCholesky::inverse_quadratic_form(const SparseMatrix& B, MatX& G) const {
  if (!factorized_) throw std::logic_error("BlockCholesky::inverse_quadratic_form: no factorization");
  if (B.rows() != n_) throw std::invalid_argument("BlockCholesky::inverse_quadratic_form: wrong size");
  const int k = static_cast<int>(B.cols());
  if (k == 0 || n_ == 0) {
    G.setZero(k, k);
    return;
  }
  G.resize(k, k);  // every entry is written at the end (no zeroing: it was a third of the memsets)
  const int ns = num_supernodes();
  // columns ordered by their first supernode (postorder: neighbours share their paths)
  // (the scratch below is kept between calls: a step's ~10 MB of temporaries fragmented the
  // heap, so that resident memory crept up over a long run and wasm memory grew a step)
  std::vector<std::pair<int, int>>& first = iqf_first_;
  first.resize(k);
  for (int c = 0; c < k; ++c) {
    int f = ns;
    for (SparseMatrix::InnerIterator it(B, c); it; ++it)
      if (it.value() != 0.0) f = std::min(f, col_sn_[iperm_[it.row()]]);
    first[c] = {f, c};
  }
  std::sort(first.begin(), first.end());
  constexpr int kChunk = kGroup;
  const int nchunks = (k + kChunk - 1) / kChunk;
  // per chunk: its columns, the supernodes it reaches (ascending) and Y on their columns
  using Chunk = IqfGroup;
  std::vector<Chunk>& chunks = iqf_groups_;
  if (static_cast<int>(chunks.size()) < nchunks) chunks.resize(nchunks);
  // per thread: the marks of reached supernodes and a dense Y (kept between calls: no
  // allocation per step); the groups are independent, so each is one task of a parallel loop
  const int workers = thread_count();
  if (static_cast<int>(iqf_scratch_.size()) < workers) iqf_scratch_.resize(workers);
  for (int w = 0; w < workers; ++w) {
    iqf_scratch_[w].mark.assign(ns, -1);
    iqf_scratch_[w].y.resize(static_cast<size_t>(n_) * kChunk);
  }
  // The root supernode (the last in postorder), which on a connected body every group reaches:
  // natively, when it is wide, the groups leave their rows there unsolved in YR (one block of
  // kChunk columns each), and one blocked TRSM and one rank-k update over all of them replace a
  // TRSM per group and a 16 × 16 product per pair of groups (the cup's 240-column root was
  // two thirds of the work).  Its share of each block still comes last, as in ascending order.
  const int root = ns - 1;
  const int k_root = sn_col_[root + 1] - sn_col_[root];
  const bool gather_root = kEigenBlocked && nchunks > 1 && sn_parent_[root] < 0 && k_root >= kBlockedPanel / 2 &&
                           sn_rowptr_[root + 1] - sn_rowptr_[root] == k_root;
  MatX& YR = iqf_root_;
  if (gather_root) YR.resize(k_root, kChunk * nchunks);  // each group writes its columns
  parallel_for(nchunks, [&](int p, int worker) {
    std::vector<int>& mark = iqf_scratch_[worker].mark;
    Chunk& ch = chunks[p];
    ch.sn.clear();
    ch.m = std::min(kChunk, k - p * kChunk);
    constexpr int m = kChunk;  // a short last chunk is padded with zero columns
    for (int c = 0; c < ch.m; ++c) {
      ch.cols[c] = first[p * kChunk + c].second;
      // the union of the paths from each nonzero's supernode to the root
      for (SparseMatrix::InnerIterator it(B, ch.cols[c]); it; ++it)
        for (int J = col_sn_[iperm_[it.row()]]; J >= 0 && mark[J] != p; J = sn_parent_[J]) {
          mark[J] = p;
          ch.sn.push_back(J);
        }
    }
    std::sort(ch.sn.begin(), ch.sn.end());
    double* __restrict Y = iqf_scratch_[worker].y.data();
    for (int J : ch.sn)
      std::fill(Y + static_cast<size_t>(sn_col_[J]) * m, Y + static_cast<size_t>(sn_col_[J + 1]) * m, 0.0);
    for (int c = 0; c < ch.m; ++c)
      for (SparseMatrix::InnerIterator it(B, ch.cols[c]); it; ++it)
        Y[static_cast<size_t>(iperm_[it.row()]) * m + c] += it.value();
    for (int J : ch.sn) {  // L Y = P B over the reached supernodes, in elimination order
      const int* rows = sn_rows_.data() + sn_rowptr_[J];
      const int nJ = sn_rowptr_[J + 1] - sn_rowptr_[J];
      const int kJ = sn_col_[J + 1] - sn_col_[J];
      double* __restrict X = Y + static_cast<size_t>(sn_col_[J]) * m;
      const double* L = values_.data() + sn_valptr_[J];
      if (gather_root && J == root) {  // the root's rows, unsolved, into this group's columns of YR
        for (int c = 0; c < m; ++c)
          for (int r = 0; r < kJ; ++r) YR(r, p * kChunk + c) = X[static_cast<size_t>(r) * m + c];
        continue;
      }
      if (kEigenBlocked && kJ >= kBlockedPanel / 2) {  // a wide supernode: Eigen's blocked TRSM and GEMM
        using Stride = Eigen::OuterStride<>;
        Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, m, Eigen::RowMajor>> Xm(X, kJ, m);
        const Eigen::Map<const Eigen::MatrixXd, 0, Stride> L11(L, kJ, kJ, Stride(nJ));
        L11.triangularView<Eigen::Lower>().solveInPlace(Xm);
        if (nJ > kJ) {
          const Eigen::Map<const Eigen::MatrixXd, 0, Stride> L21(L + kJ, nJ - kJ, kJ, Stride(nJ));
          auto& T = iqf_scratch_[worker].t;
          T.noalias() = L21 * Xm;
          for (int i = kJ; i < nJ; ++i)
            Eigen::Map<Eigen::Array<double, 1, m>>(Y + static_cast<size_t>(rows[i]) * m) -= T.row(i - kJ).array();
        }
        continue;
      }
      // four columns at a time: their 4 × 4 triangle column by column (x_j /= L_jj, the rows
      // below in the block lose L_ij x_j), then every row below the block loses L_ij x_j for the
      // four j in order, held in registers meanwhile: each entry sees the same operations in the
      // same order as column by column, with a quarter of the loads and stores (16-wide rows,
      // plain loops that vectorize natively and in WebAssembly, where Eigen's would be scalar)
      int j = 0;
      for (; j + 4 <= kJ; j += 4) {
        const double* Lb = L + static_cast<size_t>(j) * nJ;  // column j of the panel
        alignas(32) double t[4][m];
        for (int q = 0; q < 4; ++q) {
          const double* Lq = Lb + static_cast<size_t>(q) * nJ;
          double* __restrict xq = X + static_cast<size_t>(j + q) * m;
          const double inv = 1.0 / Lq[j + q];
          for (int c = 0; c < m; ++c) t[q][c] = xq[c] *= inv;
          for (int i = j + q + 1; i < j + 4; ++i) subtract_scaled_row<m>(X + static_cast<size_t>(i) * m, Lq[i], t[q]);
        }
        const double* L1 = Lb + nJ;
        const double* L2 = L1 + nJ;
        const double* L3 = L2 + nJ;
        for (int i = j + 4; i < kJ; ++i)
          subtract_scaled_rows4<m>(X + static_cast<size_t>(i) * m, Lb[i], L1[i], L2[i], L3[i], t);
        for (int i = kJ; i < nJ; ++i)
          subtract_scaled_rows4<m>(Y + static_cast<size_t>(rows[i]) * m, Lb[i], L1[i], L2[i], L3[i], t);
      }
      for (L += static_cast<size_t>(j) * nJ; j < kJ; ++j, L += nJ) {  // the last columns one by one
        double* __restrict xj = X + static_cast<size_t>(j) * m;
        const double inv = 1.0 / L[j];
        alignas(32) double t[m];
        for (int c = 0; c < m; ++c) t[c] = xj[c] *= inv;
        for (int i = j + 1; i < kJ; ++i) subtract_scaled_row<m>(X + static_cast<size_t>(i) * m, L[i], t);
        for (int i = kJ; i < nJ; ++i) subtract_scaled_row<m>(Y + static_cast<size_t>(rows[i]) * m, L[i], t);
      }
    }
    if (gather_root) {
      if (!ch.sn.empty() && ch.sn.back() == root)
        ch.sn.pop_back();  // (solved in YR)
      else
        YR.middleCols(p * kChunk, kChunk).setZero();  // a group that does not reach the root
    }
    size_t total = 0;
    ch.offset.resize(ch.sn.size());
    for (size_t q = 0; q < ch.sn.size(); ++q) {
      ch.offset[q] = total;
      total += static_cast<size_t>(sn_col_[ch.sn[q] + 1] - sn_col_[ch.sn[q]]) * m;
    }
    ch.y.resize(total);
    for (size_t q = 0; q < ch.sn.size(); ++q) {
      const int J = ch.sn[q];
      std::copy(Y + static_cast<size_t>(sn_col_[J]) * m, Y + static_cast<size_t>(sn_col_[J + 1]) * m,
                ch.y.begin() + ch.offset[q]);
    }
  });
  // G = Yᵀ Y = Σ_J Y_Jᵀ Y_J over the supernodes J.  Block (p, q) of Gs (the groups' column
  // order), p ≥ q, sums Y_{J,p}ᵀ Y_{J,q} over the supernodes both groups reach, in ascending J:
  // one task per block, each block written by one task in the same order whatever the threads
  MatX& Gs = iqf_gs_;
  Gs.resize(kChunk * nchunks, kChunk * nchunks);  // each task zeroes its block: the lower half only
  const Eigen::Index ldg = Gs.outerStride();
  std::vector<std::pair<int, int>>& pairs = iqf_pairs_;
  pairs.clear();
  for (int q = 0; q < nchunks; ++q)
    for (int p = q; p < nchunks; ++p) pairs.push_back({p, q});
  parallel_for(static_cast<int>(pairs.size()), [&](int t, int) {
    const auto [p, q] = pairs[t];
    const Chunk& cp = chunks[p];
    const Chunk& cq = chunks[q];
    double* C = Gs.data() + kChunk * p + kChunk * q * ldg;
    for (int j = 0; j < kChunk; ++j) std::fill(C + j * ldg, C + j * ldg + kChunk, 0.0);
    for (size_t a = 0, b = 0; a < cp.sn.size() && b < cq.sn.size();) {
      if (cp.sn[a] < cq.sn[b]) {
        ++a;
      } else if (cq.sn[b] < cp.sn[a]) {
        ++b;
      } else {
        const int J = cp.sn[a];
        add_atb(cp.y.data() + cp.offset[a], cq.y.data() + cq.offset[b], sn_col_[J + 1] - sn_col_[J], C, ldg);
        ++a;
        ++b;
      }
    }
  });
  if (gather_root) {  // L_RR Y_R = YR, then the lower triangle of Gs gains Y_Rᵀ Y_R
    using Stride = Eigen::OuterStride<>;
    const Eigen::Map<const MatX, 0, Stride> LRR(values_.data() + sn_valptr_[root], k_root, k_root, Stride(k_root));
    LRR.triangularView<Eigen::Lower>().solveInPlace(YR);
    Gs.selfadjointView<Eigen::Lower>().rankUpdate(YR.transpose());
  }
  for (int q = 0; q < nchunks; ++q)
    for (int j = 0; j < chunks[q].m; ++j)
      for (int p = q; p < nchunks; ++p)
        for (int i = p == q ? j : 0; i < chunks[p].m; ++i) {
          const double v = Gs(kChunk * p + i, kChunk * q + j);
          G(chunks[p].cols[i], chunks[q].cols[j]) = v;
          G(chunks[q].cols[j], chunks[p].cols[i]) = v;
        }
}

void BlockCholesky::solve_in_place(Eigen::Ref<VecX> b) const {
  if (!factorized_) throw std::logic_error("BlockCholesky::solve: no factorization");
  if (b.size() != n_) throw std::invalid_argument("BlockCholesky::solve: wrong size");
  // y: the permuted right-hand side, solved in place; t: one supernode's rows below its
  // diagonal block, contiguous (their sums in the forward pass, their values in the backward)
  std::vector<double> buf(2 * static_cast<size_t>(n_));
  double* __restrict y = buf.data();
  double* __restrict t = y + n_;
  for (int k = 0; k < n_; ++k) y[k] = b[perm_[k]];
  const int ns = num_supernodes();
  for (int J = 0; J < ns; ++J) {  // L y = b
    const int* rows = sn_rows_.data() + sn_rowptr_[J];
    const int nJ = sn_rowptr_[J + 1] - sn_rowptr_[J];
    const int kJ = sn_col_[J + 1] - sn_col_[J];
    const int m = nJ - kJ;
    const double* L = values_.data() + sn_valptr_[J];
    double* __restrict x = y + sn_col_[J];
    std::fill(t, t + m, 0.0);
    for (int j = 0; j < kJ; ++j, L += nJ) {
      const double xj = (x[j] /= L[j]);
      for (int i = j + 1; i < kJ; ++i) x[i] -= L[i] * xj;
      axpy(t, xj, L + kJ, m);  // L21 x, column by column
    }
    for (int i = 0; i < m; ++i) y[rows[kJ + i]] -= t[i];  // one scatter per supernode
  }
  for (int J = ns - 1; J >= 0; --J) {  // Lᵀ x = y: x_j = (y_j − L11ᵀ x − L21ᵀ y_below) / L_jj
    const int* rows = sn_rows_.data() + sn_rowptr_[J];
    const int nJ = sn_rowptr_[J + 1] - sn_rowptr_[J];
    const int kJ = sn_col_[J + 1] - sn_col_[J];
    const int m = nJ - kJ;
    double* __restrict x = y + sn_col_[J];
    for (int i = 0; i < m; ++i) t[i] = y[rows[kJ + i]];  // gathered once per supernode
    for (int j = kJ - 1; j >= 0; --j) {
      const double* L = values_.data() + sn_valptr_[J] + static_cast<std::ptrdiff_t>(j) * nJ;
      const double below = dot(L + kJ, t, m);  // independent of the other columns
      x[j] = (x[j] - dot(L + j + 1, x + j + 1, kJ - j - 1) - below) / L[j];
    }
  }
  for (int k = 0; k < n_; ++k) b[perm_[k]] = y[k];
}

BlockCholesky::VecX BlockCholesky::solve(const VecX& b) const {
  VecX x = b;
  solve_in_place(x);
  return x;
}

BlockCholesky::MatX BlockCholesky::solve_many(const MatX& B) const {
  MatX X = B;
  solve_many_in_place(X);
  return X;
}

}  // namespace suction
