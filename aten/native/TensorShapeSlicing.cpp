// Views of a part of their base: narrow, slice, select, diagonal, unfold, and the list-returning
// split, split_with_sizes, chunk, unbind built on narrow and select. Each only moves the storage
// offset and edits sizes and strides (REFERENCE.md section 2); the views that keep every element
// are in TensorShape.cpp.

#include <algorithm>
#include <limits>
#include <vector>

#include "aten/ATen.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/TensorShape.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {

// ---- One dim cut down -----------------------------------------------------------------------

namespace {
// narrow's length error, out of line: formatted inline, its message's ostringstream gave every
// narrow a half-kilobyte frame and six saved registers (Note [Rare paths out of line] in
// TensorIterator.cpp).
[[noreturn]] C10_NOINLINE void fail_narrow_length(int64_t start, int64_t length,
                                                  int64_t cur_size) {
  TORCH_CHECK(false, "start (", start, ") + length (", length, ") exceeds dimension size (",
              cur_size, ").");
  __builtin_unreachable();
}
}  // namespace

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  TORCH_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  const int64_t cur_size = self.size(dim);
  // start == size is a valid empty narrow at the end, but not a valid index to wrap.
  if (start != cur_size) start = maybe_wrap_dim(start, cur_size);
  if (C10_UNLIKELY(length < 0 || start > cur_size - length)) {
    fail_narrow_length(start, length, cur_size);
  }
  return at::slice(self, dim, start, start + length, 1);
}

// narrow.Tensor: the start as a 0-dim integral tensor (libtorch's text).
Tensor narrow_tensor(const Tensor& self, int64_t dim, const Tensor& start, int64_t length) {
  TORCH_CHECK(start.dim() == 0 && c10::isIntegralType(start.scalar_type(), /*includeBool=*/false),
              "start must be an 0-dim integral Tensor.");
  return at::narrow(self, dim, start.item<int64_t>(), length);
}

// The storage offset `index` steps of `stride` past `base`. Only a tensor with no elements can
// make it pass int64 (its sizes and strides need not fit: Note [Geometry that wraps as
// libtorch's does]); libtorch's product overflows there, and the view keeps the base's offset.
// A negative stride (an empty tensor's view whose contiguous strides overflowed, as in libtorch)
// can step the offset below 0: libtorch's as_strided then refuses it, and so does this.
static int64_t offset_along(int64_t base, int64_t index, int64_t stride) {
  int64_t step = 0, offset = 0;
  if (__builtin_mul_overflow(index, stride, &step) || __builtin_add_overflow(base, step, &offset)) {
    return base;
  }
  TORCH_CHECK(offset >= 0, "Tensor: invalid storage offset ", offset);
  return offset;
}

Tensor slice(const Tensor& self, int64_t dim, c10::optional<int64_t> start,
             c10::optional<int64_t> end, int64_t step) {
  const int64_t ndim = self.dim();
  TORCH_CHECK_INDEX(ndim != 0, "slice() cannot be applied to a 0-dim tensor.");
  dim = maybe_wrap_dim(dim, ndim);
  TORCH_CHECK(step > 0, "slice step must be positive");

  // Python's clamping: negative bounds count from the end, then both land in [0, size] with
  // end >= start. INT64_MAX is how "no start" arrives from Python.
  const TensorImpl* base = self.unsafeGetTensorImpl();
  const int64_t size = base->sizes()[dim];
  const int64_t stride = base->strides()[dim];
  int64_t start_val = start.value_or(0);
  int64_t end_val = end.value_or(std::numeric_limits<int64_t>::max());
  if (start_val == std::numeric_limits<int64_t>::max()) start_val = 0;
  if (start_val < 0) start_val += size;
  if (end_val < 0) end_val += size;
  start_val = std::min(std::max<int64_t>(start_val, 0), size);
  end_val = std::min(std::max(end_val, start_val), size);

  // Rounded up; a step of 1 (every narrow) skips the division, whose latency a view feels.
  // Written so that a step near INT64_MAX cannot overflow: libtorch 1.13's (length + step - 1)
  // wraps there, giving slice(t, 0, 0, INT64_MAX, INT64_MAX) no element instead of one, or a
  // negative size. Such a step leaves at most one element, whose stride is never used, so a
  // product that would overflow is replaced by the plain stride.
  const int64_t length = end_val - start_val;
  const int64_t new_size = step == 1 ? length : (length == 0 ? 0 : (length - 1) / step + 1);
  int64_t new_stride = 0;
  if (__builtin_mul_overflow(stride, step, &new_stride)) new_stride = stride;
  return make_sliced_view(self, dim, new_size, new_stride,
                          offset_along(base->storage_offset(), start_val, stride));
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  const int64_t ndim = self.dim();
  TORCH_CHECK_INDEX(ndim != 0, "select() cannot be applied to a 0-dim tensor.");
  dim = maybe_wrap_dim(dim, ndim);
  const int64_t size = self.size(dim);
  TORCH_CHECK_INDEX(index >= -size && index < size, "select(): index ", index,
                    " out of range for tensor of size ", self.sizes(), " at dimension ", dim);
  if (index < 0) index += size;
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  const int64_t storage_offset = offset_along(self.storage_offset(), index, strides[dim]);
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return make_view(self, sizes, strides, storage_offset);
}

