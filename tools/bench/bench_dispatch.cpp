// Per-call overhead of the dispatcher, built twice from this one source: against miniaten and,
// when libtorch-dev is installed, against libtorch (MINIATEN_BENCH_LIBTORCH). Run
// tools/bench/compare.sh to see both side by side with ratios.
//
// BM_TrivialOpTypedCall: a custom operator whose CPU kernel returns its argument, called
// through a cached typed handle — the dispatcher's fixed cost per call (target: <= 9 ns;
// libtorch 1.13: 18 ns on the CI machines).

#include <benchmark/benchmark.h>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>
#else
#include "aten/detail/EmptyTensor.h"
#include "c10/core/AutoDispatchGuards.h"
#include "dispatcher/Library.h"
#endif

namespace {

at::Tensor identity_kernel(const at::Tensor& t) { return t; }
at::Tensor identity_autograd(c10::DispatchKeySet ks, const at::Tensor& t);

at::Tensor make_tensor() {
#ifdef MINIATEN_BENCH_LIBTORCH
  return at::empty({1});
#else
  return at::detail::empty_cpu({1}, at::kFloat);
#endif
}

}  // namespace

TORCH_LIBRARY(benchops, m) {
  m.def("identity(Tensor self) -> Tensor");
  m.def("identity2(Tensor self) -> Tensor");
}
TORCH_LIBRARY_IMPL(benchops, CPU, m) {
  m.impl("identity", TORCH_FN(identity_kernel));
  m.impl("identity2", TORCH_FN(identity_kernel));
}
TORCH_LIBRARY_IMPL(benchops, Autograd, m) { m.impl("identity2", TORCH_FN(identity_autograd)); }

namespace {

const c10::TypedOperatorHandle<at::Tensor(const at::Tensor&)>& identity_op() {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("benchops::identity", "")
                       .typed<at::Tensor(const at::Tensor&)>();
  return op;
}
const c10::TypedOperatorHandle<at::Tensor(const at::Tensor&)>& identity2_op() {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("benchops::identity2", "")
                       .typed<at::Tensor(const at::Tensor&)>();
  return op;
}

at::Tensor identity_autograd(c10::DispatchKeySet ks, const at::Tensor& t) {
  at::AutoDispatchBelowADInplaceOrView guard;
  return identity2_op().redispatch(ks & c10::after_autograd_keyset, t);
}

void BM_TrivialOpTypedCall(benchmark::State& state) {
  const auto& op = identity_op();
  at::Tensor t = make_tensor();
  for (auto _ : state) {
    at::Tensor r = op.call(t);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_TrivialOpTypedCall);

// Through an Autograd kernel that redispatches below autograd: two dispatches and a TLS guard.
void BM_TrivialOpAutogradRedispatch(benchmark::State& state) {
  const auto& op = identity2_op();
  at::Tensor t = make_tensor();
  for (auto _ : state) {
    at::Tensor r = op.call(t);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_TrivialOpAutogradRedispatch);

void BM_TrivialOpBoxedCall(benchmark::State& state) {
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("benchops::identity", "");
  at::Tensor t = make_tensor();
  torch::jit::Stack stack;
  for (auto _ : state) {
    stack.clear();
    stack.emplace_back(t);
    op.callBoxed(&stack);
    benchmark::DoNotOptimize(stack);
  }
}
BENCHMARK(BM_TrivialOpBoxedCall);

}  // namespace

BENCHMARK_MAIN();
