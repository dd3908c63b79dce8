// The host half of the apgd_cuda solver: the rows' arrays (as solver/apgd.cpp builds them)
// for the device half (apgd_device.cu).
#include "backends/cuda/solve_cuda.h"

#include <string>
#include <vector>

#include "backends/cuda/apgd_device.h"
#include "backends/cuda/cuda_info.h"
#include "backends/cuda/dense_compliance.h"
#include "common/error.h"

namespace suction {

namespace {

class CudaApgdSolver final : public ConstraintSolver {
 public:
  const char* name() const override { return "apgd_cuda"; }

  int solve_rows(const RowProblem& p, VecX& lambda, VecX& w_lambda) override {
    const Eigen::MatrixXd& W = *p.W;
    const int nc = p.contacts(), np = p.num_cavities(), n = p.rows();
    const GradientTerms terms = gradient_terms(p);  // as the CPU apgd
    diag_ = W.diagonal();
    air_.resize(np);
    p_atm_.resize(np);
    p_max_.resize(np);
    for (int k = 0; k < np; ++k) {
      const CavityRow& c = (*p.cavities)[k];
      if (c.exponent != 1.0)  // the device's rows carry N only (docs/method.md §6.8)
        throw InputError("the apgd_cuda solver has the isothermal gas law only: a scene whose "
                         "settings.cavity.gas.law is not isothermal needs --solver pgs, apgd or uzawa");
      air_[k] = c.air;
      p_atm_[k] = c.p_atm;
      p_max_[k] = c.p_max;
    }
    cuda::ApgdRows rows;
    rows.nc = nc;
    rows.np = np;
    rows.r = terms.r.data();
    rows.scale = terms.scale.data();
    rows.diag = diag_.data();
    rows.mu = p.mu->data();
    rows.air = air_.data();
    rows.p_atm = p_atm_.data();
    rows.p_max = p_max_.data();
    rows.h = p.h;
    w_lambda.resize(n);
    double residual = 0.0;
    int iterations = 0;
    try {
      iterations = device_.solve(rows, p.W_device, W.data(), p.max_iterations, p.tolerance, lambda.data(),
                                 w_lambda.data(), &residual);
    } catch (const cuda::CudaError& e) {
      throw SimulationError("solver 'apgd_cuda': " + e.message);
    }
    finish_cavities(p, lambda, w_lambda);
    return iterations;
  }

 private:
  cuda::DeviceApgd device_;
  VecX diag_;
  std::vector<double> air_, p_atm_, p_max_;
};

}  // namespace

std::unique_ptr<ConstraintSolver> make_cuda_apgd_solver() {
  if (cuda_device_count() == 0)
    throw InputError("solver 'apgd_cuda': " + cuda::device_description() +
                     " (this build has the GPU solver, but it needs an NVIDIA GPU and driver at run time; "
                     "use --solver apgd)");
  return std::make_unique<CudaApgdSolver>();
}

}  // namespace suction
