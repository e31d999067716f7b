// View operators: each computes only sizes, strides and an offset over the same storage, so the
// cost is the dispatcher plus one TensorImpl. Target <= 60 ns each (issue 6). Built against
// miniaten and libtorch (MINIATEN_BENCH_LIBTORCH).

#include <benchmark/benchmark.h>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#else
#include "aten/ATen.h"
#endif

namespace {

at::Tensor base() { return at::ones({8, 16, 32}); }

void BM_Transpose(benchmark::State& state) {
  at::Tensor t = base();
  for (auto _ : state) {
    at::Tensor v = t.transpose(0, 2);
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_Transpose);

void BM_Permute(benchmark::State& state) {
  at::Tensor t = base();
  for (auto _ : state) {
    at::Tensor v = t.permute({2, 0, 1});
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_Permute);

void BM_Narrow(benchmark::State& state) {
  at::Tensor t = base();
  for (auto _ : state) {
    at::Tensor v = t.narrow(1, 2, 8);
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_Narrow);

void BM_Expand(benchmark::State& state) {
  at::Tensor t = at::ones({8, 1, 32});
  for (auto _ : state) {
    at::Tensor v = t.expand({4, 8, 16, 32});
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_Expand);

void BM_View(benchmark::State& state) {
  at::Tensor t = base();
  for (auto _ : state) {
    at::Tensor v = t.view({128, 32});
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_View);

}  // namespace

BENCHMARK_MAIN();
