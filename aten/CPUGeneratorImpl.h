#pragma once
// at::CPUGeneratorImpl: the CPU generator, an at::mt19937 plus the cached second half of the
// last Box-Muller pair (one for float draws, one for double).
//
//   at::Generator gen = at::detail::createCPUGenerator(/*seed_val=*/0);
//   auto* impl = gen.get<at::CPUGeneratorImpl>();
//   uint32_t a = impl->random();      // one mt19937 draw
//   uint64_t b = impl->random64();    // two draws: the first is the high word
//   const at::Generator& def = at::detail::getDefaultCPUGenerator();  // what ops use by default
//
// The default generator starts from a non-deterministic seed, as libtorch's does;
// at::manual_seed (aten/ManualSeed.h) reseeds it.

#include <cstdint>
#include <memory>

#include "aten/core/Generator.h"
#include "aten/core/MT19937RNGEngine.h"
#include "c10/core/GeneratorImpl.h"
#include "c10/util/Optional.h"

namespace at {

struct TORCH_API CPUGeneratorImpl : public c10::GeneratorImpl {
  explicit CPUGeneratorImpl(uint64_t seed_in = c10::default_rng_seed_val);
  ~CPUGeneratorImpl() override = default;

  std::shared_ptr<CPUGeneratorImpl> clone() const;
  // Reseeding also drops the cached normal samples.
  void set_current_seed(uint64_t seed) override;
  uint64_t current_seed() const override;
  uint64_t seed() override;
  void set_state(const c10::TensorImpl& new_state) override;
  c10::intrusive_ptr<c10::TensorImpl> get_state() const override;
  static c10::DeviceType device_type();

  uint32_t random();
  uint64_t random64();
  c10::optional<float> next_float_normal_sample();
  c10::optional<double> next_double_normal_sample();
  void set_next_float_normal_sample(c10::optional<float> randn);
  void set_next_double_normal_sample(c10::optional<double> randn);
  at::mt19937 engine();
  void set_engine(at::mt19937 engine);

 private:
  CPUGeneratorImpl* clone_impl() const override;

  at::mt19937 engine_;
  c10::optional<float> next_float_normal_sample_;
  c10::optional<double> next_double_normal_sample_;
};

namespace detail {

TORCH_API const Generator& getDefaultCPUGenerator();
TORCH_API Generator createCPUGenerator(uint64_t seed_val = c10::default_rng_seed_val);

}  // namespace detail

}  // namespace at
