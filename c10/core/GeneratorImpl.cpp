#include "c10/core/GeneratorImpl.h"

#include <random>

namespace c10 {

GeneratorImpl::GeneratorImpl(Device device_in, DispatchKeySet key_set)
    : device_(device_in), key_set_(key_set) {}

c10::intrusive_ptr<GeneratorImpl> GeneratorImpl::clone() const {
  return c10::intrusive_ptr<GeneratorImpl>::adopt_new(clone_impl());
}

namespace detail {

uint64_t getNonDeterministicRandom(bool is_cuda) {
  std::random_device rd;
  uint64_t s;
  if (is_cuda) {
    s = rd();  // libtorch keeps CUDA seeds to 32 bits
  } else {
    // Two 32-bit draws, as libtorch composes them.
    s = ((static_cast<uint64_t>(rd()) << 32) + rd()) & 0x1FFFFFFFFFFFFF;
  }
  return s;
}

}  // namespace detail

}  // namespace c10
