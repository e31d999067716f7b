// Collectives across ranks on loopback (issue 25), miniaten's ProcessGroupGloo beside libtorch
// 1.13's. Both sit on the same libgloo, so what differs is each side's tensor handling, the
// dispatch and the work queue.
//  * BM_Allreduce/<ranks>/<bytes>: c10d::ops::allreduce (the dispatcher op, as libtorch's Python
//    calls it) of a float tensor, waited on: latency per call, and the bus bandwidth counter
//    busbw = bytes * 2(n-1)/n per second (NCCL's convention). 4 ranks oversubscribe 2 cores.
//  * BM_DDPStep/<ranks>: one training step of examples/mlp's MLP on a 32-row shard per rank:
//    forward, backward with the gradients averaged (miniaten's DistributedDataParallel; on
//    libtorch its building block c10d::Reducer, as Python's DDP drives it), and the SGD update.
// Rank 0 runs on the benchmark's thread, the other ranks on threads of their own, each with its
// own process group (its own TCP device); they meet through one HashStore. The iteration counts
// are fixed so that every rank runs the same number of collectives.

#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <torch/csrc/autograd/autograd.h>
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/Ops.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/reducer.hpp>
#else
#include "aten/ATen.h"
#include "aten/autograd/GradMode.h"
#include "distributed/c10d/DistributedDataParallel.h"
#include "distributed/c10d/HashStore.h"
#include "distributed/c10d/Ops.h"
#include "distributed/c10d/ProcessGroupGloo.h"
#endif

namespace {

using PG = c10::intrusive_ptr<c10d::ProcessGroupGloo>;

// The process groups of a world of `world` ranks, made once.
const std::vector<PG>& group(int world) {
  static std::map<int, std::vector<PG>> groups;
  auto it = groups.find(world);
  if (it != groups.end()) return it->second;
  auto store = c10::make_intrusive<c10d::HashStore>();
  std::vector<PG> pgs(world);
  std::vector<std::thread> threads;
  for (int r = 0; r < world; ++r) {
    threads.emplace_back([&, r] {
      auto opts = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(60));
      opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
      pgs[r] = c10::make_intrusive<c10d::ProcessGroupGloo>(store, r, world, opts);
    });
  }
  for (auto& t : threads) t.join();
  return groups.emplace(world, std::move(pgs)).first->second;
}

// Runs body(rank) `iterations` times on every rank but 0, on threads, while rank 0 runs the
// benchmark loop.
template <class Body>
void on_ranks(benchmark::State& state, int world, const Body& body) {
  const int64_t iterations = static_cast<int64_t>(state.max_iterations);
  std::vector<std::thread> others;
  for (int r = 1; r < world; ++r) {
    others.emplace_back([&, r] {
      for (int64_t i = 0; i < iterations; ++i) body(r);
    });
  }
  for (auto _ : state) body(0);
  for (auto& t : others) t.join();
}

void BM_Allreduce(benchmark::State& state) {
  const int world = static_cast<int>(state.range(0));
  const int64_t bytes = state.range(1);
  const auto& pgs = group(world);
  // Zeros: the sums stay finite however many iterations run.
  std::vector<at::Tensor> tensors;
  for (int r = 0; r < world; ++r) tensors.push_back(at::zeros({bytes / 4}));
  on_ranks(state, world, [&](int r) {
    const c10::intrusive_ptr<c10d::ProcessGroup> pg = pgs[r];
    c10d::ops::allreduce(pg, {tensors[r]})->wait();
  });
  const double moved = static_cast<double>(state.iterations()) * bytes;
  state.SetBytesProcessed(static_cast<int64_t>(moved));
  state.counters["busbw_GBps"] =
      benchmark::Counter(moved * 2.0 * (world - 1) / world / 1e9, benchmark::Counter::kIsRate);
}

