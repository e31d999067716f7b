// Worked numbers of seed 004 (the Chinese post on view ops) and single cases of each view
// operator, every size/stride/offset as libtorch 1.13 gives it (checked with a throwaway
// program against libtorch). The layout-parameterised tests are in Views_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "tests/TestUtils.h"

namespace {

using IntList = std::vector<int64_t>;

// 0, 1, 2, ... in a contiguous tensor of these sizes, so an element's value is its storage index.
at::Tensor iota(c10::IntArrayRef sizes) {
  at::Tensor t = at::empty(sizes, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); i++) p[i] = static_cast<float>(i);
  return t;
}

// sizes, strides, storage offset: what every view op computes.
void expect_geometry(const at::Tensor& t, IntList sizes, IntList strides, int64_t offset) {
  EXPECT_EQ(t.sizes().vec(), sizes);
  EXPECT_EQ(t.strides().vec(), strides);
  EXPECT_EQ(t.storage_offset(), offset);
}

// The storage index of each element (last dim fastest), read through data_ptr and strides.
IntList storage_indices(const at::Tensor& t) {
  IntList out;
  const float* p = t.data_ptr<float>();
  std::vector<int64_t> idx(t.dim(), 0);
  for (int64_t n = 0; n < t.numel(); n++) {
    int64_t off = 0;
    for (int64_t d = 0; d < t.dim(); d++) off += idx[d] * t.stride(d);
    out.push_back(static_cast<int64_t>(p[off]));
    for (int64_t d = t.dim() - 1; d >= 0 && ++idx[d] == t.size(d); d--) idx[d] = 0;
  }
  return out;
}

// ---- Seed 004 -------------------------------------------------------------------------------

TEST(ViewSeed004, StridesOfContiguousTensors) {
  EXPECT_EQ(iota({2, 3, 4, 5}).strides().vec(), (IntList{60, 20, 5, 1}));
  EXPECT_EQ(iota({2, 3, 5}).strides().vec(), (IntList{15, 5, 1}));
}

TEST(ViewSeed004, ViewSharesMemory) {
  // t = rand(4, 4); b = t.view(2, 8); b[0][0] = 3.14 -> t[0][0] == 3.14
  at::Tensor t = iota({4, 4});
  at::Tensor b = t.view({2, 8});
  EXPECT_EQ(t.storage().data(), b.storage().data());
  const int64_t version = t._version();
  b.select(0, 0).select(0, 0).fill_(3.14);
  EXPECT_FLOAT_EQ(t.data_ptr<float>()[0], 3.14f);
  EXPECT_EQ(t._version(), version + 1);
  // transpose is a view too, but not contiguous; contiguous() copies.
  at::Tensor base = iota({2, 2});
  at::Tensor tr = base.transpose(0, 1);
  EXPECT_TRUE(base.is_contiguous());
  EXPECT_FALSE(tr.is_contiguous());
  EXPECT_TRUE(tr.is_alias_of(base));
  at::Tensor c = tr.contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_FALSE(c.is_alias_of(base));
  EXPECT_EQ(storage_indices(c), (IntList{0, 2, 1, 3}));
}

TEST(ViewSeed004, Diagonal) {
  at::Tensor arr = iota({2, 4, 4});  // strides [16, 4, 1]
  expect_geometry(arr.diagonal(0, 1, 2), {2, 4}, {16, 5}, 0);
  expect_geometry(arr.diagonal(1, 1, 2), {2, 3}, {16, 5}, 1);
  expect_geometry(arr.diagonal(0, 0, 1), {4, 2}, {1, 20}, 0);
  // offset=-1, dim1=1, dim2=2: storage_offset -= -1 * stride[1] = 4.
  at::Tensor d = arr.diagonal(-1, 1, 2);
  expect_geometry(d, {2, 3}, {16, 5}, 4);
  // index = 4 + d1 * 16 + d2 * 5
  EXPECT_EQ(storage_indices(d), (IntList{4, 9, 14, 20, 25, 30}));
  EXPECT_FALSE(d.is_contiguous());  // contiguous strides for [2, 3] would be [3, 1]
  // Chained: .diagonal(1, 0, 1) gives [2], stride 16 + 5 = 21, offset 4 + 5 = 9.
  at::Tensor d2 = d.diagonal(1, 0, 1);
  expect_geometry(d2, {2}, {21}, 9);
  EXPECT_EQ(storage_indices(d2), (IntList{9, 30}));
  EXPECT_TRUE(d2.is_alias_of(arr));
  // An offset past the end leaves an empty diagonal at the base's offset.
  expect_geometry(arr.diagonal(5, 1, 2), {2, 0}, {16, 5}, 0);
  expect_geometry(arr.diagonal(-7, 1, 2), {2, 0}, {16, 5}, 0);
  expect_geometry(at::diagonal(arr, 0, -1, -2), {2, 4}, {16, 5}, 0);
}

