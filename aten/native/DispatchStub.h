#pragma once
// DispatchStub: one function pointer per device (and, on CPU, per instruction set) for a kernel
// that operators call directly, below the dispatcher. libtorch's mechanism and macros.
//
//   // In a header (aten/native/BinaryOps.h):
//   using binary_fn = void (*)(TensorIteratorBase&);
//   DECLARE_DISPATCH(binary_fn, add_stub);
//
//   // In the operator's file (aten/native/BinaryOps.cpp):
//   DEFINE_DISPATCH(add_stub);
//   ... add_stub(iter.device_type(), iter);        // runs the kernel for that device
//
//   // In the kernel file (aten/native/cpu/BinaryOpsKernel.cpp, compiled three times):
//   namespace at { namespace native { inline namespace CPU_CAPABILITY {
//   void add_kernel(TensorIteratorBase& iter) { ... cpu_kernel_vec(...) ... }
//   }  // namespace CPU_CAPABILITY
//   REGISTER_DISPATCH(add_stub, &add_kernel);
//   }}
//
//   // In a CUDA file: REGISTER_CUDA_DISPATCH(add_stub, &add_kernel_cuda);
//
// Note [Kernels are compiled once per CPU capability]
// A file listed in miniaten_add_cpu_kernels (aten/CMakeLists.txt) is compiled three times:
//   DEFAULT  baseline x86-64 flags
//   AVX2     -mavx2 -mfma -mf16c
//   AVX512   -mavx512f -mavx512bw -mavx512vl -mavx512dq -mfma
// each with CPU_CAPABILITY defined to that name (and CPU_CAPABILITY_<name> defined), and all
// with -ffp-contract=off: no copy fuses a*b+c behind the kernel's back, so an elementwise
// kernel gives bit-identical results in all three (a reduction's order still follows
// Vectorized<T>::size(), which is 64 bytes in the AVX512 copy and 32 in the others). Code in
// `namespace CPU_CAPABILITY` (Vectorized, Loops.h, the kernels) gets distinct symbols in each
// copy, and REGISTER_DISPATCH in each copy fills the stub's slot for its capability. The first
// call through a stub picks the best filled slot the running CPU supports (get_cpu_capability),
// so one binary runs AVX-512 code where it can and baseline code everywhere else.
//
// Note [How the capability is chosen]
// From the CPU: AVX512 needs avx512f, avx512bw, avx512vl, avx512dq and fma; AVX2 needs avx2 and
// fma. The environment variable ATEN_CPU_CAPABILITY=default|avx2|avx512 (libtorch's) lowers the
// choice, e.g. to test the baseline kernels on a new machine; asking for more than the CPU has
// is ignored with a warning (libtorch would crash with an illegal instruction).
// (libtorch 1.13 makes AVX512 opt-in through that variable; miniaten's vectors are plain GCC
// vectors with no per-ISA tuning to be slower in, so it takes what the CPU offers.)

#include <array>
#include <atomic>
#include <type_traits>
#include <utility>

#include "c10/core/DeviceType.h"
#include "c10/util/Exception.h"
#include "c10/util/Macros.h"

namespace at {
namespace native {

enum class CPUCapability : int { DEFAULT = 0, AVX2 = 1, AVX512 = 2, NUM_OPTIONS };

// The capability kernels run with in this process (computed once). See Note [How the capability
// is chosen].
TORCH_API CPUCapability get_cpu_capability();
// "DEFAULT", "AVX2", "AVX512".
TORCH_API const char* cpu_capability_name(CPUCapability capability);

namespace detail {
// The best capability this CPU supports, ignoring the environment.
TORCH_API CPUCapability detect_cpu_capability();
// What get_cpu_capability() would answer now: the CPU, lowered by ATEN_CPU_CAPABILITY.
TORCH_API CPUCapability compute_cpu_capability();
}  // namespace detail

// The untyped part of every stub: the registered pointers and the choice among them.
// Constant-initialized (all members have constant initializers), so REGISTER_DISPATCH from
// another file's static initializer can never run before the stub exists.
struct TORCH_API DispatchStubImpl {
  void* get_call_ptr(c10::DeviceType device_type, const char* stub_name);
  // The best registered CPU kernel for `capability`: its slot, else the next lower filled one.
  void* choose_cpu_impl(CPUCapability capability, const char* stub_name) const;

