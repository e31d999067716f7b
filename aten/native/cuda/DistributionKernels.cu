// uniform_, normal_, random_ and bernoulli_ on the GPU, behind the stubs of Distributions.h, and
// so rand, randn, randint, bernoulli and dropout on CUDA tensors. Every element computes its
// own Philox block from the device generator's seed and the call's offset (Note [Each element's
// own Philox block] in PhiloxBody.h): out[i] = f(block(seed, offset, i)), with i the element's
// position in memory order. A tensor whose elements do not fill one dense run of memory (a
// stepped slice) is filled through a contiguous temporary.

#include <mutex>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/cuda/CUDAGeneratorImpl.h"
#include "aten/generated/Functions.h"      // at::empty, at::lt
#include "aten/generated/TensorMethods.h"  // Tensor::copy_
#include "aten/native/Distributions.h"
#include "aten/native/cuda/Loops.cuh"
#include "aten/native/cuda/PhiloxBody.h"

namespace at {
namespace native {

namespace {

// The device generator a fill draws from (the caller's, or the device's default), and the seed
// and offset of this fill.
PhiloxCudaState philox_inputs(const TensorBase& self, const c10::optional<Generator>& gen) {
  auto* g = get_generator_or_default<CUDAGeneratorImpl>(
      gen, cuda::detail::getDefaultCUDAGenerator(self.device().index()));
  std::lock_guard<std::mutex> lock(g->mutex_);
  return g->philox_inputs();
}

// self[i] = f(i) for every element, i in memory order.
template <typename F>
void fill_by_index(const Tensor& self, const F& f) {
  if (self.numel() == 0) return;
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(false)
                  .check_all_same_dtype(false)
                  .add_output(self)
                  .resize_outputs(false)
                  .build();
  if (iter.is_contiguous()) {
    gpu_kernel_with_index(iter, f);
    return;
  }
  Tensor dense = at::empty(self.sizes(), self.options());
  fill_by_index(dense, f);
  self.copy_(dense);
}

// Note [A uniform draw stays below `to`]
// The draw has the dtype's mantissa digits only (gpu::uniform_digits), so [0, 1) rounds to
// itself; from + width * u is formed in the op-math type and, should rounding to T still reach
// `to` (a wide or offset range), gives `from` instead, as PyTorch's CUDA uniform_ does.
template <typename T>
struct UniformFill {
  PhiloxCudaState philox;
  double from, width;
  C10_HOST_DEVICE T operator()(int64_t i) const {
    using acc_t = at::opmath_type<T>;
    constexpr int kDigits = std::is_same<T, double>::value      ? 53
                            : std::is_same<T, float>::value     ? 24
                            : std::is_same<T, c10::Half>::value ? 11
                                                                : 8;
    const gpu::PhiloxBlock b = gpu::element_block(philox.seed, philox.offset, i);
    const auto u = static_cast<acc_t>(gpu::uniform_digits(b.x[0], b.x[1], kDigits));
    const T value = static_cast<T>(static_cast<acc_t>(from) + static_cast<acc_t>(width) * u);
    return static_cast<double>(value) >= from + width ? static_cast<T>(from) : value;
  }
};

template <typename T>
struct NormalFill {
  PhiloxCudaState philox;
  double mean, std;
  C10_HOST_DEVICE T operator()(int64_t i) const {
    const gpu::PhiloxBlock b = gpu::element_block(philox.seed, philox.offset, i);
    return static_cast<T>(mean + std * gpu::standard_normal(b));
  }
};

template <typename T>
struct RandomFill {
  PhiloxCudaState philox;
  uint64_t range;
  int64_t base;
  C10_HOST_DEVICE T operator()(int64_t i) const {
    const gpu::PhiloxBlock b = gpu::element_block(philox.seed, philox.offset, i);
    const int64_t v = gpu::random_in_range(b, range, base);
    if constexpr (std::is_same<T, bool>::value) {
      return v != 0;
    } else {
      return static_cast<T>(v);
    }
  }
};

template <typename T>
struct BernoulliFill {
  PhiloxCudaState philox;
  double p;
  C10_HOST_DEVICE T operator()(int64_t i) const {
    const gpu::PhiloxBlock b = gpu::element_block(philox.seed, philox.offset, i);
    return static_cast<T>(gpu::uniform_double(b.x[0], b.x[1]) < p ? 1 : 0);
  }
};

void uniform_kernel_cuda(TensorIteratorBase& iter, double from, double to,
                         c10::optional<Generator> gen) {
  const Tensor& self = iter.output();
  const PhiloxCudaState philox = philox_inputs(self, gen);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "uniform_cuda", [&] {
    fill_by_index(self, UniformFill<scalar_t>{philox, from, to - from});
  });
}

void normal_kernel_cuda(const TensorBase& base, double mean, double std,
                        c10::optional<Generator> gen) {
  const Tensor self(base);
  const PhiloxCudaState philox = philox_inputs(self, gen);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "normal_cuda", [&] {
    fill_by_index(self, NormalFill<scalar_t>{philox, mean, std});
  });
}

void random_from_to_kernel_cuda(TensorIteratorBase& iter, uint64_t range, int64_t base,
                                c10::optional<Generator> gen) {
  const Tensor& self = iter.output();
  const PhiloxCudaState philox = philox_inputs(self, gen);
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "random_from_to_cuda",
                             [&] {
                               fill_by_index(self, RandomFill<scalar_t>{philox, range, base});
                             });
}

void bernoulli_scalar_kernel_cuda(const Tensor& self, double p, c10::optional<Generator> gen) {
  const PhiloxCudaState philox = philox_inputs(self, gen);
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "bernoulli_scalar_cuda",
                             [&] {
                               fill_by_index(self, BernoulliFill<scalar_t>{philox, p});
                             });
}

// p already broadcast to self's shape: a uniform draw per element compared with its p. The
// dtypes are the CPU kernel's; p's range is not checked (that would take a sync per call, and
// PyTorch's CUDA kernel only asserts on the device): p >= 1 gives 1, p <= 0 or NaN gives 0.
void bernoulli_tensor_kernel_cuda(const Tensor& self, const Tensor& p,
                                  c10::optional<Generator> gen) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(),
                             "bernoulli_tensor_cuda_self_", [&] {});
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, p.scalar_type(), "bernoulli_tensor_cuda_p_",
                                  [&] {});
  Tensor u = at::empty(self.sizes(), self.options().dtype(kDouble));
  const PhiloxCudaState philox = philox_inputs(self, gen);
  fill_by_index(u, UniformFill<double>{philox, 0.0, 1.0});
  self.copy_(at::lt(u, p.to(kDouble)));
}

}  // namespace

REGISTER_CUDA_DISPATCH(uniform_stub, &uniform_kernel_cuda);
REGISTER_CUDA_DISPATCH(normal_stub, &normal_kernel_cuda);
REGISTER_CUDA_DISPATCH(random_from_to_stub, &random_from_to_kernel_cuda);
REGISTER_CUDA_DISPATCH(bernoulli_scalar_stub, &bernoulli_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(bernoulli_tensor_stub, &bernoulli_tensor_kernel_cuda);

}  // namespace native
}  // namespace at
