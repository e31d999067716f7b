// The operators IValue's equality calls (see dispatcher/IValue.h): it lives in the dispatcher,
// which cannot include the generated API.
#include "aten/ATen.h"
#include "dispatcher/IValue.h"

namespace c10 {
namespace detail {

at::Tensor ivalue_tensor_eq(const at::Tensor& lhs, const at::Tensor& rhs) {
  return lhs.eq(rhs);
}

bool ivalue_tensor_is_nonzero(const at::Tensor& t) {
  TORCH_CHECK(t.numel() != 0, "Boolean value of Tensor with no values is ambiguous");
  TORCH_CHECK(t.numel() == 1, "Boolean value of Tensor with more than one value is ambiguous");
  return t.item().toBool();
}

}  // namespace detail
}  // namespace c10
