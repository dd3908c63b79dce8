// CUDA runtime queries used by the CUDA backend. Only built with SUCTION_WITH_CUDA=ON.
#pragma once

namespace suction {

// Number of CUDA devices visible to this process; 0 when there is none, no driver, or any
// other CUDA runtime error (never throws).
int cuda_device_count();

}  // namespace suction
