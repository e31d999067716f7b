// The indexing operators on CUDA tensors (issue 16): gather, scatter, scatter_add_, index,
// index_put_, index_add_ (and so embedding's backward), nonzero, masked_select, masked_scatter_,
// equal, and binary_cross_entropy, each compared with the same call on the CPU (sizes, strides,
// dtype, values, error texts) over layouts and dtypes, and their gradients. Skipped without a
// device; GpuIndexedCopy_test.cpp runs the same plans with the kernel's body on the CPU in CI.

#include <string>
#include <vector>

#include "CUDATestUtils.h"
#include "TestUtils.h"

#define EXPECT_THROW_MSG(expr, msg) \
  EXPECT_EQ(test_util::error_of([&] { (void)(expr); }), std::string(msg))

namespace {

using cuda_test::matches;
using cuda_test::same_layout_on_device;
using IndexList = c10::List<c10::optional<at::Tensor>>;

// Small integers: every dtype holds them exactly, so sums in any order agree.
at::Tensor ints(at::IntArrayRef sizes, at::ScalarType dtype) {
  return at::randint(-4, 5, sizes, at::TensorOptions().dtype(at::kLong)).to(dtype);
}

IndexList on_device(const IndexList& indices) {
  IndexList result;
  for (size_t i = 0; i < indices.size(); ++i) {
    const c10::optional<at::Tensor> t = indices.get(i);
    result.push_back(t.has_value() ? c10::optional<at::Tensor>(t->cuda()) : c10::nullopt);
  }
  return result;
}

const std::vector<at::ScalarType> kDtypes = {at::kFloat, at::kDouble, at::kHalf,  at::kBFloat16,
                                             at::kLong,  at::kInt,    at::kShort, at::kChar,
                                             at::kByte,  at::kBool};

TEST(CUDAIndexingOps, GatherScatterAndScatterAddOverLayoutsAndDtypes) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(21);
  for (at::ScalarType dtype : kDtypes) {
    const at::Tensor x = ints({4, 5, 6}, dtype);
    for (const at::Tensor& self :
         {x, x.transpose(0, 2), ints({4, 10, 6}, dtype).slice(1, 0, 10, 2)}) {
      for (int64_t dim = 0; dim < 3; ++dim) {
        SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim));
        std::vector<int64_t> sizes = {3, 4, 3};
        sizes[static_cast<size_t>(dim)] = 5;
        const at::Tensor index = at::randint(0, self.size(dim), sizes, at::kLong);
        const at::Tensor gself = same_layout_on_device(self);
        EXPECT_TRUE(matches(at::gather(self, dim, index), at::gather(gself, dim, index.cuda())));
        // scatter_add_ with repeated positions (atomics on the device).
        const at::Tensor src = ints({5, 5, 6}, dtype);
        at::Tensor sums = gself.clone(at::MemoryFormat::Preserve);
        sums.scatter_add_(dim, index.cuda(), src.cuda());
        EXPECT_TRUE(
            matches(self.clone(at::MemoryFormat::Preserve).scatter_add_(dim, index, src), sums));
        // scatter of a value writes the same value wherever positions repeat.
        EXPECT_TRUE(
            matches(at::scatter(self, dim, index, 3), at::scatter(gself, dim, index.cuda(), 3)));
      }
    }
    // scatter_ of a src at distinct positions: a permutation of each row.
    const at::Tensor perm = at::randperm(6).view({1, 6}).expand({4, 6}).contiguous();
    const at::Tensor rows = ints({4, 6}, dtype);
    const at::Tensor src = ints({4, 6}, dtype);
    EXPECT_TRUE(matches(at::scatter(rows, 1, perm, src),
                        at::scatter(rows.cuda(), 1, perm.cuda(), src.cuda())));
  }
  const at::Tensor self = at::zeros({3, 4}).cuda();
  const at::Tensor bad = at::tensor({0, 3, 1}, at::kLong).view({3, 1}).cuda();
  EXPECT_THROW_MSG(at::gather(self, 0, bad),
                   "index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_THROW_MSG(self.clone().scatter_(1, at::full({1, 1}, 4, at::kLong).cuda(), 1.0),
                   "index 4 is out of bounds for dimension 1 with size 4");
  EXPECT_THROW_MSG(at::gather(self, 0, bad.cpu()),
                   "Expected all tensors to be on the same device, but found at least two "
                   "devices, cuda:0 and cpu! (when checking argument for argument index in method "
                   "wrapper_CUDA_gather)");
}

