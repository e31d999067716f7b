// View operators (aten/native/TensorShape.cpp, TensorShapeSlicing.cpp): every view is checked
// for its sizes, strides and storage offset, for sharing its base's storage and version counter,
// and element by element against a naive index mapping, over the layouts of STYLE.md rule 9.
// The worked numbers of seed 004 are in ViewGeometry_test.cpp, the error texts in
// ViewErrors_test.cpp. All three pass unchanged when built against libtorch 1.13 (a CPU-only
// libtorch lacks only the CUDA registrations that ViewKeys.BackendKernelsServeCuda checks).

#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "tests/TestUtils.h"

namespace {

using Index = std::vector<int64_t>;
using IntList = std::vector<int64_t>;

IntList vec(c10::IntArrayRef a) {
  return a.vec();
}

// Calls f(index) for every index of `sizes`, last dim fastest.
void for_each_index(c10::IntArrayRef sizes, const std::function<void(const Index&)>& f) {
  for (int64_t s : sizes) {
    if (s == 0) return;
  }
  Index idx(sizes.size(), 0);
  while (true) {
    f(idx);
    int64_t d = static_cast<int64_t>(sizes.size()) - 1;
    for (; d >= 0 && ++idx[d] == sizes[d]; --d) idx[d] = 0;
    if (d < 0) return;
  }
}

// The element at a logical index, read through data_ptr and the strides.
float element(const at::Tensor& t, const Index& idx) {
  int64_t offset = 0;
  for (size_t d = 0; d < idx.size(); d++) offset += idx[d] * t.stride(static_cast<int64_t>(d));
  return t.data_ptr<float>()[offset];
}

// Expects view[i] == base[to_base(i)] for every index i of the view.
void expect_elements(const at::Tensor& view, const at::Tensor& base,
                     const std::function<Index(Index)>& to_base) {
  for_each_index(view.sizes(), [&](const Index& i) {
    ASSERT_EQ(element(view, i), element(base, to_base(i)))
        << "at view index " << c10::IntArrayRef(i);
  });
}

// A view shares the base's storage and its version counter: a write through it is seen by both.
void expect_view_of(const at::Tensor& view, const at::Tensor& base) {
  EXPECT_TRUE(view.is_alias_of(base));
  EXPECT_FALSE(view.is_same(base));
  EXPECT_EQ(view.key_set(), base.key_set());
  EXPECT_EQ(view.dtype(), base.dtype());
  const int64_t before = base._version();
  view.unsafeGetTensorImpl()->bump_version();
  EXPECT_EQ(base._version(), before + 1);
  EXPECT_EQ(view._version(), base._version());
}

// ---- Layouts --------------------------------------------------------------------------------

// A float tensor whose storage holds 0, 1, 2, ... (distinct values, written via data_ptr).
at::Tensor iota_storage(c10::IntArrayRef sizes,
                        c10::MemoryFormat format = c10::MemoryFormat::Contiguous) {
  at::Tensor t = at::empty(sizes, at::kFloat, format);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); i++) p[i] = static_cast<float>(i);
  return t;
}

struct Layout {
  std::string name;
  std::function<at::Tensor()> make;
  IntList sizes, strides;
  int64_t storage_offset;
  bool viewable_as_1d;  // view(-1) works without a copy
};

std::ostream& operator<<(std::ostream& os, const Layout& l) {
  return os << l.name;
}

const std::vector<Layout>& layouts() {
  static const std::vector<Layout> all = {
      {"contiguous",
       [] {
         return iota_storage({2, 3, 4, 5});
       },
       {2, 3, 4, 5},
       {60, 20, 5, 1},
       0,
       true},
      {"channels_last",
       [] {
         return iota_storage({2, 3, 4, 5}, c10::MemoryFormat::ChannelsLast);
       },
       {2, 3, 4, 5},
       {60, 1, 15, 3},
       0,
       false},
      {"permuted",
       [] {
         return iota_storage({4, 5, 2, 3}).permute({2, 3, 0, 1});
       },
       {2, 3, 4, 5},
       {3, 1, 30, 6},
       0,
       false},
      {"sliced",
       [] {
         return at::slice(iota_storage({2, 3, 4, 8}), 3, 1, 6);
       },
       {2, 3, 4, 5},
       {96, 32, 8, 1},
       1,
       false},
      {"expanded",
       [] {
         return iota_storage({2, 1, 4, 5}).expand({2, 3, 4, 5});
       },
       {2, 3, 4, 5},
       {20, 0, 5, 1},
       0,
       false},
      {"zero_size",
       [] {
         return iota_storage({2, 0, 4, 5});
       },
       {2, 0, 4, 5},
       {20, 20, 5, 1},
       0,
       true},
      {"zero_dim", [] { return iota_storage({}); }, {}, {}, 0, true},
  };
  return all;
}

