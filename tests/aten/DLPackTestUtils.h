#pragma once
// A DLManagedTensor from a producer other than miniaten: one float, on the device type given as
// an int (a producer may write one the enum lacks), whose deleter counts its calls.

#include <dlpack/dlpack.h>

#include <cstdint>
#include <cstring>

namespace dlpack_test {

struct OneFloat {
  explicit OneFloat(int device_type) {
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor* self) {
      ++static_cast<OneFloat*>(self->manager_ctx)->deleted;
    };
    managed.dl_tensor.data = &value;
    std::memcpy(&managed.dl_tensor.device.device_type, &device_type, sizeof(int));
    managed.dl_tensor.ndim = 1;
    managed.dl_tensor.dtype = {kDLFloat, 32, 1};
    managed.dl_tensor.shape = shape;
  }
  OneFloat(const OneFloat&) = delete;
  OneFloat& operator=(const OneFloat&) = delete;

  float value = 1;
  int64_t shape[1] = {1};
  int deleted = 0;
  DLManagedTensor managed{};
};

}  // namespace dlpack_test
