// The GPU's gather, scatter, scatter_add_, index and index_put_ without a GPU: each op's plan
// (IndexedCopy.h: the restrided operands, the iterator, the index terms; the same functions the
// CUDA path calls) run with the kernel's body (cuda/IndexedCopyBody.h) over every thread on the
// CPU, against the CPU ops, over layouts and dtypes; the index checks' texts; and the lane
// arithmetic of the narrow atomic add, lane by lane. What only a GPU checks (the launch, the
// atomics themselves) is in CUDAIndexingOps_test.cpp.

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "HostLauncher.h"
#include "TestUtils.h"
#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/native/IndexedCopy.h"
#include "aten/native/IndexingUtils.h"
#include "aten/native/cuda/IndexedCopyBody.h"

namespace {

namespace gpu = at::native::gpu;
using at::native::IndexedCopyPlan;
using IndexList = c10::List<c10::optional<at::Tensor>>;

// The kernel's moves, on the host: a copy of the element's bytes, or the add the GPU does
// atomically (a narrow element through its 32-bit word, as the compare-and-swap does).
void copy_on_host(IndexedCopyPlan plan) {
  gpu::with_element_copy(c10::elementSize(plan.iter.dtype(0)), [&](auto copy) {
    gpu::indexed_copy<test_util::HostLauncher>(plan.iter, plan.terms, copy);
  });
}

template <typename T>
struct AddOnHost {
  void operator()(char* dst, const char* src) const {
    const T value = *reinterpret_cast<const T*>(src);
    if constexpr (sizeof(T) <= 2) {
      const auto addr = reinterpret_cast<uintptr_t>(dst);
      auto* word = reinterpret_cast<uint32_t*>(addr & ~static_cast<uintptr_t>(3));
      *word = gpu::word_with_sum(*word, gpu::word_shift(addr), value);
    } else {
      *reinterpret_cast<T*>(dst) = at::native::add_values(*reinterpret_cast<T*>(dst), value);
    }
  }
};

void add_on_host(IndexedCopyPlan plan) {
  AT_DISPATCH_ALL_TYPES_AND3(at::kHalf, at::kBFloat16, at::kBool, plan.iter.dtype(0), "add", [&] {
    gpu::indexed_copy<test_util::HostLauncher>(plan.iter, plan.terms, AddOnHost<scalar_t>{});
  });
}

// A tensor whose storage has 4 spare bytes past its last element: the narrow add reads the
// whole 32-bit word around an element, which on the GPU always lies inside the allocation.
at::Tensor padded(const at::Tensor& t) {
  const int64_t spare = 4;
  at::Tensor storage = at::zeros({t.numel() + spare}, t.options());
  at::Tensor result = storage.narrow(0, 0, t.numel()).view(t.sizes());
  result.copy_(t);
  return result;
}

at::Tensor values(at::IntArrayRef sizes, at::ScalarType dtype, int seed) {
  at::manual_seed(seed);
  // Small integers: every dtype holds them exactly, so sums in any order agree.
  return at::randint(-4, 5, sizes, at::TensorOptions().dtype(at::kLong)).to(dtype);
}

// Positions along `dim` for an index of `sizes`, each below `bound`; distinct along dim when
// `distinct` (a scatter's positions must not repeat for its result to be defined).
at::Tensor positions(at::IntArrayRef sizes, int64_t dim, int64_t bound, bool distinct, int seed) {
  at::manual_seed(seed);
  if (!distinct) return at::randint(0, bound, sizes, at::TensorOptions().dtype(at::kLong));
  // One permutation's first entries along dim, shifted (mod bound) by a random amount per line.
  std::vector<int64_t> along(sizes.size(), 1), line(sizes.begin(), sizes.end());
  along[static_cast<size_t>(dim)] = sizes[static_cast<size_t>(dim)];
  line[static_cast<size_t>(dim)] = 1;
  const at::Tensor perm = at::randperm(bound).narrow(0, 0, sizes[static_cast<size_t>(dim)]);
  const at::Tensor shift = at::randint(0, bound, line, at::TensorOptions().dtype(at::kLong));
  return perm.view(along).add(shift).remainder(bound).contiguous();
}

const std::vector<at::ScalarType> kDtypes = {at::kFloat, at::kDouble, at::kHalf,  at::kBFloat16,
                                             at::kLong,  at::kInt,    at::kShort, at::kChar,
                                             at::kByte,  at::kBool};

TEST(GpuIndexedCopy, GatherAndScatterMatchTheCpuOverDimsLayoutsAndDtypes) {
  for (at::ScalarType dtype : kDtypes) {
    const at::Tensor base = values({4, 5, 6}, dtype, 1);
    // A contiguous self, a transposed one and a stepped slice.
    const std::vector<at::Tensor> selves = {base, base.transpose(0, 2).contiguous().transpose(0, 2),
                                            values({4, 10, 6}, dtype, 2).slice(1, 0, 10, 2)};
    for (const at::Tensor& self : selves) {
      for (int64_t dim = 0; dim < 3; ++dim) {
        SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim));
        std::vector<int64_t> sizes = {3, 4, 5};
        sizes[static_cast<size_t>(dim)] = 4;
        const at::Tensor index = positions(sizes, dim, self.size(dim), false, 3);
        const at::Tensor expected = at::gather(self, dim, index);
        at::Tensor result = at::empty(index.sizes(), self.options());
        copy_on_host(at::native::plan_gather(self, dim, index, result));
        EXPECT_TRUE(at::equal(result, expected));
        // A transposed index reads through its strides.
        const at::Tensor t_index = index.transpose(0, 1).contiguous().transpose(0, 1);
        at::Tensor t_result = at::empty(index.sizes(), self.options());
        copy_on_host(at::native::plan_gather(self, dim, t_index, t_result));
        EXPECT_TRUE(at::equal(t_result, expected));

        // scatter_ with distinct positions, from a larger src, and scatter_add_ with repeats.
        const at::Tensor distinct = positions(sizes, dim, self.size(dim), true, 4);
        const at::Tensor src = values({4, 5, 6}, dtype, 5);
        at::Tensor into = self.clone();
        copy_on_host(at::native::plan_scatter(into, dim, distinct, src));
        EXPECT_TRUE(at::equal(into, self.clone().scatter_(dim, distinct, src)));
        at::Tensor sums = padded(self);
        add_on_host(at::native::plan_scatter(sums, dim, index, src));
        EXPECT_TRUE(at::equal(sums, self.clone().scatter_add_(dim, index, src)));
      }
    }
  }
}

