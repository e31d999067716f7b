// Layout-changing copies at memory speed (issue 5): bytes moved per second, counting bytes read
// plus bytes written, beside memcpy on buffers of the same size. Built against miniaten and
// against libtorch (MINIATEN_BENCH_LIBTORCH); tools/bench/compare.sh prints both with ratios.
//
// Targets: same-layout 25 MB copy >= 0.95x memcpy; 4096x4096 transpose and [32,64,56,56]
// NCHW<->NHWC >= 0.6x memcpy (libtorch 1.13: 0.07x, 0.32x, 0.19x on the CI machines).
// The `<2>` variants run with two threads; the others with one. BM_Memcpy25MBTwoThreads shows
// what a second thread adds to plain memcpy (ordinary stores) on the machine: where memory
// bandwidth is the limit, two memcpys of half the bytes are no faster than one.

#include <benchmark/benchmark.h>

#include <cstring>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#else
#include "aten/ATen.h"
#include "aten/Parallel.h"
#endif

namespace {

void set_bytes(benchmark::State& state, int64_t nbytes) {
  state.SetBytesProcessed(state.iterations() * 2 * nbytes);
}

void BM_Memcpy25MB(benchmark::State& state) {
  const size_t n = 25u << 20;
  std::vector<char> a(n, 1), b(n, 2);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), n);
    benchmark::ClobberMemory();
  }
  set_bytes(state, static_cast<int64_t>(n));
}
BENCHMARK(BM_Memcpy25MB);

void BM_Memcpy25MBTwoThreads(benchmark::State& state) {
  const int64_t n = 25 << 20;
  std::vector<char> a(n, 1), b(n, 2);
  at::set_num_threads(2);
  for (auto _ : state) {
    // Two halves, split on a cache line (parallel_for counts lines here).
    at::parallel_for(0, n / 64, n / 128, [&](int64_t begin, int64_t end) {
      std::memcpy(b.data() + begin * 64, a.data() + begin * 64,
                  static_cast<size_t>((end - begin) * 64));
    });
    benchmark::ClobberMemory();
  }
  set_bytes(state, n);
}
BENCHMARK(BM_Memcpy25MBTwoThreads);

template <int Threads>
void BM_CopySameLayout25MB(benchmark::State& state) {
  at::set_num_threads(Threads);
  at::Tensor src = at::ones({(25 << 20) / 4});
  at::Tensor dst = at::empty({(25 << 20) / 4});
  for (auto _ : state) dst.copy_(src);
  set_bytes(state, src.numel() * 4);
}
BENCHMARK_TEMPLATE(BM_CopySameLayout25MB, 1);
BENCHMARK_TEMPLATE(BM_CopySameLayout25MB, 2);

template <int Threads>
void BM_Transpose4096(benchmark::State& state) {
  at::set_num_threads(Threads);
  at::Tensor src = at::ones({4096, 4096}).t();
  at::Tensor dst = at::empty({4096, 4096});
  for (auto _ : state) dst.copy_(src);
  set_bytes(state, src.numel() * 4);
}
BENCHMARK_TEMPLATE(BM_Transpose4096, 1);
BENCHMARK_TEMPLATE(BM_Transpose4096, 2);

template <int Threads>
void BM_Nchw2Nhwc(benchmark::State& state) {
  at::set_num_threads(Threads);
  at::Tensor src = at::ones({32, 64, 56, 56});
  at::Tensor dst = at::empty({32, 64, 56, 56}, at::MemoryFormat::ChannelsLast);
  for (auto _ : state) dst.copy_(src);
  set_bytes(state, src.numel() * 4);
}
BENCHMARK_TEMPLATE(BM_Nchw2Nhwc, 1);
BENCHMARK_TEMPLATE(BM_Nchw2Nhwc, 2);

template <int Threads>
void BM_Nhwc2Nchw(benchmark::State& state) {
  at::set_num_threads(Threads);
  at::Tensor src = at::ones({32, 64, 56, 56}).contiguous(at::MemoryFormat::ChannelsLast);
  at::Tensor dst = at::empty({32, 64, 56, 56});
  for (auto _ : state) dst.copy_(src);
  set_bytes(state, src.numel() * 4);
}
BENCHMARK_TEMPLATE(BM_Nhwc2Nchw, 1);
BENCHMARK_TEMPLATE(BM_Nhwc2Nchw, 2);

// The per-call paths of issue 6.
void BM_ContiguousOfContiguous(benchmark::State& state) {
  at::Tensor t = at::ones({8, 8});
  for (auto _ : state) {
    at::Tensor r = t.contiguous();
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_ContiguousOfContiguous);

void BM_ContiguousOf8x8Transpose(benchmark::State& state) {
  at::set_num_threads(1);
  at::Tensor t = at::ones({8, 8}).t();
  for (auto _ : state) {
    at::Tensor r = t.contiguous();
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_ContiguousOf8x8Transpose);

}  // namespace

BENCHMARK_MAIN();
