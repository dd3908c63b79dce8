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
constexpr int kSums = 8;         // the reduction's outputs, below
constexpr int kKernelBatch = 8;  // iterations queued between two looks at the control

// the outputs of one reduction, in this order
enum Sum { FCand = 0, FY, GradDotD, MetricD, RestartDot, MaxR, MaxF, MaxCav };

struct Rows {
  int nc, np;
  const double *r, *scale, *diag, *mu, *air, *p_atm, *p_max;
  double h;
};

// The iteration's control, on the device: the host queues iterations without waiting and
// reads this every kKernelBatch iterations.
struct Control {
  double L, theta, beta, best_residual, tolerance;
  int iterations, max_iterations, tries, accepted, improved, finish_pending, done;
};

// gm = De Saxcé's modified W y + r; out = prox(y − t·scale∘gm) (solver/apgd.cpp, step), with
// t = 1/L from the control (t = 0: the warm start's projection)
__global__ void step_kernel(Rows R, const Control* ctl, bool zero_step, const double* y, const double* w_y,
                            double* out, double* gm) {
  if (ctl->done) return;
  const double t = zero_step ? 0.0 : 1.0 / ctl->L;
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

// per item: the terms of the sums and maxima the iteration decides on (natural_residual's
// definition for the residual), reduced per block in a fixed tree; partial[block·kSums + s]
__global__ void reduce_kernel(Rows R, const Control* ctl, const double* c, const double* w_c, const double* y,
                              const double* w_y, const double* x, const double* gm, double* partial) {
  if (ctl->done) return;
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

// the blocks' partials summed in block order
__device__ void sum_partials(int blocks, const double* partial, double v[kSums]) {
  for (int s = 0; s < kSums; ++s) v[s] = 0.0;
  for (int b = 0; b < blocks; ++b)
    for (int s = 0; s < kSums; ++s) {
      const double p = partial[b * kSums + s];
      v[s] = s >= MaxR ? fmax(v[s], p) : v[s] + p;
    }
}

__device__ double residual_of(const double v[kSums]) {
  const double contacts = v[MaxR] > 0.0 ? v[MaxR] / fmax(v[MaxF], v[MaxR]) : 0.0;
  return fmax(contacts, v[MaxCav]);
}

// the warm start's residual: the first best
__global__ void init_kernel(int blocks, const double* partial, Control* ctl) {
  double v[kSums];
  sum_partials(blocks, partial, v);
  ctl->best_residual = residual_of(v);
  ctl->done = ctl->best_residual <= ctl->tolerance || ctl->max_iterations <= 0;
}

// one thread: the sufficient-decrease test (a failed one doubles L and the iteration is taken
// again from the same y), the residual, the momentum or a restart (solver/apgd.cpp)
__global__ void decide_kernel(int blocks, const double* partial, Control* ctl) {
  if (ctl->done) return;
  if (ctl->finish_pending) {
    ctl->done = 1;
    return;
  }
  double v[kSums];
  sum_partials(blocks, partial, v);
  const double bound = v[FY] + v[GradDotD] + 0.5 * ctl->L * v[MetricD];
  if (!(v[FCand] <= bound + 1e-12 * fabs(v[FY])) && ctl->tries < 40) {
    ctl->L *= 2.0;
    ++ctl->tries;
    ctl->accepted = 0;
    return;
  }
  ctl->tries = 0;
  ctl->accepted = 1;
  ++ctl->iterations;
  const double res = residual_of(v);
  ctl->improved = res < ctl->best_residual;
  if (ctl->improved) ctl->best_residual = res;
  const double theta = ctl->theta;
  const double theta_next = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
  if (v[RestartDot] > 0.0) {  // against the last move: no momentum
    ctl->beta = 0.0;
    ctl->theta = 1.0;
  } else {
    ctl->beta = theta * (1.0 - theta) / (theta * theta + theta_next);
    ctl->theta = theta_next;
  }
  ctl->L *= 0.9;
  if (res <= ctl->tolerance || ctl->iterations >= ctl->max_iterations) ctl->finish_pending = 1;
}

// an accepted step: best ← c where it improved; y = c + β (c − x) (β = 0 on a restart),
// w_y likewise; x ← c, w_x ← w_c
__global__ void update_kernel(int n, const Control* ctl, const double* c, const double* w_c, double* x, double* w_x,
                              double* y, double* w_y, double* best, double* w_best) {
  if (ctl->done || !ctl->accepted) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double beta = ctl->beta;
  if (ctl->improved) {
    best[i] = c[i];
    w_best[i] = w_c[i];
  }
  y[i] = c[i] + beta * (c[i] - x[i]);
  w_y[i] = w_c[i] + beta * (w_c[i] - w_x[i]);
  x[i] = c[i];
  w_x[i] = w_c[i];
}

}  // namespace

struct DeviceApgd::Impl {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  DeviceBuffer<double> W, packed;
  DeviceBuffer<double> x, w_x, y, w_y, c, w_c, gm, best, w_best, partial;
  DeviceBuffer<Control> control;
  PinnedBuffer<Control> host_control;
  PinnedBuffer<double> staging;

  void init() {
    if (stream) return;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cublasCreate(&blas), "cublasCreate");
    check(cublasSetStream(blas, stream), "cublasSetStream");
  }
  cudaGraphExec_t exec = nullptr;  // the batch of iterations, kept across solves

  /// captures what `enqueue` queues into `exec` (updated in place where the graph's shape is
  /// the same, else made anew); false, with nothing queued, where capturing failed
  template <class Enqueue>
  bool capture(Enqueue&& enqueue) {
    cudaGraph_t g = nullptr;
    if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    bool ok = true;
    try {
      enqueue();
    } catch (const CudaError&) {
      ok = false;
    }
    ok = cudaStreamEndCapture(stream, &g) == cudaSuccess && ok && g;
    if (ok && exec) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
        cudaGetLastError();
        cudaGraphExecDestroy(exec);
        exec = nullptr;
      }
    }
    if (ok && !exec && cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
      exec = nullptr;
      ok = false;
    }
    if (g) cudaGraphDestroy(g);
    cudaGetLastError();  // a failed capture leaves nothing behind
    return ok;
  }

  ~Impl() {
    if (exec) cudaGraphExecDestroy(exec);
    if (blas) cublasDestroy(blas);
    if (stream) cudaStreamDestroy(stream);
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

int DeviceApgd::solve(const ApgdRows& rows, const double* W_device, const double* W_host, int max_iterations,
                      double tolerance, double* lambda, double* w_lambda, double* residual) {
  Impl& s = *impl_;
  s.init();
  const int nc = rows.nc, np = rows.np, n = 3 * nc + np, items = nc + np;
  const size_t nn = static_cast<size_t>(n);
  const double* Wd = W_device;
  if (!Wd) {
    s.W.reserve(nn * nn);
    // W is large: sent from the caller's array, synchronously (pageable memory)
    check(cudaMemcpyAsync(s.W.ptr, W_host, nn * nn * sizeof(double), cudaMemcpyHostToDevice, s.stream),
          "cudaMemcpyAsync W");
    Wd = s.W.ptr;
  }
  // the rows' arrays and the warm start in one upload: r, scale, diag, λ [n each], μ [nc],
  // N, P_atm, p_max [np each]
  const size_t packed = 4 * nn + nc + 3 * static_cast<size_t>(np);
  s.staging.reserve(packed);
  s.packed.reserve(packed);
  {
    double* h = s.staging.ptr;
    auto put = [&h](const double* from, size_t count) {
      if (count) std::memcpy(h, from, count * sizeof(double));
      h += count;
    };
    check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");  // the staging is reused
    put(rows.r, nn);
    put(rows.scale, nn);
    put(rows.diag, nn);
    put(lambda, nn);
    put(rows.mu, nc);
    put(rows.air, np);
    put(rows.p_atm, np);
    put(rows.p_max, np);
    check(cudaMemcpyAsync(s.packed.ptr, s.staging.ptr, packed * sizeof(double), cudaMemcpyHostToDevice, s.stream),
          "cudaMemcpyAsync rows");
  }
  const double* d_r = s.packed.ptr;
  const double* d_scale = d_r + nn;
  const double* d_diag = d_scale + nn;
  const double* d_lambda0 = d_diag + nn;
  const double* d_mu = d_lambda0 + nn;
  const double* d_air = d_mu + nc;
  const double* d_p_atm = d_air + np;
  const double* d_p_max = d_p_atm + np;
  for (DeviceBuffer<double>* b : {&s.x, &s.w_x, &s.y, &s.w_y, &s.c, &s.w_c, &s.gm, &s.best, &s.w_best})
    b->reserve(std::max<size_t>(nn, 1));
  const int blocks = (items + kThreads - 1) / kThreads;
  s.partial.reserve(static_cast<size_t>(std::max(blocks, 1)) * kSums);
  const Rows R{nc, np, d_r, d_scale, d_diag, d_mu, d_air, d_p_atm, d_p_max, rows.h};

  // the control, on the device
  Control init{};
  init.L = 1.0;
  init.theta = 1.0;
  init.tolerance = tolerance;
  init.max_iterations = max_iterations;
  s.control.reserve(1);
  s.host_control.reserve(1);
  *s.host_control.ptr = init;
  check(cudaMemcpyAsync(s.control.ptr, s.host_control.ptr, sizeof(Control), cudaMemcpyHostToDevice, s.stream),
        "cudaMemcpyAsync control");
  Control* ctl = s.control.ptr;
  const int row_blocks = (n + kThreads - 1) / kThreads;

  // the warm start, projected (a zero step), W times it, and its residual: the first best
  s.copy(s.y.ptr, d_lambda0, nn);
  check(cudaMemsetAsync(s.w_y.ptr, 0, nn * sizeof(double), s.stream), "cudaMemsetAsync");
  step_kernel<<<blocks, kThreads, 0, s.stream>>>(R, ctl, true, s.y.ptr, s.w_y.ptr, s.x.ptr, s.gm.ptr);
  check(cudaGetLastError(), "step kernel");
  s.gemv(n, Wd, s.x.ptr, s.w_x.ptr);
  s.copy(s.y.ptr, s.x.ptr, nn);
  s.copy(s.w_y.ptr, s.w_x.ptr, nn);
  s.copy(s.best.ptr, s.x.ptr, nn);
  s.copy(s.w_best.ptr, s.w_x.ptr, nn);
  reduce_kernel<<<blocks, kThreads, 0, s.stream>>>(R, ctl, s.x.ptr, s.w_x.ptr, s.y.ptr, s.w_y.ptr, s.x.ptr, s.gm.ptr,
                                                   s.partial.ptr);
  init_kernel<<<1, 1, 0, s.stream>>>(blocks, s.partial.ptr, ctl);
  check(cudaGetLastError(), "init kernels");

  // iterations queued kKernelBatch at a time; the host waits only between batches.  Each
  // queued iteration past the end does nothing (every kernel reads ctl->done first).  A batch
  // is one CUDA graph (its 40 launches were the iteration's cost: the kernels are small), made
  // once per solve by stream capture and put into the kept executable graph by an update
  // where the shape allows; where capturing fails, the batch is launched kernel by kernel.
  auto enqueue_batch = [&] {
    for (int b = 0; b < kKernelBatch; ++b) {
      step_kernel<<<blocks, kThreads, 0, s.stream>>>(R, ctl, false, s.y.ptr, s.w_y.ptr, s.c.ptr, s.gm.ptr);
      s.gemv(n, Wd, s.c.ptr, s.w_c.ptr);
      reduce_kernel<<<blocks, kThreads, 0, s.stream>>>(R, ctl, s.c.ptr, s.w_c.ptr, s.y.ptr, s.w_y.ptr, s.x.ptr,
                                                       s.gm.ptr, s.partial.ptr);
      decide_kernel<<<1, 1, 0, s.stream>>>(blocks, s.partial.ptr, ctl);
      update_kernel<<<row_blocks, kThreads, 0, s.stream>>>(n, ctl, s.c.ptr, s.w_c.ptr, s.x.ptr, s.w_x.ptr, s.y.ptr,
                                                           s.w_y.ptr, s.best.ptr, s.w_best.ptr);
    }
  };
  const bool graph = s.capture(enqueue_batch);
  const long launch_limit = 2L * max_iterations + 64;
  long launched = 0;
  for (;;) {
    check(cudaMemcpyAsync(s.host_control.ptr, ctl, sizeof(Control), cudaMemcpyDeviceToHost, s.stream),
          "cudaMemcpyAsync control");
    check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
    if (s.host_control.ptr->done || launched >= launch_limit) break;
    if (graph) check(cudaGraphLaunch(s.exec, s.stream), "cudaGraphLaunch");
    else enqueue_batch();
    launched += kKernelBatch;
    check(cudaGetLastError(), "iteration kernels");
  }
  const Control& done = *s.host_control.ptr;
  const double best_residual = done.best_residual;
  const int it = done.iterations;
  check(cudaMemcpyAsync(lambda, s.best.ptr, nn * sizeof(double), cudaMemcpyDeviceToHost, s.stream), "cudaMemcpy λ");
  check(cudaMemcpyAsync(w_lambda, s.w_best.ptr, nn * sizeof(double), cudaMemcpyDeviceToHost, s.stream),
        "cudaMemcpy Wλ");
  check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
  *residual = best_residual;
  return it;
}

}  // namespace suction::cuda