TEST(GpuIndexedCopy, ScatterOfAValueAndZeroDimTensors) {
  const at::Tensor self = values({3, 4}, at::kFloat, 6);
  const at::Tensor index = positions({2, 4}, 0, 3, true, 7);
  at::Tensor into = self.clone();
  const at::Tensor value = at::full({}, 2.5, self.options()).expand(index.sizes());
  copy_on_host(at::native::plan_scatter(into, 0, index, value));
  EXPECT_TRUE(at::equal(into, self.clone().scatter_(0, index, 2.5)));

  // 0-dim self and index (each seen as [1]).
  const at::Tensor scalar = at::scalar_tensor(7.0);
  const at::Tensor zero = at::scalar_tensor(0, at::kLong);
  at::Tensor gathered = at::empty({}, scalar.options());
  copy_on_host(at::native::plan_gather(scalar, 0, zero, gathered));
  EXPECT_TRUE(at::equal(gathered, at::gather(scalar, 0, zero)));
  at::Tensor sum = scalar.clone();
  add_on_host(at::native::plan_scatter(sum, 0, zero, at::scalar_tensor(2.0)));
  EXPECT_EQ(sum.item<double>(), 9.0);
}

TEST(GpuIndexedCopy, IndexAndIndexPutMatchTheCpu) {
  const at::Tensor nums = at::tensor({2, -1, 0, 3, -4}, at::kLong);
  for (at::ScalarType dtype : kDtypes) {
    SCOPED_TRACE(c10::toString(dtype));
    const at::Tensor self = values({4, 5, 6}, dtype, 8);
    const at::Tensor transposed = self.transpose(0, 2);  // [6, 5, 4], not contiguous
    const at::Tensor rows = at::tensor({3, 0, -1, 2}, at::kLong);
    const at::Tensor cols = at::tensor({1, 3, 2}, at::kLong).view({3, 1});  // broadcast [3, 4]
    const std::vector<std::pair<at::Tensor, IndexList>> cases = {
        {self, IndexList({rows})},                                // first dim
        {self, IndexList({c10::nullopt, nums.narrow(0, 1, 4)})},  // a middle dim
        {self, IndexList({cols, rows})},                          // adjacent, broadcast
        {self, IndexList({rows.view({1, 4}), c10::nullopt, at::tensor({5, 0, -6, 1}, at::kLong)})},
        {self, IndexList({self.select(2, 0) > 0})},  // a 2-dim mask
        {transposed, IndexList({at::tensor({5, 0, 1, 1}, at::kLong), c10::nullopt, rows})},
    };
    for (size_t c = 0; c < cases.size(); ++c) {
      SCOPED_TRACE("case " + std::to_string(c));
      const at::Tensor& src = cases[c].first;
      const IndexList& indices = cases[c].second;
      const at::Tensor expected = at::index(src, indices);
      at::Tensor result = at::empty(expected.sizes(), src.options());
      copy_on_host(at::native::plan_index(src, indices, result));
      EXPECT_TRUE(at::equal(result, expected));

      // index_put_ with accumulate, where positions repeat.
      const at::Tensor put = values(expected.sizes(), dtype, 9);
      at::Tensor sums = padded(src);
      add_on_host(at::native::plan_index_put(sums, indices, put));
      EXPECT_TRUE(at::equal(sums, at::index_put(src, indices, put, true)));
    }
    // index_put_ without accumulate, at distinct rows, into a transposed self.
    at::Tensor into = transposed.clone(at::MemoryFormat::Preserve);
    const at::Tensor put = values({3, 5, 4}, dtype, 10);
    const IndexList distinct({at::tensor({4, 0, -1}, at::kLong)});
    copy_on_host(at::native::plan_index_put(into, distinct, put));
    EXPECT_TRUE(at::equal(into, at::index_put(transposed, distinct, put)));
  }
}

