// dropout, as libtorch 1.13 composes it on CPU (Dropout.cpp, _dropout_impl): a Bernoulli(1 - p)
// mask scaled by 1 / (1 - p), multiplied in. Being CompositeImplicitAutograd, its node is the
// multiply's (MulBackward0), and the mask's draws are bernoulli_'s, so a seed gives libtorch's
// mask.

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"

namespace at {
namespace native {

// In eval mode, with p = 0 or with no elements, the input itself comes back (not a copy), as
// libtorch's.
Tensor dropout(const Tensor& input, double p, bool train) {
  TORCH_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0) return input;
  if (p == 1) return input.mul(at::zeros({}, input.options()));
  Tensor noise = at::empty_like(input, MemoryFormat::Contiguous).bernoulli_(1 - p);
  noise.div_(1 - p);
  return input.mul(noise);
}

}  // namespace native
}  // namespace at
