// pow, atan2, hypot, fmod, remainder, bitwise and/or/xor, addcmul, addcdiv, lerp, silu and gelu
// on CUDA tensors (BinaryMathKernels.cu), each case run on the CPU and on the device and compared:
// sizes, strides, dtype and values. Exactly for integers, Bool and what is exact arithmetic on
// both sides (fmod, remainder, addcmul, addcdiv, lerp, pow's shortcuts); to a tolerance where
// CUDA's libm stands in for SLEEF. Here every layout case of the CPU elementwise tests
// (ElementwiseTestUtils.h) in every dtype each op takes, which loop runs, and the error texts;
// CPU-scalar operands, in-place and out= forms and NaN/inf edge values are
// CUDAMathValues_test.cpp's. Skipped without a device.
//
// Each case is a function of `on`, which puts a CPU tensor where the call runs: a copy with the
// same geometry on the CPU (same_layout_on_cpu), or on the device (same_layout_on_device). So
// every call is written once, and the two sides differ only in where their tensors live.

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "../ElementwiseTestUtils.h"
#include "CUDATestUtils.h"
#include "aten/native/cuda/ElementwiseBody.h"  // last_gpu_loop

// The whole message of what expr throws.
#define EXPECT_THROW_MSG(expr, msg) \
  EXPECT_EQ(test_util::error_of([&] { (void)(expr); }), std::string(msg))