class ViewLayouts : public ::testing::TestWithParam<Layout> {
 protected:
  void SetUp() override {
    base = GetParam().make();
    ndim = base.dim();
  }
  at::Tensor base;
  int64_t ndim = 0;
};

TEST_P(ViewLayouts, LayoutIsAsDescribed) {
  EXPECT_EQ(vec(base.sizes()), GetParam().sizes);
  EXPECT_EQ(vec(base.strides()), GetParam().strides);
  EXPECT_EQ(base.storage_offset(), GetParam().storage_offset);
}

TEST_P(ViewLayouts, AliasAndAsStridedKeepTheGeometry) {
  for (const at::Tensor& v :
       {at::alias(base), base.as_strided(base.sizes(), base.strides()),
        at::as_strided(base, base.sizes(), base.strides(), base.storage_offset())}) {
    EXPECT_EQ(v.sizes(), base.sizes());
    EXPECT_EQ(v.strides(), base.strides());
    EXPECT_EQ(v.storage_offset(), base.storage_offset());
    expect_view_of(v, base);
    expect_elements(v, base, [](Index i) { return i; });
  }
}

TEST_P(ViewLayouts, TransposeSwapsSizesAndStrides) {
  at::Tensor v = base.transpose(0, -1);
  IntList sizes = vec(base.sizes()), strides = vec(base.strides());
  if (ndim > 0) {
    std::swap(sizes.front(), sizes.back());
    std::swap(strides.front(), strides.back());
  }
  EXPECT_EQ(vec(v.sizes()), sizes);
  EXPECT_EQ(vec(v.strides()), strides);
  EXPECT_EQ(v.storage_offset(), base.storage_offset());
  expect_view_of(v, base);
  expect_elements(v, base, [](Index i) {
    if (!i.empty()) std::swap(i.front(), i.back());
    return i;
  });
}

TEST_P(ViewLayouts, PermuteReordersDims) {
  IntList dims(ndim);
  std::iota(dims.rbegin(), dims.rend(), 0);  // reversed: [3, 2, 1, 0]
  at::Tensor v = at::permute(base, dims);
  for (int64_t i = 0; i < ndim; i++) {
    EXPECT_EQ(v.size(i), base.size(dims[i]));
    EXPECT_EQ(v.stride(i), base.stride(dims[i]));
  }
  expect_view_of(v, base);
  expect_elements(v, base, [&](const Index& i) {
    Index in(i.size());
    for (size_t k = 0; k < i.size(); k++) in[dims[k]] = i[k];
    return in;
  });
  EXPECT_EQ(v.permute(dims).strides(), base.strides());  // reversing twice is the identity
}

TEST_P(ViewLayouts, MovedimIsAPermutation) {
  at::Tensor v = base.movedim(0, -1);
  IntList order(ndim);
  std::iota(order.begin(), order.end(), 1);
  if (ndim > 0) order.back() = 0;  // [1, 2, 3, 0]
  EXPECT_EQ(v.sizes(), at::permute(base, order).sizes());
  EXPECT_EQ(v.strides(), at::permute(base, order).strides());
  expect_view_of(v, base);
}

TEST_P(ViewLayouts, UnsqueezeThenSqueezeRoundTrips) {
  at::Tensor u = base.unsqueeze(0);
  EXPECT_EQ(u.dim(), ndim + 1);
  EXPECT_EQ(u.size(0), 1);
  // The stride a contiguous dim would have there: size[0] * stride[0], or 1 at the end.
  EXPECT_EQ(u.stride(0), ndim == 0 ? 1 : base.size(0) * base.stride(0));
  EXPECT_EQ(u.is_contiguous(), base.is_contiguous());
  expect_view_of(u, base);
  expect_elements(u, base, [](Index i) { return Index(i.begin() + 1, i.end()); });

  at::Tensor s = u.squeeze(0);
  EXPECT_EQ(s.sizes(), base.sizes());
  EXPECT_EQ(s.strides(), base.strides());
  EXPECT_EQ(s.storage_offset(), base.storage_offset());
  expect_view_of(s, base);

  at::Tensor all = base.unsqueeze(-1).squeeze();  // drops every size-1 dim
  for (int64_t size : all.sizes()) EXPECT_NE(size, 1);
  expect_view_of(all, base);
}

