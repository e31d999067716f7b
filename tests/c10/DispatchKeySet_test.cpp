#include "c10/core/DispatchKeySet.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "c10/core/DispatchKey.h"
#include "c10/util/Exception.h"

namespace c10 {
namespace {

using DK = DispatchKey;
using BC = BackendComponent;

// The backends miniaten has kernels for, and the autograd key of each.
const std::vector<DK> kBackends = {DK::CPU, DK::CUDA, DK::Meta, DK::PrivateUse1};
const std::vector<DK> kAliasKeys = {
    DK::Autograd, DK::CompositeImplicitAutograd, DK::CompositeImplicitAutogradNestedTensor,
    DK::CompositeExplicitAutograd, DK::CompositeExplicitAutogradNonFunctional};

std::vector<DK> keys_of(DispatchKeySet ks) {
  return std::vector<DK>(ks.begin(), ks.end());
}

std::string printed(DispatchKeySet ks) {
  std::ostringstream os;
  os << ks;
  return os.str();
}

// Every runtime key, in iteration (and table) order, built from the enum's blocks.
std::vector<DK> all_runtime_keys() {
  std::vector<DK> keys;
  for (uint8_t f = 1; f < num_functionality_keys; ++f) {
    const auto functionality = static_cast<DK>(f);
    if (!isPerBackendFunctionalityKey(functionality)) {
      keys.push_back(functionality);
      continue;
    }
    for (uint8_t b = 1; b <= num_backends; ++b) {
      keys.push_back(toRuntimePerBackendFunctionalityKey(functionality, static_cast<BC>(b)));
    }
  }
  return keys;
}

// Sets can be built and queried at compile time (TensorImpl keeps them in constexprs), and the
// dispatch-table index is a compile-time function too.
static_assert(DispatchKeySet({DK::CPU, DK::AutogradCPU}).highestPriorityTypeId() == DK::AutogradCPU,
              "");
static_assert(keysetForBackend(DK::CUDA).has(DK::AutogradCUDA), "");
static_assert(after_autograd_keyset.has(DK::ADInplaceOrView), "");
static_assert(getDispatchTableIndexForDispatchKey(DK::AutogradCPU) == 76, "");
// libtorch 1.13's sizes: 41 functionality keys, 14 backends, 106 table entries.
static_assert(num_functionality_keys == 41 && num_backends == 14 && num_runtime_entries == 106, "");

// ---- DispatchKey ----

TEST(DispatchKeyTest, EnumIsLibtorchs) {
  // Values read off libtorch 1.13.
  EXPECT_EQ(static_cast<int>(DK::Undefined), 0);
  EXPECT_EQ(static_cast<int>(DK::Dense), 1);
  EXPECT_EQ(static_cast<int>(DK::BackendSelect), 13);
  EXPECT_EQ(static_cast<int>(DK::ADInplaceOrView), 22);
  EXPECT_EQ(static_cast<int>(DK::AutogradOther), 23);
  EXPECT_EQ(static_cast<int>(DK::PythonDispatcher), 40);
  EXPECT_EQ(static_cast<int>(DK::CPU), 43);
  EXPECT_EQ(static_cast<int>(DK::QuantizedCPU), 58);
  EXPECT_EQ(static_cast<int>(DK::AutogradCPU), 103);
  EXPECT_EQ(static_cast<int>(DK::AutogradPrivateUse3), 116);
  EXPECT_EQ(static_cast<int>(DK::Autograd), 117);
  EXPECT_EQ(static_cast<int>(DK::CompositeExplicitAutogradNonFunctional), 121);
  EXPECT_EQ(DK::EndOfAliasKeys, DK::CompositeExplicitAutogradNonFunctional);
  EXPECT_EQ(DK::CatchAll, DK::Undefined);
  EXPECT_EQ(DK::CPUTensorId, DK::CPU);
  EXPECT_EQ(DK::DefaultBackend, DK::CompositeExplicitAutograd);
  EXPECT_EQ(torch::kAutograd, DK::Autograd);
  EXPECT_EQ(all_runtime_keys().size() + 1, size_t{num_runtime_entries});
}

TEST(DispatchKeyTest, FunctionalityAndBackendOfAKey) {
  EXPECT_EQ(toFunctionalityKey(DK::CPU), DK::Dense);
  EXPECT_EQ(toFunctionalityKey(DK::AutogradMeta), DK::AutogradFunctionality);
  EXPECT_EQ(toFunctionalityKey(DK::SparseCUDA), DK::Sparse);
  EXPECT_EQ(toFunctionalityKey(DK::Tracer), DK::Tracer);
  EXPECT_EQ(toFunctionalityKey(DK::Autograd), DK::Undefined);
  EXPECT_EQ(toBackendComponent(DK::AutogradPrivateUse1), BC::PrivateUse1Bit);
  EXPECT_EQ(toBackendComponent(DK::QuantizedCUDA), BC::CUDABit);
  EXPECT_EQ(toBackendComponent(DK::Tracer), BC::InvalidBit);
  EXPECT_EQ(toBackendComponent(DeviceType::Meta), BC::MetaBit);
  EXPECT_EQ(toRuntimePerBackendFunctionalityKey(DK::Dense, BC::CUDABit), DK::CUDA);
  EXPECT_EQ(toRuntimePerBackendFunctionalityKey(DK::NestedTensor, BC::CPUBit), DK::NestedTensorCPU);
  EXPECT_EQ(toRuntimePerBackendFunctionalityKey(DK::Tracer, BC::CPUBit), DK::Undefined);
  for (DK k : all_runtime_keys()) {
    const DK f = toFunctionalityKey(k);
    if (isPerBackendFunctionalityKey(f)) {
      EXPECT_EQ(toRuntimePerBackendFunctionalityKey(f, toBackendComponent(k)), k) << k;
    } else {
      EXPECT_EQ(f, k);
      EXPECT_EQ(toBackendComponent(k), BC::InvalidBit) << k;
    }
  }
}

TEST(DispatchKeyTest, Predicates) {
  for (DK k : {DK::CPU, DK::CUDA, DK::Meta, DK::PrivateUse1, DK::SparseCPU, DK::QuantizedCUDA,
               DK::FPGA, DK::MkldnnCPU, DK::Dense}) {
    EXPECT_TRUE(isBackendDispatchKey(k)) << k;
  }
  for (DK k : {DK::Undefined, DK::NestedTensor, DK::NestedTensorCPU, DK::BackendSelect,
               DK::AutogradCPU, DK::AutogradOther, DK::Tracer, DK::CompositeExplicitAutograd}) {
    EXPECT_FALSE(isBackendDispatchKey(k)) << k;
  }
  for (DK k : kAliasKeys) EXPECT_TRUE(isAliasDispatchKey(k)) << k;
  for (DK k : all_runtime_keys()) EXPECT_FALSE(isAliasDispatchKey(k)) << k;
  EXPECT_FALSE(isAliasDispatchKey(DK::Undefined));
  EXPECT_TRUE(isPerBackendFunctionalityKey(DK::AutogradFunctionality));
  EXPECT_FALSE(isPerBackendFunctionalityKey(DK::AutogradOther));
}

TEST(DispatchKeyTest, AutogradKeyFromBackend) {
  EXPECT_EQ(getAutogradKeyFromBackend(BC::CPUBit), DK::AutogradCPU);
  EXPECT_EQ(getAutogradKeyFromBackend(BC::CUDABit), DK::AutogradCUDA);
  EXPECT_EQ(getAutogradKeyFromBackend(BC::MetaBit), DK::AutogradMeta);
  EXPECT_EQ(getAutogradKeyFromBackend(BC::PrivateUse1Bit), DK::AutogradPrivateUse1);
  // libtorch 1.13 sends HIP and VE to AutogradOther.
  EXPECT_EQ(getAutogradKeyFromBackend(BC::HIPBit), DK::AutogradOther);
  EXPECT_EQ(getAutogradKeyFromBackend(BC::VEBit), DK::AutogradOther);
  EXPECT_EQ(getAutogradKeyFromBackend(BC::InvalidBit), DK::AutogradOther);
}

class DispatchKeyNameTest : public ::testing::TestWithParam<std::pair<DK, std::string>> {};

TEST_P(DispatchKeyNameTest, ToStringAndParseRoundTrip) {
  const DK key = GetParam().first;
  const std::string& name = GetParam().second;
  EXPECT_STREQ(toString(key), name.c_str());
  EXPECT_EQ(parseDispatchKey(name), key);
  std::ostringstream os;
  os << key;
  EXPECT_EQ(os.str(), name);
}

// libtorch 1.13's spellings (checked against libc10.so).
INSTANTIATE_TEST_SUITE_P(
    SomeKeys, DispatchKeyNameTest,
    ::testing::Values(std::make_pair(DK::Undefined, "Undefined"), std::make_pair(DK::CPU, "CPU"),
                      std::make_pair(DK::CUDA, "CUDA"), std::make_pair(DK::Meta, "Meta"),
                      std::make_pair(DK::PrivateUse1, "PrivateUse1"),
                      std::make_pair(DK::Dense, "Dense"), std::make_pair(DK::FPGA, "FPGA"),
                      std::make_pair(DK::SparseCPU, "SparseCPU"),
                      std::make_pair(DK::QuantizedCUDA, "QuantizedCUDA"),
                      std::make_pair(DK::BackendSelect, "BackendSelect"),
                      std::make_pair(DK::ADInplaceOrView, "ADInplaceOrView"),
                      std::make_pair(DK::AutogradOther, "AutogradOther"),
                      std::make_pair(DK::AutogradFunctionality, "AutogradFunctionality"),
                      std::make_pair(DK::AutogradCPU, "AutogradCPU"),
                      std::make_pair(DK::AutogradCUDA, "AutogradCUDA"),
                      std::make_pair(DK::AutogradMeta, "AutogradMeta"),
                      std::make_pair(DK::AutogradPrivateUse1, "AutogradPrivateUse1"),
                      std::make_pair(DK::AutogradNestedTensor, "AutogradNestedTensor"),
                      std::make_pair(DK::Tracer, "Tracer"),
                      std::make_pair(DK::TESTING_ONLY_GenericMode, "TESTING_ONLY_GenericMode"),
                      std::make_pair(DK::PythonDispatcher, "PythonDispatcher"),
                      std::make_pair(DK::Autograd, "Autograd"),
                      std::make_pair(DK::CompositeImplicitAutograd, "CompositeImplicitAutograd"),
                      std::make_pair(DK::CompositeExplicitAutograd, "CompositeExplicitAutograd"),
                      std::make_pair(DK::CompositeExplicitAutogradNonFunctional,
                                     "CompositeExplicitAutogradNonFunctional")),
    [](const ::testing::TestParamInfo<std::pair<DK, std::string>>& info) {
      return info.param.second;
    });

TEST(DispatchKeyTest, MarkersPrintAsLibtorchAndDoNotParse) {
  EXPECT_STREQ(toString(DK::EndOfFunctionalityKeys), "UnknownUnknown");
  EXPECT_STREQ(toString(DK::StartOfDenseBackends), "Unknown");
  EXPECT_STREQ(toString(DK::StartOfAutogradFunctionalityBackends), "AutogradUnknown");
  EXPECT_STREQ(toString(BC::CPUBit), "CPUBit");
  EXPECT_STREQ(toString(BC::InvalidBit), "InvalidBit");
  // Names are case-sensitive, and markers and libtorch's BC aliases are not names.
  for (const char* name : {"Foo", "", "cpu", "Unknown", "UnknownUnknown", "AutogradUnknown",
                           "EndOfAliasKeys", "CatchAll", "CPUTensorId"}) {
    try {
      parseDispatchKey(name);
      ADD_FAILURE() << "parsed '" << name << "'";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what_without_backtrace()),
                std::string("could not parse dispatch key: ") + name);
    }
  }
}