TEST(ViewSeed004, Expand) {
  expect_geometry(iota({3, 1, 4}).expand({2, 3, 2, 4}), {2, 3, 2, 4}, {0, 4, 0, 1}, 0);
  at::Tensor a = iota({2, 1, 4});  // strides [4, 4, 1]
  at::Tensor e = a.expand({-1, 4, -1});
  expect_geometry(e, {2, 4, 4}, {4, 0, 1}, 0);
  expect_geometry(a.expand({2, 4, 4}), {2, 4, 4}, {4, 0, 1}, 0);
  // Each row of the expanded dim reads the same 4 elements.
  EXPECT_EQ(storage_indices(e.select(0, 1)),
            (IntList{4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7}));
  // A new leading dim of size 1 is not expanded, so it keeps a contiguous-like stride.
  expect_geometry(a.expand({1, 2, 1, 4}), {1, 2, 1, 4}, {8, 4, 4, 1}, 0);
  expect_geometry(at::scalar_tensor(5).expand({3, 2}), {3, 2}, {0, 0}, 0);
  expect_geometry(a.expand_as(iota({3, 2, 4, 4})), {3, 2, 4, 4}, {0, 4, 0, 1}, 0);
}

TEST(ViewSeed004, Narrow) {
  at::Tensor arr = iota({2, 4, 4});
  at::Tensor n = arr.narrow(1, 1, 2);  // offset += 1 * stride[1]
  expect_geometry(n, {2, 2, 4}, {16, 4, 1}, 4);
  EXPECT_EQ(storage_indices(n),
            (IntList{4, 5, 6, 7, 8, 9, 10, 11, 20, 21, 22, 23, 24, 25, 26, 27}));
  expect_geometry(at::narrow(arr, -1, -2, 2), {2, 4, 2}, {16, 4, 1}, 2);
  expect_geometry(arr.narrow(1, 4, 0), {2, 0, 4}, {16, 4, 1}, 16);  // start == size is allowed
}

TEST(ViewSeed004, Permute) {
  at::Tensor arr = iota({2, 3, 4});  // strides [12, 4, 1]
  at::Tensor p = arr.permute({2, 0, 1});
  expect_geometry(p, {4, 2, 3}, {1, 12, 4}, 0);
  EXPECT_EQ(storage_indices(p).front(), 0);
  EXPECT_EQ(storage_indices(p)[1], 4);  // one step along the new last dim = old dim 1
  expect_geometry(at::permute(arr, {-1, 0, 1}), {4, 2, 3}, {1, 12, 4}, 0);
}

TEST(ViewSeed004, Unfold) {
  at::Tensor arr = iota({2, 3, 4});
  // dim 1: (3 - 2) / 1 + 1 = 2 windows, stride 1 * 4; new last dim of size 2, stride 4.
  at::Tensor u = arr.unfold(1, 2, 1);
  expect_geometry(u, {2, 2, 4, 2}, {12, 4, 1, 4}, 0);
  EXPECT_EQ(storage_indices(u.select(0, 0).select(1, 3)), (IntList{3, 7, 7, 11}));
  expect_geometry(arr.unfold(2, 3, 2), {2, 3, 1, 3}, {12, 4, 2, 1}, 0);
  expect_geometry(arr.unfold(2, 0, 1), {2, 3, 5, 0}, {12, 4, 1, 1}, 0);
  expect_geometry(at::scalar_tensor(5).unfold(0, 1, 1), {1}, {1}, 0);
}

// ---- view and reshape: see Note [View stride computation] -------------------------------------

