#pragma once
// Whether CUDA can be used, under libtorch's names (torch/cuda.h):
//
//   if (torch::cuda::is_available()) { ... }   // false in a build without CUDA
//   size_t n = torch::cuda::device_count();    // 0 there
//
// Neither throws: no driver or no device counts as none.

#include <cstddef>

#include "c10/util/Macros.h"

namespace torch {
namespace cuda {

TORCH_API size_t device_count();
TORCH_API bool is_available();

}  // namespace cuda
}  // namespace torch
