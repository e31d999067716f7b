// Views that keep every element of their base: as_strided, alias, view, reshape, flatten,
// unflatten, expand, permute, transpose, t, movedim, squeeze, unsqueeze (and the *_as forms).
// They compute sizes, strides and a storage offset and share self's storage; nothing is
// copied, except by reshape when no view can express the new shape. Views of a part of their
// base (narrow, slice, select, diagonal, unfold, split, chunk, unbind) are in
// TensorShapeSlicing.cpp. The rules and error texts are REFERENCE.md section 2.

#include "aten/native/TensorShape.h"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "c10/core/StorageSize.h"
#include "c10/util/ScratchArray.h"
#include "c10/util/WrappingArithmetic.h"
#include "c10/util/accumulate.h"

namespace at {

DimVector infer_size_dv(IntArrayRef shape, int64_t numel) {
  DimVector res(shape.begin(), shape.end());
  int64_t newsize = 1;
  c10::optional<int64_t> infer_dim;
  for (int64_t dim = 0, ndim = static_cast<int64_t>(shape.size()); dim != ndim; dim++) {
    if (shape[dim] == -1) {
      TORCH_CHECK(!infer_dim, "only one dimension can be inferred");
      infer_dim = dim;
    } else if (shape[dim] >= 0) {
      // libtorch multiplies in int64 regardless of overflow (undefined behaviour, found by
      // fuzz_view under UBSan). The same product wrapped modulo 2^64, defined here, keeps its
      // results and errors; a size that wrapped back to the input's numel is then refused by
      // the view's own numel check ("numel: integer multiplication overflow"), as there.
      newsize = c10::wrapping_mul(newsize, shape[dim]);
    } else {
      TORCH_CHECK(false, "invalid shape dimension ", shape[dim]);
    }
  }
  if (numel == newsize || (infer_dim && newsize > 0 && numel % newsize == 0)) {
    if (infer_dim) {
      // With no elements the -1 could be anything, so refuse rather than guess.
      TORCH_CHECK(newsize != 0, "cannot reshape tensor of 0 elements into shape ", shape,
                  " because the unspecified dimension size -1 can be any value and is ambiguous");
      res[*infer_dim] = numel / newsize;
    }
    return res;
  }
  TORCH_CHECK(false, "shape '", shape, "' is invalid for input of size ", numel);
}

namespace detail {

// Note [View stride computation]
// A view can re-read a strided tensor under a new shape only if every new dim lies inside one
// "chunk" of the old tensor: a run of old dims that are contiguous with each other
// (stride[d-1] == size[d] * stride[d], size-1 dims ignored). Walking both shapes from the last
// dim, each chunk is matched with the run of new dims whose sizes multiply to the chunk's numel;
// inside that run the new strides grow from the chunk's innermost stride like contiguous ones.
// If a chunk's numel cannot be made from whole new dims, some new dim would have to step across
// the gap between two chunks, and no single stride can do that: view fails, reshape copies.
//
//   [2,3] strides [3,1] -> [6]: one chunk of 6, so stride [1].
//   t() of it, [3,2] strides [1,3] -> [6]: chunks {3 (stride 1)}, {2 (stride 3)}; 6 spans both.
//   [3,2] strides [1,3] -> [3,1,2]: the chunk of 2 (stride 3) takes the new dims of sizes 2 and
//   1, strides 3 and 6 (a size-1 dim gets the stride the next dim out would have); the chunk
//   of 3 (stride 1) takes the size-3 dim. Result [1,6,3], as libtorch gives.
//
// With no elements strides do not matter: an unchanged shape keeps its strides, any other gets
// contiguous ones (size-0 dims counted as 1), as NumPy does.
c10::optional<DimVector> computeStride(IntArrayRef oldshape, IntArrayRef oldstride,
                                       IntArrayRef newshape) {
  const int64_t new_ndim = static_cast<int64_t>(newshape.size());
  if (oldshape.empty()) return DimVector(newshape.size(), 1);

  // Wrapping: a valid tensor's numel fits in int64, but with a 0 size a prefix of the product
  // need not ([2650023987789118028, 5, 0]; libtorch's product overflows there, undefined
  // behaviour found by fuzz_view under UBSan). Modulo 2^64 the product is still exact or 0.
  const int64_t numel = c10::multiply_integers(oldshape);
  if (numel == 0 && oldshape.equals(newshape)) {
    return DimVector(oldstride.begin(), oldstride.end());
  }
  DimVector newstride(newshape.size());
  if (numel == 0) {
    for (int64_t d = new_ndim - 1; d >= 0; d--) {
      // May wrap: Note [Geometry that wraps as libtorch's does].
      newstride[d] = d == new_ndim - 1 ? 1
                                       : c10::wrapping_mul(std::max<int64_t>(newshape[d + 1], 1),
                                                           newstride[d + 1]);
    }
    return newstride;
  }

  // The products below wrap too: a size-1 dim's stride may be anything (the last dim's becomes
  // chunk_base_stride), and newshape may be sizes whose product only wrapped to numel
  // ([3, 2^62 + 1, 4] for 12 elements; the view's numel check refuses it afterwards). libtorch's
  // same int64 products overflow there (found by fuzz_view under UBSan).
  using c10::wrapping_mul;
  int64_t view_d = new_ndim - 1;
  int64_t chunk_base_stride = oldstride.back();  // stride of the chunk's innermost dim
  int64_t tensor_numel = 1;                      // numel of the old chunk so far
  int64_t view_numel = 1;                        // numel of the new dims matched to it
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; tensor_d--) {
    tensor_numel *= oldshape[tensor_d];  // a prefix of numel, which fits
    const bool chunk_ends =
        tensor_d == 0 || (oldshape[tensor_d - 1] != 1 &&
                          oldstride[tensor_d - 1] != wrapping_mul(tensor_numel, chunk_base_stride));
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
      newstride[view_d] = wrapping_mul(view_numel, chunk_base_stride);
      view_numel = wrapping_mul(view_numel, newshape[view_d]);
      view_d--;
    }
    if (view_numel != tensor_numel) return c10::nullopt;
    if (tensor_d > 0) {
      chunk_base_stride = oldstride[tensor_d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return c10::nullopt;
  return newstride;
}

}  // namespace detail

namespace native {

namespace {
// A new TensorImpl on self's storage, keys and dtype; its geometry is the caller's to set.
c10::intrusive_ptr<TensorImpl> impl_on_storage_of(const Tensor& self) {
  const TensorImpl* base = self.unsafeGetTensorImpl();
  return c10::make_intrusive<TensorImpl>(c10::Storage(base->storage()), base->key_set(),
                                         base->dtype());
}

// Copying the VariableVersion shares the counter: see Note [Version counter].
Tensor as_view_of(const Tensor& self, c10::intrusive_ptr<TensorImpl> impl) {
  impl->set_version_counter(self.unsafeGetTensorImpl()->version_counter());
  return Tensor(std::move(impl));
}

// make_view for a reordering of self's dims, or size-1 dims added or dropped: see
// TensorImpl::set_sizes_and_strides_reordered.
Tensor make_reordered_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides) {
  auto impl = impl_on_storage_of(self);
  impl->set_sizes_and_strides_reordered(sizes, strides, self.storage_offset(),
                                        *self.unsafeGetTensorImpl());
  return as_view_of(self, std::move(impl));
}
}  // namespace

Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                 int64_t storage_offset) {
  auto impl = impl_on_storage_of(self);
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return as_view_of(self, std::move(impl));
}

Tensor make_sliced_view(const Tensor& self, int64_t dim, int64_t size, int64_t stride,
                        int64_t storage_offset) {
  auto impl = impl_on_storage_of(self);
  impl->set_sizes_and_strides_sliced(*self.unsafeGetTensorImpl(), dim, size, stride,
                                     storage_offset);
  return as_view_of(self, std::move(impl));
}

Tensor as_strided_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                       int64_t storage_offset) {
  // libtorch's setStrided, checks in its order.
  TORCH_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  for (int64_t s : strides) {
    TORCH_CHECK(
        s >= 0,
        "as_strided: Negative strides are not supported at the moment, got strides: ", strides);
  }
  c10::checkInBoundsForStorage(sizes, strides, storage_offset, self.itemsize(), self.storage());
  TORCH_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  return make_view(self, sizes, strides, storage_offset);
}