// ---- DispatchKeySet: construction and set algebra ----

TEST(DispatchKeySetTest, Construction) {
  EXPECT_TRUE(DispatchKeySet().empty());
  EXPECT_EQ(DispatchKeySet().raw_repr(), 0u);
  EXPECT_TRUE(DispatchKeySet(DK::Undefined).empty());
  for (DK alias : kAliasKeys) EXPECT_TRUE(DispatchKeySet(alias).empty()) << toString(alias);
  EXPECT_EQ(keys_of(DispatchKeySet(DispatchKeySet::FULL)), all_runtime_keys());
  // Bits: CPUBit is bit 0, functionality f is bit 13 + f. See Note [Key set representation].
  EXPECT_EQ(DispatchKeySet(BC::CPUBit).raw_repr(), uint64_t{1});
  EXPECT_EQ(DispatchKeySet(DK::Dense).raw_repr(), uint64_t{1} << 14);
  EXPECT_EQ(DispatchKeySet(DK::CPU), DispatchKeySet(DK::Dense) | DispatchKeySet(BC::CPUBit));
  EXPECT_EQ(DispatchKeySet(DK::AutogradCUDA),
            DispatchKeySet(DK::AutogradFunctionality) | DispatchKeySet(BC::CUDABit));
  for (DK k : all_runtime_keys()) {
    const DispatchKeySet one(k);
    EXPECT_EQ(keys_of(one), std::vector<DK>{k});
    EXPECT_EQ(DispatchKeySet(DispatchKeySet::RAW, one.raw_repr()), one);
  }
  EXPECT_EQ(DispatchKeySet({DK::CPU, DK::Undefined, DK::Autograd}), DispatchKeySet(DK::CPU));
  // Markers have bits, as in libtorch: EndOfFunctionalityKeys the one past FULL.
  EXPECT_FALSE(DispatchKeySet(DispatchKeySet::FULL).has(DK::EndOfFunctionalityKeys));
  EXPECT_FALSE(DispatchKeySet().has(DK::EndOfFunctionalityKeys));
  EXPECT_EQ(DispatchKeySet(DK::StartOfSparseBackends), DispatchKeySet(DK::Sparse));
  EXPECT_EQ(DispatchKeySet({BC::CPUBit, BC::InvalidBit}), DispatchKeySet(BC::CPUBit));
}