TEST(CUDAIndexingOps, IndexAndIndexPutWithEveryKindOfIndex) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(22);
  for (at::ScalarType dtype : kDtypes) {
    SCOPED_TRACE(c10::toString(dtype));
    const at::Tensor self = ints({4, 5, 6}, dtype);
    const at::Tensor t = self.transpose(0, 2);
    const at::Tensor rows = at::tensor({3, 0, -1, 2}, at::kLong);
    const std::vector<std::pair<at::Tensor, IndexList>> cases = {
        {self, IndexList({rows})},
        {self, IndexList({c10::nullopt, at::tensor({-1, 0, 3, -4}, at::kLong)})},
        {self, IndexList({at::tensor({1, 3, 2}, at::kLong).view({3, 1}), rows})},
        {self, IndexList({rows.view({1, 4}), c10::nullopt, at::tensor({5, 0, -6, 1}, at::kLong)})},
        {self, IndexList({self.select(2, 0).to(at::kFloat) > 0})},
        {t, IndexList({at::tensor({5, 0, 1, 1}, at::kLong), c10::nullopt, rows})},
    };
    for (size_t c = 0; c < cases.size(); ++c) {
      SCOPED_TRACE("case " + std::to_string(c));
      const at::Tensor& src = cases[c].first;
      const at::Tensor gsrc = same_layout_on_device(src);
      const at::Tensor expected = at::index(src, cases[c].second);
      EXPECT_TRUE(matches(expected, at::index(gsrc, on_device(cases[c].second))));
      // CPU indices with a CUDA self are moved to the device, as in libtorch.
      EXPECT_TRUE(matches(expected, at::index(gsrc, cases[c].second)));
      const at::Tensor put = ints(expected.sizes(), dtype);
      EXPECT_TRUE(matches(at::index_put(src, cases[c].second, put, true),
                          at::index_put(gsrc, on_device(cases[c].second), put.cuda(), true)));
    }
    // Without accumulate, at distinct positions, into a transposed self; a 0-dim CPU value.
    const IndexList distinct({at::tensor({4, 0, -1}, at::kLong)});
    const at::Tensor put = ints({3, 5, 4}, dtype);
    at::Tensor into = same_layout_on_device(t);
    into.index_put_(on_device(distinct), put.cuda());
    EXPECT_TRUE(matches(t.clone(at::MemoryFormat::Preserve).index_put_(distinct, put), into));
    into.index_put_(on_device(distinct), at::scalar_tensor(1, at::TensorOptions().dtype(dtype)));
    EXPECT_TRUE(
        matches(t.clone(at::MemoryFormat::Preserve)
                    .index_put_(distinct, at::scalar_tensor(1, at::TensorOptions().dtype(dtype))),
                into));
  }
  // One element picked by indices of different strides (a size-1 dim keeps any stride).
  const at::Tensor square = ints({5, 5}, at::kFloat);
  const IndexList single(
      {at::arange(10, at::kLong).slice(0, 0, 10, 3).narrow(0, 0, 1), at::tensor({2}, at::kLong)});
  EXPECT_TRUE(matches(at::index(square, single), at::index(square.cuda(), on_device(single))));
  const at::Tensor g = at::zeros({3, 4}).cuda();
  EXPECT_THROW_MSG(at::index(at::zeros({3, 4}), IndexList({at::tensor({0}, at::kLong).cuda()})),
                   "indices should be either on cpu or on the same device as the indexed tensor "
                   "(cpu)");
  EXPECT_THROW_MSG(at::index(g, IndexList({at::tensor({0, 3}, at::kLong).cuda()})),
                   "index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_THROW_MSG(at::index_put(g, IndexList({at::tensor({0}, at::kLong)}), at::ones({4})),
                   "expected device cuda:0 but got device cpu for value tensor");
}