TEST(ViewStrides, ViewFollowsComputeStride) {
  at::Tensor t = iota({2, 3}).t();  // [3, 2] strides [1, 3]
  expect_geometry(t.view({3, 2, 1}), {3, 2, 1}, {1, 3, 3}, 0);
  expect_geometry(t.view({3, 1, 2}), {3, 1, 2}, {1, 6, 3}, 0);
  expect_geometry(iota({2, 3}).view({-1, 2}), {3, 2}, {2, 1}, 0);
  expect_geometry(at::scalar_tensor(5).view({1, 1}), {1, 1}, {1, 1}, 0);
  expect_geometry(iota({1}).view(c10::IntArrayRef{}), {}, {}, 0);
  // Only the chunks' numels matter: channels-last [2,3,4,5] merges H and W but not C.
  at::Tensor cl = at::empty({2, 3, 4, 5}, at::kFloat, at::MemoryFormat::ChannelsLast);
  expect_geometry(cl.view({2, 3, 20}), {2, 3, 20}, {60, 1, 3}, 0);
  expect_geometry(at::slice(iota({4, 6}), 1, 0, 4).view({4, 2, 2}), {4, 2, 2}, {6, 2, 1}, 0);
  expect_geometry(iota({2, 1, 4}).expand({2, 4, 4}).view({2, 2, 2, 4}), {2, 2, 2, 4}, {4, 0, 0, 1},
                  0);
  // No elements: an unchanged shape keeps its strides, another gets contiguous-like ones.
  expect_geometry(iota({4, 3}).t().narrow(0, 0, 0).view({0, 4}), {0, 4}, {1, 3}, 0);
  expect_geometry(iota({0, 3}).view({3, 0, 2}), {3, 0, 2}, {2, 2, 1}, 0);
  at::Tensor six = iota({2, 3});
  at::Tensor va = six.view_as(iota({6}));
  expect_geometry(va, {6}, {1}, 0);
  EXPECT_TRUE(va.is_alias_of(six));
}

TEST(ViewStrides, ReshapeViewsOrCopies) {
  at::Tensor a = iota({2, 3, 4});
  at::Tensor v = a.reshape({6, 4});
  expect_geometry(v, {6, 4}, {4, 1}, 0);
  EXPECT_TRUE(v.is_alias_of(a));
  at::Tensor p = a.permute({2, 0, 1});
  at::Tensor c = at::reshape(p, {24});
  expect_geometry(c, {24}, {1}, 0);
  EXPECT_FALSE(c.is_alias_of(a));
  EXPECT_EQ(storage_indices(c), storage_indices(p.contiguous()));
  const int64_t a_version = a._version();
  c.unsafeGetTensorImpl()->bump_version();  // a fresh counter, not a's
  EXPECT_EQ(a._version(), a_version);
  EXPECT_TRUE(a.reshape_as(iota({6, 4})).is_alias_of(a));
  // flatten is reshape: a view where possible, and self itself when nothing is flattened.
  expect_geometry(a.flatten(1, 2), {2, 12}, {12, 1}, 0);
  EXPECT_TRUE(a.flatten(1, 1).is_same(a));
  expect_geometry(at::flatten(at::scalar_tensor(1)), {1}, {1}, 0);
  expect_geometry(a.unflatten(2, {2, 2}), {2, 3, 2, 2}, {12, 4, 2, 1}, 0);
  expect_geometry(at::unflatten(a, -1, {-1, 2}), {2, 3, 2, 2}, {12, 4, 2, 1}, 0);
}

// ---- Single cases of the other views --------------------------------------------------------

TEST(ViewCases, SliceClampsLikePython) {
  at::Tensor a = iota({2, 4, 4});
  expect_geometry(at::slice(a, 1, 1, 3, 1), {2, 2, 4}, {16, 4, 1}, 4);
  expect_geometry(a.slice(2, 0, 4, 2), {2, 4, 2}, {16, 4, 2}, 0);
  expect_geometry(a.slice(2, -3, c10::nullopt, 2), {2, 4, 2}, {16, 4, 2}, 1);
  expect_geometry(a.slice(2, c10::nullopt, -1, 3), {2, 4, 1}, {16, 4, 3}, 0);
  expect_geometry(a.slice(1, -10, 10), {2, 4, 4}, {16, 4, 1}, 0);
  expect_geometry(a.slice(1, 3, 1), {2, 0, 4}, {16, 4, 1}, 12);
  expect_geometry(a.slice(1, 7, 9), {2, 0, 4}, {16, 4, 1}, 16);
  expect_geometry(a.slice(), {2, 4, 4}, {16, 4, 1}, 0);
}

