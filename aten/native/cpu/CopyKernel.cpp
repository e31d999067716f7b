// The copy kernel: every layout-changing copy ends here. Compiled once per CPU capability
// (miniaten_add_cpu_kernels in aten/CMakeLists.txt) and reached through copy_stub.
//
// Note [Which copy loop runs]
// For each 2-D block TensorIterator hands over (rows of size0 along the fastest dim, size1 rows):
//  * same dtype, both sides dense along the block -> one memcpy (fast setup makes the whole
//    contiguous case a single block per thread), or, for a copy of at least kStreamingBytes in
//    the AVX2 and AVX512 builds, "streaming": the same run of bytes with non-temporal stores;
//  * same dtype, rows contiguous on both sides -> a memcpy per row ("vectorized");
//  * same dtype, the output contiguous along dim 0 but the input along dim 1, both at least
//    one register tile long in the AVX2 and AVX512 builds (8 elements; 4 of 8 bytes, 16 of 1)
//    and 16 in the DEFAULT one (min_transpose_side) -> a cache-blocked transpose
//    (aten/native/cpu/CopyTranspose.h): 2-D transposes down to contiguous() of an 8 x 8 float
//    transpose, and NCHW <-> NHWC copies, where libtorch reads element by element with a large
//    stride (REFERENCE.md section 4);
//  * same dtype otherwise -> a strided element loop on a carrier of the element's size ("basic");
//  * different dtypes -> an element loop converting with c10::convert ("convert"); contiguous
//    rows of the floating conversions with vector instructions (aten/cpu/vec/VecConvert.h).
// Same-dtype loops move bytes through carriers (uint8/16/32/64, and c10::complex<double> for
// 16 bytes), so one instantiation per element size serves all twelve dtypes. The name of the loop
// that ran goes to last_copy_loop().

#include <algorithm>
#include <cstring>

#include "aten/Dispatch.h"
#include "aten/cpu/vec/VecConvert.h"
#include "aten/native/Copy.h"
#include "aten/native/cpu/CopyTranspose.h"
#include "aten/native/cpu/StreamingCopy.h"

namespace at {
namespace native {
inline namespace CPU_CAPABILITY {

namespace {

template <typename T, bool kStream>
void same_dtype_loop(char** data, const int64_t* strides, int64_t size0, int64_t size1) {
  constexpr int64_t e = sizeof(T);
  char* out = data[0];
  const char* in = data[1];
  const int64_t os0 = strides[0], is0 = strides[1], os1 = strides[2], is1 = strides[3];
  if (os0 == e && is0 == e) {
    if (size1 == 1 || (os1 == size0 * e && is1 == size0 * e)) {
      if (kStream) {
        set_last_copy_loop("streaming");
        streaming_memcpy(out, in, size0 * size1 * e);
      } else {
        set_last_copy_loop("memcpy");
        std::memcpy(out, in, static_cast<size_t>(size0 * size1 * e));
      }
      return;
    }
    set_last_copy_loop("vectorized");
    for (int64_t j = 0; j < size1; ++j) {
      std::memcpy(out + j * os1, in + j * is1, static_cast<size_t>(size0 * e));
    }
    return;
  }
  constexpr int64_t kMinSide = min_transpose_side<T>();
  if (os0 == e && is1 == e && size0 >= kMinSide && size1 >= kMinSide) {
    set_last_copy_loop("blocked transpose");
    transpose_copy<T, kStream>(out, in, size0, size1, os1, is0);
    return;
  }
  set_last_copy_loop("basic");
  for (int64_t j = 0; j < size1; ++j) {
    char* o = out + j * os1;
    const char* s = in + j * is1;
    if (os0 == e) {
      // The output's rows are contiguous (every contiguous() and clone() below the transpose
      // size): index them as an array, leaving only the input strided, eight elements a step.
      T* o_row = reinterpret_cast<T*>(o);
#pragma GCC unroll 8
      for (int64_t i = 0; i < size0; ++i) o_row[i] = *reinterpret_cast<const T*>(s + i * is0);
      continue;
    }
    for (int64_t i = 0; i < size0; ++i) {
      *reinterpret_cast<T*>(o + i * os0) = *reinterpret_cast<const T*>(s + i * is0);
    }
  }
}

template <typename T>
void copy_same_dtype(TensorIteratorBase& iter) {
  // Decided for the whole copy, not per block: a thread's share of a large copy is still large.
  if (kCanStream && iter.numel() * static_cast<int64_t>(sizeof(T)) >= kStreamingBytes) {
    iter.for_each(same_dtype_loop<T, true>);
  } else {
    iter.for_each(same_dtype_loop<T, false>);
  }
}

template <typename dst_t, typename src_t>
void convert_loop(char** data, const int64_t* strides, int64_t size0, int64_t size1) {
  set_last_copy_loop("convert");
  for (int64_t j = 0; j < size1; ++j) {
    char* o = data[0] + j * strides[2];
    const char* s = data[1] + j * strides[3];
    if (strides[0] == static_cast<int64_t>(sizeof(dst_t)) &&
        strides[1] == static_cast<int64_t>(sizeof(src_t))) {
      // Contiguous rows: vector conversions where they round as c10::convert does
      // (aten/cpu/vec/VecConvert.h), else a plain loop the compiler may vectorize.
      dst_t* op = reinterpret_cast<dst_t*>(o);
      const src_t* sp = reinterpret_cast<const src_t*>(s);
      if constexpr (vec::can_convert<dst_t, src_t>()) {
        vec::convert(sp, op, size0);
      } else {
        for (int64_t i = 0; i < size0; ++i) op[i] = c10::convert<dst_t>(sp[i]);
      }
    } else {
      for (int64_t i = 0; i < size0; ++i) {
        *reinterpret_cast<dst_t*>(o + i * strides[0]) =
            c10::convert<dst_t>(*reinterpret_cast<const src_t*>(s + i * strides[1]));
      }
    }
  }
}

void copy_kernel(TensorIteratorBase& iter, bool /*non_blocking*/) {
  const c10::ScalarType dst = iter.dtype(0);
  const c10::ScalarType src = iter.dtype(1);
  if (dst == src) {
    switch (c10::elementSize(dst)) {
      case 1:
        return copy_same_dtype<uint8_t>(iter);
      case 2:
        return copy_same_dtype<uint16_t>(iter);
      case 4:
        return copy_same_dtype<uint32_t>(iter);
      case 8:
        return copy_same_dtype<uint64_t>(iter);
      case 16:
        return copy_same_dtype<c10::complex<double>>(iter);
      default:
        TORCH_INTERNAL_ASSERT(false, "unexpected element size");
    }
  }
  AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(dst, "copy_", [&] {
    using dst_t = scalar_t;
    AT_DISPATCH_ALL_MINIATEN_TYPES_AND_COMPLEX(
        src, "copy_", [&] { iter.for_each(convert_loop<dst_t, scalar_t>); });
  });
}

}  // namespace

REGISTER_DISPATCH(copy_stub, &copy_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