TEST_P(ViewLayouts, NarrowSelectSliceMoveTheOffset) {
  if (ndim == 0) {  // the texts are checked in ViewErrors_test.cpp
    EXPECT_THROW(base.narrow(0, 0, 1), c10::Error);
    EXPECT_THROW(base.select(0, 0), c10::IndexError);
    EXPECT_THROW(base.slice(0, 0, 1), c10::IndexError);
    return;
  }
  const int64_t off = base.storage_offset(), s0 = base.stride(0);

  at::Tensor n = base.narrow(0, 1, 1);
  EXPECT_EQ(n.size(0), 1);
  EXPECT_EQ(n.strides(), base.strides());
  EXPECT_EQ(n.storage_offset(), off + s0);
  expect_view_of(n, base);
  expect_elements(n, base, [](Index i) {
    i[0] += 1;
    return i;
  });

  at::Tensor sel = base.select(0, -1);
  EXPECT_EQ(vec(sel.sizes()), IntList(base.sizes().begin() + 1, base.sizes().end()));
  EXPECT_EQ(sel.storage_offset(), off + (base.size(0) - 1) * s0);
  expect_view_of(sel, base);
  expect_elements(sel, base, [&](Index i) {
    i.insert(i.begin(), base.size(0) - 1);
    return i;
  });

  at::Tensor sl = base.slice(-1, 1, c10::nullopt, 2);  // [1::2] of the last dim
  EXPECT_EQ(sl.size(-1), base.size(-1) / 2);
  EXPECT_EQ(sl.stride(-1), 2 * base.stride(-1));
  EXPECT_EQ(sl.storage_offset(), off + base.stride(-1));
  expect_view_of(sl, base);
  expect_elements(sl, base, [](Index i) {
    i.back() = 1 + 2 * i.back();
    return i;
  });
}

TEST_P(ViewLayouts, DiagonalJoinsTwoDims) {
  if (ndim < 2) {
    EXPECT_THROW(base.diagonal(), c10::IndexError);  // dim 1 out of range
    return;
  }
  for (int64_t offset : {-1, 0, 2}) {
    at::Tensor d = base.diagonal(offset, 0, -1);
    const int64_t rows = base.size(0), cols = base.size(-1);
    const int64_t len = std::max<int64_t>(
        offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols), 0);
    EXPECT_EQ(d.size(-1), len);
    EXPECT_EQ(d.stride(-1), base.stride(0) + base.stride(-1));
    expect_view_of(d, base);
    expect_elements(d, base, [&](const Index& i) {
      Index in(i.begin(), i.end() - 1);
      const int64_t k = i.back();
      in.insert(in.begin(), k + std::max<int64_t>(-offset, 0));
      in.push_back(k + std::max<int64_t>(offset, 0));
      return in;
    });
  }
}

TEST_P(ViewLayouts, UnfoldMakesWindows) {
  const int64_t dim = ndim == 0 ? 0 : ndim - 1;
  const int64_t size = ndim == 0 ? 1 : 2, step = ndim == 0 ? 1 : 2;
  at::Tensor u = base.unfold(-1, size, step);
  EXPECT_EQ(u.dim(), ndim + 1);
  EXPECT_EQ(u.size(-1), size);
  EXPECT_EQ(u.stride(-1), ndim == 0 ? 1 : base.stride(dim));
  if (ndim > 0) {
    EXPECT_EQ(u.size(dim), (base.size(dim) - size) / step + 1);
    EXPECT_EQ(u.stride(dim), step * base.stride(dim));
  }
  expect_view_of(u, base);
  expect_elements(u, base, [&](Index i) {
    const int64_t within = i.back();
    i.pop_back();
    if (!i.empty()) i[dim] = i[dim] * step + within;
    return i;
  });
}

TEST_P(ViewLayouts, ExpandAddsStrideZeroDims) {
  IntList target = vec(base.sizes());
  target.insert(target.begin(), 3);
  at::Tensor e = base.expand(target);
  EXPECT_EQ(vec(e.sizes()), target);
  EXPECT_EQ(e.stride(0), 0);
  EXPECT_EQ(vec(e.strides()).size(), target.size());
  for (int64_t d = 1; d <= ndim; d++) EXPECT_EQ(e.stride(d), base.stride(d - 1));
  expect_view_of(e, base);
  expect_elements(e, base, [](Index i) { return Index(i.begin() + 1, i.end()); });
  at::Tensor again = base.expand_as(e);
  EXPECT_EQ(again.strides(), e.strides());
}