TEST(ViewCases, SelectTransposeSqueezeUnsqueeze) {
  at::Tensor a = iota({2, 4, 4});
  expect_geometry(a.select(1, 2), {2, 4}, {16, 1}, 8);
  expect_geometry(at::select(a, -1, -1), {2, 4}, {16, 4}, 3);
  expect_geometry(a.narrow(2, 1, 2).select(0, 1).t(), {2, 4}, {1, 4}, 17);
  at::Tensor b = iota({2, 3, 4});
  expect_geometry(at::transpose(b, 0, 2), {4, 3, 2}, {1, 4, 12}, 0);
  at::Tensor same = b.transpose(1, 1);  // a new alias, not self
  expect_geometry(same, {2, 3, 4}, {12, 4, 1}, 0);
  EXPECT_FALSE(same.is_same(b));
  EXPECT_TRUE(same.is_alias_of(b));
  expect_geometry(iota({2, 3}).t(), {3, 2}, {1, 3}, 0);
  expect_geometry(at::t(iota({3})), {3}, {1}, 0);
  expect_geometry(at::scalar_tensor(1).t(), {}, {}, 0);
  at::Tensor s = iota({1, 3, 1, 2});
  expect_geometry(s.squeeze(), {3, 2}, {2, 1}, 0);
  expect_geometry(at::squeeze(s, 2), {1, 3, 2}, {6, 2, 1}, 0);
  expect_geometry(s.squeeze(1), {1, 3, 1, 2}, {6, 2, 2, 1}, 0);  // not size 1: unchanged
  expect_geometry(at::scalar_tensor(1).squeeze(0), {}, {}, 0);
  expect_geometry(b.unsqueeze(1), {2, 1, 3, 4}, {12, 12, 4, 1}, 0);
  expect_geometry(at::unsqueeze(b, -1), {2, 3, 4, 1}, {12, 4, 1, 1}, 0);
  expect_geometry(b.permute({2, 0, 1}).unsqueeze(1), {4, 1, 2, 3}, {1, 24, 12, 4}, 0);
  expect_geometry(at::scalar_tensor(1).unsqueeze(0), {1}, {1}, 0);
}

TEST(ViewCases, MovedimAndAsStrided) {
  at::Tensor b = iota({2, 3, 4});
  expect_geometry(b.movedim(0, 2), {3, 4, 2}, {4, 1, 12}, 0);
  expect_geometry(at::movedim(b, {0, 1}, {2, 0}), {3, 4, 2}, {4, 1, 12}, 0);
  expect_geometry(at::scalar_tensor(1).movedim(0, 0), {}, {}, 0);
  at::Tensor s = b.as_strided({2, 2}, {1, 2}, 3);
  expect_geometry(s, {2, 2}, {1, 2}, 3);
  EXPECT_EQ(storage_indices(s), (IntList{3, 5, 4, 6}));
  // Without an offset as_strided keeps self's, even on a view.
  expect_geometry(b.narrow(1, 1, 2).as_strided({2, 2}, {1, 2}), {2, 2}, {1, 2}, 4);
  // A view with no elements may point anywhere.
  expect_geometry(at::as_strided(b, {0, 5}, {5, 1}, 100), {0, 5}, {5, 1}, 100);
}