// ---- Views with explicit geometry ------------------------------------------------------------

Tensor as_strided_tensorimpl(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                             c10::optional<int64_t> storage_offset) {
  return as_strided_view(self, size, stride, storage_offset.value_or(self.storage_offset()));
}

Tensor alias(const Tensor& self) {
  return make_view(self, self.sizes(), self.strides(), self.storage_offset());
}

// ---- view, reshape, flatten, unflatten ------------------------------------------------------

namespace {
// view's sizes (the -1 inferred) and the strides computeStride finds for them, or view's error.
std::pair<DimVector, DimVector> view_geometry(const Tensor& self, IntArrayRef size) {
  DimVector inferred_size = infer_size_dv(size, self.numel());
  c10::optional<DimVector> stride =
      detail::computeStride(self.sizes(), self.strides(), inferred_size);
  TORCH_CHECK(stride.has_value(),
              "view size is not compatible with input tensor's size and stride (at least one "
              "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return {std::move(inferred_size), std::move(*stride)};
}
}  // namespace

Tensor view(const Tensor& self, IntArrayRef size) {
  const auto geometry = view_geometry(self, size);
  return make_view(self, geometry.first, geometry.second, self.storage_offset());
}

Tensor view_as(const Tensor& self, const Tensor& other) {
  return self.view(other.sizes());
}

// A view when computeStride finds one (sharing storage and version), else a fresh contiguous
// copy that aliases nothing (libtorch: _unsafe_view(self.clone(Contiguous), shape); a view of a
// clone nobody else holds is the same thing).
Tensor reshape(const Tensor& self, IntArrayRef shape) {
  const DimVector inferred_size = infer_size_dv(shape, self.numel());
  const c10::optional<DimVector> stride =
      detail::computeStride(self.sizes(), self.strides(), inferred_size);
  if (stride.has_value()) return self._reshape_alias(inferred_size, *stride);
  return at::_unsafe_view(self.clone(MemoryFormat::Contiguous), inferred_size);
}

// Geometry from reshape's computeStride: a view of self's own elements, so no checks (Note
// [Views that cannot leave their base]).
Tensor _reshape_alias(const Tensor& self, IntArrayRef size, IntArrayRef stride) {
  return make_view(self, size, stride, self.storage_offset());
}

// Not a view op (its schema has no alias annotation): the result shares self's storage but
// not its version counter and is not tracked as a view. reshape only calls it on a fresh
// clone, where nothing else can see the storage.
Tensor _unsafe_view(const Tensor& self, IntArrayRef size) {
  const auto geometry = view_geometry(self, size);
  auto impl = impl_on_storage_of(self);  // no shared version counter: not a view
  impl->set_sizes_and_strides(geometry.first, geometry.second, self.storage_offset());
  return Tensor(std::move(impl));
}

Tensor reshape_as(const Tensor& self, const Tensor& other) {
  return self.reshape(other.sizes());
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  start_dim = maybe_wrap_dim(start_dim, self.dim());
  end_dim = maybe_wrap_dim(end_dim, self.dim());
  TORCH_CHECK(start_dim <= end_dim,
              "flatten() has invalid args: start_dim cannot come after end_dim");
  if (self.dim() == 0) return self.reshape({1});
  if (start_dim == end_dim) return self;  // libtorch returns self itself, not a new view
  // The flattened size is a product, not a -1 to infer: [0,1,3,0] flattening 1..2 is [0,3,0],
  // which a -1 could not pin down.
  const IntArrayRef sizes = self.sizes();
  DimVector shape(sizes.begin(), sizes.begin() + start_dim);
  // Wraps as libtorch's does when an empty tensor's sizes multiply past int64 (found by
  // fuzz_view); reshape then refuses the wrapped size or takes it as libtorch does.
  shape.push_back(c10::multiply_integers(sizes.begin() + start_dim, sizes.begin() + end_dim + 1));
  shape.insert(shape.end(), sizes.begin() + end_dim + 1, sizes.end());
  return self.reshape(shape);
}

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  dim = maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  DimVector inferred_size;
  try {
    inferred_size = infer_size_dv(sizes, self.size(dim));
  } catch (const c10::Error& e) {
    // infer_size's two errors are reworded as libtorch words them (it catches them as the
    // std::runtime_errors libtorch 1.13 throws); its other c10::Errors pass through.
    if (e.msg() == "only one dimension can be inferred") {
      TORCH_CHECK(false, "unflatten got an unexpected error:\n", e.msg());
    }
    if (e.msg().find("is invalid for input of size") == std::string::npos) throw;
    TORCH_CHECK(false, "unflatten: Provided sizes ", sizes,
                " don't multiply up to the size of dim ", dim, " (", self.size(dim),
                ") in the input tensor");
  }
  DimVector shape(self.sizes().begin(), self.sizes().end());
  shape.erase(shape.begin() + dim);
  shape.insert(shape.begin() + dim, inferred_size.begin(), inferred_size.end());
  return self.view(shape);
}

