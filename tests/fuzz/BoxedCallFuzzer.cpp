// Boxed calls with random stacks: an operator picked from every one registered, and arguments
// that mostly follow its schema (so calls reach the kernels) and sometimes do not (wrong types,
// missing or extra arguments, undefined tensors, absurd numbers). Each call either raises
// c10::Error or replaces its arguments with exactly as many values as the schema declares.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "aten/ATen.h"
#include "c10/core/CPUAllocator.h"
#include "dispatcher/Dispatcher.h"
#include "dispatcher/Stack.h"
#include "tests/fuzz/FuzzInput.h"

namespace {

using c10::IValue;
using c10::TypeKind;
using c10::TypePtr;
using fuzz::FuzzInput;

// The harness's CPU allocator: the default one, except that a single request over 256 MiB raises
// c10::Error, as a failed allocation does. A factory asked for 2^31 elements (an interesting
// int) would otherwise allocate and fill 8 GiB, which libFuzzer reports as out of memory
// (-rss_limit_mb=4096): a limit of this machine, not a defect of the library.
struct BudgetAllocator final : c10::Allocator {
  static constexpr size_t kBudget = size_t{256} << 20;
  c10::DataPtr allocate(size_t nbytes) const override {
    TORCH_CHECK(nbytes <= kBudget, "fuzz_boxed_call: ", nbytes,
                " bytes is over the harness's allocation budget");
    return c10::GetDefaultCPUAllocator()->allocate(nbytes);
  }
  c10::DeleterFnPtr raw_deleter() const override {
    return c10::GetDefaultCPUAllocator()->raw_deleter();
  }
};

// Every operator with a schema, in name order (so an input picks the same one in every run).
const std::vector<c10::OperatorHandle>& operators() {
  static const std::vector<c10::OperatorHandle> ops = [] {
    auto& dispatcher = c10::Dispatcher::singleton();
    std::vector<c10::OperatorName> names = dispatcher.getAllOpNames();
    std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) {
      return std::tie(a.name, a.overload_name) < std::tie(b.name, b.overload_name);
    });
    std::vector<c10::OperatorHandle> found;
    for (const auto& name : names)
      if (auto op = dispatcher.findSchema(name)) found.push_back(*op);
    return found;
  }();
  return ops;
}

at::Tensor random_tensor(FuzzInput& in) {
  const uint8_t kind = in.byte();
  if (kind < 12) return at::Tensor();  // undefined
  static const at::ScalarType kTypes[] = {at::kBool, at::kByte, at::kInt, at::kLong,
                                          at::kFloat, at::kDouble, at::kComplexFloat};
  std::vector<int64_t> sizes(static_cast<size_t>(in.in_range(0, 3)));
  for (auto& s : sizes) s = in.in_range(0, 3);
  at::Tensor t = at::ones(sizes, at::TensorOptions().dtype(in.pick(kTypes)));
  if (kind < 40 && t.dim() >= 2) t = t.transpose(0, 1);
  if (kind > 240 && t.dim() >= 1) t = t.slice(t.dim() - 1, 0, c10::nullopt, 2);
  return t;
}

double random_double(FuzzInput& in) {
  static const double kValues[] = {0.0, 1.0, -1.0, 0.5, 2.0, 1e300, -1e-300,
                                   std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity()};
  return in.pick(kValues);
}

IValue random_value(FuzzInput& in);

