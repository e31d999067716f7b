// TensorIterator::build()'s type decisions: the common dtype and device of the operands, their
// checks, and the temporaries that make a mismatched operand fit (an output computed in the
// common dtype and cast back, an input converted up front). The other steps of build() are in
// TensorIterator.cpp.

#include "aten/ATen.h"
#include "aten/native/TensorIterator.h"
#include "aten/native/TypePromotion.h"

namespace at {

c10::ScalarType TensorIteratorBase::compute_common_dtype() {
  native::ResultTypeState state;
  for (const auto& op : operands_) {
    if (op.is_output) continue;
    state = native::update_result_type_state(op.tensor, state);
  }
  common_dtype_ = native::result_type(state);
  TORCH_INTERNAL_ASSERT(common_dtype_ != c10::ScalarType::Undefined);
  return common_dtype_;
}

c10::ScalarType TensorIteratorBase::common_dtype() const {
  TORCH_INTERNAL_ASSERT(common_dtype_ != c10::ScalarType::Undefined,
                        "Queried for invalid common dtype!");
  return common_dtype_;
}

namespace {

C10_NOINLINE void check_same_dtype(const OperandInfo* ops, int nt, c10::ScalarType common_dtype) {
  for (int i = 0; i < nt; ++i) {
    if (!ops[i].tensor.defined()) continue;
    TORCH_CHECK(ops[i].target_dtype == common_dtype, "Found dtype ", ops[i].target_dtype,
                " but expected ", common_dtype);
  }
}

[[noreturn]] C10_NOINLINE void fail_device_mismatch(c10::Device common, c10::Device other) {
  TORCH_CHECK(false,
              "Expected all tensors to be on the same device, but found at least two devices, ",
              common, " and ", other, "!");
  __builtin_unreachable();
}

[[noreturn]] C10_NOINLINE void fail_unsafe_cast(c10::ScalarType common, c10::ScalarType output) {
  TORCH_CHECK(false, "result type ", common, " can't be cast to the desired output type ",
              output);
  __builtin_unreachable();
}

// An output of another dtype gets a temporary; cast_outputs() copies it back.
C10_NOINLINE void make_output_temporary(OperandInfo& op, c10::ScalarType common_dtype) {
  op.original_tensor = op.tensor;
  op.tensor = at::empty_like(op.tensor, op.tensor.options().dtype(common_dtype),
                             c10::MemoryFormat::Contiguous);
  op.current_dtype = common_dtype;
  op.target_dtype = common_dtype;
}

// An input of another dtype is converted up front.
C10_NOINLINE void convert_input(OperandInfo& op, c10::ScalarType common_dtype) {
  Tensor converted = at::empty_like(op.tensor, op.tensor.options().dtype(common_dtype));
  converted.copy_(op.tensor);
  op.tensor = converted;
  op.current_dtype = common_dtype;
  op.target_dtype = common_dtype;
}

}  // namespace

// Note [Operands are converted before a CUDA op kernel]
// As on the CPU, an input of another dtype than the common one is converted first (a copy_ to a
// temporary) and an output of another dtype gets a temporary that cast_outputs() copies back, so
// the op kernels see one dtype and the GPU's are compiled without dynamic casting (each
// functor's loops are then two kernels, not four, and none carries a switch over every dtype:
// what keeps the CUDA build within CI's time). ATen casts inside its CUDA kernels instead, which
// saves the extra pass for mixed-dtype operands, a rare case. copy_ itself promotes nothing and
// still casts in its kernel (CopyKernel.cu). A 0-dim CPU input beside CUDA operands stays as it
// is: its value is read on the host in whatever dtype (Note [A CPU scalar rides along as a
// kernel argument]).
//
// Common device, common dtype, and the temporaries that make mismatched operands fit it.
// See Note [Rare paths out of line].
void TensorIteratorBase::compute_types(const TensorIteratorConfig& config) {
  c10::Device common_device = c10::kCPU;
  common_dtype_ = c10::ScalarType::Undefined;
  c10::ScalarType output_dtype = c10::ScalarType::Undefined;
  bool has_different_input_dtypes = false;
  bool has_different_output_dtypes = false;
  bool has_undefined_outputs = false;

  for (auto& op : operands_) {
    if (!op.is_type_defined()) {
      TORCH_INTERNAL_ASSERT(op.is_output, "Found type undefined input tensor!");
      if (config.static_dtype_.has_value()) {
        op.target_dtype = *config.static_dtype_;
      } else {
        has_undefined_outputs = true;
      }
      if (config.static_device_.has_value()) op.device = *config.static_device_;
      if (has_undefined_outputs || !op.device.has_value()) continue;
    }
    if (!op.tensor.defined()) continue;
    // The first non-CPU device is the common one.
    if (common_device == c10::kCPU && !op.tensor.is_cpu()) common_device = op.tensor.device();
    if (!op.is_output) {
      if (op.target_dtype != common_dtype_) {
        if (common_dtype_ == c10::ScalarType::Undefined) {
          common_dtype_ = op.target_dtype;
        } else {
          has_different_input_dtypes = true;
        }
      }
    } else if (op.target_dtype != output_dtype) {
      if (output_dtype == c10::ScalarType::Undefined) {
        output_dtype = op.target_dtype;
      } else {
        has_different_output_dtypes = true;
      }
    }
  }

  if (config.check_all_same_dtype_ &&
      (has_different_input_dtypes || has_different_output_dtypes ||
       (common_dtype_ != output_dtype && output_dtype != c10::ScalarType::Undefined))) {
    check_same_dtype(operands_.data(), ntensors(), common_dtype_);
  }

  if (!has_undefined_outputs && !config.check_all_same_device_ &&
      !config.promote_inputs_to_common_dtype_ && !config.cast_common_dtype_to_outputs_ &&
      !config.enforce_safe_casting_to_output_) {
    if (has_different_input_dtypes) common_dtype_ = c10::ScalarType::Undefined;
    common_device_ = common_device;
    for (auto& op : operands_) {
      if (!op.device.has_value()) op.device = common_device;
    }
    return;
  }

  if ((has_different_input_dtypes || all_ops_are_scalars_) &&
      config.promote_inputs_to_common_dtype_) {
    common_dtype_ = compute_common_dtype();
  }
  if (config.promote_integer_inputs_to_float_ && c10::isIntegralType(common_dtype_, true)) {
    common_dtype_ = c10::ScalarType::Float;  // the default dtype
  }

  common_device_ = common_device;
  for (auto& op : operands_) {
    const bool is_type_defined = op.is_type_defined();
    const bool is_device_defined = op.is_device_defined();
    if (!is_type_defined) op.target_dtype = common_dtype_;
    if (!is_device_defined) op.device = common_device;
    if (!is_type_defined && !is_device_defined) continue;
    if (!op.tensor.defined()) continue;

    if (config.check_all_same_device_) {
      if (!common_device.is_cpu() && config.allow_cpu_scalars_ && !op.is_output &&
          op.tensor.dim() == 0 && op.tensor.is_cpu()) {
        // A CPU scalar may ride along with a CUDA kernel.
      } else if (C10_UNLIKELY(*op.device != common_device)) {
        fail_device_mismatch(common_device, *op.device);
      }
    }
    if (config.enforce_safe_casting_to_output_ && op.is_output &&
        op.current_dtype != common_dtype_ && !c10::canCast(common_dtype_, op.current_dtype)) {
      fail_unsafe_cast(common_dtype_, op.current_dtype);
    }
    // See Note [Operands are converted before a CUDA op kernel]. Meta converts as the CPU does:
    // a converted input may have other strides than the original (an expanded input becomes
    // contiguous), and the output's strides follow the converted inputs, so a Meta result has
    // the CPU result's strides only if Meta converts too. (libtorch 1.13 converts on the CPU
    // only, and its Meta results can differ there: sub(Int expanded, Long transposed).)
    if (common_device.is_cpu() || common_device.is_meta() ||
        (common_device.is_cuda() && !op.tensor.is_cpu())) {
      if (config.cast_common_dtype_to_outputs_ && op.is_output &&
          op.current_dtype != common_dtype_) {
        make_output_temporary(op, common_dtype_);
      }
      if (config.promote_inputs_to_common_dtype_ && !op.is_output &&
          op.current_dtype != common_dtype_) {
        convert_input(op, common_dtype_);
      }
    }
  }
}

}  // namespace at
