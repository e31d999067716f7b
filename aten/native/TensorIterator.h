#pragma once
// TensorIterator: the machinery that makes a kernel independent of dtype, layout and striding
// (seeds 000, 001, 002; REFERENCE.md section 3). A kernel names its operands, build() works out
// the broadcast shape, the common dtype, the output's strides, and a loop order in which
// memory is walked as linearly as possible; the kernel then supplies only the innermost loop.
//
//   auto iter = at::TensorIteratorConfig()
//                   .add_output(out)          // outputs first
//                   .add_input(a)
//                   .add_input(b)
//                   .build();                 // or TensorIterator::binary_op(out, a, b)
//   iter.for_each([](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
//     for (int64_t j = 0; j < size1; ++j) {
//       for (int64_t i = 0; i < size0; ++i) {
//         *(float*)(data[0] + i * strides[0]) =
//             *(float*)(data[1] + i * strides[1]) + *(float*)(data[2] + i * strides[2]);
//       }
//       for (int k = 0; k < 3; ++k) data[k] += strides[3 + k];   // the outer dim
//     }
//   });
//
// build() runs, in the seeds' order: populate_operands, mark_outputs, compute_mem_overlaps,
// compute_shape, mark_resize_outputs, compute_types, then fast_set_up or compute_strides ->
// reorder_dimensions -> allocate_or_resize_outputs -> coalesce_dimensions.

#include <array>
#include <string>

#include "aten/Parallel.h"
#include "aten/core/Tensor.h"
#include "aten/native/TensorIteratorDimVector.h"
#include "c10/util/FunctionRef.h"
#include "c10/util/SmallVector.h"
#include "c10/util/TypeCast.h"
#include "c10/util/accumulate.h"

namespace at {

struct Range {
  Range(int64_t begin, int64_t end) : begin(begin), end(end) {}
  int64_t size() const { return end - begin; }
  Range operator/(int64_t divisor) { return Range(begin / divisor, end / divisor); }
  int64_t begin;
  int64_t end;
};

// One operand and what build() decided for it.
struct TORCH_API OperandInfo {
  OperandInfo() = default;
  explicit OperandInfo(Tensor t) : tensor(std::move(t)) {
    if (tensor.defined()) {
      device = tensor.device();
      target_dtype = tensor.scalar_type();
      current_dtype = target_dtype;
    }
  }

  // The tensor the loop reads or writes (a temporary of the common dtype when one was needed).
  Tensor tensor;
  // The caller's output when `tensor` is a temporary; cast_outputs() copies back into it.
  Tensor original_tensor;
  // Byte strides in iteration order (after reordering and coalescing). See
  // Note [Why TensorIterator has its own dim vector].
  TensorIteratorDimVector stride_bytes;
  // The dtype the loop sees, and what the tensor currently is.
  c10::ScalarType target_dtype = c10::ScalarType::Undefined;
  c10::ScalarType current_dtype = c10::ScalarType::Undefined;
  c10::optional<c10::Device> device;
  void* data = nullptr;
  bool is_output = false;
  // An output whose shape differs from the broadcast shape and may be resized.
  bool will_resize = false;
  // An output that is also an input (in-place).
  bool is_read_write = false;

  bool is_type_defined() const { return target_dtype != c10::ScalarType::Undefined; }
  bool is_device_defined() const { return device.has_value(); }
};

enum class FastSetupType : uint8_t { NONE, CONTIGUOUS, CHANNELS_LAST, NON_OVERLAPPING_DENSE };

class TensorIteratorConfig;

class TORCH_API TensorIteratorBase {
 public:
  using loop2d_t = c10::function_ref<void(char** data, const int64_t* strides, int64_t size0,
                                          int64_t size1)>;
  using loop_t = c10::function_ref<void(char** data, const int64_t* strides, int64_t size)>;

  TensorIteratorBase() = default;
  void build(TensorIteratorConfig& config);

