#pragma once
// CUDA streams as libtorch hands them out (c10/cuda/CUDAStream.h):
//
//   c10::cuda::CUDAStream s = c10::cuda::getStreamFromPool();      // one of 32 per device
//   {
//     c10::cuda::CUDAStreamGuard guard(s);                         // current on its device
//     at::Tensor y = x.clone();                                    // kernels run on s
//   }
//   cudaStream_t raw = c10::cuda::getCurrentCUDAStream();          // the default stream again
//
// Note [Stream ids]
// A CUDAStream is a c10::Stream (device + 64-bit id) whose id says which cudaStream_t it is:
//   0                      the device's default stream (the legacy NULL stream, as libtorch's)
//   1 .. kStreamsPerPool   the low-priority pool, created on the first getStreamFromPool
//   kStreamsPerPool+1 ..   the high-priority pool
//   anything larger        an external cudaStream_t (getStreamFromExternal), its address
// The current stream is thread-local and per device, so a stream set in one thread never
// leaks into another, as in libtorch.

#include <cuda_runtime_api.h>

#include <iosfwd>

#include "c10/core/Stream.h"
#include "c10/cuda/CUDAFunctions.h"

namespace c10 {
namespace cuda {

// Streams in each of the two pools, per device (libtorch's number).
constexpr int kStreamsPerPool = 32;

class C10_API CUDAStream {
 public:
  enum Unchecked { UNCHECKED };

  // A c10::Stream of a CUDA device ("Expected a CUDA stream" otherwise).
  explicit CUDAStream(Stream stream);
  explicit CUDAStream(Unchecked, Stream stream) : stream_(stream) {}

  bool operator==(const CUDAStream& other) const noexcept { return stream_ == other.stream_; }
  bool operator!=(const CUDAStream& other) const noexcept { return stream_ != other.stream_; }

  operator cudaStream_t() const { return stream(); }
  operator Stream() const { return unwrap(); }

  DeviceType device_type() const { return DeviceType::CUDA; }
  DeviceIndex device_index() const { return stream_.device_index(); }
  Device device() const { return Device(DeviceType::CUDA, device_index()); }
  StreamId id() const { return stream_.id(); }

  // True when all work queued on the stream has finished.
  bool query() const;
  // Waits for all work queued on the stream.
  void synchronize() const;
  int priority() const;
  cudaStream_t stream() const;
  Stream unwrap() const { return stream_; }

  // The (least, greatest) priorities the device allows; greater means lower priority in CUDA.
  static std::tuple<int, int> priority_range();

 private:
  Stream stream_;
};

// A stream from the device's pool (round robin); -1 is the current device.
C10_API CUDAStream getStreamFromPool(bool isHighPriority = false, DeviceIndex device = -1);
// A stream someone else created; the caller keeps it alive.
C10_API CUDAStream getStreamFromExternal(cudaStream_t ext_stream, DeviceIndex device_index);
C10_API CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
// The calling thread's current stream on the device (its default stream until one is set).
C10_API CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
// Makes `stream` current on its device for the calling thread (the current device is unchanged).
C10_API void setCurrentCUDAStream(CUDAStream stream);

// "stream 0 on device cuda:0"
C10_API std::ostream& operator<<(std::ostream& out, const CUDAStream& s);

}  // namespace cuda
}  // namespace c10

namespace std {
template <>
struct hash<c10::cuda::CUDAStream> {
  size_t operator()(c10::cuda::CUDAStream s) const noexcept {
    return std::hash<c10::Stream>{}(s.unwrap());
  }
};
}  // namespace std
