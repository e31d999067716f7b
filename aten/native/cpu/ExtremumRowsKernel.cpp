// The CPU kernel of extremum_rows_stub (ReduceOps.h), behind argmax, argmin, max.dim and
// min.dim. Compiled once per CPU capability (miniaten_add_cpu_kernels in aten/CMakeLists.txt).
//
// Note [Argmax finds a chunk's extreme, then its place]
// A row's answer is its first NaN if it has one, else the first occurrence of its greatest (least)
// value. The scalar rule keeps exactly that: !(v <= best) is v > best or v NaN, and a NaN best
// ends the row. Branching on every element runs at about an element a cycle (4.5 GB/s for
// argmax(1) of a 4096 x 4096 float; amax(1) reads it at 27). So float, double and the integers
// take a row in chunks of kChunk elements:
//  * the chunk's extreme, by vector folds (maximum and minimum propagate NaN, so a NaN anywhere
//    in the chunk gives NaN);
//  * only if that beats the best so far: a scalar search of the chunk, still in L1, for the
//    extreme's first occurrence (or the first NaN).
// No earlier chunk holds an element equal to a later chunk's new extreme (it was below the best
// then), so the chunk's first occurrence is the row's. Random data beats the best in few chunks
// (about the log of their count); ascending data beats it in every chunk, where the search is
// the scalar rule again plus a fold. Half, BFloat16 and Bool keep the scalar rule.
//
// Rows are split across threads. A row longer than a grain, when there are fewer rows than
// threads (argmax() of a whole tensor is one row), is split into pieces instead, one per thread,
// whose answers are combined in order: the first piece's NaN, else the extreme value, the earlier
// piece on ties. Any split gives the answer of the whole row.

#include <algorithm>
#include <type_traits>
#include <vector>

#include "aten/Dispatch.h"
#include "aten/NumericUtils.h"
#include "aten/OpMathType.h"
#include "aten/Parallel.h"
#include "aten/cpu/vec/Vectorized.h"
#include "aten/native/ReduceOps.h"

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
#include <immintrin.h>
#endif

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

template <typename T>
constexpr bool kChunked = std::is_same<T, float>::value || std::is_same<T, double>::value ||
                          (std::is_integral<T>::value && !std::is_same<T, bool>::value);

// Elements per chunk: a multiple of four vectors of every lane type, 2 KiB of float.
constexpr int64_t kChunk = 512;

// Where a row's (or a piece's) extreme is, and its value.
template <typename acc_t>
struct Extreme {
  int64_t index;
  acc_t value;
};

template <bool is_max, typename acc_t>
bool beats(acc_t v, acc_t best) {
  return is_max ? !(v <= best) : !(v >= best);
}

// The scalar rule over row[begin, end), continuing from `best`.
template <bool is_max, typename T, typename acc_t>
void scan(const T* row, int64_t begin, int64_t end, Extreme<acc_t>& best) {
  if (at::_isnan(best.value)) return;
  for (int64_t i = begin; i < end; ++i) {
    const acc_t v = static_cast<acc_t>(row[i]);
    if (beats<is_max>(v, best.value)) {
      best = {i, v};
      if (at::_isnan(v)) return;
    }
  }
}

// The greatest (least) of row[begin, begin + kChunk), NaN if it holds one.
template <bool is_max, typename T>
T chunk_extreme(const T* row) {
  using Vec = vec::Vectorized<T>;
  constexpr int64_t kLanes = Vec::size();
  const auto fold = [](const Vec& a, const Vec& b) {
    return is_max ? maximum(a, b) : minimum(a, b);
  };
  Vec acc0 = Vec::loadu(row), acc1 = Vec::loadu(row + kLanes), acc2 = Vec::loadu(row + 2 * kLanes),
      acc3 = Vec::loadu(row + 3 * kLanes);
  for (int64_t i = 4 * kLanes; i < kChunk; i += 4 * kLanes) {
    acc0 = fold(acc0, Vec::loadu(row + i));
    acc1 = fold(acc1, Vec::loadu(row + i + kLanes));
    acc2 = fold(acc2, Vec::loadu(row + i + 2 * kLanes));
    acc3 = fold(acc3, Vec::loadu(row + i + 3 * kLanes));
  }
  T lanes[kLanes];
  fold(fold(acc0, acc1), fold(acc2, acc3)).store(lanes);
  T m = lanes[0];
  for (int64_t l = 1; l < kLanes; ++l) {
    if (at::_isnan(lanes[l]) || (is_max ? lanes[l] > m : lanes[l] < m)) m = lanes[l];
  }
  return m;
}

