// Elementwise math as a new user measures it: 4M float32 elements into a preallocated output
// (the _out forms; the allocating forms are measured by bench_elementwise), on 1 and 2 threads,
// items_per_second = elements per second. Built against miniaten and, as bench_vecmath_libtorch,
// against libtorch 1.13 (run that one with and without ATEN_CPU_CAPABILITY=avx512).
//
// BM_<op>/<threads>:           the unary functions
// BM_Copy<From>To<To>/<threads>: copy_ between dtypes (the vector conversions)
// BM_Big<op>/<threads>:        32M elements (128 MB, past the last-level cache) beside BM_BigCopy:
//                              the cheap ops should run at memory speed
// BM_<op>Small/<numel>:        1 and 64 elements, one thread: the per-call cost

#include <benchmark/benchmark.h>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#else
#include "aten/ATen.h"
#include "aten/Parallel.h"
#endif

namespace {

constexpr int64_t kNumel = 4 << 20;
constexpr int64_t kBigNumel = 32 << 20;

// Values where every function below is defined and not saturated.
at::Tensor input(int64_t n) {
  return at::rand({n}).mul_(0.9).add_(0.05);
}

template <typename Fn>
void run_unary(benchmark::State& state, int64_t n, Fn fn) {
  at::set_num_threads(static_cast<int>(state.range(0)));
  at::Tensor x = input(n);
  at::Tensor out = at::empty_like(x);
  for (auto _ : state) {
    fn(out, x);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * n);
  at::set_num_threads(1);
}

#define MINIATEN_BENCH_UNARY(op)                                                                  \
  void BM_##op(benchmark::State& state) {                                                         \
    run_unary(state, kNumel, [](at::Tensor& out, const at::Tensor& x) { at::op##_out(out, x); }); \
  }                                                                                               \
  BENCHMARK(BM_##op)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

MINIATEN_BENCH_UNARY(exp)
MINIATEN_BENCH_UNARY(expm1)
MINIATEN_BENCH_UNARY(exp2)
MINIATEN_BENCH_UNARY(log)
MINIATEN_BENCH_UNARY(log2)
MINIATEN_BENCH_UNARY(log10)
MINIATEN_BENCH_UNARY(log1p)
MINIATEN_BENCH_UNARY(sin)
MINIATEN_BENCH_UNARY(cos)
MINIATEN_BENCH_UNARY(tan)
MINIATEN_BENCH_UNARY(asin)
MINIATEN_BENCH_UNARY(acos)
MINIATEN_BENCH_UNARY(atan)
MINIATEN_BENCH_UNARY(sinh)
MINIATEN_BENCH_UNARY(cosh)
MINIATEN_BENCH_UNARY(tanh)
MINIATEN_BENCH_UNARY(erf)
MINIATEN_BENCH_UNARY(erfc)
MINIATEN_BENCH_UNARY(sigmoid)
MINIATEN_BENCH_UNARY(sqrt)
MINIATEN_BENCH_UNARY(rsqrt)
MINIATEN_BENCH_UNARY(reciprocal)
MINIATEN_BENCH_UNARY(floor)
MINIATEN_BENCH_UNARY(ceil)
MINIATEN_BENCH_UNARY(round)
MINIATEN_BENCH_UNARY(trunc)
MINIATEN_BENCH_UNARY(sign)
MINIATEN_BENCH_UNARY(abs)
MINIATEN_BENCH_UNARY(neg)

#undef MINIATEN_BENCH_UNARY

void BM_mul(benchmark::State& state) {
  at::Tensor y = input(kNumel);
  run_unary(state, kNumel, [&](at::Tensor& out, const at::Tensor& x) { at::mul_out(out, x, y); });
}
BENCHMARK(BM_mul)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

// Comparisons into a Bool output: two tensors, and a tensor against a Scalar.
template <typename Fn>
void run_predicate(benchmark::State& state, int64_t n, Fn fn) {
  at::set_num_threads(static_cast<int>(state.range(0)));
  at::Tensor x = input(n), y = input(n);
  at::Tensor out = at::empty({n}, at::kBool);
  for (auto _ : state) {
    fn(out, x, y);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * n);
  at::set_num_threads(1);
}

void BM_eq(benchmark::State& state) {
  run_predicate(state, kNumel, [](at::Tensor& out, const at::Tensor& x, const at::Tensor& y) {
    at::eq_out(out, x, y);
  });
}
BENCHMARK(BM_eq)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

void BM_ltScalar(benchmark::State& state) {
  run_predicate(state, kNumel, [](at::Tensor& out, const at::Tensor& x, const at::Tensor&) {
    at::lt_out(out, x, 0.5);
  });
}
BENCHMARK(BM_ltScalar)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

// copy_ between dtypes: the source holds values in every destination type's range.
void run_copy(benchmark::State& state, int64_t n, at::ScalarType from, at::ScalarType to) {
  at::set_num_threads(static_cast<int>(state.range(0)));
  at::Tensor x = input(n).mul_(100).to(from);
  at::Tensor out = at::empty({n}, to);
  for (auto _ : state) {
    out.copy_(x);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * n);
  at::set_num_threads(1);
}

#define MINIATEN_BENCH_COPY(Src, Dst)                                  \
  void BM_Copy##Src##To##Dst(benchmark::State& state) {                \
    run_copy(state, kNumel, at::ScalarType::Src, at::ScalarType::Dst); \
  }                                                                    \
  BENCHMARK(BM_Copy##Src##To##Dst)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

MINIATEN_BENCH_COPY(Float, Double)
MINIATEN_BENCH_COPY(Double, Float)
MINIATEN_BENCH_COPY(Float, Int)
MINIATEN_BENCH_COPY(Float, Long)
MINIATEN_BENCH_COPY(Double, Long)
MINIATEN_BENCH_COPY(Float, Byte)
MINIATEN_BENCH_COPY(Int, Float)
MINIATEN_BENCH_COPY(Long, Int)
MINIATEN_BENCH_COPY(Byte, Long)
MINIATEN_BENCH_COPY(Float, Half)
MINIATEN_BENCH_COPY(Half, Float)
MINIATEN_BENCH_COPY(BFloat16, Float)
MINIATEN_BENCH_COPY(Float, Bool)
MINIATEN_BENCH_COPY(Bool, Float)

#undef MINIATEN_BENCH_COPY

// ---- Past the last-level cache ----------------------------------------------------------------

void BM_BigCopy(benchmark::State& state) {
  run_unary(state, kBigNumel, [](at::Tensor& out, const at::Tensor& x) { out.copy_(x); });
}
BENCHMARK(BM_BigCopy)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_BigSqrt(benchmark::State& state) {
  run_unary(state, kBigNumel, [](at::Tensor& out, const at::Tensor& x) { at::sqrt_out(out, x); });
}
BENCHMARK(BM_BigSqrt)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_BigAbs(benchmark::State& state) {
  run_unary(state, kBigNumel, [](at::Tensor& out, const at::Tensor& x) { at::abs_out(out, x); });
}
BENCHMARK(BM_BigAbs)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_BigFloor(benchmark::State& state) {
  run_unary(state, kBigNumel, [](at::Tensor& out, const at::Tensor& x) { at::floor_out(out, x); });
}
BENCHMARK(BM_BigFloor)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_BigMul(benchmark::State& state) {
  at::Tensor y = input(kBigNumel);
  run_unary(state, kBigNumel,
            [&](at::Tensor& out, const at::Tensor& x) { at::mul_out(out, x, y); });
}
BENCHMARK(BM_BigMul)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_BigLtScalar(benchmark::State& state) {
  run_predicate(state, kBigNumel, [](at::Tensor& out, const at::Tensor& x, const at::Tensor&) {
    at::lt_out(out, x, 0.5);
  });
}
BENCHMARK(BM_BigLtScalar)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_BigCopyFloatToInt(benchmark::State& state) {
  run_copy(state, kBigNumel, at::kFloat, at::kInt);
}
BENCHMARK(BM_BigCopyFloatToInt)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// ---- Small tensors: the per-call cost --------------------------------------------------------

void BM_expSmall(benchmark::State& state) {
  at::Tensor x = input(state.range(0));
  at::Tensor out = at::empty_like(x);
  for (auto _ : state) at::exp_out(out, x);
}
BENCHMARK(BM_expSmall)->Arg(1)->Arg(64);

void BM_sigmoidSmall(benchmark::State& state) {
  at::Tensor x = input(state.range(0));
  at::Tensor out = at::empty_like(x);
  for (auto _ : state) at::sigmoid_out(out, x);
}
BENCHMARK(BM_sigmoidSmall)->Arg(1)->Arg(64);

void BM_ltScalarSmall(benchmark::State& state) {
  at::Tensor x = input(state.range(0));
  at::Tensor out = at::empty({state.range(0)}, at::kBool);
  for (auto _ : state) at::lt_out(out, x, 0.5);
}
BENCHMARK(BM_ltScalarSmall)->Arg(1)->Arg(64);

void BM_CopyFloatToIntSmall(benchmark::State& state) {
  at::Tensor x = input(state.range(0));
  at::Tensor out = at::empty({state.range(0)}, at::kInt);
  for (auto _ : state) out.copy_(x);
}
BENCHMARK(BM_CopyFloatToIntSmall)->Arg(1)->Arg(64);

}  // namespace

BENCHMARK_MAIN();
