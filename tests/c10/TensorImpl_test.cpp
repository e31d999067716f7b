// Layout flags against libtorch 1.13: every row below was produced by running the same sizes and
// strides through libtorch (as_strided on a large enough base) and printing its flags.

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "aten/detail/EmptyTensor.h"
#include "c10/core/CPUAllocator.h"
#include "c10/core/Contiguity.h"
#include "c10/core/StorageSize.h"
#include "c10/core/TensorImpl.h"

namespace {

using c10::MemoryFormat;

struct FlagCase {
  std::vector<int64_t> sizes, strides;
  bool contiguous, channels_last, channels_last_3d, dense, like_cl, like_cl3d;
  MemoryFormat suggest, suggest_exact;
};

constexpr auto kContiguous = MemoryFormat::Contiguous;
constexpr auto kChannelsLast = MemoryFormat::ChannelsLast;
constexpr auto kChannelsLast3d = MemoryFormat::ChannelsLast3d;

const FlagCase kLibtorchFlags[] = {
  {{}, {}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{0}, {1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{5}, {1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{5}, {2}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{1}, {7}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{5}, {0}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{2, 3}, {3, 1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 3}, {1, 2}, 0, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{3, 4}, {1, 3}, 0, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 3}, {0, 1}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{2, 3}, {3, 0}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{1, 3}, {7, 1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{3, 1}, {1, 9}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{0, 3}, {5, 7}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 0}, {1, 1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{4, 2, 3}, {8, 3, 1}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{4, 2, 3}, {6, 3, 1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{4, 2, 3}, {1, 12, 4}, 0, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 3, 4}, {12, 1, 3}, 0, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 3, 4, 5}, {60, 20, 5, 1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 3, 4, 5}, {60, 1, 15, 3}, 0, 1, 0, 1, 1, 0, kChannelsLast, kChannelsLast},
  {{2, 3, 4, 5}, {60, 1, 5, 20}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{2, 3, 4, 5}, {1, 2, 6, 24}, 0, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 1, 4, 4}, {16, 16, 4, 1}, 1, 1, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 1, 4, 4}, {16, 1, 4, 1}, 1, 1, 0, 1, 1, 0, kChannelsLast, kChannelsLast},
  {{2, 4, 1, 1}, {4, 1, 1, 1}, 1, 1, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 4, 1, 1}, {4, 1, 4, 4}, 1, 1, 0, 1, 1, 0, kChannelsLast, kChannelsLast},
  {{2, 2048, 1, 1}, {2048, 1, 1, 1}, 1, 1, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 2048, 1, 1}, {2048, 1, 2048, 2048}, 1, 1, 0, 1, 1, 0, kChannelsLast, kChannelsLast},
  {{1, 1, 1, 1}, {1, 1, 1, 1}, 1, 1, 0, 1, 0, 0, kContiguous, kContiguous},
  {{4, 1, 1, 1}, {1, 1, 1, 1}, 1, 1, 0, 1, 0, 0, kContiguous, kContiguous},
  {{4, 1, 1, 1}, {7, 7, 7, 7}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{1, 3, 1, 5}, {15, 5, 5, 1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{1, 3, 1, 5}, {15, 1, 15, 3}, 0, 1, 0, 1, 1, 0, kChannelsLast, kChannelsLast},
  {{2, 3, 4, 5}, {0, 1, 15, 3}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{2, 3, 4, 5}, {60, 0, 15, 3}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{2, 0, 4, 5}, {0, 1, 0, 0}, 1, 1, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 3, 0, 5}, {0, 1, 0, 3}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 3, 4, 5}, {120, 1, 30, 6}, 0, 0, 0, 0, 1, 0, kChannelsLast, kContiguous},
  {{2, 3, 4, 5}, {60, 20, 5, 2}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{2, 3, 4, 5, 6}, {360, 120, 30, 6, 1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 3, 4, 5, 6}, {360, 1, 90, 18, 3}, 0, 0, 1, 1, 0, 1, kChannelsLast3d, kChannelsLast3d},
  {{2, 3, 4, 5, 6}, {360, 1, 5, 1, 1}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{2, 1, 4, 5, 6}, {120, 120, 30, 6, 1}, 1, 0, 1, 1, 0, 0, kContiguous, kContiguous},
  {{2, 1, 4, 5, 6}, {120, 1, 30, 6, 1}, 1, 0, 1, 1, 0, 1, kChannelsLast3d, kChannelsLast3d},
  {{2, 3, 1, 1, 1}, {3, 1, 3, 3, 3}, 1, 0, 1, 1, 0, 1, kChannelsLast3d, kChannelsLast3d},
  {{2, 3, 4, 5, 6}, {360, 1, 18, 90, 3}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{2, 3, 4, 1, 1}, {12, 1, 3, 3, 3}, 0, 0, 1, 1, 0, 1, kChannelsLast3d, kChannelsLast3d},
  {{1, 3, 4, 5}, {60, 1, 15, 3}, 0, 1, 0, 1, 1, 0, kChannelsLast, kChannelsLast},
  {{2, 3, 4, 5}, {60, 1, 15, 3}, 0, 1, 0, 1, 1, 0, kChannelsLast, kChannelsLast},
  {{3, 4, 5, 6, 7, 8}, {6720, 1680, 336, 56, 8, 1}, 1, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{3, 4, 5, 6, 7, 8}, {1, 3, 12, 60, 360, 2520}, 0, 0, 0, 1, 0, 0, kContiguous, kContiguous},
  {{2, 2}, {1, 1}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
  {{2, 2}, {2, 2}, 0, 0, 0, 0, 0, 0, kContiguous, kContiguous},
};

