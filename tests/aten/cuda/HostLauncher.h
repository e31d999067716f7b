#pragma once
// Runs the GPU loops' bodies on the CPU: every block and every thread of the launch gpu_kernel
// would make, one after another (GPU.md, "Make the GPU logic testable without a GPU"). With it,
// the CPU tests run the same choice of loop and the same index arithmetic, loads, casts and
// stores as the GPU, over CPU tensors.
//
//   auto iter = at::TensorIteratorConfig().add_output(out).add_input(in)...build();
//   test_util::gpu_kernel_on_host(iter, [](float x) { return x; });
//   at::native::last_gpu_loop();   // "vectorized", "strided", "strided cast"

#include <vector>

#include "aten/native/cuda/ElementwiseBody.h"
#include "aten/native/cuda/TransposeBody.h"

namespace test_util {

struct HostLauncher {
  // The kernel's threads have no shared state and no barrier: any order gives the GPU's result.
  template <typename Body>
  static void launch(int64_t blocks, const Body& body) {
    ++launches;
    for (int64_t b = 0; b < blocks; ++b) {
      for (int t = 0; t < at::native::gpu::kNumThreads; ++t) body(static_cast<int>(b), t);
    }
  }

  // A tile's threads load, meet at the barrier, then store: all loads of a block, then all of
  // its stores, as __syncthreads() orders them.
  template <typename Body>
  static void launch_transpose(const Body& body) {
    using at::native::gpu::kTileCols;
    ++launches;
    std::vector<typename Body::Tile> smem(1);
    for (uint32_t b = 0; b < body.nbatch; ++b) {
      for (uint32_t tile = 0; tile < body.num_tiles(); ++tile) {
        for (int ty = 0; ty < Body::kRows; ++ty) {
          for (int tx = 0; tx < kTileCols; ++tx) body.load(tile, b, tx, ty, smem[0]);
        }
        for (int ty = 0; ty < Body::kRows; ++ty) {
          for (int tx = 0; tx < kTileCols; ++tx) body.store(tile, b, tx, ty, smem[0]);
        }
      }
    }
  }

  static inline int launches = 0;
};

template <typename func_t>
void gpu_kernel_on_host(at::TensorIteratorBase& iter, const func_t& f) {
  at::native::gpu::elementwise<HostLauncher>(iter, f);
}

template <typename func_t>
void gpu_kernel_with_scalars_on_host(at::TensorIteratorBase& iter, const func_t& f) {
  at::native::gpu::elementwise_with_scalars<HostLauncher>(iter, f);
}

template <typename func_t, typename mirror_t>
void gpu_kernel_with_scalars_on_host(at::TensorIteratorBase& iter, const func_t& f,
                                     const mirror_t& mirror) {
  at::native::gpu::elementwise_with_scalars<HostLauncher>(iter, f, mirror);
}

template <typename func_t>
void gpu_kernel_with_index_on_host(at::TensorIteratorBase& iter, const func_t& f) {
  at::native::gpu::elementwise_with_index<HostLauncher>(iter, f);
}

}  // namespace test_util
