#pragma once
// DeprecatedTypeProperties: a (Backend, ScalarType) pair, what libtorch's at::CPU(kFloat) and
// the deprecated Tensor::type() return. Kept for the code that still spells types this way:
//
//   at::Tensor t = at::ones({2}, at::CPU(at::kFloat));   // converts to TensorOptions
//   t.type().toString();                                  // "CPUFloatType"
//   t.type() == at::CPU(at::kFloat);                      // true; one object per pair
//
// Prefer t.options(), t.scalar_type() and t.device(). miniaten has only the strided layout, so
// options() and layout() refuse the sparse backends (toString and the rest work for every one).

#include <string>

#include "c10/core/Backend.h"
#include "c10/core/ScalarType.h"
#include "c10/core/TensorOptions.h"
#include "c10/util/Exception.h"

namespace at {

class Tensor;

class TORCH_API DeprecatedTypeProperties {
 public:
  DeprecatedTypeProperties(Backend backend, ScalarType scalar_type)
      : backend_(backend), scalar_type_(scalar_type) {}

  Backend backend() const { return backend_; }
  ScalarType scalarType() const { return scalar_type_; }
  caffe2::TypeMeta typeMeta() const { return caffe2::TypeMeta::fromScalarType(scalar_type_); }
  DeviceType device_type() const { return backendToDeviceType(backend_); }
  bool is_cuda() const { return device_type() == DeviceType::CUDA; }
  bool is_sparse() const { return c10::isSparse(backend_); }
  bool is_sparse_csr() const { return c10::isSparseCsr(backend_); }
  Layout layout() const {
    TORCH_CHECK(!is_sparse() && !is_sparse_csr(), "miniaten has only the strided layout, not ",
                c10::toString(backend_), "'s");
    return Layout::Strided;
  }

  bool operator==(const DeprecatedTypeProperties& other) const {
    return backend_ == other.backend() && scalar_type_ == other.scalarType();
  }
  bool operator!=(const DeprecatedTypeProperties& other) const { return !(*this == other); }

  // "CPUFloatType", "SparseCUDAHalfType"; "UndefinedType" when either part is undefined.
  std::string toString() const {
    if (backend_ == Backend::Undefined || scalar_type_ == ScalarType::Undefined) {
      return "UndefinedType";
    }
    return std::string(c10::toString(backend_)) + c10::toString(scalar_type_) + "Type";
  }

  DeprecatedTypeProperties& toBackend(Backend b) const;
  DeprecatedTypeProperties& toScalarType(ScalarType s) const;
  DeprecatedTypeProperties& cpu() const { return toBackend(Backend::CPU); }
  DeprecatedTypeProperties& cuda() const { return toBackend(Backend::CUDA); }

  // dtype, device (with the index, -1 for none) and layout.
  TensorOptions options(int16_t device_index = -1) const {
    return TensorOptions()
        .dtype(typeMeta())
        .device(Device(device_type(), static_cast<DeviceIndex>(device_index)))
        .layout(layout());
  }
  // The device must be of this backend's device type.
  TensorOptions options(c10::optional<Device> device_opt) const {
    if (!device_opt.has_value()) return options(-1);
    TORCH_INTERNAL_ASSERT(device_opt->type() == device_type());
    return options(device_opt->index());
  }
  operator TensorOptions() const { return options(); }  // NOLINT: implicit as in libtorch

  int64_t id() const {
    return static_cast<int64_t>(backend_) * static_cast<int64_t>(ScalarType::NumOptions) +
           static_cast<int64_t>(scalar_type_);
  }

  // src converted to this scalar type (and to to_device when given), always a new tensor.
  Tensor copy(const Tensor& src, bool non_blocking = false,
              c10::optional<Device> to_device = {}) const;

 private:
  Backend backend_;
  ScalarType scalar_type_;
};

inline std::ostream& operator<<(std::ostream& out, const DeprecatedTypeProperties& t) {
  return out << t.toString();
}

// The one object for each (backend, scalar type) pair: compare by ==, or by address.
TORCH_API DeprecatedTypeProperties& getDeprecatedTypeProperties(Backend backend, ScalarType s);

inline DeprecatedTypeProperties& CPU(ScalarType s) {
  return getDeprecatedTypeProperties(Backend::CPU, s);
}
inline DeprecatedTypeProperties& CUDA(ScalarType s) {
  return getDeprecatedTypeProperties(Backend::CUDA, s);
}

inline DeprecatedTypeProperties& DeprecatedTypeProperties::toBackend(Backend b) const {
  return getDeprecatedTypeProperties(b, scalar_type_);
}
inline DeprecatedTypeProperties& DeprecatedTypeProperties::toScalarType(ScalarType s) const {
  return getDeprecatedTypeProperties(backend_, s);
}

}  // namespace at
