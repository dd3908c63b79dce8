// Dense kernels of the supernodal Cholesky (block_ldlt.cpp only; internal, not part of the
// core's interface): the factorization's update tiles and panel factorizations, the
// compliance's row updates and its Yᵀ Y block.  Plain loops, on 4-double vectors where hot,
// so the same code runs natively and in WebAssembly (decisions.md, 2026-11-25 and -26).
#pragma once
#include <algorithm>
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cmath>
#include <cstddef>
#include <cstring>

namespace suction::block_kernels {

// ---- dense kernels (plain loops, on 4-double vectors where hot: the same code natively and in
// WebAssembly) ----

// Four doubles as one value (GCC/clang vector extension): one AVX register natively, two SSE2
// or SIMD128 registers otherwise.  The hot kernels below are written with it because GCC's
// vectorizer turned their plain loops into lane-reversing loads (vpermpd per load, a shuffle
// per two FMAs); with explicit vectors every load is a plain vmovupd.  The arithmetic per
// entry is unchanged (acc += a·b in the same order), so are the bits.
typedef double v4d __attribute__((vector_size(32)));
#if defined(__GNUC__)
// Without AVX (SUCTION_NATIVE_ARCH=none, or clang without -march) GCC and clang note, at every
// call, that returning a v4d changes the ABI.  These helpers are inline and only block_ldlt.cpp
// includes this header, so that ABI never meets code compiled with other flags.  Off from here
// on (the compilers report at the calls, so a push/pop around the helpers would not do).
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
inline v4d load4(const double* p) {
  v4d v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store4(double* p, const v4d& v) { std::memcpy(p, &v, sizeof v); }
inline v4d splat4(double x) { return v4d{x, x, x, x}; }

// Tile of the update T -= X Xᵀ: rows [i0, i0+MR) × columns [j0, j0+NR) of X X[0:w]ᵀ, X with k
// columns and leading dimension ld; row i goes to T[rel[i] + tcol[j]].
template <int MR, int NR>
inline void update_tile(const double* X, int ld, int k, int i0, int j0, const int* rel,
                        const std::ptrdiff_t* tcol, double* T) {
  // acc[j] is a column of the tile: its MR rows are contiguous in X's columns, so the inner
  // loop is one vector FMA per column with b[j] broadcast (acc[i][j] made the compiler shuffle)
  double acc[NR][MR] = {};
  const double* a = X + i0;
  const double* b = X + j0;
  for (int p = 0; p < k; ++p, a += ld, b += ld) {
    double av[MR];
    for (int i = 0; i < MR; ++i) av[i] = a[i];
    for (int j = 0; j < NR; ++j) {
      const double bj = b[j];
      for (int i = 0; i < MR; ++i) acc[j][i] += av[i] * bj;
    }
  }
  for (int j = 0; j < NR; ++j) {
    double* t = T + tcol[j0 + j];
    for (int i = 0; i < MR; ++i) t[rel[i0 + i]] -= acc[j][i];
  }
}

// The same tile with MR a multiple of 4, on v4d columns.
template <int MR, int NR>
inline void update_tile_v(const double* X, int ld, int k, int i0, int j0, const int* rel,
                          const std::ptrdiff_t* tcol, double* T) {
  constexpr int V = MR / 4;
  v4d acc[NR][V] = {};
  const double* a = X + i0;
  const double* b = X + j0;
  for (int p = 0; p < k; ++p, a += ld, b += ld) {
    v4d av[V];
    for (int v = 0; v < V; ++v) av[v] = load4(a + 4 * v);
    for (int j = 0; j < NR; ++j) {
      const v4d bj = splat4(b[j]);
      for (int v = 0; v < V; ++v) acc[j][v] += av[v] * bj;
    }
  }
  for (int j = 0; j < NR; ++j) {
    double* t = T + tcol[j0 + j];
    for (int v = 0; v < V; ++v)
      for (int l = 0; l < 4; ++l) t[rel[i0 + 4 * v + l]] -= acc[j][v][l];
  }
}

// Tile shape: 8 rows × 3 columns natively (6 ymm accumulators), 8 × 2 in WebAssembly (8 of an
// x86 engine's 16 SIMD registers accumulate; 8 × 3 spilled: the factorization ran about 14 %
// slower under node).  Every entry sums the same products in the same order either way.
#if defined(__EMSCRIPTEN__)
constexpr int kMR = 8, kNR = 2;
#else
constexpr int kMR = 8, kNR = 3;
#endif
static_assert(kMR == 8 && kNR >= 1 && kNR <= 3, "update_strip's and update's remainders assume these");

template <int NR>
inline void update_strip(const double* X, int ld, int k, int m, int j0, const int* rel,
                  const std::ptrdiff_t* tcol, double* T) {
  int i0 = j0;
  for (; i0 + kMR <= m; i0 += kMR) update_tile_v<kMR, NR>(X, ld, k, i0, j0, rel, tcol, T);
  if (i0 + 4 <= m) {
    update_tile_v<4, NR>(X, ld, k, i0, j0, rel, tcol, T);
    i0 += 4;
  }
  switch (m - i0) {
    case 1: update_tile<1, NR>(X, ld, k, i0, j0, rel, tcol, T); break;
    case 2: update_tile<2, NR>(X, ld, k, i0, j0, rel, tcol, T); break;
    case 3: update_tile<3, NR>(X, ld, k, i0, j0, rel, tcol, T); break;
    default: break;
  }
}

// T[rel[i] + tcol[j]] -= (X X[0:w]ᵀ)(i, j) for j < w, i ≥ j (plus a few harmless entries above
// the diagonal of the target's diagonal block, which is never read).
inline void update(const double* X, int ld, int k, int m, int w, const int* rel,
            const std::ptrdiff_t* tcol, double* T) {
  int j0 = 0;
  for (; j0 + kNR <= w; j0 += kNR) update_strip<kNR>(X, ld, k, m, j0, rel, tcol, T);
  switch (w - j0) {
    case 1: update_strip<1>(X, ld, k, m, j0, rel, tcol, T); break;
    case 2: update_strip<2>(X, ld, k, m, j0, rel, tcol, T); break;
    default: break;
  }
}

// In-place Cholesky of a panel (n rows × k columns, leading dimension ld ≥ n): the top k×k
// block becomes L11 (lower), the rows below L21 = A21 L11⁻ᵀ.  False if a pivot is not positive.
inline bool panel_cholesky(double* L, int n, int k, int ld) {
  for (int j = 0; j < k; ++j) {
    double* cj = L + static_cast<std::ptrdiff_t>(j) * ld;
    int p = 0;
    for (; p + 4 <= j; p += 4) {
      const double* c0 = L + static_cast<std::ptrdiff_t>(p) * ld;
      const double* c1 = c0 + ld;
      const double* c2 = c1 + ld;
      const double* c3 = c2 + ld;
      const double l0 = c0[j], l1 = c1[j], l2 = c2[j], l3 = c3[j];
      for (int i = j; i < n; ++i) cj[i] -= l0 * c0[i] + l1 * c1[i] + l2 * c2[i] + l3 * c3[i];
    }
    for (; p < j; ++p) {
      const double* c0 = L + static_cast<std::ptrdiff_t>(p) * ld;
      const double l0 = c0[j];
      for (int i = j; i < n; ++i) cj[i] -= l0 * c0[i];
    }
    const double d = cj[j];
    if (!(d > 0.0)) return false;  // also NaN
    const double s = std::sqrt(d);
    cj[j] = s;
    const double inv = 1.0 / s;
    for (int i = j + 1; i < n; ++i) cj[i] *= inv;
  }
  return true;
}
inline bool panel_cholesky(double* L, int n, int k) { return panel_cholesky(L, n, k, n); }

// The same for a wide panel in blocks of kTiledBlock columns, on the update tiles above: each
// block first loses the products of the columns before it (one update() over all of them,
// accumulated in registers), then panel_cholesky factors it over its own columns.  The plain
// loop's column j reads all j columns before it once per column; here each tile reads them once
// per kMR × kNR entries.  rel and tcol: scratch of n and kTiledBlock entries.  Where Eigen's
// kernels are scalar (WebAssembly), this replaces panel_cholesky_blocked below.
constexpr int kTiledBlock = 32;
inline bool panel_cholesky_tiled(double* L, int n, int k, int* rel, std::ptrdiff_t* tcol) {
  // a block's rows and columns are the panel's own (no scatter): the same maps for every block
  for (int i = 0; i < n; ++i) rel[i] = i;
  for (int c = 0; c < kTiledBlock; ++c) tcol[c] = static_cast<std::ptrdiff_t>(c) * n;
  for (int j0 = 0; j0 < k; j0 += kTiledBlock) {
    const int b = std::min(kTiledBlock, k - j0);
    double* block = L + static_cast<std::ptrdiff_t>(j0) * n + j0;
    if (j0 > 0) update(L + j0, n, j0, n - j0, b, rel, tcol, block);
    if (!panel_cholesky(block, n - j0, b, n)) return false;
  }
  return true;
}

// The same for a wide panel, by Eigen's blocked kernels: L11 by its blocked LLT (GEMM-based
// updates), L21 = A21 L11⁻ᵀ by a triangular solve.  The column loop above runs at about a
// GFLOP/s; the cup's root supernode (240 columns) alone is 4.6 MFLOP.
// In WebAssembly, Eigen 3.4 has no SIMD backend and its GEMM kernel is scalar, while our plain
// loops are vectorized by the compiler (SIMD128): there the wide panels take panel_cholesky_tiled
// and the compliance's wide supernodes the plain loops (docs/decisions.md, Speed).
#if defined(__EMSCRIPTEN__)
constexpr bool kEigenBlocked = false;
#else
constexpr bool kEigenBlocked = true;
#endif
constexpr int kBlockedPanel = 64;
inline bool panel_cholesky_blocked(double* L, int n, int k) {
  using Stride = Eigen::OuterStride<>;
  Eigen::Map<Eigen::MatrixXd, 0, Stride> P(L, n, k, Stride(n));
  Eigen::Ref<Eigen::MatrixXd, 0, Stride> top(P.topRows(k));
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd, 0, Stride>> llt(top);  // in place
  if (llt.info() != Eigen::Success) return false;
  if (n > k) P.topRows(k).triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(P.bottomRows(n - k));
  return true;
}

// a · b over n doubles, in eight lanes (two v4d) summed in a fixed order, then the tail: the
// substitutions' dot products, which as one scalar chain waited on each FMA's latency (the
// backward solve was 40 % of solve_in_place's time on one such chain).  The same n gives the
// same bits, whatever the alignment.
inline double dot(const double* __restrict a, const double* __restrict b, int n) {
  v4d s0 = {}, s1 = {};
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    s0 += load4(a + i) * load4(b + i);
    s1 += load4(a + i + 4) * load4(b + i + 4);
  }
  if (i + 4 <= n) {
    s0 += load4(a + i) * load4(b + i);
    i += 4;
  }
  const v4d s = s0 + s1;
  double r = (s[0] + s[2]) + (s[1] + s[3]);
  for (; i < n; ++i) r += a[i] * b[i];
  return r;
}

// y += a x over n doubles
inline void axpy(double* __restrict y, double a, const double* __restrict x, int n) {
  for (int i = 0; i < n; ++i) y[i] += a * x[i];
}

// y -= a t for rows of M doubles
template <int M>
inline void subtract_scaled_row(double* __restrict y, double a, const double* __restrict t) {
  static_assert(M % 4 == 0, "rows of whole v4d");
  const v4d av = splat4(a);
  for (int c = 0; c < M; c += 4) store4(y + c, load4(y + c) - av * load4(t + c));
}

// y -= a0 t[0], then a1 t[1], a2 t[2], a3 t[3] (in that order, y held in registers)
template <int M>
inline void subtract_scaled_rows4(double* __restrict y, double a0, double a1, double a2, double a3,
                                  const double (*__restrict t)[M]) {
  static_assert(M % 4 == 0, "rows of whole v4d");
  const v4d b0 = splat4(a0), b1 = splat4(a1), b2 = splat4(a2), b3 = splat4(a3);
  for (int c = 0; c < M; c += 4) {
    v4d v = load4(y + c);
    v -= b0 * load4(t[0] + c);
    v -= b1 * load4(t[1] + c);
    v -= b2 * load4(t[2] + c);
    v -= b3 * load4(t[3] + c);
    store4(y + c, v);
  }
}

// C += Aᵀ B for two k × 16 row-major blocks A, B (the rows of one supernode's columns of two
// groups of Y); C is a 16 × 16 block of a column-major matrix with leading dimension ldc.
// Two rows of C at a time: the inner loop is a kAtbWidth-wide part of a row of B times a
// broadcast of A, which vectorizes natively (AVX2: 8 FMAs per p, 8 of the 16 ymm registers
// accumulating) and in WebAssembly SIMD, where Eigen 3.4's GEMM is scalar (it has no wasm SIMD
// backend).  WebAssembly takes half rows: its 2-wide vectors would need all 16 SIMD registers
// of an x86 engine for 2 × 16 accumulators and spill.  Either way each entry of C sums the
// same products in the same order.
#if defined(__EMSCRIPTEN__)
constexpr int kAtbWidth = 8;
#else
constexpr int kAtbWidth = 16;
#endif
inline void add_atb(const double* __restrict A, const double* __restrict B, int k, double* C, Eigen::Index ldc) {
  constexpr int G = 16, V = kAtbWidth / 4;
  for (int j0 = 0; j0 < G; j0 += kAtbWidth)
    for (int i0 = 0; i0 < G; i0 += 2) {
      v4d acc0[V] = {}, acc1[V] = {};
      const double* a = A + i0;
      const double* b = B + j0;
      for (int p = 0; p < k; ++p, a += G, b += G) {
        const v4d a0 = splat4(a[0]), a1 = splat4(a[1]);
        for (int v = 0; v < V; ++v) {
          const v4d bv = load4(b + 4 * v);
          acc0[v] += a0 * bv;
          acc1[v] += a1 * bv;
        }
      }
      for (int v = 0; v < V; ++v)
        for (int l = 0; l < 4; ++l) {
          C[i0 + (j0 + 4 * v + l) * ldc] += acc0[v][l];
          C[i0 + 1 + (j0 + 4 * v + l) * ldc] += acc1[v][l];
        }
    }
}

}  // namespace suction::block_kernels
