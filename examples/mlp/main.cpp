// A two-layer MLP trained with plain SGD on a synthetic classification set, in at:: calls only.
// The same source builds against libtorch (its torch/torch.h) and, for the same seed, prints the
// same losses step by step (README, "A model trains").
//
//   mlp                      prints "step <n> loss <value>" for each step
//   mlp --expect <file>      also compares with the losses in <file> (one per line, libtorch's),
//                            exits 1 when one differs by more than float tolerance

#include <cstring>

#include "Model.h"

int main(int argc, char** argv) {
  mlp::Setup s = mlp::make_setup();
  std::vector<double> losses;
  for (int step = 0; step < mlp::kSteps; ++step) {
    const int64_t start = (step * mlp::kBatch) % mlp::kSamples;
    const at::Tensor batch = s.x.narrow(0, start, mlp::kBatch);
    const at::Tensor labels = s.y.narrow(0, start, mlp::kBatch);
    const at::Tensor loss = at::cross_entropy_loss(s.output(at::relu(s.hidden(batch))), labels);
    loss.backward();
    {
      at::NoGradGuard no_grad;
      s.hidden.step(mlp::kLearningRate);
      s.output.step(mlp::kLearningRate);
    }
    losses.push_back(loss.item<double>());
    std::printf("step %d loss %.6f\n", step, losses.back());
  }
  if (argc == 3 && std::strcmp(argv[1], "--expect") == 0) return mlp::check_losses(losses, argv[2]);
  return 0;
}