TEST(GpuIndexedCopy, OneElementPickedByIndicesOfDifferentStrides) {
  // Each index has one element, with its own stride: the iterator keeps a dim of size 1 whose
  // strides differ, and the kernel's shared offset is still right.
  const at::Tensor square = at::arange(25, at::kFloat).view({5, 5});
  const IndexList single(
      {at::arange(10, at::kLong).slice(0, 0, 10, 3).narrow(0, 1, 1), at::tensor({2}, at::kLong)});
  at::Tensor result = at::empty({1});
  copy_on_host(at::native::plan_index(square, single, result));
  EXPECT_TRUE(at::equal(result, at::index(square, single)));
  EXPECT_EQ(result.item<float>(), 17.0f);
}

TEST(GpuIndexedCopy, PlansWhoseCallerKnowsTheBoundsSkipTheCheck) {
  // index_add_ off the CPU checks its index against [0, size) itself, then runs index_put_'s
  // accumulating plan along dim without index_put_'s own check (one read back, not two);
  // masked_select and masked_scatter_ index with positions made from the mask.
  const at::Tensor self = values({4, 5, 3}, at::kFloat, 11);
  const at::Tensor index = at::tensor({4, 0, 4, 2}, at::kLong);
  const at::Tensor source = values({4, 4, 3}, at::kFloat, 12);
  const IndexList along_1({c10::nullopt, index});
  at::Tensor sums = padded(self);
  add_on_host(
      at::native::plan_index_put(sums, along_1, source, at::native::IndexBounds::CheckedByCaller));
  EXPECT_TRUE(at::equal(sums, at::index_add(self, 1, index, source)));
  // masked_select's plan: the mask's own positions, with no check.
  const at::Tensor mask = self.select(2, 1) > 0.5;
  const IndexList positions({at::nonzero(mask.reshape({-1})).view({-1})});
  at::Tensor picked = at::empty({positions.get(0)->numel()});
  copy_on_host(at::native::plan_index(self.select(2, 1).reshape({-1}), positions, picked,
                                      at::native::IndexBounds::CheckedByCaller));
  EXPECT_TRUE(at::equal(picked, at::masked_select(self.select(2, 1), mask)));
  // Only the default plan reads the values back: an index of 5 is not looked at otherwise.
  const IndexList outside({c10::nullopt, at::tensor({5, 0, 1, 2}, at::kLong)});
  at::Tensor into = self.clone();
  EXPECT_EQ(test_util::error_of([&] { at::native::plan_index_put(into, outside, source); }),
            "index 5 is out of bounds for dimension 0 with size 5");
  EXPECT_NO_THROW(
      at::native::plan_index_put(into, outside, source, at::native::IndexBounds::CheckedByCaller));
}

