// The MLP of examples/mlp trained data-parallel: every rank holds the model, takes its share of
// each global batch, and c10d::DistributedDataParallel averages the gradients over Gloo. The
// losses printed are those of the global batch (the ranks' losses averaged), the same, step by
// step, as one process training on the whole batch (examples/mlp, and libtorch's losses for it).
//
//   miniaten_run --nproc 2 ddp_mlp                       rank 0 prints "step <n> loss <value>"
//   miniaten_run --nproc 4 ddp_mlp --expect <file>       also compares with the losses in <file>;
//                                                        exits 1 when one differs
// The ranks meet through MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE (miniaten_run sets them).

#include <cstring>

#include "../mlp/Model.h"
#include "distributed/c10d/DistributedDataParallel.h"
#include "distributed/c10d/ProcessGroupGloo.h"
#include "distributed/c10d/Rendezvous.h"

int main(int argc, char** argv) {
  const c10d::EnvRendezvous rendezvous = c10d::rendezvous_from_env(std::chrono::seconds(60));
  const int rank = rendezvous.rank, world = rendezvous.world_size;
  if (mlp::kBatch % world != 0) {
    std::fprintf(stderr, "ddp_mlp: the batch of %lld does not split over %d ranks\n",
                 static_cast<long long>(mlp::kBatch), world);
    return 2;
  }
  auto options = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(60));
  options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(rendezvous.store, rank, world, options);

  // The same data and initial model on every rank, as examples/mlp makes them.
  mlp::Setup s = mlp::make_setup();
  c10d::DistributedDataParallel ddp(
      {s.hidden.weight, s.hidden.bias, s.output.weight, s.output.bias}, pg);

  const int64_t shard = mlp::kBatch / world;
  std::vector<double> losses;
  for (int step = 0; step < mlp::kSteps; ++step) {
    // This rank's rows of the global batch.
    const int64_t start = (step * mlp::kBatch) % mlp::kSamples + rank * shard;
    const at::Tensor batch = s.x.narrow(0, start, shard);
    const at::Tensor labels = s.y.narrow(0, start, shard);
    const at::Tensor loss = at::cross_entropy_loss(s.output(at::relu(s.hidden(batch))), labels);
    loss.backward();  // the gradients arrive averaged over the ranks
    {
      at::NoGradGuard no_grad;
      s.hidden.step(mlp::kLearningRate);
      s.output.step(mlp::kLearningRate);
    }
    // The global batch's loss: the mean of the ranks' (their shards are equal).
    std::vector<at::Tensor> global{loss.detach().reshape({1}).clone()};
    pg->allreduce(global)->wait();
    losses.push_back(global[0].item<double>() / world);
    if (rank == 0) std::printf("step %d loss %.6f\n", step, losses.back());
  }

  const int status =
      argc == 3 && std::strcmp(argv[1], "--expect") == 0 ? mlp::check_losses(losses, argv[2]) : 0;
  pg->barrier()->wait();  // rank 0 serves the store: nobody leaves before all are done
  return status;
}
