// The CUDA device's DeviceGuardImplInterface, so that generic code (c10::DeviceGuard, the
// autograd engine) switches CUDA devices and streams as it does any other device's; libtorch's
// c10/cuda/impl/CUDAGuardImpl. Each call is the CUDA runtime call c10/cuda already wraps.

#include "c10/core/impl/DeviceGuardImplInterface.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAFunctions.h"
#include "c10/cuda/CUDAStream.h"

namespace c10 {
namespace cuda {
namespace {

DeviceIndex checked_index(Device d) {
  TORCH_CHECK(d.is_cuda(), "Expected a CUDA device, but got ", d);
  return d.index();
}

struct CUDAGuardImpl final : public c10::impl::DeviceGuardImplInterface {
  DeviceType type() const override { return DeviceType::CUDA; }
  Device exchangeDevice(Device d) const override {
    return Device(DeviceType::CUDA, ExchangeDevice(checked_index(d)));
  }
  Device getDevice() const override { return Device(DeviceType::CUDA, current_device()); }
  void setDevice(Device d) const override { set_device(checked_index(d)); }
  void uncheckedSetDevice(Device d) const noexcept override {
    C10_CUDA_CHECK_WARN(cudaSetDevice(d.index()));
  }
  Stream getStream(Device d) const noexcept override {
    return getCurrentCUDAStream(d.index()).unwrap();
  }
  Stream getDefaultStream(Device d) const override {
    return getDefaultCUDAStream(d.index()).unwrap();
  }
  Stream exchangeStream(Stream s) const noexcept override {
    const CUDAStream stream(CUDAStream::UNCHECKED, s);
    const Stream previous = getCurrentCUDAStream(stream.device_index()).unwrap();
    setCurrentCUDAStream(stream);
    return previous;
  }
  DeviceIndex deviceCount() const noexcept override { return device_count(); }
  void synchronizeStream(const Stream& s) const override {
    CUDAStream(CUDAStream::UNCHECKED, s).synchronize();
  }
};

}  // namespace

C10_REGISTER_GUARD_IMPL(CUDA, CUDAGuardImpl);

}  // namespace cuda
}  // namespace c10
