// Out-of-range dims, negative sizes and numbers that overflow, each with libtorch 1.13's error.
// Part of the bad-input inventory: see tests/aten/BadInput.h.

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "tests/aten/BadInput.h"

namespace {

using namespace bad_input;

// Out-of-range and repeated dims (2-d tensors unless said).
std::vector<ErrorCase> dim_cases() {
  using K = Kind;
  return {
      {"dim_select", [] { f23().select(5, 0); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_select_negative", [] { f23().select(-3, 0); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got -3)"},
      {"dim_narrow", [] { f23().narrow(5, 0, 1); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_transpose_first", [] { f23().transpose(5, 0); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_transpose_negative", [] { f23().transpose(0, -3); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got -3)"},
      {"dim_sum", [] { f23().sum(5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_sum_list",
       [] {
         f23().sum(at::IntArrayRef{0, 5});
       },
       K::IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_sum_repeated",
       [] {
         f23().sum(at::IntArrayRef{0, -2});
       },
       K::Error, "dim 0 appears multiple times in the list of dims"},
      {"dim_mean", [] { f23().mean(5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_mean_repeated",
       [] {
         f23().mean(at::IntArrayRef{1, 1});
       },
       K::Error, "dim 1 appears multiple times in the list of dims"},
      {"dim_cumsum", [] { f23().cumsum(5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_squeeze", [] { f23().squeeze(5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_unsqueeze", [] { f23().unsqueeze(5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-3, 2], but got 5)"},
      {"dim_unsqueeze_negative", [] { f23().unsqueeze(-4); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-3, 2], but got -4)"},
      {"dim_movedim_source", [] { f23().movedim(5, 0); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_movedim_destination", [] { f23().movedim(0, 5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_movedim_list",
       [] {
         f23().movedim({0, 5}, {1, 0});
       },
       K::IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_permute_repeat",
       [] {
         f23().permute({1, 1});
       },
       K::Error, "permute(): duplicate dims are not allowed."},
      {"dim_permute_repeat_negative",
       [] {
         f23().permute({-1, 1});
       },
       K::Error, "permute(): duplicate dims are not allowed."},
      {"dim_permute_out_of_range",
       [] {
         f23().permute({0, 5});
       },
       K::IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_flatten_start", [] { f23().flatten(5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_flatten_end", [] { f23().flatten(0, 5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_unflatten",
       [] {
         f23().unflatten(5, {1, 3});
       },
       K::IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_diagonal", [] { f23().diagonal(0, 0, 5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_unfold", [] { f23().unfold(5, 1, 1); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_split", [] { f23().split(1, 5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_split_with_sizes",
       [] {
         f23().split_with_sizes({1, 1}, 5);
       },
       K::IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_chunk", [] { f23().chunk(2, 5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_unbind", [] { f23().unbind(5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_slice", [] { at::slice(f23(), 5, 0, 1); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_size", [] { f23().size(5); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"dim_stride", [] { f23().stride(-3); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got -3)"},
      {"dim_scalar_sum", [] { at::scalar_tensor(1.0).sum(1); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
      {"dim_scalar_cumsum", [] { at::scalar_tensor(1.0).cumsum(1); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
      {"dim_scalar_transpose", [] { at::scalar_tensor(1.0).transpose(0, 1); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
      {"dim_scalar_squeeze", [] { at::scalar_tensor(1.0).squeeze(1); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
      {"dim_scalar_unsqueeze", [] { at::scalar_tensor(1.0).unsqueeze(2); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-1, 0], but got 2)"},
      {"dim_int64_min_unsqueeze", [] { f23().unsqueeze(kMin); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-3, 2], but got -9223372036854775808)"},
      {"dim_int64_max_select", [] { f23().select(kMax, 0); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-2, 1], but got 9223372036854775807)"},
  };
}

// Negative sizes.
std::vector<ErrorCase> negative_size_cases() {
  using K = Kind;
  return {
      {"neg_empty", [] { at::empty({-1}); }, K::Error,
       "Trying to create tensor with negative dimension -1: [-1]"},
      {"neg_empty_2d",
       [] {
         at::empty({2, -3});
       },
       K::Error, "Trying to create tensor with negative dimension -3: [2, -3]"},
      {"neg_empty_meta",
       [] {
         at::empty({2, -3}, at::TensorOptions().device(at::kMeta));
       },
       K::Error, "Trying to create tensor with negative dimension -3: [2, -3]"},
      {"neg_empty_strided", [] { at::empty_strided({-1}, {1}); }, K::Error,
       "Trying to create tensor with negative dimension -1: [-1]"},
      {"neg_zeros",
       [] {
         at::zeros({2, -1});
       },
       K::Error, "Trying to create tensor with negative dimension -1: [2, -1]"},
      {"neg_ones", [] { at::ones({-5}); }, K::Error,
       "Trying to create tensor with negative dimension -5: [-5]"},
      {"neg_full",
       [] {
         at::full({-1, 2}, 3.0);
       },
       K::Error, "Trying to create tensor with negative dimension -1: [-1, 2]"},
      {"neg_rand", [] { at::rand({-1}); }, K::Error,
       "Trying to create tensor with negative dimension -1: [-1]"},
      {"neg_randn",
       [] {
         at::randn({3, -2});
       },
       K::Error, "Trying to create tensor with negative dimension -2: [3, -2]"},
      {"neg_view",
       [] {
         f23().view({-3, -2});
       },
       K::Error, "invalid shape dimension -3"},
      {"neg_view_other",
       [] {
         f23().view({3, -2});
       },
       K::Error, "invalid shape dimension -2"},
      {"neg_reshape",
       [] {
         f23().reshape({-2, 3});
       },
       K::Error, "invalid shape dimension -2"},
      {"neg_reshape_two_inferred",
       [] {
         f23().reshape({-1, -1});
       },
       K::Error, "only one dimension can be inferred"},
      {"neg_expand_inner",
       [] {
         f23().expand({2, -2});
       },
       K::Error,
       "The expanded size of the tensor (-2) must match the existing size (3) at non-singleton "
       "dimension 1.  Target sizes: [2, -2].  Tensor sizes: [2, 3]"},
      {"neg_expand_new_dim",
       [] {
         f23().expand({-2, 2, 3});
       },
       K::Error, "numel: integer multiplication overflow"},
      {"neg_resize", [] { f23().resize_({-1}); }, K::Error,
       "numel: integer multiplication overflow"},
      {"neg_unflatten",
       [] {
         f23().unflatten(1, {-3, -1});
       },
       K::Error, "invalid shape dimension -3"},
      {"neg_split_with_sizes",
       [] {
         f23().split_with_sizes({4, -1}, 1);
       },
       K::Error,
       "split_with_sizes expects split_sizes have only non-negative entries, but got "
       "split_sizes=[4, -1]"},
      {"neg_chunk", [] { f23().chunk(-1); }, K::Error,
       "chunk expects `chunks` to be greater than 0, got: -1"},
      {"neg_set_size", [] { f23().set_(f23(), 0, {-1}, {1}); }, K::Error,
       "numel: integer multiplication overflow"},
  };
}

// Numbers that overflow: sizes, strides, offsets, Scalars that do not fit the dtype, ranges.
std::vector<ErrorCase> overflow_cases() {
  using K = Kind;
  return {
      {"ovf_empty_numel",
       [] {
         at::empty({kMax, 2});
       },
       K::Error, "Storage size calculation overflowed with sizes=[9223372036854775807, 2]"},
      {"ovf_empty_bytes",
       [] {
         at::empty({int64_t{1} << 62, 4});
       },
       K::Error, "Storage size calculation overflowed with sizes=[4611686018427387904, 4]"},
      {"ovf_empty_meta",
       [] {
         at::empty({kMax, 2}, at::TensorOptions().device(at::kMeta));
       },
       K::Error, "Storage size calculation overflowed with sizes=[9223372036854775807, 2]"},
      {"ovf_zeros_bytes", [] { at::zeros({kMax}); }, K::Error,
       "Storage size calculation overflowed with sizes=[9223372036854775807]"},
      {"ovf_empty_strided",
       [] {
         at::empty_strided({2, 2}, {kMax, 1});
       },
       K::Error,
       "Storage size calculation overflowed with sizes=[2, 2] and strides=[9223372036854775807, "
       "1]"},
      {"ovf_as_strided_huge_stride",
       [] {
         f23().as_strided({2, 2}, {kMax, 1});
       },
       K::Error,
       "Storage size calculation overflowed with sizes=[2, 2] and strides=[9223372036854775807, "
       "1]"},
      // libtorch 1.13 adds the offset's bytes in int64, wraps, and accepts a view far past the
      // storage.
      {"ovf_as_strided_huge_offset", [] { f23().as_strided({1}, {1}, kMax); }, K::Error,
       "Storage size calculation overflowed with sizes=[1] and strides=[1]"},
      {"ovf_resize",
       [] {
         f23().resize_({kMax, 2});
       },
       K::Error, "numel: integer multiplication overflow"},
      {"ovf_view_product",
       [] {
         at::empty({0}).view({int64_t{1} << 32, int64_t{1} << 32});
       },
       K::Error, "numel: integer multiplication overflow"},
      {"ovf_reshape_product",
       [] {
         at::empty({0}).reshape({int64_t{1} << 32, int64_t{1} << 32});
       },
       K::Error, "numel: integer multiplication overflow"},
      {"ovf_view_product_infer",
       [] {
         f23().view({int64_t{1} << 62, -1});
       },
       K::Error, "shape '[4611686018427387904, -1]' is invalid for input of size 6"},
      {"ovf_expand_product",
       [] {
         at::zeros({1, 1}).expand({kMax, 2});
       },
       K::Error, "numel: integer multiplication overflow"},
      {"ovf_full_uint8", [] { at::full({2}, 300, at::kByte); }, K::Error,
       "value cannot be converted to type uint8_t without overflow"},
      {"ovf_full_int8_negative", [] { at::full({2}, -129, at::kChar); }, K::Error,
       "value cannot be converted to type int8_t without overflow"},
      {"ovf_full_int_from_double", [] { at::full({2}, 1e10, at::kInt); }, K::Error,
       "value cannot be converted to type int without overflow"},
      {"ovf_full_float_from_double", [] { at::full({2}, 1e300, at::kFloat); }, K::Error,
       "value cannot be converted to type float without overflow"},
      {"ovf_full_half", [] { at::full({2}, 70000.0, at::kHalf); }, K::Error,
       "value cannot be converted to type at::Half without overflow"},
      {"ovf_full_long_from_complex", [] { at::full({2}, c10::complex<double>(1, 1), at::kLong); },
       K::Error, "value cannot be converted to type int64_t without overflow"},
      {"ovf_fill_short", [] { at::zeros({2}, at::kShort).fill_(40000); }, K::Error,
       "value cannot be converted to type int16_t without overflow"},
      {"ovf_fill_int_from_long", [] { at::zeros({2}, at::kInt).fill_(int64_t{1} << 40); }, K::Error,
       "value cannot be converted to type int without overflow"},
      {"ovf_fill_float_complex", [] { at::zeros({2}).fill_(c10::complex<double>(1, 2)); }, K::Error,
       "value cannot be converted to type float without overflow"},
      {"ovf_fill_tensor_value_overflow",
       [] { at::zeros({2}, at::kByte).fill_(at::scalar_tensor(1000, at::kLong)); }, K::Error,
       "value cannot be converted to type uint8_t without overflow"},
      {"ovf_scalar_tensor_int8", [] { at::scalar_tensor(1000, at::kChar); }, K::Error,
       "value cannot be converted to type int8_t without overflow"},
      {"ovf_item_int8", [] { at::scalar_tensor(1000, at::kLong).item<int8_t>(); }, K::Error,
       "value cannot be converted to type int8_t without overflow"},
      {"ovf_item_int", [] { at::scalar_tensor(int64_t{1} << 40, at::kLong).item<int>(); }, K::Error,
       "value cannot be converted to type int without overflow"},
      {"ovf_item_float_from_double", [] { at::scalar_tensor(1e300, at::kDouble).item<float>(); },
       K::Error, "value cannot be converted to type float without overflow"},
      {"ovf_scalar_to_int", [] { at::Scalar(1e10).to<int>(); }, K::Error,
       "value cannot be converted to type int without overflow"},
      {"ovf_scalar_complex_to_double", [] { at::Scalar(c10::complex<double>(1, 2)).to<double>(); },
       K::Error, "value cannot be converted to type double without overflow"},
      {"ovf_arange_huge_range", [] { at::arange(0, 1e20, 1e-10); }, K::Error,
       "invalid size, possible overflow?"},
      {"ovf_arange_int64_range", [] { at::arange(kMin, kMax, 1); }, K::Error,
       "invalid size, possible overflow?"},
      // A size of exactly 2^63: libtorch 1.13 converts it to INT64_MIN (undefined behaviour) and
      // says "IntArrayRef contains an int that cannot be represented as a SymInt:
      // -9223372036854775808" (found by fuzz_boxed_call).
      {"ovf_arange_size_two_to_63", [] { at::arange(0., 9223372036854775807., 1., at::kDouble); },
       K::Error, "invalid size, possible overflow?"},
      {"ovf_arange_infinite", [] { at::arange(0, std::numeric_limits<double>::infinity()); },
       K::Error, "unsupported range: 0 -> inf"},
      {"ovf_arange_nan", [] { at::arange(0, std::numeric_limits<double>::quiet_NaN()); }, K::Error,
       "unsupported range: 0 -> nan"},
      {"ovf_arange_zero_step", [] { at::arange(0, 10, 0); }, K::Error, "step must be nonzero"},
      {"ovf_arange_wrong_sign", [] { at::arange(10, 0, 1); }, K::Error,
       "upper bound and larger bound inconsistent with step sign"},
      // libtorch 1.13 sums the sizes in int64, wraps to 4, accepts, and returns pieces of size
      // INT64_MAX.
      {"ovf_split_with_sizes_wraps",
       [] {
         f4().split_with_sizes({kMax, kMax, 6}, 0);
       },
       K::Error,
       "split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at dimension "
       "0), but got split_sizes=[9223372036854775807, 9223372036854775807, 6]"},
      {"ovf_narrow_huge_length", [] { f4().narrow(0, 0, kMax); }, K::Error,
       "start (0) + length (9223372036854775807) exceeds dimension size (4)."},
      {"ovf_narrow_huge_start", [] { f4().narrow(0, kMax, 1); }, K::IndexError,
       "Dimension out of range (expected to be in range of [-4, 3], but got 9223372036854775807)"},
      {"ovf_select_int64_min", [] { f4().select(0, kMin); }, K::IndexError,
       "select(): index -9223372036854775808 out of range for tensor of size [4] at dimension 0"},
  };
}

class BadInputShapes : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(BadInputShapes, ExactTextAndType) {
  test_util::expect_error_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Inventory, BadInputShapes,
                         ::testing::ValuesIn(test_util::joined({dim_cases(), negative_size_cases(),
                                                                overflow_cases()})),
                         test_util::case_name<ErrorCase>);

}  // namespace