TEST(DispatchKeySetTest, HoldsTheCrossProductOfItsKeys) {
  // {AutogradCUDA, CPU} is also {AutogradCPU, CUDA} (printed by libtorch 1.13 alike).
  const DispatchKeySet ks({DK::AutogradCUDA, DK::CPU});
  EXPECT_EQ(printed(ks), "DispatchKeySet(CPU, CUDA, AutogradCPU, AutogradCUDA)");
  EXPECT_EQ(ks, DispatchKeySet({DK::CUDA, DK::AutogradCPU}));
  EXPECT_TRUE(ks.has_backend(BC::CPUBit));
  EXPECT_FALSE(ks.has_backend(BC::MetaBit));
}

TEST(DispatchKeySetTest, SetAlgebra) {
  const DispatchKeySet a = keysetForBackend(DK::CPU);
  const DispatchKeySet b({DK::CPU, DK::Tracer});
  EXPECT_EQ(a | b, DispatchKeySet({DK::CPU, DK::ADInplaceOrView, DK::AutogradCPU, DK::Tracer}));
  EXPECT_EQ(a & b, DispatchKeySet(DK::CPU));
  // `-` takes functionality bits only: CPUBit stays, so AutogradCPU is still there.
  EXPECT_EQ(a - b, DispatchKeySet({DK::ADInplaceOrView, DK::AutogradCPU}));
  EXPECT_EQ(printed(a - autograd_dispatch_keyset), "DispatchKeySet(CPU, ADInplaceOrView)");
  EXPECT_EQ(a ^ b, DispatchKeySet({DK::ADInplaceOrView, DK::AutogradFunctionality, DK::Tracer}));
  EXPECT_TRUE(a != b);
  EXPECT_FALSE(a == b);

  EXPECT_TRUE(a.has(DK::AutogradCPU));
  EXPECT_FALSE(a.has(DK::AutogradCUDA));
  EXPECT_TRUE(a.has_any(b));
  EXPECT_FALSE(a.has_any(DispatchKeySet(DK::Tracer)));
  EXPECT_FALSE(a.has_all(b));
  EXPECT_TRUE(a.has_all(DispatchKeySet({DK::CPU, DK::AutogradCPU})));
  EXPECT_TRUE(a.isSupersetOf(DispatchKeySet(DK::ADInplaceOrView)));
  EXPECT_TRUE(a.isSupersetOf(DispatchKeySet()));
  EXPECT_FALSE(a.isSupersetOf(b));
}

