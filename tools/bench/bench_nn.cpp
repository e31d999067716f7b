// The operators a model needs, as a user calls them (allocating forms), beside libtorch 1.13
// (built as bench_nn_libtorch; compare with tools/bench/compare_vecmath.sh, BENCH=bench_nn):
//
// BM_Mm/<n>:               at::mm of two n x n floats; items = n^3 multiply-adds
// BM_MmTransposed/<n>:     at::mm(a.t(), b): the transposed operand goes to BLAS as a transpose
// BM_Softmax/<threads>:    softmax over the last dim of [256, 4096] floats; items = elements
// BM_LogSoftmax/<threads>: log_softmax, same shape
// BM_SoftmaxDim0/<threads>: softmax over dim 0 of [256, 4096] (the column-group path)
// BM_Cat/<threads>:         at::cat of 8 [1024, 1024] floats along dim 0; items = elements
// BM_CatDim1/<threads>:     the same along dim 1 (strided slices of the result)
// BM_IndexSelect/<threads>: index_select of 10^5 random rows of 64 floats from 2 x 10^5 rows;
//                          items = elements written
// BM_Amax/<threads>, BM_AmaxDim0, BM_Prod, BM_Var, BM_LogSumExp, BM_Norm: the reductions over
//                          the last dim (dim 0 for BM_AmaxDim0) of [256, 4096] floats
//                          (BM_Norm: all of it); items = input elements
// BM_MlpTrainStep:         one SGD step of examples/mlp's network (batch 64, 32 features,
//                          hidden 256, 4 classes): forward, cross-entropy, backward, update;
//                          per call, in us

#include <benchmark/benchmark.h>

#include <vector>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/Parallel.h>
#include <torch/torch.h>
#else
#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "aten/autograd/autograd.h"
#endif

namespace {

void BM_Mm(benchmark::State& state) {
  const int64_t n = state.range(0);
  const at::Tensor a = at::randn({n, n}), b = at::randn({n, n});
  for (auto _ : state) {
    at::Tensor c = at::mm(a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * n * n * n);
}
BENCHMARK(BM_Mm)->Arg(64)->Arg(1024)->Unit(benchmark::kMicrosecond);

void BM_MmTransposed(benchmark::State& state) {
  const int64_t n = state.range(0);
  const at::Tensor a = at::randn({n, n}), b = at::randn({n, n});
  for (auto _ : state) {
    at::Tensor c = at::mm(a.t(), b);
    benchmark::DoNotOptimize(c.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * n * n * n);
}
BENCHMARK(BM_MmTransposed)->Arg(1024)->Unit(benchmark::kMicrosecond);

template <typename Fn>
void run_softmax(benchmark::State& state, Fn fn) {
  at::set_num_threads(static_cast<int>(state.range(0)));
  const at::Tensor x = at::randn({256, 4096});
  for (auto _ : state) {
    at::Tensor y = fn(x);
    benchmark::DoNotOptimize(y.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * x.numel());
}

void BM_Softmax(benchmark::State& state) {
  run_softmax(state, [](const at::Tensor& x) { return at::softmax(x, -1); });
}
void BM_LogSoftmax(benchmark::State& state) {
  run_softmax(state, [](const at::Tensor& x) { return at::log_softmax(x, -1); });
}
void BM_SoftmaxDim0(benchmark::State& state) {
  run_softmax(state, [](const at::Tensor& x) { return at::softmax(x, 0); });
}
BENCHMARK(BM_Softmax)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LogSoftmax)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SoftmaxDim0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

// The reductions take the same [256, 4096] input.
void BM_Amax(benchmark::State& state) {
  run_softmax(state, [](const at::Tensor& x) { return x.amax(-1); });
}
void BM_AmaxDim0(benchmark::State& state) {
  run_softmax(state, [](const at::Tensor& x) { return x.amax(0); });
}
void BM_Prod(benchmark::State& state) {
  run_softmax(state, [](const at::Tensor& x) { return x.prod(-1); });
}
void BM_Var(benchmark::State& state) {
  run_softmax(state, [](const at::Tensor& x) { return x.var(-1); });
}
void BM_LogSumExp(benchmark::State& state) {
  run_softmax(state, [](const at::Tensor& x) { return x.logsumexp({-1}); });
}
void BM_Norm(benchmark::State& state) {
  run_softmax(state, [](const at::Tensor& x) { return x.norm(); });
}
BENCHMARK(BM_Amax)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AmaxDim0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Prod)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Var)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LogSumExp)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Norm)->Arg(1)->Unit(benchmark::kMicrosecond);

void run_cat(benchmark::State& state, int64_t dim) {
  at::set_num_threads(static_cast<int>(state.range(0)));
  std::vector<at::Tensor> parts;
  for (int i = 0; i < 8; ++i) parts.push_back(at::randn({1024, 1024}));
  for (auto _ : state) {
    at::Tensor y = at::cat(parts, dim);
    benchmark::DoNotOptimize(y.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * 8 * 1024 * 1024);
}
void BM_Cat(benchmark::State& state) {
  run_cat(state, 0);
}
void BM_CatDim1(benchmark::State& state) {
  run_cat(state, 1);
}
BENCHMARK(BM_Cat)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CatDim1)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

void BM_IndexSelect(benchmark::State& state) {
  at::set_num_threads(static_cast<int>(state.range(0)));
  const at::Tensor table = at::randn({200000, 64});
  const at::Tensor index = (at::rand({100000}) * 200000).to(at::kLong);
  for (auto _ : state) {
    at::Tensor y = at::index_select(table, 0, index);
    benchmark::DoNotOptimize(y.data_ptr());
  }
  state.SetItemsProcessed(state.iterations() * 100000 * 64);
}
BENCHMARK(BM_IndexSelect)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

void BM_MlpTrainStep(benchmark::State& state) {
  at::set_num_threads(2);
  at::manual_seed(0);
  const at::Tensor x = at::randn({64, 32});
  const at::Tensor y = at::argmax(at::mm(x, at::randn({32, 4})), 1);
  at::Tensor w1 = (at::randn({256, 32}) * 0.17).requires_grad_();
  at::Tensor b1 = at::zeros({256}).requires_grad_();
  at::Tensor w2 = (at::randn({4, 256}) * 0.06).requires_grad_();
  at::Tensor b2 = at::zeros({4}).requires_grad_();
  for (auto _ : state) {
    const at::Tensor loss =
        at::cross_entropy_loss(at::linear(at::relu(at::linear(x, w1, b1)), w2, b2), y);
    loss.backward();
    at::NoGradGuard no_grad;
    for (at::Tensor* p : {&w1, &b1, &w2, &b2}) {
      p->sub_(p->grad(), 0.1);
      p->mutable_grad().zero_();
    }
  }
}
BENCHMARK(BM_MlpTrainStep)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