// A value of `type`, as a caller following the schema would pass it.
IValue value_of(FuzzInput& in, const TypePtr& type, int depth) {
  if (!type) return random_tensor(in);  // a null type means Tensor
  switch (type->kind()) {
    case TypeKind::Tensor: return random_tensor(in);
    case TypeKind::Int:
    case TypeKind::SymInt: return in.interesting_int();
    case TypeKind::ScalarType: return in.in_range(-1, 20);
    case TypeKind::Layout: return in.in_range(-1, 3);
    case TypeKind::MemoryFormat: return in.in_range(-1, 4);
    case TypeKind::Float: return random_double(in);
    case TypeKind::Complex: return c10::complex<double>(random_double(in), random_double(in));
    case TypeKind::Bool: return in.boolean();
    case TypeKind::Str: {
      static const char* kStrings[] = {"", "mean", "floor", "trunc", "none", "cpu", "garbage"};
      return in.pick(kStrings);
    }
    case TypeKind::Scalar: {
      const uint8_t k = in.byte() % 3;
      if (k == 0) return in.interesting_int();
      if (k == 1) return random_double(in);
      return in.boolean();
    }
    case TypeKind::Device: return in.boolean() ? c10::Device(c10::kCPU) : c10::Device(c10::kCUDA, 0);
    case TypeKind::Optional:
      if (in.byte() < 85 || depth > 2) return IValue();
      return value_of(in, type->getElementType(), depth + 1);
    case TypeKind::List: {
      const TypePtr& element = type->getElementType();
      const int64_t n = in.in_range(0, 4);
      if (element->kind() == TypeKind::Int || element->kind() == TypeKind::SymInt) {
        std::vector<int64_t> v(static_cast<size_t>(n));
        for (auto& x : v) x = in.interesting_int();
        return v;
      }
      if (element->isTensor()) {
        std::vector<at::Tensor> v(static_cast<size_t>(n));
        for (auto& x : v) x = random_tensor(in);
        return v;
      }
      if (element->isOptionalTensor()) {
        std::vector<c10::optional<at::Tensor>> v(static_cast<size_t>(n));
        for (auto& x : v) if (in.boolean()) x = random_tensor(in);
        return v;
      }
      if (element->kind() == TypeKind::Float) {
        std::vector<double> v(static_cast<size_t>(n));
        for (auto& x : v) x = random_double(in);
        return v;
      }
      if (element->kind() == TypeKind::Bool) {
        std::vector<bool> v(static_cast<size_t>(n));
        for (size_t i = 0; i < v.size(); ++i) v[i] = in.boolean();
        return v;
      }
      return random_value(in);
    }
    default: return random_value(in);
  }
}

// Any value at all.
IValue random_value(FuzzInput& in) {
  switch (in.byte() % 8) {
    case 0: return IValue();
    case 1: return in.interesting_int();
    case 2: return random_double(in);
    case 3: return in.boolean();
    case 4: return "garbage";
    case 5: return random_tensor(in);
    case 6: return std::vector<int64_t>{in.interesting_int(), in.interesting_int()};
    default: return std::vector<at::Tensor>{random_tensor(in)};
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static BudgetAllocator budget;
  static const bool installed = (c10::SetAllocator(c10::DeviceType::CPU, &budget), true);
  (void)installed;
  FuzzInput in(data, size);
  const auto& ops = operators();
  const c10::OperatorHandle& op = ops[static_cast<size_t>(in.in_range(0, 65535)) % ops.size()];
  const c10::FunctionSchema& schema = op.schema();

  torch::jit::Stack stack;
  const bool follow_schema = in.byte() < 224;
  for (const auto& arg : schema.arguments())
    stack.push_back(follow_schema && in.byte() >= 8 ? value_of(in, arg.type(), 0) : random_value(in));
  const uint8_t count_change = in.byte();
  if (count_change < 8 && !stack.empty()) stack.pop_back();
  if (count_change >= 248) stack.push_back(random_value(in));

  // A kernel takes its arguments from the top of the stack; what lies beneath belongs to the
  // caller (an interpreter's stack) and stays, as in libtorch.
  const size_t beneath =
      stack.size() > schema.arguments().size() ? stack.size() - schema.arguments().size() : 0;
  try {
    op.callBoxed(stack);
  } catch (const c10::Error&) {
    return 0;  // rejected with a message: fine
  }
  FUZZ_CHECK(stack.size() == beneath + schema.returns().size(),
             "a call left " + std::to_string(stack.size()) + " values for " +
                 std::to_string(beneath) + " beneath and " +
                 std::to_string(schema.returns().size()) + " returns of " + c10::toString(schema));
  return 0;
}