TEST(CUDAIndexingOps, IndexAddAndEmbeddingBackward) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(23);
  for (at::ScalarType dtype : kDtypes) {
    const at::Tensor self = ints({5, 4, 3}, dtype);
    for (int64_t dim = 0; dim < 3; ++dim) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " dim " + std::to_string(dim));
      const at::Tensor index = at::randint(0, self.size(dim), {6}, at::kLong);
      std::vector<int64_t> sizes = self.sizes().vec();
      sizes[static_cast<size_t>(dim)] = 6;
      const at::Tensor source = ints(sizes, dtype);
      EXPECT_TRUE(matches(at::index_add(self, dim, index, source),
                          at::index_add(self.cuda(), dim, index.cuda(), source.cuda())));
      EXPECT_TRUE(
          matches(at::index_add(self, dim, index.to(at::kInt), source),
                  at::index_add(self.cuda(), dim, index.to(at::kInt).cuda(), source.cuda())));
      {  // alpha in self's dtype (for Bool, an and), into a transposed self
        at::Tensor t = same_layout_on_device(self.transpose(0, 2));
        const at::Tensor cpu = self.transpose(0, 2).clone(at::MemoryFormat::Preserve);
        const int64_t tdim = 2 - dim;
        std::vector<int64_t> tsizes = cpu.sizes().vec();
        tsizes[static_cast<size_t>(tdim)] = 6;
        const at::Tensor tsource = ints(tsizes, dtype);
        t.index_add_(tdim, index.cuda(), tsource.cuda(), 2);
        EXPECT_TRUE(
            matches(cpu.clone(at::MemoryFormat::Preserve).index_add_(tdim, index, tsource, 2), t));
      }
    }
  }
  EXPECT_THROW_MSG(at::index_add(at::zeros({3}).cuda(), 0, at::tensor({3}, at::kLong).cuda(),
                                 at::ones({1}).cuda()),
                   "index out of range in self");

  // embedding's backward adds rows with index_add_: repeated ids, padding_idx, scale by freq.
  const at::Tensor weight = at::randn({10, 4});
  const at::Tensor ids = at::tensor({1, 9, 0, 1, 1, 3}, at::kLong).view({2, 3});
  const at::Tensor grad = at::randn({2, 3, 4});
  for (int64_t padding : {-1, 1}) {
    for (bool by_freq : {false, true}) {
      SCOPED_TRACE("padding " + std::to_string(padding) + (by_freq ? " by freq" : ""));
      EXPECT_TRUE(matches(
          at::embedding_dense_backward(grad, ids, 10, padding, by_freq),
          at::embedding_dense_backward(grad.cuda(), ids.cuda(), 10, padding, by_freq), 1e-6));
    }
  }
}

TEST(CUDAIndexingOps, NonzeroMaskedSelectAndMaskedScatter) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(24);
  for (at::ScalarType dtype : kDtypes) {
    SCOPED_TRACE(c10::toString(dtype));
    const at::Tensor x = ints({5, 6, 7}, dtype);
    for (const at::Tensor& t : {x, x.transpose(0, 2), x.slice(1, 1, 6, 2), x.narrow(0, 0, 0)}) {
      EXPECT_TRUE(matches(at::nonzero(t), at::nonzero(same_layout_on_device(t))));
    }
    EXPECT_TRUE(matches(at::nonzero(at::zeros({3, 4}, dtype)),
                        at::nonzero(at::zeros({3, 4}, dtype).cuda())));
    EXPECT_TRUE(matches(at::nonzero(x.select(0, 0).select(0, 0).select(0, 3)),
                        at::nonzero(x.cuda().select(0, 0).select(0, 0).select(0, 3))));  // 0-dim

    const at::Tensor mask = at::rand({6, 1}) > 0.4;  // broadcast against [5, 6, 7]
    EXPECT_TRUE(matches(at::masked_select(x, mask), at::masked_select(x.cuda(), mask.cuda())));
    EXPECT_TRUE(matches(at::masked_select(x.transpose(0, 2), mask.view({1, 6, 1}).transpose(0, 2)),
                        at::masked_select(same_layout_on_device(x.transpose(0, 2)),
                                          mask.view({1, 6, 1}).transpose(0, 2).cuda())));
    const at::Tensor full_mask = at::rand({5, 6, 7}) > 0.5;
    const at::Tensor source = ints({300}, dtype);
    at::Tensor gt = same_layout_on_device(x.transpose(0, 2));
    gt.masked_scatter_(full_mask.transpose(0, 2).cuda(), source.cuda());
    EXPECT_TRUE(matches(x.transpose(0, 2)
                            .clone(at::MemoryFormat::Preserve)
                            .masked_scatter_(full_mask.transpose(0, 2), source),
                        gt));
  }
  EXPECT_THROW_MSG(
      at::zeros({4}).cuda().masked_scatter_(at::ones({4}, at::kBool).cuda(), at::ones({3}).cuda()),
      "Number of elements of source < number of ones in mask");
  EXPECT_TRUE(at::equal(at::ones({2, 3}).cuda(), at::ones({2, 3}).cuda()));
  EXPECT_FALSE(at::equal(at::ones({2, 3}).cuda(), at::ones({3, 2}).cuda()));
  EXPECT_FALSE(at::equal(at::full({2}, NAN).cuda(), at::full({2}, NAN).cuda()));
  EXPECT_TRUE(at::equal(at::empty({0}).cuda(), at::empty({0}).cuda()));
  EXPECT_THROW_MSG(at::equal(at::ones({2}).cuda(), at::ones({2})),
                   "Cannot compare two tensors on different devices. Got: cuda:0 and cpu");
}