std::ostream& operator<<(std::ostream& os, const FlagCase& c) {
  return os << c10::IntArrayRef(c.sizes) << "@" << c10::IntArrayRef(c.strides);
}

class ContiguityFlags : public ::testing::TestWithParam<FlagCase> {};

// A view with the case's geometry over a storage large enough for it.
at::Tensor make_view(const FlagCase& c) {
  at::Tensor base = at::detail::empty_cpu({1024}, at::kFloat);
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(base.storage()), base.key_set(),
                                                   base.dtype());
  impl->set_sizes_and_strides(c.sizes, c.strides, 0);
  return at::Tensor(std::move(impl));
}

TEST_P(ContiguityFlags, MatchLibtorch) {
  const FlagCase& c = GetParam();
  at::Tensor t = make_view(c);
  c10::TensorImpl* impl = t.unsafeGetTensorImpl();
  EXPECT_EQ(t.is_contiguous(), c.contiguous);
  EXPECT_EQ(t.is_contiguous(MemoryFormat::ChannelsLast), c.channels_last);
  EXPECT_EQ(t.is_contiguous(MemoryFormat::ChannelsLast3d), c.channels_last_3d);
  EXPECT_EQ(t.is_non_overlapping_and_dense(), c.dense);
  EXPECT_EQ(impl->is_strides_like_channels_last(), c.like_cl);
  EXPECT_EQ(impl->is_strides_like_channels_last_3d(), c.like_cl3d);
  EXPECT_EQ(t.suggest_memory_format(), c.suggest);
  EXPECT_EQ(t.suggest_memory_format(/*channels_last_strides_exact_match=*/true), c.suggest_exact);
}

INSTANTIATE_TEST_SUITE_P(Libtorch, ContiguityFlags, ::testing::ValuesIn(kLibtorchFlags));

TEST(TensorImpl, SeedWorkedExampleIsNotDense) {
  // Seed 000 appendix: sizes [4,2,3], strides [8,3,1]: dims 2 and 1 pass (1, 3), dim 0 needs 6.
  at::Tensor t = make_view({{4, 2, 3}, {8, 3, 1}, false, false, false, false, false, false,
                            kContiguous, kContiguous});
  EXPECT_FALSE(t.is_non_overlapping_and_dense());
  EXPECT_FALSE(t.is_contiguous());
  // [3,4]/[1,3]: dense, not contiguous.
  at::Tensor u = make_view({{3, 4}, {1, 3}, false, false, false, true, false, false, kContiguous,
                            kContiguous});
  EXPECT_TRUE(u.is_non_overlapping_and_dense());
  EXPECT_FALSE(u.is_contiguous());
}

TEST(TensorImpl, FlagsRefreshOnEveryChange) {
  at::Tensor t = at::detail::empty_cpu({2, 3, 4, 5}, at::kFloat);
  c10::TensorImpl* impl = t.unsafeGetTensorImpl();
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_FALSE(t.is_contiguous(MemoryFormat::ChannelsLast));
  impl->empty_tensor_restride(MemoryFormat::ChannelsLast);
  EXPECT_EQ(t.strides(), c10::IntArrayRef({60, 1, 15, 3}));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_TRUE(t.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(t.suggest_memory_format(), MemoryFormat::ChannelsLast);
  impl->set_sizes_and_strides({6, 20}, {20, 1});
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_FALSE(t.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(t.numel(), 120);
  impl->set_sizes_contiguous({2, 3, 4, 5, 1});
  EXPECT_EQ(t.strides(), c10::IntArrayRef({60, 20, 5, 1, 1}));
  impl->empty_tensor_restride(MemoryFormat::ChannelsLast3d);
  EXPECT_EQ(t.strides(), c10::IntArrayRef({60, 1, 15, 3, 3}));
  EXPECT_TRUE(t.is_contiguous(MemoryFormat::ChannelsLast3d));
}

TEST(TensorImpl, RestrideErrorsOnWrongRank) {
  at::Tensor t = at::detail::empty_cpu({2, 3, 4}, at::kFloat);
  c10::TensorImpl* impl = t.unsafeGetTensorImpl();
  try {
    impl->empty_tensor_restride(MemoryFormat::ChannelsLast);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "required rank 4 tensor to use channels_last format");
  }
  try {
    impl->empty_tensor_restride(MemoryFormat::ChannelsLast3d);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "required rank 5 tensor to use channels_last_3d format");
  }
  EXPECT_THROW(impl->empty_tensor_restride(MemoryFormat::Preserve), c10::Error);
}

