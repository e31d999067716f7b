// The tiled transpose kernel (aten/native/cuda/TransposeBody.h) with each tile shape it can be
// built with, on the shapes issue 15 measures: how CopyTransposeBody's tile was chosen. The
// bodies and the launch are the library's own (gpu::DeviceLauncher::launch_transpose); only the
// tile and the block's rows differ. Bytes read plus written per second, median of 20 launches
// timed with events, beside cudaMemcpyAsync of the same bytes.
//
//   bench_transpose_tiles        # a table: shape x tile, GB/s and the fraction of memcpy

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "aten/native/cuda/Loops.cuh"

namespace {

using at::native::gpu::TransposeBody;

void check(cudaError_t e) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e));
    std::exit(1);
  }
}

// A batch of n matrices size1 x size0 (input rows contiguous) into size0-contiguous output.
struct Shape {
  const char* name;
  uint32_t size0, size1, nbatch;
};

template <typename F>
float median_ms(F launch) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a));
  check(cudaEventCreate(&b));
  launch();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    check(cudaEventRecord(a));
    launch();
    check(cudaEventRecord(b));
    check(cudaEventSynchronize(b));
    float t = 0;
    check(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <int kTile, int kRows>
float run(const Shape& s, char* out, const char* in) {
  const int64_t sizes[1] = {s.nbatch};
  const int64_t batch_out[1] = {int64_t{s.size0} * s.size1 * 4};
  const int64_t batch_in[1] = {int64_t{s.size0} * s.size1 * 4};
  const int64_t* strides[2] = {batch_out, batch_in};
  TransposeBody<uint32_t, kTile, kRows> body{
      s.size0,      s.size1,      (s.size0 + kTile - 1) / kTile,
      s.size1 * 4u, s.size0 * 4u, s.nbatch,
      out,          in,           at::cuda::detail::OffsetCalculator<2>(1, sizes, strides)};
  return median_ms([&] { at::native::gpu::DeviceLauncher::launch_transpose(body); });
}

}  // namespace

int main() {
  const Shape shapes[] = {{"8192x8192 transpose", 8192, 8192, 1},
                          {"NCHW->NHWC [64,128,112,112]", 128, 112 * 112, 64},
                          {"NHWC->NCHW [64,128,112,112]", 112 * 112, 128, 64}};
  const size_t max_bytes = size_t{64} * 128 * 112 * 112 * 4;
  char *in = nullptr, *out = nullptr;
  check(cudaMalloc(&in, max_bytes));
  check(cudaMalloc(&out, max_bytes));
  check(cudaMemset(in, 1, max_bytes));
  std::printf("%-30s %10s %10s %10s %10s %10s %10s %10s\n", "GB/s (fraction of memcpy)", "memcpy",
              "32/rows8", "32/rows4", "32/rows16", "64/rows8", "64/rows16", "64/rows32");
  for (const Shape& s : shapes) {
    const double bytes = 2.0 * s.size0 * s.size1 * s.nbatch * 4;
    const float memcpy_ms = median_ms(
        [&] { check(cudaMemcpyAsync(out, in, bytes / 2, cudaMemcpyDeviceToDevice, nullptr)); });
    const float t[] = {run<32, 8>(s, out, in), run<32, 4>(s, out, in),  run<32, 16>(s, out, in),
                       run<64, 8>(s, out, in), run<64, 16>(s, out, in), run<64, 32>(s, out, in)};
    std::printf("%-30s %10.0f", s.name, bytes / memcpy_ms / 1e6);
    for (float ms : t) std::printf(" %5.0f(%.2f)", bytes / ms / 1e6, memcpy_ms / ms);
    std::printf("\n");
  }
  check(cudaFree(in));
  check(cudaFree(out));
  return 0;
}