TEST(DispatchKeySetTest, AddAndRemoveReturnNewSets) {
  const DispatchKeySet a(DK::CPU);
  const DispatchKeySet added = a.add(DK::AutogradCPU);
  EXPECT_EQ(a, DispatchKeySet(DK::CPU));
  EXPECT_EQ(added, DispatchKeySet({DK::CPU, DK::AutogradCPU}));
  EXPECT_EQ(added.add(DispatchKeySet({DK::Tracer, DK::Meta})),
            DispatchKeySet({DK::CPU, DK::Meta, DK::AutogradCPU, DK::Tracer}));
  // remove() clears the functionality bit and keeps the backend (libtorch 1.13 prints
  // DispatchKeySet(ADInplaceOrView, AutogradCPU) for a CPU tensor's set less CPU).
  EXPECT_EQ(added.remove(DK::CPU), DispatchKeySet(DK::AutogradCPU));
  EXPECT_EQ(added.remove(DK::AutogradCPU), DispatchKeySet(DK::CPU));
  EXPECT_EQ(added.remove(DK::Tracer), added);
  EXPECT_EQ(added.remove_backend(BC::CPUBit),
            DispatchKeySet({DK::Dense, DK::AutogradFunctionality}));
  EXPECT_EQ(added.add(DK::Undefined), added);
  EXPECT_EQ(added.remove(DK::Undefined), added);
}

