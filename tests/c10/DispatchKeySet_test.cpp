#include "c10/core/DispatchKeySet.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "c10/core/AutoDispatchGuards.h"
#include "c10/core/DispatchKey.h"
#include "c10/core/LocalDispatchKeySet.h"
#include "c10/util/Exception.h"

namespace c10 {
namespace {

using DK = DispatchKey;

// Every runtime key, lowest priority first: the order REFERENCE.md section 5 requires.
const std::vector<DK> kRuntimeKeysInOrder = {
    DK::CPU,
    DK::CUDA,
    DK::Meta,
    DK::PrivateUse1,
    DK::BackendSelect,
    DK::ADInplaceOrView,
    DK::AutogradOther,
    DK::AutogradCPU,
    DK::AutogradCUDA,
    DK::AutogradMeta,
    DK::AutogradPrivateUse1,
    DK::Tracer,
};
const std::vector<DK> kAliasKeys = {DK::Autograd, DK::CompositeImplicitAutograd,
                                    DK::CompositeExplicitAutograd};
const std::vector<DK> kBackends = {DK::CPU, DK::CUDA, DK::Meta, DK::PrivateUse1};

std::vector<DK> keys_of(DispatchKeySet ks) {
  return std::vector<DK>(ks.begin(), ks.end());
}

std::string printed(DispatchKeySet ks) {
  std::ostringstream os;
  os << ks;
  return os.str();
}

// Sets can be built and queried at compile time (TensorImpl keeps them in constexprs).
static_assert(DispatchKeySet({DK::CPU, DK::AutogradCPU}).highestPriorityTypeId() == DK::AutogradCPU,
              "");
static_assert(keysetForBackend(DK::CUDA).has(DK::AutogradCUDA), "");
static_assert(after_autograd_keyset.has(DK::ADInplaceOrView), "");
static_assert(num_runtime_entries == 13, "Undefined + 12 runtime keys");

// ---- DispatchKey ----

TEST(DispatchKeyTest, RuntimeKeysAreOrderedByPriority) {
  EXPECT_EQ(static_cast<int>(DK::Undefined), 0);
  for (size_t i = 0; i < kRuntimeKeysInOrder.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(kRuntimeKeysInOrder[i]), i + 1)
        << toString(kRuntimeKeysInOrder[i]);
  }
  EXPECT_EQ(static_cast<size_t>(DK::NumDispatchKeys), kRuntimeKeysInOrder.size() + 1);
  EXPECT_EQ(num_runtime_entries, static_cast<uint16_t>(DK::NumDispatchKeys));
  for (DK alias : kAliasKeys) EXPECT_GT(alias, DK::NumDispatchKeys) << toString(alias);
  EXPECT_EQ(DK::EndOfAliasKeys, DK::CompositeExplicitAutograd);
  EXPECT_EQ(DK::CatchAll, DK::Undefined);
  EXPECT_EQ(torch::kAutograd, DK::Autograd);
}

TEST(DispatchKeyTest, Predicates) {
  for (DK k : kRuntimeKeysInOrder) {
    const bool backend = k == DK::CPU || k == DK::CUDA || k == DK::Meta || k == DK::PrivateUse1;
    const bool autograd = k == DK::AutogradOther || k == DK::AutogradCPU || k == DK::AutogradCUDA ||
                          k == DK::AutogradMeta || k == DK::AutogradPrivateUse1;
    EXPECT_EQ(isBackendDispatchKey(k), backend) << toString(k);
    EXPECT_EQ(isAutogradDispatchKey(k), autograd) << toString(k);
    EXPECT_FALSE(isAliasDispatchKey(k)) << toString(k);
  }
  for (DK k : kAliasKeys) {
    EXPECT_TRUE(isAliasDispatchKey(k)) << toString(k);
    EXPECT_FALSE(isBackendDispatchKey(k)) << toString(k);
    EXPECT_FALSE(isAutogradDispatchKey(k)) << toString(k);
  }
  EXPECT_FALSE(isAliasDispatchKey(DK::Undefined));
  EXPECT_FALSE(isBackendDispatchKey(DK::Undefined));
  EXPECT_FALSE(isAutogradDispatchKey(DK::Undefined));
  EXPECT_FALSE(isAliasDispatchKey(DK::NumDispatchKeys));
}

TEST(DispatchKeyTest, AutogradKeyFromBackend) {
  EXPECT_EQ(getAutogradKeyFromBackend(DK::CPU), DK::AutogradCPU);
  EXPECT_EQ(getAutogradKeyFromBackend(DK::CUDA), DK::AutogradCUDA);
  EXPECT_EQ(getAutogradKeyFromBackend(DK::Meta), DK::AutogradMeta);
  EXPECT_EQ(getAutogradKeyFromBackend(DK::PrivateUse1), DK::AutogradPrivateUse1);
  EXPECT_EQ(getAutogradKeyFromBackend(DK::BackendSelect), DK::AutogradOther);
  EXPECT_EQ(getAutogradKeyFromBackend(DK::Undefined), DK::AutogradOther);
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
    EveryKey, DispatchKeyNameTest,
    ::testing::Values(std::make_pair(DK::Undefined, "Undefined"), std::make_pair(DK::CPU, "CPU"),
                      std::make_pair(DK::CUDA, "CUDA"), std::make_pair(DK::Meta, "Meta"),
                      std::make_pair(DK::PrivateUse1, "PrivateUse1"),
                      std::make_pair(DK::BackendSelect, "BackendSelect"),
                      std::make_pair(DK::ADInplaceOrView, "ADInplaceOrView"),
                      std::make_pair(DK::AutogradOther, "AutogradOther"),
                      std::make_pair(DK::AutogradCPU, "AutogradCPU"),
                      std::make_pair(DK::AutogradCUDA, "AutogradCUDA"),
                      std::make_pair(DK::AutogradMeta, "AutogradMeta"),
                      std::make_pair(DK::AutogradPrivateUse1, "AutogradPrivateUse1"),
                      std::make_pair(DK::Tracer, "Tracer"),
                      std::make_pair(DK::Autograd, "Autograd"),
                      std::make_pair(DK::CompositeImplicitAutograd, "CompositeImplicitAutograd"),
                      std::make_pair(DK::CompositeExplicitAutograd, "CompositeExplicitAutograd")),
    [](const ::testing::TestParamInfo<std::pair<DK, std::string>>& info) {
      return info.param.second;
    });

TEST(DispatchKeyTest, ParseUnknownKeyThrows) {
  // Names are case-sensitive, and markers and libtorch's BC aliases are not names.
  for (const char* name : {"Foo", "", "cpu", "NumDispatchKeys", "EndOfAliasKeys", "CatchAll"}) {
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
  EXPECT_EQ(keys_of(DispatchKeySet(DispatchKeySet::FULL)), kRuntimeKeysInOrder);
  for (DK k : kRuntimeKeysInOrder) {
    const DispatchKeySet one(k);
    EXPECT_EQ(keys_of(one), std::vector<DK>{k});
    EXPECT_EQ(DispatchKeySet(DispatchKeySet::RAW, one.raw_repr()), one);
  }
  EXPECT_EQ(DispatchKeySet({DK::CPU, DK::Undefined, DK::Autograd}), DispatchKeySet(DK::CPU));
}

TEST(DispatchKeySetTest, FullAfterIsEveryKeyBelow) {
  for (size_t i = 0; i < kRuntimeKeysInOrder.size(); ++i) {
    const std::vector<DK> below(kRuntimeKeysInOrder.begin(), kRuntimeKeysInOrder.begin() + i);
    EXPECT_EQ(keys_of(DispatchKeySet(DispatchKeySet::FULL_AFTER, kRuntimeKeysInOrder[i])), below)
        << toString(kRuntimeKeysInOrder[i]);
  }
}

TEST(DispatchKeySetTest, SetAlgebra) {
  const DispatchKeySet a({DK::CPU, DK::ADInplaceOrView, DK::AutogradCPU});
  const DispatchKeySet b({DK::CPU, DK::Tracer});
  EXPECT_EQ(a | b, DispatchKeySet({DK::CPU, DK::ADInplaceOrView, DK::AutogradCPU, DK::Tracer}));
  EXPECT_EQ(a & b, DispatchKeySet(DK::CPU));
  EXPECT_EQ(a - b, DispatchKeySet({DK::ADInplaceOrView, DK::AutogradCPU}));
  EXPECT_EQ(a ^ b, DispatchKeySet({DK::ADInplaceOrView, DK::AutogradCPU, DK::Tracer}));
  // Unlike libtorch's split set, removing a backend key really removes it.
  EXPECT_EQ(a - DispatchKeySet(DK::CPU), DispatchKeySet({DK::ADInplaceOrView, DK::AutogradCPU}));
  EXPECT_TRUE(a != b);
  EXPECT_FALSE(a == b);

  EXPECT_TRUE(a.has(DK::AutogradCPU));
  EXPECT_FALSE(a.has(DK::AutogradCUDA));
  EXPECT_FALSE(a.has(DK::Undefined));
  EXPECT_FALSE(DispatchKeySet(DispatchKeySet::FULL).has(DK::Autograd));
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
  EXPECT_EQ(added.remove(DK::CPU), DispatchKeySet(DK::AutogradCPU));
  EXPECT_EQ(added.remove(DK::Tracer), added);
  EXPECT_EQ(added.add(DK::Undefined), added);
  EXPECT_EQ(added.remove(DK::Undefined), added);
}

// ---- Priority and iteration ----

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
      {DispatchKeySet(DispatchKeySet::FULL), DK::Tracer},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.ks.highestPriorityTypeId(), c.expected) << c.ks;
    EXPECT_EQ(c.ks.getDispatchTableIndexForDispatchKeySet(), static_cast<int>(c.expected)) << c.ks;
  }
  // Every single key and every key over any lower set.
  for (size_t i = 0; i < kRuntimeKeysInOrder.size(); ++i) {
    const DK k = kRuntimeKeysInOrder[i];
    EXPECT_EQ(DispatchKeySet(k).highestPriorityTypeId(), k);
    EXPECT_EQ(DispatchKeySet(DispatchKeySet::FULL_AFTER, k).add(k).highestPriorityTypeId(), k);
    EXPECT_EQ(getDispatchTableIndexForDispatchKey(k), static_cast<int>(i) + 1);
    EXPECT_LT(getDispatchTableIndexForDispatchKey(k), num_runtime_entries);
  }
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DK::Undefined), 0);
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
}

