// The thread-local included/excluded key sets and the guards that change them.
#include "c10/core/LocalDispatchKeySet.h"

#include <gtest/gtest.h>

#include <thread>

#include "c10/core/AutoDispatchGuards.h"
#include "c10/core/DispatchKeySet.h"

namespace c10 {
namespace {

using DK = DispatchKey;

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
  EXPECT_EQ(excluded(), default_excluded_set | DispatchKeySet(DK::AutogradCPU));
  impl::tls_set_dispatch_key_excluded(DK::AutogradCPU, false);
  EXPECT_FALSE(impl::tls_is_dispatch_key_excluded(DK::AutogradCPU));
  // As in libtorch, removing a per-backend key clears its functionality bit only; the CPU bit
  // left in the excluded set is inert (`-` never removes backend bits). Put the defaults back.
  EXPECT_EQ(excluded(), default_excluded_set | DispatchKeySet(BackendComponent::CPUBit));
  EXPECT_EQ((keysetForBackend(DK::CPU) - excluded()).highestPriorityTypeId(), DK::AutogradCPU);
  impl::_force_tls_local_dispatch_key_set(impl::PODLocalDispatchKeySet{
      default_included_set.raw_repr(), default_excluded_set.raw_repr()});

  impl::tls_set_dispatch_key_included(DK::Tracer, true);
  EXPECT_TRUE(impl::tls_is_dispatch_key_included(DK::Tracer));
  EXPECT_TRUE(impl::tls_is_dispatch_keyset_included(default_included_set.add(DK::Tracer)));
  impl::tls_set_dispatch_key_included(DK::Tracer, false);
  EXPECT_FALSE(impl::tls_is_dispatch_key_included(DK::Tracer));
}

TEST_F(LocalDispatchKeySetTest, ExcludeGuardsNestAndRestore) {
  {
    impl::ExcludeDispatchKeyGuard outer(DK::AutogradCPU);
    EXPECT_EQ(excluded(), default_excluded_set | DispatchKeySet(DK::AutogradCPU));
    {
      impl::ExcludeDispatchKeyGuard inner(autograd_dispatch_keyset);
      const DispatchKeySet both =
          default_excluded_set | autograd_dispatch_keyset | DispatchKeySet(DK::AutogradCPU);
      EXPECT_EQ(excluded(), both);
      EXPECT_TRUE(impl::tls_is_dispatch_keyset_excluded(autograd_dispatch_keyset));
      {
        impl::ExcludeDispatchKeyGuard same(DK::AutogradCPU);  // adds nothing
        EXPECT_EQ(excluded(), both);
      }
      // The innermost guard did not remove the key its parents excluded.
      EXPECT_EQ(excluded(), both);
    }
    EXPECT_EQ(excluded(), default_excluded_set | DispatchKeySet(DK::AutogradCPU));
    EXPECT_FALSE(impl::tls_is_dispatch_keyset_excluded(autograd_dispatch_keyset));
  }
  EXPECT_EQ(excluded(), default_excluded_set);
}

TEST_F(LocalDispatchKeySetTest, GuardOnKeyAlreadyExcludedKeepsIt) {
  impl::tls_set_dispatch_key_excluded(DK::Tracer, true);
  {
    impl::ExcludeDispatchKeyGuard guard(DispatchKeySet({DK::Tracer, DK::AutogradCUDA}));
    EXPECT_EQ(excluded(), default_excluded_set | DispatchKeySet({DK::AutogradCUDA, DK::Tracer}));
  }
  // Only the guard's own addition went away.
  EXPECT_EQ(excluded(), default_excluded_set | DispatchKeySet(DK::Tracer));
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
    EXPECT_EQ(excluded(), default_excluded_set | autograd_dispatch_keyset);
    EXPECT_EQ(dispatch_key(), DK::ADInplaceOrView);
    {
      at::AutoDispatchBelowADInplaceOrView inner;
      EXPECT_EQ(excluded(), default_excluded_set | autograd_dispatch_keyset_with_ADInplaceOrView);
      EXPECT_EQ(dispatch_key(), DK::BackendSelect);  // a fallthrough, then CPU
    }
    EXPECT_EQ(excluded(), default_excluded_set | autograd_dispatch_keyset);
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
  EXPECT_EQ(after_change, default_excluded_set | DispatchKeySet(DK::Meta));
  EXPECT_EQ(excluded(), default_excluded_set | autograd_dispatch_keyset);
  EXPECT_EQ(included(), default_included_set.add(DK::Tracer));
}

}  // namespace
}  // namespace c10
