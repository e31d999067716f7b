// gather, scatter / scatter_add (in place and out of place), masked_select, masked_scatter and
// nonzero, with libtorch 1.13's checks and texts (TensorAdvancedIndexing.cpp,
// ScatterGatherChecks.h, Indexing.cpp).
//
// Note [How gather and scatter walk]
// Both visit every element of `index` (a 0-dim tensor counts as one element of size [1]). At
// position p, with v = index[p], gather reads self at p with dim replaced by v and writes the
// result at p; scatter reads src at p (or the value) and writes self at p with dim replaced by
// v. Each index value is checked against self's size along dim before it is used; a scatter
// that fails has written the elements before the bad index, as libtorch's does. Elements move
// as bytes of the dtype's size, so gather and scatter serve every dtype with one loop; only
// scatter_add reads the values.

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/MemoryOverlap.h"
#include "aten/OpMathType.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/IndexedCopy.h"
#include "aten/native/IndexingUtils.h"
#include "aten/native/SameDevice.h"
#include "aten/native/TensorIterator.h"
#include "c10/core/WrapDimMinimal.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {

namespace {

// Sizes and strides with a 0-dim tensor seen as [1] (libtorch's ensure_nonempty_*).
struct Geometry {
  std::vector<int64_t> sizes, strides;
  explicit Geometry(const Tensor& t) : sizes(t.sizes().vec()), strides(t.strides().vec()) {
    if (sizes.empty()) sizes = strides = {1};
  }
};

void check_index_dtype(const char* name, const Tensor& index) {
  TORCH_CHECK(index.scalar_type() == kLong, name, "(): Expected dtype int64 for index");
}

// Note [How gather and scatter walk]: calls visit(index_value_checked, offset in `indexed`
// without dim's term, offset in `other`) for each element of index, offsets in elements.
template <typename Visit>
void walk(const Tensor& index, int64_t dim, const Tensor& indexed, const Tensor* other,
          Visit visit) {
  const Geometry ig(index), tg(indexed);
  const Geometry og = other != nullptr ? Geometry(*other) : ig;
  const auto ndim = ig.sizes.size();
  const int64_t bound = tg.sizes[static_cast<size_t>(dim)];
  const Tensor idx = index;
  const int64_t* idx_data = idx.data_ptr<int64_t>();
  std::vector<int64_t> counter(ndim, 0);
  const int64_t n = index.numel();
  for (int64_t e = 0; e < n; ++e) {
    int64_t io = 0, to = 0, oo = 0;
    for (size_t d = 0; d < ndim; ++d) {
      io += counter[d] * ig.strides[d];
      oo += counter[d] * og.strides[d];
      if (static_cast<int64_t>(d) != dim) to += counter[d] * tg.strides[d];
    }
    const int64_t v = idx_data[io];
    TORCH_CHECK(v >= 0 && v < bound, "index ", v, " is out of bounds for dimension ", dim,
                " with size ", bound);
    visit(to + v * tg.strides[static_cast<size_t>(dim)], oo);
    for (size_t d = ndim; d-- > 0;) {
      if (++counter[d] < ig.sizes[d]) break;
      counter[d] = 0;
    }
  }
}

// libtorch's gather_shape_check.
void gather_shape_check(const Tensor& self, int64_t dim, const Tensor& index) {
  const Geometry sg(self), ig(index);
  TORCH_CHECK(sg.sizes.size() == ig.sizes.size(),
              "Index tensor must have the same number of dimensions as input tensor");
  for (size_t d = 0; d < sg.sizes.size(); ++d) {
    if (static_cast<int64_t>(d) == dim) continue;
    TORCH_CHECK(ig.sizes[d] <= sg.sizes[d], "Size does not match at dimension ", d,
                " expected index ", index.sizes(), " to be smaller than self ", self.sizes(),
                " apart from dimension ", dim);
  }
}

// libtorch's scatter_gather_dtype_check and scatter_shape_check.
void scatter_check(const char* name, const Tensor& self, int64_t dim, const Tensor& index,
                   const Tensor* src) {
  if (index.numel() != 0) check_index_dtype(name, index);
  if (src != nullptr) {
    TORCH_CHECK(self.scalar_type() == src->scalar_type(), name,
                "(): Expected self.dtype to be equal to src.dtype");
  }
  if (index.numel() == 0) return;
  const Geometry sg(self), ig(index);
  TORCH_CHECK(sg.sizes.size() == ig.sizes.size(),
              "Index tensor must have the same number of dimensions as self tensor");
  bool wrong_shape = false;
  for (size_t d = 0; d < sg.sizes.size() && !wrong_shape; ++d) {
    wrong_shape = static_cast<int64_t>(d) != dim && ig.sizes[d] > sg.sizes[d];
  }
  if (src != nullptr) {
    const Geometry og(*src);
    for (size_t d = 0; d < ig.sizes.size() && !wrong_shape; ++d) {
      wrong_shape = d < og.sizes.size() && ig.sizes[d] > og.sizes[d];
    }
    TORCH_CHECK(og.sizes.size() == ig.sizes.size(),
                "Index tensor must have the same number of dimensions as src tensor");
    TORCH_CHECK(!wrong_shape, "Expected index ", index.sizes(), " to be smaller than self ",
                self.sizes(), " apart from dimension ", dim, " and to be smaller size than src ",
                src->sizes());
  } else {
    TORCH_CHECK(!wrong_shape, "Expected index ", index.sizes(), " to be smaller than self ",
                self.sizes(), " apart from dimension ", dim);
  }
}

void scatter_overlap_check(const Tensor& self, const Tensor& index, const Tensor* src) {
  at::assert_no_internal_overlap(self);
  at::assert_no_overlap(self, index);
  if (src != nullptr) at::assert_no_overlap(self, *src);
}

// ---- Off the CPU (Note [One kernel for gather, scatter, index and index_put_])

// t seen with the index's sizes, keeping its strides; with stride 0 along dim where the index
// values choose the position instead.
Tensor with_index_shape(const Tensor& t, const Geometry& ig, int64_t dim, bool chosen_along_dim) {
  Geometry g(t);
  if (chosen_along_dim) g.strides[static_cast<size_t>(dim)] = 0;
  return t.as_strided(ig.sizes, g.strides, t.storage_offset());
}

// gather (scatter false): other[p] = self[p with dim -> index[p]], other the result.
// scatter (true): self[p with dim -> index[p]] = other[p] (added with accumulate).
IndexedCopyPlan plan_gather_scatter(const Tensor& self, int64_t dim, const Tensor& index,
                                    const Tensor& other, bool scatter) {
  const Geometry sg(self), ig(index);
  const int64_t bound = sg.sizes[static_cast<size_t>(dim)];
  // The CPU walk's text for the first value outside [0, bound).
  const c10::optional<int64_t> bad = first_index_outside(index, 0, bound);
  TORCH_CHECK(!bad, "index ", bad.value_or(0), " is out of bounds for dimension ", dim,
              " with size ", bound);
  const Tensor self_view = with_index_shape(self, ig, dim, true);
  const Tensor other_view = with_index_shape(other, ig, dim, false);
  const Tensor index_view = with_index_shape(index, ig, dim, false);
  IndexTerms terms;
  terms.count = 1;
  terms.into_output = scatter;
  terms.sizes[0] = bound;
  terms.strides[0] =
      sg.strides[static_cast<size_t>(dim)] * static_cast<int64_t>(self.element_size());
  return {scatter ? make_indexed_copy_iterator(self_view, other_view, {index_view}, ig.sizes)
                  : make_indexed_copy_iterator(other_view, self_view, {index_view}, ig.sizes),
          terms};
}

void run_on_device(IndexedCopyPlan&& plan, bool accumulate) {
  indexed_copy_stub(plan.iter.device(0).type(), plan.iter, plan.terms, accumulate);
}

}  // namespace

