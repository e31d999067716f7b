#include "c10/cuda/CUDAStream.h"

#include <array>
#include <atomic>
#include <mutex>
#include <ostream>
#include <tuple>

namespace c10 {
namespace cuda {

namespace {

// See Note [Stream ids].
constexpr StreamId kLowPriorityBase = 1;
constexpr StreamId kHighPriorityBase = kLowPriorityBase + kStreamsPerPool;
constexpr StreamId kFirstExternalId = kHighPriorityBase + kStreamsPerPool;

struct DevicePools {
  std::once_flag created;
  std::array<cudaStream_t, kStreamsPerPool> low{};
  std::array<cudaStream_t, kStreamsPerPool> high{};
  std::atomic<uint32_t> next_low{0};
  std::atomic<uint32_t> next_high{0};
};

std::array<DevicePools, C10_COMPILE_TIME_MAX_GPUS>& pools() {
  // Leaked on purpose: streams must outlive every static that might still queue work at exit.
  static auto* p = new std::array<DevicePools, C10_COMPILE_TIME_MAX_GPUS>();
  return *p;
}

// The calling thread's current stream id per device (0: the default stream).
thread_local std::array<StreamId, C10_COMPILE_TIME_MAX_GPUS> tls_current_streams{};

// The device a stream call means (-1: the current one), checked against the cached count;
// without devices, libtorch's reason.
DeviceIndex checked_device(DeviceIndex device) {
  const DeviceIndex count = device_count();
  if (C10_UNLIKELY(count == 0)) device_count_ensure_non_zero();
  if (device < 0) device = current_device();
  TORCH_CHECK(device < count, "Device index value ", static_cast<int>(device),
              " is out of index range [0, ", static_cast<int>(count), ")");
  return device;
}

void create_pools(DeviceIndex device) {
  DevicePools& p = pools()[device];
  std::call_once(p.created, [&] {
    const DeviceIndex previous = ExchangeDevice(device);
    int least = 0, greatest = 0;
    C10_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    for (int i = 0; i < kStreamsPerPool; ++i) {
      C10_CUDA_CHECK(cudaStreamCreateWithPriority(&p.low[i], cudaStreamNonBlocking, least));
      C10_CUDA_CHECK(cudaStreamCreateWithPriority(&p.high[i], cudaStreamNonBlocking, greatest));
    }
    ExchangeDevice(previous);
  });
}

CUDAStream make_stream(DeviceIndex device, StreamId id) {
  return CUDAStream(CUDAStream::UNCHECKED,
                    Stream(Stream::UNSAFE, Device(DeviceType::CUDA, device), id));
}

}  // namespace

CUDAStream::CUDAStream(Stream stream) : stream_(stream) {
  TORCH_CHECK(stream_.device_type() == DeviceType::CUDA, "Expected a CUDA stream but got ",
              stream_);
}

cudaStream_t CUDAStream::stream() const {
  const StreamId id = stream_.id();
  if (id == 0) return nullptr;
  if (id >= kFirstExternalId) return reinterpret_cast<cudaStream_t>(id);
  const DevicePools& p = pools()[device_index()];
  return id < kHighPriorityBase ? p.low[id - kLowPriorityBase] : p.high[id - kHighPriorityBase];
}

bool CUDAStream::query() const {
  const cudaError_t err = cudaStreamQuery(stream());
  if (err == cudaSuccess) return true;
  if (err == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  C10_CUDA_CHECK(err);
  return false;
}

void CUDAStream::synchronize() const {
  C10_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

int CUDAStream::priority() const {
  int priority = 0;
  C10_CUDA_CHECK(cudaStreamGetPriority(stream(), &priority));
  return priority;
}

std::tuple<int, int> CUDAStream::priority_range() {
  int least = 0, greatest = 0;
  C10_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  return std::make_tuple(least, greatest);
}

CUDAStream getStreamFromPool(bool isHighPriority, DeviceIndex device) {
  device = checked_device(device);
  create_pools(device);
  DevicePools& p = pools()[device];
  std::atomic<uint32_t>& next = isHighPriority ? p.next_high : p.next_low;
  const StreamId index = next.fetch_add(1, std::memory_order_relaxed) % kStreamsPerPool;
  return make_stream(device, (isHighPriority ? kHighPriorityBase : kLowPriorityBase) + index);
}

CUDAStream getStreamFromExternal(cudaStream_t ext_stream, DeviceIndex device_index) {
  const auto id = static_cast<StreamId>(reinterpret_cast<uintptr_t>(ext_stream));
  if (id == 0) return make_stream(device_index, 0);  // the NULL stream is the default stream
  TORCH_CHECK(id >= kFirstExternalId,
              "getStreamFromExternal: not a stream handle: ", static_cast<const void*>(ext_stream));
  return make_stream(device_index, id);
}

CUDAStream getDefaultCUDAStream(DeviceIndex device_index) {
  return make_stream(checked_device(device_index), 0);
}

CUDAStream getCurrentCUDAStream(DeviceIndex device_index) {
  device_index = checked_device(device_index);
  return make_stream(device_index, tls_current_streams[device_index]);
}

void setCurrentCUDAStream(CUDAStream stream) {
  tls_current_streams[checked_device(stream.device_index())] = stream.id();
}

std::ostream& operator<<(std::ostream& out, const CUDAStream& s) {
  return out << s.unwrap();
}

}  // namespace cuda
}  // namespace c10
