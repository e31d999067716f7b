// index and index_put_ with tensor indices ("advanced indexing"), with libtorch 1.13's checks and
// texts (TensorAdvancedIndexing.cpp, IndexingUtils.h).
//
// Note [How advanced indexing lays out its result]
// indices[i] indexes dim i of self (an undefined entry, or a missing one past the list's end,
// takes the whole dim). A Bool or Byte mask of k dims stands for the k Long tensors of its
// nonzero() columns, indexing k consecutive dims. The Long indices are broadcast together to one
// shape B. When the indexed dims are adjacent, the result is self's sizes with those dims
// replaced by B, in place; when they are not, B comes first and the other dims follow in order
// (NumPy's rule). Both cases are one layout once self is permuted so that the indexed dims are
// adjacent ("src" below): result = src.sizes[:first] + B + src.sizes[first + k:]. Each element
// is then src at (before, index values at p, after). Negative indices count from the end.

#include <algorithm>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <vector>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/MemoryOverlap.h"
#include "aten/OpMathType.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/IndexedCopy.h"
#include "aten/native/IndexingUtils.h"
#include "aten/native/TensorIterator.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {

namespace {

struct AdvancedIndex {
  Tensor src;                    // self, permuted so that the indexed dims are adjacent
  int64_t first = 0, count = 0;  // the indexed dims of src: [first, first + count)
  std::vector<Tensor> indices;   // Long, broadcast to index_shape, one per indexed dim
  DimVector index_shape, result_shape;
};

// Bool and Byte masks become the Long indices of their nonzero elements (libtorch's
// expandTensors), each mask checked against the dims it covers.
std::vector<Tensor> expand_masks(const Tensor& self, const c10::List<c10::optional<Tensor>>& list) {
  std::vector<Tensor> result;
  for (size_t i = 0; i < list.size(); ++i) {
    const c10::optional<Tensor> entry = list.get(i);
    if (!entry.has_value() || !entry->defined()) {
      result.emplace_back();
      continue;
    }
    const Tensor& index = *entry;
    const ScalarType type = index.scalar_type();
    if (type == kByte || type == kBool) {
      if (type == kByte) {
        TORCH_WARN(
            "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
            "instead.");
      }
      const int64_t at_dim = static_cast<int64_t>(result.size());
      for (int64_t j = 0; j < index.dim(); ++j) {
        const int64_t dim = at_dim + j;
        TORCH_CHECK_INDEX(dim < self.dim() && index.size(j) == self.size(dim),
                          "The shape of the mask ", index.sizes(), " at index ", j,
                          " does not match the shape of the indexed tensor ", self.sizes(),
                          " at index ", dim);
      }
      const Tensor nz = index.nonzero().to(self.device());
      for (int64_t j = 0; j < index.dim(); ++j) result.push_back(nz.select(1, j));
      continue;
    }
    // libtorch 1.13 takes no int32 indices here (its text lists the three it takes).
    TORCH_CHECK_INDEX(type == kLong, "tensors used as indices must be long, byte or bool tensors");
    result.push_back(index.to(self.device()));  // libtorch moves them to self's device
  }
  return result;
}

AdvancedIndex make_index(const Tensor& self, const c10::List<c10::optional<Tensor>>& list) {
  TORCH_CHECK_INDEX(list.size() <= static_cast<size_t>(self.dim()),
                    "too many indices for tensor of dimension ", self.dim(), " (got ", list.size(),
                    ")");
  std::vector<Tensor> indices = expand_masks(self, list);
  TORCH_CHECK_INDEX(indices.size() <= static_cast<size_t>(self.dim()),
                    "too many indices for tensor of dimension ", self.dim(), " (got ",
                    indices.size(), ")");
  indices.resize(static_cast<size_t>(self.dim()));
  std::vector<int64_t> indexed, rest;
  for (int64_t d = 0; d < self.dim(); ++d) {
    (indices[static_cast<size_t>(d)].defined() ? indexed : rest).push_back(d);
  }
  AdvancedIndex info;
  // Broadcast the indices together (libtorch's "shape mismatch" text names every shape).
  for (size_t k = 0; k < indexed.size(); ++k) {
    const IntArrayRef sizes = indices[static_cast<size_t>(indexed[k])].sizes();
    if (k == 0) {
      info.index_shape = DimVector(sizes.begin(), sizes.end());
      continue;
    }
    try {
      info.index_shape = infer_size_dimvector(info.index_shape, sizes);
    } catch (const c10::Error&) {
      std::ostringstream shapes;
      for (size_t j = 0; j < indexed.size(); ++j) {
        shapes << (j ? ", " : "") << indices[static_cast<size_t>(indexed[j])].sizes();
      }
      TORCH_CHECK_INDEX(false,
                        "shape mismatch: indexing tensors could not be broadcast together with "
                        "shapes ",
                        shapes.str());
    }
  }
  const bool adjacent = indexed.empty() || indexed.back() - indexed.front() + 1 ==
                                               static_cast<int64_t>(indexed.size());
  if (adjacent) {
    info.src = self;
    info.first = indexed.empty() ? 0 : indexed.front();
  } else {
    std::vector<int64_t> order(indexed);
    order.insert(order.end(), rest.begin(), rest.end());
    info.src = self.permute(order);
    info.first = 0;
  }
  info.count = static_cast<int64_t>(indexed.size());
  for (int64_t d : indexed) {
    info.indices.push_back(indices[static_cast<size_t>(d)].expand(info.index_shape));
  }
  const IntArrayRef src_sizes = info.src.sizes();
  info.result_shape.assign(src_sizes.begin(), src_sizes.begin() + info.first);
  info.result_shape.insert(info.result_shape.end(), info.index_shape.begin(),
                           info.index_shape.end());
  info.result_shape.insert(info.result_shape.end(), src_sizes.begin() + info.first + info.count,
                           src_sizes.end());
  return info;
}

// Element offsets of every position of dims [begin, end) of a tensor of these sizes/strides, in
// row-major order.
std::vector<int64_t> offsets_of(IntArrayRef sizes, IntArrayRef strides, int64_t begin,
                                int64_t end) {
  std::vector<int64_t> offsets{0};
  for (int64_t d = begin; d < end; ++d) {
    std::vector<int64_t> next;
    next.reserve(offsets.size() * static_cast<size_t>(sizes[d]));
    for (int64_t o : offsets) {
      for (int64_t i = 0; i < sizes[d]; ++i) next.push_back(o + i * strides[d]);
    }
    offsets.swap(next);
  }
  return offsets;
}

// src's element offset for each position of the index shape: the sum over indexed dims of
// index value * stride, each value checked and wrapped.
std::vector<int64_t> indexed_offsets(const AdvancedIndex& info) {
  int64_t n = 1;
  for (int64_t s : info.index_shape) n *= s;
  std::vector<int64_t> offsets(static_cast<size_t>(n), 0);
  for (int64_t k = 0; k < info.count; ++k) {
    const int64_t dim = info.first + k;
    const int64_t size = info.src.size(dim), stride = info.src.stride(dim);
    const Tensor index = info.indices[static_cast<size_t>(k)].contiguous();
    const int64_t* values = index.data_ptr<int64_t>();
    for (int64_t p = 0; p < n; ++p) {
      int64_t v = values[p];
      TORCH_CHECK_INDEX(v >= -size && v < size, "index ", v, " is out of bounds for dimension ", k,
                        " with size ", size);
      if (v < 0) v += size;
      offsets[static_cast<size_t>(p)] += v * stride;
    }
  }
  return offsets;
}

// Calls visit(src offset, position in result order) over the result's elements in row-major
// order (Note [How advanced indexing lays out its result]).
template <typename Visit>
void walk(const AdvancedIndex& info, Visit visit) {
  const IntArrayRef sizes = info.src.sizes(), strides = info.src.strides();
  const std::vector<int64_t> before = offsets_of(sizes, strides, 0, info.first);
  const std::vector<int64_t> picked = indexed_offsets(info);
  const std::vector<int64_t> after =
      offsets_of(sizes, strides, info.first + info.count, info.src.dim());
  int64_t position = 0;
  for (int64_t b : before) {
    for (int64_t p : picked) {
      for (int64_t a : after) visit(b + p + a, position++);
    }
  }
}

// ---- Off the CPU (Note [One kernel for gather, scatter, index and index_put_])

// The kernel's plan for either op: src restrided to the result's shape, stride 0 along the
// indexed dims, and the indices viewed in that shape, all with the same strides; every index
// value checked first unless the caller has.
IndexedCopyPlan plan_advanced(const AdvancedIndex& info, const Tensor& result_or_values, bool put,
                              IndexBounds bounds = IndexBounds::Check) {
  TORCH_CHECK(info.count <= kMaxIndexTerms, "index: at most ", kMaxIndexTerms, " indexed dims on ",
              info.src.device());
  const Tensor& src = info.src;
  const auto before = static_cast<size_t>(info.first), picked = info.index_shape.size();
  const size_t ndim = info.result_shape.size();
  std::vector<int64_t> strides(ndim, 0);
  DimVector index_view(ndim, 1);
  for (size_t i = 0; i < before; ++i) strides[i] = src.stride(static_cast<int64_t>(i));
  for (size_t j = 0; j < picked; ++j) index_view[before + j] = info.index_shape[j];
  for (size_t i = before + picked; i < ndim; ++i) {
    strides[i] = src.stride(static_cast<int64_t>(i - picked) + info.count);
  }
  const Tensor src_view = src.as_strided(info.result_shape, strides, src.storage_offset());
  IndexTerms terms;
  terms.count = static_cast<int>(info.count);
  terms.into_output = put;
  std::vector<Tensor> indices;
  for (int64_t k = 0; k < info.count; ++k) {
    const int64_t dim = info.first + k;
    // Contiguous, so that every index has the same strides (IndexedCopy.h).
    const Tensor index = info.indices[static_cast<size_t>(k)].contiguous();
    // Negatives count from the end; indexed_offsets' text for the first value outside.
    if (bounds == IndexBounds::Check) {
      const c10::optional<int64_t> bad = first_index_outside(index, -src.size(dim), src.size(dim));
      TORCH_CHECK_INDEX(!bad, "index ", bad.value_or(0), " is out of bounds for dimension ", k,
                        " with size ", src.size(dim));
    }
    indices.push_back(index.view(index_view).expand(info.result_shape));
    terms.sizes[k] = src.size(dim);
    terms.strides[k] = src.stride(dim) * static_cast<int64_t>(src.element_size());
  }
  return {put ? make_indexed_copy_iterator(src_view, result_or_values, indices, info.result_shape)
              : make_indexed_copy_iterator(result_or_values, src_view, indices, info.result_shape),
          terms};
}

}  // namespace