IndexedCopyPlan plan_gather(const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& result) {
  return plan_gather_scatter(self, dim, index, result, false);
}

IndexedCopyPlan plan_scatter(const Tensor& self, int64_t dim, const Tensor& index,
                             const Tensor& src) {
  return plan_gather_scatter(self, dim, index, src, true);
}

// ---- gather ------------------------------------------------------------------------------------

Tensor& gather_out(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad,
                   Tensor& out) {
  (void)sparse_grad;  // only the backward reads it
  check_same_device("gather_out_out", {{"self", self}, {"index", index}, {"out", out}});
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "Expected out tensor to have dtype ",
              self.scalar_type(), ", but got ", out.scalar_type(), " instead");
  at::assert_no_internal_overlap(out);
  at::assert_no_overlap(out, self);
  at::assert_no_overlap(out, index);
  out.resize_(index.sizes());
  check_index_dtype("gather", index);
  if (index.numel() == 0) return out;
  gather_shape_check(self, wrapped, index);
  if (out.is_meta()) return out;
  if (!self.device().is_cpu()) {
    run_on_device(plan_gather(self, wrapped, index, out), false);
    return out;
  }
  const auto itemsize = static_cast<int64_t>(self.element_size());
  const char* in = static_cast<const char*>(self.data_ptr());
  char* result = static_cast<char*>(out.data_ptr());
  walk(index, wrapped, self, &out, [&](int64_t from, int64_t to) {
    std::memcpy(result + to * itemsize, in + from * itemsize, static_cast<size_t>(itemsize));
  });
  return out;
}

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  check_same_device("gather", {{"self", self}, {"index", index}});
  Tensor result = at::empty({0}, self.options());
  return gather_out(self, dim, index, sparse_grad, result);
}

