// The CPU sum kernel: libtorch's cascade sum (aten/src/ATen/native/cpu/SumKernel.cpp) for every
// dtype, and the same cascade over |x| or x * x for the 1- and 2-norms (norm_sum_stub). Compiled
// once per CPU capability (miniaten_add_cpu_kernels in aten/CMakeLists.txt).
//
// Note [Cascade sum]
// Adding n floats one after another into one accumulator loses about n * eps of relative
// precision: once the sum is large, each small addend is rounded away (a million 0.1f sum to
// 100958.34 that way). Pairwise summation loses only log(n) * eps but needs a stack. The cascade
// keeps four accumulator levels instead: elements go into level 0; every 2^p elements level 0
// is added into level 1 and cleared; every 2^(2p) elements level 1 goes into level 2, and so on
// (p = max(4, ceil(log2(n)) / 4), so four levels cover any n). Each accumulator therefore only
// ever sums 2^p values of similar magnitude; a million 0.1f sum to 100000.0078.
//
// Accumulation is in the output dtype, as libtorch's CPU sum: float in float, double in double,
// Half and BFloat16 in float (rounded once when added into the output), integers in their own
// type (the operator has already converted Int/Bool inputs to Long unless a dtype was given),
// Bool as logical or. Integer addition is associative, so the cascade changes nothing there;
// one code path serves all twelve dtypes (complex ones: see Note [Complex sums use complex lanes]).
//
// Which loop runs for a block of size0 x size1 (strides[0..1] along dim 0, strides[2..3] along
// dim 1; output first) — after making dim 0 the reduced one when only one of them is:
//  * neither dim reduced (a size-1 reduction, or a keepdim of nothing): out += in elementwise;
//  * input contiguous along the reduced dim: vectorised_inner_sum (each row's vector partials
//    folded into one scalar at the end);
//  * input contiguous along the kept dim: vectorised_outer_sum (up to kStreamBytes of each row
//    per pass, in bands down the rows; Note [Outer sums stream whole rows]);
//  * otherwise scalar row sums (four rows at a time when rows are the outer dim).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "aten/Dispatch.h"
#include "aten/OpMathType.h"
#include "aten/cpu/vec/Vectorized.h"
#include "aten/native/ReduceOps.h"
#include "aten/native/TensorIteratorReduce.h"
#include "aten/native/cpu/Uninitialized.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

using vec::Vectorized;

// Note [Complex sums use complex lanes]
// libtorch runs the same cascade on Vectorized<c10::complex<T>>: a vector of complex lanes
// (4 complex<float> in 32 bytes), added lane by lane, folded lane by lane at the end. miniaten
// has no Vectorized<complex>, so the cascade runs on ComplexLanes, which is exactly that much
// of one: the same elements meet in the same order, and complex sums agree with libtorch's to
// the last bit.
template <typename T>
struct ComplexLanes {
  static constexpr int kSize = vec::kVectorBytes / static_cast<int>(sizeof(T));
  static constexpr int size() { return kSize; }
  T lanes[kSize] = {};

  static ComplexLanes loadu(const void* p) {
    ComplexLanes v;
    std::memcpy(v.lanes, p, sizeof(v.lanes));
    return v;
  }
  ComplexLanes operator+(const ComplexLanes& other) const {
    ComplexLanes r;
    for (int k = 0; k < kSize; ++k) r.lanes[k] = lanes[k] + other.lanes[k];
    return r;
  }
  const T& operator[](int k) const { return lanes[k]; }
};

// The vector type the cascade accumulates acc_t in.
template <typename T>
struct VecOfImpl {
  using type = Vectorized<T>;
};
template <typename T>
struct VecOfImpl<c10::complex<T>> {
  using type = ComplexLanes<c10::complex<T>>;
};
template <typename T>
using VecOf = typename VecOfImpl<T>::type;

// Note [The 1- and 2-norms are sums]
// norm(x, 1) is the sum of |x| and norm(x, 2) the square root of the sum of x * x. libtorch
// runs them as their own reductions (one accumulator per vector lane); miniaten runs them as
// this file's cascade over the mapped elements, so they read the input once, at the sum's
// bandwidth, and keep the sum's accuracy (composed of abs, a product and a sum they were three
// passes and two temporaries, 0.3-0.6x libtorch). A Map says what the cascade adds for each
// element: Identity for sum, Magnitude for the 1-norm, Square for the 2-norm. It is applied as
// the element is loaded, in acc_t, so nothing else about the order of the additions changes.
struct Identity {
  template <typename T>
  static T apply(const T& x) {
    return x;
  }
};
struct Magnitude {
  template <typename T>
  static Vectorized<T> apply(const Vectorized<T>& x) {
    return x.abs();
  }
  template <typename T>
  static T apply(T x) {
    return std::abs(x);
  }
};
struct Square {
  template <typename T>
  static T apply(const T& x) {
    return x * x;
  }
};