  std::array<void*, static_cast<int>(CPUCapability::NUM_OPTIONS)> cpu_ptrs{};
  void* cuda_dispatch_ptr = nullptr;
  // choose_cpu_impl(get_cpu_capability()), cached by the first call.
  std::atomic<void*> cpu_dispatch_ptr{nullptr};
};

template <typename FnPtr, typename T>
struct DispatchStub;

// T is the stub's own struct (see DECLARE_DISPATCH); it names the stub in error messages.
template <typename rT, typename T, typename... Args>
struct DispatchStub<rT (*)(Args...), T> {
  using FnPtr = rT (*)(Args...);

  constexpr DispatchStub() = default;
  DispatchStub(const DispatchStub&) = delete;
  DispatchStub& operator=(const DispatchStub&) = delete;

  template <typename... ArgTypes>
  rT operator()(c10::DeviceType device_type, ArgTypes&&... args) {
    FnPtr call_ptr = reinterpret_cast<FnPtr>(impl_.get_call_ptr(device_type, T::stub_name));
    return (*call_ptr)(std::forward<ArgTypes>(args)...);
  }

  void set_cpu_dispatch_ptr(CPUCapability capability, FnPtr fn) {
    impl_.cpu_ptrs[static_cast<int>(capability)] = reinterpret_cast<void*>(fn);
    impl_.cpu_dispatch_ptr.store(nullptr);  // choose again on the next call
  }
  void set_cuda_dispatch_ptr(FnPtr fn) { impl_.cuda_dispatch_ptr = reinterpret_cast<void*>(fn); }

  // The kernel registered for exactly this capability, or nullptr (tests call each copy).
  FnPtr cpu_kernel_for(CPUCapability capability) const {
    return reinterpret_cast<FnPtr>(impl_.cpu_ptrs[static_cast<int>(capability)]);
  }
  // The kernel a CPU call runs on this machine.
  FnPtr cpu_kernel() {
    return reinterpret_cast<FnPtr>(impl_.get_call_ptr(c10::DeviceType::CPU, T::stub_name));
  }

 private:
  DispatchStubImpl impl_;
};

template <typename Stub>
struct RegisterCPUDispatch {
  RegisterCPUDispatch(Stub& stub, CPUCapability capability, typename Stub::FnPtr fn) {
    stub.set_cpu_dispatch_ptr(capability, fn);
  }
};

template <typename Stub>
struct RegisterCUDADispatch {
  RegisterCUDADispatch(Stub& stub, typename Stub::FnPtr fn) { stub.set_cuda_dispatch_ptr(fn); }
};

}  // namespace native
}  // namespace at

// The stub's type is a struct of its own name (libtorch's trick), so each stub is a distinct
// type even when two share a function type.
#define DECLARE_DISPATCH(fn, name)                     \
  struct name : ::at::native::DispatchStub<fn, name> { \
    static constexpr const char* stub_name = #name;    \
    constexpr name() = default;                        \
    name(const name&) = delete;                        \
    name& operator=(const name&) = delete;             \
  };                                                   \
  extern TORCH_API struct name name

#define DEFINE_DISPATCH(name) struct name name

// Fills one capability's slot. Usable from any namespace: the registrar is a file-local object.
#define REGISTER_ARCH_DISPATCH(name, arch, fn)                              \
  static ::at::native::RegisterCPUDispatch<decltype(name)> C10_CONCATENATE( \
      name##__register_##arch##_, __LINE__)(name, ::at::native::CPUCapability::arch, fn)

// Same kernel in every slot: for a file compiled once.
#define REGISTER_ALL_CPU_DISPATCH(name, fn)  \
  REGISTER_ARCH_DISPATCH(name, DEFAULT, fn); \
  REGISTER_ARCH_DISPATCH(name, AVX2, fn);    \
  REGISTER_ARCH_DISPATCH(name, AVX512, fn)

// libtorch needs this to define the unused slots; here unfilled slots are simply empty.
#define REGISTER_NO_CPU_DISPATCH(name) static_assert(true, "")

#define REGISTER_CUDA_DISPATCH(name, fn)                                     \
  static ::at::native::RegisterCUDADispatch<decltype(name)> C10_CONCATENATE( \
      name##__register_cuda_, __LINE__)(name, fn)

// In a per-capability kernel file: the slot of the capability being compiled.
// See Note [Kernels are compiled once per CPU capability].
#if defined(__CUDACC__)
#define REGISTER_DISPATCH(name, fn) REGISTER_CUDA_DISPATCH(name, fn)
#elif defined(CPU_CAPABILITY)
#define REGISTER_DISPATCH(name, fn) REGISTER_ARCH_DISPATCH(name, CPU_CAPABILITY, fn)
#endif
