#pragma once
// What the bad-input inventory (issue 18, "Bad input, nothing lost") feeds the public API: small
// tensors of each dtype and device, and the error texts several cases share. The inventory:
//   BadInputTensors_test.cpp    undefined tensors, wrong dtypes, mismatched devices
//   BadInputShapes_test.cpp     out-of-range dims, negative sizes, numbers that overflow
//   BadInputArguments_test.cpp  overlapping outputs and other bad arguments
//   BadInputAccepted_test.cpp   inputs that look wrong but that libtorch accepts
//   BadInputNothingLost_test.cpp  what a refused call leaves behind, what a view keeps alive
// The view operators' own errors are in ViewErrors_test.cpp and are not repeated.
//
// Each error case must fail with libtorch 1.13's exception type and exact text, taken from a
// throwaway program against libtorch 1.13 per case (tests/aten/ErrorCase.h). Where libtorch
// 1.13 itself trips an internal assert, gives a wrong answer or accepts what it should refuse,
// miniaten does the right thing and the case says what "libtorch 1.13" does. libtorch 1.13
// throws a few of these texts as std::runtime_error (infer_size's, the Scalar conversions'
// "value cannot be converted to type ... without overflow", requires_grad_'s); miniaten throws
// c10::Error with the same text, as PyTorch since 2.0 does.

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "aten/ATen.h"
#include "tests/aten/ErrorCase.h"

namespace bad_input {

using test_util::ErrorCase;
using test_util::Kind;
using test_util::Match;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

inline at::Tensor f23() {
  return at::arange(6, at::kFloat).view({2, 3});
}
inline at::Tensor l23() {
  return at::arange(6, at::kLong).view({2, 3});
}
inline at::Tensor b23() {
  return at::ones({2, 3}, at::kBool);
}
inline at::Tensor f4() {
  return at::arange(4, at::kFloat);
}
inline at::Tensor l4() {
  return at::arange(4, at::kLong);
}
inline at::Tensor m23() {
  return at::empty({2, 3}, at::TensorOptions().device(at::kMeta));
}
inline at::Tensor undef() {
  return at::Tensor();
}
// Four elements that are one: a written-to tensor with internal overlap.
inline at::Tensor expanded() {
  return at::zeros({1}, at::kFloat).expand({4});
}

// libtorch's Autograd kernels unpack every Tensor argument first; see Note [Undefined Tensor
// arguments] in codegen/Emit.cpp.
inline std::string unpack_error(int index, const std::string& name) {
  return "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #" +
         std::to_string(index) + " '" + name + "'";
}
const char* const kInternalOverlap =
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation.";
const char* const kPartialOverlap =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to "
    "a single memory location. Please clone() the tensor before performing the operation.";
const char* const kMetaAndCpu =
    "Expected all tensors to be on the same device, but found at least two devices, meta and cpu!";

// dtype, sizes, strides and the values (as doubles, in order), or "... meta" for a meta tensor:
// what a result's structure and contents must be.
inline std::string desc(const at::Tensor& t) {
  if (!t.defined()) return "undefined";
  std::ostringstream os;
  os << c10::toString(t.scalar_type()) << t.sizes() << t.strides();
  if (t.is_meta()) return os.str() + " meta";
  const at::Tensor d = t.to(at::kDouble).contiguous();
  os << " {";
  for (int64_t i = 0; i < d.numel(); ++i) os << (i ? " " : "") << d.data_ptr<double>()[i];
  os << "}";
  return os.str();
}

}  // namespace bad_input
