// The OpenMP side of Parallel.h. See Note [Parallel.h does not need OpenMP].

#include "aten/Parallel.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace at {

namespace {

// 0 until set_num_threads is called: then OpenMP's own default applies (OMP_NUM_THREADS or the
// core count). A process-wide value, not OpenMP's per-thread ICV, so that a set_num_threads on
// one thread governs parallel_for calls made from every thread (as libtorch's does).
std::atomic<int> num_threads_override{0};

// The chunk index of the running thread; see get_thread_num().
thread_local int thread_num = 0;

struct ThreadNumGuard {
  explicit ThreadNumGuard(int id) : saved_(thread_num) { thread_num = id; }
  ~ThreadNumGuard() { thread_num = saved_; }
  C10_DISABLE_COPY_AND_ASSIGN(ThreadNumGuard);

 private:
  int saved_;
};

#if C10_TSAN_ENABLED
// Whether this thread runs a chunk (what omp_in_parallel says on the OpenMP path).
thread_local bool in_region = false;
#endif

}  // namespace

int get_num_threads() {
  const int n = num_threads_override.load(std::memory_order_relaxed);
  return n > 0 ? n : omp_get_max_threads();
}

void set_num_threads(int nthreads) {
  TORCH_CHECK(nthreads > 0, "Expected positive number of threads");
  num_threads_override.store(nthreads, std::memory_order_relaxed);
}

int get_thread_num() {
  return thread_num;
}

#if C10_TSAN_ENABLED
bool in_parallel_region() {
  return in_region;
}
#else
bool in_parallel_region() {
  return omp_in_parallel() != 0;
}
#endif

namespace internal {

#if C10_TSAN_ENABLED
// Note [parallel_for under ThreadSanitizer]
// libgomp is not built with ThreadSanitizer: its team start and barriers synchronize through
// futexes and spin loops TSan cannot see, so every chunk reading the caller's data would be
// reported as a race. Under TSan (C10_TSAN_ENABLED: the MINIATEN_SANITIZE=thread build) the same chunks run on
// std::threads started and joined per call, which TSan understands; the splitting, the thread
// numbers, nested calls running serially and the exception rule are those of the OpenMP path.
void invoke_parallel(int64_t begin, int64_t end, int64_t grain_size, int max_threads,
                     c10::function_ref<void(int64_t, int64_t)> f) {
  int64_t num_chunks = max_threads;
  if (grain_size > 0) num_chunks = std::min(num_chunks, divup(end - begin, grain_size));
  const int64_t chunk_size = divup(end - begin, num_chunks);
  std::atomic_flag err_flag = ATOMIC_FLAG_INIT;
  std::exception_ptr eptr;
  auto run_chunk = [&](int tid) {
    const int64_t chunk_begin = begin + tid * chunk_size;
    if (chunk_begin >= end) return;
    const bool was_in_region = in_region;
    in_region = true;
    try {
      ThreadNumGuard guard(tid);
      f(chunk_begin, std::min(end, chunk_begin + chunk_size));
    } catch (...) {
      if (!err_flag.test_and_set()) eptr = std::current_exception();
    }
    in_region = was_in_region;
  };
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(max_threads - 1));
  for (int tid = 1; tid < max_threads; ++tid) workers.emplace_back(run_chunk, tid);
  run_chunk(0);
  for (std::thread& w : workers) w.join();
  if (eptr) std::rethrow_exception(eptr);
}
#else
void invoke_parallel(int64_t begin, int64_t end, int64_t grain_size, int max_threads,
                     c10::function_ref<void(int64_t, int64_t)> f) {
  std::atomic_flag err_flag = ATOMIC_FLAG_INIT;
  std::exception_ptr eptr;

  // The team always has max_threads threads (a constant team size lets GOMP reuse its pool);
  // the chunk count is decided inside. See Note [How parallel_for splits a range].
#pragma omp parallel num_threads(max_threads)
  {
    int64_t num_chunks = omp_get_num_threads();
    if (grain_size > 0) {
      num_chunks = std::min(num_chunks, divup(end - begin, grain_size));
    }
    const int tid = omp_get_thread_num();
    const int64_t chunk_size = divup(end - begin, num_chunks);
    const int64_t chunk_begin = begin + tid * chunk_size;
    if (chunk_begin < end) {
      try {
        ThreadNumGuard guard(tid);
        f(chunk_begin, std::min(end, chunk_begin + chunk_size));
      } catch (...) {
        if (!err_flag.test_and_set()) {
          eptr = std::current_exception();
        }
      }
    }
  }
  if (eptr) {
    std::rethrow_exception(eptr);
  }
}
#endif

}  // namespace internal
}  // namespace at
