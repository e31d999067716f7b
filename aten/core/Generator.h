#pragma once
// at::Generator: a shared handle to a random-number generator (a c10::GeneratorImpl).
//
//   at::Generator gen = at::detail::createCPUGenerator(42);
//   at::Tensor a = at::rand({3}, gen);          // draws from gen, not the default generator
//   at::Generator copy = gen.clone();           // same state, separate sequence from here on
//   {
//     std::lock_guard<std::mutex> lock(gen.mutex());
//     gen.set_current_seed(0);
//   }
//   auto* cpu = at::check_generator<at::CPUGeneratorImpl>(gen);   // checks the device type
//
// Copies share one GeneratorImpl (operator== compares identity), like a Tensor's copies share
// one TensorImpl. An operator's `Generator? generator=None` argument is a
// c10::optional<at::Generator>; kernels pick the generator with get_generator_or_default.

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "c10/core/Device.h"
#include "c10/core/DispatchKeySet.h"
#include "c10/core/GeneratorImpl.h"
#include "c10/util/Exception.h"
#include "c10/util/Optional.h"
#include "c10/util/intrusive_ptr.h"

namespace at {

class Tensor;

struct TORCH_API Generator {
  Generator() = default;

  explicit Generator(c10::intrusive_ptr<c10::GeneratorImpl> gen_impl) : impl_(std::move(gen_impl)) {
    // libtorch throws std::runtime_error here, not c10::Error.
    if (impl_.get() == nullptr) {
      throw std::runtime_error("GeneratorImpl with nullptr is not supported");
    }
  }

  bool operator==(const Generator& rhs) const { return impl_ == rhs.impl_; }
  bool operator!=(const Generator& rhs) const { return !(*this == rhs); }

  bool defined() const { return static_cast<bool>(impl_); }

  c10::GeneratorImpl* unsafeGetGeneratorImpl() const { return impl_.get(); }
  c10::GeneratorImpl* unsafeReleaseGeneratorImpl() { return impl_.release(); }
  const c10::intrusive_ptr<c10::GeneratorImpl>& getIntrusivePtr() const { return impl_; }

  void set_current_seed(uint64_t seed) { impl_->set_current_seed(seed); }
  uint64_t current_seed() const { return impl_->current_seed(); }
  uint64_t seed() { return impl_->seed(); }

  // The state as a CPU uint8 tensor (CPUGeneratorImpl: libtorch's 5056-byte layout).
  void set_state(const at::Tensor& new_state);
  at::Tensor get_state() const;

  std::mutex& mutex() { return impl_->mutex_; }
  c10::DispatchKeySet key_set() const { return impl_->key_set(); }
  c10::Device device() const { return impl_->device(); }

  template <typename T>
  T* get() const {
    return static_cast<T*>(impl_.get());
  }

  Generator clone() const { return Generator(impl_->clone()); }

 private:
  c10::intrusive_ptr<c10::GeneratorImpl> impl_;
};

template <class Impl, class... Args>
Generator make_generator(Args&&... args) {
  return Generator(c10::make_intrusive<Impl>(std::forward<Args>(args)...));
}

// The generator's implementation as T, after checking it is one (by device type).
template <typename T>
inline T* check_generator(c10::optional<Generator> gen) {
  TORCH_CHECK(gen.has_value(), "Expected Generator but received nullopt");
  TORCH_CHECK(gen->defined(), "Generator with undefined implementation is not allowed");
  TORCH_CHECK(T::device_type() == gen->device().type(), "Expected a '", T::device_type(),
              "' device type for generator but found '", gen->device().type(), "'");
  return gen->get<T>();
}

// `gen` when it holds a defined generator, else `default_gen`; either way checked as T.
template <typename T>
inline T* get_generator_or_default(const c10::optional<Generator>& gen,
                                   const Generator& default_gen) {
  return gen.has_value() && gen->defined() ? check_generator<T>(gen)
                                           : check_generator<T>(default_gen);
}

namespace detail {

// What set_state accepts: a contiguous CPU uint8 tensor.
TORCH_API void check_rng_state(const c10::TensorImpl& new_state);

}  // namespace detail

}  // namespace at