// ---- Priority, table index and iteration ----

TEST(DispatchKeySetTest, HighestPriorityTypeId) {
  struct Case {
    DispatchKeySet ks;
    DK expected;
  };
  const std::vector<Case> cases = {
      {DispatchKeySet(), DK::Undefined},
      {DispatchKeySet(DK::CPU), DK::CPU},
      {DispatchKeySet({DK::CPU, DK::CUDA}), DK::CUDA},
      {DispatchKeySet({DK::Meta, DK::PrivateUse1}), DK::PrivateUse1},
      {DispatchKeySet({DK::CUDA, DK::QuantizedCUDA}), DK::QuantizedCUDA},
      {DispatchKeySet({DK::CPU, DK::BackendSelect}), DK::BackendSelect},
      {DispatchKeySet({DK::CPU, DK::ADInplaceOrView}), DK::ADInplaceOrView},
      {keysetForBackend(DK::CPU), DK::AutogradCPU},
      {keysetForBackend(DK::CUDA), DK::AutogradCUDA},
      {keysetForBackend(DK::Meta), DK::AutogradMeta},
      {keysetForBackend(DK::PrivateUse1), DK::AutogradPrivateUse1},
      {DispatchKeySet({DK::AutogradOther, DK::ADInplaceOrView}), DK::AutogradOther},
      {DispatchKeySet({DK::AutogradOther, DK::AutogradCPU}), DK::AutogradCPU},
      {DispatchKeySet({DK::AutogradCPU, DK::AutogradCUDA}), DK::AutogradCUDA},
      {keysetForBackend(DK::CPU).add(DK::Tracer), DK::Tracer},
      {keysetForBackend(DK::CPU) & after_autograd_keyset, DK::ADInplaceOrView},
      {keysetForBackend(DK::CPU) & after_ADInplaceOrView_keyset, DK::CPU},
      {DispatchKeySet(DispatchKeySet::FULL), DK::PythonDispatcher},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.ks.highestPriorityTypeId(), c.expected) << c.ks;
    EXPECT_EQ(c.ks.getDispatchTableIndexForDispatchKeySet(),
              getDispatchTableIndexForDispatchKey(c.expected))
        << c.ks;
  }
  // Every runtime key takes the next table index, in iteration order, and wins over every
  // lower key.
  const std::vector<DK> keys = all_runtime_keys();
  for (size_t i = 0; i < keys.size(); ++i) {
    const DK k = keys[i];
    EXPECT_EQ(DispatchKeySet(k).highestPriorityTypeId(), k);
    EXPECT_EQ(getDispatchTableIndexForDispatchKey(k), static_cast<int>(i) + 1) << k;
    if (!isPerBackendFunctionalityKey(toFunctionalityKey(k))) {
      const DispatchKeySet below =
          DispatchKeySet(DispatchKeySet::FULL_AFTER, k).remove(DK::PythonDispatcher);
      EXPECT_EQ(below.add(k).highestPriorityTypeId(), k) << k;
    }
  }
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DK::Undefined), 0);
  // Indices libtorch 1.13 gives.
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DK::CPU), 1);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DK::FPGA), 15);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DK::BackendSelect), 65);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DK::AutogradOther), 75);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DK::AutogradMeta), 86);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DK::PythonDispatcher), 105);
}

