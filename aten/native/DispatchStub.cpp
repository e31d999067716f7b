#include "aten/native/DispatchStub.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace at {
namespace native {

namespace {
#ifdef MINIATEN_HAVE_CUDA
constexpr const char* kNoCudaHint = "";
#else
constexpr const char* kNoCudaHint = " (miniaten was built without CUDA)";
#endif
}  // namespace

const char* cpu_capability_name(CPUCapability capability) {
  switch (capability) {
    case CPUCapability::DEFAULT:
      return "DEFAULT";
    case CPUCapability::AVX2:
      return "AVX2";
    case CPUCapability::AVX512:
      return "AVX512";
    case CPUCapability::NUM_OPTIONS:
      break;
  }
  return "UNKNOWN";
}

namespace detail {

CPUCapability detect_cpu_capability() {
#if defined(__x86_64__) || defined(__i386__)
  // Needed when this runs from a static initializer, before libgcc has probed the CPU.
  __builtin_cpu_init();
  const bool fma = __builtin_cpu_supports("fma");
  if (fma && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
    return CPUCapability::AVX512;
  }
  // The AVX2 kernels also convert Half with F16C (every AVX2 CPU has it; clang 14's
  // __builtin_cpu_supports does not know the name, so CPUID leaf 1 is asked directly).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
  if (fma && f16c && __builtin_cpu_supports("avx2")) {
    return CPUCapability::AVX2;
  }
#endif
  return CPUCapability::DEFAULT;
}

CPUCapability compute_cpu_capability() {
  const CPUCapability detected = detect_cpu_capability();
  const char* env = std::getenv("ATEN_CPU_CAPABILITY");
  if (env == nullptr) {
    return detected;
  }
  CPUCapability requested;
  if (std::strcmp(env, "default") == 0) {
    requested = CPUCapability::DEFAULT;
  } else if (std::strcmp(env, "avx2") == 0) {
    requested = CPUCapability::AVX2;
  } else if (std::strcmp(env, "avx512") == 0) {
    requested = CPUCapability::AVX512;
  } else {
    TORCH_WARN("ignoring invalid value for ATEN_CPU_CAPABILITY: ", env);
    return detected;
  }
  if (static_cast<int>(requested) > static_cast<int>(detected)) {
    TORCH_WARN("ignoring ATEN_CPU_CAPABILITY=", env, ": this CPU supports at most ",
               cpu_capability_name(detected));
    return detected;
  }
  return requested;
}

}  // namespace detail

CPUCapability get_cpu_capability() {
  static const CPUCapability capability = detail::compute_cpu_capability();
  return capability;
}

void* DispatchStubImpl::choose_cpu_impl(CPUCapability capability, const char* stub_name) const {
  for (int c = static_cast<int>(capability); c >= 0; --c) {
    if (cpu_ptrs[c] != nullptr) {
      return cpu_ptrs[c];
    }
  }
  TORCH_CHECK(false, "DispatchStub: missing CPU kernel for ", stub_name);
}

void* DispatchStubImpl::get_call_ptr(c10::DeviceType device_type, const char* stub_name) {
  switch (device_type) {
    case c10::DeviceType::CPU: {
      void* fn = cpu_dispatch_ptr.load(std::memory_order_acquire);
      if (C10_UNLIKELY(fn == nullptr)) {
        fn = choose_cpu_impl(get_cpu_capability(), stub_name);
        cpu_dispatch_ptr.store(fn, std::memory_order_release);
      }
      return fn;
    }
    case c10::DeviceType::CUDA:
      TORCH_CHECK(cuda_dispatch_ptr != nullptr, "DispatchStub: missing CUDA kernel for ", stub_name,
                  kNoCudaHint);
      return cuda_dispatch_ptr;
    default:
      TORCH_CHECK(false, "DispatchStub: unsupported device type ", device_type, " for ", stub_name);
  }
}

}  // namespace native
}  // namespace at
