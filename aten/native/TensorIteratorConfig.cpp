// TensorIteratorConfig (the builder) and the common configurations (binary_op, unary_op, ...).

#include "aten/native/TensorIterator.h"

namespace at {

// ---- TensorIteratorConfig -------------------------------------------------------------------

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& output) {
  TORCH_INTERNAL_ASSERT(num_inputs_ == 0,
                        "Keep in mind that you have to add all outputs first before adding any input.");
  tensors_.push_back(output);
  num_outputs_++;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& input) {
  tensors_.push_back(input);
  num_inputs_++;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_static_shape(IntArrayRef shape) {
  // Static shapes mean no broadcasting and no resizing.
  TORCH_CHECK(!resize_outputs_, "resize_outputs() must be called before declare_static_shape(...)");
  static_shape_ = c10::DimVector(shape.begin(), shape.end());
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_static_shape(IntArrayRef shape,
                                                                 IntArrayRef squash_dims) {
  declare_static_shape(shape);
  if (static_shape_->empty()) return *this;
  for (int64_t squash_dim : squash_dims) {
    TORCH_CHECK(squash_dim >= 0 && squash_dim < static_cast<int64_t>(static_shape_->size()),
                "squash_dim ", squash_dim, " must be in [0, ", static_shape_->size(), ").");
    (*static_shape_)[squash_dim] = 1;
  }
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_static_dtype_and_device(c10::ScalarType dtype,
                                                                            c10::Device device) {
  TORCH_CHECK(!check_all_same_dtype_,
              "check_all_same_dtype(false) must be called before declare_static_dtype(...)");
  static_dtype_ = dtype;
  static_device_ = device;
  return *this;
}

// ---- Builders -------------------------------------------------------------------------------

namespace {
// What every binary arithmetic op asks for: promote to the common dtype, compute there, cast
// back into a given output only when that is safe.
TensorIteratorConfig binary_config(Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .add_output(out)
      .add_input(a)
      .add_input(b)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
  return config;
}
}  // namespace

TensorIterator TensorIterator::binary_op(Tensor& out, const Tensor& a, const Tensor& b) {
  return binary_config(out, a, b).build();
}

// True division: integers compute in the default float dtype.
TensorIterator TensorIterator::binary_float_op(Tensor& out, const Tensor& a, const Tensor& b) {
  return binary_config(out, a, b).promote_integer_inputs_to_float(true).build();
}

TensorIterator TensorIterator::comparison_op(Tensor& out, const Tensor& a, const Tensor& b) {
  // Compare in the common dtype; the output (bool unless given) keeps its own dtype.
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .add_output(out)
      .add_input(a)
      .add_input(b)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .build();
}

TensorIterator TensorIterator::unary_op(Tensor& out, const Tensor& a) {
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .add_output(out)
      .add_input(a)
      .cast_common_dtype_to_outputs(false)
      .enforce_safe_casting_to_output(false)
      .check_all_same_dtype(true)
      .build();
}

TensorIterator TensorIterator::unary_float_op(Tensor& out, const Tensor& a) {
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .add_output(out)
      .add_input(a)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .promote_integer_inputs_to_float(true)
      .build();
}

TensorIterator TensorIterator::nullary_op(Tensor& out) {
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .check_all_same_dtype(false)
      .add_output(out)
      .resize_outputs(false)  // the output decides the shape
      .build();
}

TensorIterator TensorIterator::reduce_op(Tensor& out, const Tensor& a) {
  TORCH_INTERNAL_ASSERT(out.defined());
  return TensorIteratorConfig()
      .set_check_mem_overlap(false)
      .add_output(out)
      .add_input(a)
      .resize_outputs(false)
      .is_reduction(true)
      .promote_inputs_to_common_dtype(true)  // libtorch: the output's dtype is the input's
      .build();
}

}  // namespace at
