// The GPU half of the apgd_cuda solver; see apgd_device.h and solver/apgd.cpp (the same
// method on the CPU, which this follows step for step).
#include "apgd_device.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "cuda_buffers.cuh"
#include "solver/projection.h"

namespace suction::cuda {

namespace {

using namespace detail;

constexpr int kThreads = 256;
constexpr int kSums = 8;  // the reduction's outputs, below

// the outputs of one reduction, in this order
enum Sum { FCand = 0, FY, GradDotD, MetricD, RestartDot, MaxR, MaxF, MaxCav };

struct Rows {
  int nc, np;
  const double *r, *scale, *diag, *mu, *air, *p_atm, *p_max;
  double h;
};

// gm = De Saxcé's modified W y + r; out = prox(y − t·scale∘gm) (solver/apgd.cpp, step)
__global__ void step_kernel(Rows R, const double* y, const double* w_y, double t, bool zero_step, double* out,
                            double* gm) {
  const int item = blockIdx.x * blockDim.x + threadIdx.x;
  if (item < R.nc) {
    const int i = 3 * item;
    double g0 = w_y[i] + R.r[i], g1 = w_y[i + 1] + R.r[i + 1], g2 = w_y[i + 2] + R.r[i + 2];
    g0 = projection::de_saxce_normal(R.mu[item], g0, g1, g2);
    if (zero_step) g0 = g1 = g2 = 0.0;
    gm[i] = g0;
    gm[i + 1] = g1;
    gm[i + 2] = g2;
    if (R.scale[i] == 0.0) {
      out[i] = out[i + 1] = out[i + 2] = 0.0;
      return;
    }
    const double ts = t * R.scale[i];
    double ln = y[i] - ts * g0, t1 = y[i + 1] - ts * g1, t2 = y[i + 2] - ts * g2;
    projection::friction_cone(R.mu[item], ln, t1, t2);
    out[i] = ln;
    out[i + 1] = t1;
    out[i + 2] = t2;
  } else if (item < R.nc + R.np) {
    const int k = item - R.nc;
    const int i = 3 * R.nc + k;
    double g = w_y[i] + R.r[i];
    if (zero_step) g = 0.0;
    gm[i] = g;
    if (R.scale[i] == 0.0) {  // inert: the gas law at the free volume
      const double v = R.r[i] * R.h;
      const double p = projection::gas_law_pressure(0.0, v, R.air[k], R.p_atm[k], R.p_max[k]);
      out[i] = (p > R.p_max[k] ? R.p_max[k] : p) - R.p_atm[k];
      return;
    }
    const double tau = t * R.scale[i];
    const double z = R.p_atm[k] + y[i] - tau * g;
    out[i] = projection::gas_prox(z, tau, R.air[k], R.h, R.p_max[k]) - R.p_atm[k];
  }
}

// per item: the terms of the sums and maxima the host decides on (natural_residual's
// definition for the residual), reduced per block in a fixed tree; partial[block·kSums + s]
__global__ void reduce_kernel(Rows R, const double* c, const double* w_c, const double* y, const double* w_y,
                              const double* x, const double* gm, double* partial) {
  __shared__ double sh[kSums][kThreads];
  const int item = blockIdx.x * blockDim.x + threadIdx.x;
  double v[kSums] = {0, 0, 0, 0, 0, 0, 0, 0};
  auto rows_term = [&](int i) {
    const double d = c[i] - y[i];
    v[FCand] += 0.5 * c[i] * w_c[i] + R.r[i] * c[i];
    v[FY] += 0.5 * y[i] * w_y[i] + R.r[i] * y[i];
    v[GradDotD] += (w_y[i] + R.r[i]) * d;
    if (R.scale[i] > 0.0) v[MetricD] += d * d / R.scale[i];
    v[RestartDot] += gm[i] * (c[i] - x[i]);
  };
  if (item < R.nc) {
    const int i = 3 * item;
    for (int j = 0; j < 3; ++j) rows_term(i + j);
    const double ln = c[i], l1 = c[i + 1], l2 = c[i + 2];
    v[MaxF] = fmax(fabs(ln), fmax(fabs(l1), fabs(l2)));
    const double vn = R.r[i] + w_c[i];
    const double rn = R.diag[i] > 0.0 ? ln - fmax(0.0, ln - vn / R.diag[i]) : ln;
    const double wt = fmax(R.diag[i + 1], R.diag[i + 2]);
    const double u1 = R.r[i + 1] + w_c[i + 1], u2 = R.r[i + 2] + w_c[i + 2];
    double z1 = wt > 0.0 ? l1 - u1 / wt : 0.0, z2 = wt > 0.0 ? l2 - u2 / wt : 0.0;
    const double limit = R.mu[item] * fmax(0.0, ln);
    const double norm = sqrt(z1 * z1 + z2 * z2);
    if (norm > limit) {
      const double s = norm > 0.0 ? limit / norm : 0.0;
      z1 *= s;
      z2 *= s;
    }
    v[MaxR] = fmax(fabs(rn), fmax(fabs(l1 - z1), fabs(l2 - z2)));
  } else if (item < R.nc + R.np) {
    const int k = item - R.nc;
    const int i = 3 * R.nc + k;
    rows_term(i);
    const double a = R.h * R.diag[i];
    const double v_eff = R.r[i] * R.h + R.h * (w_c[i] - R.diag[i] * c[i]);
    double p = projection::gas_law_pressure(a, v_eff, R.air[k], R.p_atm[k], R.p_max[k]);
    if (p > R.p_max[k]) p = R.p_max[k];
    v[MaxCav] = fabs(p - R.p_atm[k] - c[i]) / R.p_atm[k];
  }
  for (int s = 0; s < kSums; ++s) sh[s][threadIdx.x] = v[s];
  __syncthreads();
  for (int width = kThreads / 2; width > 0; width /= 2) {
    if (threadIdx.x < width)
      for (int s = 0; s < kSums; ++s) {
        const double other = sh[s][threadIdx.x + width];
        sh[s][threadIdx.x] = s >= MaxR ? fmax(sh[s][threadIdx.x], other) : sh[s][threadIdx.x] + other;
      }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    for (int s = 0; s < kSums; ++s) partial[blockIdx.x * kSums + s] = sh[s][0];
}

// the blocks' partials, summed in block order by one thread (few blocks: ≤ a few dozen)
__global__ void finish_kernel(int blocks, const double* partial, double* out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  double v[kSums] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int b = 0; b < blocks; ++b)
    for (int s = 0; s < kSums; ++s) {
      const double p = partial[b * kSums + s];
      v[s] = s >= MaxR ? fmax(v[s], p) : v[s] + p;
    }
  for (int s = 0; s < kSums; ++s) out[s] = v[s];
}

// y = c + β (c − x), w_y likewise
__global__ void extrapolate_kernel(int n, double beta, const double* c, const double* x, const double* w_c,
                                   const double* w_x, double* y, double* w_y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = c[i] + beta * (c[i] - x[i]);
  w_y[i] = w_c[i] + beta * (w_c[i] - w_x[i]);
}

}  // namespace

struct DeviceApgd::Impl {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cudaEvent_t up0 = nullptr, up1 = nullptr;
  DeviceBuffer<double> W, r, scale, diag, mu, air, p_atm, p_max;
  DeviceBuffer<double> x, w_x, y, w_y, c, w_c, gm, best, w_best, partial, sums;
  PinnedBuffer<double> host_sums, staging;
  double upload_ms = 0.0;