// examples/mlp's model: 32 -> 256 -> 4, with the same initialisation on every rank.
struct Model {
  at::Tensor w1, b1, w2, b2;
  Model() {
    at::manual_seed(0);
    w1 = (at::randn({256, 32}) * (1.0 / std::sqrt(32.0))).requires_grad_();
    b1 = at::zeros({256}).requires_grad_();
    w2 = (at::randn({4, 256}) * (1.0 / 16.0)).requires_grad_();
    b2 = at::zeros({4}).requires_grad_();
  }
  std::vector<at::Tensor> parameters() const { return {w1, b1, w2, b2}; }
  at::Tensor loss(const at::Tensor& x, const at::Tensor& y) const {
    return at::cross_entropy_loss(at::linear(at::relu(at::linear(x, w1, b1)), w2, b2), y);
  }
  void step() {
    at::NoGradGuard no_grad;
    for (at::Tensor* p : {&w1, &b1, &w2, &b2}) {
      p->sub_(p->grad(), 0.01);
      p->mutable_grad().zero_();
    }
  }
};

#ifdef MINIATEN_BENCH_LIBTORCH
// libtorch's DDP machinery as Python's DistributedDataParallel sets it up: buckets from
// compute_bucket_assignment_by_size (1 MB first, 25 MB after), reversed, and a Reducer.
struct Replica {
  Model model;
  std::unique_ptr<c10d::Reducer> reducer;
  explicit Replica(const c10::intrusive_ptr<c10d::ProcessGroup>& pg) {
    auto params = model.parameters();
    // Rank 0's parameters everywhere (they are equal already; the broadcast is part of setup).
    for (auto& p : params) c10d::ops::broadcast(pg, {p.detach()})->wait();
    auto assignment = c10d::compute_bucket_assignment_by_size(
        params, {1024 * 1024, 25 * 1024 * 1024}, std::vector<bool>(params.size(), false));
    auto buckets = std::get<0>(assignment);
    auto limits = std::get<1>(assignment);
    std::reverse(buckets.begin(), buckets.end());
    std::reverse(limits.begin(), limits.end());
    reducer = std::make_unique<c10d::Reducer>(
        params, buckets, limits, pg, std::vector<bool>(params.size(), false), 25 * 1024 * 1024,
        false, false, std::unordered_map<size_t, std::string>(), 1024 * 1024);
  }
  void backward(const at::Tensor& loss) {
    reducer->prepare_for_backward({});
    loss.backward();
  }
};
#else
struct Replica {
  Model model;
  std::unique_ptr<c10d::DistributedDataParallel> ddp;
  explicit Replica(const c10::intrusive_ptr<c10d::ProcessGroup>& pg)
      : ddp(std::make_unique<c10d::DistributedDataParallel>(model.parameters(), pg)) {}
  void backward(const at::Tensor& loss) { loss.backward(); }
};
#endif

void BM_DDPStep(benchmark::State& state) {
  const int world = static_cast<int>(state.range(0));
  const auto& pgs = group(world);
  std::vector<std::unique_ptr<Replica>> replicas(world);
  std::vector<std::thread> setup;
  for (int r = 0; r < world; ++r) {
    setup.emplace_back([&, r] { replicas[r] = std::make_unique<Replica>(pgs[r]); });
  }
  for (auto& t : setup) t.join();
  const at::Tensor x = at::randn({32, 32});
  const at::Tensor y = at::randint(0, 4, {32});
  on_ranks(state, world, [&](int r) {
    Replica& replica = *replicas[r];
    replica.backward(replica.model.loss(x, y));
    replica.model.step();
  });
}

BENCHMARK(BM_Allreduce)
    ->Args({2, 1 << 10})
    ->Iterations(4000)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Allreduce)
    ->Args({2, 1 << 20})
    ->Iterations(400)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Allreduce)
    ->Args({2, 64 << 20})
    ->Iterations(10)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Allreduce)
    ->Args({4, 1 << 10})
    ->Iterations(1000)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Allreduce)
    ->Args({4, 1 << 20})
    ->Iterations(100)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Allreduce)
    ->Args({4, 64 << 20})
    ->Iterations(5)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DDPStep)->Arg(2)->Iterations(300)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
