// The GPU half of the apgd_cuda solver (docs/method.md §8.7): the accelerated projected
// gradient of solver/apgd.cpp with W, the iterates and W times them on the device.  Each
// iteration is one cuBLAS product with W, one kernel for the projected step (the very
// operators of solver/projection.h) and one for the sums and maxima the host needs to decide
// (backtracking, restart, residual), reduced in a fixed order: the same input gives the same
// forces bit for bit.  Plain arrays in and out, as dense_compliance.h.
#pragma once
#include <memory>

namespace suction::cuda {

/// The rows as the method sees them (host arrays; n = 3 nc + np rows, ConstraintLayout order).
struct ApgdRows {
  int nc = 0, np = 0;
  const double* r = nullptr;      // [n] linear term: gap/h, u_free on tangents, V_free/h
  const double* scale = nullptr;  // [n] 1 / the mean diagonal of the row's block (0: inert)
  const double* diag = nullptr;   // [n] W's diagonal (the residual's)
  const double* mu = nullptr;     // [nc]
  const double* air = nullptr;    // [np] N [J]
  const double* p_atm = nullptr;  // [np]
  const double* p_max = nullptr;  // [np]
  double h = 0.0;
};

class DeviceApgd {
 public:
  DeviceApgd();
  ~DeviceApgd();
  DeviceApgd(const DeviceApgd&) = delete;
  DeviceApgd& operator=(const DeviceApgd&) = delete;

  /// Solves the rows: W_device (n × n, column-major, on the device; kept by the compliance
  /// backend) or, where it is null, W_host sent first.  lambda: warm start in, the best iterate
  /// out; w_lambda: W λ out.  Returns the iterations; *residual the best iterate's residual.
  int solve(const ApgdRows& rows, const double* W_device, const double* W_host, int max_iterations,
            double tolerance, double* lambda, double* w_lambda, double* residual);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace suction::cuda