// ---- scatter and scatter_add -------------------------------------------------------------------

Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  check_same_device("scatter__src", {{"self", self}, {"index", index}, {"src", src}});
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  scatter_check("scatter", self, wrapped, index, &src);
  scatter_overlap_check(self, index, &src);
  if (index.numel() == 0 || self.is_meta()) return self;
  if (!self.device().is_cpu()) {
    run_on_device(plan_scatter(self, wrapped, index, src), false);
    return self;
  }
  const auto itemsize = static_cast<int64_t>(self.element_size());
  char* out = static_cast<char*>(self.data_ptr());
  const char* in = static_cast<const char*>(src.data_ptr());
  walk(index, wrapped, self, &src, [&](int64_t to, int64_t from) {
    std::memcpy(out + to * itemsize, in + from * itemsize, static_cast<size_t>(itemsize));
  });
  return self;
}

Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  check_same_device("scatter__value", {{"self", self}, {"index", index}});
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  scatter_check("scatter", self, wrapped, index, nullptr);
  scatter_overlap_check(self, index, nullptr);
  if (index.numel() == 0 || self.is_meta()) return self;
  // The value in self's dtype, as bytes to copy.
  const Tensor v = at::full({}, value, self.options());
  if (!self.device().is_cpu()) {
    run_on_device(plan_scatter(self, wrapped, index, v.expand(Geometry(index).sizes)), false);
    return self;
  }
  const auto itemsize = static_cast<int64_t>(self.element_size());
  char* out = static_cast<char*>(self.data_ptr());
  const char* bytes = static_cast<const char*>(v.data_ptr());
  walk(index, wrapped, self, nullptr, [&](int64_t to, int64_t) {
    std::memcpy(out + to * itemsize, bytes, static_cast<size_t>(itemsize));
  });
  return self;
}

Tensor& scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  check_same_device("scatter_add_", {{"self", self}, {"index", index}, {"src", src}});
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  scatter_check("scatter", self, wrapped, index, &src);  // libtorch 1.13 names it scatter
  scatter_overlap_check(self, index, &src);
  if (index.numel() == 0 || self.is_meta()) return self;
  if (!self.device().is_cpu()) {
    run_on_device(plan_scatter(self, wrapped, index, src), true);
    return self;
  }
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(
      kHalf, kBFloat16, kBool, self.scalar_type(), "scatter_add_", [&] {
        scalar_t* out = self.data_ptr<scalar_t>();
        const scalar_t* in = src.data_ptr<scalar_t>();
        walk(index, wrapped, self, &src,
             [&](int64_t to, int64_t from) { out[to] = add_values(out[to], in[from]); });
      });
  return self;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return self.clone(MemoryFormat::Preserve).scatter_(dim, index, src);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return self.clone(MemoryFormat::Preserve).scatter_(dim, index, value);
}

Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return self.clone(MemoryFormat::Preserve).scatter_add_(dim, index, src);
}