// ---- Diagonals and windows ------------------------------------------------------------------

// Drops dim1 and dim2 and appends the diagonal as the last dim: stepping along it moves one
// step along both, so its stride is stride1 + stride2. A positive offset starts `offset` columns
// (dim2) in, a negative one `-offset` rows (dim1) down.
Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1_, int64_t dim2_) {
  const int64_t ndim = self.dim();
  const int64_t dim1 = maybe_wrap_dim(dim1_, ndim);
  const int64_t dim2 = maybe_wrap_dim(dim2_, ndim);
  TORCH_CHECK(dim1 != dim2, "diagonal dimensions cannot be identical ", dim1_, ", ", dim2_);
  const int64_t size1 = self.size(dim1), size2 = self.size(dim2);
  const int64_t stride1 = self.stride(dim1), stride2 = self.stride(dim2);

  int64_t diag_size;
  int64_t storage_offset = self.storage_offset();
  if (offset >= 0) {
    diag_size = std::max<int64_t>(std::min(size1, size2 - offset), 0);
  } else {
    diag_size = std::max<int64_t>(std::min(size1 + offset, size2), 0);
  }
  // An offset past the end leaves no elements; keep the offset rather than point off the end.
  if (diag_size > 0) {
    storage_offset = offset >= 0 ? offset_along(storage_offset, offset, stride2)
                                 : offset_along(storage_offset, -offset, stride1);
  }

  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  // Erase the larger dim first so the smaller's index stays valid.
  for (int64_t d : {std::max(dim1, dim2), std::min(dim1, dim2)}) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  sizes.push_back(diag_size);
  // A size-1 or empty dim may carry any stride, so the sum can wrap negative (found by
  // fuzz_view). libtorch 1.13 then refuses it converting the strides to SymInts ("IntArrayRef
  // contains an int that cannot be represented as a SymInt"), before the as_strided it calls
  // would refuse the negative stride; here as_strided's refusal, which names the strides.
  strides.push_back(c10::wrapping_add(stride1, stride2));
  if (C10_UNLIKELY(strides.back() < 0))
    return as_strided_view(self, sizes, strides, storage_offset);
  return make_view(self, sizes, strides, storage_offset);
}

// Windows of `size` elements every `step` along `dimension`: that dim now counts windows (stride
// step * stride) and a new last dim walks inside a window (the old stride). A 0-dim tensor acts
// as a 1-element 1-d one.
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  const int64_t ndim = self.dim();
  dimension = maybe_wrap_dim(dimension, ndim);
  const int64_t max_size = ndim == 0 ? 1 : self.sizes()[dimension];
  TORCH_CHECK(size <= max_size, "maximum size for tensor at dimension ", dimension, " is ",
              max_size, " but size is ", size);
  TORCH_CHECK(step > 0, "step is ", step, " but must be > 0");
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  const int64_t window_stride = ndim == 0 ? 1 : strides[dimension];
  if (ndim > 0) {
    // A negative window size (libtorch 1.13 has no check) gets as_strided's overflow error
    // below; computed wrapping, as there, since size may be INT64_MIN (found by fuzz_view).
    sizes[dimension] = c10::wrapping_add(c10::wrapping_sub(sizes[dimension], size) / step, 1);
    // Wrapped as libtorch's int64 product wraps (there undefined behaviour; found by fuzz_view
    // under UBSan): a stride that wraps negative gets as_strided's negative-stride error, as
    // there. It can only wrap where the dim becomes one window, so no view reads through it.
    strides[dimension] = c10::wrapping_mul(strides[dimension], step);
  }
  sizes.push_back(size);
  strides.push_back(window_stride);
  return as_strided_view(self, sizes, strides, self.storage_offset());
}

