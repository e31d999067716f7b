#include "aten/TensorMaker.h"

#include "aten/detail/EmptyTensor.h"
#include "c10/core/StorageSize.h"

namespace at {

namespace {

// Owns a std::function deleter and the pointer to hand it; the DataPtr's context.
struct StdFunctionContext {
  void* data;
  std::function<void(void*)> deleter;

  static void release(void* ctx) {
    auto* self = static_cast<StdFunctionContext*>(ctx);
    self->deleter(self->data);
    delete self;
  }
};

}  // namespace

Tensor TensorMaker::make_tensor() {
  at::detail::check_size_nonnegative(sizes_);
  TORCH_CHECK_VALUE(!deleter_ || !ctx_, "The deleter and context arguments are mutually exclusive.");

  const Device options_device = opts_.device();
  if (!device_.has_value()) {
    // The memory's device is the options' device type; CPU memory has no index.
    device_ = options_device.type() == DeviceType::CPU
                  ? Device(DeviceType::CPU)
                  : Device(options_device.type(),
                           options_device.has_index() ? options_device.index() : 0);
  }
  if (options_device.has_index()) {
    TORCH_CHECK_VALUE(options_device == *device_, "Specified device ", options_device,
                      " does not match device of data ", *device_);
  }

  const size_t size_bytes = computeStorageSize();
  DataPtr data_ptr = deleter_ ? makeDataPtrFromDeleter() : makeDataPtrFromContext();
  c10::Storage storage(c10::make_intrusive<c10::StorageImpl>(
      c10::StorageImpl::use_byte_size_t(), size_bytes, std::move(data_ptr),
      /*allocator=*/nullptr, /*resizable=*/false));

  auto impl = c10::make_intrusive<c10::TensorImpl>(
      std::move(storage), c10::keysetForBackend(c10::backendDispatchKey(device_->type())),
      opts_.dtype());
  if (strides_) {
    impl->set_sizes_and_strides(sizes_, *strides_);
  } else {
    impl->set_sizes_contiguous(sizes_);
  }
  if (storage_offset_) impl->set_storage_offset(*storage_offset_);
  return Tensor(std::move(impl));
}

// See Note [from_blob's storage].
size_t TensorMaker::computeStorageSize() const {
  const size_t itemsize = opts_.dtype().itemsize();
  const size_t offset = storage_offset_ ? static_cast<size_t>(*storage_offset_) : 0;
  if (strides_) {
    TORCH_CHECK(sizes_.size() == strides_->size(), "dimensionality of sizes (", sizes_.size(),
                ") must match dimensionality of strides (", strides_->size(), ")");
    return c10::computeStorageNbytes(sizes_, *strides_, itemsize, offset);
  }
  return c10::computeStorageNbytesContiguous(sizes_, itemsize, offset);
}

DataPtr TensorMaker::makeDataPtrFromDeleter() const {
  auto* ctx = new StdFunctionContext{data_, deleter_};
  return DataPtr(data_, ctx, &StdFunctionContext::release, *device_);
}

DataPtr TensorMaker::makeDataPtrFromContext() noexcept {
  ContextDeleter deleter = ctx_.get_deleter();
  return DataPtr(data_, ctx_.release(), deleter, *device_);
}

}  // namespace at
