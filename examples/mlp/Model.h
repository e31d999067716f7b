#pragma once
// What examples/mlp and examples/ddp_mlp share: the data, the two-layer MLP with its plain SGD
// step, and the comparison of the losses with a file of expected ones. In at:: calls only, so it
// builds against libtorch too.

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <vector>

namespace mlp {

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

// Gaussian points labelled by the largest of four random projections, and the model, drawn in
// this order from the generator seeded with 0.
struct Setup {
  at::Tensor x, y;
  Layer hidden, output;
};
inline Setup make_setup() {
  at::manual_seed(0);
  at::Tensor x = at::randn({kSamples, kFeatures});
  at::Tensor y = at::argmax(at::mm(x, at::randn({kFeatures, kClasses})), 1);
  Layer hidden(kFeatures, kHidden);
  Layer output(kHidden, kClasses);
  return Setup{x, y, hidden, output};
}

// 0 when every loss is within float tolerance of the one in `path` (one per line), else 1,
// saying which differs on stderr.
inline int check_losses(const std::vector<double>& losses, const char* path) {
  std::ifstream in(path);
  double expected = 0;
  for (size_t i = 0; i < losses.size(); ++i) {
    if (!(in >> expected)) {
      std::fprintf(stderr, "%s: no loss for step %zu\n", path, i);
      return 1;
    }
    // float tolerance: BLAS, the reductions and the ranks may sum in another order.
    if (std::fabs(losses[i] - expected) > 1e-4 * std::max(1.0, std::fabs(expected))) {
      std::fprintf(stderr, "step %zu: loss %.6f, expected %.6f\n", i, losses[i], expected);
      return 1;
    }
  }
  return 0;
}

}  // namespace mlp
