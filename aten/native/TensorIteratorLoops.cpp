// TensorIterator's queries and loops: for_each (parallel above the grain size), serial_for_each walking 2-D
// steps with DimCounter (seed 002), and 32-bit splitting.

#include <algorithm>
#include <limits>
#include <sstream>

#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "aten/native/TensorIteratorInternal.h"
#include "dispatcher/TraceRecord.h"

namespace at {

DimCounter::DimCounter(IntArrayRef shape, Range range)
    : shape(shape), range(range), values(shape.size(), 0), offset(range.begin) {
  if (range.begin == 0) return;
  // Mixed-radix digits of the starting linear index, fastest dim first.
  int64_t linear_offset = range.begin;
  for (size_t dim = 0; dim < values.size(); ++dim) {
    const int64_t size = shape[dim];
    if (size > 0) {
      values[dim] = linear_offset % size;
      linear_offset /= size;
    }
  }
  TORCH_INTERNAL_ASSERT(linear_offset == 0);
}

std::array<int64_t, 2> DimCounter::max_2d_step() const {
  int64_t step0 = std::min(shape[0] - values[0], range.end - offset);
  int64_t step1 = 1;
  // Only a block that starts at the beginning of a row may span several rows.
  if (step0 == shape[0] && shape.size() >= 2) {
    step1 = std::min(shape[1] - values[1], (range.end - offset) / shape[0]);
  }
  return {step0, step1};
}

void DimCounter::increment(const std::array<int64_t, 2>& step) {
  offset += step[0] * step[1];
  const size_t ndim = values.size();
  int64_t* values = this->values.data();
  int64_t overflow = step[0];
  size_t i = 0;
  if (step[1] != 1) {
    // A multi-row step started at a row boundary: the first dim is unchanged.
    TORCH_INTERNAL_ASSERT(step[0] == shape[0] && values[0] == 0);
    i = 1;
    overflow = step[1];
  }
  for (; i < ndim && overflow > 0; i++) {
    const int64_t size = shape[i];
    int64_t value = values[i] + overflow;
    if (value >= size) {
      overflow = 1;
      value -= size;
      TORCH_INTERNAL_ASSERT(value < size);
    } else {
      overflow = 0;
    }
    values[i] = value;
  }
  TORCH_INTERNAL_ASSERT(overflow == 0 || overflow == 1);
}

void TensorIteratorBase::get_base_ptrs(char** ptrs) const {
  const OperandInfo* ops = operands_.data();
  for (int i = 0; i < ntensors(); ++i) ptrs[i] = static_cast<char*>(ops[i].data);
}

// strides[dim * ntensors + arg], with at least 2 dims (the loop always gets two).
void TensorIteratorBase::get_strides(int64_t* strides, int64_t ndim) const {
  const int nt = ntensors();
  const int64_t own_ndim = this->ndim();
  const OperandInfo* ops = operands_.data();
  for (int arg = 0; arg < nt; ++arg) {
    const int64_t* stride_bytes = ops[arg].stride_bytes.data();
    for (int64_t dim = 0; dim < ndim; ++dim) {
      strides[dim * nt + arg] = dim < own_ndim ? stride_bytes[dim] : 0;
    }
  }
}

void TensorIteratorBase::serial_for_each(loop2d_t loop, Range range) const {
  if (range.size() == 0) return;
  const int nt = ntensors();
  const int64_t nd = std::max(ndim(), 2);
  c10::ScratchArray<char*, 8> base(nt);
  c10::ScratchArray<int64_t, 32> strides(nt * nd);
  get_base_ptrs(base.data());
  get_strides(strides.data(), nd);
  const int nd_own = ndim();
  if (nd_own <= 1) {
    // One dim (or a scalar): a single row starting at range.begin.
    if (nd_own == 1) {
      for (int arg = 0; arg < nt; ++arg) base[arg] += range.begin * strides[arg];
    }
    loop(base.data(), strides.data(), range.size(), 1);
    return;
  }
  if (nd_own == 2) {
    // Whole rows of a 2-d iteration: DimCounter's first step would cover the range, so make
    // that one loop call without it (every 2-d serial for_each, e.g. a small transpose copy).
    // The whole iteration is asked for most often; it needs no division.
    const int64_t size0 = shape_.data()[0];
    const int64_t size1 = shape_.data()[1];
    if (range.begin == 0 && range.end == size0 * size1) {
      loop(base.data(), strides.data(), size0, size1);
      return;
    }
    if (range.begin % size0 == 0 && range.end % size0 == 0) {
      const int64_t row = range.begin / size0;
      for (int arg = 0; arg < nt; ++arg) base[arg] += row * strides[nt + arg];
      loop(base.data(), strides.data(), size0, range.size() / size0);
      return;
    }
  }
  c10::ScratchArray<char*, 8> ptrs(nt);
  DimCounter counter(shape_, range);
  while (!counter.is_done()) {
    const int64_t* values = counter.values.data();
    for (int arg = 0; arg < nt; ++arg) {
      char* p = base[arg];
      for (int dim = 0; dim < nd_own; ++dim) p += values[dim] * strides[dim * nt + arg];
      ptrs[arg] = p;
    }
    const auto step = counter.max_2d_step();
    loop(ptrs.data(), strides.data(), step[0], step[1]);
    counter.increment(step);
  }
}

namespace {
// A 1-d loop as a 2-d one: row after row, each operand advancing by its dim-1 stride.
auto rows_of(TensorIteratorBase::loop_t loop, int nt) {
  return [loop, nt](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    c10::ScratchArray<char*, 8> ptrs(nt);
    for (int arg = 0; arg < nt; ++arg) ptrs[arg] = data[arg];
    for (int64_t j = 0; j < size1; ++j) {
      loop(ptrs.data(), strides, size0);
      for (int arg = 0; arg < nt; ++arg) ptrs[arg] += strides[nt + arg];
    }
  };
}
}  // namespace

void TensorIteratorBase::serial_for_each(loop_t loop, Range range) const {
  auto rows = rows_of(loop, ntensors());
  serial_for_each(rows, range);
}

void TensorIteratorBase::for_each(loop2d_t loop, int64_t grain_size) {
  const int64_t n = numel();
  if (n == 0) return;
  if (n < grain_size || at::get_num_threads() == 1 || at::in_parallel_region()) {
    serial_for_each(loop, {0, n});
    return;
  }
  at::parallel_for(0, n, grain_size,
                   [&](int64_t begin, int64_t end) { serial_for_each(loop, {begin, end}); });
}

void TensorIteratorBase::for_each(loop_t loop, int64_t grain_size) {
  auto rows = rows_of(loop, ntensors());
  for_each(rows, grain_size);
}

// ---- Queries --------------------------------------------------------------------------------

bool TensorIteratorBase::is_scalar(int arg) const {
  for (int64_t s : operands_[arg].stride_bytes) {
    if (s != 0) return false;
  }
  return true;
}

bool TensorIteratorBase::is_cpu_scalar(int arg) const {
  return is_scalar(arg) && operands_[arg].tensor.dim() == 0 && operands_[arg].tensor.is_cpu();
}

bool TensorIteratorBase::is_contiguous() const {
  if (numel() == 1) return true;
  if (ndim() != 1) return false;
  return has_contiguous_first_dim();
}

bool TensorIteratorBase::has_contiguous_first_dim() const {
  if (ndim() == 0) return true;
  for (int i = 0; i < ntensors(); ++i) {
    if (operands_[i].stride_bytes[0] != element_size(i)) return false;
  }
  return true;
}

bool TensorIteratorBase::is_dim_reduced(int dim) const {
  for (const auto& op : operands_) {
    if (op.is_output && op.stride_bytes[dim] == 0 && shape_[dim] > 1) return true;
  }
  return false;
}

int TensorIteratorBase::num_reduce_dims() const {
  int count = 0;
  for (int dim = 0; dim < ndim(); ++dim) count += operands_[0].stride_bytes[dim] == 0;
  return count;
}

int64_t TensorIteratorBase::num_output_elements() const {
  int64_t elem = 1;
  for (int dim = 0; dim < ndim(); ++dim) {
    if (operands_[0].stride_bytes[dim] != 0 || shape_[dim] == 0) {
      elem = c10::wrapping_mul(elem, shape_[dim]);
    }
  }
  return elem;
}

void TensorIteratorBase::cast_outputs() {
  for (auto& op : operands_) {
    if (op.is_output && op.original_tensor.defined() &&
        op.original_tensor.scalar_type() != op.current_dtype) {
      op.original_tensor.copy_(op.tensor);
      op.tensor = op.original_tensor;
      op.current_dtype = op.tensor.scalar_type();
    }
  }
}

namespace {
const char* fast_setup_name(FastSetupType type) {
  static const char* names[] = {"none", "contiguous", "channels_last", "non_overlapping_dense"};
  return names[static_cast<int>(type)];
}
}  // namespace

std::string TensorIteratorBase::describe() const {
  std::ostringstream ss;
  const IntArrayRef broadcast_shape = broadcast_shape_.empty() ? shape() : broadcast_shape_;
  ss << "broadcast shape=" << broadcast_shape
     << " fast_setup=" << fast_setup_name(fast_setup_type_);
  if (fast_setup_type_ == FastSetupType::NONE) ss << " perm_=" << IntArrayRef(perm_);
  ss << " output strides=" << operands_[0].tensor.strides() << " iteration shape=" << shape();
  ss << " byte strides=";
  for (int i = 0; i < ntensors(); ++i) ss << (i ? " " : "") << strides(i);
  return ss.str();
}

// Note [The iterator's decisions on the page]
// The page colours each dim of the broadcast shape and shows where it went: perm_ lists, for
// each iteration dim from the fastest, the tensor dim it walks, and coalescing then merges runs
// of those. "groups" names the tensor dims inside each coalesced dim. Coalescing leaves only
// the merged sizes, so the groups are found again from them: in walking order, each iteration
// dim takes tensor dims until their sizes multiply to its size (a dim of size 1 joins the group
// it meets). A fast setup walks all dims as one, in the order of the output's strides. Where
// the sizes do not tell (an empty tensor, a reduction whose kept dim moved inward) "groups" is
// null and the page shows the shapes without the mapping.
std::string TensorIteratorBase::describe_json() const {
  using c10::json_ints;
  const IntArrayRef broadcast = broadcast_shape_.empty() ? shape() : IntArrayRef(broadcast_shape_);
  const int64_t nd = static_cast<int64_t>(broadcast.size());
  // Tensor dims in walking order, fastest first.
  std::vector<int64_t> order;
  if (fast_setup_type_ == FastSetupType::NONE) {
    order.assign(perm_.begin(), perm_.end());
  } else {
    for (int64_t d = nd - 1; d >= 0; --d) order.push_back(d);
    const IntArrayRef out_strides = operands_[0].tensor.strides();
    if (static_cast<int64_t>(out_strides.size()) == nd) {
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return out_strides[a] < out_strides[b]; });
    }
  }
  std::string groups = "null";
  if (static_cast<int64_t>(order.size()) == nd && numel() > 0) {
    std::vector<std::vector<int64_t>> g(static_cast<size_t>(ndim()));
    size_t next = 0;
    bool ok = true;
    for (int k = 0; k < ndim() && ok; ++k) {
      int64_t product = 1;
      while (next < order.size() && product < shape()[k]) {
        product *= broadcast[order[next]];
        g[k].push_back(order[next++]);
      }
      ok = product == shape()[k];
    }
    for (; next < order.size() && ok && !g.empty(); ++next) {
      ok = broadcast[order[next]] == 1;
      g.back().push_back(order[next]);
    }
    if (ok && (ndim() > 0 || nd == 0)) {
      groups = "[";
      for (size_t k = 0; k < g.size(); ++k) groups += (k ? ", " : "") + json_ints(g[k]);
      groups += "]";
    }
  }
  std::string byte_strides = "[";
  for (int i = 0; i < ntensors(); ++i) byte_strides += (i ? ", " : "") + json_ints(strides(i));
  byte_strides += "]";
  return c10::str(
      "{\"broadcast_shape\": ", json_ints(broadcast), ", \"fast_setup\": \"",
      fast_setup_name(fast_setup_type_), "\", \"perm\": ",
      fast_setup_type_ == FastSetupType::NONE ? json_ints(IntArrayRef(perm_)) : std::string("null"),
      ", \"order\": ", json_ints(order),
      ", \"output_strides\": ", json_ints(operands_[0].tensor.strides()),
      ", \"iteration_shape\": ", json_ints(shape()), ", \"byte_strides\": ", byte_strides,
      ", \"groups\": ", groups, ", \"num_outputs\": ", num_outputs_,
      ", \"is_reduction\": ", is_reduction_ ? "true" : "false", "}");
}

