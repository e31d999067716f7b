#include "aten/core/Tensor.h"

namespace at {

namespace detail {
void throw_undefined_tensor(const char* what) {
  TORCH_CHECK(false, what, "() called on an undefined Tensor");
}
void throw_data_ptr_type_mismatch(c10::ScalarType expected, c10::ScalarType found) {
  TORCH_CHECK(false, "expected scalar type ", expected, " but found ", found);
}
}  // namespace detail

c10::MemoryFormat TensorBase::suggest_memory_format(bool channels_last_strides_exact_match) const {
  const c10::TensorImpl* self = impl("suggest_memory_format");
  if (self->is_strides_like_channels_last()) {
    if (!channels_last_strides_exact_match ||
        c10::IntArrayRef(c10::get_channels_last_strides_2d(sizes())) == strides()) {
      return c10::MemoryFormat::ChannelsLast;
    }
  } else if (self->is_strides_like_channels_last_3d()) {
    if (!channels_last_strides_exact_match ||
        c10::IntArrayRef(c10::get_channels_last_strides_3d(sizes())) == strides()) {
      return c10::MemoryFormat::ChannelsLast3d;
    }
  }
  return c10::MemoryFormat::Contiguous;
}

std::string TensorBase::toString() const {
  if (!defined()) return "UndefinedType";
  // libtorch names the backend's dispatch key ("CPU", "CUDA", "Meta"; "PrivateUse1" whatever
  // name the backend registered for its device type).
  return std::string(c10::toString(c10::backendDispatchKey(device().type()))) +
         c10::toString(scalar_type()) + "Type";
}

}  // namespace at
