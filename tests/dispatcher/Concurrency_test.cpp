// Registration may run while other threads call: calls take no lock and must always see a
// complete kernel (see Note [Lock-free dispatch table]). Run under ThreadSanitizer too.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::DispatchKey;

int64_t kernel_a(const at::Tensor&) { return 1; }
int64_t kernel_b(const at::Tensor&) { return 2; }

TEST(Concurrency, RegistrationDuringCalls) {
  const std::string name = test_util::unique_op("concurrent");
  torch::Library def(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
  def.def(name + "(Tensor self) -> int");
  torch::Library base(torch::Library::IMPL, "test", DispatchKey::CPU, __FILE__, __LINE__);
  base.impl(name, TORCH_FN(kernel_a));
  auto op = c10::Dispatcher::singleton()
                .findSchemaOrThrow(("test::" + name).c_str(), "")
                .typed<int64_t(const at::Tensor&)>();
  at::Tensor t = test_util::tensor_for(DispatchKey::CPU);

  std::atomic<bool> stop{false};
  std::atomic<int64_t> calls{0}, bad{0};
  std::vector<std::thread> callers;
  for (int i = 0; i < 2; ++i) {
    callers.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) {
        const int64_t r = op.call(t);
        if (r != 1 && r != 2) bad++;
        calls++;
      }
    });
  }
  // Silence the expected override warnings.
  struct Quiet : c10::WarningHandler {
    void process(const c10::SourceLocation&, const std::string&, bool) override {}
  } quiet;
  c10::WarningUtils::WarningHandlerGuard guard(&quiet);
  for (int i = 0; i < 300; ++i) {
    torch::Library over(torch::Library::IMPL, "test", DispatchKey::CPU, __FILE__, __LINE__);
    over.impl(name, TORCH_FN(kernel_b));
    torch::Library other(torch::Library::IMPL, "test", DispatchKey::Meta, __FILE__, __LINE__);
    other.impl(name, TORCH_FN(kernel_b));
  }
  // Keep calling a little after the last change.
  while (calls.load() < 1000) std::this_thread::yield();
  stop = true;
  for (auto& c : callers) c.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(op.call(t), 1);  // every override was dropped again
}

}  // namespace
