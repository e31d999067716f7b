#include "distributed/c10d/sequence_num.h"

#include "c10/util/Exception.h"

namespace c10d {

// Note [Reading an unset SequenceNum]
// libtorch 1.13 checks increment() and getAndIncrement() ("Expected num_ != c10::nullopt to be
// true, but got false.") but its get() dereferences the empty optional, which is undefined
// behaviour. Here get() raises the same error as the other two.

SequenceNum::SequenceNum(const SequenceNum& other)
    : num_(other.isSet() ? c10::optional<uint64_t>(other.get()) : c10::nullopt) {}

SequenceNum& SequenceNum::operator=(const SequenceNum& other) {
  if (this == &other) return *this;
  c10::optional<uint64_t> value;
  if (other.isSet()) value = other.get();
  std::lock_guard<std::mutex> lock(lock_);
  num_ = value;
  return *this;
}

uint64_t SequenceNum::get() const {
  std::lock_guard<std::mutex> lock(lock_);
  TORCH_CHECK(num_ != c10::nullopt);
  return *num_;
}

void SequenceNum::increment() {
  std::lock_guard<std::mutex> lock(lock_);
  TORCH_CHECK(num_ != c10::nullopt);
  num_ = *num_ + 1;
}

uint64_t SequenceNum::getAndIncrement() {
  std::lock_guard<std::mutex> lock(lock_);
  TORCH_CHECK(num_ != c10::nullopt);
  const uint64_t current = *num_;
  num_ = current + 1;
  return current;
}

void SequenceNum::set(uint64_t num) {
  std::lock_guard<std::mutex> lock(lock_);
  num_ = num;
}

bool SequenceNum::isSet() const {
  std::lock_guard<std::mutex> lock(lock_);
  return num_ != c10::nullopt;
}

}  // namespace c10d
