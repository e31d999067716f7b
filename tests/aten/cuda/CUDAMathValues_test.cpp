// pow, atan2, hypot, fmod, remainder, bitwise and/or/xor, addcmul, addcdiv, lerp, silu and gelu
// on CUDA tensors beyond the layout cases of CUDAMathOps_test.cpp: CPU-scalar operands (a CPU
// 0-dim tensor beside CUDA ones), in-place and out= forms, and NaN, infinity and zero edge
// values, each case run on the CPU and on the device and compared (sizes, strides, dtype and
// values, exactly or to CUDA's libm's tolerance). Skipped without a device.
//
// Each case is a function of `on`, which puts a CPU tensor where the call runs: a copy with the
// same geometry on the CPU (same_layout_on_cpu), or on the device (same_layout_on_device).

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "../ElementwiseTestUtils.h"
#include "CUDATestUtils.h"

namespace {

using cuda_test::matches;
using cuda_test::same_layout_on_cpu;
using cuda_test::same_layout_on_device;
using elementwise_test::make_values;

using Place = std::function<at::Tensor(const at::Tensor&)>;
using Tensors = std::vector<at::Tensor>;

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

}  // namespace
