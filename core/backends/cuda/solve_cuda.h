// The apgd_cuda constraint solver (docs/method.md §8.7): solver/apgd.cpp's accelerated
// projected gradient with W on the GPU, read where the CUDA compliance backend left it.  Only
// built with SUCTION_WITH_CUDA=ON.
#pragma once
#include <memory>

#include "solver/solver.h"

namespace suction {

/// Throws InputError when no CUDA device is visible (the reason in words).
std::unique_ptr<ConstraintSolver> make_cuda_apgd_solver();

}  // namespace suction
