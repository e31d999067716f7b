#pragma once
// Storage for a T that is never constructed nor destroyed, for kernel scratch arrays whose
// element type zeroes itself in its constructor (Vectorized, c10::complex): a kernel that uses
// only the first n elements of a large array sets those, and pays nothing for the rest.
//
//   Uninitialized<double[4096]> running;
//   std::fill(running.value, running.value + n, 0.0);

namespace at {
namespace native {

template <typename T>
union Uninitialized {
  Uninitialized() {}
  T value;
};

}  // namespace native
}  // namespace at