TEST(TensorImpl, ContiguousStridesTreatZeroSizesAsOne) {
  at::Tensor t = at::detail::empty_cpu({2, 0, 3}, at::kFloat);
  EXPECT_EQ(t.strides(), c10::IntArrayRef({3, 3, 1}));
  EXPECT_EQ(t.numel(), 0);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_TRUE(t.is_non_overlapping_and_dense());
}

// An empty tensor's contiguous strides may pass int64: they wrap, giving libtorch 1.13's
// strides (found by fuzz_boxed_call under UBSan through set_).
TEST(TensorImpl, ContiguousStridesOfAnEmptyTensorWrapAsLibtorchs) {
  const int64_t huge = int64_t{1} << 62;
  at::Tensor t = at::detail::empty_cpu({0, huge, 4}, at::kFloat);
  EXPECT_EQ(t.strides(), c10::IntArrayRef({0, 4, 1}));
  EXPECT_EQ(t.numel(), 0);
}

TEST(TensorImpl, ManyDimsGoOutOfLine) {
  at::Tensor t = at::detail::empty_cpu({2, 1, 3, 1, 2, 2, 1}, at::kFloat);
  EXPECT_EQ(t.dim(), 7);
  EXPECT_EQ(t.strides(), c10::IntArrayRef({12, 12, 4, 4, 2, 1, 1}));
  c10::TensorImpl* impl = t.unsafeGetTensorImpl();
  impl->set_sizes_and_strides({24}, {1});  // back inline
  EXPECT_EQ(t.sizes(), c10::IntArrayRef({24}));
  impl->set_sizes_and_strides({2, 3, 4, 1, 1, 1}, {12, 4, 1, 1, 1, 1});
  EXPECT_EQ(t.strides(), c10::IntArrayRef({12, 4, 1, 1, 1, 1}));
  EXPECT_TRUE(t.is_contiguous());
}

TEST(TensorImpl, NumelOverflowIsAnError) {
  at::Tensor t = at::detail::empty_cpu({1}, at::kFloat);
  try {
    t.unsafeGetTensorImpl()->set_sizes_and_strides({1LL << 40, 1LL << 40}, {0, 0});
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "numel: integer multiplication overflow");
  }
}

TEST(TensorImpl, SizeAndStrideWrapNegativeDims) {
  at::Tensor t = at::detail::empty_cpu({2, 3}, at::kFloat);
  EXPECT_EQ(t.size(-1), 3);
  EXPECT_EQ(t.stride(-2), 3);
  try {
    t.size(71);
    FAIL();
  } catch (const c10::IndexError& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 71)");
  }
  try {
    t.stride(-3);
    FAIL();
  } catch (const c10::IndexError& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  }
  at::Tensor s = at::detail::empty_cpu({}, at::kFloat);
  try {
    s.size(0);
    FAIL();
  } catch (const c10::IndexError& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "Dimension specified as 0 but tensor has no dimensions");
  }
  EXPECT_EQ(c10::maybe_wrap_dim(-1, 0), 0);  // scalars wrap like 1-d tensors
  EXPECT_THROW(c10::maybe_wrap_dim(1, 0), c10::IndexError);
}

TEST(StorageSize, BoundsChecksUseLibtorchText) {
  c10::Storage storage(c10::Storage::use_byte_size_t(), 24, c10::GetCPUAllocator());
  try {
    c10::checkInBoundsForStorage({2, 3}, {3, 1}, 1, 4, storage);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "setStorage: sizes [2, 3], strides [3, 1], storage offset 1, and itemsize 4 "
                 "requiring a storage size of 28 are out of bounds for storage of size 24");
  }
  c10::checkInBoundsForStorage({2, 3}, {3, 1}, 0, 4, storage);  // fits exactly
  c10::checkInBoundsForStorage({0, 3}, {3, 1}, 100, 4, storage);  // empty views fit anywhere
  try {
    c10::computeStorageNbytes({-1}, {1}, 4);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "Storage size calculation overflowed with sizes=[-1] and strides=[1]");
  }
  try {
    c10::computeStorageNbytesContiguous({1LL << 40, 1LL << 40}, 4);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]");
  }
  EXPECT_EQ(c10::computeStorageNbytes({2, 3}, {1, 2}, 4), 24u);
  EXPECT_EQ(c10::computeStorageNbytes({4, 1}, {0, 5}, 8), 8u);
}

