// The GPU half of the CUDA compliance backend; see dense_compliance.h and docs/method.md §7.4.
// One stream, one cuBLAS and one cuSOLVER handle per backend; every buffer is kept between
// steps and grows geometrically.  All work of a step is queued on the stream and waited for
// once, in finish().  Every result is written without atomics, in a fixed order: the same
// input gives the same W bit for bit.
#include "dense_compliance.h"

#include "cuda_buffers.cuh"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace suction::cuda {

namespace {

using namespace detail;

/// Host data sent to the device each step: copied into page-locked staging (the caller's
/// array may change before the stream runs), then queued on the stream.
template <class T>
struct Upload {
  PinnedBuffer<T> host;
  DeviceBuffer<T> device;
  const T* send(const T* data, size_t n, cudaStream_t stream) {
    host.reserve(std::max<size_t>(n, 1));
    device.reserve(std::max<size_t>(n, 1));
    std::memcpy(host.ptr, data, sizeof(T) * n);
    check(cudaMemcpyAsync(device.ptr, host.ptr, sizeof(T) * n, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    return device.ptr;
  }
};

// A_dense[map[e]] = values[e] for the lower-triangle entries (map[e] >= 0)
__global__ void scatter_values(int nnz, const long long* map, const double* values, double* A) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < nnz && map[e] >= 0) A[map[e]] = values[e];
}

// Ht[col·n + dof] = value (distinct (dof, col) pairs: plain stores)
__global__ void scatter_entries(int ne, int n, const int* dof, const int* col, const double* value, double* Ht) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < ne) Ht[static_cast<size_t>(col[e]) * n + dof[e]] = value[e];
}

// W[rows[i], rows[j]] += Wb[i, j] and its mirror, from Wb's lower triangle (i ≥ j): W stays
// exactly symmetric; rows are distinct, so no two threads touch the same entry.
__global__ void add_block(int kb, const double* Wb, const int* rows, int k, double* W) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= kb || j >= kb || i < j) return;
  const double v = Wb[static_cast<size_t>(j) * kb + i];
  const size_t ri = rows[i], rj = rows[j];
  W[rj * k + ri] += v;
  if (i != j) W[ri * k + rj] += v;
}

constexpr int kThreads = 256;
int blocks_for(long long n) { return static_cast<int>((n + kThreads - 1) / kThreads); }

}  // namespace

struct FemBuffers {
  // the cached pattern: host copies to detect a change, and the dense index of each entry
  std::vector<int> outer, inner;
  int n = -1;
  DeviceBuffer<long long> map;
  DeviceBuffer<double> A, work, Y, Wb;
  Upload<double> values, entry_value;  // values.host: what the last factorize() used
  Upload<int> rows, entry_dof, entry_col;
  int lwork = 0;
  bool factorized = false;  // since the last finish()
  bool used = false;        // added to this step's W
};

struct RigidBuffers {
  DeviceBuffer<double> Wb;
  Upload<double> J, MinvJ;
  Upload<int> rows;
};

struct DenseCompliance::Impl {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  std::vector<FemBuffers> fem;
  std::vector<RigidBuffers> rigid;
  DeviceBuffer<double> W;
  DeviceBuffer<int> info;  // one per FEM body: cuSOLVER's potrf info
  PinnedBuffer<double> h_W;
  PinnedBuffer<int> h_info;
  int k = 0;
  // optional timing: (phase, start, end) events of this step, from a reused pool
  bool timing = false;
  DenseCompliance::Timings timings;
  std::vector<cudaEvent_t> pool;
  struct Mark { int phase; int start, end; };
  std::vector<Mark> marks;
  int used = 0;
  int event() {
    if (used == static_cast<int>(pool.size())) {
      cudaEvent_t e;
      check(cudaEventCreate(&e), "cudaEventCreate");
      pool.push_back(e);
    }
    check(cudaEventRecord(pool[used], stream), "cudaEventRecord");
    return used++;
  }
  int open_mark() { return timing ? event() : -1; }
  /// W[rows, rows] += the kb × kb block Wb (its lower triangle, mirrored)
  void add_to_W(int kb, const double* Wb, const int* rows) {
    const dim3 threads(16, 16), grid((kb + 15) / 16, (kb + 15) / 16);
    add_block<<<grid, threads, 0, stream>>>(kb, Wb, rows, k, W.ptr);
    check(cudaGetLastError(), "add_block");
  }
  void close_mark(int phase, int start) {
    if (timing) marks.push_back({phase, start, event()});
  }

  ~Impl() {
    for (cudaEvent_t e : pool) cudaEventDestroy(e);
    if (solver) cusolverDnDestroy(solver);
    if (blas) cublasDestroy(blas);
    if (stream) cudaStreamDestroy(stream);
  }
};