TEST(ViewCases, SplitChunkUnbind) {
  at::Tensor a = iota({2, 4, 4});
  auto offsets = [](const std::vector<at::Tensor>& pieces) {
    IntList out;
    for (const at::Tensor& p : pieces) out.push_back(p.storage_offset());
    return out;
  };
  auto sizes_at = [](const std::vector<at::Tensor>& pieces, int64_t dim) {
    IntList out;
    for (const at::Tensor& p : pieces) out.push_back(p.size(dim));
    return out;
  };
  EXPECT_EQ(offsets(a.split(2, 1)), (IntList{0, 8}));
  EXPECT_EQ(sizes_at(at::split(a, 3, 1), 1), (IntList{3, 1}));
  EXPECT_EQ(sizes_at(a.split(5, 1), 1), (IntList{4}));
  EXPECT_EQ(sizes_at(iota({2, 0}).split(0, 1), 1), (IntList{0}));
  EXPECT_EQ(offsets(a.split_with_sizes({1, 3}, 1)), (IntList{0, 4}));
  EXPECT_EQ(sizes_at(at::split_with_sizes(a, {1, 0, 3}, -1), 2), (IntList{1, 0, 3}));
  EXPECT_EQ(offsets(a.split_with_sizes({1, 0, 3}, -1)), (IntList{0, 1, 1}));
  EXPECT_EQ(sizes_at(a.chunk(3, 1), 1), (IntList{2, 2}));  // ceil(4 / 3) = 2 per chunk
  EXPECT_EQ(sizes_at(at::chunk(iota({2, 5}), 3, 1), 1), (IntList{2, 2, 1}));
  EXPECT_EQ(sizes_at(iota({2, 0}).chunk(3, 1), 1), (IntList{0, 0, 0}));  // still 3 pieces
  const std::vector<at::Tensor> rows = iota({2, 3, 4}).unbind(1);
  EXPECT_EQ(offsets(rows), (IntList{0, 4, 8}));
  expect_geometry(rows[2], {2, 4}, {12, 1}, 8);
  EXPECT_EQ(offsets(at::unbind(iota({2, 3, 4}), -1)), (IntList{0, 1, 2, 3}));
}

// ---- Devices and keys -----------------------------------------------------------------------

TEST(ViewMeta, ViewsOfMetaTensorsAreMetaAliases) {
  at::Tensor m = at::empty({2, 3, 4}, at::TensorOptions().device(c10::kMeta));
  for (const at::Tensor& v :
       {m.view({6, 4}), m.permute({2, 0, 1}), m.diagonal(0, 1, 2), m.unfold(2, 2, 1),
        m.as_strided({2}, {1}, 5), m.expand({5, 2, 3, 4}), m.narrow(1, 1, 2), at::alias(m)}) {
    EXPECT_TRUE(v.is_meta());
    EXPECT_TRUE(v.is_alias_of(m));
  }
  expect_geometry(m.narrow(1, 1, 2), {2, 2, 4}, {12, 4, 1}, 4);
  at::Tensor copy = m.permute({2, 0, 1}).reshape({24});
  EXPECT_TRUE(copy.is_meta());
  EXPECT_FALSE(copy.is_alias_of(m));
}

// The keys libtorch 1.13 registers each op under (CUDA aside).
TEST(ViewKeys, RegisteredUnderLibtorchsKeys) {
  using c10::DispatchKey;
  struct Row {
    const char* name;
    const char* overload;
    std::vector<DispatchKey> keys;
  };
  const DispatchKey explicit_ = DispatchKey::CompositeExplicitAutograd;
  const DispatchKey implicit = DispatchKey::CompositeImplicitAutograd;
  const std::vector<Row> rows = {
      {"aten::as_strided", "", {DispatchKey::CPU, DispatchKey::Meta}},
      {"aten::view", "", {DispatchKey::CPU, DispatchKey::Meta}},
      {"aten::unfold", "", {DispatchKey::CPU, DispatchKey::Meta}},
      {"aten::alias", "", {explicit_}},
      {"aten::permute", "", {explicit_}},
      {"aten::transpose", "int", {explicit_}},
      {"aten::t", "", {explicit_}},
      {"aten::expand", "", {explicit_}},
      {"aten::slice", "Tensor", {explicit_}},
      {"aten::select", "int", {explicit_}},
      {"aten::diagonal", "", {explicit_}},
      {"aten::squeeze", "", {explicit_}},
      {"aten::squeeze", "dim", {explicit_}},
      {"aten::unsqueeze", "", {explicit_}},
      {"aten::split", "Tensor", {explicit_}},
      {"aten::split_with_sizes", "", {explicit_}},
      {"aten::unbind", "int", {explicit_}},
      {"aten::view_as", "", {implicit}},
      {"aten::reshape", "", {implicit}},
      {"aten::reshape_as", "", {implicit}},
      {"aten::expand_as", "", {implicit}},
      {"aten::narrow", "", {implicit}},
      {"aten::flatten", "using_ints", {implicit}},
      {"aten::unflatten", "int", {implicit}},
      {"aten::movedim", "int", {implicit}},
      {"aten::movedim", "intlist", {implicit}},
      {"aten::chunk", "", {implicit}},
  };
  for (const Row& row : rows) {
    auto op = c10::Dispatcher::singleton().findSchemaOrThrow(row.name, row.overload);
    for (DispatchKey k : row.keys) {
      EXPECT_TRUE(op.hasKernelForDispatchKey(k)) << row.name << "." << row.overload << " " << k;
    }
    for (DispatchKey k : {explicit_, implicit}) {
      if (std::find(row.keys.begin(), row.keys.end(), k) == row.keys.end()) {
        EXPECT_FALSE(op.hasKernelForDispatchKey(k)) << row.name << "." << row.overload << " " << k;
      }
    }
  }
}

