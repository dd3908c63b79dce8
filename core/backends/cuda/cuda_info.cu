#include "cuda_info.h"

#include <cuda_runtime.h>

namespace suction {

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error state
    return 0;
  }
  return count;
}

}  // namespace suction