// The first k from `k` on with row[k] == m, or row[k] NaN when m is NaN; the caller knows there
// is one within the chunk. Float and double compare a register at a time where the capability
// gives the hits as a bit mask; the rest compare one by one.
template <typename T>
int64_t find_first(const T* row, int64_t k, T m) {
  const bool nan = at::_isnan(m);
#if defined(CPU_CAPABILITY_AVX512)
  if constexpr (std::is_same<T, float>::value) {
    const __m512 target = _mm512_set1_ps(m);
    for (;; k += 16) {
      const __m512 v = _mm512_loadu_ps(row + k);
      const unsigned hit =
          nan ? _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q) : _mm512_cmp_ps_mask(v, target, _CMP_EQ_OQ);
      if (hit != 0) return k + __builtin_ctz(hit);
    }
  } else if constexpr (std::is_same<T, double>::value) {
    const __m512d target = _mm512_set1_pd(m);
    for (;; k += 8) {
      const __m512d v = _mm512_loadu_pd(row + k);
      const unsigned hit =
          nan ? _mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q) : _mm512_cmp_pd_mask(v, target, _CMP_EQ_OQ);
      if (hit != 0) return k + __builtin_ctz(hit);
    }
  }
#elif defined(CPU_CAPABILITY_AVX2)
  if constexpr (std::is_same<T, float>::value) {
    const __m256 target = _mm256_set1_ps(m);
    for (;; k += 8) {
      const __m256 v = _mm256_loadu_ps(row + k);
      const int hit = _mm256_movemask_ps(nan ? _mm256_cmp_ps(v, v, _CMP_UNORD_Q)
                                             : _mm256_cmp_ps(v, target, _CMP_EQ_OQ));
      if (hit != 0) return k + __builtin_ctz(static_cast<unsigned>(hit));
    }
  } else if constexpr (std::is_same<T, double>::value) {
    const __m256d target = _mm256_set1_pd(m);
    for (;; k += 4) {
      const __m256d v = _mm256_loadu_pd(row + k);
      const int hit = _mm256_movemask_pd(nan ? _mm256_cmp_pd(v, v, _CMP_UNORD_Q)
                                             : _mm256_cmp_pd(v, target, _CMP_EQ_OQ));
      if (hit != 0) return k + __builtin_ctz(static_cast<unsigned>(hit));
    }
  }
#endif
  while (nan ? !at::_isnan(row[k]) : row[k] != m) ++k;
  return k;
}

// The first extreme of row[begin, end) (end > begin): Note [Argmax finds a chunk's extreme, then
// its place].
template <bool is_max, typename T>
Extreme<at::opmath_type<T>> extreme_of(const T* row, int64_t begin, int64_t end) {
  using acc_t = at::opmath_type<T>;
  Extreme<acc_t> best{begin, static_cast<acc_t>(row[begin])};
  int64_t i = begin;
  if constexpr (kChunked<T>) {
    for (; i + kChunk <= end && !at::_isnan(best.value); i += kChunk) {
      const T m = chunk_extreme<is_max>(row + i);
      if (!beats<is_max, acc_t>(m, best.value)) continue;
      best = {find_first(row, i, m), m};
    }
  }
  scan<is_max>(row, i, end, best);
  return best;
}

template <bool is_max, typename T>
void extremum_rows(const T* x, int64_t rows, int64_t n, T* values, int64_t* indices) {
  using acc_t = at::opmath_type<T>;
  const int64_t threads = at::get_num_threads();
  if (rows >= threads || n < 2 * internal::GRAIN_SIZE) {
    const int64_t grain = std::max<int64_t>(1, internal::GRAIN_SIZE / n);
    at::parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const T* row = x + r * n;
        const int64_t best = extreme_of<is_max>(row, 0, n).index;
        indices[r] = best;
        if (values != nullptr) values[r] = row[best];
      }
    });
    return;
  }
  const int64_t pieces = std::min(threads, n / internal::GRAIN_SIZE);
  std::vector<Extreme<acc_t>> found(static_cast<size_t>(pieces));
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = x + r * n;
    at::parallel_for(0, pieces, 1, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        found[static_cast<size_t>(p)] =
            extreme_of<is_max>(row, p * n / pieces, (p + 1) * n / pieces);
      }
    });
    Extreme<acc_t> best = found[0];
    for (int64_t p = 1; p < pieces && !at::_isnan(best.value); ++p) {
      if (beats<is_max>(found[static_cast<size_t>(p)].value, best.value)) {
        best = found[static_cast<size_t>(p)];
      }
    }
    indices[r] = best.index;
    if (values != nullptr) values[r] = row[best.index];
  }
}

void extremum_rows_kernel(const Tensor& input, const Tensor& values, const Tensor& indices,
                          bool is_max) {
  const int64_t rows = input.size(0), n = input.size(1);
  const char* name =
      values.defined() ? (is_max ? "max_cpu" : "min_cpu") : (is_max ? "argmax_cpu" : "argmin_cpu");
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, input.scalar_type(), name, [&] {
    const scalar_t* x = input.data_ptr<scalar_t>();
    scalar_t* value_out = values.defined() ? values.data_ptr<scalar_t>() : nullptr;
    int64_t* index_out = indices.data_ptr<int64_t>();
    if (is_max) {
      extremum_rows<true>(x, rows, n, value_out, index_out);
    } else {
      extremum_rows<false>(x, rows, n, value_out, index_out);
    }
  });
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(extremum_rows_stub, &extremum_rows_kernel);

}  // namespace native
}  // namespace at