// The backend kernels are device-independent geometry, so CUDA tensors get them too (libtorch
// registers its CUDA backend for these three as well).
TEST(ViewKeys, BackendKernelsServeCuda) {
#ifndef MINIATEN_HAVE_CUDA
  GTEST_SKIP() << "a build without CUDA registers nothing on the CUDA key";
#endif
  for (const char* name : {"aten::as_strided", "aten::view", "aten::unfold"}) {
    EXPECT_TRUE(c10::Dispatcher::singleton().findSchemaOrThrow(name, "").hasKernelForDispatchKey(
        c10::DispatchKey::CUDA))
        << name;
  }
}

// An empty tensor whose leading sizes multiply past INT64_MAX before the 0 (libtorch allows it
// too): view's stride computation stays defined (found by fuzz_view under UBSan).
TEST(ViewGeometry, ViewOfAnEmptyTensorWithAHugeSizePrefix) {
  const at::Tensor t = at::empty({2650023987789118028, 5, 0});
  EXPECT_EQ(t.numel(), 0);
  const at::Tensor v = t.view({0, 5});
  EXPECT_EQ(v.sizes(), c10::IntArrayRef({0, 5}));
  EXPECT_EQ(v.strides(), c10::IntArrayRef({5, 1}));
  EXPECT_TRUE(v.is_alias_of(t));
}

// Sizes of an empty tensor may multiply past int64 (libtorch allows it): its contiguous strides,
// flatten's sizes, expand's new strides, channels-last strides and the iterator's output all
// wrap modulo 2^64, and each result is the one libtorch 1.13 gives (found by fuzz_view under
// UBSan; Note [Geometry that wraps as libtorch's does]).
TEST(ViewGeometry, EmptyTensorsWithHugeSizesGetLibtorchsWrappedGeometry) {
  using test_util::error_of;
  const int64_t huge = 2650023850346696169;      // times 5 passes INT64_MAX
  const int64_t wrapped = -5196624821976070771;  // huge * 5 modulo 2^64
  const at::Tensor t = at::empty({2, 0, huge, 5});
  EXPECT_EQ(t.strides(), c10::IntArrayRef({wrapped, wrapped, 5, 1}));
  // libtorch 1.13 reaches its own internal assert here ("Expected !is_symbolic() to be true"):
  // it takes the negative size for a symbolic one. miniaten names the size.
  EXPECT_EQ(error_of([&] { t.flatten(2, 3); }), "invalid shape dimension -5196624821976070771");
  const at::Tensor f = t.flatten(0, 2);
  EXPECT_EQ(f.sizes(), c10::IntArrayRef({0, 5}));
  EXPECT_EQ(f.strides(), c10::IntArrayRef({5, 1}));

  const int64_t two62 = int64_t{1} << 62;
  const at::Tensor u = at::empty({0, two62, 4});
  const at::Tensor g = u.flatten(1, 2);  // 2^64 wraps to 0
  EXPECT_EQ(g.sizes(), c10::IntArrayRef({0, 0}));
  EXPECT_EQ(g.strides(), c10::IntArrayRef({1, 1}));
  EXPECT_EQ(u.sum(1).sizes(), c10::IntArrayRef({0, 4}));
  EXPECT_EQ(u.mean(c10::IntArrayRef{1, 2}).sizes(), c10::IntArrayRef({0}));
  const at::Tensor sum = at::add(u, 1);
  EXPECT_EQ(sum.sizes(), u.sizes());
  EXPECT_EQ(sum.strides(), c10::IntArrayRef({0, 4, 1}));
  EXPECT_EQ(error_of([&] {
              at::empty({two62, 4, 0}).permute({2, 0, 1}).contiguous();
            }),
            "Storage size calculation overflowed with sizes=[4611686018427387904, 4, 0]");

  const int64_t two40 = int64_t{1} << 40;
  const at::Tensor cl = at::empty({0, two40, two40, two40}, at::MemoryFormat::ChannelsLast);
  EXPECT_EQ(cl.strides(), c10::IntArrayRef({0, 1, 0, two40}));

  // A new leading dim's stride is the product of the next dim's size and stride.
  const int64_t big = 2650023987785649641;  // times 6 passes INT64_MAX
  const at::Tensor e = at::empty({big, 6, 0});
  EXPECT_EQ(e.strides(), c10::IntArrayRef({6, 1, 1}));
  EXPECT_EQ(error_of([&] { e.expand({3, big, 6, 0}); }), "numel: integer multiplication overflow");
  // Here the empty tensor's own stride wrapped negative; libtorch's as_strided refuses it.
  EXPECT_EQ(error_of([&] {
              at::empty({0, big, 6}).expand({3, 0, big, 6});
            }),
            "as_strided: Negative strides are not supported at the moment, got strides: "
            "[0, -2546600146995653770, 6, 1]");

  const at::Tensor c = at::empty({0, two62, 4}, at::kComplexFloat);
  const at::Tensor r = at::view_as_real(c);
  EXPECT_EQ(r.sizes(), c10::IntArrayRef({0, two62, 4, 2}));
  EXPECT_EQ(r.strides(), c10::IntArrayRef({0, 8, 2, 1}));
}