TEST_P(ViewLayouts, ViewOnlyWhereStridesAllowReshapeElseCopies) {
  const Index sizes = vec(base.sizes());
  // Logical (row-major) position -> base index.
  auto unravel = [&](int64_t linear) {
    Index idx(sizes.size());
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; d--) {
      idx[d] = linear % sizes[d];
      linear /= sizes[d];
    }
    return idx;
  };
  at::Tensor r = base.reshape({-1});
  EXPECT_EQ(vec(r.sizes()), IntList{base.numel()});
  expect_elements(r, base, [&](const Index& i) { return unravel(i[0]); });
  if (GetParam().viewable_as_1d) {
    expect_view_of(r, base);
    at::Tensor v = base.view({-1});
    EXPECT_EQ(v.strides(), r.strides());
    expect_view_of(v, base);
    EXPECT_EQ(base.flatten().storage_offset(), base.storage_offset());
  } else {
    EXPECT_FALSE(r.is_alias_of(base));  // a fresh contiguous copy
    EXPECT_TRUE(r.is_contiguous());
    EXPECT_EQ(r.storage_offset(), 0);
    EXPECT_THROW(base.view({-1}), c10::Error);
    EXPECT_FALSE(base.flatten().is_alias_of(base));
  }
}

TEST_P(ViewLayouts, SplitChunkUnbindAreViewsAlongDim0) {
  if (ndim == 0) {
    EXPECT_THROW(base.split(1), c10::Error);
    EXPECT_THROW(base.chunk(2), c10::Error);
    EXPECT_THROW(base.unbind(0), c10::IndexError);
    return;
  }
  const int64_t s0 = base.stride(0);
  std::vector<std::vector<at::Tensor>> lists = {base.split(1), base.chunk(2), base.unbind(0),
                                                base.split_with_sizes({1, 1})};
  for (const auto& pieces : lists) {
    ASSERT_EQ(pieces.size(), 2u);
    for (int64_t k = 0; k < 2; k++) {
      const at::Tensor& p = pieces[k];
      EXPECT_EQ(p.storage_offset(), base.storage_offset() + k * s0);
      expect_view_of(p, base);
      const bool dropped = p.dim() < ndim;  // unbind drops dim 0, the others keep it at size 1
      expect_elements(p, base, [&](Index i) {
        if (dropped)
          i.insert(i.begin(), k);
        else
          i[0] += k;
        return i;
      });
    }
  }
}

TEST_P(ViewLayouts, ChainsOfViewsKeepTheOffsetAndTheVersion) {
  if (ndim < 2) {  // a shorter chain
    at::Tensor v = base.unsqueeze(0).expand({2}).select(0, 1).view({1});
    EXPECT_EQ(v.storage_offset(), base.storage_offset());
    expect_view_of(v, base);
    expect_elements(v, base, [](const Index&) { return Index{}; });
    return;
  }
  at::Tensor a = base.select(0, 1);              // offset + stride(0)
  at::Tensor b = a.transpose(0, -1);             // base's last dim first
  at::Tensor c = b.narrow(0, 1, b.size(0) - 1);  // offset + stride(-1)
  EXPECT_EQ(c.storage_offset(), base.storage_offset() + base.stride(0) + base.stride(-1));
  // Each view aliases the base, not just its parent, and all share one version counter.
  for (const at::Tensor& v : {a, b, c}) expect_view_of(v, base);
  expect_view_of(base, c);
  expect_elements(c, base, [&](const Index& i) {
    Index in(ndim);
    in[0] = 1;
    in[ndim - 1] = i[0] + 1;
    if (ndim > 2) {
      in[1] = i.back();
      for (int64_t k = 2; k < ndim - 1; k++) in[k] = i[k - 1];
    }
    return in;
  });
}

INSTANTIATE_TEST_SUITE_P(Layouts, ViewLayouts, ::testing::ValuesIn(layouts()),
                         [](const ::testing::TestParamInfo<Layout>& info) {
                           return info.param.name;
                         });