// The call path computes the index with a bsr builtin on GCC at run time and with
// count-leading-zeros in constant evaluation (Note [Dispatch table index on the call path]):
// both agree on every set of one or two bits.
constexpr uint64_t kUsedBits = num_backends + num_functionality_keys - 1;
constexpr std::array<uint64_t, kUsedBits * kUsedBits> compile_time_indices() {
  std::array<uint64_t, kUsedBits * kUsedBits> result{};
  for (uint64_t a = 0; a < kUsedBits; ++a) {
    for (uint64_t b = 0; b < kUsedBits; ++b) {
      const DispatchKeySet ks(DispatchKeySet::RAW, (uint64_t{1} << a) | (uint64_t{1} << b));
      result[a * kUsedBits + b] = detail::dispatchTableIndex(ks);
    }
  }
  return result;
}

TEST(DispatchKeySetTest, TableIndexIsTheSameAtRunTimeAndCompileTime) {
  constexpr auto expected = compile_time_indices();
  volatile uint64_t one = 1;  // keeps the sets below out of constant evaluation
  for (uint64_t a = 0; a < kUsedBits; ++a) {
    for (uint64_t b = 0; b < kUsedBits; ++b) {
      const DispatchKeySet ks(DispatchKeySet::RAW, (one << a) | (one << b));
      ASSERT_EQ(detail::dispatchTableIndex(ks), expected[a * kUsedBits + b]) << ks;
      ASSERT_EQ(static_cast<uint64_t>(ks.getDispatchTableIndexForDispatchKeySet()),
                expected[a * kUsedBits + b]);
      ASSERT_LT(expected[a * kUsedBits + b], uint64_t{num_runtime_entries});
    }
  }
  EXPECT_EQ(detail::dispatchTableIndex(DispatchKeySet()), 0u);
}

TEST(DispatchKeySetTest, IteratesLowestPriorityFirst) {
  EXPECT_TRUE(keys_of(DispatchKeySet()).empty());
  EXPECT_EQ(DispatchKeySet().begin(), DispatchKeySet().end());
  EXPECT_EQ(keys_of(DispatchKeySet({DK::Tracer, DK::AutogradCPU, DK::CPU, DK::ADInplaceOrView})),
            (std::vector<DK>{DK::CPU, DK::ADInplaceOrView, DK::AutogradCPU, DK::Tracer}));
  const DispatchKeySet ks({DK::CUDA, DK::BackendSelect});
  auto it = ks.begin();
  EXPECT_EQ(*it++, DK::CUDA);
  EXPECT_EQ(*it, DK::BackendSelect);
  EXPECT_EQ(++it, ks.end());
  EXPECT_EQ(*ks.end(), DK::EndOfFunctionalityKeys);
  // A per-backend functionality without a backend, or a backend alone, is no runtime key.
  EXPECT_TRUE(keys_of(DispatchKeySet({DK::Dense, DK::AutogradFunctionality})).empty());
  EXPECT_TRUE(keys_of(DispatchKeySet(BC::MetaBit)).empty());
  // Starting past the last functionality bit is a bug in the caller.
  const uint64_t bits = ks.raw_repr();
  EXPECT_THROW(DispatchKeySet::iterator(&bits, num_backends + num_functionality_keys + 1), Error);
}

