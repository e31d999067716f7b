#pragma once
// Table-driven error tests: each case is a call that must throw libtorch 1.13's exception type
// with libtorch's exact text (taken from a throwaway program against libtorch per case).
//
//   using test_util::ErrorCase;
//   using K = test_util::Kind;
//   const std::vector<ErrorCase>& cases() {
//     static const std::vector<ErrorCase> all = {
//         {"dim_out_of_range", [] { at::ones({2}).select(3, 0); }, K::IndexError,
//          "Dimension out of range (expected to be in range of [-1, 0], but got 3)"}};
//     return all;
//   }
//   class MyErrors : public ::testing::TestWithParam<ErrorCase> {};
//   TEST_P(MyErrors, ExactTextAndType) { test_util::expect_error_case(GetParam()); }
//   INSTANTIATE_TEST_SUITE_P(Mine, MyErrors, ::testing::ValuesIn(cases()), test_util::case_name);

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

#include "c10/util/Exception.h"

namespace test_util {

// The exception's own type, most derived first: a c10::IndexError is a c10::Error too, and a
// case expecting a plain c10::Error fails on a typed one.
enum class Kind { Error, IndexError, ValueError, TypeError, NotImplementedError };
// The "Could not run ... backend" texts end with libtorch's list of its own registrations, which
// no other library can repeat: only their start is compared.
enum class Match { Exact, Prefix };

struct ErrorCase {
  std::string name;
  std::function<void()> call;
  Kind kind;
  std::string message;
  Match match = Match::Exact;
};

inline std::ostream& operator<<(std::ostream& os, const ErrorCase& c) {
  return os << c.name;
}

namespace detail {
inline void expect_error(const ErrorCase& c, Kind kind, const c10::Error& e) {
  EXPECT_EQ(static_cast<int>(kind), static_cast<int>(c.kind)) << e.what_without_backtrace();
  const std::string text = e.what_without_backtrace();
  if (c.match == Match::Prefix) {
    EXPECT_EQ(text.substr(0, c.message.size()), c.message);
  } else {
    EXPECT_EQ(text, c.message);
  }
}
}  // namespace detail

// Runs the case's call and checks what it threw.
inline void expect_error_case(const ErrorCase& c) {
  try {
    c.call();
    ADD_FAILURE() << "no exception";
  } catch (const c10::IndexError& e) {
    detail::expect_error(c, Kind::IndexError, e);
  } catch (const c10::ValueError& e) {
    detail::expect_error(c, Kind::ValueError, e);
  } catch (const c10::TypeError& e) {
    detail::expect_error(c, Kind::TypeError, e);
  } catch (const c10::NotImplementedError& e) {
    detail::expect_error(c, Kind::NotImplementedError, e);
  } catch (const c10::Error& e) {
    detail::expect_error(c, Kind::Error, e);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a c10::Error: " << e.what();
  }
}

// The cases of several tables, in order (INSTANTIATE_TEST_SUITE_P's ValuesIn keeps a copy).
inline std::vector<ErrorCase> joined(std::initializer_list<std::vector<ErrorCase>> tables) {
  std::vector<ErrorCase> all;
  for (const auto& table : tables) all.insert(all.end(), table.begin(), table.end());
  return all;
}

// The test name of a parameterized case: its own name.
template <typename Case>
std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

}  // namespace test_util
