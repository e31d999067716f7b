#pragma once
// TensorOptions: the optional dtype / device / layout / requires_grad / pinned_memory /
// memory_format a factory takes, with libtorch's builders.
//
//   at::empty({2, 3}, at::TensorOptions().dtype(at::kLong).device(at::kCPU));
//   at::zeros({2}, at::kFloat);                      // implicit from a ScalarType
//   at::ones({2}, at::dtype(at::kDouble).requires_grad(true));

#include <iosfwd>
#include <type_traits>
#include <utility>

#include "c10/core/Device.h"
#include "c10/core/DispatchKey.h"
#include "c10/core/Layout.h"
#include "c10/core/MemoryFormat.h"
#include "c10/core/ScalarType.h"
#include "c10/util/typeid.h"
#include "c10/util/Optional.h"

namespace c10 {

struct C10_API TensorOptions {
  TensorOptions() = default;
  /* implicit */ TensorOptions(ScalarType dtype) { set_dtype(dtype); }
  /* implicit */ TensorOptions(caffe2::TypeMeta dtype) { set_dtype(dtype.toScalarType()); }
  /* implicit */ TensorOptions(Device device) { set_device(device); }
  // Anything a Device can be built from ("cuda:1", kCUDA, {kCUDA, 1}). A template, as in
  // libtorch, so that a literal 0 does not become a device string and make calls ambiguous.
  template <typename... Args,
            typename = std::enable_if_t<std::is_constructible<Device, Args&&...>::value>>
  /* implicit */ TensorOptions(Args&&... args) {
    set_device(Device(std::forward<Args>(args)...));
  }
  /* implicit */ TensorOptions(Layout layout) { *this = this->layout(layout); }
  /* implicit */ TensorOptions(MemoryFormat memory_format) {
    *this = this->memory_format(memory_format);
  }

  // Builders: each returns a copy with one field set (nullopt unsets it).
  TensorOptions dtype(c10::optional<ScalarType> dtype) const noexcept {
    TensorOptions r = *this;
    r.set(r.dtype_, r.has_dtype_, dtype);
    return r;
  }
  TensorOptions dtype(c10::optional<caffe2::TypeMeta> dtype) const noexcept {
    return this->dtype(dtype ? c10::optional<ScalarType>(dtype->toScalarType()) : c10::nullopt);
  }
  template <typename T>
  TensorOptions dtype() const noexcept {
    return dtype(CppTypeToScalarType<T>::value);
  }
  TensorOptions device(c10::optional<Device> device) const noexcept {
    TensorOptions r = *this;
    r.set(r.device_, r.has_device_, device);
    return r;
  }
  // libtorch's `.device(at::kCUDA, 1)`: the Device built from its parts.
  TensorOptions device(DeviceType type, DeviceIndex index) const {
    return device(Device(type, index));
  }
  TensorOptions device_index(DeviceIndex index) const {
    return device(Device(DeviceType::CUDA, index));
  }
  TensorOptions layout(c10::optional<Layout> layout) const noexcept {
    TensorOptions r = *this;
    r.set(r.layout_, r.has_layout_, layout);
    return r;
  }
  TensorOptions requires_grad(c10::optional<bool> requires_grad) const noexcept {
    TensorOptions r = *this;
    r.set(r.requires_grad_, r.has_requires_grad_, requires_grad);
    return r;
  }
  TensorOptions pinned_memory(c10::optional<bool> pinned_memory) const noexcept {
    TensorOptions r = *this;
    r.set(r.pinned_memory_, r.has_pinned_memory_, pinned_memory);
    return r;
  }
  TensorOptions memory_format(c10::optional<MemoryFormat> memory_format) const noexcept {
    TensorOptions r = *this;
    r.set(r.memory_format_, r.has_memory_format_, memory_format);
    return r;
  }

  // Getters with libtorch's defaults: float, cpu, strided, false, false.
  caffe2::TypeMeta dtype() const noexcept {
    return caffe2::TypeMeta::fromScalarType(has_dtype_ ? dtype_ : ScalarType::Float);
  }
  Device device() const noexcept { return has_device_ ? device_ : Device(DeviceType::CPU); }
  Layout layout() const noexcept { return has_layout_ ? layout_ : Layout::Strided; }
  bool requires_grad() const noexcept { return has_requires_grad_ && requires_grad_; }
  bool pinned_memory() const noexcept { return has_pinned_memory_ && pinned_memory_; }

  bool has_dtype() const noexcept { return has_dtype_; }
  bool has_device() const noexcept { return has_device_; }
  bool has_layout() const noexcept { return has_layout_; }
  bool has_requires_grad() const noexcept { return has_requires_grad_; }
  bool has_pinned_memory() const noexcept { return has_pinned_memory_; }
  bool has_memory_format() const noexcept { return has_memory_format_; }