TEST(GpuIndexedCopy, IndexValuesAreCheckedWithTheCpuTexts) {
  const at::Tensor self = at::zeros({3, 4});
  const at::Tensor bad = at::tensor({0, 1, 3, 2, 5, 0, 0, 0}, at::kLong).view({2, 4});
  at::Tensor result = at::empty({2, 4});
  EXPECT_EQ(test_util::error_of([&] { at::native::plan_gather(self, 0, bad, result); }),
            "index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(test_util::error_of([&] { at::native::plan_scatter(result, 1, bad, self); }),
            "index 5 is out of bounds for dimension 1 with size 4");
  const at::Tensor negative = at::tensor({0, -1, 0, 0}, at::kLong).view({1, 4});
  EXPECT_EQ(test_util::error_of([&] { at::native::plan_gather(self, 0, negative, result); }),
            "index -1 is out of bounds for dimension 0 with size 3");
  // Advanced indexing takes negatives down to -size; its text names the index's position.
  const IndexList indices({at::tensor({-3, 2}, at::kLong), at::tensor({1, -5}, at::kLong)});
  at::Tensor picked = at::empty({2});
  EXPECT_EQ(test_util::error_of([&] { at::native::plan_index(self, indices, picked); }),
            "index -5 is out of bounds for dimension 1 with size 4");
  EXPECT_EQ(test_util::error_of([&] { (void)at::index(self, indices); }),
            "index -5 is out of bounds for dimension 1 with size 4");
}

TEST(GpuIndexedCopy, NarrowLanesAddInTheirOwnBytes) {
  // Every lane of a word, for each narrow type: the sum lands in the lane, the others keep
  // their bytes.
  const uint32_t word = 0xA1B2C3D4u;
  for (uint32_t lane = 0; lane < 4; ++lane) {
    const uint32_t shift = gpu::word_shift(0x1000 + lane);
    EXPECT_EQ(shift, lane * 8);
    const auto before = gpu::lane_of<uint8_t>(word, shift);
    const uint32_t after = gpu::word_with_sum<uint8_t>(word, shift, uint8_t{0x7F});
    EXPECT_EQ(gpu::lane_of<uint8_t>(after, shift), static_cast<uint8_t>(before + 0x7F));
    EXPECT_EQ(after & ~(0xFFu << shift), word & ~(0xFFu << shift));
    const uint32_t signed_after = gpu::word_with_sum<int8_t>(word, shift, int8_t{-100});
    EXPECT_EQ(gpu::lane_of<int8_t>(signed_after, shift),
              static_cast<int8_t>(gpu::lane_of<int8_t>(word, shift) - 100));
    EXPECT_EQ(gpu::lane_of<bool>(gpu::word_with_sum<bool>(0u, shift, true), shift), true);
  }
  for (uint32_t lane = 0; lane < 2; ++lane) {
    const uint32_t shift = gpu::word_shift(0x1000 + 2 * lane);
    EXPECT_EQ(shift, lane * 16);
    const uint32_t with_half = gpu::with_lane(word, shift, c10::Half(1.5f));
    const uint32_t summed = gpu::word_with_sum(with_half, shift, c10::Half(2.25f));
    EXPECT_EQ(static_cast<float>(gpu::lane_of<c10::Half>(summed, shift)), 3.75f);
    EXPECT_EQ(summed & ~(0xFFFFu << shift), word & ~(0xFFFFu << shift));
    const uint32_t bf = gpu::with_lane(word, shift, c10::BFloat16(-2.0f));
    EXPECT_EQ(static_cast<float>(gpu::lane_of<c10::BFloat16>(
                  gpu::word_with_sum(bf, shift, c10::BFloat16(0.5f)), shift)),
              -1.5f);
    // int16 wraps as the CPU's add does.
    const uint32_t big = gpu::with_lane(word, shift, int16_t{32767});
    EXPECT_EQ(gpu::lane_of<int16_t>(gpu::word_with_sum(big, shift, int16_t{1}), shift),
              int16_t{-32768});
  }
}

}  // namespace