  // ---- Shape --------------------------------------------------------------------------------
  int ndim() const { return static_cast<int>(shape_.size()); }
  IntArrayRef shape() const { return shape_; }
  int64_t numel() const {
    // Wraps for an empty shape whose other sizes overflow, as libtorch's product does.
    return c10::multiply_integers(shape_.begin(), shape_.end());
  }
  int ntensors() const { return static_cast<int>(operands_.size()); }
  int noutputs() const { return num_outputs_; }
  int ninputs() const { return ntensors() - noutputs(); }
  // The permutation build() chose: perm()[i] is the original dim walked i-th fastest.
  // See Note [Why perm_ starts reversed].
  IntArrayRef perm() const { return perm_; }
  FastSetupType fast_setup_type() const { return fast_setup_type_; }
  bool has_coalesced_dimensions() const { return has_coalesced_dimensions_; }

  // ---- Operands -----------------------------------------------------------------------------
  const Tensor& tensor(int arg) const { return operands_[arg].tensor; }
  const Tensor& output(int arg = 0) const { return tensor(arg); }
  const Tensor& input(int arg = 0) const { return tensor(num_outputs_ + arg); }
  const OperandInfo& operand(int arg = 0) const { return operands_[arg]; }
  c10::ScalarType dtype(int arg = 0) const { return operands_[arg].current_dtype; }
  c10::ScalarType input_dtype(int arg = 0) const { return operands_[num_outputs_ + arg].current_dtype; }
  c10::ScalarType common_dtype() const;
  c10::Device device(int arg = 0) const { return *operands_[arg].device; }
  c10::DeviceType device_type(int arg = 0) const { return device(arg).type(); }
  // Byte strides of an operand in iteration order.
  IntArrayRef strides(int arg) const { return operands_[arg].stride_bytes; }
  void* data_ptr(int arg) const { return operands_[arg].data; }
  int64_t element_size(int arg) const { return static_cast<int64_t>(c10::elementSize(dtype(arg))); }
  bool is_scalar(int arg) const;
  bool is_cpu_scalar(int arg) const;
  // The value of a 0-dim CPU operand (the Scalar of add(t, 2)), as T.
  template <typename T>
  T scalar_value(int arg) const;

  // ---- Facts about the iteration ------------------------------------------------------------
  // Every operand contiguous along the whole iteration space.
  bool is_contiguous() const;
  // Every operand's first (fastest) dim has stride == its element size, or 0.
  bool has_contiguous_first_dim() const;
  bool is_reduction() const { return is_reduction_; }
  bool is_dim_reduced(int dim) const;
  int num_reduce_dims() const;
  int64_t num_output_elements() const;

  // ---- Loops --------------------------------------------------------------------------------
  // Runs `loop` over every element: serially below grain_size or with one thread, otherwise in
  // parallel chunks, each a serial_for_each over its range.
  void for_each(loop2d_t loop, int64_t grain_size = internal::GRAIN_SIZE);
  void for_each(loop_t loop, int64_t grain_size = internal::GRAIN_SIZE);
  // Walks the linear range [begin, end) in 2-D steps (DimCounter::max_2d_step, seed 002).
  void serial_for_each(loop2d_t loop, Range range) const;
  void serial_for_each(loop_t loop, Range range) const;

  // Copies temporaries of the common dtype back into the caller's outputs.
  void cast_outputs();

  // ---- 32-bit indexing (what the CUDA backend needs) ----------------------------------------
  bool can_use_32bit_indexing() const;
  // Splits along the largest dim until every piece can use 32-bit indexing; calls f on each.
  void with_32bit_indexing(c10::function_ref<void(TensorIteratorBase&)> f) const;

  // Restricts iteration to [start, start + size) along `dim` (for splitting).
  void narrow(int dim, int64_t start, int64_t size);

  // This iterator with every operand replaced by one CPU element of its dtype (inputs hold 1)
  // and every non-empty dim of size 1: what a Meta kernel hands the CPU kernel. See Note [Meta
  // asks the CPU kernel which dtypes it takes] in aten/native/MetaStub.h.
  TensorIteratorBase cpu_stand_in() const;

  // One-line summary of build()'s decisions (also logged by the trace).
  std::string describe() const;
  // The same decisions as a JSON object, for the trace page (Note [The iterator's decisions
  // on the page]).
  std::string describe_json() const;

