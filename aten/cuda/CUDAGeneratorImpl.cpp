// The CUDA generators: one default per device, made on first use (CUDAGeneratorImpl.h).

#include "aten/cuda/CUDAGeneratorImpl.h"

#include <cstring>
#include <deque>
#include <mutex>

#include "aten/core/Tensor.h"
#include "aten/detail/EmptyTensor.h"
#include "c10/cuda/CUDAFunctions.h"

namespace at {

CUDAGeneratorImpl::CUDAGeneratorImpl(c10::DeviceIndex device_index)
    : c10::GeneratorImpl{c10::Device(c10::DeviceType::CUDA, device_index),
                         c10::DispatchKeySet(c10::DispatchKey::CUDA)} {}

void CUDAGeneratorImpl::set_current_seed(uint64_t seed) {
  seed_ = seed;
  offset_ = 0;
}

uint64_t CUDAGeneratorImpl::current_seed() const {
  return seed_;
}

uint64_t CUDAGeneratorImpl::seed() {
  const uint64_t random = c10::detail::getNonDeterministicRandom(/*is_cuda=*/true);
  set_current_seed(random);
  return random;
}

c10::DeviceType CUDAGeneratorImpl::device_type() {
  return c10::DeviceType::CUDA;
}

PhiloxCudaState CUDAGeneratorImpl::philox_inputs() {
  return PhiloxCudaState{seed_, offset_++};
}

c10::intrusive_ptr<c10::TensorImpl> CUDAGeneratorImpl::get_state() const {
  Tensor state = detail::empty_cpu({16}, c10::ScalarType::Byte);
  std::memcpy(state.data_ptr(), &seed_, 8);
  std::memcpy(static_cast<char*>(state.data_ptr()) + 8, &offset_, 8);
  return state.getIntrusivePtr();
}

void CUDAGeneratorImpl::set_state(const c10::TensorImpl& new_state) {
  detail::check_rng_state(new_state);
  TORCH_CHECK(new_state.numel() == 16, "RNG state is wrong size");
  const auto* bytes = static_cast<const char*>(new_state.data());
  std::memcpy(&seed_, bytes, 8);
  std::memcpy(&offset_, bytes + 8, 8);
}

CUDAGeneratorImpl* CUDAGeneratorImpl::clone_impl() const {
  auto* gen = new CUDAGeneratorImpl(device_.index());
  gen->seed_ = seed_;
  gen->offset_ = offset_;
  return gen;
}

namespace cuda {
namespace detail {

const Generator& getDefaultCUDAGenerator(c10::DeviceIndex device_index) {
  // Made under a lock on first use, never freed (kernels may draw during static destruction).
  static auto* mutex = new std::mutex;
  static auto* generators = new std::deque<Generator>();
  const c10::DeviceIndex index = device_index == -1 ? c10::cuda::current_device() : device_index;
  TORCH_CHECK(index >= 0 && index < c10::cuda::device_count(), "Invalid device index ", index);
  std::lock_guard<std::mutex> lock(*mutex);
  while (static_cast<c10::DeviceIndex>(generators->size()) <= index) {
    generators->push_back(createCUDAGenerator(static_cast<c10::DeviceIndex>(generators->size())));
  }
  return (*generators)[static_cast<size_t>(index)];
}

Generator createCUDAGenerator(c10::DeviceIndex device_index) {
  const c10::DeviceIndex index = device_index == -1 ? c10::cuda::current_device() : device_index;
  Generator gen = make_generator<CUDAGeneratorImpl>(index);
  gen.set_current_seed(c10::default_rng_seed_val);
  return gen;
}

}  // namespace detail
}  // namespace cuda
}  // namespace at
