// The MLP of examples/mlp trained data-parallel: every rank holds the model, takes its share of
// each global batch, and c10d::DistributedDataParallel averages the gradients over Gloo. The
// losses printed are those of the global batch (the ranks' losses averaged), the same, step by
// step, as one process training on the whole batch (examples/mlp, and libtorch's losses for it).
//
//   miniaten_run --nproc 2 ddp_mlp                       rank 0 prints "step <n> loss <value>"
//   miniaten_run --nproc 4 ddp_mlp --expect <file>       also compares with the losses in <file>;
//                                                        exits 1 when one differs
// The ranks meet through MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE (miniaten_run sets them).

#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "distributed/c10d/DistributedDataParallel.h"
#include "distributed/c10d/ProcessGroupGloo.h"
#include "distributed/c10d/Rendezvous.h"

namespace {

constexpr int64_t kSamples = 512, kFeatures = 32, kClasses = 4, kHidden = 256, kBatch = 64;
constexpr int kSteps = 30;
constexpr double kLearningRate = 0.1;

struct Layer {
  at::Tensor weight, bias;
  Layer(int64_t in, int64_t out)
      : weight(
            (at::randn({out, in}) * (1.0 / std::sqrt(static_cast<double>(in)))).requires_grad_()),
        bias(at::zeros({out}).requires_grad_()) {}
  at::Tensor operator()(const at::Tensor& x) const { return at::linear(x, weight, bias); }
  void step(double lr) {
    for (at::Tensor* p : {&weight, &bias}) {
      p->sub_(p->grad(), lr);
      p->mutable_grad().zero_();
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const c10d::EnvRendezvous rendezvous = c10d::rendezvous_from_env(std::chrono::seconds(60));
  const int rank = rendezvous.rank, world = rendezvous.world_size;
  if (kBatch % world != 0) {
    std::fprintf(stderr, "ddp_mlp: the batch of %lld does not split over %d ranks\n",
                 static_cast<long long>(kBatch), world);
    return 2;
  }
  auto options = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(60));
  options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(rendezvous.store, rank, world, options);

  // The same data and initial model on every rank, as examples/mlp makes them.
  at::manual_seed(0);
  const at::Tensor x = at::randn({kSamples, kFeatures});
  const at::Tensor y = at::argmax(at::mm(x, at::randn({kFeatures, kClasses})), 1);
  Layer hidden(kFeatures, kHidden), output(kHidden, kClasses);
  c10d::DistributedDataParallel ddp({hidden.weight, hidden.bias, output.weight, output.bias}, pg);

  const int64_t shard = kBatch / world;
  std::vector<double> losses;
  for (int step = 0; step < kSteps; ++step) {
    // This rank's rows of the global batch.
    const int64_t start = (step * kBatch) % kSamples + rank * shard;
    const at::Tensor batch = x.narrow(0, start, shard);
    const at::Tensor labels = y.narrow(0, start, shard);
    const at::Tensor loss = at::cross_entropy_loss(output(at::relu(hidden(batch))), labels);
    loss.backward();  // the gradients arrive averaged over the ranks
    {
      at::NoGradGuard no_grad;
      hidden.step(kLearningRate);
      output.step(kLearningRate);
    }
    // The global batch's loss: the mean of the ranks' (their shards are equal).
    std::vector<at::Tensor> global{loss.detach().reshape({1}).clone()};
    pg->allreduce(global)->wait();
    losses.push_back(global[0].item<double>() / world);
    if (rank == 0) std::printf("step %d loss %.6f\n", step, losses.back());
  }

  if (argc == 3 && std::strcmp(argv[1], "--expect") == 0) {
    std::ifstream in(argv[2]);
    double expected = 0;
    for (size_t i = 0; i < losses.size(); ++i) {
      if (!(in >> expected)) {
        std::fprintf(stderr, "%s: no loss for step %zu\n", argv[2], i);
        return 1;
      }
      // float tolerance: the gradients are summed in another order than one process sums them.
      if (std::fabs(losses[i] - expected) > 1e-4 * std::max(1.0, std::fabs(expected))) {
        std::fprintf(stderr, "rank %d step %zu: loss %.6f, expected %.6f\n", rank, i, losses[i],
                     expected);
        return 1;
      }
    }
  }
  pg->barrier()->wait();  // rank 0 serves the store: nobody leaves before all are done
  return 0;
}
