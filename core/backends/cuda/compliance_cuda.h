// The CUDA compliance backend (docs/method.md §7.4).  Only built with SUCTION_WITH_CUDA=ON.
#pragma once
#include <memory>
#include <string>

#include "backends/compliance_backend.h"

namespace suction {

/// Throws InputError when no CUDA device is visible (the reason in words).
std::unique_ptr<ComplianceBackend> make_cuda_compliance_backend();
/// device 0 in words ("NVIDIA H100 80GB HBM3 (sm_90, 79.1 GiB)"), or why there is none
std::string cuda_device_summary();

}  // namespace suction
