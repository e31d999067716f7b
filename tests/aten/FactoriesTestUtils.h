#pragma once
// Shared by the factory tests (Factories_test, Arange_test, Fill_test): reading a tensor's
// values through its strides, views built by hand, captured warnings, error texts. Every
// expected number in those tests was printed by libtorch 1.13 running the same call.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "tests/TestUtils.h"

namespace factories_test {

using at::MemoryFormat;
using c10::IntArrayRef;
using c10::ScalarType;

using test_util::error_of;

// Expects `statement` to throw exactly `text`.
#define EXPECT_ERROR_TEXT(statement, text) EXPECT_EQ(error_of([&] { statement; }), text)

inline bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// A strided view of base's storage, as a view op would make it.
inline at::Tensor make_view(const at::Tensor& base, IntArrayRef sizes, IntArrayRef strides,
                     int64_t storage_offset = 0) {
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(base.storage()), base.key_set(),
                                                   base.dtype());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return at::Tensor(std::move(impl));
}

// The elements in logical (row-major) order, read through the strides.
inline std::vector<double> values(const at::Tensor& t) {
  std::vector<double> out;
  AT_DISPATCH_ALL_MINIATEN_TYPES(t.scalar_type(), "values", [&] {
    const scalar_t* data = t.data_ptr<scalar_t>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      int64_t offset = 0;
      int64_t rest = i;
      for (int64_t d = t.dim() - 1; d >= 0; --d) {
        offset += (rest % t.size(d)) * t.stride(d);
        rest /= t.size(d);
      }
      out.push_back(static_cast<double>(data[offset]));
    }
  });
  return out;
}

inline std::vector<double> repeated(double v, size_t n) {
  return std::vector<double>(n, v);
}

// NaN compares equal to NaN.
inline void expect_same_values(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual[i])) << "element " << i;
    } else {
      EXPECT_EQ(actual[i], expected[i]) << "element " << i;
    }
  }
}

inline bool has_cuda_kernel(const char* name, const char* overload) {
  return c10::Dispatcher::singleton()
      .findSchemaOrThrow(name, overload)
      .hasKernelForDispatchKey(c10::DispatchKey::CUDA);
}

using test_util::CapturedWarnings;

inline const double kInf = std::numeric_limits<double>::infinity();
inline const double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace factories_test