// ---- 32-bit indexing ------------------------------------------------------------------------

bool TensorIteratorBase::can_use_32bit_indexing() const {
  constexpr int64_t max_value = std::numeric_limits<int32_t>::max();
  if (numel() > max_value) return false;
  for (const auto& op : operands_) {
    int64_t max_offset = 1;
    for (int dim = 0; dim < ndim(); ++dim) max_offset += (shape_[dim] - 1) * op.stride_bytes[dim];
    if (max_offset > max_value) return false;
  }
  return true;
}

void TensorIteratorBase::narrow(int dim, int64_t start, int64_t size) {
  TORCH_INTERNAL_ASSERT(dim < ndim() && size >= 1);
  shape_[dim] = size;
  for (auto& op : operands_) {
    op.data = static_cast<char*>(op.data) + op.stride_bytes[dim] * start;
  }
}

namespace {

// The one-element CPU tensors of stand-ins, made once per thread, dtype and role: Meta calls
// come by the thousand in shape inference, and allocating and filling three tensors each time
// would cost more than the Meta kernel itself. Inputs hold 1 (no kernel writes its inputs);
// outputs are scratch that the kernel writes and nobody reads.
const Tensor& stand_in_element(c10::ScalarType type, bool is_output) {
  thread_local Tensor cache[2][c10::NumScalarTypes];
  Tensor& t = cache[is_output][static_cast<size_t>(type)];
  if (!t.defined()) {
    const auto options = at::TensorOptions().dtype(type);
    t = is_output ? at::empty({}, options) : at::ones({}, options);
  }
  return t;
}

}  // namespace

