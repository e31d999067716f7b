#pragma once
// Printing tensors in libtorch 1.13's format, byte for byte:
//
//   at::Tensor t = ...;                // 2x3 float holding 1.5 2 3 / 4 5 6
//   std::cout << t << '\n';
//   //  1.5000  2.0000  3.0000
//   //  4.0000  5.0000  6.0000
//   // [ CPUFloatType{2,3} ]
//   at::print(t, 120);                 // to std::cout, wrapping columns at 120 characters
//
// Values are shown through a double copy (as libtorch's tensor.to(kDouble) does), so int64
// values beyond 2^53 print rounded. The stream's formatting flags are restored afterwards, but
// its precision when the call starts is used for 0-dim tensors and integer-valued matrices,
// exactly as in libtorch. See Note [How libtorch picks the number format] in Formatting.cpp.

#include <cstdint>
#include <ostream>

#include "aten/core/Tensor.h"

namespace at {

TORCH_API std::ostream& print(std::ostream& stream, const Tensor& tensor, int64_t linesize);
TORCH_API std::ostream& operator<<(std::ostream& out, const Tensor& t);
// Prints to std::cout.
TORCH_API void print(const Tensor& t, int64_t linesize = 80);

}  // namespace at
