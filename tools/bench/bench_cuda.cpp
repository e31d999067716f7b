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

#if __has_include(<cuda.h>)
#include <cuda.h>  // the driver API types of BM_LaunchFloorEmptyKernel
#endif
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

#if __has_include(<cuda.h>)
// The true floor of a kernel launch: an empty kernel from PTX, launched through the driver API
// (reached through the runtime, so both twins build it without linking libcuda), host time per
// call as BM_AddCUDA1 measures it.
const char kEmptyKernelPtx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry empty_kernel()\n{\n  ret;\n}\n";
void BM_LaunchFloorEmptyKernel(benchmark::State& state) {
  using ModuleLoad = CUresult (*)(CUmodule*, const void*);
  using GetFunction = CUresult (*)(CUfunction*, CUmodule, const char*);
  using Launch = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, CUstream, void**, void**);
  void* load = nullptr;
  void* get = nullptr;
  void* launch = nullptr;
  cudaDriverEntryPointQueryResult found;
  check(cudaGetDriverEntryPointByVersion("cuModuleLoadData", &load, 12000, cudaEnableDefault,
                                         &found));
  check(cudaGetDriverEntryPointByVersion("cuModuleGetFunction", &get, 12000, cudaEnableDefault,
                                         &found));
  check(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &launch, 12000, cudaEnableDefault,
                                         &found));
  check(cudaFree(nullptr));  // the primary context exists before the module loads into it
  CUmodule module;
  CUfunction fn;
  if (reinterpret_cast<ModuleLoad>(load)(&module, kEmptyKernelPtx) != CUDA_SUCCESS ||
      reinterpret_cast<GetFunction>(get)(&fn, module, "empty_kernel") != CUDA_SUCCESS) {
    state.SkipWithError("could not load the empty kernel");
    return;
  }
  const auto run = reinterpret_cast<Launch>(launch);
  const CUstream stream = at::cuda::getCurrentCUDAStream();
  check(cudaDeviceSynchronize());
  for (auto _ : state) {
    if (run(fn, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr) != CUDA_SUCCESS) {
      state.SkipWithError("cuLaunchKernel failed");
      break;
    }
  }
  check(cudaDeviceSynchronize());
}
BENCHMARK(BM_LaunchFloorEmptyKernel);
#endif

// A 4096 x 4096 x 4096 float product (cuBLAS on both sides; full float, PyTorch's default
// allow_tf32 = False for matmul).
void BM_Mm4096(benchmark::State& state) {
  const at::Tensor a = random_cuda({4096, 4096});
  const at::Tensor b = random_cuda({4096, 4096});
  time_on_gpu(state, 3 * 4096 * 4096 * 4, [&] { benchmark::DoNotOptimize(at::mm(a, b)); });
  state.counters["TFLOP/s"] =
      benchmark::Counter(2.0 * 4096 * 4096 * 4096 * state.iterations(), benchmark::Counter::kIsRate,
                         benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Mm4096)->UseManualTime()->Unit(benchmark::kMicrosecond);

// softmax along rows of 4096 (the last dim), and along the middle dim of [64, 1024, 64].
void BM_SoftmaxRows4096x4096(benchmark::State& state) {
  const at::Tensor x = random_cuda({4096, 4096});
  time_on_gpu(state, 2 * 4096 * 4096 * 4, [&] { benchmark::DoNotOptimize(at::softmax(x, 1)); });
}
BENCHMARK(BM_SoftmaxRows4096x4096)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_SoftmaxInner64x1024x64(benchmark::State& state) {
  const at::Tensor x = random_cuda({64, 1024, 64});
  time_on_gpu(state, 2 * 64 * 1024 * 64 * 4, [&] { benchmark::DoNotOptimize(at::softmax(x, 1)); });
}
BENCHMARK(BM_SoftmaxInner64x1024x64)->UseManualTime()->Unit(benchmark::kMicrosecond);

// examples/mlp's training step on the GPU (batch 64, 32 -> 256 -> 4, relu, cross-entropy, SGD),
// end to end and synchronized: a model small enough that the host's per-call cost decides.
void BM_MlpTrainStepCUDA(benchmark::State& state) {
  const at::Tensor x = random_cuda({64, 32});
  const at::Tensor y = at::zeros({64}, at::TensorOptions().dtype(at::kLong)).to(at::kCUDA);
  at::Tensor w1 = random_cuda({256, 32}).requires_grad_(true);
  at::Tensor b1 = random_cuda({256}).requires_grad_(true);
  at::Tensor w2 = random_cuda({4, 256}).requires_grad_(true);
  at::Tensor b2 = random_cuda({4}).requires_grad_(true);
  for (auto _ : state) {
    const at::Tensor hidden = at::relu(at::linear(x, w1, b1));
    const at::Tensor loss = at::cross_entropy_loss(at::linear(hidden, w2, b2), y);
    loss.backward();
    {
      at::NoGradGuard no_grad;
      for (at::Tensor* p : {&w1, &b1, &w2, &b2}) {
        p->sub_(p->grad(), 0.01);
        p->mutable_grad().zero_();
      }
    }
    check(cudaDeviceSynchronize());
  }
}
BENCHMARK(BM_MlpTrainStepCUDA)->Unit(benchmark::kMicrosecond);

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
