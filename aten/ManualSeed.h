#pragma once
// at::manual_seed: reseed the default CPU generator and every CUDA device's (libtorch declares it
// in ATen/Context.h, and torch::manual_seed in torch/utils.h).
//
//   at::manual_seed(0);
//   at::Tensor a = at::rand({3});     // 0.4963, 0.7682, 0.0885, as libtorch gives for seed 0
//
// Reseeding takes the generator's lock, so it is safe beside a kernel drawing from it.

#include <cstdint>
#include <mutex>

#include "aten/CPUGeneratorImpl.h"
#include "aten/detail/CUDAHooksInterface.h"

namespace at {

inline void manual_seed(uint64_t seed) {
  {
    Generator gen = detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_current_seed(seed);
  }
  // Every CUDA device's too, as libtorch's (nothing in a build without CUDA or a device).
  detail::getCUDAHooks().manualSeedAll(seed);
}

}  // namespace at

namespace torch {

inline void manual_seed(uint64_t seed) {
  at::manual_seed(seed);
}

}  // namespace torch
