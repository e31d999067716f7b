#pragma once
// at::CUDAGeneratorImpl: a CUDA device's generator, a Philox seed and the offset of the next
// unused counter word (Note [Each element's own Philox block] in native/cuda/PhiloxBody.h).
//
//   const at::Generator& gen = at::cuda::detail::getDefaultCUDAGenerator(/*device_index=*/0);
//   at::manual_seed(0);        // reseeds the CPU generator and every device's, as libtorch's
//   at::Tensor x = at::randn({4}, at::kCUDA);
//
// The state (get_state / set_state) is 16 bytes: the seed, then the offset, as libtorch's CUDA
// generator state.

#include <cstdint>

#include "aten/core/Generator.h"
#include "c10/core/GeneratorImpl.h"

namespace at {

struct PhiloxCudaState {
  uint64_t seed = 0;
  uint64_t offset = 0;
};

struct TORCH_API CUDAGeneratorImpl : public c10::GeneratorImpl {
  explicit CUDAGeneratorImpl(c10::DeviceIndex device_index);
  ~CUDAGeneratorImpl() override = default;

  // Reseeding starts the offset again at 0.
  void set_current_seed(uint64_t seed) override;
  uint64_t current_seed() const override;
  uint64_t seed() override;
  void set_state(const c10::TensorImpl& new_state) override;
  c10::intrusive_ptr<c10::TensorImpl> get_state() const override;
  static c10::DeviceType device_type();

  // The seed and offset one fill draws with; the next fill gets the following offset. Callers
  // hold mutex_.
  PhiloxCudaState philox_inputs();
  uint64_t philox_offset() const { return offset_; }

 private:
  CUDAGeneratorImpl* clone_impl() const override;

  uint64_t seed_ = c10::default_rng_seed_val;
  uint64_t offset_ = 0;
};

namespace cuda {
namespace detail {

// The device's default generator (the current device's for -1), made on first use.
TORCH_API const Generator& getDefaultCUDAGenerator(c10::DeviceIndex device_index = -1);
TORCH_API Generator createCUDAGenerator(c10::DeviceIndex device_index = -1);

}  // namespace detail
}  // namespace cuda
}  // namespace at
