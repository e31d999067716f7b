#pragma once
// Fakes of the CUDA side of the caching allocators, so that their bookkeeping is tested without a
// GPU. Memory is real host memory (tests may write to the blocks they get), handed out within a
// byte budget; events complete only when the test says so, or when waited for.
//
//   FakeDeviceMemory memory(/*total_bytes=*/kGiB);
//   DeviceCachingAllocator alloc(/*device=*/0, &memory);
//   Block* b = alloc.malloc(100, nullptr);    // memory.malloc_sizes() is {2 MiB}
//   memory.events().complete_on(stream);      // events recorded on `stream` are now done

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "c10/cuda/CachingAllocatorCore.h"
#include "c10/util/Exception.h"

namespace fake_cuda {

using c10::cuda::CUDACachingAllocator::EventHandle;
using c10::cuda::CUDACachingAllocator::StreamHandle;

constexpr size_t kKiB = 1024;
constexpr size_t kMiB = 1024 * kKiB;
constexpr size_t kGiB = 1024 * kMiB;

// A stream handle for tests: an opaque value, never dereferenced. stream(0) is the default stream.
inline StreamHandle stream(uintptr_t id) {
  return reinterpret_cast<StreamHandle>(id);
}

// Events that complete when the test completes them, or when they are synchronized.
class FakeEvents {
 public:
  EventHandle record(StreamHandle stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    events_.push_back(std::make_unique<Event>(stream));
    return events_.back().get();
  }
  bool query(EventHandle handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    return live(handle).complete;
  }
  void synchronize(EventHandle handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    live(handle).complete = true;
    ++synchronizations_;
  }
  void release(EventHandle handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    live(handle).released = true;
  }

  void complete_on(StreamHandle stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& event : events_) {
      if (event->stream == stream) event->complete = true;
    }
  }
  void complete_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& event : events_) event->complete = true;
  }

  int recorded() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int>(events_.size());
  }
  int recorded_on(StreamHandle stream) const {
    std::lock_guard<std::mutex> lock(mutex_);
    int n = 0;
    for (const auto& event : events_) n += event->stream == stream ? 1 : 0;
    return n;
  }
  // Recorded and not yet released by the allocator.
  int outstanding() const {
    std::lock_guard<std::mutex> lock(mutex_);
    int n = 0;
    for (const auto& event : events_) n += event->released ? 0 : 1;
    return n;
  }
  int synchronizations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return synchronizations_;
  }

 private:
  struct Event {
    explicit Event(StreamHandle s) : stream(s) {}
    StreamHandle stream;
    bool complete = false;
    bool released = false;
  };

  // The event behind a handle, which must be one of ours and not released.
  Event& live(EventHandle handle) {
    for (auto& event : events_) {
      if (event.get() == handle) {
        EXPECT_FALSE(event->released) << "the allocator used an event after releasing it";
        return *event;
      }
    }
    ADD_FAILURE() << "the allocator passed an event it never got: " << handle;
    throw std::logic_error("unknown fake event");
  }

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Event>> events_;
  int synchronizations_ = 0;
};

// Device memory within a budget of `total_bytes`.
class FakeDeviceMemory final : public c10::cuda::CUDACachingAllocator::DeviceMemory {
 public:
  explicit FakeDeviceMemory(size_t total_bytes) : total_(total_bytes) {}
  ~FakeDeviceMemory() override {
    for (const auto& entry : live_) std::free(entry.first);
  }

  void* malloc(int device, size_t size) override {
    std::lock_guard<std::mutex> lock(mutex_);
    malloc_sizes_.push_back(size);
    TORCH_CHECK(!error_, *error_);
    if (used_ + size > total_) return nullptr;
    void* ptr = std::aligned_alloc(kAlignment, (size + kAlignment - 1) / kAlignment * kAlignment);
    live_.emplace(ptr, size);
    used_ += size;
    return ptr;
  }
  void free(int device, void* ptr) override {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = live_.find(ptr);
    ASSERT_NE(it, live_.end()) << "the allocator freed " << ptr << ", which it never got";
    freed_sizes_.push_back(it->second);
    used_ -= it->second;
    live_.erase(it);
    std::free(ptr);
  }
  void mem_get_info(int device, size_t* free, size_t* total) override {
    std::lock_guard<std::mutex> lock(mutex_);
    *free = total_ - used_;
    *total = total_;
  }
  EventHandle record_event(int device, StreamHandle stream) override {
    return events_.record(stream);
  }
  bool query_event(EventHandle event) override { return events_.query(event); }
  void synchronize_event(EventHandle event) override { events_.synchronize(event); }
  void release_event(EventHandle event) override { events_.release(event); }
  void synchronize_device(int device) override {
    events_.complete_all();  // everything queued on the device is done
    std::lock_guard<std::mutex> lock(mutex_);
    ++device_synchronizations_;
  }

  // Makes every later malloc throw c10::Error with this text (a failure other than no memory);
  // std::nullopt stops it.
  void fail_with(std::optional<std::string> error) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = std::move(error);
  }

  // The size of every malloc call, failed ones included, in order.
  std::vector<size_t> malloc_sizes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return malloc_sizes_;
  }
  size_t malloc_calls() const { return malloc_sizes().size(); }
  // The size of every allocation freed, in order.
  std::vector<size_t> freed_sizes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return freed_sizes_;
  }
  size_t used_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return used_;
  }
  size_t live_allocations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.size();
  }
  int device_synchronizations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return device_synchronizations_;
  }
  FakeEvents& events() { return events_; }

 private:
  static constexpr size_t kAlignment = 512;  // cudaMalloc aligns to at least 256 bytes

  mutable std::mutex mutex_;
  const size_t total_;
  size_t used_ = 0;
  std::map<void*, size_t> live_;
  std::vector<size_t> malloc_sizes_;
  std::vector<size_t> freed_sizes_;
  std::optional<std::string> error_;
  int device_synchronizations_ = 0;
  FakeEvents events_;
};

}  // namespace fake_cuda
