// uniform_ and normal_ on CPU, drawing from a CPUGeneratorImpl in libtorch 1.13's order so that
// a seed gives libtorch's numbers.
//
// uniform_: one draw per element, in TensorIterator order (memory order for a permuted tensor).
// normal_: a contiguous tensor of 16 or more elements is filled with uniforms first and turned
// into normals 16 at a time (Box-Muller pairs j, j + 8 of each block; a ragged tail redraws 16
// fresh uniforms for its last 16 elements). Anything else draws one normal_distribution<double>
// per element in TensorIterator order, using the generator's cached second sample.

#include <mutex>
#include <type_traits>

#include "aten/CPUGeneratorImpl.h"
#include "aten/Dispatch.h"
#include "aten/core/DistributionsHelper.h"
#include "aten/native/Distributions.h"
#include "aten/native/cpu/BoxMullerFloat.h"
#include "aten/native/cpu/Loops.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

CPUGeneratorImpl* cpu_generator(const c10::optional<Generator>& gen) {
  return get_generator_or_default<CPUGeneratorImpl>(gen, at::detail::getDefaultCPUGenerator());
}

template <typename scalar_t>
void uniform_fill(TensorIteratorBase& iter, double from_, double to_, CPUGeneratorImpl* generator) {
  std::lock_guard<std::mutex> lock(generator->mutex_);
  const auto from = static_cast<scalar_t>(from_);
  const auto to = static_cast<scalar_t>(to_);
  uniform_real_distribution<scalar_t> uniform(from, to);
  cpu_serial_kernel(iter, [&uniform, generator]() -> scalar_t {
    return static_cast<scalar_t>(uniform(generator));
  });
}

void uniform_kernel(TensorIteratorBase& iter, double from, double to,
                    c10::optional<Generator> gen) {
  CPUGeneratorImpl* generator = cpu_generator(gen);
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, iter.dtype(), "uniform_kernel_cpu",
                                  [&] { uniform_fill<scalar_t>(iter, from, to, generator); });
}

// libtorch's scalar normal_fill_16 (double, Half, BFloat16): the same pairing as the float one,
// with libm's log, cos and sin, each step in the type libtorch computes it in: Half values are
// stored back to Half but the math runs in float; for BFloat16, libtorch's std:: overloads
// (c10/util/BFloat16-math.h) and operators round every intermediate to BFloat16.
template <typename scalar_t>
void normal_fill_16(scalar_t* data, const scalar_t mean, const scalar_t std) {
  using acc_t = dist_acctype<scalar_t>;
  if constexpr (std::is_same<scalar_t, c10::BFloat16>::value) {
    using B = c10::BFloat16;
    for (int j = 0; j < 8; ++j) {
      const B u1 = 1 - data[j];
      const B u2 = data[j + 8];
      const B radius = B(std::sqrt(static_cast<float>(-2 * B(std::log(static_cast<float>(u1))))));
      const B theta = 2.0f * at::detail::kPi * u2;
      const B cos_theta = B(std::cos(static_cast<float>(theta)));
      const B sin_theta = B(std::sin(static_cast<float>(theta)));
      data[j] = radius * cos_theta * std + mean;
      data[j + 8] = radius * sin_theta * std + mean;
    }
    return;
  }
  for (int j = 0; j < 8; ++j) {
    const scalar_t u1 = 1 - data[j];  // [0, 1) -> (0, 1] for the log
    const scalar_t u2 = data[j + 8];
    const scalar_t radius = std::sqrt(-2 * std::log(u1));
    const scalar_t theta = 2.0f * at::detail::kPi * u2;
    data[j] = static_cast<scalar_t>(std::fma(static_cast<acc_t>(radius * std::cos(theta)),
                                             static_cast<acc_t>(std), static_cast<acc_t>(mean)));
    data[j + 8] =
        static_cast<scalar_t>(std::fma(static_cast<acc_t>(radius * std::sin(theta)),
                                       static_cast<acc_t>(std), static_cast<acc_t>(mean)));
  }
}

template <typename scalar_t, typename fill16_t>
void normal_fill(const TensorBase& self, CPUGeneratorImpl* generator, fill16_t fill16) {
  scalar_t* data = self.data_ptr<scalar_t>();
  const int64_t size = self.numel();
  std::lock_guard<std::mutex> lock(generator->mutex_);
  for (int64_t i = 0; i < size; ++i) {
    uniform_real_distribution<scalar_t> uniform(0, 1);
    data[i] = static_cast<scalar_t>(uniform(generator));
  }
  for (int64_t i = 0; i < size - 15; i += 16) fill16(data + i);
  if (size % 16 != 0) {
    // The last 16 elements again, from 16 fresh uniforms (they overlap the last full block).
    data = data + size - 16;
    for (int i = 0; i < 16; ++i) {
      uniform_real_distribution<scalar_t> uniform(0, 1);
      data[i] = static_cast<scalar_t>(uniform(generator));
    }
    fill16(data);
  }
}

// Any floating dtype: the 16-wide fill for a contiguous tensor of 16 or more elements, else one
// normal_distribution<double> draw per element in TensorIterator order.
template <typename scalar_t>
void normal_fill_any(const TensorBase& self, double mean, double std, CPUGeneratorImpl* generator) {
  if (self.numel() >= 16 && self.is_contiguous()) {
    const auto mean_s = static_cast<scalar_t>(mean);
    const auto std_s = static_cast<scalar_t>(std);
    normal_fill<scalar_t>(self, generator,
                          [=](scalar_t* d) { normal_fill_16<scalar_t>(d, mean_s, std_s); });
    return;
  }
  Tensor out(self);
  auto iter = TensorIterator::borrowing_nullary_op(out);
  std::lock_guard<std::mutex> lock(generator->mutex_);
  cpu_serial_kernel(iter, [mean, std, generator]() -> scalar_t {
    normal_distribution<double> normal(mean, std);
    return static_cast<scalar_t>(normal(generator));
  });
}

