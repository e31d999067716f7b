#pragma once
// Shared by the elementwise operator tests (BinaryOps_test, CompareOps_test, UnaryOps_test): the
// ten real dtypes, deterministic test values, element access, and layout cases with the output
// strides libtorch 1.13 gives for them.

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "TestUtils.h"
#include "aten/ATen.h"
#include "aten/Dispatch.h"

namespace elementwise_test {

// The type a reference computes T in: float for Half and BFloat16, as the kernels do.
template <typename T>
using acc_t =
    std::conditional_t<std::is_same<T, c10::Half>::value || std::is_same<T, c10::BFloat16>::value,
                       float, T>;


inline const at::ScalarType kAllTypes[] = {at::kByte, at::kChar,    at::kShort,  at::kInt,
                                           at::kLong, at::kFloat,   at::kDouble, at::kBool,
                                           at::kHalf, at::kBFloat16};

// Above two vectors' worth for every type and capability, and not a multiple of any vector
// size, so both the vectorized body and the scalar tail run.
constexpr int64_t kNumel = 1000 + 37;

// n values of `dtype`, varied by `seed`: small signed values (with zeros) for signed and
// floating types, [0, 250] for Byte, a 1-in-3 pattern for Bool.
inline at::Tensor make_values(at::ScalarType dtype, int64_t n, int seed) {
  at::Tensor d = at::empty({n}, at::kDouble);
  double* p = d.data_ptr<double>();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = (i * 7 + seed * 13) % 41;
    if (dtype == at::kBool) {
      p[i] = (i + seed) % 3 == 0;
    } else if (dtype == at::kByte) {
      p[i] = static_cast<double>((i * 7 + seed * 13) % 251);
    } else if (c10::isFloatingType(dtype)) {
      p[i] = static_cast<double>(k - 20) * 0.37 + 0.01 * seed;
    } else {
      p[i] = static_cast<double>(k - 20);
    }
  }
  return d.to(dtype);
}

// Element i of a contiguous tensor.
template <typename T>
T element(const at::Tensor& contiguous, int64_t i) {
  return contiguous.data_ptr<T>()[i];
}

