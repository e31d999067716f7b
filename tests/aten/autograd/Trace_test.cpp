// The dispatch trace shows the autograd step of seed 003: the Autograd kernel makes its node
// first, then redispatches below autograd to the CompositeExplicitAutograd clone.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "GradCheck.h"
#include "dispatcher/DispatchTrace.h"

namespace {

std::vector<std::string> trace(const std::function<void()>& f) {
  std::vector<std::string> lines;
  c10::DispatchTrace::set_listener([&](const std::string& line) { lines.push_back(line); });
  {
    c10::DispatchTraceGuard guard;
    f();
  }
  c10::DispatchTrace::set_listener(nullptr);
  return lines;
}

size_t find_line(const std::vector<std::string>& lines, const std::string& needle) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(needle) != std::string::npos) return i;
  }
  return lines.size();
}

std::string joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  return all;
}

TEST(AutogradTrace, NodeCreatedBeforeTheRedispatch) {
  auto x = torch::ones({3, 2}, torch::requires_grad());
  auto lines = trace([&] { x.t().contiguous(); });
  const size_t created =
      find_line(lines, "autograd: created CloneBackward0 (next edges: TBackward0)");
  ASSERT_LT(created, lines.size()) << joined(lines);
  const size_t autograd_kernel = find_line(lines, "VariableType::clone");
  const size_t native_clone = find_line(lines, "wrapper_CompositeExplicitAutograd__clone");
  EXPECT_LT(autograd_kernel, created) << joined(lines);
  EXPECT_LT(created, native_clone) << joined(lines);
}

TEST(AutogradTrace, NoNodeWithoutRequiresGrad) {
  auto x = torch::ones({3, 2});
  auto lines = trace([&] { x.t().contiguous(); });
  EXPECT_EQ(find_line(lines, "autograd: created"), lines.size()) << joined(lines);
}

}  // namespace