// An empty tensor's untyped data pointer is null, whatever its offset, as libtorch's data() is.
TEST(ViewGeometry, AnEmptyTensorsDataPointerIsNull) {
  const at::Tensor base = at::empty({4});
  const at::Tensor far = base.as_strided({0}, {1}, int64_t{1} << 62);
  EXPECT_EQ(far.storage_offset(), int64_t{1} << 62);
  EXPECT_EQ(far.data_ptr(), nullptr);
  EXPECT_EQ(base.slice(0, 1, 1).data_ptr(), nullptr);
  EXPECT_EQ(base.slice(0, 1, 2).data_ptr(), base.data_ptr<float>() + 1);
}

// Sizes whose product only wraps to numel ([3, 2^62 + 1, 4] for 12 elements) reach view's
// stride computation before its numel check refuses them; a size-1 dim's stride may be anything.
// The products stay defined and the results are libtorch 1.13's (found by fuzz_view under UBSan).
TEST(ViewGeometry, SizesThatWrapToNumelAndHugeSize1StridesAsLibtorch) {
  using test_util::error_of;
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t wraps = (int64_t{1} << 62) + 1;
  const at::Tensor t = at::arange(12.);
  EXPECT_EQ(error_of([&] { t.reshape({3, wraps, 4}); }), "numel: integer multiplication overflow");
  EXPECT_EQ(error_of([&] { t.view({3, wraps, 4}); }), "numel: integer multiplication overflow");
  const at::Tensor a = t.as_strided({12, 1}, {1, max}).reshape({1, 12, 1});
  EXPECT_EQ(a.strides(), c10::IntArrayRef({12, 1, max}));
  const at::Tensor b = t.as_strided({1, 12, 1}, {max, 1, max}).reshape({12, 1, 1});
  EXPECT_EQ(b.strides(), c10::IntArrayRef({1, max, max}));
  const at::Tensor c = t.as_strided({12, 1}, {1, max}).view({3, 4, 1});
  EXPECT_EQ(c.strides(), c10::IntArrayRef({4, 1, max}));
  EXPECT_TRUE(c.is_alias_of(t));
}

// An empty tensor viewed with huge sizes gets contiguous strides that wrap (2 * INT64_MAX is -2,
// as in libtorch); selecting along such a stride would step the offset below 0. libtorch's
// as_strided refuses that, and so does select (fuzz_view found the negative offset).
TEST(ViewGeometry, SelectCannotStepTheOffsetBelowZero) {
  constexpr int64_t max = std::numeric_limits<int64_t>::max();
  const at::Tensor e = at::empty({0}).reshape({0, max, 2, max});
  EXPECT_EQ(e.numel(), 0);
  EXPECT_LT(e.stride(1), 0);
  EXPECT_EQ(test_util::error_of([&] { e.select(1, 8); }), "Tensor: invalid storage offset -16");
  EXPECT_EQ(e.select(1, 0).storage_offset(), 0);
}

}  // namespace
