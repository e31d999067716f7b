// An outside libtorch program, unchanged: libtorch's include lines resolve to miniaten's headers
// through miniaten::torch_compat.
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/util/MaybeOwned.h>
#include <torch/cuda.h>
#include <torch/library.h>
#include <torch/torch.h>

#include <iostream>

namespace {
at::Tensor twice(const at::Tensor& a) {
  return a * 2;
}
}  // namespace

TORCH_LIBRARY(compat_consumer, m) {
  m.def("twice(Tensor a) -> Tensor");
}
TORCH_LIBRARY_IMPL(compat_consumer, CPU, m) {
  m.impl("twice", TORCH_FN(twice));
}

int main() {
  torch::Tensor x = torch::ones({2, 3}, torch::requires_grad());
  auto op = c10::Dispatcher::singleton()
                .findSchemaOrThrow("compat_consumer::twice", "")
                .typed<at::Tensor(const at::Tensor&)>();
  torch::Tensor y = op.call(x.detach());
  (x * x).sum().backward();
  c10::MaybeOwned<at::Tensor> c = y.expect_contiguous();
  if (!c.unsafeIsBorrowed() || y.sum().item<float>() != 12.f ||
      x.grad()[0][0].item<float>() != 2.f) {
    std::cout << "unexpected results: " << y << x.grad() << "\n";
    return 1;
  }
  std::cout << "compat consumer ok, cuda available: " << torch::cuda::is_available() << "\n";
  return 0;
}