TEST(DispatchKeySetTest, PrintsLikeLibtorch) {
  EXPECT_EQ(printed(DispatchKeySet({DK::AutogradCPU, DK::CPU, DK::ADInplaceOrView})),
            "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)");
  EXPECT_EQ(printed(DispatchKeySet()), "DispatchKeySet()");
  EXPECT_EQ(printed(DispatchKeySet(DK::Tracer)), "DispatchKeySet(Tracer)");
  EXPECT_EQ(toString(DispatchKeySet(DK::CPU)), "DispatchKeySet(CPU)");
  EXPECT_EQ(toString(default_included_set), "DispatchKeySet(BackendSelect, ADInplaceOrView)");
  EXPECT_EQ(toString(default_excluded_set),
            "DispatchKeySet(AutocastCPU, AutocastXPU, AutocastCUDA)");
  EXPECT_EQ(toString(autograd_dispatch_keyset),
            "DispatchKeySet(AutogradOther, AutogradNestedTensor)");
}

// ---- Named sets, alias keys, backends ----

TEST(DispatchKeySetTest, NamedSets) {
  // What an autograd kernel redispatches to: every backend's keys, the layers below autograd,
  // and PythonDispatcher (libtorch 1.13's FULL_AFTER adds it).
  const std::vector<DK> after = keys_of(after_autograd_keyset);
  EXPECT_EQ(after.front(), DK::CPU);
  EXPECT_EQ(after[after.size() - 2], DK::ADInplaceOrView);
  EXPECT_EQ(after.back(), DK::PythonDispatcher);
  EXPECT_EQ(after_ADInplaceOrView_keyset, after_autograd_keyset.remove(DK::ADInplaceOrView));
  EXPECT_EQ(autograd_dispatch_keyset_with_ADInplaceOrView,
            autograd_dispatch_keyset.add(DK::ADInplaceOrView));
  EXPECT_EQ(default_included_set, DispatchKeySet({DK::BackendSelect, DK::ADInplaceOrView}));
  EXPECT_EQ(default_excluded_set, autocast_dispatch_keyset);
  // Nothing an autograd kernel redispatches to is an autograd key, and Tracer stays out.
  EXPECT_FALSE(after_autograd_keyset.has_any(autograd_dispatch_keyset));
  EXPECT_FALSE(after_autograd_keyset.has(DK::Tracer));
  for (DK k : kBackends) EXPECT_TRUE(backend_dispatch_keyset.has(k)) << k;
  EXPECT_TRUE(autogradother_backends.has(DK::SparseCPU));
  EXPECT_FALSE(autogradother_backends.has(DK::CPU));
}

TEST(DispatchKeySetTest, AliasExpansion) {
  // Sizes of libtorch 1.13's expansions.
  auto count = [](DK alias) { return keys_of(getRuntimeDispatchKeySet(alias)).size(); };
  EXPECT_EQ(count(DK::Autograd), 16u);
  EXPECT_EQ(count(DK::CompositeExplicitAutograd), 50u);
  EXPECT_EQ(count(DK::CompositeImplicitAutograd), 80u);
  EXPECT_EQ(count(DK::CompositeImplicitAutogradNestedTensor), 15u);
  EXPECT_EQ(count(DK::CompositeExplicitAutogradNonFunctional), 32u);
  EXPECT_TRUE(getRuntimeDispatchKeySet(DK::Autograd).has(DK::AutogradPrivateUse1));
  EXPECT_FALSE(getRuntimeDispatchKeySet(DK::CompositeExplicitAutograd).has(DK::AutogradCPU));
  EXPECT_FALSE(getRuntimeDispatchKeySet(DK::CompositeExplicitAutogradNonFunctional).has(DK::XLA));
  for (DK k : all_runtime_keys()) {
    EXPECT_EQ(getRuntimeDispatchKeySet(k), DispatchKeySet(k)) << toString(k);
  }
  // runtimeDispatchKeySetHas and isIncludedInAlias agree with the expansion everywhere.
  std::vector<DK> all = all_runtime_keys();
  all.insert(all.end(), kAliasKeys.begin(), kAliasKeys.end());
  for (DK alias : all) {
    const DispatchKeySet expansion = getRuntimeDispatchKeySet(alias);
    for (DK k : all_runtime_keys()) {
      EXPECT_EQ(runtimeDispatchKeySetHas(alias, k), expansion.has(k)) << alias << " " << k;
      EXPECT_EQ(isIncludedInAlias(k, alias), expansion.has(k)) << alias << " " << k;
    }
    EXPECT_FALSE(isIncludedInAlias(DK::Undefined, alias)) << alias;
  }
  // Asking for Undefined's runtime keys is a bug in the caller, as in libtorch.
  EXPECT_THROW(getRuntimeDispatchKeySet(DK::Undefined), Error);
}

