// Random numbers: rand, randn (empty + uniform_/normal_, as libtorch composes them) and the
// in-place uniform_ and normal_, which check their arguments here and fill in
// cpu/DistributionKernels.cpp.

#include "aten/native/Distributions.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/ComplexViews.h"

namespace at {
namespace native {

DEFINE_DISPATCH(uniform_stub);
DEFINE_DISPATCH(normal_stub);

namespace {

TensorOptions options_of(c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
                         c10::optional<Device> device, c10::optional<bool> pin_memory) {
  return TensorOptions().dtype(dtype).layout(layout).device(device).pinned_memory(pin_memory);
}

// The dtype as libtorch's messages print it here (caffe2::TypeMeta's name).
template <typename scalar_t>
const char* type_meta_name() {
  if (std::is_same<scalar_t, float>::value) return "float";
  if (std::is_same<scalar_t, double>::value) return "double";
  if (std::is_same<scalar_t, c10::Half>::value) return "c10::Half";
  return "c10::BFloat16";
}

// libtorch's uniform_ argument checks (check_uniform_bounds): both ends representable in the
// tensor's dtype, from <= to, and a finite width. Returns the ends clamped to the dtype's range.
std::pair<double, double> check_uniform_bounds(const Tensor& self, double from, double to) {
  AT_DISPATCH_FLOATING_TYPES_AND2(
      c10::ScalarType::Half, c10::ScalarType::BFloat16, self.scalar_type(), "check_uniform_bounds",
      [&] {
        const auto min = static_cast<double>(std::numeric_limits<scalar_t>::lowest());
        const auto max = static_cast<double>(std::numeric_limits<scalar_t>::max());
        TORCH_CHECK(from >= min && from <= max, "from is out of bounds for ",
                    type_meta_name<scalar_t>());
        TORCH_CHECK(to >= min && to <= max, "to is out of bounds for ", type_meta_name<scalar_t>());
        TORCH_CHECK(from <= to,
                    "uniform_ expects to return a [from, to) range, but found from=", from,
                    " > to=", to);
        TORCH_CHECK((to - from) <= std::numeric_limits<scalar_t>::max(),
                    "uniform_ expects to-from <= std::numeric_limits<",
                    c10::toString(self.scalar_type()), ">::max(), but found to=", to,
                    " and from=", from, " which result in to-from to exceed the limit");
        from = std::min(std::max(from, min), max);
        to = std::max(std::min(to, max), min);
      });
  return {from, to};
}

void check_normal_std(double std) {
  TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
}

}  // namespace

Tensor rand(IntArrayRef size, c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
            c10::optional<Device> device, c10::optional<bool> pin_memory) {
  return native::rand(size, c10::nullopt, dtype, layout, device, pin_memory);
}

Tensor rand(IntArrayRef size, c10::optional<Generator> generator,
            c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
            c10::optional<Device> device, c10::optional<bool> pin_memory) {
  Tensor result = at::empty(size, options_of(dtype, layout, device, pin_memory));
  return result.uniform_(0, 1, std::move(generator));
}

Tensor randn(IntArrayRef size, c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
             c10::optional<Device> device, c10::optional<bool> pin_memory) {
  return native::randn(size, c10::nullopt, dtype, layout, device, pin_memory);
}

Tensor randn(IntArrayRef size, c10::optional<Generator> generator,
             c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
             c10::optional<Device> device, c10::optional<bool> pin_memory) {
  Tensor result = at::empty(size, options_of(dtype, layout, device, pin_memory));
  return result.normal_(0, 1, std::move(generator));
}

// A complex tensor's real and imaginary parts are filled as one real tensor of twice the
// elements (libtorch's view_as_real), so rand of ComplexFloat draws what rand of twice as many
// floats draws, interleaved.
Tensor& uniform_(Tensor& self, double from, double to, c10::optional<Generator> generator) {
  if (self.is_complex()) {
    Tensor parts = view_as_real_unchecked(self);
    native::uniform_(parts, from, to, std::move(generator));
    return self;
  }
  const auto bounds = check_uniform_bounds(self, from, to);
  auto iter = TensorIterator::borrowing_nullary_op(self);
  uniform_stub(iter.device_type(), iter, bounds.first, bounds.second, std::move(generator));
  return self;
}

Tensor& uniform_meta_(Tensor& self, double from, double to, c10::optional<Generator> generator) {
  (void)generator;
  check_uniform_bounds(self, from, to);
  return self;
}

Tensor& normal_(Tensor& self, double mean, double std, c10::optional<Generator> generator) {
  check_normal_std(std);
  if (self.is_complex()) {
    // The parts each get half the variance, as in libtorch: randn of a complex dtype has
    // E|z|^2 = 1.
    normal_stub(self.device().type(), view_as_real_unchecked(self), mean, std / std::sqrt(2),
                std::move(generator));
    return self;
  }
  normal_stub(self.device().type(), self, mean, std, std::move(generator));
  return self;
}

Tensor& normal_meta_(Tensor& self, double mean, double std, c10::optional<Generator> generator) {
  (void)mean;
  (void)generator;
  check_normal_std(std);
  return self;
}

}  // namespace native
}  // namespace at