TEST(DispatchKeySetTest, PrintsLikeLibtorch) {
  EXPECT_EQ(printed(DispatchKeySet({DK::AutogradCPU, DK::CPU, DK::ADInplaceOrView})),
            "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)");
  EXPECT_EQ(printed(DispatchKeySet()), "DispatchKeySet()");
  EXPECT_EQ(printed(DispatchKeySet(DK::Tracer)), "DispatchKeySet(Tracer)");
  EXPECT_EQ(toString(DispatchKeySet(DK::CPU)), "DispatchKeySet(CPU)");
  EXPECT_EQ(toString(default_included_set), "DispatchKeySet(BackendSelect, ADInplaceOrView)");
  EXPECT_EQ(toString(DispatchKeySet(DispatchKeySet::FULL)),
            "DispatchKeySet(CPU, CUDA, Meta, PrivateUse1, BackendSelect, ADInplaceOrView, "
            "AutogradOther, AutogradCPU, AutogradCUDA, AutogradMeta, AutogradPrivateUse1, "
            "Tracer)");
}

// ---- Named sets, alias keys, backends ----

TEST(DispatchKeySetTest, NamedSets) {
  EXPECT_EQ(keys_of(after_autograd_keyset),
            (std::vector<DK>{DK::CPU, DK::CUDA, DK::Meta, DK::PrivateUse1, DK::BackendSelect,
                             DK::ADInplaceOrView}));
  EXPECT_EQ(after_ADInplaceOrView_keyset, after_autograd_keyset.remove(DK::ADInplaceOrView));
  EXPECT_EQ(keys_of(autograd_dispatch_keyset),
            (std::vector<DK>{DK::AutogradOther, DK::AutogradCPU, DK::AutogradCUDA, DK::AutogradMeta,
                             DK::AutogradPrivateUse1}));
  EXPECT_EQ(autograd_dispatch_keyset_with_ADInplaceOrView,
            autograd_dispatch_keyset.add(DK::ADInplaceOrView));
  EXPECT_EQ(keys_of(backend_dispatch_keyset), kBackends);
  EXPECT_TRUE(autogradother_backends.empty());
  EXPECT_EQ(default_included_set, DispatchKeySet({DK::BackendSelect, DK::ADInplaceOrView}));
  EXPECT_TRUE(default_excluded_set.empty());
  // Nothing an autograd kernel redispatches to is an autograd key, and Tracer stays out.
  EXPECT_FALSE(after_autograd_keyset.has_any(autograd_dispatch_keyset));
  EXPECT_FALSE(after_autograd_keyset.has(DK::Tracer));
}