// ---- expand -------------------------------------------------------------------------------

namespace {

// Sizes and strides of self broadcast to `sizes`, aligned at the last dim, written to
// expanded_sizes/expanded_strides (sizes.size() each). See REFERENCE.md section 2: a changed size
// must be 1 and gets stride 0; a new leading dim of size 1 takes the stride a contiguous dim
// there would have. Returns whether some dim of size >= 2 got stride 0: whether the elements
// repeat (see Note [Layout flags of a broadcast view]).
bool infer_expand_geometry(IntArrayRef tensor_sizes, IntArrayRef tensor_strides, IntArrayRef sizes,
                           int64_t* expanded_sizes, int64_t* expanded_strides) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t tensor_dim = static_cast<int64_t>(tensor_sizes.size());
  if (tensor_dim == 0) {
    std::copy(sizes.begin(), sizes.end(), expanded_sizes);
    std::fill(expanded_strides, expanded_strides + ndim, 0);
    return std::any_of(sizes.begin(), sizes.end(), [](int64_t s) { return s >= 2; });
  }
  bool repeats = false;
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t dim = tensor_dim - 1 - (ndim - 1 - i);
    int64_t size = dim >= 0 ? tensor_sizes[dim] : 1;
    int64_t stride = dim >= 0 ? tensor_strides[dim]
                              : c10::wrapping_mul(expanded_sizes[i + 1], expanded_strides[i + 1]);
    int64_t target_size = sizes[i];
    if (target_size == -1) {
      TORCH_CHECK(dim >= 0, "The expanded size of the tensor (", target_size,
                  ") isn't allowed in a leading, non-existing dimension ", i);
      target_size = size;
    }
    if (size != target_size) {
      TORCH_CHECK(size == 1, "The expanded size of the tensor (", target_size,
                  ") must match the existing size (", size, ") at non-singleton dimension ", i,
                  ".  Target sizes: ", sizes, ".  Tensor sizes: ", tensor_sizes);
      size = target_size;
      stride = 0;
      repeats |= size >= 2;
    }
    expanded_sizes[i] = size;
    expanded_strides[i] = stride;
  }
  return repeats;
}

}  // namespace