// ---- masks -------------------------------------------------------------------------------------

namespace {

// Calls visit(offset in a, offset in b) for each position of `sizes` in row-major order; the
// offsets are in elements of tensors a and b, both already of that shape.
template <typename Visit>
void walk_row_major(IntArrayRef sizes, const Tensor& a, const Tensor& b, Visit visit) {
  const auto ndim = sizes.size();
  std::vector<int64_t> counter(ndim, 0);
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  for (int64_t e = 0; e < n; ++e) {
    int64_t ao = 0, bo = 0;
    for (size_t d = 0; d < ndim; ++d) {
      ao += counter[d] * a.stride(static_cast<int64_t>(d));
      bo += counter[d] * b.stride(static_cast<int64_t>(d));
    }
    visit(ao, bo);
    for (size_t d = ndim; d-- > 0;) {
      if (++counter[d] < sizes[d]) break;
      counter[d] = 0;
    }
  }
}

}  // namespace

// The elements of self where mask is true, in row-major order of their broadcast shape.
Tensor masked_select(const Tensor& self, const Tensor& mask) {
  TORCH_CHECK(mask.scalar_type() == kByte || mask.scalar_type() == kBool,
              "masked_select: expected BoolTensor or ByteTensor for mask");
  if (mask.scalar_type() == kByte) {
    TORCH_WARN(
        "masked_select received a mask with dtype torch.uint8, this behavior is now "
        "deprecated,please use a mask with dtype torch.bool instead.");
  }
  check_same_device("masked_select", {{"self", self}, {"mask", mask}});
  const c10::DimVector shape = infer_size_dimvector(mask.sizes(), self.sizes());
  const Tensor m = mask.to(kBool).expand(shape);
  const Tensor s = self.expand(shape);
  if (!self.device().is_cpu()) {
    // The elements at the mask's true positions, both read in row-major order. The positions
    // come from the mask, so they need no read back to check them.
    const Tensor positions = flagged_positions(m.contiguous());
    Tensor result = at::empty({positions.numel()}, self.options());
    IndexedCopyPlan plan =
        plan_index(s.reshape({-1}), c10::List<c10::optional<Tensor>>({positions}), result,
                   IndexBounds::CheckedByCaller);
    indexed_copy_stub(self.device().type(), plan.iter, plan.terms, false);
    return result;
  }
  const int64_t count = m.sum().item<int64_t>();
  Tensor result = at::empty({count}, self.options());
  if (count == 0) return result;
  const auto itemsize = static_cast<int64_t>(self.element_size());
  const bool* keep = m.data_ptr<bool>();
  const char* in = static_cast<const char*>(s.data_ptr());
  char* out = static_cast<char*>(result.data_ptr());
  walk_row_major(shape, m, s, [&](int64_t mo, int64_t so) {
    if (!keep[mo]) return;
    std::memcpy(out, in + so * itemsize, static_cast<size_t>(itemsize));
    out += itemsize;
  });
  return result;
}

