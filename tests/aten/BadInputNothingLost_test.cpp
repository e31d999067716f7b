// What a refused call leaves behind (its arguments as they were) and what a view keeps alive
// after the user's handles are gone. Part of the bad-input inventory: see tests/aten/BadInput.h.

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "aten/ATen.h"
#include "tests/aten/BadInput.h"

namespace {

using namespace bad_input;

// ---- Nothing lost: a refused call leaves its arguments as they were -------------------------

// Everything a caller could observe of a tensor: geometry, storage, version and values.
struct Snapshot {
  explicit Snapshot(const at::Tensor& t)
      : sizes(t.sizes().vec()),
        strides(t.strides().vec()),
        storage_offset(t.storage_offset()),
        data(t.data_ptr()),
        version(t._version()),
        values(t.clone()) {}
  void expect_same_as(const at::Tensor& t) const {
    EXPECT_EQ(t.sizes().vec(), sizes);
    EXPECT_EQ(t.strides().vec(), strides);
    EXPECT_EQ(t.storage_offset(), storage_offset);
    EXPECT_EQ(t.data_ptr(), data);
    EXPECT_EQ(t._version(), version);
    EXPECT_TRUE(at::equal(t.as_strided(sizes, strides, storage_offset), values));
  }
  std::vector<int64_t> sizes, strides;
  int64_t storage_offset;
  void* data;
  int64_t version;
  at::Tensor values;
};

void expect_refused_and_unchanged(at::Tensor t, const std::function<void(at::Tensor&)>& call) {
  const Snapshot before(t);
  EXPECT_THROW(call(t), c10::Error);
  before.expect_same_as(t);
}

// libtorch 1.13 has already changed self when some of these checks fail: resize_ has set the
// sizes ([-1], with numel 6), the memory-format cases have resized, and set_ has swapped in the
// source's storage (see Note [A refused resize_ or set_ changes nothing]).
TEST(BadInputNothingLost, ResizeAndSet) {
  const at::Tensor source = at::arange(6, at::kFloat);
  expect_refused_and_unchanged(f23(), [](at::Tensor& t) { t.resize_({-1}); });
  expect_refused_and_unchanged(f23(), [](at::Tensor& t) { t.resize_({kMax, 2}); });
  expect_refused_and_unchanged(f23(),
                               [](at::Tensor& t) { t.resize_({4}, at::MemoryFormat::Preserve); });
  expect_refused_and_unchanged(
      f23(), [](at::Tensor& t) { t.resize_({4}, at::MemoryFormat::ChannelsLast); });
  expect_refused_and_unchanged(f23(), [&](at::Tensor& t) { t.set_(source, -1, {2}, {1}); });
  expect_refused_and_unchanged(f23(), [&](at::Tensor& t) { t.set_(source, 0, {-1}, {1}); });
  expect_refused_and_unchanged(f23(), [&](at::Tensor& t) { t.set_(source, 0, {2, 2}, {1}); });
  expect_refused_and_unchanged(f23(), [](at::Tensor& t) { t.set_(m23()); });
  expect_refused_and_unchanged(f23(), [](at::Tensor& t) { t.set_(l23()); });
  at::Tensor t = f23();
  EXPECT_THROW(t.set_(source, -1, {2}, {1}), c10::Error);
  EXPECT_FALSE(t.is_alias_of(source));
}

TEST(BadInputNothingLost, InPlaceAndOutArguments) {
  expect_refused_and_unchanged(l23(), [](at::Tensor& t) { t.add_(f23()); });
  expect_refused_and_unchanged(l23(), [](at::Tensor& t) { t.div_(2); });
  expect_refused_and_unchanged(f23(), [](at::Tensor& t) { t.mul_(at::zeros({4})); });
  expect_refused_and_unchanged(f23(), [](at::Tensor& t) { t.copy_(at::zeros({4})); });
  expect_refused_and_unchanged(f23(), [](at::Tensor& t) { t.fill_(1e300); });
  expect_refused_and_unchanged(f23(), [](at::Tensor& t) { t.add_(m23()); });
  expect_refused_and_unchanged(f23(), [](at::Tensor& t) { t.bitwise_and_(l23()); });
  expect_refused_and_unchanged(b23(), [](at::Tensor& t) { t.neg_(); });
  expect_refused_and_unchanged(at::empty({2, 3}, at::kLong),
                               [](at::Tensor& out) { at::add_out(out, f23(), f23()); });
  expect_refused_and_unchanged(at::arange(8, at::kFloat),
                               [](at::Tensor& a) { a.narrow(0, 1, 4).copy_(a.narrow(0, 0, 4)); });
  at::Tensor base = at::zeros({1});
  const int64_t version = base._version();
  EXPECT_THROW(base.expand({4}).add_(1), c10::Error);
  EXPECT_EQ(base.item<float>(), 0.f);
  EXPECT_EQ(base._version(), version);
}

// ---- Freed handles: views keep their storage alive --------------------------------------------

TEST(BadInputFreedHandles, ViewsOutliveTheirBase) {
  at::Tensor base = at::arange(12, at::kFloat).view({3, 4});
  const float* data = base.data_ptr<float>();
  at::Tensor row = base.select(0, 1);
  at::Tensor column = base.t().select(0, 2);
  std::vector<at::Tensor> parts = base.split(1, 0);
  at::Tensor wide = base.select(1, 0).unsqueeze(1).expand({3, 5});
  at::Tensor strided = base.as_strided({2, 2}, {5, 1}, 1);
  base.reset();  // the user's handle goes; the storage stays while a view holds it
  EXPECT_FALSE(base.defined());
  EXPECT_EQ(row.data_ptr<float>(), data + 4);
  EXPECT_EQ(desc(row), "Float[4][1] {4 5 6 7}");
  EXPECT_EQ(desc(column), "Float[3][4] {2 6 10}");
  EXPECT_EQ(desc(parts[2]), "Float[1, 4][4, 1] {8 9 10 11}");
  EXPECT_EQ(desc(wide), "Float[3, 5][4, 0] {0 0 0 0 0 4 4 4 4 4 8 8 8 8 8}");
  EXPECT_EQ(desc(strided), "Float[2, 2][5, 1] {1 2 6 7}");
  // They still share it: a write through one view is seen through the others.
  row.fill_(-1);
  EXPECT_TRUE(row.is_alias_of(parts[1]));
  EXPECT_EQ(desc(parts[1]), "Float[1, 4][4, 1] {-1 -1 -1 -1}");
  EXPECT_EQ(desc(strided), "Float[2, 2][5, 1] {1 2 -1 -1}");
  EXPECT_EQ(desc(wide.select(1, 4)), "Float[3][4] {0 -1 8}");
}

TEST(BadInputFreedHandles, StorageOutlivesItsLastTensor) {
  at::Tensor t = f23();
  c10::Storage storage = t.storage();
  const void* data = t.data_ptr();
  t.reset();
  EXPECT_EQ(storage.nbytes(), 24u);
  EXPECT_EQ(storage.data(), data);
  EXPECT_EQ(static_cast<const float*>(storage.data())[5], 5.f);
}

// A moved-from tensor is undefined (using it is an error, in the table above) and takes a new
// value like any other; views of the moved tensor follow it to its new handle.
TEST(BadInputFreedHandles, MovedFromTensor) {
  at::Tensor a = f23();
  at::Tensor view = a.view({6});
  at::Tensor b = std::move(a);
  EXPECT_FALSE(a.defined());  // NOLINT(bugprone-use-after-move): that is the point
  EXPECT_TRUE(view.is_alias_of(b));
  a = at::ones({2});
  EXPECT_EQ(a.sum().item<float>(), 2.f);
  EXPECT_EQ(desc(view), "Float[6][1] {0 1 2 3 4 5}");
}

// What autograd saved keeps the tensors it needs after the user drops every handle to them.
TEST(BadInputFreedHandles, SavedTensorsOutliveTheUsersHandles) {
  at::Tensor x = f4().requires_grad_();
  at::Tensor w = at::full({4}, 3.f);
  at::Tensor y = (x * w).sum();
  w.reset();
  y.backward();
  EXPECT_EQ(desc(x.grad()), "Float[4][1] {3 3 3 3}");
}

}  // namespace
