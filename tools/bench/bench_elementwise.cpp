// Elementwise operators, built against miniaten and libtorch (tools/bench/compare.sh).
//
// BM_AddOneElement: at::add of two 1-element float tensors — the fixed cost of an elementwise
// op: dispatch, TensorIterator build, output allocation, kernel stub (target: <= 150 ns;
// libtorch 1.13: 556 ns on the CI machines).
// BM_AddBiasChannelsLast: a [32,64,56,56] channels-last tensor + a [64,1,1] bias, the
// broadcast add after a convolution (target: at least libtorch's speed). Bytes processed are
// the output's plus the input's.
// The others give context: a Scalar add (vectorized with one broadcast input), a contiguous
// same-shape add, and a unary float op.
// BM_AddAlphaInt32 / BM_AddInt64 / BM_MulInt32: integer arithmetic, which the kernels compile
// with -fwrapv (Note [Integer tensor arithmetic wraps]); bytes are two inputs and the output.

#include <benchmark/benchmark.h>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#else
#include "aten/ATen.h"
#endif

namespace {

void BM_AddOneElement(benchmark::State& state) {
  const at::Tensor a = at::ones({1}), b = at::ones({1});
  for (auto _ : state) {
    at::Tensor r = at::add(a, b);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_AddOneElement);

void BM_AddScalarOneElement(benchmark::State& state) {
  const at::Tensor a = at::ones({1});
  for (auto _ : state) {
    at::Tensor r = at::add(a, 2.5);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_AddScalarOneElement);

// Shape inference: the output geometry of a broadcast add of meta tensors, nothing computed
// (miniaten's Meta also asks the CPU kernel about the dtypes: MetaStub.h).
void BM_AddMetaBroadcast(benchmark::State& state) {
  const auto meta = at::TensorOptions().device(at::kMeta);
  const at::Tensor x = at::empty({32, 64, 56, 56}, meta), bias = at::empty({64, 1, 1}, meta);
  for (auto _ : state) {
    at::Tensor r = at::add(x, bias);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_AddMetaBroadcast);

void BM_AddBiasChannelsLast(benchmark::State& state) {
  const at::Tensor x = at::ones({32, 64, 56, 56}).contiguous(at::MemoryFormat::ChannelsLast);
  const at::Tensor bias = at::ones({64, 1, 1});
  for (auto _ : state) {
    at::Tensor r = at::add(x, bias);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * x.numel() * 2 * 4);
}
BENCHMARK(BM_AddBiasChannelsLast)->Unit(benchmark::kMicrosecond);

void BM_AddContiguous(benchmark::State& state) {
  const at::Tensor a = at::ones({1 << 20}), b = at::ones({1 << 20});
  for (auto _ : state) {
    at::Tensor r = at::add(a, b);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * a.numel() * 3 * 4);
}
BENCHMARK(BM_AddContiguous)->Unit(benchmark::kMicrosecond);

void BM_MulScalarInPlace(benchmark::State& state) {
  at::Tensor a = at::ones({1 << 20});
  for (auto _ : state) {
    a.mul_(1.0);
    benchmark::DoNotOptimize(a);
  }
  state.SetBytesProcessed(state.iterations() * a.numel() * 2 * 4);
}
BENCHMARK(BM_MulScalarInPlace)->Unit(benchmark::kMicrosecond);

void BM_ExpContiguous(benchmark::State& state) {
  const at::Tensor a = at::ones({1 << 20});
  for (auto _ : state) {
    at::Tensor r = at::exp(a);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * a.numel() * 2 * 4);
}
BENCHMARK(BM_ExpContiguous)->Unit(benchmark::kMicrosecond);

// A contiguous 2^20-element integer op, the output allocated by the call.
template <typename Op>
void integer_binary(benchmark::State& state, at::ScalarType dtype, Op op) {
  const at::Tensor a = at::arange(1 << 20, at::TensorOptions().dtype(dtype));
  const at::Tensor b = at::full({1 << 20}, 3, at::TensorOptions().dtype(dtype));
  for (auto _ : state) {
    at::Tensor r = op(a, b);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * a.numel() * 3 *
                          static_cast<int64_t>(a.element_size()));
}

void BM_AddAlphaInt32(benchmark::State& state) {
  integer_binary(state, at::kInt,
                 [](const at::Tensor& a, const at::Tensor& b) { return at::add(a, b, 5); });
}
BENCHMARK(BM_AddAlphaInt32)->Unit(benchmark::kMicrosecond);

void BM_AddInt64(benchmark::State& state) {
  integer_binary(state, at::kLong,
                 [](const at::Tensor& a, const at::Tensor& b) { return at::add(a, b); });
}
BENCHMARK(BM_AddInt64)->Unit(benchmark::kMicrosecond);

void BM_MulInt32(benchmark::State& state) {
  integer_binary(state, at::kInt,
                 [](const at::Tensor& a, const at::Tensor& b) { return at::mul(a, b); });
}
BENCHMARK(BM_MulInt32)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