TEST(TensorImpl, VersionCounterIsSharedByViews) {
  at::Tensor base = at::detail::empty_cpu({4}, at::kFloat);
  auto view_impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(base.storage()),
                                                        base.key_set(), base.dtype());
  view_impl->set_version_counter(base.unsafeGetTensorImpl()->version_counter());
  at::Tensor view(std::move(view_impl));
  EXPECT_EQ(base._version(), 0);
  view.unsafeGetTensorImpl()->bump_version();
  EXPECT_EQ(base._version(), 1);
  EXPECT_TRUE(view.is_alias_of(base));
}

// compute_non_overlapping_and_dense sorts only the dims of size >= 2, by insertion, with no
// stable order for ties (Contiguity.cpp): it must agree with libtorch's definition, written out
// here as libtorch writes it (std::sort of all dims, sizes < 2 last, by stride; then the strides
// checked in order), on every geometry of rank 0 to 4 over small sizes and strides, ties and
// zeros included.
bool libtorch_non_overlapping_and_dense(const std::vector<int64_t>& sizes,
                                        const std::vector<int64_t>& strides) {
  const size_t dim = sizes.size();
  if (dim == 1) return sizes[0] < 2 || strides[0] == 1;
  std::vector<size_t> perm(dim);
  for (size_t i = 0; i < dim; ++i) perm[i] = i;
  std::sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t require_stride = 1;
  for (size_t i = 0; i < dim; ++i) {
    if (sizes[perm[i]] < 2) return true;
    if (strides[perm[i]] != require_stride) return false;
    require_stride *= sizes[perm[i]];
  }
  return true;
}

TEST(Contiguity, NonOverlappingAndDenseAgreesWithTheSortingDefinition) {
  struct Space {
    size_t rank;
    std::vector<int64_t> sizes, strides;
  };
  const Space spaces[] = {{0, {}, {}},
                          {1, {0, 1, 2, 3}, {0, 1, 2, 3}},
                          {2, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 6}},
                          {3, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 6, 9}},
                          {4, {1, 2, 3}, {0, 1, 2, 3, 6, 12}}};
  int64_t checked = 0, dense = 0;
  for (const Space& space : spaces) {
    const size_t ns = space.sizes.size(), nt = space.strides.size();
    size_t total = 1;
    for (size_t d = 0; d < space.rank; ++d) total *= ns * nt;
    std::vector<int64_t> sizes(space.rank), strides(space.rank);
    for (size_t code = 0; code < total; ++code) {
      size_t c = code;
      for (size_t d = 0; d < space.rank; ++d) {
        sizes[d] = space.sizes[c % ns];
        c /= ns;
        strides[d] = space.strides[c % nt];
        c /= nt;
      }
      const bool expected = libtorch_non_overlapping_and_dense(sizes, strides);
      ASSERT_EQ(c10::compute_non_overlapping_and_dense(sizes, strides), expected)
          << c10::IntArrayRef(sizes) << " " << c10::IntArrayRef(strides);
      ++checked;
      dense += expected;
    }
  }
  EXPECT_GT(checked, 100000);
  EXPECT_GT(dense, 1000);  // both answers well represented
}

}  // namespace

namespace {

TEST(TensorImpl, RemoveAutogradKeyKeepsADInplaceOrView) {
  // libtorch 1.13: DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU) becomes
  // DispatchKeySet(CPU, ADInplaceOrView, AutocastCPU).
  at::Tensor t = at::detail::empty_cpu({1}, at::kFloat);
  c10::TensorImpl* impl = t.unsafeGetTensorImpl();
  const c10::DispatchKeySet before = impl->key_set();
  ASSERT_TRUE(before.has(c10::DispatchKey::AutogradCPU));
  impl->remove_autograd_key();
  EXPECT_EQ(impl->key_set(), before - c10::autograd_dispatch_keyset);
  EXPECT_FALSE(impl->key_set().has(c10::DispatchKey::AutogradCPU));
  EXPECT_TRUE(impl->key_set().has(c10::DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(impl->key_set().has(c10::DispatchKey::CPU));
}

}  // namespace
