// Big tensors (issue 20): copies, elementwise ops, reductions and scans of a 4096x4096 float
// tensor (64 MB), the way users make the calls (outputs allocated by the call), on one thread and
// on two. Built against miniaten and libtorch (MINIATEN_BENCH_LIBTORCH); tools/bench/compare.sh
// prints both with ratios.
//
// Bytes per second count what a call must move at least: read + write for copies and elementwise
// ops (a binary op reads two inputs), the input for reductions, read + write for scans.
// BM_CopyInto is the preallocated `copy_` rate the allocator targets are measured against;
// BM_Memcpy is the machine's.

#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#else
#include "aten/ATen.h"
#include "aten/Parallel.h"
#endif

namespace {

constexpr int64_t kSide = 4096;
constexpr int64_t kBytes = kSide * kSide * 4;

// Runs f() with `Threads` threads, counting `bytes` per call.
template <int Threads, typename F>
void run(benchmark::State& state, int64_t bytes, F f) {
  at::set_num_threads(Threads);
  for (auto _ : state) {
    at::Tensor r = f();
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

at::Tensor square() {
  return at::rand({kSide, kSide});
}

template <int Threads>
void BM_Memcpy(benchmark::State& state) {
  std::vector<char> a(kBytes, 1), b(kBytes, 2);
  at::set_num_threads(Threads);
  for (auto _ : state) {
    at::parallel_for(0, kBytes / 64, kBytes / 64 / Threads, [&](int64_t begin, int64_t end) {
      std::memcpy(b.data() + begin * 64, a.data() + begin * 64,
                  static_cast<size_t>((end - begin) * 64));
    });
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * kBytes);
}
BENCHMARK_TEMPLATE(BM_Memcpy, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Memcpy, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_CopyInto(benchmark::State& state) {
  const at::Tensor src = square();
  at::Tensor dst = at::empty_like(src);
  run<Threads>(state, 2 * kBytes, [&] { return dst.copy_(src); });
}
BENCHMARK_TEMPLATE(BM_CopyInto, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_CopyInto, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_Clone(benchmark::State& state) {
  const at::Tensor src = square();
  run<Threads>(state, 2 * kBytes, [&] { return src.clone(); });
}
BENCHMARK_TEMPLATE(BM_Clone, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Clone, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_TransposeContiguous(benchmark::State& state) {
  const at::Tensor src = square();
  run<Threads>(state, 2 * kBytes, [&] { return src.t().contiguous(); });
}
BENCHMARK_TEMPLATE(BM_TransposeContiguous, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_TransposeContiguous, 2)->Unit(benchmark::kMicrosecond);

// The transposing copy into a preallocated output: the rate BM_TransposeContiguous's
// allocation is measured against.
template <int Threads>
void BM_TransposeInto(benchmark::State& state) {
  const at::Tensor src = square();
  at::Tensor dst = at::empty_like(src);
  run<Threads>(state, 2 * kBytes, [&] { return dst.copy_(src.t()); });
}
BENCHMARK_TEMPLATE(BM_TransposeInto, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_TransposeInto, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_Add(benchmark::State& state) {
  const at::Tensor a = square(), b = square();
  run<Threads>(state, 3 * kBytes, [&] { return a + b; });
}
BENCHMARK_TEMPLATE(BM_Add, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Add, 2)->Unit(benchmark::kMicrosecond);

// The same add into a preallocated output: the rate BM_Add's allocation is measured against.
template <int Threads>
void BM_AddInto(benchmark::State& state) {
  const at::Tensor a = square(), b = square();
  at::Tensor out = at::empty_like(a);
  run<Threads>(state, 3 * kBytes, [&] { return at::add_out(out, a, b); });
}
BENCHMARK_TEMPLATE(BM_AddInto, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_AddInto, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_MulScalar(benchmark::State& state) {
  const at::Tensor a = square();
  run<Threads>(state, 2 * kBytes, [&] { return a * 2; });
}
BENCHMARK_TEMPLATE(BM_MulScalar, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_MulScalar, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_SumAll(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return m.sum(); });
}
BENCHMARK_TEMPLATE(BM_SumAll, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_SumAll, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_SumInner(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return m.sum(1); });
}
BENCHMARK_TEMPLATE(BM_SumInner, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_SumInner, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_SumOuter(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return m.sum(0); });
}
BENCHMARK_TEMPLATE(BM_SumOuter, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_SumOuter, 2)->Unit(benchmark::kMicrosecond);

// The inner dim of a transposed view: the reduced dim has the large stride.
template <int Threads>
void BM_SumTransposed(benchmark::State& state) {
  const at::Tensor m = square().t();
  run<Threads>(state, kBytes, [&] { return m.sum(1); });
}
BENCHMARK_TEMPLATE(BM_SumTransposed, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_SumTransposed, 2)->Unit(benchmark::kMicrosecond);

// Several dims, interleaved with kept ones: [64, 64, 64, 64] summed over dims 0 and 2.
template <int Threads>
void BM_SumDims02(benchmark::State& state) {
  const at::Tensor m = square().view({64, 64, 64, 64});
  run<Threads>(state, kBytes, [&] { return m.sum(at::IntArrayRef{0, 2}); });
}
BENCHMARK_TEMPLATE(BM_SumDims02, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_SumDims02, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_MeanInner(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return m.mean(1); });
}
BENCHMARK_TEMPLATE(BM_MeanInner, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_MeanInner, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_CumsumInner(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, 2 * kBytes, [&] { return m.cumsum(1); });
}
BENCHMARK_TEMPLATE(BM_CumsumInner, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_CumsumInner, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_CumsumOuter(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, 2 * kBytes, [&] { return m.cumsum(0); });
}
BENCHMARK_TEMPLATE(BM_CumsumOuter, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_CumsumOuter, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_AmaxInner(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return m.amax(1); });
}
BENCHMARK_TEMPLATE(BM_AmaxInner, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_AmaxInner, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_ArgmaxInner(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return m.argmax(1); });
}
BENCHMARK_TEMPLATE(BM_ArgmaxInner, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_ArgmaxInner, 2)->Unit(benchmark::kMicrosecond);

// argmax() of the whole tensor: one row, split into a piece per thread.
template <int Threads>
void BM_ArgmaxAll(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return m.argmax(); });
}
BENCHMARK_TEMPLATE(BM_ArgmaxAll, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_ArgmaxAll, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_NormAll(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return m.norm(); });
}
BENCHMARK_TEMPLATE(BM_NormAll, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_NormAll, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_NormOuter(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return at::norm(m, 2, {0}); });
}
BENCHMARK_TEMPLATE(BM_NormOuter, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_NormOuter, 2)->Unit(benchmark::kMicrosecond);

template <int Threads>
void BM_ProdInner(benchmark::State& state) {
  const at::Tensor m = square();
  run<Threads>(state, kBytes, [&] { return m.prod(1); });
}
BENCHMARK_TEMPLATE(BM_ProdInner, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_ProdInner, 2)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
