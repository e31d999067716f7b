// Warnings as libtorch 1.13 gives them: on stderr (stdout is the program's), in c10's line
// format, with the override warning's body lines; TORCH_WARN_ONCE with WarnAlways; and warnings
// turned into errors for tests.

#include <gtest/gtest.h>

#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::DispatchKey;
using test_util::record;

constexpr char kFirst[] = "first";
constexpr char kSecond[] = "second";
constexpr char kThird[] = "third";

std::string override_warning(const std::string& op, const std::string& previous,
                             const std::string& fresh) {
  return "Overriding a previously registered kernel for the same operator and the same dispatch "
         "key\n"
         "  operator: test::" +
         op + "(Tensor self) -> Tensor\n    registered at def.cpp:1\n  dispatch key: CPU\n" +
         "  previous kernel: registered at " + previous + "\n       new kernel: registered at " +
         fresh;
}

TEST(Warnings, OverridingAKernelWarnsOnStderrInLibtorchsWords) {
  const std::string name = test_util::unique_op("warned");
  torch::Library def(torch::Library::FRAGMENT, "test", c10::nullopt, "def.cpp", 1);
  def.def(name + "(Tensor self) -> Tensor");
  torch::Library a(torch::Library::IMPL, "test", DispatchKey::CPU, "a.cpp", 10);
  a.impl(name.c_str(), record<kFirst>);

  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  torch::Library b(torch::Library::IMPL, "test", DispatchKey::CPU, "b.cpp", 20);
  b.impl(name.c_str(), record<kSecond>);
  torch::Library c(torch::Library::IMPL, "test", DispatchKey::CPU, "c.cpp", 30);
  c.impl(name.c_str(), record<kThird>);
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string out = testing::internal::GetCapturedStdout();

  EXPECT_EQ(out, "");
  // c10's line without glog: "[W <file>:<line>] Warning: <message> (function <function>)". The
  // third registration names the kernel it overrides, the second (libtorch 1.13 names the first
  // again: Note [Which kernel the override warning calls previous]).
  const std::string second = override_warning(name, "a.cpp:10", "b.cpp:20");
  const std::string third = override_warning(name, "b.cpp:20", "c.cpp:30");
  const size_t w1 = err.find("] Warning: " + second + " (function registerKernel)\n");
  const size_t w2 = err.find("] Warning: " + third + " (function registerKernel)\n");
  EXPECT_NE(w1, std::string::npos) << err;
  EXPECT_NE(w2, std::string::npos) << err;
  EXPECT_EQ(err.rfind("[W OperatorEntry.cpp:", 0), 0u) << err;
}

TEST(Warnings, AnOperatorWithoutASchemaSaysNoDebugInfo) {
  const std::string name = test_util::unique_op("schemaless");
  torch::Library a(torch::Library::IMPL, "test", DispatchKey::CPU, "a.cpp", 10);
  a.impl(name.c_str(), record<kFirst>);
  struct Capture : c10::WarningHandler {
    std::vector<std::string> seen;
    void process(const c10::SourceLocation&, const std::string& msg, bool) override {
      seen.push_back(msg);
    }
  } capture;
  c10::Warning::WarningHandlerGuard guard(&capture);  // libtorch 1.13's namespace name
  torch::Library b(torch::Library::IMPL, "test", DispatchKey::CPU, "b.cpp", 20);
  b.impl(name.c_str(), record<kSecond>);
  ASSERT_EQ(capture.seen.size(), 1u);
  EXPECT_EQ(capture.seen[0],
            "Overriding a previously registered kernel for the same operator and the same "
            "dispatch key\n  operator: test::" +
                name +
                "\n    no debug info\n  dispatch key: CPU\n"
                "  previous kernel: registered at a.cpp:10\n"
                "       new kernel: registered at b.cpp:20");
}

void warn_once_here() {
  TORCH_WARN_ONCE("only once, unless WarnAlways");
}

TEST(Warnings, WarnOnceWarnsEveryTimeUnderWarnAlways) {
  struct Count : c10::WarningHandler {
    int n = 0;
    void process(const c10::SourceLocation&, const std::string&, bool) override { ++n; }
  } count;
  c10::WarningUtils::WarningHandlerGuard guard(&count);
  for (int i = 0; i < 3; ++i) warn_once_here();
  EXPECT_EQ(count.n, 1);
  EXPECT_FALSE(c10::Warning::get_warnAlways());
  {
    c10::Warning::WarnAlways always;
    EXPECT_TRUE(c10::WarningUtils::get_warnAlways());
    for (int i = 0; i < 3; ++i) warn_once_here();
  }
  EXPECT_FALSE(c10::WarningUtils::get_warnAlways());
  EXPECT_EQ(count.n, 4);
  warn_once_here();
  EXPECT_EQ(count.n, 4);
}

TEST(Warnings, WarningsAsErrorsThrowTheWarning) {
  const std::string name = test_util::unique_op("strict");
  torch::Library def(torch::Library::FRAGMENT, "test", c10::nullopt, "def.cpp", 1);
  def.def(name + "(Tensor self) -> Tensor");
  torch::Library a(torch::Library::IMPL, "test", DispatchKey::CPU, "a.cpp", 10);
  a.impl(name.c_str(), record<kFirst>);
  {
    c10::WarningUtils::WarningsAsErrors strict;
    torch::Library b(torch::Library::IMPL, "test", DispatchKey::CPU, "b.cpp", 20);
    try {
      b.impl(name.c_str(), record<kSecond>);
      ADD_FAILURE() << "no error";
    } catch (const c10::Error& e) {
      EXPECT_EQ(e.msg(), override_warning(name, "a.cpp:10", "b.cpp:20"));
      EXPECT_NE(std::string(e.what()).find("Exception raised from registerKernel"),
                std::string::npos);
    }
    // The refused registration left nothing behind: the first kernel still runs.
    const auto op = c10::Dispatcher::singleton().findSchemaOrThrow(("test::" + name).c_str(), "");
    test_util::last_kernel() = "none";
    op.typed<at::Tensor(const at::Tensor&)>().call(test_util::tensor_for(DispatchKey::CPU));
    EXPECT_EQ(test_util::last_kernel(), kFirst);
    EXPECT_EQ(op.dumpState().find("b.cpp"), std::string::npos);
  }
  // Out of the scope, warnings are warnings again.
  struct Count : c10::WarningHandler {
    int n = 0;
    void process(const c10::SourceLocation&, const std::string&, bool) override { ++n; }
  } count;
  c10::WarningUtils::WarningHandlerGuard guard(&count);
  TORCH_WARN("fine");
  EXPECT_EQ(count.n, 1);
}

}  // namespace
