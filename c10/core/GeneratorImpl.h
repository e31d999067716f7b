#pragma once
// GeneratorImpl: the state behind an at::Generator, one subclass per device (at::CPUGeneratorImpl).
//
//   struct MyGeneratorImpl : c10::GeneratorImpl {
//     MyGeneratorImpl() : GeneratorImpl(Device(kCPU), DispatchKeySet(DispatchKey::CPU)) {}
//     void set_current_seed(uint64_t seed) override;   // and the other pure virtuals
//     ...
//   };
//   at::Generator g = at::make_generator<MyGeneratorImpl>();
//
// A kernel that draws numbers holds `mutex_` for the whole draw (libtorch's Note [Acquire lock
// when using random generators]): two threads sharing a generator then see disjoint, reproducible
// runs of its sequence.

#include <cstdint>
#include <mutex>

#include "c10/core/Device.h"
#include "c10/core/DispatchKeySet.h"
#include "c10/core/TensorImpl.h"
#include "c10/util/Macros.h"
#include "c10/util/intrusive_ptr.h"

namespace c10 {

// The seed of a generator made without one (libtorch's value; also the Philox engine's default).
constexpr uint64_t default_rng_seed_val = 67280421310721;

struct C10_API GeneratorImpl : public c10::intrusive_ptr_target {
  GeneratorImpl(Device device_in, DispatchKeySet key_set);
  // A generator is shared through at::Generator; a copy is made explicitly with clone().
  GeneratorImpl(const GeneratorImpl& other) = delete;
  GeneratorImpl(GeneratorImpl&& other) = delete;
  GeneratorImpl& operator=(const GeneratorImpl& other) = delete;
  ~GeneratorImpl() override = default;

  // A new generator in the same state: it produces the same numbers from here on.
  c10::intrusive_ptr<GeneratorImpl> clone() const;

  virtual void set_current_seed(uint64_t seed) = 0;
  virtual uint64_t current_seed() const = 0;
  // Reseeds with a non-deterministic seed and returns it.
  virtual uint64_t seed() = 0;
  // The whole state as a CPU uint8 tensor, and back.
  virtual void set_state(const c10::TensorImpl& new_state) = 0;
  virtual c10::intrusive_ptr<c10::TensorImpl> get_state() const = 0;

  Device device() const { return device_; }
  DispatchKeySet key_set() const { return key_set_; }

  // Public, as libtorch's: kernels lock it directly (std::lock_guard<std::mutex> l(gen->mutex_)).
  std::mutex mutex_;

 protected:
  Device device_;
  DispatchKeySet key_set_;

  virtual GeneratorImpl* clone_impl() const = 0;
};

namespace detail {

// A seed from std::random_device, masked to 53 bits so that Python can hold it in a float.
C10_API uint64_t getNonDeterministicRandom(bool is_cuda = false);

}  // namespace detail

}  // namespace c10