Tensor expand(const Tensor& self, IntArrayRef size, bool implicit) {
  (void)implicit;  // only the tracer reads it in libtorch
  TORCH_CHECK(size.size() >= static_cast<size_t>(self.dim()), "expand(", self.toString(), "{",
              self.sizes(), "}, size=", size, "): the number of sizes provided (", size.size(),
              ") must be greater or equal to the number of dimensions in the tensor (", self.dim(),
              ")");
  const size_t ndim = size.size();
  c10::ScratchArray<int64_t, 16> sizes(ndim), strides(ndim);
  const bool repeats =
      infer_expand_geometry(self.sizes(), self.strides(), size, sizes.data(), strides.data());
  const IntArrayRef new_sizes(sizes.data(), ndim), new_strides(strides.data(), ndim);
  // Broadcasting reads only self's elements, so only a negative target size can fail
  // as_strided's checks: see Note [Views that cannot leave their base].
  // A negative stride comes only from an empty tensor whose contiguous strides wrapped
  // (empty({0, 2^61 + 1, 6})): libtorch's as_strided refuses it, and so does this.
  const bool sizes_valid =
      std::all_of(new_sizes.begin(), new_sizes.end(), [](int64_t s) { return s >= 0; });
  const bool strides_valid =
      std::all_of(new_strides.begin(), new_strides.end(), [](int64_t s) { return s >= 0; });
  if (C10_UNLIKELY(!sizes_valid || !strides_valid)) {
    // as_strided's checks raise libtorch's errors where libtorch has one; where the sizes
    // multiply to 0 it has none and libtorch 1.13 returns a tensor of negative size (expand of
    // a 0-dim tensor to [-3, 0, 3]). Refused here (found by fuzz_view).
    const bool empty =
        std::any_of(new_sizes.begin(), new_sizes.end(), [](int64_t s) { return s == 0; });
    if (!empty || !strides_valid)
      as_strided_view(self, new_sizes, new_strides, self.storage_offset());
    const auto negative =
        std::find_if(new_sizes.begin(), new_sizes.end(), [](int64_t s) { return s < 0; });
    TORCH_CHECK(false, "The expanded size of the tensor (", *negative,
                ") isn't allowed: sizes must be non-negative.  Target sizes: ", size,
                ".  Tensor sizes: ", self.sizes());
  }
  if (!repeats) return make_view(self, new_sizes, new_strides, self.storage_offset());
  auto impl = impl_on_storage_of(self);
  impl->set_sizes_and_strides_broadcast(new_sizes, new_strides, self.storage_offset());
  return as_view_of(self, std::move(impl));
}

