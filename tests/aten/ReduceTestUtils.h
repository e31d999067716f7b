#pragma once
// Helpers shared by ReduceOps_test.cpp and CumSum_test.cpp: deterministic inputs in every dtype
// and layout, a naive reference sum, tolerance checks and error-text checks.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "tests/TestUtils.h"

namespace reduce_test {

using at::Tensor;

inline const at::ScalarType kAllDtypes[] = {at::kByte, at::kChar,    at::kShort,  at::kInt,
                                            at::kLong, at::kFloat,   at::kDouble, at::kBool,
                                            at::kHalf, at::kBFloat16};
inline const at::ScalarType kFloatingDtypes[] = {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16};

// sum's and cumsum's default output dtype.
inline at::ScalarType promoted(at::ScalarType dtype) {
  return c10::isIntegralType(dtype, /*includeBool=*/true) ? at::kLong : dtype;
}

inline std::string str(const std::vector<int64_t>& v) {
  std::ostringstream ss;
  ss << c10::IntArrayRef(v);
  return ss.str();
}

// A contiguous tensor of small values every dtype holds exactly: k/8 for k in [-16, 16] for
// floating dtypes, [-5, 5] for signed, [0, 10] for Byte, 0/1 for Bool.
inline Tensor make_values(const std::vector<int64_t>& sizes, at::ScalarType dtype) {
  Tensor d = at::empty(sizes, at::kDouble);
  double* p = d.data_ptr<double>();
  uint64_t state = 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(d.numel());
  for (int64_t i = 0; i < d.numel(); ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const int64_t r = static_cast<int64_t>((state >> 33) % 33);  // 0 .. 32
    if (c10::isFloatingType(dtype)) {
      p[i] = static_cast<double>(r - 16) / 8.0;
    } else if (dtype == at::kBool) {
      p[i] = static_cast<double>(r % 2);
    } else if (dtype == at::kByte) {
      p[i] = static_cast<double>(r % 11);
    } else {
      p[i] = static_cast<double>(r % 11 - 5);
    }
  }
  return d.to(dtype);
}

inline Tensor make_from(const std::vector<double>& values, at::ScalarType dtype) {
  Tensor d = at::empty({static_cast<int64_t>(values.size())}, at::kDouble);
  for (size_t i = 0; i < values.size(); ++i) d.data_ptr<double>()[i] = values[i];
  return d.to(dtype);
}

// The elements of t in row-major order of its logical indices, as doubles.
inline std::vector<double> values_of(const Tensor& t) {
  const Tensor d = t.to(at::kDouble).contiguous();
  const double* p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

// One input layout, built for the given logical sizes.
struct Layout {
  const char* name;
  Tensor (*make)(const std::vector<int64_t>& sizes, at::ScalarType dtype);
};

inline std::vector<int64_t> with(std::vector<int64_t> sizes, int64_t dim, int64_t size) {
  sizes[static_cast<size_t>(dim)] = size;
  return sizes;
}

// The layouts: values are fresh for each layout; only the geometry matters.
inline Tensor contiguous_layout(const std::vector<int64_t>& s, at::ScalarType t) {
  return make_values(s, t);
}
// The last two dims swapped.
inline Tensor transposed_layout(const std::vector<int64_t>& s, at::ScalarType t) {
  const int64_t n = static_cast<int64_t>(s.size());
  return make_values(with(with(s, n - 1, s[n - 2]), n - 2, s[n - 1]), t).transpose(-2, -1);
}
// Every other element of the last dim.
inline Tensor sliced_layout(const std::vector<int64_t>& s, at::ScalarType t) {
  const int64_t n = static_cast<int64_t>(s.size());
  return make_values(with(s, n - 1, 2 * s[n - 1]), t).slice(n - 1, 0, 2 * s[n - 1], 2);
}
// Dim 1 broadcast (stride 0).
inline Tensor expanded_layout(const std::vector<int64_t>& s, at::ScalarType t) {
  return make_values(with(s, 1, 1), t).expand(s);
}
// Every dim reversed in memory.
inline Tensor permuted_layout(const std::vector<int64_t>& s, at::ScalarType t) {
  std::vector<int64_t> reversed(s.rbegin(), s.rend()), perm;
  for (int64_t d = static_cast<int64_t>(s.size()) - 1; d >= 0; --d) perm.push_back(d);
  return make_values(reversed, t).permute(perm);
}
// 4-d sizes only.
inline Tensor channels_last_layout(const std::vector<int64_t>& s, at::ScalarType t) {
  return make_values(s, t).contiguous(at::MemoryFormat::ChannelsLast);
}

inline const Layout kLayouts[] = {
    {"contiguous", contiguous_layout}, {"transposed", transposed_layout},
    {"sliced", sliced_layout},         {"expanded", expanded_layout},
    {"permuted", permuted_layout},     {"channels_last", channels_last_layout},
};

// Which dims a dim list reduces (empty = all), without libtorch's checks.
inline std::vector<bool> mask_of(const std::vector<int64_t>& dims, int64_t ndim) {
  std::vector<bool> mask(static_cast<size_t>(ndim), dims.empty());
  for (int64_t d : dims) mask[static_cast<size_t>(d < 0 ? d + ndim : d)] = true;
  return mask;
}

inline std::vector<int64_t> reduced_sizes(const std::vector<int64_t>& sizes,
                                          const std::vector<bool>& mask, bool keepdim) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (!mask[d]) {
      out.push_back(sizes[d]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

inline std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t next = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    strides[d] = next;
    next *= std::max<int64_t>(sizes[d], 1);
  }
  return strides;
}

// The naive sum over the masked dims, in double, of f(element), in row-major output order.
inline std::vector<double> reference_sum(const Tensor& x, const std::vector<bool>& mask,
                                         const std::function<double(double)>& f = nullptr) {
  const std::vector<double> in = values_of(x);
  const std::vector<int64_t> sizes = x.sizes().vec();
  int64_t out_numel = 1;
  for (size_t d = 0; d < sizes.size(); ++d) out_numel *= mask[d] ? 1 : sizes[d];
  std::vector<double> out(static_cast<size_t>(out_numel), 0.0);
  for (int64_t i = 0; i < static_cast<int64_t>(in.size()); ++i) {
    int64_t rest = i, out_index = 0, out_scale = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
      const int64_t index = rest % sizes[d];
      rest /= sizes[d];
      if (!mask[d]) {
        out_index += index * out_scale;
        out_scale *= sizes[d];
      }
    }
    out[static_cast<size_t>(out_index)] +=
        f ? f(in[static_cast<size_t>(i)]) : in[static_cast<size_t>(i)];
  }
  return out;
}

inline double epsilon(at::ScalarType dtype) {
  switch (dtype) {
    case at::kFloat:
      return 1.2e-7;
    case at::kDouble:
      return 2.3e-16;
    case at::kHalf:
      return 9.8e-4;
    case at::kBFloat16:
      return 7.9e-3;
    default:
      return 0.0;  // integers are exact
  }
}

// result against expected: exactly for integral dtypes; otherwise within a few roundings of
// the result dtype, relative to the sum of |x| over each output's inputs (times `scale`).
inline void expect_close(const Tensor& result, const std::vector<double>& expected, const Tensor& x,
                         const std::vector<bool>& mask, double scale = 1.0) {
  const std::vector<double> actual = values_of(result);
  ASSERT_EQ(actual.size(), expected.size());
  const double eps = epsilon(result.scalar_type());
  const std::vector<double> magnitude =
      eps == 0.0 ? std::vector<double>()
                 : reference_sum(x, mask, [](double v) { return std::fabs(v); });
  for (size_t i = 0; i < actual.size(); ++i) {
    if (eps == 0.0) {
      EXPECT_EQ(actual[i], expected[i]) << "element " << i;
    } else {
      const double tol = 4 * eps * (magnitude[i] * scale + std::fabs(expected[i])) + 1e-300;
      EXPECT_NEAR(actual[i], expected[i], tol) << "element " << i;
    }
  }
}

inline void expect_error(const std::function<void()>& f, const std::string& message) {
  try {
    f();
    ADD_FAILURE() << "expected an error: " << message;
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.what_without_backtrace(), message);
  }
}

using test_util::CapturedWarnings;

}  // namespace reduce_test
