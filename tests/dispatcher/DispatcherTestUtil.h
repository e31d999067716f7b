#pragma once
// Helpers for dispatcher tests: tensors carrying a given backend's keys, unique operator names,
// and kernels that record which of them ran.

#include <atomic>
#include <string>

#include "aten/detail/EmptyTensor.h"
#include "dispatcher/Library.h"

namespace test_util {

// A tensor whose key set is {backend, ADInplaceOrView, Autograd<backend>} (no storage needed
// unless it is a CPU tensor).
inline at::Tensor tensor_for(c10::DispatchKey backend) {
  if (backend == c10::DispatchKey::CPU) return at::detail::empty_cpu({2}, at::kFloat);
  c10::Device device = backend == c10::DispatchKey::CUDA   ? c10::Device(c10::kCUDA, 0)
                       : backend == c10::DispatchKey::Meta ? c10::Device(c10::kMeta)
                                                           : c10::Device(c10::kPrivateUse1, 0);
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::keysetForBackend(backend),
                                                   caffe2::TypeMeta::Make<float>(), device);
  impl->set_sizes_contiguous({2});
  return at::Tensor(std::move(impl));
}

// "test::op_7": every test gets operators of its own.
inline std::string unique_op(const char* stem = "op") {
  static std::atomic<int> counter{0};
  return std::string(stem) + "_" + std::to_string(counter++);
}

// The name of the last kernel that ran (set by the kernels below).
inline std::string& last_kernel() {
  static thread_local std::string name;
  return name;
}

template <const char* Name>
at::Tensor record(const at::Tensor& t) {
  last_kernel() = Name;
  return t;
}

}  // namespace test_util
