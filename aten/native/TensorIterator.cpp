// TensorIterator::build(): the decisions (seed 000 for output strides, seed 001/002 for the
// order of the steps). The dtype and device decisions live in TensorIteratorTypes.cpp, the
// loops in TensorIteratorLoops.cpp.

#include "aten/native/TensorIterator.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "aten/ATen.h"
#include "aten/MemoryOverlap.h"
#include "aten/TensorUtils.h"
#include "aten/detail/Resize.h"
#include "c10/util/ScratchArray.h"
#include "c10/util/WrappingArithmetic.h"
#include "c10/util/accumulate.h"
#include "dispatcher/DispatchTrace.h"

namespace at {

c10::DimVector infer_size_dimvector(IntArrayRef a, IntArrayRef b) {
  const size_t dims_a = a.size();
  const size_t dims_b = b.size();
  const size_t ndim = std::max(dims_a, dims_b);
  c10::DimVector expanded(ndim);
  for (ptrdiff_t i = static_cast<ptrdiff_t>(ndim) - 1; i >= 0; --i) {
    const ptrdiff_t offset = static_cast<ptrdiff_t>(ndim) - 1 - i;
    const ptrdiff_t dim_a = static_cast<ptrdiff_t>(dims_a) - 1 - offset;
    const ptrdiff_t dim_b = static_cast<ptrdiff_t>(dims_b) - 1 - offset;
    const int64_t size_a = dim_a >= 0 ? a[dim_a] : 1;
    const int64_t size_b = dim_b >= 0 ? b[dim_b] : 1;
    TORCH_CHECK(size_a == size_b || size_a == 1 || size_b == 1, "The size of tensor a (", size_a,
                ") must match the size of tensor b (", size_b, ") at non-singleton dimension ", i);
    expanded[i] = size_a == 1 ? size_b : size_a;
  }
  return expanded;
}

// ---- build() --------------------------------------------------------------------------------

void TensorIteratorBase::build(TensorIteratorConfig& config) {
  is_reduction_ = config.is_reduction_;
  enforce_linear_iteration_ = config.enforce_linear_iteration_;
  populate_operands(config);
  mark_outputs();
  compute_mem_overlaps(config);
  compute_shape(config);
  mark_resize_outputs(config);
  compute_types(config);
  if (!fast_set_up(config)) {
    broadcast_shape_ = shape_;  // before reordering and coalescing change shape_
    compute_strides(config);
    reorder_dimensions();
    allocate_or_resize_outputs();
    coalesce_dimensions();
    if (is_reduction_) move_contiguous_kept_dim_inward();
  }
  OperandInfo* ops = operands_.data();
  for (int i = 0; i < ntensors(); ++i) {
    TORCH_INTERNAL_ASSERT(ops[i].tensor.defined());
    ops[i].data = ops[i].tensor.unsafeGetTensorImpl()->data();
  }
  if (c10::DispatchTrace::enabled()) {
    const std::string line = "TensorIterator: " + describe();
    if (c10::DispatchTrace::recording_page()) {
      std::vector<Tensor> tensors;
      for (int i = 0; i < ntensors(); ++i) tensors.push_back(ops[i].tensor);
      c10::DispatchTrace::log(line, describe_json(), tensors);
    } else {
      c10::DispatchTrace::log(line);
    }
  }
}

void TensorIteratorBase::populate_operands(TensorIteratorConfig& config) {
  // The config is spent after build(): its references move into the operands.
  Tensor* tensors = config.tensors_.data();
  const size_t n = config.tensors_.size();
  for (size_t i = 0; i < n; ++i) operands_.emplace_back(std::move(tensors[i]));
  num_outputs_ = config.num_outputs_;
}

void TensorIteratorBase::mark_outputs() {
  OperandInfo* ops = operands_.data();
  const int nt = ntensors();
  for (int i = 0; i < num_outputs_; ++i) {
    ops[i].is_output = true;
    const Tensor& output = ops[i].tensor;
    if (!output.defined()) continue;
    // An output that is also an input is read and written.
    for (int arg = num_outputs_; arg < nt; ++arg) {
      if (output.is_same(ops[arg].tensor)) ops[i].is_read_write = true;
    }
  }
}

void TensorIteratorBase::compute_mem_overlaps(const TensorIteratorConfig& config) {
  check_mem_overlap_ = config.check_mem_overlap_;
  if (!config.check_mem_overlap_) return;
  const OperandInfo* ops = operands_.data();
  const int nt = ntensors();
  for (int i = 0; i < num_outputs_; ++i) {
    const Tensor& output = ops[i].tensor;
    if (!output.defined()) continue;
    assert_no_internal_overlap(output);
    for (int j = num_outputs_; j < nt; ++j) {
      const Tensor& input = ops[j].tensor;
      if (!input.is_same(output)) assert_no_partial_overlap(output, input);
    }
  }
}

namespace {
// The bytes of its storage a tensor's elements span, [first, last + itemsize), from the
// storage's start, whatever its strides.
std::pair<int64_t, int64_t> storage_byte_span(const Tensor& t) {
  const int64_t item = static_cast<int64_t>(t.itemsize());
  int64_t lo = t.storage_offset() * item, hi = lo;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t extent = (t.size(d) - 1) * t.stride(d) * item;
    (extent < 0 ? lo : hi) += extent;
  }
  return {lo, hi + item};
}
}  // namespace

