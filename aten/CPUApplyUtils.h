#pragma once
// CPU_tensor_apply2/3/4: call an op on the corresponding elements of several CPU tensors, each
// walked in the row-major order of its own sizes through its own strides, as libtorch's
// ATen/CPUApplyUtils.h does:
//
//   at::Tensor a = at::zeros({2, 3}), b = at::arange(6, at::kFloat);
//   at::CPU_tensor_apply2<float, float>(a, b, [](float& x, const float& y) { x = 10 * y; });
//
// The tensors need the same number of elements, not the same shape ("inconsistent tensor size,
// expected [2, 3], and [3] to have the same number of elements, but got 6, and 3 elements
// respectively"); each must be a CPU tensor of its scalar type (data_ptr's "expected scalar type
// Double but found Float"). With no elements the op is never called. Single-threaded, as in
// libtorch; TensorIterator's cpu_kernel is the fast way to write an elementwise op.

#include <sstream>
#include <string>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"
#include "c10/util/SmallVector.h"

namespace at {
namespace detail {

// One tensor's cursor: the current element and an odometer over the sizes.
template <typename T>
class ApplyCursor {
 public:
  explicit ApplyCursor(const Tensor& t)
      : data_(t.data_ptr<T>()),
        sizes_(t.sizes().begin(), t.sizes().end()),
        strides_(t.strides().begin(), t.strides().end()),
        counter_(t.dim(), 0) {}

  T& operator*() const { return *data_; }

  // To the next element in row-major order.
  void next() {
    for (int64_t d = static_cast<int64_t>(sizes_.size()) - 1; d >= 0; --d) {
      data_ += strides_[d];
      if (++counter_[d] < sizes_[d]) return;
      data_ -= strides_[d] * sizes_[d];
      counter_[d] = 0;
    }
  }

 private:
  T* data_;
  c10::SmallVector<int64_t, 6> sizes_;
  c10::SmallVector<int64_t, 6> strides_;
  c10::SmallVector<int64_t, 6> counter_;
};

// False when there is nothing to do (no elements); throws libtorch's texts otherwise.
inline bool apply_preamble(ArrayRef<Tensor> tensors) {
  for (const Tensor& t : tensors) {
    TORCH_CHECK(t.device().type() == DeviceType::CPU, "Expected tensor to have ",
                DeviceType::CPU, " DeviceType, but got tensor with ", t.device().type(),
                " DeviceType (while checking arguments for CPU_tensor_apply)");
  }
  const int64_t numel = tensors[0].numel();
  for (const Tensor& t : tensors) {
    if (t.numel() == numel) continue;
    std::ostringstream oss;
    oss << "inconsistent tensor size, expected ";
    for (size_t i = 0; i + 1 < tensors.size(); ++i) oss << tensors[i].sizes() << ", ";
    oss << "and " << tensors.back().sizes() << " to have the same number of elements, but got ";
    for (size_t i = 0; i + 1 < tensors.size(); ++i) oss << tensors[i].numel() << ", ";
    oss << "and " << tensors.back().numel() << " elements respectively";
    TORCH_CHECK(false, oss.str());
  }
  return numel != 0;
}

template <typename Op, typename... Cursors>
void apply_op(int64_t numel, const Op& op, Cursors... cursors) {
  for (int64_t i = 0; i < numel; ++i) {
    op(*cursors...);
    (cursors.next(), ...);
  }
}

}  // namespace detail

template <typename scalar1, typename scalar2, typename Op>
inline void CPU_tensor_apply2(Tensor tensor1, Tensor tensor2, const Op op) {
  if (!detail::apply_preamble({tensor1, tensor2})) return;
  detail::apply_op(tensor1.numel(), op, detail::ApplyCursor<scalar1>(tensor1),
                   detail::ApplyCursor<scalar2>(tensor2));
}

template <typename scalar1, typename scalar2, typename scalar3, typename Op>
inline void CPU_tensor_apply3(Tensor tensor1, Tensor tensor2, Tensor tensor3, const Op op) {
  if (!detail::apply_preamble({tensor1, tensor2, tensor3})) return;
  detail::apply_op(tensor1.numel(), op, detail::ApplyCursor<scalar1>(tensor1),
                   detail::ApplyCursor<scalar2>(tensor2), detail::ApplyCursor<scalar3>(tensor3));
}

template <typename scalar1, typename scalar2, typename scalar3, typename scalar4, typename Op>
inline void CPU_tensor_apply4(Tensor tensor1, Tensor tensor2, Tensor tensor3, Tensor tensor4,
                              const Op op) {
  if (!detail::apply_preamble({tensor1, tensor2, tensor3, tensor4})) return;
  detail::apply_op(tensor1.numel(), op, detail::ApplyCursor<scalar1>(tensor1),
                   detail::ApplyCursor<scalar2>(tensor2), detail::ApplyCursor<scalar3>(tensor3),
                   detail::ApplyCursor<scalar4>(tensor4));
}

}  // namespace at
