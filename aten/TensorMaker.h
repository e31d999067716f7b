#pragma once
// at::from_blob and at::for_blob: a tensor over memory the caller owns, with no copy.
//
//   float data[6] = {0, 1, 2, 3, 4, 5};
//   at::Tensor t = at::from_blob(data, {2, 3});                 // Float, strides [3, 1]
//   at::Tensor u = at::from_blob(data, {2, 2}, {1, 2}, at::kFloat);
//   at::Tensor v = at::from_blob(p, {n}, [](void* p) { free(p); }, at::kLong);  // v frees p
//   at::Tensor w = at::for_blob(data, {2}).strides({2}).storage_offset(1).make_tensor();
//
// The tensor aliases the memory: writes through either are seen by both, and the memory must
// outlive every tensor (and view) made from it, unless a deleter hands its ownership over. The
// deleter runs, with the data pointer, when the last of them dies.
//
// Note [from_blob's storage]
// The storage starts at `data`, is not resizable and has no allocator; its size covers the
// elements the sizes, strides and storage offset reach. A storage offset moves the tensor's
// first element to data + offset elements. libtorch 1.13 counts the offset in elements on top
// of a size in bytes when strides are given (an offset of 1 over 12 bytes makes 13); miniaten
// counts bytes throughout (16), so that the storage always covers the tensor.

#include <functional>
#include <memory>

#include "aten/core/Tensor.h"
#include "c10/core/TensorOptions.h"

namespace at {

namespace detail {
inline void noopDelete(void*) {}
}  // namespace detail

// The fluent form every from_blob overload is written in.
class TORCH_API TensorMaker {
  friend TensorMaker for_blob(void* data, IntArrayRef sizes) noexcept;

 public:
  using ContextDeleter = c10::DeleterFnPtr;

  TensorMaker& strides(OptionalIntArrayRef value) noexcept {
    strides_ = value;
    return *this;
  }
  TensorMaker& storage_offset(c10::optional<int64_t> value) noexcept {
    storage_offset_ = value;
    return *this;
  }
  // Called with the data pointer when the storage dies. Excludes context().
  TensorMaker& deleter(std::function<void(void*)> value) noexcept {
    deleter_ = std::move(value);
    return *this;
  }
  // A pointer the storage owns instead, released with `deleter` when it dies.
  TensorMaker& context(void* value, ContextDeleter deleter = nullptr) noexcept {
    ctx_ = std::unique_ptr<void, ContextDeleter>{
        value, deleter != nullptr ? deleter : detail::noopDelete};
    return *this;
  }
  // The device the memory is on; by default, that of options() (its index, if any, must agree).
  TensorMaker& target_device(c10::optional<Device> value) noexcept {
    device_ = value;
    return *this;
  }
  TensorMaker& options(TensorOptions value) noexcept {
    opts_ = value;
    return *this;
  }

  // "Trying to create tensor with negative dimension -1: [-1, 2]", "The deleter and context
  // arguments are mutually exclusive.", "Specified device cpu:0 does not match device of data
  // cpu" (ValueErrors), as in libtorch.
  Tensor make_tensor();

 private:
  TensorMaker(void* data, IntArrayRef sizes) noexcept : data_{data}, sizes_{sizes} {}

  size_t computeStorageSize() const;
  DataPtr makeDataPtrFromDeleter() const;
  DataPtr makeDataPtrFromContext() noexcept;

  void* data_;
  IntArrayRef sizes_;
  OptionalIntArrayRef strides_{};
  c10::optional<int64_t> storage_offset_{};
  std::function<void(void*)> deleter_{};
  std::unique_ptr<void, ContextDeleter> ctx_{nullptr, detail::noopDelete};
  c10::optional<Device> device_{};
  TensorOptions opts_{};
};

inline TensorMaker for_blob(void* data, IntArrayRef sizes) noexcept {
  return TensorMaker{data, sizes};
}

inline Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides,
                        const std::function<void(void*)>& deleter,
                        const TensorOptions& options = {},
                        const c10::optional<Device> target_device = c10::nullopt) {
  return for_blob(data, sizes)
      .strides(strides)
      .deleter(deleter)
      .options(options)
      .target_device(target_device)
      .make_tensor();
}

inline Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                        const std::function<void(void*)>& deleter,
                        const TensorOptions& options = {},
                        const c10::optional<Device> target_device = c10::nullopt) {
  return for_blob(data, sizes)
      .strides(strides)
      .storage_offset(storage_offset)
      .deleter(deleter)
      .options(options)
      .target_device(target_device)
      .make_tensor();
}

inline Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                        const TensorOptions& options = {}) {
  return for_blob(data, sizes).deleter(deleter).options(options).make_tensor();
}

inline Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides,
                        const TensorOptions& options = {}) {
  return for_blob(data, sizes).strides(strides).options(options).make_tensor();
}

inline Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options = {}) {
  return for_blob(data, sizes).options(options).make_tensor();
}

}  // namespace at
