// The GPU half of the CUDA compliance backend (docs/method.md §7.4): dense Cholesky of each FEM
// body's system on the device, Y = L⁻¹ Hᵀ for all of the body's rows at once (one TRSM),
// W_b = h Yᵀ Y (one SYRK), the rigid bodies' J M⁻¹ Jᵀ (one GEMM each), all accumulated into
// W on the device and read back once per step.  Plain arrays in and out: no Eigen and no CUDA
// types in this header, so host code (compliance_cuda.cpp) needs neither nvcc nor CUDA headers.
#pragma once
#include <memory>
#include <string>

namespace suction::cuda {

/// Thrown for any CUDA, cuBLAS or cuSOLVER failure, with the call and its status in words.
struct CudaError {
  std::string message;
};

class DenseCompliance {
 public:
  DenseCompliance();
  ~DenseCompliance();
  DenseCompliance(const DenseCompliance&) = delete;
  DenseCompliance& operator=(const DenseCompliance&) = delete;

  /// Once per model: the number of FEM and rigid bodies (device buffers grow on demand).
  void init(int num_fem, int num_rigid);

  /// FEM body `body`: queues the dense Cholesky factorization of its system A (n unknowns,
  /// compressed sparse columns: outer[n+1], inner[nnz], values[nnz]; only the lower triangle
  /// is read; the pattern is cached and re-sent only when it changes).  Returns at once.
  void factorize(int body, int n, int nnz, const int* outer, const int* inner, const double* values);
  /// whether `body` was factorized since the last finish(), from these very values of A (a
  /// prepare() whose build() never came, or a system that changed since, answers false)
  bool factorized(int body, int nnz, const double* values) const;

  /// Starts a step's W of k rows (zeroed on the device).
  void begin(int k);

  /// FEM body `body` (factorized this step): its part of Hᵀ, kb columns (global rows
  /// rows[kb], distinct) with ne entries (dof, column, value), each (dof, column) at most
  /// once.  Adds h H_b A⁻¹ H_bᵀ to W.
  void add_fem(int body, int kb, const int* rows, int ne, const int* entry_dof, const int* entry_col,
               const double* entry_value, double h);

  /// Rigid body `body`: J (kb × 6, column-major: linear then angular parts of its rows[kb],
  /// distinct) and M⁻¹J (same shape).  Adds h J M⁻¹ Jᵀ to W.
  void add_rigid(int body, int kb, const int* rows, const double* J, const double* MinvJ, double h);

  /// Waits for the step and copies W (k × k, column-major) to W_host.  Returns the index of
  /// the first FEM body used in W whose system was not positive definite on the device, or -1.
  int finish(double* W_host);
  /// W of the last finish() on the device (k × k, column-major), valid until the next begin();
  /// null when that W does not have k rows
  const double* device_W(int k) const;

  /// Device-side timings (CUDA events), summed over the steps since init; recorded only when
  /// enabled (SUCTION_CUDA_PROFILE=1 in the environment: compliance_cuda.cpp).
  struct Timings {
    long steps = 0;
    double factorize_ms = 0;  // A's values up, scattered, dense Cholesky
    double solve_ms = 0;      // Hᵀ up and scattered, TRSM, SYRK, added into W
    double rigid_ms = 0;      // J up, GEMM, added into W
    double download_ms = 0;   // W to the host's staging buffer
  };
  void enable_timings(bool on);
  const Timings& timings() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// "NVIDIA H100 80GB HBM3 (sm_90, 79.1 GiB)" for device 0, or why there is none.
std::string device_description();

}  // namespace suction::cuda