// Loads element `index` of a row of scalar_t with byte stride `stride`, as acc_t, mapped.
template <typename scalar_t, typename acc_t, typename Map = Identity>
struct ScalarLoad {
  using value_type = acc_t;
  static acc_t load(const char* base, int64_t stride, int64_t index) {
    return Map::apply(
        static_cast<acc_t>(*reinterpret_cast<const scalar_t*>(base + stride * index)));
  }
};

// Loads VecOf<acc_t>::size() consecutive scalar_t starting at `base + stride * index`, mapped.
template <typename scalar_t, typename acc_t, typename Map = Identity>
struct VecLoad {
  using value_type = VecOf<acc_t>;
  static constexpr int64_t kLanes = value_type::size();
  // Bytes one vector's worth of input occupies.
  static constexpr int64_t kBytes = kLanes * static_cast<int64_t>(sizeof(scalar_t));
  static value_type load(const char* base, int64_t stride, int64_t index) {
    const char* p = base + stride * index;
    if constexpr (std::is_same<scalar_t, acc_t>::value) {
      return Map::apply(value_type::loadu(p));
    } else {
      const scalar_t* in = reinterpret_cast<const scalar_t*>(p);
      acc_t widened[kLanes];
      for (int64_t i = 0; i < kLanes; ++i) widened[i] = static_cast<acc_t>(in[i]);
      return Map::apply(value_type::loadu(widened));
    }
  }
};

int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  return 64 - __builtin_clzll(static_cast<unsigned long long>(x - 1));
}

// Calls f(k) for k = 0 .. n-1 as straight-line code, so that arrays indexed by k stay in
// registers (a loop over k keeps them on the stack: a store-to-load chain per addition).
template <typename F, int64_t... k>
C10_ALWAYS_INLINE void unroll(std::integer_sequence<int64_t, k...>, const F& f) {
  (f(k), ...);
}

// Sums `size` rows of nrows values each (row i at in + i * row_stride, value k at
// + k * col_stride) into nrows results. See Note [Cascade sum]: level 0 is `acc`, levels 1 to 3
// are `upper`, and the order of every addition is libtorch's.
template <int64_t nrows, typename Load>
std::array<typename Load::value_type, nrows> multi_row_sum(const char* in, int64_t row_stride,
                                                           int64_t col_stride, int64_t size) {
  using acc_t = typename Load::value_type;
  constexpr auto rows = std::make_integer_sequence<int64_t, nrows>();
  constexpr int64_t num_levels = 4;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(size) / num_levels);
  const int64_t level_step = int64_t(1) << level_power;
  const int64_t level_mask = level_step - 1;

  std::array<acc_t, nrows> acc{};
  std::array<std::array<acc_t, nrows>, num_levels - 1> upper{};
  auto add_row = [&](int64_t i) {
    const char* row = in + i * row_stride;
    unroll(rows, [&](int64_t k) { acc[k] = acc[k] + Load::load(row, col_stride, k); });
  };
  int64_t i = 0;
  while (i + level_step <= size) {
    for (int64_t j = 0; j < level_step; ++j, ++i) add_row(i);
    unroll(rows, [&](int64_t k) {
      upper[0][k] = upper[0][k] + acc[k];
      acc[k] = acc_t{};
    });
    // Carry level j into level j + 1 while i is a multiple of level_step^(j + 1).
    for (int64_t j = 1; j < num_levels - 1; ++j) {
      if ((i & (level_mask << (j * level_power))) != 0) break;
      unroll(rows, [&](int64_t k) {
        upper[j][k] = upper[j][k] + upper[j - 1][k];
        upper[j - 1][k] = acc_t{};
      });
    }
  }
  for (; i < size; ++i) add_row(i);
  for (int64_t j = 0; j < num_levels - 1; ++j) {
    unroll(rows, [&](int64_t k) { acc[k] = acc[k] + upper[j][k]; });
  }
  return acc;
}

