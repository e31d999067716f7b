// Reductions and scans, built against miniaten and libtorch (tools/bench/compare.sh).
//
// BM_SumOneElement: the fixed cost of a reduction (dim checks, output allocation, TensorIterator
// build, kernel stub). The others sum or scan ~4M floats (16 MB) in the shapes that take each
// path of the sum kernel: a full reduction (two-pass when parallel), the contiguous inner dim,
// the outer dim (vectorised across columns), a channels-last spatial sum, int64, mean, and
// cumsum along either dim. Bytes processed are the input's.

#include <benchmark/benchmark.h>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#else
#include "aten/ATen.h"
#endif

namespace {

void BM_SumOneElement(benchmark::State& state) {
  const at::Tensor x = at::ones({1});
  for (auto _ : state) {
    at::Tensor r = at::sum(x);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_SumOneElement);

// Runs f(x) over x, counting x's bytes.
template <typename F>
void run(benchmark::State& state, const at::Tensor& x, F f) {
  for (auto _ : state) {
    at::Tensor r = f(x);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * x.numel() * static_cast<int64_t>(x.element_size()));
}

void BM_SumAll(benchmark::State& state) {
  run(state, at::ones({1 << 22}), [](const at::Tensor& x) { return x.sum(); });
}
BENCHMARK(BM_SumAll)->Unit(benchmark::kMicrosecond);

void BM_SumInnerDim(benchmark::State& state) {
  run(state, at::ones({4096, 1024}), [](const at::Tensor& x) { return x.sum(at::IntArrayRef{1}); });
}
BENCHMARK(BM_SumInnerDim)->Unit(benchmark::kMicrosecond);

void BM_SumOuterDim(benchmark::State& state) {
  run(state, at::ones({1024, 4096}), [](const at::Tensor& x) { return x.sum(at::IntArrayRef{0}); });
}
BENCHMARK(BM_SumOuterDim)->Unit(benchmark::kMicrosecond);

void BM_SumChannelsLastHW(benchmark::State& state) {
  run(state, at::ones({32, 64, 44, 44}).contiguous(at::MemoryFormat::ChannelsLast),
      [](const at::Tensor& x) {
        return x.sum(at::IntArrayRef{2, 3});
      });
}
BENCHMARK(BM_SumChannelsLastHW)->Unit(benchmark::kMicrosecond);

void BM_SumLong(benchmark::State& state) {
  run(state, at::ones({1 << 22}, at::kLong), [](const at::Tensor& x) { return x.sum(); });
}
BENCHMARK(BM_SumLong)->Unit(benchmark::kMicrosecond);

void BM_MeanInnerDim(benchmark::State& state) {
  run(state, at::ones({4096, 1024}),
      [](const at::Tensor& x) { return x.mean(at::IntArrayRef{1}); });
}
BENCHMARK(BM_MeanInnerDim)->Unit(benchmark::kMicrosecond);

void BM_CumsumInnerDim(benchmark::State& state) {
  run(state, at::ones({2048, 2048}), [](const at::Tensor& x) { return x.cumsum(1); });
}
BENCHMARK(BM_CumsumInnerDim)->Unit(benchmark::kMicrosecond);

void BM_CumsumOuterDim(benchmark::State& state) {
  run(state, at::ones({2048, 2048}), [](const at::Tensor& x) { return x.cumsum(0); });
}
BENCHMARK(BM_CumsumOuterDim)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