// libtorch's broadcast_to is expand, node and errors included (ExpandBackward0).
Tensor broadcast_to(const Tensor& self, IntArrayRef size) {
  return self.expand(size);
}

Tensor expand_as(const Tensor& self, const Tensor& other) {
  return self.expand(other.sizes());
}

// ---- Reordering dims ------------------------------------------------------------------------

Tensor permute(const Tensor& self, IntArrayRef dims) {
  const int64_t ndim = self.dim();
  // The "(sparse_coo)" is in libtorch 1.13's text for dense tensors too.
  TORCH_CHECK(static_cast<int64_t>(dims.size()) == ndim,
              "permute(sparse_coo): number of dimensions in the tensor input does not match the "
              "length of the desired ordering of dimensions i.e. input.dim() = ",
              ndim, " is not equal to len(dims) = ", dims.size());
  // Stack scratch, not DimVectors: a view is cheap enough for their setup to show.
  c10::ScratchArray<int64_t, 16> sizes(ndim), strides(ndim);
  c10::ScratchArray<bool, 16> seen(ndim);
  for (int64_t i = 0; i < ndim; i++) seen[i] = false;
  const int64_t* self_sizes = self.sizes().data();
  const int64_t* self_strides = self.strides().data();
  for (int64_t i = 0; i < ndim; i++) {
    const int64_t d = maybe_wrap_dim(dims[i], ndim);
    TORCH_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = self_sizes[d];
    strides[i] = self_strides[d];
  }
  return make_reordered_view(self, IntArrayRef(sizes.data(), ndim),
                             IntArrayRef(strides.data(), ndim));
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  const int64_t ndim = self.dim();
  dim0 = maybe_wrap_dim(dim0, ndim);
  dim1 = maybe_wrap_dim(dim1, ndim);
  if (dim0 == dim1) return at::alias(self);
  c10::ScratchArray<int64_t, 16> sizes(ndim), strides(ndim);
  const int64_t* self_sizes = self.sizes().data();
  const int64_t* self_strides = self.strides().data();
  for (int64_t i = 0; i < ndim; i++) {
    const int64_t from = i == dim0 ? dim1 : i == dim1 ? dim0 : i;
    sizes[i] = self_sizes[from];
    strides[i] = self_strides[from];
  }
  return make_reordered_view(self, IntArrayRef(sizes.data(), ndim),
                             IntArrayRef(strides.data(), ndim));
}