// Bitwise equality, except that any two NaNs match.
template <typename T>
bool same_value(T a, T b) {
  if constexpr (!std::is_integral<T>::value) {
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    if (fa != fa && fb != fb) return true;
  }
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Every element of `result` (any layout) is expected(i) for i in its contiguous order.
template <typename T, typename F>
void expect_values(const at::Tensor& result, F expected, const char* what) {
  const at::Tensor r = result.contiguous();
  for (int64_t i = 0; i < r.numel(); ++i) {
    const T want = expected(i);
    ASSERT_TRUE(same_value(element<T>(r, i), want))
        << what << " " << c10::toString(result.scalar_type()) << " element " << i << ": got "
        << static_cast<double>(element<T>(r, i)) << ", expected " << static_cast<double>(want);
  }
}

using test_util::error_of;

using test_util::CapturedWarnings;

// Same dtype, sizes and values (NaNs match), whatever the layouts.
inline bool same_tensor(const at::Tensor& a, const at::Tensor& b) {
  if (a.scalar_type() != b.scalar_type() || !a.sizes().equals(b.sizes())) return false;
  const at::Tensor ac = a.contiguous(), bc = b.contiguous();
  bool same = true;
  AT_DISPATCH_ALL_MINIATEN_TYPES(a.scalar_type(), "equal", [&] {
    for (int64_t i = 0; i < ac.numel() && same; ++i) {
      same = same_value(element<scalar_t>(ac, i), element<scalar_t>(bc, i));
    }
  });
  return same;
}

// ---- Layouts --------------------------------------------------------------------------------

// Distinct values, half of them negative, in a contiguous tensor / its channels-last copy.
inline at::Tensor ct(at::IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return at::arange(-(n / 2), n - n / 2, at::kFloat).view(sizes);
}
inline at::Tensor cl(at::IntArrayRef sizes) {
  return ct(sizes).contiguous(at::MemoryFormat::ChannelsLast);
}

// Two inputs, and the output sizes/strides libtorch 1.13 gives (printed by a throwaway libtorch
// program): `binary` for add/sub/mul/div/eq(a, b) and add_out into an empty tensor, `unary` for
// neg(a), exp(a), add(a, 2.5), `where` for where(a > 0, a, b).
struct LayoutCase {
  const char* name;
  at::Tensor (*a)();
  at::Tensor (*b)();
  std::vector<int64_t> sizes;
  std::vector<int64_t> binary;
  std::vector<int64_t> unary;
  std::vector<int64_t> where;
};

// clang-format off
inline const std::vector<LayoutCase>& layout_cases() {
  static const std::vector<LayoutCase> cases = {
      {"contiguous", [] { return ct({2, 3, 4, 5}); }, [] { return ct({2, 3, 4, 5}); },
       {2, 3, 4, 5}, {60, 20, 5, 1}, {60, 20, 5, 1}, {60, 20, 5, 1}},
      {"channels_last", [] { return cl({2, 3, 4, 5}); }, [] { return cl({2, 3, 4, 5}); },
       {2, 3, 4, 5}, {60, 1, 15, 3}, {60, 1, 15, 3}, {60, 1, 15, 3}},
      {"channels_last_and_broadcast", [] { return cl({2, 3, 4, 5}); }, [] { return ct({3, 4, 5}); },
       {2, 3, 4, 5}, {60, 1, 15, 3}, {60, 1, 15, 3}, {60, 1, 15, 3}},
      {"contiguous_and_channels_last", [] { return ct({2, 3, 4, 5}); },
       [] { return cl({2, 3, 4, 5}); },
       {2, 3, 4, 5}, {60, 20, 5, 1}, {60, 20, 5, 1}, {60, 20, 5, 1}},
      {"channels_last_and_contiguous", [] { return cl({2, 3, 4, 5}); },
       [] { return ct({2, 3, 4, 5}); },
       {2, 3, 4, 5}, {60, 1, 15, 3}, {60, 1, 15, 3}, {60, 1, 15, 3}},
      {"channels_last_and_bias", [] { return cl({2, 3, 4, 5}); }, [] { return ct({3, 1, 1}); },
       {2, 3, 4, 5}, {60, 1, 15, 3}, {60, 1, 15, 3}, {60, 1, 15, 3}},
      {"bias_and_channels_last", [] { return ct({3, 1, 1}); }, [] { return cl({2, 3, 4, 5}); },
       {2, 3, 4, 5}, {60, 1, 15, 3}, {1, 1, 1}, {60, 1, 15, 3}},
      {"zero_dim_and_channels_last", [] { return ct({}); }, [] { return cl({2, 3, 4, 5}); },
       {2, 3, 4, 5}, {60, 1, 15, 3}, {}, {60, 1, 15, 3}},
      {"permuted", [] { return ct({4, 5, 3}).permute({2, 0, 1}); },
       [] { return ct({4, 5, 3}).permute({2, 0, 1}); },
       {3, 4, 5}, {1, 15, 3}, {1, 15, 3}, {1, 15, 3}},
      {"permuted_and_contiguous", [] { return ct({4, 5, 3}).permute({2, 0, 1}); },
       [] { return ct({3, 4, 5}); },
       {3, 4, 5}, {1, 15, 3}, {1, 15, 3}, {1, 15, 3}},
      {"transposed", [] { return ct({5, 4}).t(); }, [] { return ct({4, 5}); },
       {4, 5}, {1, 4}, {1, 4}, {1, 4}},
      {"sliced", [] { return ct({2, 3, 4, 10}).slice(3, 0, 10, 2); },
       [] { return ct({2, 3, 4, 5}); },
       {2, 3, 4, 5}, {60, 20, 5, 1}, {60, 20, 5, 1}, {60, 20, 5, 1}},
      {"sliced_both", [] { return ct({6, 5}).slice(0, 1, 6, 2); },
       [] { return ct({3, 10}).slice(1, 0, 10, 2); },
       {3, 5}, {5, 1}, {5, 1}, {5, 1}},
      {"expanded", [] { return ct({3, 1, 5}).expand({3, 4, 5}); }, [] { return ct({3, 4, 5}); },
       {3, 4, 5}, {20, 5, 1}, {20, 5, 1}, {20, 5, 1}},
      {"expanded_and_transposed", [] { return ct({3, 1, 5}).expand({3, 4, 5}); },
       [] { return ct({5, 4, 3}).permute({2, 1, 0}); },
       {3, 4, 5}, {20, 1, 4}, {20, 5, 1}, {20, 5, 1}},
      {"ambiguous_2144", [] { return cl({2, 1, 4, 4}); }, [] { return ct({2, 1, 4, 4}); },
       {2, 1, 4, 4}, {16, 16, 4, 1}, {16, 16, 4, 1}, {16, 16, 4, 1}},
      {"ambiguous_2144_reversed", [] { return ct({2, 1, 4, 4}); }, [] { return cl({2, 1, 4, 4}); },
       {2, 1, 4, 4}, {16, 16, 4, 1}, {16, 16, 4, 1}, {16, 16, 4, 1}},
      {"ambiguous_2411", [] { return cl({2, 4, 1, 1}); }, [] { return ct({2, 4, 1, 1}); },
       {2, 4, 1, 1}, {4, 1, 1, 1}, {4, 1, 1, 1}, {4, 1, 1, 1}},
      {"ambiguous_2411_reversed", [] { return ct({2, 4, 1, 1}); }, [] { return cl({2, 4, 1, 1}); },
       {2, 4, 1, 1}, {4, 1, 1, 1}, {4, 1, 1, 1}, {4, 1, 1, 1}},
      {"ambiguous_2144_and_2411", [] { return cl({2, 1, 4, 4}).expand({2, 4, 4, 4}); },
       [] { return cl({2, 4, 1, 1}); },
       {2, 4, 4, 4}, {64, 16, 4, 1}, {64, 16, 4, 1}, {64, 16, 4, 1}},
      {"contiguous_2144_and_channels_last_2411", [] { return ct({2, 1, 4, 4}); },
       [] { return cl({2, 4, 1, 1}); },
       {2, 4, 4, 4}, {64, 16, 4, 1}, {16, 16, 4, 1}, {64, 16, 4, 1}},
      {"channels_last_2411_and_contiguous_2144", [] { return cl({2, 4, 1, 1}); },
       [] { return ct({2, 1, 4, 4}); },
       {2, 4, 4, 4}, {64, 16, 4, 1}, {4, 1, 1, 1}, {64, 16, 4, 1}},
      {"channels_last_2144_and_contiguous_2411", [] { return cl({2, 1, 4, 4}); },
       [] { return ct({2, 4, 1, 1}); },
       {2, 4, 4, 4}, {64, 16, 4, 1}, {16, 16, 4, 1}, {64, 16, 4, 1}},
      {"channels_last_2311_both", [] { return cl({2, 3, 1, 1}); }, [] { return cl({2, 3, 1, 1}); },
       {2, 3, 1, 1}, {3, 1, 1, 1}, {3, 1, 1, 1}, {3, 1, 1, 1}},
      {"permuted_with_size_one", [] { return ct({4, 1, 3}).permute({2, 0, 1}); },
       [] { return ct({4, 1, 3}).permute({2, 0, 1}); },
       {3, 4, 1}, {1, 3, 3}, {1, 3, 3}, {1, 3, 3}},
      {"zero_dim_both", [] { return ct({}); }, [] { return ct({}); },
       {}, {}, {}, {}},
      {"channels_last_2311_and_311", [] { return cl({2, 3, 1, 1}); }, [] { return ct({3, 1, 1}); },
       {2, 3, 1, 1}, {3, 1, 1, 1}, {3, 1, 1, 1}, {3, 1, 1, 1}},
      {"channels_last_2311_and_transposed", [] { return cl({2, 3, 1, 1}); },
       [] { return ct({3, 1, 3}).transpose(0, 2); },
       {2, 3, 1, 3}, {9, 1, 3, 3}, {3, 1, 1, 1}, {9, 1, 3, 3}},
  };
  return cases;
}
// clang-format on

}  // namespace elementwise_test
