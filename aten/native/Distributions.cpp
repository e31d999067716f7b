// Random numbers: rand, randn (empty + uniform_/normal_, as libtorch composes them) and the
// in-place uniform_ and normal_, which check their arguments here and fill in
// cpu/DistributionKernels.cpp.

#include "aten/native/Distributions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <utility>

#include "aten/ATen.h"
#include "aten/CPUGeneratorImpl.h"
#include "aten/Dispatch.h"
#include "aten/MemoryOverlap.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/ComplexViews.h"

namespace at {
namespace native {

DEFINE_DISPATCH(uniform_stub);
DEFINE_DISPATCH(normal_stub);
DEFINE_DISPATCH(random_from_to_stub);
DEFINE_DISPATCH(bernoulli_scalar_stub);
DEFINE_DISPATCH(bernoulli_tensor_stub);

namespace {

TensorOptions options_of(c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
                         c10::optional<Device> device, c10::optional<bool> pin_memory) {
  return TensorOptions().dtype(dtype).layout(layout).device(device).pinned_memory(pin_memory);
}

// The dtype as libtorch's uniform_ and random_ messages print it (caffe2::TypeMeta's name).
const char* type_meta_name(ScalarType t) {
  switch (t) {
    case kFloat:
      return "float";
    case kDouble:
      return "double";
    case kHalf:
      return "c10::Half";
    case kBFloat16:
      return "c10::BFloat16";
    case kLong:
      return "long int";
    case kInt:
      return "int";
    case kShort:
      return "short int";
    case kChar:
      return "signed char";
    case kByte:
      return "unsigned char";
    case kBool:
      return "bool";
    default:
      return c10::toString(t);
  }
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
                    type_meta_name(self.scalar_type()));
        TORCH_CHECK(to >= min && to <= max, "to is out of bounds for ",
                    type_meta_name(self.scalar_type()));
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

// Note [Meta asks the random kernels about dtypes]
// A Meta fill makes the checks of its CPU fill (Note [Meta asks the CPU kernel which dtypes it
// takes] in MetaStub.h), but must not move the generator: the CPU kernel is handed an empty
// tensor of the dtype it would fill, so that its dispatch accepts or refuses the dtype and it
// draws nothing.
namespace {
Tensor empty_stand_in(ScalarType type) {
  return at::empty({0}, at::TensorOptions().dtype(type));
}
}  // namespace

Tensor& uniform_meta_(Tensor& self, double from, double to, c10::optional<Generator> generator) {
  (void)generator;
  // A complex tensor is filled as its real view, as on the CPU.
  check_uniform_bounds(self.is_complex() ? view_as_real_unchecked(self) : self, from, to);
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
  check_normal_std(std);
  const ScalarType filled =
      self.is_complex() ? c10::toRealValueType(self.scalar_type()) : self.scalar_type();
  normal_stub(kCPU, empty_stand_in(filled), mean, std, std::move(generator));
  return self;
}

// ---- random_, randint, randperm ---------------------------------------------------------------
//
// Note [Random integers and shuffles as libtorch draws them]
// random_(from, to) draws one raw value per element in TensorIterator order and keeps it modulo
// to - from (a 32-bit draw unless the range needs 64 bits; cpu/DistributionKernels.cpp). randint
// is empty + random_. randperm writes 0 .. n-1 and swaps element i with element
// i + random() % (n - i) for i = 0 .. n-2, one 32-bit draw per swap. All three give libtorch
// 1.13's numbers for the same seed (checked against libtorch: randint(0, 100, {10}),
// randperm(10), randperm(40) after manual_seed(0)).

namespace {

// A floating value as int64, saturated at the ends (a plain cast of 2^63 or -inf is undefined;
// libtorch's update_from / update_to cast without this guard).
int64_t saturated_int64(double r) {
  if (r >= 0x1p63) return std::numeric_limits<int64_t>::max();
  if (r < -0x1p63 || std::isnan(r)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(r);
}

// libtorch's update_from / update_to: for a floating dtype, the nearest ends the dtype can
// represent inside [from, to).
template <typename scalar_t>
int64_t update_from(int64_t from) {
  const int64_t from_plus_1 =
      saturated_int64(static_cast<double>(static_cast<scalar_t>(static_cast<double>(from + 1))));
  if (from_plus_1 < from) {
    int64_t rest = std::abs(from + 1);
    int n = 0;
    while (rest >>= 1) ++n;
    from = from_plus_1 + (int64_t{1} << (n - std::numeric_limits<scalar_t>::digits + 1));
  }
  return from;
}

template <typename scalar_t>
int64_t update_to(int64_t to) {
  const int64_t to_minus_1 =
      saturated_int64(static_cast<double>(static_cast<scalar_t>(static_cast<double>(to - 1))));
  if (to_minus_1 >= to) {
    int64_t rest = std::abs(to - 1);
    int n = 0;
    while (rest >>= 1) ++n;
    to = to_minus_1 - (int64_t{1} << (n - std::numeric_limits<scalar_t>::digits + 1));
  }
  return to;
}

// libtorch's check_from_to_in_range: both ends representable in self's dtype (floating dtypes
// warn past the range their mantissa counts exactly).
void check_from_to_in_range(int64_t from, int64_t to_inc, ScalarType dtype) {
  const char* name = type_meta_name(dtype);
  if (isFloatingType(dtype)) {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "check_random_fp_bounds", [&] {
      const auto min = static_cast<double>(std::numeric_limits<scalar_t>::lowest());
      const auto max = static_cast<double>(std::numeric_limits<scalar_t>::max());
      TORCH_CHECK(from >= min && from <= max, "from is out of bounds for ", name);
      TORCH_CHECK(to_inc >= min && to_inc <= max, "to - 1 is out of bounds for ", name);
      constexpr auto digits = std::numeric_limits<scalar_t>::digits;
      const int64_t exact = int64_t{1} << digits;
      for (auto end : {std::make_pair(from, "from"), std::make_pair(to_inc, "to - 1")}) {
        if (end.first < -exact || end.first > exact) {
          TORCH_WARN(end.second, " is out of bounds [-(2^", digits, "), 2^", digits, "]. ",
                     "Due to precision limitations ", name,
                     " can support discrete uniform distribution only within this range. ",
                     "This warning will become an error in version 1.7 release, please fix the "
                     "code in advance");
        }
      }
    });
  } else {
    TORCH_CHECK(isIntegralType(dtype, /*includeBool=*/true),
                "check_random_bounds handles only integral, floating-point and boolean types");
    AT_DISPATCH_INTEGRAL_TYPES_AND(kBool, dtype, "check_random_integral_bounds", [&] {
      const auto min = static_cast<int64_t>(std::numeric_limits<scalar_t>::lowest());
      const auto max = static_cast<int64_t>(std::numeric_limits<scalar_t>::max());
      TORCH_CHECK(from >= min && from <= max, "from is out of bounds for ", name);
      TORCH_CHECK(to_inc >= min && to_inc <= max, "to - 1 is out of bounds for ", name);
    });
  }
}

// The largest value random_(from) may give in self's dtype: the dtype's max, capped at the
// largest integer a floating dtype counts exactly.
int64_t largest_random(ScalarType dtype) {
  if (isFloatingType(dtype)) {
    int64_t result = 0;
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "random_largest", [&] {
      result = int64_t{1} << std::numeric_limits<scalar_t>::digits;
    });
    return result;
  }
  int64_t result = 0;
  AT_DISPATCH_INTEGRAL_TYPES_AND(kBool, dtype, "random_largest", [&] {
    result = static_cast<int64_t>(std::numeric_limits<scalar_t>::max());
  });
  return result;
}

// Validates [from, to) for self (to_opt: exclusive end; none: up to the dtype's largest), and
// returns the range to draw from (0: every int64).
uint64_t random_range(const Tensor& self, int64_t& from, c10::optional<int64_t> to_opt) {
  const ScalarType dtype = self.scalar_type();
  if (to_opt.has_value()) {
    int64_t to = *to_opt;
    TORCH_CHECK(from < to, "random_ expects 'from' to be less than 'to', but got from=", from,
                " >= to=", to);
    if (isFloatingType(dtype)) {
      AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "random_update_from_to", [&] {
        from = update_from<scalar_t>(from);
        to = update_to<scalar_t>(to);
        TORCH_CHECK(from < to,
                    "random_ expects 'from' casted to dtype to be less than 'to' casted to "
                    "dtype, but got from=",
                    from, " >= to=", to);
      });
    }
    check_from_to_in_range(from, to - 1, dtype);
    return static_cast<uint64_t>(to) - static_cast<uint64_t>(from);
  }
  if (from != std::numeric_limits<int64_t>::lowest()) {
    const int64_t to_inc = largest_random(dtype);
    TORCH_CHECK(from <= to_inc,
                "random_ expects 'from' to be less than or equal to 'to', but got from=", from,
                " > to_inc=", to_inc);
    check_from_to_in_range(from, to_inc, dtype);
    return static_cast<uint64_t>(to_inc) - static_cast<uint64_t>(from) + 1;
  }
  return 0;
}

}  // namespace

Tensor& random_(Tensor& self, int64_t from, c10::optional<int64_t> to,
                c10::optional<Generator> generator) {
  const uint64_t range = random_range(self, from, to);
  if (self.numel() == 0) return self;
  auto iter = TensorIterator::borrowing_nullary_op(self);
  random_from_to_stub(iter.device_type(), iter, range, from, std::move(generator));
  return self;
}

Tensor& random_(Tensor& self, int64_t to, c10::optional<Generator> generator) {
  return native::random_(self, 0, to, std::move(generator));
}

Tensor& random_meta_(Tensor& self, int64_t from, c10::optional<int64_t> to,
                     c10::optional<Generator> generator) {
  (void)generator;
  random_range(self, from, to);
  return self;
}

Tensor& random_meta_(Tensor& self, int64_t to, c10::optional<Generator> generator) {
  return native::random_meta_(self, 0, to, std::move(generator));
}

Tensor randint(int64_t high, IntArrayRef size, c10::optional<ScalarType> dtype,
               c10::optional<Layout> layout, c10::optional<Device> device,
               c10::optional<bool> pin_memory) {
  return native::randint(0, high, size, c10::nullopt, dtype, layout, device, pin_memory);
}

Tensor randint(int64_t high, IntArrayRef size, c10::optional<Generator> generator,
               c10::optional<ScalarType> dtype, c10::optional<Layout> layout,
               c10::optional<Device> device, c10::optional<bool> pin_memory) {
  return native::randint(0, high, size, std::move(generator), dtype, layout, device, pin_memory);
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size, c10::optional<ScalarType> dtype,
               c10::optional<Layout> layout, c10::optional<Device> device,
               c10::optional<bool> pin_memory) {
  return native::randint(low, high, size, c10::nullopt, dtype, layout, device, pin_memory);
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size, c10::optional<Generator> generator,
               c10::optional<ScalarType> dtype, c10::optional<Layout> layout,
               c10::optional<Device> device, c10::optional<bool> pin_memory) {
  Tensor result = at::empty(size, options_of(dtype, layout, device, pin_memory));
  return result.random_(low, high, std::move(generator));
}

Tensor randperm(int64_t n, c10::optional<ScalarType> dtype, c10::optional<Layout> layout,
                c10::optional<Device> device, c10::optional<bool> pin_memory) {
  return native::randperm(n, c10::nullopt, dtype, layout, device, pin_memory);
}

// Note [Random integers and shuffles as libtorch draws them].
Tensor randperm(int64_t n, c10::optional<Generator> generator, c10::optional<ScalarType> dtype,
                c10::optional<Layout> layout, c10::optional<Device> device,
                c10::optional<bool> pin_memory) {
  Tensor result = at::empty({n}, options_of(dtype, layout, device, pin_memory));
  TORCH_CHECK(result.device().is_cpu(), "randperm: only CPU tensors are supported here, got ",
              result.device());
  auto* gen =
      get_generator_or_default<CPUGeneratorImpl>(generator, at::detail::getDefaultCPUGenerator());
  std::lock_guard<std::mutex> lock(gen->mutex_);
  AT_DISPATCH_ALL_TYPES_AND(kHalf, result.scalar_type(), "randperm", [&] {
    TORCH_CHECK(n <= 1 || static_cast<double>(n - 1) <=
                              static_cast<double>(std::numeric_limits<scalar_t>::max()),
                "n is too large for result tensor type: '", result.toString(), "'");
    scalar_t* r = result.data_ptr<scalar_t>();
    for (int64_t i = 0; i < n; ++i) r[i] = static_cast<scalar_t>(i);
    for (int64_t i = 0; i + 1 < n; ++i) {
      const auto z = static_cast<int64_t>(gen->random() % static_cast<uint64_t>(n - i));
      std::swap(r[i], r[z + i]);
    }
  });
  return result;
}

// ---- bernoulli ---------------------------------------------------------------------------------

Tensor& bernoulli_(Tensor& self, double p, c10::optional<Generator> generator) {
  TORCH_CHECK(0 <= p && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  at::assert_no_internal_overlap(self);
  if (self.numel() == 0) return self;
  bernoulli_scalar_stub(self.device().type(), self, p, std::move(generator));
  return self;
}

Tensor& bernoulli_(Tensor& self, const Tensor& p, c10::optional<Generator> generator) {
  at::assert_no_internal_overlap(self);
  const Tensor probs = p.to(self.device()).expand(self.sizes());
  if (self.numel() == 0) return self;
  bernoulli_tensor_stub(self.device().type(), self, probs, std::move(generator));
  return self;
}

Tensor& bernoulli_meta_(Tensor& self, double p, c10::optional<Generator> generator) {
  TORCH_CHECK(0 <= p && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  at::assert_no_internal_overlap(self);
  if (self.numel() == 0) return self;
  // Note [Meta asks the random kernels about dtypes].
  bernoulli_scalar_stub(kCPU, empty_stand_in(self.scalar_type()), p, std::move(generator));
  return self;
}

Tensor& bernoulli_meta_(Tensor& self, const Tensor& p, c10::optional<Generator> generator) {
  at::assert_no_internal_overlap(self);
  (void)p.expand(self.sizes());
  if (self.numel() == 0) return self;
  bernoulli_tensor_stub(kCPU, empty_stand_in(self.scalar_type()), empty_stand_in(p.scalar_type()),
                        std::move(generator));
  return self;
}

// self holds the probabilities.
Tensor bernoulli(const Tensor& self, c10::optional<Generator> generator) {
  Tensor result = at::empty_like(self, MemoryFormat::Contiguous);
  return result.bernoulli_(self, std::move(generator));
}

Tensor bernoulli(const Tensor& self, double p, c10::optional<Generator> generator) {
  Tensor result = at::empty_like(self, MemoryFormat::Contiguous);
  return result.bernoulli_(p, std::move(generator));
}

}  // namespace native
}  // namespace at
