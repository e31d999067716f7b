// The CUDA backend on a GPU (issues 15 and 16): copies and layout changes as bytes moved per second
// (read plus written), beside cudaMemcpyAsync on buffers of the same size, and the per-call
// cost of at::empty({1}, kCUDA) from the caching allocator. Built against miniaten, and on the
// GPU machine against PyTorch's libtorch (MINIATEN_BENCH_LIBTORCH; tools/scripts/gpu_check.sh),
// so both run the same source.
//
// Issue 16 adds the elementwise ops and reductions below (their targets are there).
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

// ---- Elementwise ops and reductions (issue 16) ------------------------------------------------
// Targets: add of two 64M-float tensors and the channels-last broadcast add >= 0.9x the
// bandwidth bound (bytes read + written at cudaMemcpy's rate) and >= PyTorch; the sums >= 0.85x
// and >= PyTorch; at::add of two 1-element CUDA tensors <= 0.5x PyTorch's host time per call.

constexpr int64_t k64M = int64_t{64} << 20;

void BM_Add64M(benchmark::State& state) {
  const at::Tensor a = random_cuda({k64M});
  const at::Tensor b = random_cuda({k64M});
  time_on_gpu(state, 3 * k64M * 4, [&] { benchmark::DoNotOptimize(at::add(a, b)); });
}
BENCHMARK(BM_Add64M)->UseManualTime()->Unit(benchmark::kMicrosecond);

// A bias over the channels of an NHWC activation: [64,128,112,112] channels-last + [128,1,1].
void BM_AddBiasChannelsLast(benchmark::State& state) {
  const at::Tensor x = random_cuda({64, 128, 112, 112}).contiguous(at::MemoryFormat::ChannelsLast);
  const at::Tensor bias = random_cuda({128, 1, 1});
  time_on_gpu(state, 2 * x.numel() * 4, [&] { benchmark::DoNotOptimize(at::add(x, bias)); });
}
BENCHMARK(BM_AddBiasChannelsLast)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_MulScalar64M(benchmark::State& state) {
  const at::Tensor a = random_cuda({k64M});
  time_on_gpu(state, 2 * k64M * 4, [&] { benchmark::DoNotOptimize(at::mul(a, 1.5)); });
}
BENCHMARK(BM_MulScalar64M)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Exp64M(benchmark::State& state) {
  const at::Tensor a = random_cuda({k64M});
  time_on_gpu(state, 2 * k64M * 4, [&] { benchmark::DoNotOptimize(at::exp(a)); });
}
BENCHMARK(BM_Exp64M)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Sum64M(benchmark::State& state) {
  const at::Tensor a = random_cuda({k64M});
  time_on_gpu(state, k64M * 4, [&] { benchmark::DoNotOptimize(a.sum()); });
}
BENCHMARK(BM_Sum64M)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Sum8192x8192Dim0(benchmark::State& state) {
  const at::Tensor a = random_cuda({8192, 8192});
  time_on_gpu(state, a.numel() * 4, [&] { benchmark::DoNotOptimize(a.sum(0)); });
}
BENCHMARK(BM_Sum8192x8192Dim0)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Sum8192x8192Dim1(benchmark::State& state) {
  const at::Tensor a = random_cuda({8192, 8192});
  time_on_gpu(state, a.numel() * 4, [&] { benchmark::DoNotOptimize(a.sum(1)); });
}
BENCHMARK(BM_Sum8192x8192Dim1)->UseManualTime()->Unit(benchmark::kMicrosecond);

// The per-channel mean of an NCHW activation (batch norm's statistics): kept dim in the middle.
void BM_MeanNCHWOverNHW(benchmark::State& state) {
  const at::Tensor x = random_cuda({64, 128, 56, 56});
  time_on_gpu(state, x.numel() * 4, [&] { benchmark::DoNotOptimize(x.mean({0, 2, 3})); });
}
BENCHMARK(BM_MeanNCHWOverNHW)->UseManualTime()->Unit(benchmark::kMicrosecond);

// Host time per call of at::add on two 1-element CUDA tensors: dispatch, iterator, allocator and
// the launch (the queue drained once at the end).
void BM_AddCUDA1(benchmark::State& state) {
  const at::Tensor a = random_cuda({1});
  const at::Tensor b = random_cuda({1});
  benchmark::DoNotOptimize(at::add(a, b));
  check(cudaDeviceSynchronize());
  for (auto _ : state) benchmark::DoNotOptimize(at::add(a, b));
  check(cudaDeviceSynchronize());
}
BENCHMARK(BM_AddCUDA1);

// The floor under any launch on this machine: a 4-byte cudaMemsetAsync (a kernel launch inside the
// runtime), host time per call as BM_AddCUDA1 measures it.
void BM_LaunchFloorMemset4B(benchmark::State& state) {
  at::Tensor a = random_cuda({1});
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  check(cudaDeviceSynchronize());
  for (auto _ : state) check(cudaMemsetAsync(a.data_ptr(), 0, 4, stream));
  check(cudaDeviceSynchronize());
}
BENCHMARK(BM_LaunchFloorMemset4B);

// A few elementwise ops, a reduction and its backward on 1M floats, end to end (synchronized).
void BM_ChainForwardBackward1M(benchmark::State& state) {
  const at::Tensor x = random_cuda({1 << 20}).requires_grad_(true);
  const at::Tensor w = random_cuda({1 << 20});
  for (auto _ : state) {
    at::Tensor y = at::sigmoid(at::add(at::mul(x, w), 0.5)).sum();
    y.backward();
    check(cudaDeviceSynchronize());
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(BM_ChainForwardBackward1M)->Unit(benchmark::kMicrosecond);

// A few elementwise ops and a reduction on 1M floats, forward only (end to end, synchronized).
void BM_ChainForward1M(benchmark::State& state) {
  const at::Tensor x = random_cuda({1 << 20});
  const at::Tensor w = random_cuda({1 << 20});
  for (auto _ : state) {
    at::Tensor y = at::sigmoid(at::add(at::mul(x, w), 0.5)).sum();
    check(cudaDeviceSynchronize());
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(BM_ChainForward1M)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