TensorIteratorBase TensorIteratorBase::cpu_stand_in() const {
  TensorIteratorBase stand_in = *this;
  // An empty iteration stays empty, so that a kernel that would not run its loop on the CPU
  // does not here either; strides are kept (kernels read them) and never multiply an index.
  for (int64_t& size : stand_in.shape_) size = size == 0 ? 0 : 1;
  for (OperandInfo& op : stand_in.operands_) {
    if (!op.tensor.defined()) continue;
    op.tensor = stand_in_element(op.current_dtype, op.is_output);
    op.original_tensor = Tensor();
    op.device = c10::Device(c10::kCPU);
    op.data = op.tensor.data_ptr();
  }
  stand_in.common_device_ = c10::Device(c10::kCPU);
  return stand_in;
}

void TensorIteratorBase::with_32bit_indexing(
    c10::function_ref<void(TensorIteratorBase&)> f) const {
  if (can_use_32bit_indexing()) {
    TensorIteratorBase copy = *this;
    f(copy);
    return;
  }
  // Split the dim with the largest extent in bytes in half, recursively.
  int best_dim = 0;
  int64_t best = -1;
  for (int dim = 0; dim < ndim(); ++dim) {
    if (shape_[dim] < 2) continue;
    int64_t extent = 0;
    for (const auto& op : operands_) {
      extent = std::max(extent, std::abs(op.stride_bytes[dim]) * shape_[dim]);
    }
    if (extent > best) {
      best = extent;
      best_dim = dim;
    }
  }
  TORCH_INTERNAL_ASSERT(best >= 0, "cannot split an iterator of one element");
  const int64_t half = shape_[best_dim] / 2;
  TensorIteratorBase first = *this;
  TensorIteratorBase second = *this;
  first.narrow(best_dim, 0, half);
  second.narrow(best_dim, half, shape_[best_dim] - half);
  first.with_32bit_indexing(f);
  second.with_32bit_indexing(f);
}

}  // namespace at