// Sums one strided row, as four interleaved rows for instruction-level parallelism.
template <typename Load>
typename Load::value_type row_sum(const char* in, int64_t stride, int64_t size) {
  constexpr int64_t ilp = 4;
  const int64_t size_ilp = size / ilp;
  auto partial = multi_row_sum<ilp, Load>(in, stride * ilp, stride, size_ilp);
  for (int64_t i = size_ilp * ilp; i < size; ++i)
    partial[0] = partial[0] + Load::load(in, stride, i);
  for (int64_t k = 1; k < ilp; ++k) partial[0] = partial[0] + partial[k];
  return partial[0];
}

// out[index] += value, rounding once to scalar_t.
template <typename scalar_t, typename acc_t>
void store_add(char* out, int64_t stride, int64_t index, acc_t value) {
  scalar_t* p = reinterpret_cast<scalar_t*>(out + stride * index);
  *p = static_cast<scalar_t>(static_cast<acc_t>(*p) + value);
}
template <typename scalar_t, typename acc_t>
void store_add(char* out, int64_t stride, int64_t index, const VecOf<acc_t>& values) {
  for (int k = 0; k < VecOf<acc_t>::size(); ++k) {
    store_add<scalar_t, acc_t>(out, stride, index + k, values[k]);
  }
}

// The input is contiguous along the reduced dim 0.
template <typename scalar_t, typename acc_t, typename Map>
void vectorized_inner_sum(char** data, int64_t in_outer_stride, int64_t out_stride, int64_t size0,
                          int64_t size1) {
  using VLoad = VecLoad<scalar_t, acc_t, Map>;
  using SLoad = ScalarLoad<scalar_t, acc_t, Map>;
  const int64_t num_vecs = size0 / VLoad::kLanes;
  for (int64_t j = 0; j < size1; ++j) {
    const char* row = data[1] + j * in_outer_stride;
    const VecOf<acc_t> partials = row_sum<VLoad>(row, VLoad::kBytes, num_vecs);
    acc_t total{};
    for (int64_t k = num_vecs * VLoad::kLanes; k < size0; ++k) {
      total = total + SLoad::load(row, sizeof(scalar_t), k);
    }
    for (int k = 0; k < VecOf<acc_t>::size(); ++k) total = total + partials[k];
    store_add<scalar_t, acc_t>(data[0], out_stride, j, total);
  }
}

// Note [Outer sums stream whole rows]
// An outer sum (the kept dim contiguous, the reduced one strided: m.sum(0), a transposed
// input's inner dim) used to take four vectors of columns at a time all the way down the rows,
// as libtorch does: 256 bytes from each row, then the next row a whole row further on. That
// reads memory in pieces too short for the prefetchers: 7.8 GB/s on a 4096 x 4096 float
// sum(0), against 24 GB/s for the full sum. streamed_outer_sum takes up to kStreamBytes of
// each row (whole rows, up to 8192 floats) and walks down them in bands of the cascade's
// level-0 length (2^p rows, Note [Cascade sum]): within a band, four vectors of columns at a
// time are summed in registers down the band's rows, and each band's sums are carried into the
// upper levels, kept in arrays for every column. A band is a few hundred KiB that the next
// group of columns finds in cache, so memory is read almost in order. Measured against one
// row at a time with all four levels in arrays: 3.7 vs 4.1-4.7 ms on one thread, 1.9-2.5 vs
// 3.5-4.0 ms on two; prefetching the next band made it slower (6.3 ms). Each column still meets
// its elements in the same order, with the same carries, as multi_row_sum's: the sums are bit
// for bit libtorch's.
constexpr int64_t kStreamBytes = 32768;

