// Autograd overhead, built against miniaten and libtorch: clone() of a 4-element tensor that
// requires grad runs the Autograd kernel (CloneBackward0 node, next edge to the leaf's
// AccumulateGrad), redispatches below autograd, and attaches the history to the result.
// Target: <= 300 ns per call on one thread (libtorch 1.13: 1.1 us on the CI machines).

#include <benchmark/benchmark.h>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <torch/torch.h>
#else
#include "aten/autograd/autograd.h"
#endif

namespace {

void BM_CloneRequiresGrad(benchmark::State& state) {
  at::Tensor x = torch::ones({4}, torch::requires_grad());
  for (auto _ : state) {
    at::Tensor y = x.clone();
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(BM_CloneRequiresGrad);

// The same call without autograd work, for the difference.
void BM_CloneNoGrad(benchmark::State& state) {
  at::Tensor x = torch::ones({4});
  for (auto _ : state) {
    at::Tensor y = x.clone();
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(BM_CloneNoGrad);

// A small graph end to end: forward (mul, sum) and backward into x.grad().
void BM_MulSumBackward(benchmark::State& state) {
  at::Tensor x = torch::ones({4}, torch::requires_grad());
  at::Tensor w = torch::ones({4});
  for (auto _ : state) {
    at::Tensor loss = at::mul(x, w).sum();
    loss.backward();
    benchmark::DoNotOptimize(x.grad());
  }
}
BENCHMARK(BM_MulSumBackward);

}  // namespace

BENCHMARK_MAIN();