DenseCompliance::DenseCompliance() : impl_(std::make_unique<Impl>()) {}
DenseCompliance::~DenseCompliance() = default;

void DenseCompliance::init(int num_fem, int num_rigid) {
  Impl& s = *impl_;
  if (!s.stream) {
    check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cublasCreate(&s.blas), "cublasCreate");
    check(cublasSetStream(s.blas, s.stream), "cublasSetStream");
    // no atomics in cuBLAS's reductions: bitwise reproducible results
    check(cublasSetAtomicsMode(s.blas, CUBLAS_ATOMICS_NOT_ALLOWED), "cublasSetAtomicsMode");
    check(cusolverDnCreate(&s.solver), "cusolverDnCreate");
    check(cusolverDnSetStream(s.solver, s.stream), "cusolverDnSetStream");
  }
  s.fem = std::vector<FemBuffers>(num_fem);
  s.rigid = std::vector<RigidBuffers>(num_rigid);
  s.info.reserve(std::max(num_fem, 1));
  s.h_info.reserve(std::max(num_fem, 1));
}

void DenseCompliance::begin(int k) {
  Impl& s = *impl_;
  s.k = k;
  s.W.reserve(static_cast<size_t>(k) * k);
  check(cudaMemsetAsync(s.W.ptr, 0, sizeof(double) * k * k, s.stream), "cudaMemsetAsync(W)");
}

void DenseCompliance::factorize(int body, int n, int nnz, const int* outer, const int* inner, const double* values) {
  Impl& s = *impl_;
  FemBuffers& b = s.fem.at(body);
  const size_t nn = static_cast<size_t>(n) * n;
  // a factorization queued earlier and never waited for may still read the staging buffer
  if (b.factorized) check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");

  // the pattern: sent once (and again only if it changes)
  const bool same = b.n == n && static_cast<int>(b.inner.size()) == nnz &&
                    std::memcmp(b.outer.data(), outer, sizeof(int) * (n + 1)) == 0 &&
                    std::memcmp(b.inner.data(), inner, sizeof(int) * nnz) == 0;
  if (!same) {
    check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
    b.n = n;
    b.outer.assign(outer, outer + n + 1);
    b.inner.assign(inner, inner + nnz);
    std::vector<long long> map(nnz, -1);
    for (int c = 0; c < n; ++c)
      for (int e = outer[c]; e < outer[c + 1]; ++e)
        if (inner[e] >= c) map[e] = static_cast<long long>(c) * n + inner[e];
    b.map.reserve(nnz);
    check(cudaMemcpy(b.map.ptr, map.data(), sizeof(long long) * nnz, cudaMemcpyHostToDevice), "cudaMemcpy(map)");
    b.A.reserve(nn);
    int lwork = 0;
    check(cusolverDnDpotrf_bufferSize(s.solver, CUBLAS_FILL_MODE_LOWER, n, b.A.ptr, n, &lwork),
          "cusolverDnDpotrf_bufferSize");
    b.lwork = lwork;
    b.work.reserve(std::max(lwork, 1));
  }

  // A's values → dense lower triangle → L Lᵀ
  const int t_factor = s.open_mark();
  const double* d_values = b.values.send(values, nnz, s.stream);
  check(cudaMemsetAsync(b.A.ptr, 0, sizeof(double) * nn, s.stream), "cudaMemsetAsync(A)");
  if (nnz > 0) scatter_values<<<blocks_for(nnz), kThreads, 0, s.stream>>>(nnz, b.map.ptr, d_values, b.A.ptr);
  check(cudaGetLastError(), "scatter_values");
  check(cusolverDnDpotrf(s.solver, CUBLAS_FILL_MODE_LOWER, n, b.A.ptr, n, b.work.ptr, b.lwork, s.info.ptr + body),
        "cusolverDnDpotrf");
  s.close_mark(0, t_factor);
  b.factorized = true;
}

bool DenseCompliance::factorized(int body, int nnz, const double* values) const {
  const FemBuffers& b = impl_->fem.at(body);
  return b.factorized && static_cast<int>(b.inner.size()) == nnz &&
         std::memcmp(b.values.host.ptr, values, sizeof(double) * nnz) == 0;
}

