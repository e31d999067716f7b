#pragma once
// Intra-op parallelism: split an index range into chunks and run them on OpenMP threads.
//
//   at::parallel_for(0, n, at::internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
//     for (int64_t i = begin; i < end; ++i) out[i] = a[i] + b[i];
//   });
//   float sum = at::parallel_reduce(0, n, 2048, 0.f,
//       [&](int64_t begin, int64_t end, float acc) {
//         for (int64_t i = begin; i < end; ++i) acc += a[i];
//         return acc;
//       },
//       std::plus<float>());
//
// Note [How parallel_for splits a range]
// As libtorch's ParallelOpenMP.h: a range of n > grain_size elements, outside any parallel
// region and with more than one thread, is cut into min(get_num_threads(), ceil(n / grain_size))
// chunks of equal size (the last one shorter) and each chunk runs once on its own thread.
// Anything else runs f(begin, end) on the calling thread. So a chunk is never more than
// ~grain_size elements short of what the grain asks for, never more chunks than threads, and
// nested calls (from inside a chunk) run serially: no oversubscription.
// The first exception thrown by any chunk is rethrown in the caller once every chunk is done.
//
// Note [Parallel.h does not need OpenMP]
// libtorch's parallel_for opens the `#pragma omp parallel` region in the header, so every file
// that calls it must be compiled with -fopenmp. Here the header type-erases the chunk body into
// a c10::function_ref (one indirect call per chunk, not per element) and Parallel.cpp owns the
// region: only Parallel.cpp is compiled with OpenMP, and users of the library need no flags.

#include <cstdint>

#include "c10/util/Exception.h"
#include "c10/util/FunctionRef.h"
#include "c10/util/Macros.h"
#include "c10/util/SmallVector.h"

namespace at {

namespace internal {
// Below this many elements a loop is not worth a thread (libtorch's value).
constexpr int64_t GRAIN_SIZE = 32768;

// Runs f over [begin, end) on up to max_threads OpenMP threads.
// See Note [How parallel_for splits a range].
TORCH_API void invoke_parallel(int64_t begin, int64_t end, int64_t grain_size, int max_threads,
                               c10::function_ref<void(int64_t, int64_t)> f);
}  // namespace internal

// The number of threads parallel_for may use: set_num_threads' value, else OMP_NUM_THREADS,
// else the number of cores (OpenMP's default).
TORCH_API int get_num_threads();
// Applies to every later parallel_for, from any thread.
TORCH_API void set_num_threads(int nthreads);
// Inside a parallel_for chunk: the index of the thread running it (0 .. get_num_threads()-1).
// Outside: 0.
TORCH_API int get_thread_num();
// True while running inside a parallel_for chunk on an OpenMP team.
TORCH_API bool in_parallel_region();

inline int64_t divup(int64_t x, int64_t y) {
  return (x + y - 1) / y;
}

template <class F>
inline void parallel_for(const int64_t begin, const int64_t end, const int64_t grain_size,
                         const F& f) {
  TORCH_INTERNAL_ASSERT(grain_size >= 0, "parallel_for: negative grain_size ", grain_size);
  if (begin >= end) {
    return;
  }
  const int64_t numiter = end - begin;
  if (numiter <= grain_size || numiter == 1 || in_parallel_region()) {
    f(begin, end);
    return;
  }
  const int max_threads = get_num_threads();
  if (max_threads == 1) {
    f(begin, end);
    return;
  }
  internal::invoke_parallel(begin, end, grain_size, max_threads,
                            [&f](int64_t b, int64_t e) { f(b, e); });
}

// Reduces [begin, end): each chunk folds its part with f(chunk_begin, chunk_end, ident), the
// per-thread results are combined with sf in thread order. sf must be associative, and ident
// its identity (it seeds every chunk).
template <class scalar_t, class F, class SF>
inline scalar_t parallel_reduce(const int64_t begin, const int64_t end, const int64_t grain_size,
                                const scalar_t ident, const F& f, const SF& sf) {
  TORCH_CHECK(grain_size >= 0, "Expected grain_size >= 0 but got ", grain_size);
  if (begin >= end) {
    return ident;
  }
  const int max_threads = get_num_threads();
  if (end - begin <= grain_size || in_parallel_region() || max_threads == 1) {
    return f(begin, end, ident);
  }
  c10::SmallVector<scalar_t, 64> results(static_cast<size_t>(max_threads), ident);
  internal::invoke_parallel(begin, end, grain_size, max_threads, [&](int64_t b, int64_t e) {
    results[get_thread_num()] = f(b, e, ident);
  });
  scalar_t result = ident;
  for (const scalar_t& partial : results) {
    result = sf(result, partial);
  }
  return result;
}

}  // namespace at
