// The CUDA backend on a GPU (issue 15): copies and layout changes as bytes moved per second
// (read plus written), beside cudaMemcpyAsync on buffers of the same size, and the per-call
// cost of at::empty({1}, kCUDA) from the caching allocator. Built against miniaten, and on the
// GPU machine against PyTorch's libtorch (MINIATEN_BENCH_LIBTORCH; tools/scripts/gpu_check.sh),
// so both run the same source.
//
// Targets: same-layout 256 MB copy >= 0.9x cudaMemcpy; contiguous() of an 8192x8192 float
// transpose and NCHW <-> NHWC of [64,128,112,112] >= 0.75x cudaMemcpy and >= PyTorch's;
// at::empty({1}, kCUDA) <= PyTorch's time per call.
//
// GPU work is timed with CUDA events around each iteration (manual time); the inputs are random
// values, not zeros (METHOD.md), and each copy's output is allocated by the call, as a user's
// t.contiguous() allocates it (from the caching allocator, warm after the first iteration).

#include <benchmark/benchmark.h>

#include <cuda_runtime_api.h>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#else
#include "aten/ATen.h"
#include "aten/cuda/CUDAContext.h"
#endif

namespace {

void check(cudaError_t e) {
  if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e));
}

// Times `body` on the current stream with events; bytes = read + written per iteration.
template <typename F>
void time_on_gpu(benchmark::State& state, int64_t bytes, F body) {
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start));
  check(cudaEventCreate(&stop));
  body();  // warm: allocator segments, module load
  check(cudaStreamSynchronize(stream));
  for (auto _ : state) {
    check(cudaEventRecord(start, stream));
    body();
    check(cudaEventRecord(stop, stream));
    check(cudaEventSynchronize(stop));
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop));
    state.SetIterationTime(ms / 1e3);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  check(cudaEventDestroy(start));
  check(cudaEventDestroy(stop));
}

at::Tensor random_cuda(at::IntArrayRef sizes) {
  // Random values made on the CPU (the same generator on both sides), then moved.
  return at::rand(sizes).to(at::kCUDA);
}

constexpr int64_t k256MB = int64_t{256} << 20;

void BM_CudaMemcpy256MB(benchmark::State& state) {
  const at::Tensor src = random_cuda({k256MB / 4});
  at::Tensor dst = at::empty_like(src);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  time_on_gpu(state, 2 * k256MB, [&] {
    check(
        cudaMemcpyAsync(dst.data_ptr(), src.data_ptr(), k256MB, cudaMemcpyDeviceToDevice, stream));
  });
}
BENCHMARK(BM_CudaMemcpy256MB)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_CopySameLayout256MB(benchmark::State& state) {
  const at::Tensor src = random_cuda({k256MB / 4});
  at::Tensor dst = at::empty_like(src);
  time_on_gpu(state, 2 * k256MB, [&] { dst.copy_(src); });
}
BENCHMARK(BM_CopySameLayout256MB)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Clone256MB(benchmark::State& state) {
  const at::Tensor src = random_cuda({k256MB / 4});
  time_on_gpu(state, 2 * k256MB, [&] { benchmark::DoNotOptimize(src.clone()); });
}
BENCHMARK(BM_Clone256MB)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_ContiguousTranspose8192(benchmark::State& state) {
  const at::Tensor src = random_cuda({8192, 8192}).t();
  time_on_gpu(state, 2 * src.numel() * 4, [&] { benchmark::DoNotOptimize(src.contiguous()); });
}
BENCHMARK(BM_ContiguousTranspose8192)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Nchw2Nhwc_64x128x112x112(benchmark::State& state) {
  const at::Tensor src = random_cuda({64, 128, 112, 112});
  time_on_gpu(state, 2 * src.numel() * 4,
              [&] { benchmark::DoNotOptimize(src.contiguous(at::MemoryFormat::ChannelsLast)); });
}
BENCHMARK(BM_Nchw2Nhwc_64x128x112x112)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Nhwc2Nchw_64x128x112x112(benchmark::State& state) {
  const at::Tensor src =
      random_cuda({64, 128, 112, 112}).contiguous(at::MemoryFormat::ChannelsLast);
  time_on_gpu(state, 2 * src.numel() * 4, [&] { benchmark::DoNotOptimize(src.contiguous()); });
}
BENCHMARK(BM_Nhwc2Nchw_64x128x112x112)->UseManualTime()->Unit(benchmark::kMicrosecond);

// A strided copy no faster path takes (every other column): the elementwise loop.
void BM_ContiguousSliced(benchmark::State& state) {
  const at::Tensor src = random_cuda({8192, 16384}).slice(1, 0, 16384, 2);
  time_on_gpu(state, 2 * src.numel() * 4, [&] { benchmark::DoNotOptimize(src.contiguous()); });
}
BENCHMARK(BM_ContiguousSliced)->UseManualTime()->Unit(benchmark::kMicrosecond);

// A dtype conversion on the device (float -> half), 64M elements.
void BM_FloatToHalf64M(benchmark::State& state) {
  const at::Tensor src = random_cuda({int64_t{64} << 20});
  time_on_gpu(state, src.numel() * 6, [&] { benchmark::DoNotOptimize(src.to(at::kHalf)); });
}
BENCHMARK(BM_FloatToHalf64M)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Fill256MB(benchmark::State& state) {
  at::Tensor dst = at::empty({k256MB / 4}, at::kCUDA);
  time_on_gpu(state, k256MB, [&] { dst.fill_(1.5f); });
}
BENCHMARK(BM_Fill256MB)->UseManualTime()->Unit(benchmark::kMicrosecond);

// Host time per call: the dispatcher, the caching allocator (a cached block every time after
// the first) and the TensorImpl; nothing reaches the GPU.
void BM_EmptyCUDA1(benchmark::State& state) {
  at::empty({1}, at::kCUDA);
  for (auto _ : state) benchmark::DoNotOptimize(at::empty({1}, at::kCUDA));
}
BENCHMARK(BM_EmptyCUDA1);

// A host -> device -> host round trip of 64 MB through pinned memory (non_blocking).
void BM_PinnedRoundTrip64MB(benchmark::State& state) {
  const at::Tensor host = at::rand({16 << 20}).pin_memory();
  at::Tensor back = at::empty({16 << 20}, at::TensorOptions().pinned_memory(true));
  time_on_gpu(state, 2 * (int64_t{64} << 20), [&] {
    at::Tensor d = host.to(at::kCUDA, /*non_blocking=*/true);
    back.copy_(d, /*non_blocking=*/true);
  });
}
BENCHMARK(BM_PinnedRoundTrip64MB)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
