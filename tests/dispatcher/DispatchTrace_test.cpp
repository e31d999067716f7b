// The trace: one line per call and redispatch, indented by depth, naming the operator, the key
// set, the chosen key and the kernel.

#include <gtest/gtest.h>

#include "c10/core/AutoDispatchGuards.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::DispatchKey;

struct CapturedTrace {
  std::vector<std::string> lines;
  CapturedTrace() {
    c10::DispatchTrace::set_listener([this](const std::string& l) { lines.push_back(l); });
  }
  ~CapturedTrace() { c10::DispatchTrace::set_listener(nullptr); }
};

at::Tensor traced_cpu(const at::Tensor& t) { return t; }

TEST(DispatchTrace, LogsCallsAndRedispatchesByDepth) {
  const std::string name = test_util::unique_op("traced");
  const std::string qualified = "test::" + name;
  torch::Library def(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
  def.def(name + "(Tensor self) -> Tensor");
  const int impl_line = __LINE__ + 1;
  torch::Library impl(torch::Library::IMPL, "test", c10::nullopt, __FILE__, __LINE__);
  impl.impl(name, DispatchKey::CPU, TORCH_FN(traced_cpu));
  impl.impl(name, DispatchKey::AutogradCPU,
            torch::CppFunction([qualified](c10::DispatchKeySet ks, const at::Tensor& t) {
              at::AutoDispatchBelowADInplaceOrView guard;
              return c10::Dispatcher::singleton()
                  .findSchemaOrThrow(qualified.c_str(), "")
                  .typed<at::Tensor(const at::Tensor&)>()
                  .redispatch(ks & c10::after_autograd_keyset, t);
            }).debug("autograd_kernel"));
  auto op = c10::Dispatcher::singleton()
                .findSchemaOrThrow(qualified.c_str(), "")
                .typed<at::Tensor(const at::Tensor&)>();
  at::Tensor t = test_util::tensor_for(DispatchKey::CPU);

  CapturedTrace trace;
  op.call(t);  // not traced: no guard, no environment variable
  EXPECT_TRUE(trace.lines.empty() || c10::DispatchTrace::enabled());
  trace.lines.clear();
  {
    c10::DispatchTraceGuard guard;
    op.call(t);
  }
  ASSERT_EQ(trace.lines.size(), 2u);
  EXPECT_EQ(trace.lines[0], qualified + "(Float[2])  DispatchKeySet(CPU, AutogradCPU) -> "
                            "AutogradCPU: autograd_kernel (registered at DispatchTrace_test.cpp:" +
                                std::to_string(impl_line) + ") [kernel]");
  EXPECT_EQ(trace.lines[1].rfind("  redispatch " + qualified +
                                     "(Float[2])  DispatchKeySet(CPU) -> CPU: traced_cpu "
                                     "(registered at ",
                                 0),
            0u)
      << trace.lines[1];
}

}  // namespace
