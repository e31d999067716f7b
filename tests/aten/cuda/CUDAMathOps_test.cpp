// pow, atan2, hypot, fmod, remainder, bitwise and/or/xor, addcmul, addcdiv, lerp, silu and gelu
// on CUDA tensors (BinaryMathKernels.cu), each case run on the CPU and on the device and compared:
// sizes, strides, dtype and values. Exactly for integers, Bool and what is exact arithmetic on
// both sides (fmod, remainder, addcmul, addcdiv, lerp, pow's shortcuts); to a tolerance where
// CUDA's libm stands in for SLEEF. First every layout case of the CPU elementwise tests
// (ElementwiseTestUtils.h) in every dtype each op takes, then CPU-scalar operands, in-place and
// out= forms and NaN/inf edge values, then the error texts. Skipped without a device.
//
// Each case is a function of `on`, which puts a CPU tensor where the call runs: a copy with the
// same geometry on the CPU, or on the device (same_layout_on_device). So every call is written
// once, and the two sides differ only in where their tensors live.

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
using cuda_test::same_layout_on_device;
using elementwise_test::make_values;

using Place = std::function<at::Tensor(const at::Tensor&)>;
using Tensors = std::vector<at::Tensor>;
using Op = std::function<at::Tensor(const Tensors&)>;

int64_t storage_numel(const at::Tensor& t) {
  return static_cast<int64_t>(t.storage().nbytes() / t.element_size());
}

// The CPU side of `on`: t's whole storage copied and viewed with t's geometry, as
// same_layout_on_device does for the device, so an in-place case writes to a copy.
at::Tensor same_layout_on_cpu(const at::Tensor& t) {
  return t.as_strided({storage_numel(t)}, {1}, 0)
      .clone()
      .as_strided(t.sizes(), t.strides(), t.storage_offset());
}

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

// ---- CPU scalars, in-place and out= forms, edge values ----------------------------------------

// Each case returns the tensors to compare (several results of one call, or the forms of one op).
struct ValueCase {
  const char* name;
  std::function<Tensors(const Place& on)> run;
  double tolerance;
};

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

at::Tensor floats() {  // -6 ... 6 in steps of 0.75, 0 included
  return at::arange(-8, 9, at::kFloat) * 0.75;
}
at::Tensor floats2() {  // 17 others, none 0
  return at::arange(-8, 9, at::kFloat) * 0.4 + 0.15;
}
at::Tensor ints() {  // -8 ... 8
  return at::arange(-8, 9, at::kInt);
}
at::Tensor ints_nonzero() {
  return at::tensor({-7, -5, -3, -2, -1, 1, 2, 3, 4, 8}, at::kInt);
}
at::Tensor bools(int seed) {
  return make_values(at::kBool, 17, seed);
}

