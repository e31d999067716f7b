// Factory overhead: at::empty({1}) through the whole generated API (at::empty -> _ops ->
// dispatcher -> BackendSelect -> CPU kernel -> allocator), built against miniaten and libtorch.
// Target: <= 60 ns per call on one thread (libtorch 1.13: 188 ns on the CI machines).

#include <benchmark/benchmark.h>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#else
#include "aten/ATen.h"
#endif

namespace {

void BM_EmptyOneElement(benchmark::State& state) {
  for (auto _ : state) {
    at::Tensor t = at::empty({1});
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_EmptyOneElement);

void BM_EmptyChannelsLast(benchmark::State& state) {
  for (auto _ : state) {
    at::Tensor t = at::empty({2, 3, 4, 5}, at::MemoryFormat::ChannelsLast);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_EmptyChannelsLast);

void BM_ZerosSmall(benchmark::State& state) {
  for (auto _ : state) {
    at::Tensor t = at::zeros({4});
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_ZerosSmall);

}  // namespace

BENCHMARK_MAIN();
