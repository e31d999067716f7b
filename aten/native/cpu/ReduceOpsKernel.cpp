// CPU scan kernels (cumsum). Compiled once per CPU capability (miniaten_add_cpu_kernels in
// aten/CMakeLists.txt). The sum reduction lives in SumKernel.cpp.
//
// Note [How cumsum walks the scan dim]
// A scan is not elementwise (result[i] needs self[0..i]) and not a reduction (every position
// has an output), so TensorIterator cannot walk the scan dim. Seed 001's restride_dim trick
// hides it instead: the iterator is built with a static shape equal to self's sizes but with
// the scan dim squashed to 1, so it iterates over every *line* along that dim, choosing the
// loop order, coalescing and parallelising the other dims as it would for an elementwise op.
// Each call of the loop then receives a pointer to the first element of a line in result and
// in self and walks the line itself, with the tensors' own strides along the scan dim.
// Different lines never share an output element, so for_each may split them across threads;
// the grain size is divided by the line length so that each thread gets GRAIN_SIZE elements.
// How the lines are walked decides the speed (4096 x 4096 floats, one thread):
//  * Each line along memory (cumsum over the last dim): one line at a time, one chain of
//    dependent additions (19 ms; libtorch 52 ms). Tried and slower: 2, 4 or 8 lines side by
//    side in place (30, 19, 95 ms: rows a multiple of 4 KiB apart share L1 sets), and 8 lines
//    through a 64-element tile, row per line or transposed (22, 39 ms).
//  * Neighbouring lines closer in memory than neighbouring elements of a line (cumsum over
//    dim 0 of a row-major matrix): lines advance side by side, one element each per step, so
//    that each step reads and writes a contiguous run. 64 lines at a time read 256 bytes of
//    each row and jump a whole row on (57 ms, memory in pieces too short to stream); a whole
//    row of lines, up to kAdjacentLines, reads memory in order. libtorch walks line by line
//    there: 324 ms.
//
// The running sum is kept in libtorch's CPU accumulation type (at::acc_type<T, false>): double
// for float and double, float for BFloat16, int64 for integers; each output element is the
// running sum rounded to the dtype. The dtypes are libtorch 1.13's: not Bool (an integral or
// Bool input is summed as Long unless a dtype is given) and not Half ("cumsum_out_cpu" not
// implemented for 'Half').

#include <algorithm>
#include <cstdlib>
#include <type_traits>

#include "aten/Dispatch.h"
#include "aten/native/ReduceOps.h"
#include "aten/native/cpu/Uninitialized.h"
#include "c10/util/TypeCast.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

// libtorch's at::acc_type<T, /*is_cuda=*/false>: complex types accumulate in complex<double>.
template <typename T>
using ScanAccumulate =
    std::conditional_t<c10::is_complex<T>::value, c10::complex<double>,
                       std::conditional_t<std::is_integral<T>::value, int64_t,
                                          std::conditional_t<std::is_same<T, float>::value ||
                                                                 std::is_same<T, double>::value,
                                                             double, float>>>;

// Lines scanned side by side (Note [How cumsum walks the scan dim]): adjacent lines, a whole
// row of them (a 4096-float row: 16 KiB read and written in order per step); other strided
// lines, 64 at a time.
constexpr int64_t kAdjacentLines = 4096;
constexpr int64_t kStridedLines = 64;

// The lines one loop call covers, with byte strides.
struct Lines {
  char* out;
  const char* in;
  int64_t count;              // lines
  int64_t size;               // elements per line
  int64_t out_next, in_next;  // from one line to the next
  int64_t out_step, in_step;  // from one element of a line to the next
};

template <typename scalar_t>
C10_ALWAYS_INLINE const scalar_t& element(const char* base, int64_t offset) {
  return *reinterpret_cast<const scalar_t*>(base + offset);
}

template <typename scalar_t, typename acc_t>
void scan_line_by_line(const Lines& l) {
  for (int64_t line = 0; line < l.count; ++line) {
    char* out = l.out + line * l.out_next;
    const char* in = l.in + line * l.in_next;
    acc_t running{};
    for (int64_t i = 0; i < l.size; ++i) {
      running += static_cast<acc_t>(element<scalar_t>(in, i * l.in_step));
      *reinterpret_cast<scalar_t*>(out + i * l.out_step) = static_cast<scalar_t>(running);
    }
  }
}

// Up to `block` lines advance together, one element each per step. `adjacent`: the lines are
// next to each other in both tensors, so each step is a contiguous (vectorisable) run.
template <typename scalar_t, typename acc_t, bool adjacent, int64_t block>
void scan_side_by_side(const Lines& l) {
  const int64_t out_next = adjacent ? int64_t(sizeof(scalar_t)) : l.out_next;
  const int64_t in_next = adjacent ? int64_t(sizeof(scalar_t)) : l.in_next;
  Uninitialized<acc_t[block]> storage;  // only `count` are set and used
  acc_t* running = storage.value;
  for (int64_t first = 0; first < l.count; first += block) {
    const int64_t count = std::min(block, l.count - first);
    std::fill(running, running + count, acc_t{});
    for (int64_t i = 0; i < l.size; ++i) {
      char* out = l.out + first * out_next + i * l.out_step;
      const char* in = l.in + first * in_next + i * l.in_step;
      for (int64_t line = 0; line < count; ++line) {
        running[line] += static_cast<acc_t>(element<scalar_t>(in, line * in_next));
        *reinterpret_cast<scalar_t*>(out + line * out_next) = static_cast<scalar_t>(running[line]);
      }
    }
  }
}

void cumsum_kernel(const Tensor& result, const Tensor& self, int64_t dim) {
  // See Note [How cumsum walks the scan dim].
  const int64_t squash_dims[] = {dim};
  auto iter = TensorIteratorConfig()
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .declare_static_shape(self.sizes(), squash_dims)
                  .add_output(result)
                  .add_input(self)
                  .build();
  const int64_t line_size = self.size(dim);
  const int64_t element_size = self.element_size();
  const int64_t out_step = result.stride(dim) * element_size;
  const int64_t in_step = self.stride(dim) * element_size;

  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(c10::kBFloat16, self.scalar_type(), "cumsum_out_cpu", [&] {
    using acc_t = ScanAccumulate<scalar_t>;
    iter.for_each(
        [&](char** data, const int64_t* strides, int64_t n) {
          const Lines lines{data[0],    data[1],    n,        line_size,
                            strides[0], strides[1], out_step, in_step};
          if (std::abs(lines.in_next) >= std::abs(in_step) || n == 1) {
            scan_line_by_line<scalar_t, acc_t>(lines);
          } else if (lines.in_next == element_size && lines.out_next == element_size) {
            scan_side_by_side<scalar_t, acc_t, /*adjacent=*/true, kAdjacentLines>(lines);
          } else {
            scan_side_by_side<scalar_t, acc_t, /*adjacent=*/false, kStridedLines>(lines);
          }
        },
        internal::GRAIN_SIZE / std::max<int64_t>(1, line_size));
  });
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(cumsum_stub, &cumsum_kernel);

}  // namespace native
}  // namespace at
