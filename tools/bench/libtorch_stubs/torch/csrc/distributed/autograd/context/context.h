#pragma once
// For bench_c10d_libtorch only. Debian's libtorch-dev (1.13) leaves out distributed autograd's
// headers, which c10d/reducer.hpp includes for two names: the grad callback type and the context
// pointer. These are the same declarations as libtorch's; the Reducer's layout does not depend
// on the context class (it holds a shared_ptr to it and an atomic pointer).

#include <functional>
#include <memory>

namespace at {
class Tensor;
}  // namespace at

namespace torch {
namespace distributed {
namespace autograd {

class DistAutogradContext {
 public:
  using GradCallback = std::function<bool(at::Tensor&)>;
};
using ContextPtr = std::shared_ptr<DistAutogradContext>;

}  // namespace autograd
}  // namespace distributed
}  // namespace torch