// The overloads libtorch code reaches for: narrow with a 0-dim tensor start, split with a list
// of sizes, and where as a method of the values (x.where(cond, y)).
TEST(ViewOverloads, NarrowTensorStartSplitSizesWhereMethod) {
  at::Tensor t = at::arange(12, at::kFloat).view({4, 3});
  at::Tensor rows = t.narrow(0, at::scalar_tensor(1, at::kLong), 2);
  EXPECT_EQ(rows.sizes().vec(), IntList({2, 3}));
  EXPECT_EQ(rows.storage_offset(), 3);
  EXPECT_TRUE(rows.is_alias_of(t));
  EXPECT_EQ(test_util::error_of([&] { t.narrow(0, at::scalar_tensor(1.0), 2); }),
            "start must be an 0-dim integral Tensor.");
  EXPECT_EQ(test_util::error_of([&] { t.narrow(0, at::arange(1), 2); }),
            "start must be an 0-dim integral Tensor.");

  std::vector<at::Tensor> pieces = t.split({1, 3}, 0);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[1].sizes().vec(), IntList({3, 3}));
  EXPECT_EQ(pieces[1].storage_offset(), 3);
  EXPECT_EQ(t.split(2).size(), 2u);  // the int overload still wins for a bare int

  at::Tensor cond = t > 5;
  at::Tensor picked = t.where(cond, at::zeros({4, 3}));
  EXPECT_EQ(picked[0][2].item<float>(), 0.f);
  EXPECT_EQ(picked[2][0].item<float>(), 6.f);
}

// Every cached layout fact of `view` equals the one computed from scratch for the same geometry
// (as_strided makes a fresh TensorImpl): for the views that derive their flags from their base's.
void expect_flags_as_computed_afresh(const at::Tensor& view) {
  const at::Tensor fresh = view.as_strided(view.sizes(), view.strides(), view.storage_offset());
  SCOPED_TRACE(::testing::Message() << view.sizes() << " " << view.strides());
  EXPECT_EQ(view.numel(), fresh.numel());
  EXPECT_EQ(view.is_contiguous(), fresh.is_contiguous());
  EXPECT_EQ(view.is_non_overlapping_and_dense(), fresh.is_non_overlapping_and_dense());
  for (auto format : {at::MemoryFormat::ChannelsLast, at::MemoryFormat::ChannelsLast3d}) {
    EXPECT_EQ(view.is_contiguous(format), fresh.is_contiguous(format));
  }
  EXPECT_EQ(view.suggest_memory_format(), fresh.suggest_memory_format());
  EXPECT_EQ(view.suggest_memory_format(/*channels_last_strides_exact_match=*/true),
            fresh.suggest_memory_format(true));
}

// permute, transpose, squeeze and unsqueeze carry non-overlapping-and-dense over from their
// base instead of recomputing it (TensorImpl::set_sizes_and_strides_reordered): every flag
// must equal the one computed from scratch for the same geometry (as_strided).
TEST(ViewFlags, ReorderedViewsAgreeWithAFreshComputation) {
  const std::vector<at::Tensor> bases = {
      at::ones({2, 3, 4, 5}),
      at::ones({2, 3, 4, 5}).contiguous(at::MemoryFormat::ChannelsLast),
      at::ones({2, 3, 4, 5}).narrow(2, 1, 2),         // not dense
      at::ones({2, 1, 4, 1}).expand({2, 3, 4, 5}),   // overlapping
      at::ones({2, 1, 4, 4}).contiguous(at::MemoryFormat::ChannelsLast),  // ambiguous
      at::ones({2, 3, 0, 5}),                        // empty
  };
  const auto check = expect_flags_as_computed_afresh;
  for (const at::Tensor& base : bases) {
    check(base.permute({3, 1, 0, 2}));
    check(base.permute({0, 2, 3, 1}));
    check(base.transpose(1, 3));
    check(base.unsqueeze(0));
    check(base.unsqueeze(4).squeeze(4));
    check(base.squeeze());
  }
}