void normal_kernel(const TensorBase& self, double mean, double std, c10::optional<Generator> gen) {
  CPUGeneratorImpl* generator = cpu_generator(gen);
  const int64_t size = self.numel();
  if (self.scalar_type() == c10::ScalarType::Float && size >= 16 && self.is_contiguous()) {
    // See Note [randn's float numbers come from avx_mathfun].
    const auto mean_f = static_cast<float>(mean);
    const auto std_f = static_cast<float>(std);
    normal_fill<float>(self, generator,
                       [=](float* d) { box_muller::normal_fill_16(d, mean_f, std_f); });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, self.scalar_type(), "normal_kernel_cpu",
                                  [&] { normal_fill_any<scalar_t>(self, mean, std, generator); });
}

// libtorch's uniform_int_from_to_distribution: a 64-bit draw where the range needs one and the
// type can hold it (int64, double, float, BFloat16), a 32-bit draw otherwise; range 0 is
// uniform_int_full_range_distribution (every int64).
void random_from_to_kernel(TensorIteratorBase& iter, uint64_t range, int64_t base,
                           c10::optional<Generator> gen) {
  CPUGeneratorImpl* generator = cpu_generator(gen);
  AT_DISPATCH_ALL_TYPES_AND3(at::kBool, at::kHalf, at::kBFloat16, iter.dtype(), "random_cpu", [&] {
    constexpr bool wide =
        std::is_same<scalar_t, int64_t>::value || std::is_same<scalar_t, double>::value ||
        std::is_same<scalar_t, float>::value || std::is_same<scalar_t, c10::BFloat16>::value;
    std::lock_guard<std::mutex> lock(generator->mutex_);
    if (range == 0) {
      cpu_serial_kernel(iter, [generator]() -> scalar_t {
        return static_cast<scalar_t>(static_cast<int64_t>(generator->random64()));
      });
    } else if (wide && range >= (uint64_t{1} << 32)) {
      cpu_serial_kernel(iter, [generator, range, base]() -> scalar_t {
        return transformation::uniform_int_from_to<scalar_t>(generator->random64(), range, base);
      });
    } else {
      cpu_serial_kernel(iter, [generator, range, base]() -> scalar_t {
        return transformation::uniform_int_from_to<scalar_t>(generator->random(), range, base);
      });
    }
  });
}

// One uniform per element, in TensorIterator order, compared with p: a double p draws 53 bits
// (bernoulli_distribution<double>), a float, Half or BFloat16 p tensor 24 bits
// (bernoulli_distribution<float>), as libtorch 1.13's default CPU kernels (no MKL).
void bernoulli_scalar_kernel(const Tensor& self, double p, c10::optional<Generator> gen) {
  CPUGeneratorImpl* generator = cpu_generator(gen);
  AT_DISPATCH_ALL_TYPES_AND3(at::kBool, at::kBFloat16, at::kHalf, self.scalar_type(),
                             "bernoulli_scalar_cpu_", [&] {
                               std::lock_guard<std::mutex> lock(generator->mutex_);
                               Tensor out = self;
                               auto iter = TensorIterator::borrowing_nullary_op(out);
                               cpu_serial_kernel(iter, [p, generator]() -> scalar_t {
                                 uniform_real_distribution<double> uniform(0.0, 1.0);
                                 return static_cast<scalar_t>(uniform(generator) < p);
                               });
                             });
}

void bernoulli_tensor_kernel(const Tensor& self, const Tensor& p, c10::optional<Generator> gen) {
  CPUGeneratorImpl* generator = cpu_generator(gen);
  AT_DISPATCH_ALL_TYPES_AND3(
      at::kBool, at::kBFloat16, at::kHalf, self.scalar_type(), "bernoulli_tensor_cpu_self_", [&] {
        using self_t = scalar_t;
        std::lock_guard<std::mutex> lock(generator->mutex_);
        auto iter = TensorIteratorConfig()
                        .add_output(self)
                        .add_input(p)
                        .check_all_same_dtype(false)
                        .build();
        auto draw = [generator](auto p_val, auto precision) -> self_t {
          using T = decltype(precision);
          // libtorch's bernoulli_distribution checks with a bare TORCH_CHECK: its text names p_in.
          const auto p_in = static_cast<T>(p_val);
          TORCH_CHECK(p_in >= 0 && p_in <= 1);
          uniform_real_distribution<T> uniform(0.0, 1.0);
          return static_cast<self_t>(uniform(generator) < p_in);
        };
        if (p.scalar_type() == at::kDouble) {
          cpu_serial_kernel(iter, [&](double p_val) -> self_t { return draw(p_val, 0.0); });
        } else {
          AT_DISPATCH_FLOATING_TYPES_AND2(
              at::kBFloat16, at::kHalf, p.scalar_type(), "bernoulli_tensor_cpu_p_", [&] {
                cpu_serial_kernel(iter,
                                  [&](scalar_t p_val) -> self_t { return draw(p_val, 0.0f); });
              });
        }
      });
}

}  // namespace

REGISTER_DISPATCH(uniform_stub, &uniform_kernel);
REGISTER_DISPATCH(normal_stub, &normal_kernel);
REGISTER_DISPATCH(random_from_to_stub, &random_from_to_kernel);
REGISTER_DISPATCH(bernoulli_scalar_stub, &bernoulli_scalar_kernel);
REGISTER_DISPATCH(bernoulli_tensor_stub, &bernoulli_tensor_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