TEST(DispatchKeySetTest, AliasExpansion) {
  EXPECT_EQ(getRuntimeDispatchKeySet(DK::Autograd), autograd_dispatch_keyset);
  EXPECT_EQ(getRuntimeDispatchKeySet(DK::CompositeExplicitAutograd), backend_dispatch_keyset);
  EXPECT_EQ(keys_of(getRuntimeDispatchKeySet(DK::CompositeImplicitAutograd)),
            (std::vector<DK>{DK::CPU, DK::CUDA, DK::Meta, DK::PrivateUse1, DK::AutogradOther,
                             DK::AutogradCPU, DK::AutogradCUDA, DK::AutogradMeta,
                             DK::AutogradPrivateUse1}));
  for (DK k : kRuntimeKeysInOrder) {
    EXPECT_EQ(getRuntimeDispatchKeySet(k), DispatchKeySet(k)) << toString(k);
  }
  // runtimeDispatchKeySetHas and isIncludedInAlias agree with the expansion everywhere.
  std::vector<DK> all = kRuntimeKeysInOrder;
  all.insert(all.end(), kAliasKeys.begin(), kAliasKeys.end());
  for (DK alias : all) {
    for (DK k : kRuntimeKeysInOrder) {
      const bool expected = getRuntimeDispatchKeySet(alias).has(k);
      EXPECT_EQ(runtimeDispatchKeySetHas(alias, k), expected) << alias << " " << k;
      EXPECT_EQ(isIncludedInAlias(k, alias), expected) << alias << " " << k;
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
  EXPECT_TRUE(getBackendKeySetFromAutograd(DK::CPU).empty());
  EXPECT_TRUE(getBackendKeySetFromAutograd(DK::Tracer).empty());
  EXPECT_TRUE(getBackendKeySetFromAutograd(DK::Autograd).empty());
}

class BackendKeySetTest : public ::testing::TestWithParam<DK> {};

TEST_P(BackendKeySetTest, KeysetForBackend) {
  const DK backend = GetParam();
  const DK autograd = getAutogradKeyFromBackend(backend);
  EXPECT_EQ(keys_of(keysetForBackend(backend)),
            (std::vector<DK>{backend, DK::ADInplaceOrView, autograd}));
  EXPECT_EQ(getAutogradRelatedKeySetFromBackend(backend),
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
  EXPECT_EQ(getAutogradRelatedKeySetFromBackend(DK::BackendSelect),
            DispatchKeySet({DK::ADInplaceOrView, DK::AutogradOther}));
  EXPECT_EQ(highestPriorityBackendTypeId(DispatchKeySet({DK::AutogradCPU, DK::Tracer})),
            DK::Undefined);
  EXPECT_EQ(legacyExtractDispatchKey(DispatchKeySet()), DK::Undefined);
}

// ---- Thread-local sets and guards ----

// Every test here must leave this thread's sets as it found them: the defaults.
class LocalDispatchKeySetTest : public ::testing::Test {
 protected:
  void SetUp() override { ExpectDefaults(); }
  void TearDown() override { ExpectDefaults(); }

  static void ExpectDefaults() {
    const impl::LocalDispatchKeySet tls = impl::tls_local_dispatch_key_set();
    EXPECT_EQ(tls.included_, default_included_set);
    EXPECT_EQ(tls.excluded_, default_excluded_set);
  }
  static DispatchKeySet excluded() { return impl::tls_local_dispatch_key_set().excluded_; }
  static DispatchKeySet included() { return impl::tls_local_dispatch_key_set().included_; }
};

TEST_F(LocalDispatchKeySetTest, SetAndQueryOneKey) {
  EXPECT_TRUE(impl::tls_is_dispatch_key_included(DK::BackendSelect));
  EXPECT_FALSE(impl::tls_is_dispatch_key_excluded(DK::AutogradCPU));

  impl::tls_set_dispatch_key_excluded(DK::AutogradCPU, true);
  impl::tls_set_dispatch_key_excluded(DK::AutogradCPU, true);  // idempotent
  EXPECT_TRUE(impl::tls_is_dispatch_key_excluded(DK::AutogradCPU));
  EXPECT_EQ(excluded(), DispatchKeySet(DK::AutogradCPU));
  impl::tls_set_dispatch_key_excluded(DK::AutogradCPU, false);
  EXPECT_FALSE(impl::tls_is_dispatch_key_excluded(DK::AutogradCPU));

  impl::tls_set_dispatch_key_included(DK::Tracer, true);
  EXPECT_TRUE(impl::tls_is_dispatch_key_included(DK::Tracer));
  EXPECT_TRUE(impl::tls_is_dispatch_keyset_included(default_included_set.add(DK::Tracer)));
  impl::tls_set_dispatch_key_included(DK::Tracer, false);
  EXPECT_FALSE(impl::tls_is_dispatch_key_included(DK::Tracer));
}

TEST_F(LocalDispatchKeySetTest, ExcludeGuardsNestAndRestore) {
  {
    impl::ExcludeDispatchKeyGuard outer(DK::AutogradCPU);
    EXPECT_EQ(excluded(), DispatchKeySet(DK::AutogradCPU));
    {
      impl::ExcludeDispatchKeyGuard inner(autograd_dispatch_keyset);
      EXPECT_EQ(excluded(), autograd_dispatch_keyset);
      EXPECT_TRUE(impl::tls_is_dispatch_keyset_excluded(autograd_dispatch_keyset));
      {
        impl::ExcludeDispatchKeyGuard same(DK::AutogradCPU);  // adds nothing
        EXPECT_EQ(excluded(), autograd_dispatch_keyset);
      }
      // The innermost guard did not remove the key its parents excluded.
      EXPECT_EQ(excluded(), autograd_dispatch_keyset);
    }
    EXPECT_EQ(excluded(), DispatchKeySet(DK::AutogradCPU));
    EXPECT_FALSE(impl::tls_is_dispatch_keyset_excluded(autograd_dispatch_keyset));
  }
  EXPECT_TRUE(excluded().empty());
}

TEST_F(LocalDispatchKeySetTest, GuardOnKeyAlreadyExcludedKeepsIt) {
  impl::tls_set_dispatch_key_excluded(DK::Tracer, true);
  {
    impl::ExcludeDispatchKeyGuard guard(DispatchKeySet({DK::Tracer, DK::AutogradCUDA}));
    EXPECT_EQ(excluded(), DispatchKeySet({DK::AutogradCUDA, DK::Tracer}));
  }
  // Only the guard's own addition went away.
  EXPECT_EQ(excluded(), DispatchKeySet(DK::Tracer));
  impl::tls_set_dispatch_key_excluded(DK::Tracer, false);
}

TEST_F(LocalDispatchKeySetTest, IncludeGuardsNestAndRestore) {
  {
    // BackendSelect is included by default: the guard must not take it away at the end.
    impl::IncludeDispatchKeyGuard guard(DispatchKeySet({DK::BackendSelect, DK::Tracer}));
    EXPECT_EQ(included(), default_included_set.add(DK::Tracer));
    {
      impl::IncludeDispatchKeyGuard inner(DK::Tracer);
      EXPECT_EQ(included(), default_included_set.add(DK::Tracer));
    }
    EXPECT_TRUE(impl::tls_is_dispatch_key_included(DK::Tracer));
  }
  EXPECT_EQ(included(), default_included_set);
}

TEST_F(LocalDispatchKeySetTest, AutoDispatchGuards) {
  const DispatchKeySet tensor = keysetForBackend(DK::CPU);
  auto dispatch_key = [&] {
    const impl::LocalDispatchKeySet tls = impl::tls_local_dispatch_key_set();
    return ((tensor | tls.included_) - tls.excluded_).highestPriorityTypeId();
  };
  EXPECT_EQ(dispatch_key(), DK::AutogradCPU);
  {
    at::AutoDispatchBelowAutograd guard;
    EXPECT_EQ(excluded(), autograd_dispatch_keyset);
    EXPECT_EQ(dispatch_key(), DK::ADInplaceOrView);
    {
      at::AutoDispatchBelowADInplaceOrView inner;
      EXPECT_EQ(excluded(), autograd_dispatch_keyset_with_ADInplaceOrView);
      EXPECT_EQ(dispatch_key(), DK::BackendSelect);  // a fallthrough, then CPU
    }
    EXPECT_EQ(excluded(), autograd_dispatch_keyset);
  }
  EXPECT_EQ(dispatch_key(), DK::AutogradCPU);
}

TEST_F(LocalDispatchKeySetTest, ForceGuardRestoresExactly) {
  impl::LocalDispatchKeySet forced = impl::tls_local_dispatch_key_set();
  forced.included_ = DispatchKeySet(DK::Tracer);
  forced.excluded_ = DispatchKeySet(DispatchKeySet::FULL);
  {
    impl::ForceDispatchKeyGuard guard(forced);
    EXPECT_EQ(included(), DispatchKeySet(DK::Tracer));
    EXPECT_EQ(excluded(), DispatchKeySet(DispatchKeySet::FULL));
  }
}

TEST_F(LocalDispatchKeySetTest, SetsArePerThread) {
  impl::ExcludeDispatchKeyGuard guard(autograd_dispatch_keyset);
  impl::IncludeDispatchKeyGuard include(DK::Tracer);

  DispatchKeySet seen_included, seen_excluded, after_change;
  std::thread worker([&] {
    // A new thread starts from the defaults, not from its parent's sets ...
    const impl::LocalDispatchKeySet tls = impl::tls_local_dispatch_key_set();
    seen_included = tls.included_;
    seen_excluded = tls.excluded_;
    // ... and what it changes stays on that thread.
    impl::tls_set_dispatch_key_excluded(DK::Meta, true);
    after_change = impl::tls_local_dispatch_key_set().excluded_;
  });
  worker.join();

  EXPECT_EQ(seen_included, default_included_set);
  EXPECT_EQ(seen_excluded, default_excluded_set);
  EXPECT_EQ(after_change, DispatchKeySet(DK::Meta));
  EXPECT_EQ(excluded(), autograd_dispatch_keyset);
  EXPECT_EQ(included(), default_included_set.add(DK::Tracer));
}

}  // namespace
}  // namespace c10