  // libtorch returns the dtype as a TypeMeta here.
  c10::optional<caffe2::TypeMeta> dtype_opt() const noexcept {
    return has_dtype_ ? c10::make_optional(caffe2::TypeMeta::fromScalarType(dtype_)) : c10::nullopt;
  }
  c10::optional<Device> device_opt() const noexcept { return get(device_, has_device_); }
  c10::optional<Layout> layout_opt() const noexcept { return get(layout_, has_layout_); }
  c10::optional<bool> requires_grad_opt() const noexcept {
    return get(requires_grad_, has_requires_grad_);
  }
  c10::optional<bool> pinned_memory_opt() const noexcept {
    return get(pinned_memory_, has_pinned_memory_);
  }
  c10::optional<MemoryFormat> memory_format_opt() const noexcept {
    return get(memory_format_, has_memory_format_);
  }

  // Fields set in `options` win; the others come from this.
  TensorOptions merge_in(const TensorOptions& options) const noexcept {
    TensorOptions r = options;
    if (!r.has_dtype_) r.set(r.dtype_, r.has_dtype_, get(dtype_, has_dtype_));
    if (!r.has_device_) r.set(r.device_, r.has_device_, device_opt());
    if (!r.has_layout_) r.set(r.layout_, r.has_layout_, layout_opt());
    if (!r.has_requires_grad_) r.set(r.requires_grad_, r.has_requires_grad_, requires_grad_opt());
    if (!r.has_pinned_memory_) r.set(r.pinned_memory_, r.has_pinned_memory_, pinned_memory_opt());
    if (!r.has_memory_format_) r.set(r.memory_format_, r.has_memory_format_, memory_format_opt());
    return r;
  }

 private:
  void set_dtype(ScalarType dtype) { set(dtype_, has_dtype_, c10::optional<ScalarType>(dtype)); }
  void set_device(Device device) { set(device_, has_device_, c10::optional<Device>(device)); }

  template <typename T>
  static void set(T& field, bool& has, const c10::optional<T>& value) {
    has = value.has_value();
    if (has) field = *value;
  }
  template <typename T>
  static c10::optional<T> get(const T& field, bool has) {
    return has ? c10::optional<T>(field) : c10::nullopt;
  }

  // Values with "is it set" flags (libtorch's representation; 16 bytes).
  Device device_ = Device(DeviceType::CPU);
  ScalarType dtype_ = ScalarType::Float;
  Layout layout_ = Layout::Strided;
  MemoryFormat memory_format_ = MemoryFormat::Contiguous;
  bool requires_grad_ = false;
  bool pinned_memory_ = false;
  bool has_device_ = false;
  bool has_dtype_ = false;
  bool has_layout_ = false;
  bool has_requires_grad_ = false;
  bool has_pinned_memory_ = false;
  bool has_memory_format_ = false;
};

inline TensorOptions dtype(ScalarType dtype) { return TensorOptions().dtype(dtype); }
inline TensorOptions dtype(caffe2::TypeMeta dtype) { return TensorOptions().dtype(dtype); }
template <typename T>
inline TensorOptions dtype() { return TensorOptions().dtype<T>(); }
inline TensorOptions device(Device device) { return TensorOptions().device(device); }
inline TensorOptions device_index(DeviceIndex index) { return TensorOptions().device_index(index); }
inline TensorOptions layout(Layout layout) { return TensorOptions().layout(layout); }
inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}
inline TensorOptions memory_format(MemoryFormat memory_format) {
  return TensorOptions().memory_format(memory_format);
}

// Printed as libtorch: TensorOptions(dtype=float (default), device=cpu (default), ...).
C10_API std::ostream& operator<<(std::ostream& stream, const TensorOptions& options);

inline ScalarType typeMetaToScalarTypeOpt(c10::optional<caffe2::TypeMeta> m) {
  return m ? m->toScalarType() : ScalarType::Undefined;
}
inline c10::optional<ScalarType> optTypeMetaToScalarType(c10::optional<caffe2::TypeMeta> m) {
  if (!m) return c10::nullopt;
  return m->toScalarType();
}

// The dispatch key of a device's backend (CPU -> DispatchKey::CPU, ...).
C10_API DispatchKey backendDispatchKey(DeviceType device_type);
// The backend key a factory with these options dispatches to (what BackendSelect computes).
C10_API DispatchKey computeDispatchKey(c10::optional<ScalarType> dtype,
                                       c10::optional<Layout> layout,
                                       c10::optional<Device> device);

}  // namespace c10

namespace at {
using c10::device;
using c10::device_index;
using c10::dtype;
using c10::layout;
using c10::memory_format;
using c10::requires_grad;
using c10::TensorOptions;
}  // namespace at