  void init() {
    if (stream) return;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cublasCreate(&blas), "cublasCreate");
    check(cublasSetStream(blas, stream), "cublasSetStream");
    check(cudaEventCreate(&up0), "cudaEventCreate");
    check(cudaEventCreate(&up1), "cudaEventCreate");
  }
  ~Impl() {
    if (up0) cudaEventDestroy(up0);
    if (up1) cudaEventDestroy(up1);
    if (blas) cublasDestroy(blas);
    if (stream) cudaStreamDestroy(stream);
  }
  void send(DeviceBuffer<double>& to, const double* from, size_t n) {
    to.reserve(std::max<size_t>(n, 1));
    staging.reserve(std::max<size_t>(n, 1));
    if (n == 0) return;
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");  // staging is reused
    std::memcpy(staging.ptr, from, n * sizeof(double));
    check(cudaMemcpyAsync(to.ptr, staging.ptr, n * sizeof(double), cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync");
  }
  void copy(double* to, const double* from, size_t n) {
    check(cudaMemcpyAsync(to, from, n * sizeof(double), cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
  }
  void gemv(int n, const double* Wd, const double* v, double* out) {
    const double one = 1.0, zero = 0.0;
    check(cublasDgemv(blas, CUBLAS_OP_N, n, n, &one, Wd, n, v, 1, &zero, out, 1), "cublasDgemv");
  }
};

DeviceApgd::DeviceApgd() : impl_(std::make_unique<Impl>()) {}
DeviceApgd::~DeviceApgd() = default;
double DeviceApgd::upload_ms() const { return impl_->upload_ms; }

int DeviceApgd::solve(const ApgdRows& rows, const double* W_device, const double* W_host, int max_iterations,
                      double tolerance, double* lambda, double* w_lambda, double* residual) {
  Impl& s = *impl_;
  s.init();
  const int nc = rows.nc, np = rows.np, n = 3 * nc + np, items = nc + np;
  const size_t nn = static_cast<size_t>(n);
  s.upload_ms = 0.0;
  const double* Wd = W_device;
  if (!Wd) {
    s.W.reserve(nn * nn);
    check(cudaEventRecord(s.up0, s.stream), "cudaEventRecord");
    // W is large: sent from the caller's array, synchronously (pageable memory)
    check(cudaMemcpyAsync(s.W.ptr, W_host, nn * nn * sizeof(double), cudaMemcpyHostToDevice, s.stream),
          "cudaMemcpyAsync W");
    check(cudaEventRecord(s.up1, s.stream), "cudaEventRecord");
    Wd = s.W.ptr;
  }
  s.send(s.r, rows.r, nn);
  s.send(s.scale, rows.scale, nn);
  s.send(s.diag, rows.diag, nn);
  s.send(s.mu, rows.mu, nc);
  s.send(s.air, rows.air, np);
  s.send(s.p_atm, rows.p_atm, np);
  s.send(s.p_max, rows.p_max, np);
  for (DeviceBuffer<double>* b : {&s.x, &s.w_x, &s.y, &s.w_y, &s.c, &s.w_c, &s.gm, &s.best, &s.w_best})
    b->reserve(std::max<size_t>(nn, 1));
  const int blocks = (items + kThreads - 1) / kThreads;
  s.partial.reserve(static_cast<size_t>(std::max(blocks, 1)) * kSums);
  s.sums.reserve(kSums);
  s.host_sums.reserve(kSums);
  const Rows R{nc, np, s.r.ptr, s.scale.ptr, s.diag.ptr, s.mu.ptr, s.air.ptr, s.p_atm.ptr, s.p_max.ptr, rows.h};

  // the sums of (c, w_c) against (y, w_y) and x, to the host
  auto reduce = [&](const double* c, const double* w_c, const double* y, const double* w_y, const double* x,
                    double out[kSums]) {
    reduce_kernel<<<blocks, kThreads, 0, s.stream>>>(R, c, w_c, y, w_y, x, s.gm.ptr, s.partial.ptr);
    finish_kernel<<<1, 1, 0, s.stream>>>(blocks, s.partial.ptr, s.sums.ptr);
    check(cudaGetLastError(), "reduce kernels");
    check(cudaMemcpyAsync(s.host_sums.ptr, s.sums.ptr, kSums * sizeof(double), cudaMemcpyDeviceToHost, s.stream),
          "cudaMemcpyAsync sums");
    check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
    std::memcpy(out, s.host_sums.ptr, kSums * sizeof(double));
  };
  auto residual_of = [](const double v[kSums]) {
    const double contacts = v[MaxR] > 0.0 ? v[MaxR] / std::max(v[MaxF], v[MaxR]) : 0.0;
    return std::max(contacts, v[MaxCav]);
  };

  // the warm start, projected (a zero step), and W times it
  s.send(s.y, lambda, nn);
  check(cudaMemsetAsync(s.w_y.ptr, 0, nn * sizeof(double), s.stream), "cudaMemsetAsync");
  step_kernel<<<blocks, kThreads, 0, s.stream>>>(R, s.y.ptr, s.w_y.ptr, 0.0, true, s.x.ptr, s.gm.ptr);
  check(cudaGetLastError(), "step kernel");
  s.gemv(n, Wd, s.x.ptr, s.w_x.ptr);
  if (!W_device) {
    check(cudaEventSynchronize(s.up1), "cudaEventSynchronize");
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, s.up0, s.up1), "cudaEventElapsedTime");
    s.upload_ms = ms;
  }
  s.copy(s.y.ptr, s.x.ptr, nn);
  s.copy(s.w_y.ptr, s.w_x.ptr, nn);
  double v[kSums];
  reduce(s.x.ptr, s.w_x.ptr, s.y.ptr, s.w_y.ptr, s.x.ptr, v);
  double best_residual = residual_of(v);
  s.copy(s.best.ptr, s.x.ptr, nn);
  s.copy(s.w_best.ptr, s.w_x.ptr, nn);

  double L = 1.0, theta = 1.0;
  int it = 0;
  while (best_residual > tolerance && it < max_iterations) {
    ++it;
    for (int tries = 0;; ++tries) {
      step_kernel<<<blocks, kThreads, 0, s.stream>>>(R, s.y.ptr, s.w_y.ptr, 1.0 / L, false, s.c.ptr, s.gm.ptr);
      check(cudaGetLastError(), "step kernel");
      s.gemv(n, Wd, s.c.ptr, s.w_c.ptr);
      reduce(s.c.ptr, s.w_c.ptr, s.y.ptr, s.w_y.ptr, s.x.ptr, v);
      const double bound = v[FY] + v[GradDotD] + 0.5 * L * v[MetricD];
      if (v[FCand] <= bound + 1e-12 * std::abs(v[FY]) || tries >= 40) break;
      L *= 2.0;
    }
    const double res = residual_of(v);
    if (res < best_residual) {
      best_residual = res;
      s.copy(s.best.ptr, s.c.ptr, nn);
      s.copy(s.w_best.ptr, s.w_c.ptr, nn);
    }
    if (res <= tolerance) break;
    const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
    const double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
    if (v[RestartDot] > 0.0) {
      s.copy(s.y.ptr, s.c.ptr, nn);
      s.copy(s.w_y.ptr, s.w_c.ptr, nn);
      theta = 1.0;
    } else {
      extrapolate_kernel<<<(n + kThreads - 1) / kThreads, kThreads, 0, s.stream>>>(n, beta, s.c.ptr, s.x.ptr,
                                                                                    s.w_c.ptr, s.w_x.ptr, s.y.ptr,
                                                                                    s.w_y.ptr);
      check(cudaGetLastError(), "extrapolate kernel");
      theta = theta_next;
    }
    std::swap(s.x.ptr, s.c.ptr);
    std::swap(s.w_x.ptr, s.w_c.ptr);
    L *= 0.9;
  }
  check(cudaMemcpyAsync(lambda, s.best.ptr, nn * sizeof(double), cudaMemcpyDeviceToHost, s.stream), "cudaMemcpy λ");
  check(cudaMemcpyAsync(w_lambda, s.w_best.ptr, nn * sizeof(double), cudaMemcpyDeviceToHost, s.stream),
        "cudaMemcpy Wλ");
  check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
  *residual = best_residual;
  return it;
}

}  // namespace suction::cuda
