// The backend factory: the only place that knows which compliance backends and which
// constraint solvers (solver/solver.h) exist.
// SUCTION_WITH_CUDA is defined (PUBLIC) by the CUDA target (core/backends/cuda), which is
// linked into suction_backends only when configured with -DSUCTION_WITH_CUDA=ON.
#include "backends/compliance_backend.h"
#include "backends/compliance_cpu.h"
#include "common/error.h"
#include "solver/solver.h"

#if SUCTION_WITH_CUDA
#include "backends/cuda/compliance_cuda.h"
#include "backends/cuda/solve_cuda.h"
#endif

namespace suction {

namespace {
std::string names_list(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}
}  // namespace

std::vector<std::string> available_compliance_backends() {
#if SUCTION_WITH_CUDA
  return {"cpu", "cuda"};
#else
  return {"cpu"};
#endif
}

std::string compliance_backend_device(const std::string& name) {
#if SUCTION_WITH_CUDA
  if (name == "cuda") return cuda_device_summary();
#endif
  return "";
}

std::unique_ptr<ComplianceBackend> make_compliance_backend(const std::string& name) {
  if (name == "cpu") return make_cpu_compliance_backend();
  if (name == "cuda") {
#if SUCTION_WITH_CUDA
    return make_cuda_compliance_backend();  // an InputError where no device is visible
#else
    throw InputError("compliance backend 'cuda' is not built: configure with -DSUCTION_WITH_CUDA=ON "
                     "(make cuda); available: cpu");
#endif
  }
  throw InputError("unknown compliance backend '" + name + "'; available: " + names_list(available_compliance_backends()));
}

std::vector<std::string> available_constraint_solvers() {
#if SUCTION_WITH_CUDA
  return {"pgs", "apgd", "uzawa", "apgd_cuda"};
#else
  return {"pgs", "apgd", "uzawa"};
#endif
}

std::unique_ptr<ConstraintSolver> make_constraint_solver(const std::string& name) {
  if (name == "pgs") return make_pgs_solver();
  if (name == "apgd") return make_apgd_solver();
  if (name == "uzawa") return make_uzawa_solver();
  if (name == "apgd_cuda") {
#if SUCTION_WITH_CUDA
    return make_cuda_apgd_solver();  // an InputError where no device is visible
#else
    throw InputError("solver 'apgd_cuda' is not built: configure with -DSUCTION_WITH_CUDA=ON (make cuda); "
                     "available: " + names_list(available_constraint_solvers()));
#endif
  }
  throw InputError("unknown solver '" + name + "'; available: " + names_list(available_constraint_solvers()));
}

void check_constraint_solver(const std::string& name) { make_constraint_solver(name); }

}  // namespace suction