// Sums `size` rows of `nvecs` vectors each (a multiple of 4, at most kStreamBytes of a row; row i
// at in + i * row_stride, vector v at + v * VLoad::kBytes) and adds vector v's sums into
// out + v * lanes * out_stride.
template <typename scalar_t, typename acc_t, typename Map>
void streamed_outer_sum(const char* in, int64_t row_stride, int64_t size, int64_t nvecs, char* out,
                        int64_t out_stride) {
  using VLoad = VecLoad<scalar_t, acc_t, Map>;
  using V = VecOf<acc_t>;
  constexpr int64_t kStreamVecs = kStreamBytes / VLoad::kBytes;
  constexpr int64_t num_levels = 4;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(size) / num_levels);
  const int64_t level_step = int64_t(1) << level_power;
  const int64_t level_mask = level_step - 1;

  // Left uninitialised (Vectorized's constructor zeroes; a [64, 64] block uses 4 of 512
  // vectors): only the first nvecs of each level are set and used.
  Uninitialized<V[num_levels - 1][kStreamVecs]> upper_storage;
  auto& upper = upper_storage.value;
  for (int64_t v = 0; v < nvecs; ++v) {
    for (auto& level : upper) level[v] = V{};
  }
  // Level 0 of rows [first, first + rows), four vectors at a time in registers, into sums.
  auto band_sum = [&](int64_t first, int64_t rows, auto&& take) {
    for (int64_t v = 0; v < nvecs; v += 4) {
      constexpr auto four = std::make_integer_sequence<int64_t, 4>();
      std::array<V, 4> acc{};
      for (int64_t i = first; i < first + rows; ++i) {
        const char* row = in + i * row_stride + v * VLoad::kBytes;
        unroll(four, [&](int64_t k) { acc[k] = acc[k] + VLoad::load(row, VLoad::kBytes, k); });
      }
      for (int64_t k = 0; k < 4; ++k) take(v + k, acc[k]);
    }
  };
  int64_t i = 0;
  while (i + level_step <= size) {
    band_sum(i, level_step, [&](int64_t v, const V& sum) { upper[0][v] = upper[0][v] + sum; });
    i += level_step;
    for (int64_t j = 1; j < num_levels - 1; ++j) {
      if ((i & (level_mask << (j * level_power))) != 0) break;
      for (int64_t v = 0; v < nvecs; ++v) {
        upper[j][v] = upper[j][v] + upper[j - 1][v];
        upper[j - 1][v] = V{};
      }
    }
  }
  band_sum(i, size - i, [&](int64_t v, V sum) {
    for (int64_t j = 0; j < num_levels - 1; ++j) sum = sum + upper[j][v];
    store_add<scalar_t, acc_t>(out, out_stride, v * VLoad::kLanes, sum);
  });
}

// The input is contiguous along the kept dim 1: sum whole vectors of columns at a time.
// See Note [Outer sums stream whole rows].
template <typename scalar_t, typename acc_t, typename Map>
void vectorized_outer_sum(char** data, int64_t in_inner_stride, int64_t out_stride, int64_t size0,
                          int64_t size1) {
  using VLoad = VecLoad<scalar_t, acc_t, Map>;
  using SLoad = ScalarLoad<scalar_t, acc_t, Map>;
  constexpr int64_t nrows = 4;
  constexpr int64_t lanes = VLoad::kLanes;
  const auto column = [&](int64_t j) {
    return data[1] + j * static_cast<int64_t>(sizeof(scalar_t));
  };
  // Groups of nrows vectors, as libtorch's multi_row_sum takes them, up to kStreamBytes a pass.
  int64_t j = 0;
  while (j + nrows * lanes <= size1) {
    const int64_t nvecs =
        std::min(kStreamBytes / VLoad::kBytes, (size1 - j) / (nrows * lanes) * nrows);
    streamed_outer_sum<scalar_t, acc_t, Map>(column(j), in_inner_stride, size0, nvecs,
                                             data[0] + j * out_stride, out_stride);
    j += nvecs * lanes;
  }
  for (; j + lanes <= size1; j += lanes) {
    store_add<scalar_t, acc_t>(data[0], out_stride, j,
                               row_sum<VLoad>(column(j), in_inner_stride, size0));
  }
  for (; j < size1; ++j) {
    store_add<scalar_t, acc_t>(data[0], out_stride, j,
                               row_sum<SLoad>(column(j), in_inner_stride, size0));
  }
}

template <typename scalar_t, typename acc_t, typename Map>
void scalar_inner_sum(char** data, const int64_t* in_strides, int64_t out_stride, int64_t size0,
                      int64_t size1) {
  using SLoad = ScalarLoad<scalar_t, acc_t, Map>;
  for (int64_t j = 0; j < size1; ++j) {
    const acc_t sum = row_sum<SLoad>(data[1] + j * in_strides[1], in_strides[0], size0);
    store_add<scalar_t, acc_t>(data[0], out_stride, j, sum);
  }
}

