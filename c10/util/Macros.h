#pragma once
// Compiler helpers shared by every layer.

#define C10_LIKELY(x) __builtin_expect(static_cast<bool>(x), 1)
#define C10_UNLIKELY(x) __builtin_expect(static_cast<bool>(x), 0)
#define C10_NOINLINE __attribute__((noinline))
#define C10_ALWAYS_INLINE inline __attribute__((always_inline))
#define C10_API __attribute__((visibility("default")))
#define TORCH_API C10_API
#define C10_UNUSED __attribute__((__unused__))

#define C10_CONCATENATE_IMPL(s1, s2) s1##s2
#define C10_CONCATENATE(s1, s2) C10_CONCATENATE_IMPL(s1, s2)
#define C10_UID __COUNTER__
#define C10_ANONYMOUS_VARIABLE(str) C10_CONCATENATE(str, __COUNTER__)

#define C10_DISABLE_COPY_AND_ASSIGN(classname) \
  classname(const classname&) = delete;        \
  classname& operator=(const classname&) = delete

// Functions that CUDA kernels call too (Half, BFloat16, complex, the GPU loops' index math):
// __host__ __device__ under nvcc, nothing for the host compiler.
#ifdef __CUDACC__
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#else
#define C10_HOST_DEVICE
#define C10_DEVICE
#define C10_HOST
#endif

// Thread-locals read on every dispatcher call. The initial-exec model makes each access one
// %fs-relative load even from inside a shared library, instead of a __tls_get_addr call (the
// library is linked, not dlopen'ed late, so static TLS space is available).
#define C10_TLS_FAST __attribute__((tls_model("initial-exec")))

// Whether this translation unit is built with AddressSanitizer (libtorch's name). GCC defines
// __SANITIZE_ADDRESS__; clang 14 only answers __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define C10_ASAN_ENABLED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define C10_ASAN_ENABLED 1
#endif
#endif
#ifndef C10_ASAN_ENABLED
#define C10_ASAN_ENABLED 0
#endif
// The same for ThreadSanitizer.
#if defined(__SANITIZE_THREAD__)
#define C10_TSAN_ENABLED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define C10_TSAN_ENABLED 1
#endif
#endif
#ifndef C10_TSAN_ENABLED
#define C10_TSAN_ENABLED 0
#endif

// As in libtorch, at:: sees every c10:: name (at::DispatchKey, at::irange, at::ArrayRef ...):
// code written for libtorch spells them either way.
namespace c10 {}
namespace at {
using namespace c10;
}  // namespace at
namespace caffe2 {
using namespace c10;
}  // namespace caffe2