TEST(CUDAIndexingOps, BinaryCrossEntropyAndTheGradientsOfIndexing) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(25);
  for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kBFloat16}) {
    const double tol = dtype == at::kBFloat16 ? 2e-2 : dtype == at::kFloat ? 1e-5 : 1e-12;
    const at::Tensor x = at::rand({6, 5}).to(dtype);
    const at::Tensor y = at::rand({6, 5}).round().to(dtype);
    const at::Tensor w = at::rand({5}).to(dtype);
    for (int64_t reduction : {0, 1, 2}) {
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " reduction " + std::to_string(reduction));
      EXPECT_TRUE(matches(at::binary_cross_entropy(x, y, w, reduction),
                          at::binary_cross_entropy(x.cuda(), y.cuda(), w.cuda(), reduction), tol));
      const at::Tensor g = reduction == 0 ? at::randn({6, 5}).to(dtype) : at::ones({}, dtype);
      EXPECT_TRUE(matches(
          at::binary_cross_entropy_backward(g, x, y, w, reduction),
          at::binary_cross_entropy_backward(g.cuda(), x.cuda(), y.cuda(), w.cuda(), reduction),
          tol));
    }
  }
  // Half, which PyTorch's CUDA kernel takes, against the float computation.
  const at::Tensor h = at::rand({8}).to(at::kHalf), t = at::rand({8}).round().to(at::kHalf);
  EXPECT_TRUE(
      matches(at::binary_cross_entropy(h.to(at::kFloat), t.to(at::kFloat), {}, 0).to(at::kHalf),
              at::binary_cross_entropy(h.cuda(), t.cuda(), {}, 0), 2e-3));
  EXPECT_THROW_MSG(at::binary_cross_entropy(at::full({2}, 1.5).cuda(), at::ones({2}).cuda()),
                   "all elements of input should be between 0 and 1");
  EXPECT_THROW_MSG(at::binary_cross_entropy(at::full({2}, NAN).cuda(), at::ones({2}).cuda()),
                   "all elements of input should be between 0 and 1");

  // The gradients of gather, index and masked_select land on the device, equal to the CPU's.
  const at::Tensor base = at::randn({4, 5});
  const at::Tensor index = at::randint(0, 4, {6, 5}, at::kLong);
  const at::Tensor mask = at::rand({4, 5}) > 0.5;
  auto grads = [&](const at::Tensor& b, const at::Tensor& i, const at::Tensor& m) {
    at::Tensor leaf = b.clone().requires_grad_(true);
    const at::Tensor loss = at::gather(leaf, 0, i).sum() +
                            at::index(leaf, IndexList({i.select(1, 0)})).mul(2).sum() +
                            at::masked_select(leaf, m).pow(2).sum();
    loss.backward();
    return leaf.grad();
  };
  EXPECT_TRUE(
      matches(grads(base, index, mask), grads(base.cuda(), index.cuda(), mask.cuda()), 1e-6));
}

}  // namespace