Tensor t(const Tensor& self) {
  TORCH_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ",
              self.dim(), "D");
  return self.transpose(0, self.dim() < 2 ? 0 : 1);
}

// The permutation that moves each source dim to its destination and keeps the other dims in
// their order in the remaining places.
Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  TORCH_CHECK(source.size() == destination.size(),
              "movedim: Invalid source or destination dims: source (", source,
              " dims) should contain the same number of dims as destination (", destination,
              " dims)");
  const int64_t ndim = self.dim();
  auto wrap_all = [ndim](IntArrayRef dims) {
    DimVector wrapped(dims.size());
    for (size_t i = 0; i < dims.size(); i++) wrapped[i] = maybe_wrap_dim(dims[i], ndim);
    return wrapped;
  };
  auto all_unique = [](DimVector dims) {
    std::sort(dims.begin(), dims.end());
    return std::adjacent_find(dims.begin(), dims.end()) == dims.end();
  };
  const DimVector src = wrap_all(source);
  const DimVector dst = wrap_all(destination);
  TORCH_CHECK(all_unique(src), "movedim: repeated dim in `source` (", source, ")");
  TORCH_CHECK(all_unique(dst), "movedim: repeated dim in `destination` (", destination, ")");
  if (ndim == 0) return at::alias(self);

  DimVector order(ndim, -1);
  std::vector<bool> src_used(ndim, false), dst_used(ndim, false);
  for (size_t i = 0; i < src.size(); i++) {
    order[dst[i]] = src[i];
    src_used[src[i]] = true;
    dst_used[dst[i]] = true;
  }
  int64_t next_src = 0;
  for (int64_t d = 0; d < ndim; d++) {
    if (dst_used[d]) continue;
    while (src_used[next_src]) next_src++;
    order[d] = next_src++;
  }
  return self.permute(order);
}

Tensor movedim(const Tensor& self, int64_t source, int64_t destination) {
  return at::movedim(self, IntArrayRef{source}, IntArrayRef{destination});
}

// ---- Adding and removing size-1 dims --------------------------------------------------------

Tensor squeeze(const Tensor& self) {
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); d++) {
    if (self.sizes()[d] != 1) {
      sizes.push_back(self.sizes()[d]);
      strides.push_back(self.strides()[d]);
    }
  }
  return make_reordered_view(self, sizes, strides);
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  const int64_t ndim = self.dim();
  dim = maybe_wrap_dim(dim, ndim);
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  if (ndim > 0 && sizes[dim] == 1) {  // else a no-op, but still a new view
    sizes.erase(sizes.begin() + dim);
    strides.erase(strides.begin() + dim);
  }
  return make_reordered_view(self, sizes, strides);
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  dim = maybe_wrap_dim(dim, self.dim() + 1);
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  // The stride a contiguous dim would have there, so a contiguous tensor stays contiguous.
  // Wraps only for an empty tensor (Note [Geometry that wraps as libtorch's does]).
  const int64_t new_stride = dim >= self.dim() ? 1 : c10::wrapping_mul(sizes[dim], strides[dim]);
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, new_stride);
  return make_reordered_view(self, sizes, strides);
}

}  // namespace native
}  // namespace at