// source's elements, in order, go where mask (broadcast to self) is true.
Tensor& masked_scatter_(Tensor& self, const Tensor& mask, const Tensor& source) {
  TORCH_CHECK(source.scalar_type() == self.scalar_type(),
              "masked_scatter: expected self and source to have same dtypes but got",
              self.scalar_type(), " and ", source.scalar_type());
  TORCH_CHECK(mask.scalar_type() == kByte || mask.scalar_type() == kBool,
              "masked_scatter_ only supports boolean masks, but got mask with dtype ",
              mask.scalar_type());
  check_same_device("masked_scatter_", {{"self", self}, {"mask", mask}, {"source", source}});
  at::assert_no_internal_overlap(self);
  const Tensor m = mask.to(kBool).expand(self.sizes());
  // Note [Indexing on Meta] in IndexingAdvanced.cpp: how many elements are taken is data.
  if (self.is_meta()) return self;
  if (!self.device().is_cpu()) {
    // source's first elements, in order, to the mask's true positions in row-major order
    // (written in a contiguous copy of a self that is not contiguous, then copied back).
    const Tensor positions = flagged_positions(m.contiguous());
    TORCH_CHECK(positions.numel() <= source.numel(),
                "Number of elements of source < number of ones in mask");
    Tensor target = self.is_contiguous() ? self : self.contiguous();
    Tensor flat = target.view({-1});
    IndexedCopyPlan plan =
        plan_index_put(flat, c10::List<c10::optional<Tensor>>({positions}),
                       source.reshape({-1}).narrow(0, 0, positions.numel()),
                       IndexBounds::CheckedByCaller);  // the mask's own positions
    indexed_copy_stub(self.device().type(), plan.iter, plan.terms, false);
    if (!target.is_same(self)) self.copy_(target);
    return self;
  }
  const Tensor src = source.contiguous();
  const auto itemsize = static_cast<int64_t>(self.element_size());
  const bool* put = m.data_ptr<bool>();
  const char* in = static_cast<const char*>(src.data_ptr());
  char* out = static_cast<char*>(self.data_ptr());
  int64_t taken = 0;
  const int64_t available = src.numel();
  walk_row_major(self.sizes(), m, self, [&](int64_t mo, int64_t so) {
    if (!put[mo]) return;
    TORCH_CHECK(taken < available, "Number of elements of source < number of ones in mask");
    std::memcpy(out + so * itemsize, in + taken * itemsize, static_cast<size_t>(itemsize));
    ++taken;
  });
  return self;
}

Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  const c10::DimVector shape = infer_size_dimvector(self.sizes(), mask.sizes());
  return self.expand(shape).clone(MemoryFormat::Contiguous).masked_scatter_(mask, source);
}

namespace {

// Off the CPU: the true positions of nz in row-major order, each split into its coordinates
// (position / the product of the sizes after d, modulo size d), one column per dim.
Tensor nonzero_on_device(const Tensor& nz) {
  const Tensor positions = flagged_positions(nz.contiguous());
  const int64_t count = positions.numel(), ndim = nz.dim();
  Tensor result = at::empty_strided({count, ndim}, {1, count}, positions.options());
  if (count == 0 || ndim == 0) return result;
  int64_t after = 1;
  for (int64_t d = ndim; d-- > 0;) {
    result.select(1, d).copy_(at::div(positions, after, "trunc").remainder(nz.size(d)));
    after *= nz.size(d);
  }
  return result;
}

}  // namespace

// The indices of the nonzero elements, one row each, in row-major order: [count, dim] Long.
Tensor nonzero(const Tensor& self) {
  const Tensor nz = self.ne(0);  // one Bool per element: complex and NaN as libtorch reads them
  const int64_t ndim = self.dim();
  if (!self.device().is_cpu()) return nonzero_on_device(nz);
  const int64_t count = nz.sum().item<int64_t>();
  // Column-major, as libtorch's (which matches its CUDA kernel's layout).
  Tensor result = at::empty_strided({count, ndim}, {1, count}, self.options().dtype(kLong));
  if (count == 0 || ndim == 0) return result;
  const bool* keep = nz.data_ptr<bool>();
  int64_t* out = result.data_ptr<int64_t>();
  std::vector<int64_t> counter(static_cast<size_t>(ndim), 0);
  const int64_t n = self.numel();
  for (int64_t e = 0; e < n; ++e) {
    int64_t offset = 0;
    for (int64_t d = 0; d < ndim; ++d) offset += counter[static_cast<size_t>(d)] * nz.stride(d);
    if (keep[offset]) {
      for (int64_t d = 0; d < ndim; ++d) out[d * count] = counter[static_cast<size_t>(d)];
      ++out;
    }
    for (int64_t d = ndim; d-- > 0;) {
      if (++counter[static_cast<size_t>(d)] < self.size(d)) break;
      counter[static_cast<size_t>(d)] = 0;
    }
  }
  return result;
}

}  // namespace native
}  // namespace at
