// The computed dispatch table never goes stale: for every pair of registrations, in both
// orders, on CPU, Autograd, CompositeImplicitAutograd and CompositeExplicitAutograd, the kernel
// a call runs is the one dumpComputedTable() names (Note [The table is recomputed whole] in
// dispatcher/OperatorEntry.h; libtorch 1.13 fails this for CompositeImplicitAutograd then
// CompositeExplicitAutograd).

#include <gtest/gtest.h>

#include <sstream>

#include "c10/core/AutoDispatchGuards.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::DispatchKey;
using test_util::last_kernel;
using test_util::record;
using test_util::tensor_for;

constexpr char kCPU[] = "CPU";
constexpr char kAutograd[] = "Autograd";
constexpr char kCIA[] = "CompositeImplicitAutograd";
constexpr char kCEA[] = "CompositeExplicitAutograd";

struct Registration {
  DispatchKey key;
  at::Tensor (*kernel)(const at::Tensor&);
  int line;  // the Library's line, so the table's "registered at" names the kernel
};

const Registration kRegistrations[] = {
    {DispatchKey::CPU, record<kCPU>, 9001},
    {DispatchKey::Autograd, record<kAutograd>, 9002},
    {DispatchKey::CompositeImplicitAutograd, record<kCIA>, 9003},
    {DispatchKey::CompositeExplicitAutograd, record<kCEA>, 9004},
};

const char* kernel_named_by_line(const std::string& table_line) {
  for (const Registration& r : kRegistrations) {
    if (table_line.find(":" + std::to_string(r.line) + " ") != std::string::npos) {
      return r.key == DispatchKey::CPU                         ? kCPU
             : r.key == DispatchKey::Autograd                  ? kAutograd
             : r.key == DispatchKey::CompositeImplicitAutograd ? kCIA
                                                               : kCEA;
    }
  }
  return "none";
}

// The kernel the dump says a call with `keys` runs: the entry of the highest key whose line is
// not a fallthrough (a missing key has no line and passes the call down too).
std::string kernel_the_table_names(const std::string& table, std::vector<DispatchKey> keys) {
  for (DispatchKey k : keys) {
    std::istringstream lines(table);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind(std::string(c10::toString(k)) + ": ", 0) != 0) continue;
      if (line.find("[fallthrough]") != std::string::npos) break;
      return kernel_named_by_line(line);
    }
  }
  return "none";
}

TEST(TableMatchesCalls, EveryPairOfRegistrationsInBothOrders) {
  int pairs = 0;
  for (const Registration& first : kRegistrations) {
    for (const Registration& second : kRegistrations) {
      if (&first == &second) continue;
      const std::string name = test_util::unique_op("table");
      torch::Library def(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
      def.def(name + "(Tensor self) -> Tensor");
      torch::Library a(torch::Library::IMPL, "test", first.key, __FILE__, first.line);
      a.impl(name.c_str(), first.kernel);
      torch::Library b(torch::Library::IMPL, "test", second.key, __FILE__, second.line);
      b.impl(name.c_str(), second.kernel);

      const auto op = c10::Dispatcher::singleton().findSchemaOrThrow(("test::" + name).c_str(), "");
      const std::string table = op.dumpComputedTable();
      const std::string order =
          std::string(c10::toString(first.key)) + " then " + c10::toString(second.key);
      SCOPED_TRACE(order + "\n" + table);

      // A plain call on a CPU tensor: AutogradCPU first, then (ADInplaceOrView is a
      // fallthrough) CPU.
      last_kernel() = "none";
      op.typed<at::Tensor(const at::Tensor&)>().call(tensor_for(DispatchKey::CPU));
      EXPECT_EQ(last_kernel(),
                kernel_the_table_names(table, {DispatchKey::AutogradCPU, DispatchKey::CPU}));
      EXPECT_NE(last_kernel(), "none");

      // Below autograd only the CPU entry counts.
      {
        at::AutoDispatchBelowADInplaceOrView below;
        last_kernel() = "none";
        op.typed<at::Tensor(const at::Tensor&)>().call(tensor_for(DispatchKey::CPU));
      }
      EXPECT_EQ(last_kernel(), kernel_the_table_names(table, {DispatchKey::CPU}));
      EXPECT_NE(last_kernel(), "none");
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, 12);
}

// The case libtorch 1.13 gets wrong, spelled out: the explicit kernel wins on CPU in both orders,
// and the implicit one is gone from AutogradCPU (it is a backend kernel's turn there).
TEST(TableMatchesCalls, CompositeExplicitWinsWhicheverComesFirst) {
  for (bool implicit_first : {true, false}) {
    const std::string name = test_util::unique_op("explicit_wins");
    torch::Library def(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
    def.def(name + "(Tensor self) -> Tensor");
    torch::Library cia(torch::Library::IMPL, "test", DispatchKey::CompositeImplicitAutograd,
                       __FILE__, __LINE__);
    torch::Library cea(torch::Library::IMPL, "test", DispatchKey::CompositeExplicitAutograd,
                       __FILE__, __LINE__);
    if (implicit_first) {
      cia.impl(name.c_str(), record<kCIA>);
      cea.impl(name.c_str(), record<kCEA>);
    } else {
      cea.impl(name.c_str(), record<kCEA>);
      cia.impl(name.c_str(), record<kCIA>);
    }
    const auto op = c10::Dispatcher::singleton().findSchemaOrThrow(("test::" + name).c_str(), "");
    last_kernel() = "none";
    op.typed<at::Tensor(const at::Tensor&)>().call(tensor_for(DispatchKey::CPU));
    EXPECT_EQ(last_kernel(), kCEA) << "implicit first: " << implicit_first;
    EXPECT_EQ(op.entry().tableEntry(DispatchKey::AutogradCPU).provenance,
              std::string("fallthrough"));
    EXPECT_EQ(op.entry().tableEntry(DispatchKey::CPU).provenance,
              std::string("CompositeExplicitAutograd kernel"));
  }
}

}  // namespace
