// The element types and reduction functions of ProcessGroupGloo's collectives.
#include <algorithm>
#include <type_traits>

#include "c10/util/BFloat16.h"
#include "c10/util/Half.h"
#include "distributed/c10d/GlooCollectives.h"

namespace c10d {
namespace gloo_detail {

namespace {

// Note [Gloo's reductions]
// Gloo's algorithms combine buffers with a function c = a (op) b; c is often a itself, so the
// loop reads both inputs before writing. It is a plain loop the compiler vectorises for float,
// double and the integers (as gloo::sum<T> and friends are). Half and BFloat16 go through float
// one element at a time, as gloo::float16 does. MIN and MAX use std::min/max, so a NaN in the
// first operand wins and one in the second is dropped, as with libtorch's Gloo. For bool, + and
// * fall back to int and back, so a sum is "or" and a product "and".
template <typename T, typename Op>
void combine(void* c_, const void* a_, const void* b_, size_t n) {
  T* c = static_cast<T*>(c_);
  const T* a = static_cast<const T*>(a_);
  const T* b = static_cast<const T*>(b_);
  for (size_t i = 0; i < n; ++i) c[i] = static_cast<T>(Op()(a[i], b[i]));
}
struct Sum {
  template <typename T>
  auto operator()(T a, T b) const {
    return a + b;
  }
};
struct Product {
  template <typename T>
  auto operator()(T a, T b) const {
    return a * b;
  }
};
struct Min {
  template <typename T>
  T operator()(T a, T b) const {
    return std::min(a, b);
  }
};
struct Max {
  template <typename T>
  T operator()(T a, T b) const {
    return std::max(a, b);
  }
};
struct BitAnd {
  template <typename T>
  auto operator()(T a, T b) const {
    return a & b;
  }
};
struct BitOr {
  template <typename T>
  auto operator()(T a, T b) const {
    return a | b;
  }
};
struct BitXor {
  template <typename T>
  auto operator()(T a, T b) const {
    return a ^ b;
  }
};

template <typename T>
ReduceFunc to_function(const ReduceOp& r) {
  constexpr bool kIntegral = std::is_integral<T>::value;
  switch (r.op_) {
    case ReduceOp::SUM:
      return &combine<T, Sum>;
    case ReduceOp::PRODUCT:
      return &combine<T, Product>;
    case ReduceOp::MIN:
      return &combine<T, Min>;
    case ReduceOp::MAX:
      return &combine<T, Max>;
    case ReduceOp::BAND:
      if constexpr (kIntegral) return &combine<T, BitAnd>;
      TORCH_CHECK(false, "Cannot use ReduceOp.BAND with non-integral dtype");
    case ReduceOp::BOR:
      if constexpr (kIntegral) return &combine<T, BitOr>;
      TORCH_CHECK(false, "Cannot use ReduceOp.BOR with non-integral dtype");
    case ReduceOp::BXOR:
      if constexpr (kIntegral) return &combine<T, BitXor>;
      TORCH_CHECK(false, "Cannot use ReduceOp.BXOR with non-integral dtype");
    case ReduceOp::AVG:
      TORCH_CHECK(false, "Cannot use ReduceOp.AVG with Gloo");
    case ReduceOp::PREMUL_SUM:
      TORCH_CHECK(false, "Cannot use ReduceOp.PREMUL_SUM with Gloo");
    case ReduceOp::UNUSED:
      break;
  }
  TORCH_CHECK(false, "Unhandled ReduceOp");
}

}  // namespace

void check_gloo_type(at::ScalarType type) {
  switch (type) {
    case at::kFloat:
    case at::kDouble:
    case at::kHalf:
    case at::kBFloat16:
    case at::kChar:
    case at::kByte:
    case at::kInt:
    case at::kLong:
    case at::kBool:
      return;
    default:
      TORCH_CHECK(false, "Invalid scalar type");
  }
}

ReduceFunc reduce_function(at::ScalarType type, const ReduceOp& op) {
  switch (type) {
    case at::kFloat:
      return to_function<float>(op);
    case at::kDouble:
      return to_function<double>(op);
    case at::kHalf:
      return to_function<c10::Half>(op);
    case at::kBFloat16:
      return to_function<c10::BFloat16>(op);
    case at::kChar:
      return to_function<int8_t>(op);
    case at::kByte:
      return to_function<uint8_t>(op);
    case at::kInt:
      return to_function<int32_t>(op);
    case at::kLong:
      return to_function<int64_t>(op);
    case at::kBool:
      return to_function<bool>(op);
    default:
      TORCH_CHECK(false, "Invalid scalar type");
  }
}

}  // namespace gloo_detail
}  // namespace c10d
