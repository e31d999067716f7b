// libtorch's C++ indexing API (aten/TensorIndexing.h): which entries give views of self and which
// copies, writes through index_put_ reaching self, every index dtype and layout, the
// torch::indexing spelling. Values and error texts against libtorch are in the probe
// (tests/compat/probes/model_ops_probe.cpp, section 17).

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "aten/ATen.h"
#include "aten/Torch.h"

namespace {

using at::Tensor;
using namespace at::indexing;

Tensor longs(std::vector<int64_t> values) {
  return at::tensor(values, at::kLong);
}

TEST(TensorIndexing, IntegersSlicesNoneEllipsisAreViews) {
  const Tensor x = at::arange(24.0).view({2, 3, 4});
  for (const Tensor& v :
       {x.index({1}), x.index({Slice(), Slice(1, None)}), x.index({"...", Slice(None, None, 2)}),
        x.index({None, 0, None}), x.index({Ellipsis, 1}), x.index({Ellipsis})}) {
    EXPECT_TRUE(v.is_alias_of(x));
  }
  const Tensor col = x.index({0, Slice(), 2});
  EXPECT_EQ(col.sizes(), c10::IntArrayRef({3}));
  EXPECT_EQ(col.strides(), c10::IntArrayRef({4}));
  EXPECT_EQ(col.storage_offset(), 2);
  // x[...] is a new handle on the same elements, not x itself.
  EXPECT_FALSE(x.index({Ellipsis}).is_same(x));
}

TEST(TensorIndexing, TensorsGiveCopiesInNumpysLayout) {
  const Tensor x = at::arange(24.0).view({2, 3, 4});
  const Tensor picked = x.index({Slice(), longs({2, 0})});
  EXPECT_FALSE(picked.is_alias_of(x));
  EXPECT_EQ(picked.sizes(), c10::IntArrayRef({2, 2, 4}));
  EXPECT_TRUE(at::equal(picked[1][0], x[1][2]));
  // Non-adjacent tensor indices: the broadcast index dims come first.
  const Tensor apart = x.index({longs({1, 0}), Slice(), longs({3, 1})});
  EXPECT_EQ(apart.sizes(), c10::IntArrayRef({2, 3}));
  EXPECT_TRUE(at::equal(apart[0], x.select(0, 1).select(1, 3)));
  // A transposed index tensor reads what its contiguous copy reads; int32 indices are refused
  // (libtorch 1.13 takes Long, Byte and Bool only).
  const Tensor index = longs({0, 3, 1, 2}).view({2, 2}).t();
  EXPECT_TRUE(at::equal(x.index({0, 0, index}), x.index({0, 0, index.contiguous()})));
  EXPECT_THROW(x.index({0, 0, index.to(at::kInt)}), c10::IndexError);
  // A transposed self.
  const Tensor xt = x.transpose(0, 2);
  EXPECT_TRUE(at::equal(xt.index({longs({3, 0}), 1}), xt.contiguous().index({longs({3, 0}), 1})));
}

TEST(TensorIndexing, IndexPutWritesSelfThroughViews) {
  Tensor x = at::zeros({3, 4});
  x.index_put_({Slice(), 1}, 5);  // a view: copied into
  x.index_put_({x.lt(1)}, -1.0);  // a mask: index_put_
  EXPECT_EQ(x.sum().item<double>(), 3 * 5 - 9);
  // Through a transposed view, with an index tensor, into the base.
  Tensor base = at::zeros({4, 3});
  Tensor view = base.t();
  view.index_put_({Slice(), longs({0, 3})}, at::ones({3, 2}));
  EXPECT_EQ(base.sum().item<double>(), 6);
  EXPECT_TRUE(at::equal(base[3], at::ones({3})));
  EXPECT_GE(base._version(), 1);
}

TEST(TensorIndexing, TorchNamespaceAndPrinting) {
  const Tensor x = at::arange(6.0).view({2, 3});
  EXPECT_TRUE(
      at::equal(x.index({torch::indexing::Slice(1, torch::indexing::None)}), x.narrow(0, 1, 1)));
  std::ostringstream os;
  os << Slice(1, None, 2) << " " << TensorIndex(Ellipsis) << " " << TensorIndex(None) << " "
     << TensorIndex(true);
  EXPECT_EQ(os.str(), "1:9223372036854775807:2 ... None true");
}

}  // namespace
