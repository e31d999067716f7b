// A two-layer MLP trained with plain SGD on a synthetic classification set, in at:: calls only.
// The same source builds against libtorch (its torch/torch.h) and, for the same seed, prints the
// same losses step by step (README, "A model trains").
//
//   mlp                      prints "step <n> loss <value>" for each step
//   mlp --expect <file>      also compares with the losses in <file> (one per line, libtorch's),
//                            exits 1 when one differs by more than float tolerance

#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

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
  at::manual_seed(0);
  // The data: Gaussian points labelled by the largest of four random projections.
  const at::Tensor x = at::randn({kSamples, kFeatures});
  const at::Tensor y = at::argmax(at::mm(x, at::randn({kFeatures, kClasses})), 1);

  Layer hidden(kFeatures, kHidden), output(kHidden, kClasses);
  std::vector<double> losses;
  for (int step = 0; step < kSteps; ++step) {
    const int64_t start = (step * kBatch) % kSamples;
    const at::Tensor batch = x.narrow(0, start, kBatch);
    const at::Tensor labels = y.narrow(0, start, kBatch);
    const at::Tensor loss = at::cross_entropy_loss(output(at::relu(hidden(batch))), labels);
    loss.backward();
    {
      at::NoGradGuard no_grad;
      hidden.step(kLearningRate);
      output.step(kLearningRate);
    }
    losses.push_back(loss.item<double>());
    std::printf("step %d loss %.6f\n", step, losses.back());
  }

  if (argc == 3 && std::strcmp(argv[1], "--expect") == 0) {
    std::ifstream in(argv[2]);
    double expected = 0;
    for (size_t i = 0; i < losses.size(); ++i) {
      if (!(in >> expected)) {
        std::fprintf(stderr, "%s: no loss for step %zu\n", argv[2], i);
        return 1;
      }
      // float tolerance: BLAS and the reductions may sum in another order.
      if (std::fabs(losses[i] - expected) > 1e-4 * std::max(1.0, std::fabs(expected))) {
        std::fprintf(stderr, "step %zu: loss %.6f, expected %.6f\n", i, losses[i], expected);
        return 1;
      }
    }
  }
  return 0;
}