// Note [Indexing on Meta]
// index, index_put_ and masked_scatter_ run on Meta tensors as in libtorch 1.13: the result's
// shape follows from the shapes of self and the Long indices alone, so every shape and dtype
// check runs and the kernel stops where it would read index values (their bounds) or data.
// A Bool mask index needs its nonzero elements to have a shape at all, so on Meta it raises
// nonzero's "Could not run 'aten::nonzero' with arguments from the 'Meta' backend", as in
// libtorch.
Tensor index(const Tensor& self, const c10::List<c10::optional<Tensor>>& indices) {
  // libtorch's check_indices_on_cpu_or_selfdevice (index_put_ moves any index to self's device).
  for (size_t i = 0; i < indices.size(); ++i) {
    const c10::optional<Tensor> entry = indices.get(i);
    if (!entry.has_value() || !entry->defined()) continue;
    TORCH_CHECK_INDEX(entry->is_cpu() || entry->device() == self.device(),
                      "indices should be either on cpu",
                      " or on the same device as the indexed tensor (", self.device(), ")");
  }
  const AdvancedIndex info = make_index(self, indices);
  if (info.count == 0) return self.clone();
  Tensor result = at::empty(info.result_shape, self.options());
  // Meta: the shape and the checks that need no index values (Note [Indexing on Meta]).
  if (self.is_meta()) return result;
  if (!self.device().is_cpu()) {
    IndexedCopyPlan plan = plan_advanced(info, result, false);
    indexed_copy_stub(self.device().type(), plan.iter, plan.terms, false);
    return result;
  }
  if (result.numel() == 0) {
    (void)indexed_offsets(info);  // the indices are still checked
    return result;
  }
  const auto itemsize = static_cast<int64_t>(self.element_size());
  const char* in = static_cast<const char*>(info.src.data_ptr());
  char* out = static_cast<char*>(result.data_ptr());
  walk(info, [&](int64_t from, int64_t to) {
    std::memcpy(out + to * itemsize, in + from * itemsize, static_cast<size_t>(itemsize));
  });
  return result;
}

