// OpRegistrationListener: told of every operator that has a schema when added, then of each
// schema registered or removed; kernels alone are not operators yet.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dispatcher/Dispatcher.h"
#include "dispatcher/Library.h"
#include "dispatcher/RegistrationListener.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

struct Recorder final : c10::OpRegistrationListener {
  explicit Recorder(std::vector<std::string>* log) : log_(log) {}
  void onOperatorRegistered(const c10::OperatorHandle& op) override {
    log_->push_back("+" + c10::toString(op.operator_name()));
  }
  void onOperatorDeregistered(const c10::OperatorHandle& op) override {
    // Called while the schema is still there.
    log_->push_back("-" + c10::toString(op.schema().operator_name()));
  }
  std::vector<std::string>* log_;
};

bool contains(const std::vector<std::string>& log, const std::string& entry) {
  return std::find(log.begin(), log.end(), entry) != log.end();
}

TEST(RegistrationListener, HearsOfExistingOperatorsFirst) {
  const std::string name = test_util::unique_op("listened");
  torch::Library lib(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
  lib.def(name + "(Tensor self) -> Tensor");
  std::vector<std::string> log;
  auto handle =
      c10::Dispatcher::singleton().addRegistrationListener(std::make_unique<Recorder>(&log));
  EXPECT_TRUE(contains(log, "+test::" + name));
  EXPECT_TRUE(contains(log, "+aten::add.Tensor"));  // the library's own operators too
}

TEST(RegistrationListener, HearsOfSchemasNotOfKernels) {
  const std::string name = test_util::unique_op("listened");
  std::vector<std::string> log;
  auto handle =
      c10::Dispatcher::singleton().addRegistrationListener(std::make_unique<Recorder>(&log));
  log.clear();
  torch::Library impl(torch::Library::IMPL, "test", c10::DispatchKey::CPU, __FILE__, __LINE__);
  impl.impl(name, [](const at::Tensor& t) { return t; });
  EXPECT_TRUE(log.empty());
  {
    torch::Library def(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
    def.def(name + ".ov(Tensor self) -> Tensor");
    def.def(name + "(Tensor self) -> Tensor");
    EXPECT_EQ(log, (std::vector<std::string>{"+test::" + name + ".ov", "+test::" + name}));
  }
  // Dropped newest first.
  EXPECT_EQ(log, (std::vector<std::string>{"+test::" + name + ".ov", "+test::" + name,
                                           "-test::" + name, "-test::" + name + ".ov"}));
}

TEST(RegistrationListener, DroppingTheHandleRemovesTheListener) {
  std::vector<std::string> log;
  {
    auto handle =
        c10::Dispatcher::singleton().addRegistrationListener(std::make_unique<Recorder>(&log));
  }
  log.clear();
  torch::Library def(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
  def.def(test_util::unique_op("listened") + "(Tensor self) -> Tensor");
  EXPECT_TRUE(log.empty());
}

}  // namespace