TEST(DispatchKeySetTest, BackendKeySetFromAutograd) {
  EXPECT_EQ(getBackendKeySetFromAutograd(DK::AutogradCPU), DispatchKeySet(DK::CPU));
  EXPECT_EQ(getBackendKeySetFromAutograd(DK::AutogradCUDA), DispatchKeySet(DK::CUDA));
  EXPECT_EQ(getBackendKeySetFromAutograd(DK::AutogradMeta), DispatchKeySet(DK::Meta));
  EXPECT_EQ(getBackendKeySetFromAutograd(DK::AutogradPrivateUse1), DispatchKeySet(DK::PrivateUse1));
  EXPECT_EQ(getBackendKeySetFromAutograd(DK::AutogradOther), autogradother_backends);
  EXPECT_TRUE(getBackendKeySetFromAutograd(DK::AutogradHIP).empty());
  EXPECT_TRUE(getBackendKeySetFromAutograd(DK::CPU).empty());
  EXPECT_TRUE(getBackendKeySetFromAutograd(DK::Tracer).empty());
  EXPECT_TRUE(getBackendKeySetFromAutograd(DK::Autograd).empty());
}

class BackendKeySetTest : public ::testing::TestWithParam<DK> {};

TEST_P(BackendKeySetTest, KeysetForBackend) {
  const DK backend = GetParam();
  const DK autograd = getAutogradKeyFromBackend(toBackendComponent(backend));
  EXPECT_EQ(keys_of(keysetForBackend(backend)),
            (std::vector<DK>{backend, DK::ADInplaceOrView, autograd}));
  EXPECT_EQ(getAutogradRelatedKeySetFromBackend(toBackendComponent(backend)),
            DispatchKeySet({DK::ADInplaceOrView, autograd}));
  EXPECT_EQ(getBackendKeySetFromAutograd(autograd), DispatchKeySet(backend));
  EXPECT_EQ(highestPriorityBackendTypeId(keysetForBackend(backend)), backend);
  EXPECT_EQ(legacyExtractDispatchKey(keysetForBackend(backend)), backend);
  // What an autograd kernel redispatches to, once BackendSelect and ADInplaceOrView fall through.
  const DispatchKeySet call = keysetForBackend(backend) | default_included_set;
  EXPECT_EQ(call.highestPriorityTypeId(), autograd);
  EXPECT_EQ(((call & after_autograd_keyset) - default_included_set).highestPriorityTypeId(),
            backend);
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, BackendKeySetTest, ::testing::ValuesIn(kBackends),
                         [](const ::testing::TestParamInfo<DK>& info) {
                           return std::string(toString(info.param));
                         });

TEST(DispatchKeySetTest, KeysetForNonBackends) {
  EXPECT_TRUE(keysetForBackend(DK::Undefined).empty());
  EXPECT_EQ(getAutogradRelatedKeySetFromBackend(BC::InvalidBit),
            DispatchKeySet({DK::ADInplaceOrView, DK::AutogradOther}));
  EXPECT_EQ(getAutocastRelatedKeySetFromBackend(BC::CPUBit), DispatchKeySet(DK::AutocastCPU));
  EXPECT_EQ(getAutocastRelatedKeySetFromBackend(BC::XLABit), DispatchKeySet(DK::AutocastCUDA));
  EXPECT_TRUE(getAutocastRelatedKeySetFromBackend(BC::MetaBit).empty());
  // A backend bit without a backend functionality names no backend (libtorch 1.13 alike).
  EXPECT_EQ(highestPriorityBackendTypeId(DispatchKeySet({DK::AutogradCPU, DK::Tracer})),
            DK::Undefined);
  EXPECT_EQ(highestPriorityBackendTypeId(DispatchKeySet(DK::Tracer)), DK::Undefined);
  EXPECT_EQ(legacyExtractDispatchKey(DispatchKeySet()), DK::Undefined);
}

}  // namespace
}  // namespace c10