void DenseCompliance::add_fem(int body, int kb, const int* rows, int ne, const int* entry_dof, const int* entry_col,
                              const double* entry_value, double h) {
  Impl& s = *impl_;
  FemBuffers& b = s.fem.at(body);
  if (!b.factorized) throw CudaError{"FEM body " + std::to_string(body) + " was not factorized this step"};
  const int n = b.n;
  b.used = true;

  // Hᵀ (n × kb) → Y = L⁻¹ Hᵀ → W_b = h Yᵀ Y (lower triangle)
  const int t_solve = s.open_mark();
  const int* d_rows = b.rows.send(rows, kb, s.stream);
  const int* d_dof = b.entry_dof.send(entry_dof, ne, s.stream);
  const int* d_col = b.entry_col.send(entry_col, ne, s.stream);
  const double* d_value = b.entry_value.send(entry_value, ne, s.stream);
  b.Y.reserve(static_cast<size_t>(n) * kb);
  check(cudaMemsetAsync(b.Y.ptr, 0, sizeof(double) * n * kb, s.stream), "cudaMemsetAsync(Y)");
  if (ne > 0)
    scatter_entries<<<blocks_for(ne), kThreads, 0, s.stream>>>(ne, n, d_dof, d_col, d_value, b.Y.ptr);
  check(cudaGetLastError(), "scatter_entries");
  const double one = 1.0, zero = 0.0;
  check(cublasDtrsm(s.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, kb, &one,
                    b.A.ptr, n, b.Y.ptr, n),
        "cublasDtrsm");
  b.Wb.reserve(static_cast<size_t>(kb) * kb);
  check(cublasDsyrk(s.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, kb, n, &h, b.Y.ptr, n, &zero, b.Wb.ptr, kb),
        "cublasDsyrk");
  s.add_to_W(kb, b.Wb.ptr, d_rows);
  s.close_mark(1, t_solve);
}

void DenseCompliance::add_rigid(int body, int kb, const int* rows, const double* J, const double* MinvJ, double h) {
  Impl& s = *impl_;
  RigidBuffers& b = s.rigid.at(body);
  const size_t m = static_cast<size_t>(kb) * 6;
  const int t_rigid = s.open_mark();
  const int* d_rows = b.rows.send(rows, kb, s.stream);
  const double* d_J = b.J.send(J, m, s.stream);
  const double* d_MinvJ = b.MinvJ.send(MinvJ, m, s.stream);
  b.Wb.reserve(static_cast<size_t>(kb) * kb);
  const double zero = 0.0;
  // W_b = h J (M⁻¹J)ᵀ: kb × kb, inner dimension 6
  check(cublasDgemm(s.blas, CUBLAS_OP_N, CUBLAS_OP_T, kb, kb, 6, &h, d_J, kb, d_MinvJ, kb, &zero, b.Wb.ptr, kb),
        "cublasDgemm");
  s.add_to_W(kb, b.Wb.ptr, d_rows);
  s.close_mark(2, t_rigid);
}

const double* DenseCompliance::device_W(int k) const { return k > 0 && k == impl_->k ? impl_->W.ptr : nullptr; }

int DenseCompliance::finish(double* W_host) {
  Impl& s = *impl_;
  const size_t kk = static_cast<size_t>(s.k) * s.k;
  s.h_W.reserve(std::max<size_t>(kk, 1));
  const int t_down = s.open_mark();
  check(cudaMemcpyAsync(s.h_W.ptr, s.W.ptr, sizeof(double) * kk, cudaMemcpyDeviceToHost, s.stream), "cudaMemcpyAsync(W)");
  if (!s.fem.empty())
    check(cudaMemcpyAsync(s.h_info.ptr, s.info.ptr, sizeof(int) * s.fem.size(), cudaMemcpyDeviceToHost, s.stream),
          "cudaMemcpyAsync(info)");
  s.close_mark(3, t_down);
  check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
  if (s.timing) {
    double* sums[4] = {&s.timings.factorize_ms, &s.timings.solve_ms, &s.timings.rigid_ms, &s.timings.download_ms};
    for (const Impl::Mark& m : s.marks) {
      float ms = 0;
      check(cudaEventElapsedTime(&ms, s.pool[m.start], s.pool[m.end]), "cudaEventElapsedTime");
      *sums[m.phase] += ms;
    }
    ++s.timings.steps;
  }
  s.marks.clear();
  s.used = 0;
  std::memcpy(W_host, s.h_W.ptr, sizeof(double) * kk);
  int failed = -1;
  for (size_t b = 0; b < s.fem.size(); ++b) {
    if (failed < 0 && s.fem[b].used && s.h_info.ptr[b] != 0) failed = static_cast<int>(b);
    s.fem[b].factorized = s.fem[b].used = false;
  }
  return failed;
}

void DenseCompliance::enable_timings(bool on) { impl_->timing = on; }
const DenseCompliance::Timings& DenseCompliance::timings() const { return impl_->timings; }

std::string device_description() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device visible (") + cudaGetErrorString(status) + ")";
  }
  if (count == 0) return "no CUDA device visible";
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return "CUDA device 0 (properties unavailable)";
  char text[256];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %.1f GiB)%s", p.name, p.major, p.minor,
                p.totalGlobalMem / 1073741824.0, count > 1 ? " and more" : "");
  return text;
}

}  // namespace suction::cuda