template <typename scalar_t, typename acc_t, typename Map>
void scalar_outer_sum(char** data, const int64_t* in_strides, int64_t out_stride, int64_t size0,
                      int64_t size1) {
  using SLoad = ScalarLoad<scalar_t, acc_t, Map>;
  constexpr int64_t nrows = 4;
  int64_t j = 0;
  for (; j + nrows <= size1; j += nrows) {
    const auto sums = multi_row_sum<nrows, SLoad>(data[1] + j * in_strides[1], in_strides[0],
                                                  in_strides[1], size0);
    for (int64_t i = 0; i < nrows; ++i)
      store_add<scalar_t, acc_t>(data[0], out_stride, j + i, sums[i]);
  }
  for (; j < size1; ++j) {
    const acc_t sum = row_sum<SLoad>(data[1] + j * in_strides[1], in_strides[0], size0);
    store_add<scalar_t, acc_t>(data[0], out_stride, j, sum);
  }
}

// One 2-D block: see the list at the top of the file.
template <typename scalar_t, typename Map = Identity>
void sum_block(char** data, const int64_t* strides, int64_t size0, int64_t size1) {
  // libtorch's at::acc_type<T, /*is_cuda=*/true> (what its CPU sum uses): float for the
  // reduced floats, T otherwise — the same as opmath_type.
  using acc_t = at::opmath_type<scalar_t>;
  int64_t in_strides[2] = {strides[1], strides[3]};
  int64_t out_strides[2] = {strides[0], strides[2]};
  if (out_strides[0] != 0 && out_strides[1] == 0) {
    std::swap(in_strides[0], in_strides[1]);
    std::swap(out_strides[0], out_strides[1]);
    std::swap(size0, size1);
  }
  if (out_strides[0] != 0) {
    for (int64_t j = 0; j < size1; ++j) {
      for (int64_t i = 0; i < size0; ++i) {
        const char* in = data[1] + i * in_strides[0] + j * in_strides[1];
        char* out = data[0] + i * out_strides[0] + j * out_strides[1];
        store_add<scalar_t, acc_t>(out, 0, 0, ScalarLoad<scalar_t, acc_t, Map>::load(in, 0, 0));
      }
    }
    return;
  }
  constexpr int64_t element_size = sizeof(scalar_t);
  constexpr int64_t lanes = VecOf<acc_t>::size();
  const int64_t out_stride = out_strides[1];
  if (in_strides[0] == element_size && size0 >= lanes) {
    vectorized_inner_sum<scalar_t, acc_t, Map>(data, in_strides[1], out_stride, size0, size1);
  } else if (in_strides[1] == element_size && size1 >= lanes) {
    vectorized_outer_sum<scalar_t, acc_t, Map>(data, in_strides[0], out_stride, size0, size1);
  } else if (in_strides[0] < in_strides[1]) {
    scalar_inner_sum<scalar_t, acc_t, Map>(data, in_strides, out_stride, size0, size1);
  } else {
    scalar_outer_sum<scalar_t, acc_t, Map>(data, in_strides, out_stride, size0, size1);
  }
}

void sum_kernel(TensorIterator& iter) {
  TORCH_INTERNAL_ASSERT(iter.dtype(0) == iter.input_dtype(0),
                        "sum: the operator converts the input");
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(iter.dtype(0), "sum_cpu", [&] {
    parallel_reduce(iter, [](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
      sum_block<scalar_t>(data, strides, size0, size1);
    });
  });
}

// See Note [The 1- and 2-norms are sums].
template <typename Map>
void mapped_sum(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_TYPES(iter.dtype(0), "norm_cpu", [&] {
    // Threads' partial sums are added as they are, not mapped again.
    parallel_reduce(
        iter,
        [](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
          sum_block<scalar_t, Map>(data, strides, size0, size1);
        },
        [](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
          sum_block<scalar_t, Identity>(data, strides, size0, size1);
        });
  });
}

void norm_sum_kernel(TensorIterator& iter, int p) {
  TORCH_INTERNAL_ASSERT(iter.dtype(0) == iter.input_dtype(0),
                        "norm: the operator converts the input");
  TORCH_INTERNAL_ASSERT(p == 1 || p == 2, "norm_sum_stub: p must be 1 or 2, not ", p);
  if (p == 1) {
    mapped_sum<Magnitude>(iter);
  } else {
    mapped_sum<Square>(iter);
  }
}

}  // namespace
}  // namespace CPU_CAPABILITY

REGISTER_DISPATCH(sum_stub, &sum_kernel);
REGISTER_DISPATCH(norm_sum_stub, &norm_sum_kernel);

}  // namespace native
}  // namespace at