// Note [An output resized onto its inputs]
// compute_mem_overlaps looks at the outputs as the caller passed them. An out= tensor that must
// be resized is then grown in its own storage, and if that storage is an input's (out= is a view
// of the input's memory) the grown output can come to cover elements still to be read: libtorch
// computes from values it has already overwritten then (found by fuzz_tensor_iterator: add_out
// into a strided view beside its input). So before such a resize, an input whose bytes would
// meet the output's is refused with the overlap error, and nothing has changed.
void TensorIteratorBase::check_resize_against_inputs(const Tensor& output, int64_t numel) const {
  if (!check_mem_overlap_ || numel == 0) return;
  // Every layout the iterator gives a new output is dense: numel elements from its offset.
  const int64_t item = static_cast<int64_t>(output.itemsize());
  const int64_t out_lo = output.storage_offset() * item, out_hi = out_lo + numel * item;
  for (int j = num_outputs_; j < ntensors(); ++j) {
    const Tensor& input = operands_[j].tensor;
    if (input.numel() == 0 || !input.storage().is_alias_of(output.storage())) continue;
    const auto in = storage_byte_span(input);
    TORCH_CHECK(!(out_lo < in.second && in.first < out_hi),
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation.");
  }
}

void TensorIteratorBase::compute_shape(const TensorIteratorConfig& config) {
  if (config.static_shape_.has_value()) {
    shape_ = *config.static_shape_;
    return;
  }
  all_ops_same_shape_ = true;
  bool has_scalars = false;
  bool has_tensors = false;
  for (const auto& op : operands_) {
    if (!op.tensor.defined()) continue;
    // Outputs that may be resized take no part: out= arguments follow the inputs' shape.
    if (config.resize_outputs_ && op.is_output) continue;
    const IntArrayRef shape = op.tensor.sizes();
    if (shape.empty()) {
      has_scalars = true;
    } else {
      has_tensors = true;
    }
    if (has_scalars && has_tensors) all_ops_same_shape_ = false;
    if (shape_.empty()) {
      shape_.assign(shape);
    } else if (!shape.equals(shape_)) {
      all_ops_same_shape_ = false;
      shape_ = infer_size_dimvector(shape_, shape);
    }
  }
  all_ops_are_scalars_ = !has_tensors;
}

// Note [Rare paths out of line]
// Every build runs mark_resize_outputs and compute_types, and almost none fails a check or
// makes a temporary. Inline, those paths (the ostringstream of a TORCH_CHECK message,
// at::empty_like, copy_) would give every call a frame of half a kilobyte; in the small noinline
// helpers below (and in TensorIteratorTypes.cpp) they cost only when they run. The messages are
// unchanged.
namespace {
[[noreturn]] C10_NOINLINE void fail_output_shape(IntArrayRef output, IntArrayRef shape) {
  TORCH_CHECK(false, "output with shape ", output, " doesn't match the broadcast shape ", shape);
  __builtin_unreachable();
}
}  // namespace

void TensorIteratorBase::mark_resize_outputs(const TensorIteratorConfig& config) {
  if (config.static_shape_.has_value()) return;
  OperandInfo* ops = operands_.data();
  const IntArrayRef shape = shape_;
  for (int i = 0; i < num_outputs_; ++i) {
    const Tensor& output = ops[i].tensor;
    if (output.defined() && !output.sizes().equals(shape)) {
      if (config.resize_outputs_ && !ops[i].is_read_write) {
        ops[i].will_resize = true;
        continue;
      }
      // A reduction's output is smaller than the iteration shape by design.
      if (C10_UNLIKELY(!is_reduction_)) fail_output_shape(output.sizes(), shape);
    }
  }
}

// ---- Fast setup -----------------------------------------------------------------------------

FastSetupType TensorIteratorBase::compute_fast_setup_type(const TensorIteratorConfig& config) {
  (void)config;
  if (is_reduction_ || !all_ops_same_shape_) return FastSetupType::NONE;
  bool is_contiguous = true;
  bool is_channels_last = true;
  bool is_non_overlapping_and_dense = true;
  const OperandInfo* ops = operands_.data();
  const int nt = ntensors();
  for (int i = 0; i < nt; ++i) {
    if (ops[i].tensor.defined() && !ops[i].will_resize) {
      const c10::TensorImpl* impl = ops[i].tensor.unsafeGetTensorImpl();
      is_contiguous &= impl->is_contiguous(c10::MemoryFormat::Contiguous);
      is_channels_last &= impl->is_contiguous(c10::MemoryFormat::ChannelsLast);
      is_non_overlapping_and_dense &= impl->is_non_overlapping_and_dense();
    }
  }
  if (is_contiguous) return FastSetupType::CONTIGUOUS;
  if (is_channels_last) return FastSetupType::CHANNELS_LAST;
  if (is_non_overlapping_and_dense) {
    // Only when every defined operand has the same strides.
    int prev = -1;
    for (int i = nt - 1; i >= 0; --i) {
      const OperandInfo& op = ops[i];
      if (op.tensor.defined() && !op.will_resize) {
        if (prev < 0) {
          prev = i;
          continue;
        }
        if (!ops[prev].tensor.strides().equals(op.tensor.strides())) return FastSetupType::NONE;
      }
    }
    return FastSetupType::NON_OVERLAPPING_DENSE;
  }
  return FastSetupType::NONE;
}

bool TensorIteratorBase::fast_set_up(const TensorIteratorConfig& config) {
  fast_setup_type_ = compute_fast_setup_type(config);
  if (fast_setup_type_ == FastSetupType::NONE) return false;
  OperandInfo* ops = operands_.data();
  // An output that stays as it is needs nothing (and no TensorOptions built for it).
  switch (fast_setup_type_) {
    case FastSetupType::CONTIGUOUS:
    case FastSetupType::CHANNELS_LAST: {
      const auto format = fast_setup_type_ == FastSetupType::CONTIGUOUS
                              ? c10::MemoryFormat::Contiguous
                              : c10::MemoryFormat::ChannelsLast;
      for (int i = 0; i < num_outputs_; ++i) {
        OperandInfo& op = ops[i];
        if (op.tensor.defined() && !op.will_resize) continue;
        set_output_raw_strided(i, shape_, {},
                               c10::TensorOptions(op.target_dtype).device(op.device).memory_format(format));
      }
      break;
    }
    case FastSetupType::NON_OVERLAPPING_DENSE: {
      for (int i = 0; i < num_outputs_; ++i) {
        OperandInfo& op = ops[i];
        if (op.tensor.defined() && !op.will_resize) continue;
        // Every defined operand has these strides; take the last one's (copied: it may be
        // this very output's, about to be resized).
        int i_defined = ntensors() - 1;
        while (i_defined > 0 && !ops[i_defined].tensor.defined()) --i_defined;
        const c10::DimVector strides(ops[i_defined].tensor.strides().begin(),
                                     ops[i_defined].tensor.strides().end());
        set_output_raw_strided(i, shape_, strides,
                               c10::TensorOptions(op.target_dtype).device(op.device));
      }
      break;
    }
    default:
      TORCH_INTERNAL_ASSERT(false, "Unsupported fast setup type");
  }
  // Everything is dense in one order: iterate as a single dim (a 0-dim iteration stays one).
  const int nd = ndim();
  if (nd > 1) {
    has_coalesced_dimensions_ = true;
    broadcast_shape_ = shape_;  // before the collapse; with one dim shape_ stays as it is
    const int64_t n = numel();
    shape_.resize_for_overwrite(1);
    shape_.data()[0] = n;
  }
  if (nd >= 1) {
    for (int i = 0; i < ntensors(); ++i) ops[i].stride_bytes.push_back(ops[i].tensor.element_size());
  }
  return true;
}

// ---- The general path: strides, perm_, outputs, coalescing -----------------------------------

void TensorIteratorBase::compute_strides(const TensorIteratorConfig& config) {
  const int nd = ndim();
  const int64_t* shape = shape_.data();
  OperandInfo* ops = operands_.data();
  for (int i = 0; i < ntensors(); ++i) {
    OperandInfo& op = ops[i];
    if (!op.tensor.defined() || op.will_resize) continue;
    const c10::TensorImpl* impl = op.tensor.unsafeGetTensorImpl();
    const int64_t* original_shape = config.static_shape_ ? shape : impl->sizes().data();
    const int64_t* original_stride = impl->strides().data();
    const int64_t element_size = static_cast<int64_t>(impl->itemsize());
    const int offset = config.static_shape_ ? 0 : nd - static_cast<int>(impl->dim());
    op.stride_bytes.resize_for_overwrite(nd);
    int64_t* stride_bytes = op.stride_bytes.data();
    for (int d = 0; d < nd; ++d) {
      // Leading dims the operand does not have are broadcast: stride 0; so is a size-1 dim
      // broadcast to a larger one.
      const bool broadcast = d < offset || (original_shape[d - offset] == 1 && shape[d] != 1);
      // An empty operand's strides may wrap here (Note [Geometry that wraps as libtorch's
      // does]); no element is ever read through them.
      stride_bytes[d] =
          broadcast ? 0 : c10::wrapping_mul(original_stride[d - offset], element_size);
    }
  }
}

// Note [Why perm_ starts reversed]
// perm_ lists dims fastest-moving first, so strides[0] is the innermost loop. It starts as
// [n-1, ..., 0] — a C-contiguous tensor is already in order — and is insertion-sorted with
// should_swap, which asks each operand in turn (outputs first, then inputs in order) and lets
// the first one with an opinion decide: that is why the left operand wins ties, and why an
// ambiguous operand (equal strides on size-1 dims, or a broadcast stride 0) has no say. For a
// reduction, reduced dims (output stride 0) move to the front.
void TensorIteratorBase::reorder_dimensions() {
  const int nd = ndim();
  perm_.resize_for_overwrite(nd);
  int64_t* perm = perm_.data();
  for (int d = 0; d < nd; ++d) perm[d] = nd - 1 - d;
  if (nd == 1) return;
  if (enforce_linear_iteration_) {
    permute_dimensions(perm_);
    return;
  }
  // 1: dim0 after dim1; -1: dim0 before dim1; 0: no operand can tell.
  // Raw pointers throughout: see Note [Hot loops index raw pointers].
  const int64_t* shape = shape_.data();
  const OperandInfo* ops = operands_.data();
  const int nt = ntensors();
  auto should_swap = [&](size_t dim0, size_t dim1) {
    for (int i = 0; i < nt; ++i) {
      const OperandInfo& op = ops[i];
      if (op.stride_bytes.empty() || op.will_resize) continue;
      const int64_t* stride = op.stride_bytes.data();
      const int64_t stride0 = stride[dim0];
      const int64_t stride1 = stride[dim1];
      if (is_reduction_ && op.is_output) {
        if ((stride0 == 0) != (stride1 == 0)) return stride1 == 0 ? 1 : -1;
      }
      if (stride0 == 0 || stride1 == 0) continue;  // broadcast: no opinion
      if (stride0 < stride1) return -1;
      if (stride0 > stride1) return 1;
      // Equal strides: the smaller dim goes first; otherwise ask the next operand.
      if (shape[dim0] > shape[dim1]) return 1;
    }
    return 0;
  };
  sort_dims_fastest_first(perm_.data(), perm_.size(), should_swap);
  permute_dimensions(perm_);
}

void TensorIteratorBase::permute_dimensions(IntArrayRef perm) {
  const size_t nd = perm.size();
  TORCH_INTERNAL_ASSERT(nd == static_cast<size_t>(ndim()));
  // In place through one scratch row: this runs on every non-fast-setup build.
  c10::ScratchArray<int64_t, 16> scratch_row(nd);
  int64_t* scratch = scratch_row.data();
  const int64_t* p = perm.data();
  auto reorder = [&](TensorIteratorDimVector& row) {
    int64_t* data = row.data();
    for (size_t i = 0; i < nd; ++i) scratch[i] = data[p[i]];
    for (size_t i = 0; i < nd; ++i) data[i] = scratch[i];
  };
  reorder(shape_);
  OperandInfo* ops = operands_.data();
  for (int i = 0; i < ntensors(); ++i) {
    if (!ops[i].stride_bytes.empty()) reorder(ops[i].stride_bytes);
  }
}

c10::DimVector TensorIteratorBase::compatible_stride(int64_t element_size) const {
  c10::DimVector stride;
  int64_t next_stride = element_size;
  for (int dim = 0; dim < ndim(); ++dim) {
    stride.push_back(next_stride);
    next_stride = c10::wrapping_mul(next_stride, shape_[dim]);  // empty shapes may pass int64
  }
  return stride;
}

c10::DimVector TensorIteratorBase::invert_perm(IntArrayRef input) const {
  TORCH_INTERNAL_ASSERT(!has_coalesced_dimensions_);
  c10::DimVector res(input.size());
  for (int dim = 0; dim < ndim(); ++dim) res[perm_[dim]] = input[dim];
  return res;
}

// New outputs are dense in perm_ order, which maps back to the user's dims (seed 000's
// "Calculated strides" then "Final strides").
void TensorIteratorBase::allocate_or_resize_outputs() {
  for (int i = 0; i < num_outputs_; ++i) {
    OperandInfo& op = operands_.data()[i];
    if (!op.tensor.defined() || op.will_resize) {
      const c10::TensorOptions options = c10::TensorOptions(op.target_dtype).device(op.device);
      TORCH_INTERNAL_ASSERT(op.is_type_defined(), "no type for operand", i);
      const int64_t element_size = static_cast<int64_t>(c10::elementSize(op.target_dtype));
      op.stride_bytes = compatible_stride(element_size);
      bool inverted = true;
      for (int j = 0; j < ndim(); ++j) {
        if (perm_[j] != ndim() - j - 1) {
          inverted = false;
          break;
        }
      }
      const c10::DimVector tensor_shape = invert_perm(shape_);
      if (inverted) {
        // A reversed-identity perm_ is plain contiguous.
        set_output_raw_strided(i, tensor_shape, {}, options);
      } else {
        c10::DimVector tensor_stride = invert_perm(op.stride_bytes);
        for (auto& s : tensor_stride) s /= element_size;
        set_output_raw_strided(i, tensor_shape, tensor_stride, options);
      }
      op.current_dtype = op.target_dtype;
    }
  }
}

void TensorIteratorBase::set_output_raw_strided(int output_idx, IntArrayRef sizes,
                                                IntArrayRef strides, c10::TensorOptions options) {
  auto& op = operands_[output_idx];
  if (!op.tensor.defined()) {
    op.tensor = strides.empty() ? at::empty(sizes, options)
                                : at::empty_strided(sizes, strides, options.memory_format(c10::nullopt));
    op.current_dtype = op.target_dtype;
  } else if (op.will_resize) {
    const int64_t numel = c10::multiply_integers(sizes);
    // Note [An output resized onto its inputs]: the caller's tensor, not a temporary for it.
    check_resize_against_inputs(op.original_tensor.defined() ? op.original_tensor : op.tensor,
                                numel);
    if (op.tensor.numel() != 0 && !op.tensor.sizes().equals(sizes)) {
      TORCH_WARN("An output with one or more elements was resized since it had shape ",
                 op.tensor.sizes(), ", which does not match the required output shape ", sizes,
                 ". This behavior is deprecated, and in a future PyTorch release outputs will not "
                 "be resized unless they have zero elements. You can explicitly reuse an out "
                 "tensor t by resizing it, inplace, to zero elements with t.resize_(0).");
    }
    auto resize = [&](const Tensor& t) {
      c10::TensorImpl* impl = t.unsafeGetTensorImpl();
      if (!strides.empty()) {
        at::detail::resize_impl_(impl, sizes, strides);
      } else {
        at::detail::resize_impl_(impl, sizes);
        if (auto format = options.memory_format_opt()) {
          if (*format != c10::MemoryFormat::Contiguous) impl->empty_tensor_restride(*format);
        }
      }
    };
    resize(op.tensor);
    // An out= tensor of another dtype is computed into a temporary (make_output_temporary in
    // TensorIteratorTypes.cpp) that cast_outputs copies back: the user's tensor must take the
    // new shape too, or the copy back would broadcast into its old one (the TensorIterator
    // fuzzer found `add_out(empty({0}, kLong), bool_scalar, bool_scalar)` leaving out as [0]).
    if (op.original_tensor.defined()) resize(op.original_tensor);
  }
}

// Merges adjacent dims that every operand walks as one (size 1, or stride[prev] * size[prev]
// == stride[next]); seed 002's [1,64,5,4] NHWC copy becomes [64, 20].
void TensorIteratorBase::coalesce_dimensions() {
  if (ndim() <= 1) return;
  int64_t* shape = shape_.data();
  OperandInfo* ops = operands_.data();
  const int nt = ntensors();
  const int nd = ndim();
  auto can_coalesce = [&](int dim0, int dim1) {
    const int64_t shape0 = shape[dim0];
    const int64_t shape1 = shape[dim1];
    if (shape0 == 1 || shape1 == 1) return true;
    for (int i = 0; i < nt; ++i) {
      const int64_t* stride = ops[i].stride_bytes.data();
      if (c10::wrapping_mul(shape0, stride[dim0]) != stride[dim1]) return false;
    }
    return true;
  };
  auto replace_stride = [&](int dim0, int dim1) {
    for (int i = 0; i < nt; ++i) {
      int64_t* stride = ops[i].stride_bytes.data();
      stride[dim0] = stride[dim1];
    }
  };
  int prev_dim = 0;
  for (int dim = 1; dim < nd; ++dim) {
    if (can_coalesce(prev_dim, dim)) {
      if (shape[prev_dim] == 1) replace_stride(prev_dim, dim);
      shape[prev_dim] = c10::wrapping_mul(shape[prev_dim], shape[dim]);
    } else {
      prev_dim++;
      if (prev_dim != dim) {
        replace_stride(prev_dim, dim);
        shape[prev_dim] = shape[dim];
      }
    }
  }
  if (prev_dim + 1 < nd) {
    shape_.resize_for_overwrite(prev_dim + 1);
    for (int i = 0; i < nt; ++i) ops[i].stride_bytes.resize_for_overwrite(prev_dim + 1);
  }
  has_coalesced_dimensions_ = true;
}

// Note [A reduction's contiguous kept dim moves inward]
// Reordering puts every reduced dim before every kept one, so when two reduced dims cannot be
// coalesced (a [64, 64, 64, 64] tensor summed over dims 0 and 2) a loop's 2-D block is all
// reduction and the kept dim the input is contiguous along comes last: each output element
// then gathers its elements one by one across the whole input, re-reading every cache line
// once per neighbouring output (2.5 GB/s, libtorch 1.13 alike). Moving that kept dim to
// position 1 makes each block "reduced dim 0 x contiguous kept dim 1", which the kernels take
// a vector of columns at a time, reading the input in contiguous rows. The dims after those two
// are then ordered by input stride, so that consecutive blocks are neighbours in memory (a
// [64, 64, 64, 64] sum over dims 0 and 2: 25 -> 7 ms). Each output element still receives its
// blocks in the same order: the reduced dims keep their order (they were already sorted by
// input stride), and kept dims only choose which output a block adds into.
void TensorIteratorBase::move_contiguous_kept_dim_inward() {
  const int nd = ndim();
  if (nd < 3 || noutputs() != 1 || ntensors() < 2) return;
  if (!is_dim_reduced(0) || !is_dim_reduced(1)) return;
  const int64_t* in_stride = operands_[1].stride_bytes.data();
  const int64_t element_size = operands_[1].tensor.element_size();
  int kept = -1;
  for (int d = 2; d < nd; ++d) {
    if (!is_dim_reduced(d) && shape_[d] > 1 && in_stride[d] == element_size) {
      kept = d;
      break;
    }
  }
  if (kept < 0) return;
  c10::SmallVector<int64_t, 8> order(static_cast<size_t>(nd));
  for (int d = 0; d < nd; ++d) order[d] = d;
  std::rotate(order.begin() + 1, order.begin() + kept, order.begin() + kept + 1);
  std::stable_sort(order.begin() + 2, order.end(),
                   [&](int64_t a, int64_t b) { return in_stride[a] < in_stride[b]; });
  permute_dimensions(order);
}

}  // namespace at