// ---- Lists of views -------------------------------------------------------------------------

namespace {
// Note [How many pieces a split may make]
// Each piece of split/chunk/unbind is a tensor: a handle in the result and a TensorImpl of a
// couple of hundred bytes. A request for billions of pieces (an empty dim chunked 2^32 ways, a
// broadcast dim of 2^40 elements unbound) cannot be met, and trying is worse than refusing:
// std::vector's allocation either throws std::bad_alloc, which a caller catching c10::Error
// misses, or, with Linux's overcommit, succeeds and then the process is killed while the
// pieces are built (an AddressSanitizer build aborts at once). So more than kMaxPieces pieces
// (2^24, sixteen million: some gigabytes of TensorImpls already) is an error up front.
constexpr int64_t kMaxPieces = int64_t{1} << 24;

template <typename T = Tensor>
std::vector<T> piece_vector(int64_t n) {
  TORCH_CHECK(n <= kMaxPieces, "can't allocate memory: you tried to make ", n, " tensors.");
  return std::vector<T>(static_cast<size_t>(n));
}
}  // namespace

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  TORCH_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  TORCH_CHECK(split_size >= 0,
              "split expects split_size be non-negative, but got split_size=", split_size);
  const int64_t dim_size = self.size(dim);
  TORCH_CHECK(split_size > 0 || dim_size == 0,
              "split_size can only be 0 if dimension size is 0, but got dimension size of ",
              dim_size);
  // At least one piece, even when split_size exceeds the dim (or both are 0). Divided rather
  // than rounded up by adding split_size - 1, which overflows for a split_size near INT64_MAX.
  const int64_t num_splits =
      split_size == 0
          ? 1
          : std::max<int64_t>(dim_size / split_size + (dim_size % split_size != 0), 1);
  const int64_t last_split_size = dim_size - split_size * (num_splits - 1);
  std::vector<Tensor> splits = piece_vector(num_splits);
  for (int64_t i = 0; i < num_splits; i++) {
    const int64_t length = i < num_splits - 1 ? split_size : last_split_size;
    splits[i] = self.narrow(dim, i * split_size, length);
  }
  return splits;
}

// split.sizes: the list form of split is split_with_sizes (CompositeImplicitAutograd, so its
// node is SplitWithSizesBackward0, as in libtorch).
std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return at::split_with_sizes(self, split_sizes, dim);
}

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  TORCH_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  const int64_t dim_size = self.size(dim);
  const int64_t num_splits = static_cast<int64_t>(split_sizes.size());
  int64_t start_idx = 0;
  bool sum_overflows = false;
  for (int64_t length : split_sizes) {
    TORCH_CHECK(length >= 0, "split_with_sizes expects split_sizes have only non-negative ",
                "entries, but got split_sizes=", split_sizes);
    sum_overflows |= __builtin_add_overflow(start_idx, length, &start_idx);
  }
  // Checked before any narrow, so a sum that is too large gets this message, not narrow's (a
  // sum past INT64_MAX too, which could otherwise wrap around to dim_size).
  TORCH_CHECK(!sum_overflows && start_idx == dim_size, "split_with_sizes expects split_sizes to sum exactly to ",
              dim_size, " (input tensor's size at dimension ", dim,
              "), but got split_sizes=", split_sizes);
  std::vector<Tensor> splits = piece_vector(num_splits);
  start_idx = 0;
  for (int64_t i = 0; i < num_splits; i++) {
    splits[i] = self.narrow(dim, start_idx, split_sizes[i]);
    start_idx += split_sizes[i];
  }
  return splits;
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  TORCH_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t dim_size = self.size(dim);
  const int64_t split_size = dim_size / chunks + (dim_size % chunks != 0);  // rounded up
  // split would make one piece of an empty dim; chunk promises `chunks` empty pieces.
  if (split_size == 0 && dim_size == 0) {
    return self.split_with_sizes(piece_vector<int64_t>(chunks), dim);
  }
  return self.split(split_size, dim);
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  dim = maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(dim);
  std::vector<Tensor> tensors = piece_vector(size);
  for (int64_t i = 0; i < size; i++) tensors[i] = self.select(dim, i);
  return tensors;
}

}  // namespace native
}  // namespace at
