// Error checks and growing buffers shared by the CUDA files of this folder (device code's
// side: include only from .cu files).
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <string>

#include "dense_compliance.h"  // CudaError

namespace suction::cuda::detail {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear a sticky state where possible
    throw CudaError{std::string(what) + ": " + cudaGetErrorString(status)};
  }
}
inline void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw CudaError{std::string(what) + ": cuBLAS status " + std::to_string(int(status))};
}
inline void check(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS)
    throw CudaError{std::string(what) + ": cuSOLVER status " + std::to_string(int(status))};
}

/// a growing array, on the device or page-locked on the host (asynchronous copies need the
/// latter); its contents are not kept across growth
enum class Memory { Device, Pinned };
template <class T, Memory M>
struct Buffer {
  T* ptr = nullptr;
  size_t capacity = 0;
  void reserve(size_t n) {
    if (n <= capacity) return;
    release();
    const size_t grown = std::max(n, capacity + capacity / 2);
    void* p = nullptr;
    if constexpr (M == Memory::Device) check(cudaMalloc(&p, grown * sizeof(T)), "cudaMalloc");
    else check(cudaMallocHost(&p, grown * sizeof(T)), "cudaMallocHost");
    ptr = static_cast<T*>(p);
    capacity = grown;
  }
  void release() {
    if (ptr) {
      if constexpr (M == Memory::Device) cudaFree(ptr);
      else cudaFreeHost(ptr);
    }
    ptr = nullptr;
    capacity = 0;
  }
  ~Buffer() { release(); }
};
template <class T>
using DeviceBuffer = Buffer<T, Memory::Device>;
template <class T>
using PinnedBuffer = Buffer<T, Memory::Pinned>;

}  // namespace suction::cuda::detail
