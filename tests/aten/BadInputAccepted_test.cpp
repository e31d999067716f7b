// Inputs that look wrong but that libtorch 1.13 accepts: the same result here, structure and
// values. Part of the bad-input inventory: see tests/aten/BadInput.h.

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "tests/aten/BadInput.h"

namespace {

using namespace bad_input;

struct AcceptedCase {
  std::string name;
  std::function<std::string()> result;
  std::string expected;
};

std::ostream& operator<<(std::ostream& os, const AcceptedCase& c) {
  return os << c.name;
}

// Each result is libtorch 1.13's, but where a comment says otherwise.
const std::vector<AcceptedCase>& accepted_cases() {
  static const std::vector<AcceptedCase> all = {
      // libtorch's undefined tensor counts as contiguous, so an absent bias's contiguous() is
      // itself.
      {"undef_contiguous_method", [] { return desc(undef().contiguous()); }, "undefined"},
      {"undef_contiguous_fn",
       [] { return desc(at::_ops::contiguous::call(undef(), at::MemoryFormat::Contiguous)); },
       "undefined"},
      {"undef_is_contiguous",
       [] {
         return std::to_string(undef().is_contiguous()) +
                std::to_string(undef().is_contiguous(at::MemoryFormat::ChannelsLast));
       },
       "10"},
      {"undef_print",
       [] {
         std::ostringstream os;
         os << undef();
         return os.str();
       },
       "[ Tensor (undefined) ]"},
      {"dtype_eq_out_float",
       [] {
         auto o = at::empty({2, 3}, at::kFloat);
         at::eq_out(o, f23(), at::zeros({3}));
         return desc(o);
       },
       "Float[2, 3][3, 1] {1 0 0 0 0 0}"},
      {"dtype_sum_out_long_of_float",
       [] {
         auto o = at::empty({3}, at::kLong);
         at::sum_out(o, f23() + 0.5, {0});
         return desc(o);
       },
       "Long[3][1] {3 5 7}"},
      {"dtype_cumsum_out_long_of_float",
       [] {
         auto o = at::empty({2, 3}, at::kLong);
         at::cumsum_out(o, f23() + 0.5, 0);
         return desc(o);
       },
       "Long[2, 3][3, 1] {0 1 2 3 5 7}"},
      {"dtype_add_bool_alpha_int", [] { return desc(at::add(b23(), b23(), 2)); },
       "Bool[2, 3][3, 1] {1 1 1 1 1 1}"},
      {"dtype_item_bool_of_float",
       [] { return std::to_string(at::scalar_tensor(2.5).item<bool>()); }, "1"},
      {"dtype_isclose_bool",
       [] {
         return desc(at::isclose(b23(), at::zeros({2, 3}, at::kBool)));
       },
       "Bool[2, 3][3, 1] {0 0 0 0 0 0}"},
      {"dtype_equal_dtype_mismatch",
       [] {
         return std::to_string(at::equal(f23(), l23())) +
                std::to_string(at::equal(f23() + 0.5, l23()));
       },
       "10"},
      {"dtype_div_true_int_by_zero",
       [] { return desc(at::div(l4() * 2 - 3, at::zeros({4}, at::kLong))); },
       "Float[4][1] {-inf -inf inf inf}"},
      {"dtype_bitwise_not_bool", [] { return desc(~at::ones({2}, at::kBool)); },
       "Bool[2][1] {0 0}"},
      {"dtype_div_floor_float_by_zero", [] { return desc(at::div(f4() * 2 - 3, 0, "floor")); },
       "Float[4][1] {-inf -inf inf inf}"},
      {"device_mul_meta_cpu_scalar", [] { return desc(at::mul(m23(), at::scalar_tensor(2.0))); },
       "Float[2, 3][3, 1] meta"},
      {"device_add_meta_meta", [] { return desc(at::add(m23(), m23().to(at::kLong))); },
       "Float[2, 3][3, 1] meta"},
      {"device_meta_int_div_by_zero", [] { return desc(at::div(m23().to(at::kLong), 0, "floor")); },
       "Long[2, 3][3, 1] meta"},
      {"device_meta_comparison", [] { return desc(at::lt(m23(), 1)); }, "Bool[2, 3][3, 1] meta"},
      {"device_meta_bitwise", [] { return desc(m23().to(at::kInt).bitwise_xor_(3)); },
       "Int[2, 3][3, 1] meta"},
      {"device_meta_exp_long", [] { return desc(at::exp(m23().to(at::kLong))); },
       "Float[2, 3][3, 1] meta"},
      {"device_copy_cpu_to_meta", [] { return desc(m23().copy_(f23())); },
       "Float[2, 3][3, 1] meta"},
      {"overlap_zero_expanded",
       [] {
         auto t = at::zeros({1});
         t.expand({4}).fill_(3);
         return desc(t);
       },
       "Float[1][1] {3}"},
      {"overlap_fill_with_own_element",
       [] {
         auto a = f4();
         a.fill_(a.select(0, 2));
         return desc(a);
       },
       "Float[4][1] {2 2 2 2}"},
      {"overlap_add_self_inplace",
       [] {
         auto a = f4();
         a.add_(a);
         return desc(a);
       },
       "Float[4][1] {0 2 4 6}"},
      {"overlap_copy_same_view",
       [] {
         auto a = f4();
         a.copy_(a.view({4}));
         return desc(a);
       },
       "Float[4][1] {0 1 2 3}"},
      {"ovf_fill_uint8_minus_one", [] { return desc(at::zeros({2}, at::kByte).fill_(-1)); },
       "Byte[2][1] {255 255}"},
      {"ovf_add_scalar_uint8_wraps", [] { return desc(at::zeros({2}, at::kByte).add_(1000)); },
       "Byte[2][1] {232 232}"},
      {"ovf_arange_out_resized",
       [] {
         auto o = at::empty({3}, at::kLong);
         at::arange_out(o, 0, 5, 1);
         return desc(o);
       },
       "Long[5][1] {0 1 2 3 4}"},
      {"ovf_arange_int8_wraps", [] { return desc(at::arange(120, 140, 5, at::kChar)); },
       "Char[4][1] {120 125 -126 -121}"},
      {"ovf_unfold_huge_step", [] { return desc(f4().unfold(0, 2, kMax)); },
       "Float[1, 2][9223372036854775807, 1] {0 1}"},
      // libtorch 1.13 computes the length as (4 + step - 1) / step, which wraps: no element here,
      // "Storage size calculation overflowed with sizes=[-1] ..." for the next case, and
      // "Expected !is_symbolic() to be true, but got false." for an INT64_MIN start.
      {"ovf_slice_huge_step", [] { return desc(at::slice(f4(), 0, 0, kMax, kMax)); },
       "Float[1][9223372036854775807] {0}"},
      {"ovf_slice_huge_step_negative_start",
       [] { return desc(at::slice(f4(), 0, -2, kMax, kMax)); },
       "Float[1][9223372036854775807] {2}"},
      {"ovf_slice_int64_min_start", [] { return desc(at::slice(f4(), 0, kMin, 4, 1)); },
       "Float[4][1] {0 1 2 3}"},
      // libtorch 1.13 rounds 4 / INT64_MAX up by adding INT64_MAX - 1, wraps, and refuses
      // ("split_size
      // can only be 0 if dimension size is 0, but got dimension size of 4").
      {"ovf_chunk_huge",
       [] { return std::to_string(f4().chunk(kMax).size()) + desc(f4().chunk(kMax)[3]); },
       "4Float[1][1] {3}"},
      {"ovf_split_huge",
       [] { return std::to_string(f4().split(kMax).size()) + desc(f4().split(kMax)[0]); },
       "1Float[4][1] {0 1 2 3}"},
      {"ovf_narrow_start_at_end", [] { return desc(f4().narrow(0, 4, 0)); }, "Float[0][1] {}"},
      {"ovf_select_negative_wraps", [] { return desc(f4().select(0, -4)); }, "Float[][] {0}"},
      {"ovf_expand_huge_from_empty",
       [] {
         return desc(at::zeros({0, 1}).expand({0, kMax}));
       },
       "Float[0, 9223372036854775807][1, 0] {}"},
      {"arg_contiguous_preserve_contiguous",
       [] { return desc(f23().contiguous(at::MemoryFormat::Preserve)); },
       "Float[2, 3][3, 1] {0 1 2 3 4 5}"},
      {"arg_view_as_complex_even_strides",
       [] {
         return desc(at::view_as_real(
             at::view_as_complex(at::arange(8, at::kFloat).view({2, 4}).narrow(1, 0, 2))));
       },
       "Float[2, 2][4, 1] {0 1 4 5}"},
      {"arg_batch_norm_training_one_value",
       [] {
         return desc(at::batch_norm(at::ones({1, 3}), {}, {}, {}, {}, true, 0.1, 1e-5, false));
       },
       "Float[1, 3][3, 1] {0 0 0}"},
      {"arg_backward_grad_of_other_dtype",
       [] {
         auto x = at::ones({2}).requires_grad_();
         (x * 2).backward(at::ones({2}, at::kLong));
         return desc(x.grad());
       },
       "Float[2][1] {2 2}"},
      {"arg_backward_grad_zero_dim_moved",
       [] {
         auto x = at::ones({}).requires_grad_();
         (x * 2).backward(at::ones({}, at::kDouble));
         return desc(x.grad());
       },
       "Float[][] {2}"},
      {"arg_out_of_other_shape_resized",
       [] {
         auto o = at::empty({3, 2});
         at::add_out(o, f23(), f23());
         return desc(o);
       },
       "Float[2, 3][3, 1] {0 2 4 6 8 10}"},
      {"arg_requires_grad_false_on_leaf",
       [] { return std::to_string(at::ones({2}).requires_grad_(false).requires_grad()); }, "0"},
  };
  return all;
}

class BadInputAccepted : public ::testing::TestWithParam<AcceptedCase> {};

TEST_P(BadInputAccepted, SameResultAsLibtorch) {
  const AcceptedCase& c = GetParam();
  EXPECT_EQ(c.result(), c.expected);
}

INSTANTIATE_TEST_SUITE_P(Inventory, BadInputAccepted, ::testing::ValuesIn(accepted_cases()),
                         [](const ::testing::TestParamInfo<AcceptedCase>& info) {
                           return info.param.name;
                         });

}  // namespace
