#include <gtest/gtest.h>

#include <string>

#include "c10/util/Exception.h"

namespace {

int checked_twice(int x) {
  TORCH_CHECK(x >= 0, "Expected a non-negative value but got ", x);
  return 2 * x;
}

TEST(Exception, CheckBuildsTheMessageFromItsArguments) {
  EXPECT_EQ(checked_twice(2), 4);
  try {
    checked_twice(-3);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "Expected a non-negative value but got -3");
    EXPECT_EQ(e.msg(), "Expected a non-negative value but got -3");
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("Expected a non-negative value but got -3\nException raised from", 0), 0u)
        << what;
    EXPECT_NE(what.find("Exception_test.cpp"), std::string::npos);
  }
}

TEST(Exception, CheckWithoutMessageUsesLibtorchsText) {
  try {
    TORCH_CHECK(1 == 2);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "Expected 1 == 2 to be true, but got false.  (Could this error message be "
                 "improved?  If so, please report an enhancement request to PyTorch.)");
  }
}

TEST(Exception, TypedChecksThrowTheirSubclass) {
  EXPECT_THROW(TORCH_CHECK_INDEX(false, "i"), c10::IndexError);
  EXPECT_THROW(TORCH_CHECK_VALUE(false, "v"), c10::ValueError);
  EXPECT_THROW(TORCH_CHECK_TYPE(false, "t"), c10::TypeError);
  EXPECT_THROW(TORCH_CHECK_NOT_IMPLEMENTED(false, "n"), c10::NotImplementedError);
  // Every typed error is a c10::Error and a std::exception.
  try {
    TORCH_CHECK_INDEX(false, "index ", 3);
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("index 3"), std::string::npos);
  }
}

TEST(Exception, InternalAssertNamesTheConditionAndThrows) {
  try {
    TORCH_INTERNAL_ASSERT(1 + 1 == 3, "math is broken: ", 42);
    FAIL();
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_EQ(msg.rfind("1 + 1 == 3 INTERNAL ASSERT FAILED at \"Exception_test.cpp\":", 0), 0u)
        << msg;
    EXPECT_NE(msg.find("math is broken: 42"), std::string::npos);
  }
}

TEST(Exception, ContextLinesFollowTheMessage) {
  c10::Error e(c10::SourceLocation{"f", "file.cpp", 1}, "bad thing");
  e.add_context("while doing X");
  EXPECT_STREQ(e.what_without_backtrace(), "bad thing\nwhile doing X");
  EXPECT_EQ(std::string(e.what()).rfind("bad thing\nwhile doing X\nException raised from f", 0),
            0u);
}

struct CapturingHandler : c10::WarningHandler {
  std::vector<std::string> seen;
  void process(const c10::SourceLocation&, const std::string& msg, bool) override {
    seen.push_back(msg);
  }
};

TEST(Exception, WarningsGoToTheInstalledHandler) {
  CapturingHandler handler;
  {
    c10::WarningUtils::WarningHandlerGuard guard(&handler);
    TORCH_WARN("Overriding ", 1, " kernel");
    for (int i = 0; i < 3; ++i) TORCH_WARN_ONCE("once");
  }
  TORCH_WARN("not captured");
  EXPECT_EQ(handler.seen, (std::vector<std::string>{"Overriding 1 kernel", "once"}));
}

}  // namespace
