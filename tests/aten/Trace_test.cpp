// The trace of the operator layer: at::empty goes through BackendSelect then CPU; at::contiguous
// shows the whole chain of DESIGN.md, then TensorIterator's decisions and the copy loop.

#include <gtest/gtest.h>

#include "aten/ATen.h"
#include "aten/native/DispatchStub.h"

namespace {

struct CapturedTrace {
  std::vector<std::string> lines;
  CapturedTrace() {
    c10::DispatchTrace::set_listener([this](const std::string& l) { lines.push_back(l); });
  }
  ~CapturedTrace() { c10::DispatchTrace::set_listener(nullptr); }
  // The index of the first line at or after `from` that contains `text`, or -1.
  int find(const std::string& text, int from = 0) const {
    for (int i = from; i < static_cast<int>(lines.size()); ++i) {
      if (lines[i].find(text) != std::string::npos) return i;
    }
    return -1;
  }
};

TEST(Trace, EmptyGoesThroughBackendSelectThenCpu) {
  CapturedTrace trace;
  {
    c10::DispatchTraceGuard guard;
    at::empty({2, 3});
  }
  ASSERT_EQ(trace.lines.size(), 2u);
  EXPECT_EQ(trace.lines[0].rfind("aten::empty.memory_format([2, 3], None, None, None, None, None)  "
                                 "DispatchKeySet(BackendSelect) -> BackendSelect: "
                                 "wrapper_BackendSelect__empty_memory_format (registered at ",
                                 0),
            0u)
      << trace.lines[0];
  EXPECT_EQ(trace.lines[1].rfind("  redispatch aten::empty.memory_format([2, 3], None, None, None, "
                                 "None, None)  DispatchKeySet(CPU) -> CPU: "
                                 "wrapper_CPU__empty_memory_format (registered at ",
                                 0),
            0u)
      << trace.lines[1];
}

TEST(Trace, ContiguousShowsTheWholeChain) {
  at::Tensor t = at::arange(64, at::kFloat).view({8, 8}).t();
  CapturedTrace trace;
  {
    c10::DispatchTraceGuard guard;
    at::contiguous(t);
  }
  int i = trace.find("aten::contiguous(Float[8, 8] strides=[1, 8], Contiguous)");
  ASSERT_EQ(i, 0);
  EXPECT_NE(trace.lines[0].find("[CompositeImplicitAutograd kernel]"), std::string::npos);
  // clone: its Autograd kernel first (VariableType), then below autograd the composite.
  i = trace.find("aten::clone(", i);
  ASSERT_GT(i, 0);
  EXPECT_NE(trace.lines[i].find("-> AutogradCPU: VariableType::clone"), std::string::npos);
  i = trace.find("redispatch aten::clone(", i);
  ASSERT_GT(i, 0);
  EXPECT_NE(trace.lines[i].find("DispatchKeySet(CPU) -> CPU: wrapper_CompositeExplicitAutograd__clone"),
            std::string::npos);
  i = trace.find("aten::empty_like(", i);
  ASSERT_GT(i, 0);
  i = trace.find("aten::empty.memory_format([8, 8]", i);
  ASSERT_GT(i, 0);
  i = trace.find("redispatch aten::empty.memory_format", i);
  ASSERT_GT(i, 0);
  i = trace.find("aten::copy_(Float[8, 8], Float[8, 8] strides=[1, 8], False)", i);
  ASSERT_GT(i, 0);
  i = trace.find("TensorIterator: broadcast shape=[8, 8] fast_setup=none perm_=[1, 0] output "
                 "strides=[8, 1] iteration shape=[8, 8] byte strides=[4, 32] [32, 4]",
                 i);
  ASSERT_GT(i, 0);
  // One register tile where the copy kernel has them (Note [Which copy loop runs]).
  const bool default_kernel =
      at::native::get_cpu_capability() == at::native::CPUCapability::DEFAULT;
  EXPECT_GT(trace.find(default_kernel ? "copy_kernel: basic loop"
                                      : "copy_kernel: blocked transpose loop",
                       i),
            i);
  // Depth shows as indentation: copy_ is called by the composite clone, three levels down.
  EXPECT_EQ(trace.lines[trace.find("aten::copy_(")].rfind("      aten::copy_(", 0), 0u);
}

TEST(Trace, ContiguousOfAContiguousTensorNeverDispatches) {
  at::Tensor t = at::zeros({4});
  CapturedTrace trace;
  at::Tensor c;
  {
    c10::DispatchTraceGuard guard;
    c = t.contiguous();
  }
  EXPECT_TRUE(c.is_same(t));
  EXPECT_TRUE(trace.lines.empty());
}

}  // namespace
