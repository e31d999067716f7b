#include "c10/core/TensorImpl.h"

#include "c10/core/Contiguity.h"
#include "c10/util/FreeList.h"
#include "c10/util/WrappingArithmetic.h"
#include "c10/util/accumulate.h"

#include <algorithm>
#include <limits>

namespace c10 {

namespace {
// libtorch's constructor gives every tensor its backend's autograd keys (ADInplaceOrView and
// Autograd<backend>), so a backend outside the library that makes its tensors from
// DispatchKeySet(DispatchKey::PrivateUse1) gets AutogradPrivateUse1 and autograd works on them.
DispatchKeySet with_autograd_keys(DispatchKeySet key_set) {
  const DispatchKey backend = highestPriorityBackendTypeId(key_set);
  return backend == DispatchKey::Undefined ? key_set : key_set | keysetForBackend(backend);
}

Device device_of_keys(DispatchKeySet key_set) {
  if (key_set.has(DispatchKey::CUDA)) return Device(DeviceType::CUDA, 0);
  if (key_set.has(DispatchKey::Meta)) return Device(DeviceType::Meta);
  if (key_set.has(DispatchKey::PrivateUse1)) return Device(DeviceType::PrivateUse1, 0);
  return Device(DeviceType::CPU);
}
}  // namespace

// A fresh TensorImpl is 1-d of size 0 with stride 1 (SizesAndStrides' default): numel 0,
// contiguous and dense, not channels-last. Its flags are set directly rather than computed.
TensorImpl::TensorImpl(Storage&& storage, DispatchKeySet key_set, caffe2::TypeMeta data_type)
    : storage_(std::move(storage)),
      data_type_(data_type),
      device_(storage_.defined() ? storage_.device() : device_of_keys(key_set)),
      key_set_(with_autograd_keys(key_set)),
      is_contiguous_(true),
      is_channels_last_contiguous_(false),
      is_channels_last_3d_contiguous_(false),
      is_channels_last_(false),
      is_channels_last_3d_(false),
      is_non_overlapping_and_dense_(true) {}

TensorImpl::TensorImpl(DispatchKeySet key_set, caffe2::TypeMeta data_type,
                       c10::optional<Device> device_opt)
    : data_type_(data_type),
      device_(device_opt ? *device_opt : device_of_keys(key_set)),
      key_set_(with_autograd_keys(key_set)) {
  refresh_numel();
  refresh_contiguous();
}

TensorImpl::~TensorImpl() = default;

namespace {
C10_TLS_FAST __thread FreeList tls_tensor_impl_blocks;
}  // namespace

void* TensorImpl::operator new(size_t size) {
  return tls_tensor_impl_blocks.allocate(size, sizeof(TensorImpl));
}

void TensorImpl::operator delete(void* p, size_t size) {
  tls_tensor_impl_blocks.deallocate(p, size, sizeof(TensorImpl));
}

namespace {
// The sizes and strides of every set_sizes_and_strides* variant, with libtorch's check. Inlined:
// it is on every view's path, and a call cost 10 instructions there.
C10_ALWAYS_INLINE void assign_geometry(impl::SizesAndStrides& geometry, IntArrayRef new_size,
                     IntArrayRef new_stride) {
  TORCH_CHECK(new_size.size() == new_stride.size(), "dimensionality of sizes (", new_size.size(),
              ") must match dimensionality of strides (", new_stride.size(), ")");
  geometry.set_sizes_and_strides(new_size, new_stride);
}
}  // namespace

void TensorImpl::set_sizes_and_strides(IntArrayRef new_size, IntArrayRef new_stride) {
  assign_geometry(sizes_and_strides_, new_size, new_stride);
  refresh_numel();
  refresh_contiguous();
}

void TensorImpl::set_sizes_and_strides_reordered(IntArrayRef new_size, IntArrayRef new_stride,
                                                 int64_t storage_offset, const TensorImpl& base) {
  assign_geometry(sizes_and_strides_, new_size, new_stride);
  storage_offset_ = storage_offset;
  numel_ = base.numel_;
  const bool non_overlapping_and_dense = base.is_non_overlapping_and_dense_;
  refresh_contiguous_flags(&non_overlapping_and_dense);
}

// Note [Layout flags of a broadcast view]
// Take a dim d with sizes[d] >= 2 and strides[d] == 0, in a tensor with elements. Every flag's
// check meets d with a nonzero expected stride and fails there:
//  - contiguous and the channels-last contiguities walk the dims of size != 1 in their order,
//    expecting 1 and then products of sizes, which are nonzero when numel is;
//  - non-overlapping-and-dense sorts the dims of size >= 2 by stride and expects 1, then
//    products of their sizes (>= 2): d's stride 0 matches none;
//  - the channels-last heuristics return false on a stride 0 at C, and otherwise their running
//    minimum is at least C's nonzero stride by the time they reach any other dim.
// An empty tensor still takes the general path (it counts as contiguous whatever its strides).
void TensorImpl::set_sizes_and_strides_broadcast(IntArrayRef new_size, IntArrayRef new_stride,
                                                 int64_t storage_offset) {
  assign_geometry(sizes_and_strides_, new_size, new_stride);
  storage_offset_ = storage_offset;
  refresh_numel();
  if (numel_ == 0) {
    refresh_contiguous();
    return;
  }
  set_flags_not_channels_last(/*contiguous=*/false, /*non_overlapping_and_dense=*/false);
}

// Note [Layout flags of a slice]
// A slice keeps its base's geometry except at one dim d, whose size S becomes s and whose
// stride t becomes t * step; numel is the product of the new sizes. Below rank 4 the only flags are
// contiguity and non-overlapping-and-dense (the channels-last ones are false), and they follow
// from base's when both have elements:
//  - S == 1 (so s == 1): neither flag looks at the stride of a size-1 dim; base's flags stand.
//  - Otherwise base, if it is dense, lays out the dims of size >= 2 with strides below t in
//    exactly t elements, d from t to t * S, and any other dim of size >= 2 from t * S on.
//    The slice keeps that shape when d still fits ("inner": s == 1, or the stride is still t)
//    and what lay beyond d still starts where d ends ("outer": s == S, or no other dim of size
//    >= 2 has a stride above t). A contiguous base stays contiguous, and a non-overlapping-and-
//    dense base stays so, exactly when both hold.
// A base that is neither may become either (a slice can cut its one bad dim down to size 1),
// so that flag is computed afresh; empty tensors and ranks 4 and 5 take the general path.
void TensorImpl::set_sizes_and_strides_sliced(const TensorImpl& base, int64_t d, int64_t size,
                                              int64_t stride, int64_t storage_offset) {
  // Raw pointers, taken once: each sizes_data() asks again whether the dims are inline.
  const int64_t ndim = base.dim();
  const int64_t* base_sizes = base.sizes_and_strides_.sizes_data();
  const int64_t* base_strides = base.sizes_and_strides_.strides_data();
  sizes_and_strides_.set_sizes_and_strides(IntArrayRef(base_sizes, ndim),
                                           IntArrayRef(base_strides, ndim));
  int64_t* sizes = sizes_and_strides_.sizes_data();
  int64_t* strides = sizes_and_strides_.strides_data();
  sizes[d] = size;
  strides[d] = stride;
  storage_offset_ = storage_offset;
  const int64_t base_size = base_sizes[d];
  const int64_t base_stride = base_strides[d];
  if (base.numel_ == 0 || size == 0) {
    numel_ = 0;
    refresh_contiguous();
    return;
  }
  // Multiplied out rather than base.numel_ / base_size * size: a 64-bit division's latency
  // (10-18 cycles on Zen 4) sat on the view's critical path. refresh_numel's overflow check is
  // not needed: a slice has at most its base's elements.
  numel_ = multiply_integers(sizes, sizes + ndim);
  if (ndim >= 4) {
    refresh_contiguous();
    return;
  }
  if (base_size == 1) {
    set_flags_not_channels_last(base.is_contiguous_, base.is_non_overlapping_and_dense_);
    return;
  }
  const bool inner = size == 1 || stride == base_stride;
  bool outer = true;
  if (size != base_size) {
    for (int64_t e = 0; e < ndim; ++e) {
      if (e != d && sizes[e] >= 2 && strides[e] > base_stride) outer = false;
    }
  }
  const bool fits = inner && outer;
  const IntArrayRef sz(sizes, ndim), st(strides, ndim);
  const bool contiguous = base.is_contiguous_ ? fits : compute_contiguous_nonempty(sz, st);
  const bool non_overlapping_and_dense =
      contiguous ||
      (base.is_non_overlapping_and_dense_ ? fits : compute_non_overlapping_and_dense(sz, st));
  set_flags_not_channels_last(contiguous, non_overlapping_and_dense);
}

void TensorImpl::set_sizes_contiguous(IntArrayRef new_size) {
  sizes_and_strides_.overwrite_sizes(new_size);
  refresh_numel();
  restride_contiguous();
  // Contiguous strides need no general recompute below rank 4: contiguous and dense, never
  // channels-last (see refresh_contiguous).
  if (dim() < 4) {
    set_flags_not_channels_last(/*contiguous=*/true, /*non_overlapping_and_dense=*/true);
  } else {
    refresh_contiguous();
  }
}

void TensorImpl::restride_contiguous() {
  const int64_t ndim = dim();
  if (ndim == 0) return;
  int64_t* strides = sizes_and_strides_.strides_data();
  const int64_t* sizes = sizes_and_strides_.sizes_data();
  strides[ndim - 1] = 1;
  for (int64_t i = ndim - 2; i >= 0; --i) {
    // Size-0 dims count as 1 so the other strides stay meaningful. A tensor with no elements
    // can then have strides past int64 (empty({0, 2^62, 4})): they wrap, as libtorch 1.13's do
    // (strides [0, 4, 1] there; undefined behaviour in its int64 product, found by UBSan).
    strides[i] = c10::wrapping_mul(strides[i + 1], std::max<int64_t>(sizes[i + 1], 1));
  }
}

void TensorImpl::set_storage_offset(int64_t storage_offset) {
  TORCH_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  storage_offset_ = storage_offset;
}

void TensorImpl::set_storage_keep_dtype(Storage storage) { storage_ = std::move(storage); }

void TensorImpl::empty_tensor_restride(MemoryFormat memory_format) {
  const int64_t ndim = dim();
  switch (memory_format) {
    case MemoryFormat::Contiguous:
      restride_contiguous();
      break;
    case MemoryFormat::ChannelsLast: {
      TORCH_CHECK(ndim == 4, "required rank 4 tensor to use channels_last format");
      sizes_and_strides_.set_strides(get_channels_last_strides_2d(sizes()));
      break;
    }
    case MemoryFormat::ChannelsLast3d: {
      TORCH_CHECK(ndim == 5, "required rank 5 tensor to use channels_last_3d format");
      sizes_and_strides_.set_strides(get_channels_last_strides_3d(sizes()));
      break;
    }
    case MemoryFormat::Preserve:
      TORCH_CHECK(false, "unsupported memory format ", memory_format);
    default:
      TORCH_INTERNAL_ASSERT(false, "invalid memory format ", memory_format);
  }
  refresh_contiguous();
}

void TensorImpl::refresh_numel() {
  uint64_t n = 1;
  bool overflowed = false;
  for (int64_t s : sizes()) {
    overflowed |= __builtin_mul_overflow(n, static_cast<uint64_t>(s), &n);
  }
  TORCH_CHECK(!overflowed && n <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
              "numel: integer multiplication overflow");
  numel_ = static_cast<int64_t>(n);
}

void TensorImpl::refresh_contiguous_flags(const bool* known_non_overlapping_and_dense) {
  const IntArrayRef sz = sizes();
  const IntArrayRef st = strides();
  auto non_overlapping_and_dense = [&](IntArrayRef sizes, IntArrayRef strides) {
    return known_non_overlapping_and_dense ? *known_non_overlapping_and_dense
                                           : compute_non_overlapping_and_dense(sizes, strides);
  };
  // An empty tensor counts as contiguous whatever its strides.
  is_contiguous_ = numel_ == 0 || compute_contiguous_nonempty(sz, st);
  // Ranks below 4 are never channels-last; rank 4 may be 2d channels-last; rank 5 may be either,
  // and the 3d flags yield to the 2d ones exactly as in libtorch.
  switch (dim()) {
    case 4:
      is_channels_last_contiguous_ = compute_channels_last_contiguous_2d(sz, st);
      is_channels_last_3d_contiguous_ = false;
      is_channels_last_ = is_channels_last_strides_2d(sz, st);
      is_channels_last_3d_ = false;
      is_non_overlapping_and_dense_ = is_contiguous_ || is_channels_last_contiguous_ ||
                                      non_overlapping_and_dense(sz, st);
      break;
    case 5:
      is_channels_last_contiguous_ = compute_channels_last_contiguous_2d(sz, st);
      is_channels_last_3d_contiguous_ =
          !is_channels_last_contiguous_ && compute_channels_last_contiguous_3d(sz, st);
      is_channels_last_ = !is_channels_last_3d_contiguous_ && is_channels_last_strides_2d(sz, st);
      is_channels_last_3d_ = !is_channels_last_ && is_channels_last_strides_3d(sz, st);
      is_non_overlapping_and_dense_ = is_contiguous_ || is_channels_last_contiguous_ ||
                                      is_channels_last_3d_contiguous_ ||
                                      non_overlapping_and_dense(sz, st);
      break;
    default:
      set_flags_not_channels_last(is_contiguous_,
                                  is_contiguous_ || non_overlapping_and_dense(sz, st));
  }
}

}  // namespace c10