 protected:
  // The build steps, in order.
  void populate_operands(TensorIteratorConfig& config);
  void mark_outputs();
  void compute_mem_overlaps(const TensorIteratorConfig& config);
  void check_resize_against_inputs(const Tensor& output, int64_t numel) const;
  void compute_shape(const TensorIteratorConfig& config);
  void mark_resize_outputs(const TensorIteratorConfig& config);
  void compute_types(const TensorIteratorConfig& config);
  bool fast_set_up(const TensorIteratorConfig& config);
  FastSetupType compute_fast_setup_type(const TensorIteratorConfig& config);
  void compute_strides(const TensorIteratorConfig& config);
  void reorder_dimensions();
  void permute_dimensions(IntArrayRef perm);
  void allocate_or_resize_outputs();
  void coalesce_dimensions();
  void move_contiguous_kept_dim_inward();

  c10::ScalarType compute_common_dtype();
  c10::DimVector compatible_stride(int64_t element_size) const;
  c10::DimVector invert_perm(IntArrayRef input) const;
  void set_output_raw_strided(int output_idx, IntArrayRef sizes, IntArrayRef strides,
                              c10::TensorOptions options);
  void get_strides(int64_t* strides, int64_t ndim) const;
  void get_base_ptrs(char** ptrs) const;

  // See Note [Why TensorIterator has its own dim vector].
  TensorIteratorDimVector shape_;
  // shape_ as compute_shape() left it, for describe(); saved only when the setup changes
  // shape_ (empty otherwise: then shape_ still is the broadcast shape).
  TensorIteratorDimVector broadcast_shape_;
  TensorIteratorDimVector perm_;
  c10::SmallVector<OperandInfo, 4> operands_;
  int num_outputs_ = 0;
  c10::ScalarType common_dtype_ = c10::ScalarType::Undefined;
  c10::Device common_device_ = c10::Device(c10::DeviceType::CPU);
  FastSetupType fast_setup_type_ = FastSetupType::NONE;
  bool all_ops_same_shape_ = false;
  bool all_ops_are_scalars_ = false;
  bool has_coalesced_dimensions_ = false;
  bool is_reduction_ = false;
  bool enforce_linear_iteration_ = false;
  // The config's check_mem_overlap, for outputs resized later in build(): see Note [An output
  // resized onto its inputs].
  bool check_mem_overlap_ = true;
};

class TORCH_API TensorIterator final : public TensorIteratorBase {
 public:
  TensorIterator() = default;
  explicit TensorIterator(TensorIteratorConfig& config) { build(config); }

  // The common configurations (libtorch's builders). The borrowing_ forms are the same here:
  // a Tensor copy is one refcount increment.
  static TensorIterator binary_op(Tensor& out, const Tensor& a, const Tensor& b);
  static TensorIterator binary_float_op(Tensor& out, const Tensor& a, const Tensor& b);
  static TensorIterator comparison_op(Tensor& out, const Tensor& a, const Tensor& b);
  static TensorIterator unary_op(Tensor& out, const Tensor& a);
  static TensorIterator unary_float_op(Tensor& out, const Tensor& a);
  static TensorIterator nullary_op(Tensor& out);
  static TensorIterator reduce_op(Tensor& out, const Tensor& a);
  static TensorIterator borrowing_binary_op(Tensor& out, const Tensor& a, const Tensor& b) {
    return binary_op(out, a, b);
  }
  static TensorIterator borrowing_unary_op(Tensor& out, const Tensor& a) { return unary_op(out, a); }
  static TensorIterator borrowing_nullary_op(Tensor& out) { return nullary_op(out); }
};

class TORCH_API TensorIteratorConfig final {
 public:
  // User-provided, not = default: `TensorIteratorConfig()` value-initializes, which for a
  // defaulted constructor first zeroes the whole object (80 bytes of stores here, a `rep stos`
  // as soon as it grows a little) before the member initializers run. Every copy_ and
  // elementwise op makes one: contiguous() of the 8x8 transpose ran 16 ns faster without it.
  TensorIteratorConfig() {}
  TensorIteratorConfig(const TensorIteratorConfig&) = delete;
  TensorIteratorConfig& operator=(const TensorIteratorConfig&) = delete;
  TensorIteratorConfig(TensorIteratorConfig&&) = default;

