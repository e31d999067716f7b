#pragma once
// c10d::SequenceNum: a process group's count of the collectives it has issued, which every rank
// of the group should agree on (libtorch 1.13's sequence_num.hpp). A group starts without one;
// setSequenceNumberForGroup() has rank 0 pick a starting number and hand it to the others
// through the store, and from then on each collective adds one:
//
//   pg->setSequenceNumberForGroup();                // every rank, collectively
//   pg->allreduce(tensors)->wait();
//   uint64_t n = pg->getSequenceNumberForGroup();   // equal on every rank unless they diverged
//
// toVec/fromVec turn the number into the store's bytes and back, least significant byte first.

#include <cstdint>
#include <mutex>
#include <vector>

#include "c10/util/Optional.h"

namespace c10d {

const int kUnsetSeqNum = 0;

// The low `numBytes` bytes of num, least significant first.
template <typename T>
inline std::vector<T> toVec(uint64_t num, int numBytes) {
  std::vector<T> values;
  for (int i = 0; i < numBytes; ++i) values.push_back(static_cast<T>((num >> (8 * i)) & 0xff));
  return values;
}

// The inverse of toVec.
template <typename T>
inline uint64_t fromVec(const std::vector<T>& values) {
  uint64_t num = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    num |= static_cast<uint64_t>(static_cast<uint8_t>(values[i])) << (8 * i);
  }
  return num;
}

class SequenceNum {
 public:
  SequenceNum() = default;
  explicit SequenceNum(uint64_t num) : num_(num) {}
  SequenceNum(const SequenceNum& other);
  SequenceNum& operator=(const SequenceNum& other);

  // Each throws while no number is set. (libtorch's get() reads an unset number without a check;
  // see Note [Reading an unset SequenceNum] in sequence_num.cpp.)
  uint64_t get() const;
  void increment();
  uint64_t getAndIncrement();  // the value before the increment
  void set(uint64_t num);
  bool isSet() const;

 private:
  c10::optional<uint64_t> num_;
  mutable std::mutex lock_;
};

}  // namespace c10d
