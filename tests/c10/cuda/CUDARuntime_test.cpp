// The CUDA runtime layer on a device: devices, streams (pools, current stream per thread,
// guards), and the caching allocator's behaviour seen from outside (no cudaMalloc in a steady
// loop, stats, emptyCache, the out-of-memory text). Skipped without a device; the no-device
// errors are tests/aten/cuda/CUDANoDevice_test.cpp's.

#include <gtest/gtest.h>

#include <sstream>
#include <thread>

#include "TestUtils.h"
#include "aten/ATen.h"
#include "c10/cuda/CUDACachingAllocator.h"
#include "c10/cuda/CUDAGuard.h"

namespace {

namespace alloc = c10::cuda::CUDACachingAllocator;
using test_util::error_of;

#define SKIP_WITHOUT_CUDA() \
  if (c10::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device"

int64_t agg(const alloc::StatArray& s) {
  return s[static_cast<size_t>(alloc::StatType::AGGREGATE)].current;
}

TEST(CUDADevice, CurrentDeviceAndGuards) {
  SKIP_WITHOUT_CUDA();
  EXPECT_GE(c10::cuda::device_count(), 1);
  EXPECT_EQ(c10::cuda::current_device(), 0);
  {
    c10::cuda::CUDAGuard g(0);
    EXPECT_EQ(g.original_device(), c10::Device("cuda:0"));
    EXPECT_EQ(c10::cuda::current_device(), 0);
  }
  c10::cuda::OptionalCUDAGuard none;
  EXPECT_FALSE(none.original_device().has_value());
  c10::cuda::OptionalCUDAGuard cpu_guard(c10::optional<c10::Device>(c10::Device("cpu")));
  EXPECT_FALSE(cpu_guard.current_device().has_value()) << "a CPU device sets nothing";
  // A device that does not exist is the runtime's error, in libtorch's words.
  const c10::DeviceIndex missing = c10::cuda::device_count();
  EXPECT_EQ(error_of([&] { c10::cuda::CUDAGuard g(missing); }),
            "CUDA error: invalid device ordinal\n"
            "GPU device may be out of range, do you have enough GPUs?");
  EXPECT_EQ(c10::cuda::current_device(), 0) << "a failed guard leaves the device alone";
  EXPECT_EQ(error_of([] { c10::cuda::CUDAGuard g(c10::Device("cpu")); }),
            "Expected a CUDA device, but got cpu");
  EXPECT_GT(c10::cuda::device_properties(0).multiProcessorCount, 0);
}

TEST(CUDAStreams, DefaultPoolAndCurrent) {
  SKIP_WITHOUT_CUDA();
  const c10::cuda::CUDAStream def = c10::cuda::getDefaultCUDAStream();
  EXPECT_EQ(def.id(), 0);
  EXPECT_EQ(def.stream(), nullptr) << "the default stream is the legacy NULL stream";
  EXPECT_EQ(c10::cuda::getCurrentCUDAStream(), def);
  std::ostringstream os;
  os << def;
  EXPECT_EQ(os.str(), "stream 0 on device cuda:0");
  // The pool hands out its 32 streams round robin, all distinct, then starts again.
  std::set<cudaStream_t> seen;
  const c10::cuda::CUDAStream first = c10::cuda::getStreamFromPool();
  seen.insert(first.stream());
  for (int i = 1; i < c10::cuda::kStreamsPerPool; ++i)
    seen.insert(c10::cuda::getStreamFromPool().stream());
  EXPECT_EQ(seen.size(), static_cast<size_t>(c10::cuda::kStreamsPerPool));
  EXPECT_EQ(seen.count(nullptr), 0u);
  EXPECT_EQ(c10::cuda::getStreamFromPool(), first);
  const c10::cuda::CUDAStream high = c10::cuda::getStreamFromPool(/*isHighPriority=*/true);
  EXPECT_LT(high.priority(), first.priority()) << "a lower number is a higher CUDA priority";
  // A guard makes a stream current for its scope, on this thread only.
  {
    c10::cuda::CUDAStreamGuard guard(first);
    EXPECT_EQ(c10::cuda::getCurrentCUDAStream(), first);
    c10::cuda::CUDAStream in_other_thread = def;
    std::thread([&] { in_other_thread = c10::cuda::getCurrentCUDAStream(); }).join();
    EXPECT_EQ(in_other_thread, def);
    // Work queued on the current stream: a copy, waited for with the stream.
    at::Tensor t = at::ones({1 << 20}, at::kCUDA);
    first.synchronize();
    EXPECT_TRUE(first.query());
  }
  EXPECT_EQ(c10::cuda::getCurrentCUDAStream(), def);
  // The c10::Stream round trip (IValue stores streams packed).
  const c10::Stream packed = c10::Stream::unpack(first.unwrap().pack());
  EXPECT_EQ(c10::cuda::CUDAStream(packed), first);
  EXPECT_EQ(error_of([] {
              c10::cuda::CUDAStream(c10::Stream(c10::Stream::DEFAULT, c10::Device("cpu")));
            }),
            "Expected a CUDA stream but got stream 0 on device cpu");
}

TEST(CUDACachingAllocator, SteadyLoopsNeverCallCudaMalloc) {
  SKIP_WITHOUT_CUDA();
  for (int i = 0; i < 3; ++i) at::empty({1 << 18}, at::kCUDA);  // warm the cache
  const auto before = alloc::getDeviceStats(0);
  for (int i = 0; i < 1000; ++i) {
    at::Tensor a = at::empty({1 << 18}, at::kCUDA);  // 1 MiB: small pool
    at::Tensor b = at::empty({3 << 20}, at::kCUDA);  // 12 MiB: large pool
    at::Tensor c = a.view({512, 512}).t().contiguous();
  }
  const auto after = alloc::getDeviceStats(0);
  EXPECT_LE(after.num_device_alloc - before.num_device_alloc, 2)
      << "at most the first b's and c's segments";
  EXPECT_EQ(agg(after.allocated_bytes), agg(before.allocated_bytes));
}

TEST(CUDACachingAllocator, StatsFollowTensors) {
  SKIP_WITHOUT_CUDA();
  const int64_t base = agg(alloc::getDeviceStats(0).allocated_bytes);
  {
    at::Tensor t = at::empty({1000}, at::kCUDA);  // 4000 bytes, rounded up to 4096
    EXPECT_EQ(agg(alloc::getDeviceStats(0).allocated_bytes), base + 4096);
    EXPECT_GE(agg(alloc::getDeviceStats(0).reserved_bytes), base + 4096);
  }
  EXPECT_EQ(agg(alloc::getDeviceStats(0).allocated_bytes), base);
  const int64_t reserved = agg(alloc::getDeviceStats(0).reserved_bytes);
  alloc::emptyCache();
  const auto stats = alloc::getDeviceStats(0);
  EXPECT_LT(agg(stats.reserved_bytes), reserved) << "the cached segment went back to the driver";
  if (agg(stats.allocated_bytes) == 0) {
    EXPECT_EQ(agg(stats.reserved_bytes), 0) << "nothing alive, nothing kept";
  }
  EXPECT_GE(stats.allocated_bytes[0].peak, base + 4096);
}

TEST(CUDACachingAllocator, OutOfMemoryNamesTheSizes) {
  SKIP_WITHOUT_CUDA();
  try {
    at::empty({int64_t{1} << 45}, at::kCUDA);  // 128 TiB of floats
    FAIL() << "expected an out-of-memory error";
  } catch (const c10::OutOfMemoryError& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_EQ(msg.rfind("CUDA out of memory. Tried to allocate 131072.00 GiB. GPU 0 has a total "
                        "capacity of ",
                        0),
              0u)
        << msg;
    EXPECT_NE(msg.find(" is allocated by PyTorch, and "), std::string::npos) << msg;
  }
  // The device is still usable.
  EXPECT_EQ(at::full({2}, 3.f, at::kCUDA)[1].item<float>(), 3.f);
}

TEST(CUDACachingAllocator, RecordStreamKeepsTheBlockFromTheOtherStream) {
  SKIP_WITHOUT_CUDA();
  alloc::emptyCache();  // no cached small segment: the next one starts with t
  const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  // Keep `side` busy for a while: a 1 GiB copy (large pool, not the small one under test).
  at::Tensor big_src = at::empty({1 << 28}, at::kCUDA);
  at::Tensor big_dst = at::empty({1 << 28}, at::kCUDA);
  at::Tensor t = at::empty({1 << 10}, at::kCUDA);
  void* first = t.data_ptr();
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    big_dst.copy_(big_src);
  }
  alloc::recordStream(t.storage().data_ptr(), side);
  t = at::Tensor();  // freed while `side` may still be using it
  at::Tensor x = at::empty({1 << 10}, at::kCUDA);
  EXPECT_NE(x.data_ptr(), first) << "reused before the side stream was done with it";
  side.synchronize();
  x = at::Tensor();
  at::Tensor y = at::empty({1 << 10}, at::kCUDA);
  EXPECT_EQ(y.data_ptr(), first) << "back in the pool once the side stream passed its event";
}

}  // namespace