// expand skips the flag computation when its elements repeat (see Note [Layout flags of a
// broadcast view]): its flags must equal the ones computed from scratch, whether it repeats or
// not, at every rank, and for empty results.
TEST(ViewFlags, ExpandedViewsAgreeWithAFreshComputation) {
  struct Case {
    at::Tensor base;
    IntList size;
  };
  const std::vector<Case> cases = {
      {at::ones({8, 1, 32}), {4, 8, 16, 32}},                         // the benchmark's
      {at::ones({1, 3, 1, 1}), {2, 3, 4, 5}},                         // per-channel bias
      {at::ones({2, 1, 4, 1}).contiguous(at::MemoryFormat::ChannelsLast), {2, 3, 4, 5}},
      {at::ones({2, 3, 1, 5}).contiguous(at::MemoryFormat::ChannelsLast), {2, 3, 4, 5}},
      {at::ones({2, 1, 4, 1}).contiguous(at::MemoryFormat::ChannelsLast), {2, 1, 4, 1}},  // no repeat
      {at::ones({3, 1}), {1, 1, 3, 1}},                               // new size-1 dims only
      {at::ones({1, 3, 1, 1, 1}), {2, 3, 4, 5, 6}},                   // rank 5
      {at::ones({2, 3, 1, 1, 1}).contiguous(at::MemoryFormat::ChannelsLast3d), {2, 3, 2, 2, 2}},
      {at::ones({1}), {0, 4}},                                        // empty: numel 0
      {at::ones({2, 1, 3}), {2, 0, 3}},                               // empty by a size-1 dim
      {at::ones({}), {2, 3}},                                         // a scalar
      {at::ones({}), {1, 1}},                                         // a scalar, no repeat
      {at::ones({4, 6}).t().narrow(0, 1, 3).unsqueeze(1), {3, 5, 4}}, // strided base
  };
  for (const Case& c : cases) {
    const at::Tensor view = c.base.expand(c.size);
    EXPECT_EQ(view.sizes(), c10::IntArrayRef(c.size));
    EXPECT_TRUE(view.is_alias_of(c.base));
    expect_flags_as_computed_afresh(view);
  }
}

// slice (and narrow, split, chunk) derives numel and, below rank 4, the layout flags from its
// base's (Note [Layout flags of a slice]): every flag must equal the one computed from scratch
// for the same geometry, on every dim of bases that are contiguous, dense but permuted, not
// dense, overlapping, carrying size-1 dims with odd strides, or empty, for many bounds and steps.
TEST(ViewFlags, SlicesAgreeWithAFreshComputation) {
  const std::vector<at::Tensor> bases = {
      at::ones({8, 16, 32}),                                  // the benchmark's
      at::ones({5}),
      at::ones({1}),
      at::ones({3, 4}),
      at::ones({3, 4}).t(),                                    // dense, not contiguous
      at::ones({1, 4}),
      at::ones({4, 1}).t(),                                    // size-1 dim, odd stride
      at::ones({2, 1, 3}).as_strided({2, 1, 3}, {3, 7, 1}),   // size-1 dim, big stride
      at::ones({3, 4, 5}).permute({2, 0, 1}),
      at::ones({3, 4, 5}).permute({1, 2, 0}),
      at::ones({6, 8}).narrow(1, 2, 4),                        // not dense
      at::ones({6, 8}).narrow(0, 1, 4),                        // contiguous, offset
      at::ones({4, 6}).t().narrow(0, 1, 3),
      at::ones({3, 1}).expand({3, 4}),                         // overlapping
      at::ones({1, 5}).expand({2, 5}),
      at::ones({4, 3}).as_strided({4, 3}, {2, 1}),             // overlapping, no stride 0
      at::ones({2, 0, 3}),                                     // empty
      at::ones({3, 3}).narrow(1, 0, 1).expand({3, 2}),
      at::ones({2, 3, 4, 5}),                                  // rank 4: the general path
      at::ones({2, 3, 4, 5}).contiguous(at::MemoryFormat::ChannelsLast),
      at::ones({2, 1, 4, 4}).contiguous(at::MemoryFormat::ChannelsLast),  // ambiguous
      at::ones({2, 3, 2, 2, 2}).contiguous(at::MemoryFormat::ChannelsLast3d),
  };
  const std::vector<std::pair<c10::optional<int64_t>, c10::optional<int64_t>>> bounds = {
      {c10::nullopt, c10::nullopt}, {0, 1}, {1, 2}, {0, 2}, {1, c10::nullopt}, {2, -1},
      {-1, c10::nullopt}, {3, 3}, {0, 100}, {5, 1},
  };
  int checked = 0;
  for (const at::Tensor& base : bases) {
    for (int64_t dim = 0; dim < base.dim(); ++dim) {
      for (const auto& b : bounds) {
        for (int64_t step : {1, 2, 3}) {
          const at::Tensor view = at::slice(base, dim, b.first, b.second, step);
          SCOPED_TRACE(::testing::Message() << "slice of " << base.sizes() << base.strides()
                                            << " at dim " << dim);
          EXPECT_TRUE(view.is_alias_of(base));
          expect_flags_as_computed_afresh(view);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 1680);
}

}  // namespace
