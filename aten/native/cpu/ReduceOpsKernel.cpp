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
//    dependent additions (16-19 ms; libtorch 52-64 ms), except float lines eight at a time
//    through a register transpose where AVX2 is (Note [Eight float lines through a register
//    transpose]: 5.8-6.2 ms). Tried and slower: 2, 4 or 8 lines side by side in place (30, 19,
//    95 ms: rows a multiple of 4 KiB apart share L1 sets), and 8 lines through a 64-element
//    tile in memory, row per line or transposed (22, 39 ms).
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
#include "aten/native/ScanAccumulate.h"
#include "aten/native/cpu/CopyTranspose.h"
#include "aten/native/cpu/StreamingCopy.h"
#include "aten/native/cpu/Uninitialized.h"
#include "c10/util/TypeCast.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

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

// One line's elements [begin, l.size), continuing from `running` (the sum of those before).
template <typename scalar_t, typename acc_t>
C10_ALWAYS_INLINE void scan_line(const Lines& l, char* out, const char* in, int64_t begin,
                                 acc_t running) {
  for (int64_t i = begin; i < l.size; ++i) {
    running += static_cast<acc_t>(element<scalar_t>(in, i * l.in_step));
    *reinterpret_cast<scalar_t*>(out + i * l.out_step) = static_cast<scalar_t>(running);
  }
}

template <typename scalar_t, typename acc_t>
void scan_line_by_line(const Lines& l) {
  for (int64_t line = 0; line < l.count; ++line) {
    scan_line<scalar_t, acc_t>(l, l.out + line * l.out_next, l.in + line * l.in_next, 0, acc_t{});
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

#if defined(__AVX2__)

// Note [Eight float lines through a register transpose]
// A line scanned along memory is one chain of dependent additions: line by line the scan runs
// at the adder's latency, about 4 cycles an element. Eight lines are scanned together instead.
// An 8 x 8 tile (the same 8 positions of 8 lines) is loaded a row per line and transposed
// (copy_detail::RegisterTile, Note [Register transpose]), so that each register holds one
// position of all eight lines; eight running sums in double (one AVX-512 register or two AVX2
// ones) add the positions in order, the very additions and roundings of the line-by-line scan,
// and the tile is transposed back and stored. Two tiles a step use a whole 64-byte line of each
// of the 16 rows read and written while it is in L1 (the rows of a 4096-float matrix are 16 KiB
// apart and share L1 sets, Note [Blocked transpose]); a result of kStreamingBytes or more is
// written with streaming stores (Note [Streaming stores]) when its lines are 64-byte aligned.
// Both tiles of a step are scanned before either is stored, and each line's two halves are
// stored back to back: a streaming store that fills half a write-combining buffer and leaves it
// for seven other lines' stores gets it flushed half full, and the whole scan ran at a third of
// its speed (AVX2 slower than the plain line-by-line scan on some hosts).

// Eight running sums in double, one per line.
struct EightRunningSums {
#if defined(CPU_CAPABILITY_AVX512)
  __m512d sums = _mm512_setzero_pd();

  // Adds one position of the eight lines; returns the eight sums rounded to float. (The maskz
  // forms with every lane set are the plain conversions; GCC 12 warns that the plain ones' own
  // _mm512_undefined_pd() "may be used uninitialized".)
  __m256 add(__m256 position) {
    sums = _mm512_add_pd(sums, _mm512_maskz_cvtps_pd(0xFF, position));
    return _mm512_maskz_cvtpd_ps(0xFF, sums);
  }
  void store(double* running) const {
    _mm512_storeu_pd(running, sums);
  }
#else
  __m256d low = _mm256_setzero_pd(), high = _mm256_setzero_pd();

  __m256 add(__m256 position) {
    low = _mm256_add_pd(low, _mm256_cvtps_pd(_mm256_castps256_ps128(position)));
    high = _mm256_add_pd(high, _mm256_cvtps_pd(_mm256_extractf128_ps(position, 1)));
    return _mm256_set_m128(_mm256_cvtpd_ps(high), _mm256_cvtpd_ps(low));
  }
  void store(double* running) const {
    _mm256_storeu_pd(running, low);
    _mm256_storeu_pd(running + 4, high);
  }
#endif
};

// Eight float lines from out/in (l.out_next, l.in_next apart), contiguous along the scan.
template <bool kStream>
void scan_eight_float_lines(const Lines& l, char* out, const char* in) {
  using Tile = copy_detail::RegisterTile<uint32_t>;
  constexpr int K = Tile::kSize;
  constexpr int64_t e = sizeof(float);
  EightRunningSums sums;
  // The scanned tile at positions [i, i + 8), a row per line in `rows`.
  const auto scan_tile = [&](int64_t i, __m256* rows) {
    __m256 positions[K];
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) {
      rows[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(in + k * l.in_next + i * e));
    }
    Tile::transpose(rows, positions);
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) positions[k] = sums.add(positions[k]);
    Tile::transpose(positions, rows);
  };
  int64_t i = 0;
  for (; i + 2 * K <= l.size; i += 2 * K) {
    // Both tiles are scanned before either is stored, so that each line's 64 bytes are written
    // back to back: a streaming store fills a whole write-combining buffer at once.
    __m256 first[K], second[K];
    scan_tile(i, first);
    scan_tile(i + K, second);
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) {
      Tile::store<kStream>(out + k * l.out_next + i * e, first[k]);
      Tile::store<kStream>(out + k * l.out_next + (i + K) * e, second[k]);
    }
  }
  for (; i + K <= l.size; i += K) {
    __m256 rows[K];
    scan_tile(i, rows);
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) Tile::store<kStream>(out + k * l.out_next + i * e, rows[k]);
  }
  if (i == l.size) return;
  // The last size % 8 positions line by line, from each line's running sum.
  double running[K];
  sums.store(running);
  for (int k = 0; k < K; ++k) {
    scan_line<float, double>(l, out + k * l.out_next, in + k * l.in_next, i, running[k]);
  }
}

// Float lines contiguous along the scan: eight at a time, the rest line by line.
void scan_float_lines_in_tiles(const Lines& l, bool stream) {
  constexpr int64_t K = copy_detail::RegisterTile<uint32_t>::kSize;
  stream = stream && reinterpret_cast<uintptr_t>(l.out) % 64 == 0 && l.out_next % 64 == 0;
  int64_t first = 0;
  for (; first + K <= l.count; first += K) {
    char* out = l.out + first * l.out_next;
    const char* in = l.in + first * l.in_next;
    if (stream) {
      scan_eight_float_lines<true>(l, out, in);
    } else {
      scan_eight_float_lines<false>(l, out, in);
    }
  }
  if (stream) streaming_fence();
  Lines rest = l;
  rest.out += first * l.out_next;
  rest.in += first * l.in_next;
  rest.count -= first;
  scan_line_by_line<float, double>(rest);
}

#endif  // defined(__AVX2__)

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
  [[maybe_unused]] const bool stream = result.numel() * element_size >= kStreamingBytes;

  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(c10::kBFloat16, self.scalar_type(), "cumsum_out_cpu", [&] {
    using acc_t = ScanAccumulate<scalar_t>;
    iter.for_each(
        [&](char** data, const int64_t* strides, int64_t n) {
          const Lines lines{data[0],    data[1],    n,        line_size,
                            strides[0], strides[1], out_step, in_step};
#if defined(__AVX2__)
          if (std::is_same<scalar_t, float>::value && in_step == element_size &&
              out_step == element_size && n >= 8) {
            scan_float_lines_in_tiles(lines, stream);
            return;
          }
#endif
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