const std::vector<ValueCase>& value_cases() {
  static const std::vector<ValueCase> cases = {
      // pow with a Scalar exponent: the shortcuts are exact (Note [pow's shortcuts]); rsqrt may
      // come from CUDA's libm.
      {"pow_2.5", [](const Place& on) -> Tensors { return {at::pow(on(floats()), 2.5)}; }, 2e-6},
      {"pow_2", [](const Place& on) -> Tensors { return {at::pow(on(floats()), 2)}; }, 0},
      {"pow_3", [](const Place& on) -> Tensors { return {at::pow(on(floats()), 3)}; }, 0},
      {"pow_-2", [](const Place& on) -> Tensors { return {at::pow(on(floats()), -2)}; }, 0},
      {"pow_0.5", [](const Place& on) -> Tensors { return {at::pow(on(floats()), 0.5)}; }, 0},
      {"pow_-0.5", [](const Place& on) -> Tensors { return {at::pow(on(floats()), -0.5)}; }, 2e-6},
      {"pow_-1", [](const Place& on) -> Tensors { return {at::pow(on(floats()), -1)}; }, 0},
      {"pow_0", [](const Place& on) -> Tensors { return {at::pow(on(floats()), 0)}; }, 0},
      {"pow_1", [](const Place& on) -> Tensors { return {at::pow(on(floats()), 1)}; }, 0},
      {"pow_double_0.5",
       [](const Place& on) -> Tensors { return {at::pow(on(floats().to(at::kDouble)), 0.5)}; }, 0},
      {"pow_double_-1",
       [](const Place& on) -> Tensors { return {at::pow(on(floats().to(at::kDouble)), -1)}; }, 0},
      // BFloat16 compares its exponent rounded: 2.001 is 2, so x * x.
      {"pow_bfloat16_2.001",
       [](const Place& on) -> Tensors { return {at::pow(on(floats().to(at::kBFloat16)), 2.001)}; },
       0},
      {"pow_int_3", [](const Place& on) -> Tensors { return {at::pow(on(ints()), 3)}; }, 0},
      {"pow_int_wraps",
       [](const Place& on) -> Tensors { return {at::pow(on(at::full({3}, 100000, at::kInt)), 3)}; },
       0},
      {"pow_int_2.5_is_float",
       [](const Place& on) -> Tensors { return {at::pow(on(ints()), 2.5)}; }, 2e-6},
      // A Scalar base is a wrapped CPU scalar, the first input: the mirrored form.
      {"pow_scalar_base", [](const Place& on) -> Tensors { return {at::pow(2.5, on(floats()))}; },
       2e-6},
      {"pow_int_scalar_base", [](const Place& on) -> Tensors { return {at::pow(2, on(ints()))}; },
       0},
      {"pow_minus_one_base", [](const Place& on) -> Tensors { return {at::pow(-1, on(ints()))}; },
       0},
      {"pow_negative_int_exponents",
       [](const Place& on) -> Tensors {
         return {at::pow(on(at::tensor({-2, -1, 0, 1, 2, -1, 1, 3}, at::kInt)),
                         on(at::tensor({-3, -3, -3, -3, -3, -4, -5, 0}, at::kInt)))};
       },
       0},
      {"pow_cpu_scalar_exponent",
       [](const Place& on) -> Tensors {
         return {at::pow(on(floats().abs()), at::scalar_tensor(1.5, at::kDouble))};
       },
       2e-6},
      {"pow_cpu_scalar_base",
       [](const Place& on) -> Tensors {
         return {at::pow(at::scalar_tensor(1.5, at::kDouble), on(floats()))};
       },
       2e-6},
      {"pow_in_place",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(floats().abs());
         t.pow_(on(floats2()));
         return {t};
       },
       2e-6},
      {"pow_in_place_scalar",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(floats());
         t.pow_(3);
         return {t};
       },
       0},
      {"pow_out_double",  // computed in Float, cast into the Double out=
       [](const Place& on) -> Tensors {
         at::Tensor out = on(at::empty({0}, at::kDouble));
         at::pow_out(out, on(floats().abs()), on(floats2()));
         return {out};
       },
       2e-6},
      {"pow_out_scalar",
       [](const Place& on) -> Tensors {
         at::Tensor out = on(at::empty({0}, at::kFloat));
         at::pow_out(out, on(floats().abs()), 2.5);
         return {out};
       },
       2e-6},
      {"pow_out_both_cpu_scalars",  // both inputs on the host: one value fills the output
       [](const Place& on) -> Tensors {
         at::Tensor out = on(at::empty({}, at::kFloat));
         at::pow_out(out, at::scalar_tensor(2.0, at::kFloat), at::scalar_tensor(3.0, at::kFloat));
         return {out};
       },
       2e-6},
      {"pow_edges",
       [](const Place& on) -> Tensors {
         const at::Tensor base = at::tensor({kNaN, 1.f, -1.f, -1.f, 0.f, -0.f, -0.f, kInf, -kInf,
                                             -kInf, -kInf, -8.f, 2.f, 0.5f, 2.f, kNaN, kInf});
         const at::Tensor exp = at::tensor({0.f, kNaN, kInf, -kInf, -1.f, -1.f, -2.f, -1.f, 3.f,
                                            2.f, -3.f, 1.f / 3, kInf, kInf, -kInf, 1.f, 0.f});
         return {at::pow(on(base), on(exp))};
       },
       2e-6},

      // atan2
      {"atan2_cpu_scalar_other",
       [](const Place& on) -> Tensors {
         return {at::atan2(on(floats()), at::scalar_tensor(0.5, at::kDouble))};
       },
       2e-6},
      {"atan2_cpu_scalar_self",
       [](const Place& on) -> Tensors {
         return {at::atan2(at::scalar_tensor(0.5, at::kDouble), on(floats()))};
       },
       2e-6},
      {"atan2_signed_zeros",
       [](const Place& on) -> Tensors {
         return {at::atan2(on(at::tensor({0.f, -0.f, 0.f, -0.f})),
                           on(at::tensor({0.f, 0.f, 2.f, 2.f})))};
       },
       0},
      {"atan2_edges",
       [](const Place& on) -> Tensors {
         const at::Tensor y = at::tensor({0.f, -0.f, 1.f, 1.f, kInf, -kInf, kInf, kNaN, 1.f, -1.f});
         const at::Tensor x =
             at::tensor({-0.f, -0.f, kInf, -kInf, kInf, -kInf, 1.f, 1.f, kNaN, 0.f});
         return {at::atan2(on(y), on(x))};
       },
       2e-6},
      {"atan2_in_place",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(floats());
         t.atan2_(on(floats2()));
         return {t};
       },
       2e-6},
      {"atan2_out_double",
       [](const Place& on) -> Tensors {
         at::Tensor out = on(at::empty({0}, at::kDouble));
         at::atan2_out(out, on(floats()), on(floats2()));
         return {out};
       },
       2e-6},
      {"atan2_ints_are_float",
       [](const Place& on) -> Tensors { return {at::atan2(on(ints()), on(ints()))}; }, 2e-6},

      // hypot
      {"hypot_cpu_scalars",
       [](const Place& on) -> Tensors {
         return {at::hypot(on(floats()), at::scalar_tensor(2.0, at::kDouble)),
                 at::hypot(at::scalar_tensor(-1.5, at::kDouble), on(floats2()))};
       },
       2e-6},
      {"hypot_edges",
       [](const Place& on) -> Tensors {
         const at::Tensor a = at::tensor({3.f, kInf, kNaN, -kInf, 0.f, -0.f, 1e30f, 1e-30f});
         const at::Tensor b = at::tensor({4.f, kNaN, 1.f, 2.f, -0.f, -0.f, 1e30f, 1e-30f});
         return {at::hypot(on(a), on(b))};
       },
       2e-6},
      {"hypot_in_place_and_out",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(floats());
         t.hypot_(on(floats2()));
         at::Tensor out = on(at::empty({0}, at::kFloat));
         at::hypot_out(out, t, on(floats()));
         return {out};
       },
       2e-6},

      // fmod: the dividend's sign; see Note [Integer division by zero on the GPU] for why no
      // integer divisor here is 0.
      {"fmod_scalar", [](const Place& on) -> Tensors { return {at::fmod(on(floats()), 1.5)}; }, 0},
      {"fmod_negative_scalar",
       [](const Place& on) -> Tensors { return {at::fmod(on(floats()), -1.5)}; }, 0},
      {"fmod_int", [](const Place& on) -> Tensors { return {at::fmod(on(ints()), 3)}; }, 0},
      {"fmod_int_negative", [](const Place& on) -> Tensors { return {at::fmod(on(ints()), -3)}; },
       0},
      {"fmod_int_by_float_is_float",
       [](const Place& on) -> Tensors { return {at::fmod(on(ints()), 1.5)}; }, 0},
      {"fmod_int64_min_by_minus_one",
       [](const Place& on) -> Tensors {
         return {at::fmod(on(at::full({3}, std::numeric_limits<int64_t>::min(), at::kLong)), -1)};
       },
       0},
      {"fmod_cpu_scalar_self",
       [](const Place& on) -> Tensors {
         return {at::fmod(at::scalar_tensor(7.5, at::kFloat), on(floats2()))};
       },
       0},
      {"fmod_edges",
       [](const Place& on) -> Tensors {
         const at::Tensor a = at::tensor({5.5f, kInf, 5.5f, -5.5f, -0.f, kNaN, 2.f, -4.f, 4.f});
         const at::Tensor b = at::tensor({0.f, 2.f, kInf, kInf, 2.f, 2.f, kNaN, 2.f, -2.f});
         return {at::fmod(on(a), on(b))};
       },
       0},
      {"fmod_half",
       [](const Place& on) -> Tensors { return {at::fmod(on(floats().to(at::kHalf)), 1.5)}; }, 0},
      {"fmod_in_place_and_out",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(floats());
         t.fmod_(on(floats2()));
         at::Tensor out = on(at::empty({0}, at::kDouble));
         at::fmod_out(out, t, 0.5);
         return {out};
       },
       0},
      {"fmod_out_both_cpu_scalars",
       [](const Place& on) -> Tensors {
         at::Tensor out = on(at::empty({}, at::kLong));
         at::fmod_out(out, at::scalar_tensor(7, at::kLong), at::scalar_tensor(-3, at::kLong));
         return {out};
       },
       0},

      // remainder: the divisor's sign (Python's %).
      {"remainder_scalar",
       [](const Place& on) -> Tensors { return {at::remainder(on(floats()), 1.5)}; }, 0},
      {"remainder_negative_scalar",
       [](const Place& on) -> Tensors { return {at::remainder(on(floats()), -1.5)}; }, 0},
      {"remainder_scalar_self",
       [](const Place& on) -> Tensors { return {at::remainder(5, on(ints_nonzero()))}; }, 0},
      {"remainder_float_scalar_self",
       [](const Place& on) -> Tensors { return {at::remainder(5.5, on(floats2()))}; }, 0},
      {"remainder_int_negative",
       [](const Place& on) -> Tensors { return {at::remainder(on(ints()), -3)}; }, 0},
      {"remainder_int64_min_by_minus_one",
       [](const Place& on) -> Tensors {
         return {at::remainder(on(at::full({3}, std::numeric_limits<int64_t>::min(), at::kLong)),
                               on(at::full({3}, -1, at::kLong)))};
       },
       0},
      {"remainder_edges",
       [](const Place& on) -> Tensors {
         const at::Tensor a =
             at::tensor({5.5f, kInf, 5.5f, -5.5f, -0.f, kNaN, 2.f, -4.f, 4.f, 5.5f});
         const at::Tensor b = at::tensor({0.f, 2.f, kInf, kInf, 2.f, 2.f, kNaN, 2.f, -2.f, -kInf});
         return {at::remainder(on(a), on(b))};
       },
       0},
      {"remainder_in_place_and_out",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(ints());
         t.remainder_(on(at::full({17}, -5, at::kInt)));
         at::Tensor out = on(at::empty({0}, at::kLong));
         at::remainder_out(out, t, 3);
         return {out};
       },
       0},

      // bitwise and, or, xor
      {"bitwise_and_scalar",
       [](const Place& on) -> Tensors { return {at::bitwise_and(on(ints()), 6)}; }, 0},
      {"bitwise_or_cpu_scalar",
       [](const Place& on) -> Tensors {
         return {at::bitwise_or(on(ints()), at::scalar_tensor(3, at::kInt))};
       },
       0},
      {"bitwise_xor_scalar_self",
       [](const Place& on) -> Tensors { return {at::bitwise_xor(5, on(ints()))}; }, 0},
      {"bitwise_bool",
       [](const Place& on) -> Tensors {
         const at::Tensor a = on(bools(1)), b = on(bools(2));
         return {at::bitwise_and(a, b), at::bitwise_or(a, b), at::bitwise_xor(a, b)};
       },
       0},
      {"bitwise_byte_and_char_is_short",
       [](const Place& on) -> Tensors {
         return {
             at::bitwise_xor(on(make_values(at::kByte, 17, 3)), on(make_values(at::kChar, 17, 4)))};
       },
       0},
      {"bitwise_in_place_and_out",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(ints());
         t.bitwise_xor_(on(at::full({17}, 5, at::kInt)));
         at::Tensor out = on(at::empty({0}, at::kLong));
         at::bitwise_or_out(out, t, on(ints()));
         return {out};
       },
       0},

      // addcmul, addcdiv: exact (Note [No fused multiply-add where the CPU has none]).
      {"addcmul_broadcast",
       [](const Place& on) -> Tensors {
         return {at::addcmul(on(at::arange(12, at::kFloat).view({3, 4}) * 0.37),
                             on(floats().narrow(0, 0, 4)),
                             on(floats2().narrow(0, 3, 3).view({3, 1})), 0.3)};
       },
       0},
      {"addcmul_in_place_and_out",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(floats());
         t.addcmul_(on(floats2()), on(floats()), -1.1);
         at::Tensor out = on(at::empty({0}, at::kFloat));
         at::addcmul_out(out, t, on(floats2()), on(floats2()), 0.7);
         return {out};
       },
       0},
      {"addcmul_long_wraps",
       [](const Place& on) -> Tensors {
         const at::Tensor big =
             at::tensor({std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                         int64_t{3}, int64_t{-5}});
         return {at::addcmul(on(big), on(big), on(at::tensor({7, 3, -2, 9}, at::kLong)), 3)};
       },
       0},
      {"addcmul_int_wraps",
       [](const Place& on) -> Tensors {
         const at::Tensor big = at::tensor({1 << 30, -(1 << 30), 65537, -7}, at::kInt);
         return {at::addcmul(on(big), on(big), on(big), 5)};
       },
       0},
      {"addcmul_long_and_float_is_float",
       [](const Place& on) -> Tensors {
         return {at::addcmul(on(at::arange(17, at::kLong)), on(floats()), on(floats2()), 0.3)};
       },
       0},
      {"addcmul_zero_dim_device_operand",
       [](const Place& on) -> Tensors {
         return {
             at::addcmul(on(floats()), on(at::scalar_tensor(2.5, at::kFloat)), on(floats2()), 0.3)};
       },
       0},
      {"addcdiv",
       [](const Place& on) -> Tensors {
         return {at::addcdiv(on(floats()), on(floats2()), on(floats()), -2)};
       },
       0},
      {"addcdiv_in_place_and_out",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(floats().to(at::kDouble));
         t.addcdiv_(on(floats2().to(at::kDouble)), on(floats().to(at::kDouble)), 0.3);
         at::Tensor out = on(at::empty({0}, at::kDouble));
         at::addcdiv_out(out, t, on(floats().to(at::kDouble)), on(floats2().to(at::kDouble)), 0.3);
         return {out};
       },
       0},

      // lerp: exact; the endpoints exactly (Note [Two-sided lerp]).
      {"lerp_weights",
       [](const Place& on) -> Tensors {
         const at::Tensor s = on(floats()), e = on(floats2());
         return {at::lerp(s, e, 0.3), at::lerp(s, e, 0.7),  at::lerp(s, e, 1.0),
                 at::lerp(s, e, 0.0), at::lerp(s, e, -0.5), at::lerp(s, e, 2.0)};
       },
       0},
      {"lerp_broadcast_weight",
       [](const Place& on) -> Tensors {
         return {at::lerp(on(floats().view({1, 17})), on(floats2().view({17, 1})),
                          on(at::full({1}, 0.3f)))};
       },
       0},
      {"lerp_in_place_and_out",
       [](const Place& on) -> Tensors {
         at::Tensor t = on(floats());
         t.lerp_(on(floats2()), 0.6);
         at::Tensor out = on(at::empty({0}, at::kFloat));
         at::lerp_out(out, t, on(floats()), on(floats2() / 4));
         return {out};
       },
       0},
      {"lerp_edges",
       [](const Place& on) -> Tensors {
         const at::Tensor s = at::tensor({kInf, 1.f, kNaN, 0.f, 1.f});
         const at::Tensor e = at::tensor({1.f, kInf, 0.f, 0.f, 3.f});
         const at::Tensor w = at::tensor({0.3f, 0.7f, 0.5f, kNaN, 1.f});
         return {at::lerp(on(s), on(e), on(w))};
       },
       0},

      // silu, gelu
      {"silu_gelu_edges",
       [](const Place& on) -> Tensors {
         const at::Tensor x = on(at::tensor(
             {kNaN, kInf, -kInf, 0.f, -0.f, 1e-30f, -100.f, 100.f, 20.f, -20.f, 3.f, -3.f}));
         return {at::silu(x), at::gelu(x), at::gelu(x, "tanh")};
       },
       2e-6},
      {"silu_gelu_in_place_and_out",
       [](const Place& on) -> Tensors {
         at::Tensor a = on(floats2());
         at::silu_(a);
         at::Tensor b = on(floats());
         at::gelu_(b, "tanh");
         at::Tensor c = on(at::empty({0}, at::kFloat));
         at::gelu_out(c, on(floats()), "none");
         at::Tensor d = on(at::empty({0}, at::kFloat));
         at::silu_out(d, on(floats()));
         return {a, b, c, d};
       },
       2e-6},
  };
  return cases;
}

TEST(CUDAMathOps, CpuScalarsInPlaceOutAndEdgeValues) {
  SKIP_WITHOUT_CUDA();
  for (const ValueCase& c : value_cases()) {
    const Tensors expected = c.run(same_layout_on_cpu);
    const Tensors got = c.run(same_layout_on_device);
    ASSERT_EQ(got.size(), expected.size()) << c.name;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(matches(expected[i], got[i], c.tolerance)) << c.name << " result " << i;
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