namespace {

using cuda_test::matches;
using cuda_test::same_layout_on_cpu;
using cuda_test::same_layout_on_device;
using cuda_test::storage_numel;
using elementwise_test::make_values;

using Place = std::function<at::Tensor(const at::Tensor&)>;
using Tensors = std::vector<at::Tensor>;
using Op = std::function<at::Tensor(const Tensors&)>;

// t's values converted to `dtype`, laid out as t is.
at::Tensor same_layout_in(const at::Tensor& t, at::ScalarType dtype) {
  return t.as_strided({storage_numel(t)}, {1}, 0)
      .to(dtype)
      .as_strided(t.sizes(), t.strides(), t.storage_offset());
}

// One rounding of Half or BFloat16; a few ulp of CUDA's libm beside SLEEF's (float) or its own
// bound (double).
double libm_tolerance(at::ScalarType t) {
  switch (t) {
    case at::kHalf:
      return 1e-3;
    case at::kBFloat16:
      return 1e-2;
    case at::kFloat:
      return 2e-6;
    case at::kDouble:
      return 1e-13;
    default:
      return 0;
  }
}
double exact(at::ScalarType) {
  return 0;
}
// Exact but in Half, where the CPU takes pow itself (no shortcuts) and so does the GPU.
double exact_but_half(at::ScalarType t) {
  return t == at::kHalf ? libm_tolerance(t) : 0;
}

// The CPU's answer to op(xs): its own kernel, or, where libtorch 1.13's CPU has none for Half or
// BFloat16 (atan2, hypot, addcmul, addcdiv, lerp, silu, gelu), the same op on the same values in
// float, laid out alike, rounded once: what the GPU kernel computes.
at::Tensor cpu_expected(const Op& op, const std::vector<at::Tensor>& xs) {
  try {
    return op(xs);
  } catch (const c10::Error&) {
    const at::ScalarType t = xs[0].scalar_type();
    if (t != at::kHalf && t != at::kBFloat16) throw;
    std::vector<at::Tensor> in_float;
    for (const at::Tensor& x : xs) in_float.push_back(same_layout_in(x, at::kFloat));
    const at::Tensor r = op(in_float);
    return r.scalar_type() == at::kFloat ? r.to(t) : r;
  }
}

// ---- Every layout case --------------------------------------------------------------------------

// What make_values gives, reshaped before it takes the case's dtype (`values` is in double).
using Shape = std::function<at::Tensor(const at::Tensor& values, at::ScalarType dtype)>;

at::Tensor as_is(const at::Tensor& v, at::ScalarType) {
  return v;
}
at::Tensor nonzero(const at::Tensor& v, at::ScalarType) {
  return at::where(v == 0, at::ones_like(v), v);
}
// pow: bases above 0.25 and exponents within ±1.9 keep Half finite and away from its overflow,
// where the two sides could round to 65504 and inf; integers as they are (exponents to ±20,
// wrapping).
at::Tensor pow_base(const at::Tensor& v, at::ScalarType dtype) {
  return c10::isFloatingType(dtype) ? v.abs() + 0.25 : v;
}
at::Tensor pow_exponent(const at::Tensor& v, at::ScalarType dtype) {
  return c10::isFloatingType(dtype) ? v * 0.25 : v;
}
// lerp weights within ±1.25: both sides of Note [Two-sided lerp].
at::Tensor weight(const at::Tensor& v, at::ScalarType) {
  return v / 6;
}

struct MathCase {
  const char* name;
  Op op;                      // of 1 to 3 tensors
  std::vector<Shape> inputs;  // one per tensor input
  std::vector<at::ScalarType> dtypes;
  double (*tolerance)(at::ScalarType);  // of the result's dtype
};

const std::vector<at::ScalarType> kFloating = {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16};
const std::vector<at::ScalarType> kReal = {at::kByte,   at::kChar, at::kShort,
                                           at::kInt,    at::kLong, at::kFloat,
                                           at::kDouble, at::kHalf, at::kBFloat16};
const std::vector<at::ScalarType> kBitwise = {at::kBool,  at::kByte, at::kChar,
                                              at::kShort, at::kInt,  at::kLong};

// addcmul's value: a rounding one for floating dtypes, an integer for integral ones (0.3 would
// be 0 there).
c10::Scalar addc_value(const at::Tensor& t) {
  return t.is_floating_point() ? c10::Scalar(0.3) : c10::Scalar(3);
}

// clang-format off
const std::vector<MathCase>& math_cases() {
  using V = Tensors;
  static const std::vector<MathCase> cases = {
      {"pow", [](const V& x) { return at::pow(x[0], x[1]); }, {pow_base, pow_exponent}, kReal,
       libm_tolerance},
      {"pow_scalar_2.5", [](const V& x) { return at::pow(x[0], 2.5); }, {as_is},
       {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kInt}, libm_tolerance},
      {"pow_scalar_2", [](const V& x) { return at::pow(x[0], 2); }, {as_is}, kReal,
       exact_but_half},
      {"pow_scalar_3", [](const V& x) { return at::pow(x[0], 3); }, {as_is}, kReal,
       exact_but_half},
      {"pow_scalar_-2", [](const V& x) { return at::pow(x[0], -2); }, {as_is}, kFloating,
       exact_but_half},
      {"atan2", [](const V& x) { return at::atan2(x[0], x[1]); }, {as_is, as_is},
       {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kInt}, libm_tolerance},
      {"hypot", [](const V& x) { return at::hypot(x[0], x[1]); }, {as_is, as_is}, kFloating,
       libm_tolerance},
      {"fmod", [](const V& x) { return at::fmod(x[0], x[1]); }, {as_is, nonzero}, kReal, exact},
      {"remainder", [](const V& x) { return at::remainder(x[0], x[1]); }, {as_is, nonzero}, kReal,
       exact},
      {"bitwise_and", [](const V& x) { return at::bitwise_and(x[0], x[1]); }, {as_is, as_is},
       kBitwise, exact},
      {"bitwise_or", [](const V& x) { return at::bitwise_or(x[0], x[1]); }, {as_is, as_is},
       kBitwise, exact},
      {"bitwise_xor", [](const V& x) { return at::bitwise_xor(x[0], x[1]); }, {as_is, as_is},
       kBitwise, exact},
      {"addcmul",
       [](const V& x) { return at::addcmul(x[0], x[1], x[2], addc_value(x[0])); },
       {as_is, as_is, as_is}, kReal, exact},
      {"addcdiv", [](const V& x) { return at::addcdiv(x[0], x[1], x[2], -0.7); },
       {as_is, as_is, nonzero}, kFloating, exact},
      {"lerp_scalar_0.3", [](const V& x) { return at::lerp(x[0], x[1], 0.3); }, {as_is, as_is},
       kFloating, exact},
      {"lerp_scalar_0.7", [](const V& x) { return at::lerp(x[0], x[1], 0.7); }, {as_is, as_is},
       kFloating, exact},
      {"lerp_tensor", [](const V& x) { return at::lerp(x[0], x[1], x[2]); },
       {as_is, as_is, weight}, kFloating, exact},
      {"silu", [](const V& x) { return at::silu(x[0]); }, {as_is}, kFloating, libm_tolerance},
      {"gelu", [](const V& x) { return at::gelu(x[0]); }, {as_is}, kFloating, libm_tolerance},
      {"gelu_tanh", [](const V& x) { return at::gelu(x[0], "tanh"); }, {as_is}, kFloating,
       libm_tolerance},
  };
  return cases;
}
// clang-format on

// The inputs of `c` for one layout case: input i has the geometry of the layout's a (even i) or
// b (odd i), over a storage of its own values.
std::vector<at::Tensor> inputs_for(const MathCase& c, const elementwise_test::LayoutCase& layout,
                                   at::ScalarType dtype) {
  std::vector<at::Tensor> xs;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const at::Tensor like = i % 2 == 0 ? layout.a() : layout.b();
    const int64_t n = std::max<int64_t>(storage_numel(like), 1);
    const at::Tensor values = make_values(dtype, n, static_cast<int>(i) + 1).to(at::kDouble);
    const at::Tensor base = c.inputs[i](values, dtype).to(dtype);
    xs.push_back(base.as_strided(like.sizes(), like.strides(), like.storage_offset()));
  }
  return xs;
}