// values, broadcast to the indexing result's shape, are written (or with accumulate, added:
// a repeated index adds each time) where index would read.
Tensor& index_put_(Tensor& self, const c10::List<c10::optional<Tensor>>& indices,
                   const Tensor& values_in, bool accumulate) {
  // libtorch 1.13 moves a 0-dim value of one element to self's device, and refuses any other.
  Tensor values = values_in;
  if (values.device() != self.device() && values.dim() == 0 && values.numel() == 1 &&
      !self.is_meta()) {
    values = values.to(self.device());
  }
  TORCH_CHECK(values.device() == self.device() || self.is_meta(), "expected device ", self.device(),
              " but got device ", values.device(), " for value tensor");
  TORCH_CHECK(self.scalar_type() == values.scalar_type(),
              "Index put requires the source and destination dtypes match, got ",
              self.scalar_type(), " for the destination and ", values.scalar_type(),
              " for the source.");
  at::assert_no_internal_overlap(self);
  at::assert_no_overlap(self, values);
  const AdvancedIndex info = make_index(self, indices);
  if (info.count == 0) {
    self.copy_(values);
    return self;
  }
  Tensor source;
  try {
    source = values.expand(info.result_shape);
  } catch (const c10::Error&) {
    TORCH_CHECK(false, "shape mismatch: value tensor of shape ", values.sizes(),
                " cannot be broadcast to indexing result of shape ",
                IntArrayRef(info.result_shape));
  }
  if (self.is_meta()) return self;  // Note [Indexing on Meta]
  if (!self.device().is_cpu()) {
    IndexedCopyPlan plan = plan_advanced(info, source, true);
    indexed_copy_stub(self.device().type(), plan.iter, plan.terms, accumulate);
    return self;
  }
  source = source.contiguous();
  if (source.numel() == 0) {
    (void)indexed_offsets(info);
    return self;
  }
  if (!accumulate) {
    const auto itemsize = static_cast<int64_t>(self.element_size());
    char* out = static_cast<char*>(info.src.data_ptr());
    const char* in = static_cast<const char*>(source.data_ptr());
    walk(info, [&](int64_t to, int64_t from) {
      std::memcpy(out + to * itemsize, in + from * itemsize, static_cast<size_t>(itemsize));
    });
    return self;
  }
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(
      kHalf, kBFloat16, kBool, self.scalar_type(), "index_put_", [&] {
        scalar_t* out = static_cast<scalar_t*>(info.src.data_ptr());
        const scalar_t* in = source.data_ptr<scalar_t>();
        walk(info, [&](int64_t to, int64_t from) { out[to] = add_values(out[to], in[from]); });
      });
  return self;
}

Tensor index_put(const Tensor& self, const c10::List<c10::optional<Tensor>>& indices,
                 const Tensor& values, bool accumulate) {
  return self.clone(MemoryFormat::Preserve).index_put_(indices, values, accumulate);
}

IndexedCopyPlan plan_index(const Tensor& self, const c10::List<c10::optional<Tensor>>& indices,
                           const Tensor& result, IndexBounds bounds) {
  return plan_advanced(make_index(self, indices), result, false, bounds);
}

IndexedCopyPlan plan_index_put(const Tensor& self, const c10::List<c10::optional<Tensor>>& indices,
                               const Tensor& values, IndexBounds bounds) {
  return plan_advanced(make_index(self, indices), values, true, bounds);
}

}  // namespace native
}  // namespace at