  // Outputs must be added before inputs.
  TensorIteratorConfig& add_output(const Tensor& output);
  TensorIteratorConfig& add_input(const Tensor& input);
  TensorIteratorConfig& add_owned_output(const Tensor& output) { return add_output(output); }
  TensorIteratorConfig& add_owned_input(const Tensor& input) { return add_input(input); }
  TensorIteratorConfig& add_borrowed_output(const Tensor& output) { return add_output(output); }
  TensorIteratorConfig& add_borrowed_input(const Tensor& input) { return add_input(input); }

  TensorIteratorConfig& set_check_mem_overlap(bool v) { check_mem_overlap_ = v; return *this; }
  TensorIteratorConfig& check_all_same_dtype(bool v) { check_all_same_dtype_ = v; return *this; }
  TensorIteratorConfig& check_all_same_device(bool v) { check_all_same_device_ = v; return *this; }
  TensorIteratorConfig& enforce_safe_casting_to_output(bool v) {
    enforce_safe_casting_to_output_ = v;
    return *this;
  }
  TensorIteratorConfig& enforce_linear_iteration(bool v = true) {
    enforce_linear_iteration_ = v;
    return *this;
  }
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v) {
    promote_inputs_to_common_dtype_ = v;
    if (v) check_all_same_dtype_ = false;
    return *this;
  }
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v) {
    promote_integer_inputs_to_float_ = v;
    TORCH_INTERNAL_ASSERT(!v || promote_inputs_to_common_dtype_);
    return *this;
  }
  TensorIteratorConfig& cast_common_dtype_to_outputs(bool v) {
    cast_common_dtype_to_outputs_ = v;
    if (v) check_all_same_dtype_ = false;
    return *this;
  }
  TensorIteratorConfig& is_reduction(bool v) { is_reduction_ = v; return *this; }
  TensorIteratorConfig& allow_cpu_scalars(bool v) { allow_cpu_scalars_ = v; return *this; }
  TensorIteratorConfig& resize_outputs(bool v) { resize_outputs_ = v; return *this; }
  // Skip the shape computation: iterate over exactly this shape.
  TensorIteratorConfig& declare_static_shape(IntArrayRef shape);
  // ... and also squash these dims (size 1 in every operand's iteration).
  TensorIteratorConfig& declare_static_shape(IntArrayRef shape, IntArrayRef squash_dims);
  TensorIteratorConfig& declare_static_dtype_and_device(c10::ScalarType dtype, c10::Device device);

  TensorIterator build() {
    TensorIterator iter;
    iter.build(*this);
    return iter;
  }

 private:
  friend class TensorIteratorBase;

  c10::SmallVector<Tensor, 4> tensors_;
  int num_outputs_ = 0;
  int num_inputs_ = 0;
  c10::optional<c10::DimVector> static_shape_;
  c10::optional<c10::ScalarType> static_dtype_;
  c10::optional<c10::Device> static_device_;
  bool check_mem_overlap_ = true;
  bool allow_cpu_scalars_ = false;
  bool is_reduction_ = false;
  bool resize_outputs_ = true;
  bool check_all_same_dtype_ = true;
  bool check_all_same_device_ = true;
  bool enforce_safe_casting_to_output_ = false;
  bool enforce_linear_iteration_ = false;
  bool promote_inputs_to_common_dtype_ = false;
  bool promote_integer_inputs_to_float_ = false;
  bool cast_common_dtype_to_outputs_ = false;
};

// Broadcasts two shapes ("The size of tensor a (16) must match the size of tensor b (3) at
// non-singleton dimension 1").
TORCH_API c10::DimVector infer_size_dimvector(IntArrayRef a, IntArrayRef b);

template <typename T>
T TensorIteratorBase::scalar_value(int arg) const {
  const OperandInfo& op = operands_[arg];
  return c10::fetch_and_cast<T>(op.tensor.scalar_type(), op.tensor.data_ptr());
}

}  // namespace at