TEST(CUDAMathOps, EveryOpDtypeAndLayoutMatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  for (const MathCase& c : math_cases()) {
    for (const at::ScalarType dtype : c.dtypes) {
      for (const auto& layout : elementwise_test::layout_cases()) {
        const std::vector<at::Tensor> xs = inputs_for(c, layout, dtype);
        std::vector<at::Tensor> gs;
        for (const at::Tensor& x : xs) gs.push_back(same_layout_on_device(x));
        const at::Tensor expected = cpu_expected(c.op, xs);
        EXPECT_TRUE(matches(expected, c.op(gs), c.tolerance(expected.scalar_type())))
            << c.name << " " << dtype << " " << layout.name;
      }
    }
  }
}

// Contiguous operands take the vectorized loop, a CPU scalar included (it is a kernel argument);
// a transposed one the strided loop.
TEST(CUDAMathOps, WhichLoopRuns) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor g = at::arange(1, 1001, at::kFloat).cuda();
  (void)at::pow(g, 2.5);
  EXPECT_STREQ(at::native::last_gpu_loop(), "vectorized");
  (void)at::atan2(at::scalar_tensor(0.5, at::kDouble), g);
  EXPECT_STREQ(at::native::last_gpu_loop(), "vectorized");
  (void)at::addcmul(g, g, g, 0.5);
  EXPECT_STREQ(at::native::last_gpu_loop(), "vectorized");
  const at::Tensor t = g.view({40, 25}).t();
  (void)at::lerp(t, t.contiguous(), 0.5);
  EXPECT_STREQ(at::native::last_gpu_loop(), "strided");
}

// ---- Errors -------------------------------------------------------------------------------------

struct ErrorCase {
  const char* name;
  std::function<void(const Place& on)> run;
  const char* message;
};

at::Tensor complex_ones() {
  return at::ones({3}, at::kComplexFloat);
}
at::Tensor ones(at::ScalarType dtype) {
  return at::ones({3}, dtype);
}

const char* const kDeviceError =
    "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and "
    "cpu!";

const std::vector<ErrorCase>& error_cases() {
  static const std::vector<ErrorCase> cases = {
      // Complex numbers where the CPU refuses them too: the dispatch macro's words, with
      // PyTorch's CUDA names (the ops that take them: CUDAComplex_test.cpp).
      {"atan2_complex", [](const Place& on) { at::atan2(on(complex_ones()), on(complex_ones())); },
       "\"atan2_cuda\" not implemented for 'ComplexFloat'"},
      {"hypot_complex", [](const Place& on) { at::hypot(on(complex_ones()), on(complex_ones())); },
       "\"hypot_cuda\" not implemented for 'ComplexFloat'"},
      {"fmod_complex", [](const Place& on) { at::fmod(on(complex_ones()), on(complex_ones())); },
       "\"fmod_cuda\" not implemented for 'ComplexFloat'"},
      {"remainder_complex",
       [](const Place& on) { at::remainder(on(complex_ones()), on(complex_ones())); },
       "\"remainder_cuda\" not implemented for 'ComplexFloat'"},
      {"bitwise_and_complex",
       [](const Place& on) { at::bitwise_and(on(complex_ones()), on(complex_ones())); },
       "\"bitwise_and_cuda\" not implemented for 'ComplexFloat'"},
      {"gelu_complex", [](const Place& on) { at::gelu(on(complex_ones())); },
       "\"GeluCUDAKernelImpl\" not implemented for 'ComplexFloat'"},

      // The dtypes each kernel takes.
      {"pow_bool", [](const Place& on) { at::pow(on(ones(at::kBool)), on(ones(at::kBool))); },
       "\"pow_cuda\" not implemented for 'Bool'"},
      {"hypot_long", [](const Place& on) { at::hypot(on(ones(at::kLong)), on(ones(at::kLong))); },
       "\"hypot_cuda\" not implemented for 'Long'"},
      {"fmod_bool", [](const Place& on) { at::fmod(on(ones(at::kBool)), on(ones(at::kBool))); },
       "\"fmod_cuda\" not implemented for 'Bool'"},
      {"remainder_bool",
       [](const Place& on) { at::remainder(on(ones(at::kBool)), on(ones(at::kBool))); },
       "\"remainder_cuda\" not implemented for 'Bool'"},
      {"bitwise_or_float",
       [](const Place& on) { at::bitwise_or(on(ones(at::kFloat)), on(ones(at::kFloat))); },
       "\"bitwise_or_cuda\" not implemented for 'Float'"},
      {"addcmul_bool",
       [](const Place& on) {
         at::addcmul(on(ones(at::kBool)), on(ones(at::kBool)), on(ones(at::kBool)), 2);
       },
       "\"addcmul_cuda\" not implemented for 'Bool'"},
      {"lerp_long",
       [](const Place& on) { at::lerp(on(ones(at::kLong)), on(ones(at::kLong)), 0.5); },
       "\"lerp_cuda\" not implemented for 'Long'"},
      {"silu_long", [](const Place& on) { at::silu(on(ones(at::kLong))); },
       "\"silu_cuda\" not implemented for 'Long'"},
      {"gelu_long", [](const Place& on) { at::gelu(on(ones(at::kLong))); },
       "\"GeluCUDAKernelImpl\" not implemented for 'Long'"},

      // The operators' own checks, before any kernel.
      {"pow_int_negative_scalar", [](const Place& on) { at::pow(on(ones(at::kLong)), -2); },
       "Integers to negative integer powers are not allowed."},
      {"pow_in_place_long_to_float",
       [](const Place& on) {
         at::Tensor t = on(ones(at::kLong));
         t.pow_(2.5);
       },
       "Found dtype Long but expected Float"},
      {"gelu_approximate", [](const Place& on) { at::gelu(on(ones(at::kFloat)), "foo"); },
       "approximate argument must be either none or tanh."},
      {"lerp_dtypes",
       [](const Place& on) { at::lerp(on(ones(at::kFloat)), on(ones(at::kDouble)), 0.5); },
       "expected dtype float for `end` but got dtype double"},
      {"addcdiv_integers",
       [](const Place& on) {
         at::addcdiv(on(ones(at::kFloat)), on(ones(at::kInt)), on(ones(at::kInt)), 2);
       },
       "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
       "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
       "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
       "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
       "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
       "for all dtypes."},
  };
  return cases;
}

TEST(CUDAMathOps, ErrorsAreTheCpusWithCudaNames) {
  SKIP_WITHOUT_CUDA();
  for (const ErrorCase& c : error_cases()) {
    EXPECT_EQ(test_util::error_of([&] { c.run(same_layout_on_device); }), std::string(c.message))
        << c.name;
  }
}

// A CPU tensor beside CUDA ones is the iterator's device error; a 0-dim CPU tensor rides along
// with the binary ops (checked above), but not with addcmul, addcdiv (Note [addcmul's CPU
// scalars] in BinaryMathKernels.cu) or lerp, whose libtorch iterators refuse it.
TEST(CUDAMathOps, CpuTensorsBesideCudaOnesAreRefused) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor g = at::ones({3}, at::kCUDA);
  const at::Tensor c = at::ones({3});
  const at::Tensor s = at::scalar_tensor(2.0, at::kFloat);
  EXPECT_THROW_MSG(at::pow(g, c), kDeviceError);
  EXPECT_THROW_MSG(at::pow(c, g), kDeviceError);
  EXPECT_THROW_MSG(at::atan2(g, c), kDeviceError);
  EXPECT_THROW_MSG(at::hypot(c, g), kDeviceError);
  EXPECT_THROW_MSG(at::fmod(g, c), kDeviceError);
  EXPECT_THROW_MSG(at::remainder(c, g), kDeviceError);
  EXPECT_THROW_MSG(at::bitwise_and(g.to(at::kInt), c.to(at::kInt)), kDeviceError);
  EXPECT_THROW_MSG(at::addcmul(g, g, c), kDeviceError);
  EXPECT_THROW_MSG(at::addcmul(g, s, g), kDeviceError);
  EXPECT_THROW_MSG(at::addcdiv(g, g, s), kDeviceError);
  EXPECT_THROW_MSG(at::lerp(g, c, 0.5), kDeviceError);
  EXPECT_THROW_MSG(at::lerp(g, g, s), kDeviceError);
  // The same calls with the CPU tensor on the device run.
  EXPECT_TRUE(matches(at::addcmul(at::ones({3}), s, at::ones({3})), at::addcmul(g, s.cuda(), g)));
  EXPECT_TRUE(matches(at::lerp(at::ones({3}), at::ones({3}), s), at::lerp(g, g, s.cuda())));
}

}  // namespace
