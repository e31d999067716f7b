// The copy kernel: every layout-changing copy ends here.
//
// Note [Which copy loop runs]
// For each 2-D block TensorIterator hands over (rows of size0 along the fastest dim, size1 rows):
//  * same dtype, both sides dense along the block -> one memcpy (fast setup makes the whole
//    contiguous case a single block per thread);
//  * same dtype, rows contiguous on both sides -> a memcpy per row;
//  * same dtype, the output contiguous along dim 0 but the input along dim 1 -> a cache-blocked
//    transpose: 2-D transposes and NCHW <-> NHWC copies, where libtorch reads element by
//    element with a large stride (REFERENCE.md section 4);
//  * same dtype otherwise -> a strided element loop on a carrier of the element's size;
//  * different dtypes -> an element loop converting with c10::convert.
// Same-dtype loops move bytes through carriers (uint8/16/32/64), so one instantiation per
// element size serves all ten dtypes.

#include <cstring>

#include "aten/Dispatch.h"
#include "aten/native/Copy.h"

namespace at {
namespace native {

namespace {

thread_local const char* tls_last_copy_loop = "";

// Note [Blocked transpose]
// The output is contiguous along dim 0 and the input along dim 1. Walking either one element
// by element strides through the other by a whole row; with power-of-two rows (4096 floats)
// those addresses all fall in one L1 set and evict each other. So each B x B tile goes through
// a small buffer: B input row segments are read whole into it, then B output row segments are
// written whole from it. Every cache line is consumed entirely while it is in cache. B * sizeof(T)
// is 128 bytes: two cache lines per segment.
template <typename T>
constexpr int64_t tile() {
  return 128 / static_cast<int64_t>(sizeof(T));
}

template <typename T>
void blocked_transpose(char* out, const char* in, int64_t size0, int64_t size1, int64_t out_s1,
                       int64_t in_s0) {
  constexpr int64_t B = tile<T>();
  T buffer[B][B];
  for (int64_t i0 = 0; i0 < size0; i0 += B) {
    const int64_t ni = std::min(B, size0 - i0);
    for (int64_t j0 = 0; j0 < size1; j0 += B) {
      const int64_t nj = std::min(B, size1 - j0);
      // Input rows i0.. (contiguous along j) into the buffer.
      for (int64_t i = 0; i < ni; ++i) {
        const T* src = reinterpret_cast<const T*>(in + (i0 + i) * in_s0) + j0;
        for (int64_t j = 0; j < nj; ++j) buffer[j][i] = src[j];
      }
      // Output rows j0.. (contiguous along i) out of it.
      for (int64_t j = 0; j < nj; ++j) {
        T* dst = reinterpret_cast<T*>(out + (j0 + j) * out_s1) + i0;
        for (int64_t i = 0; i < ni; ++i) dst[i] = buffer[j][i];
      }
    }
  }
}

template <typename T>
void same_dtype_loop(char** data, const int64_t* strides, int64_t size0, int64_t size1) {
  constexpr int64_t e = sizeof(T);
  char* out = data[0];
  const char* in = data[1];
  const int64_t os0 = strides[0], is0 = strides[1], os1 = strides[2], is1 = strides[3];
  if (os0 == e && is0 == e) {
    if (size1 == 1 || (os1 == size0 * e && is1 == size0 * e)) {
      tls_last_copy_loop = "memcpy";
      std::memcpy(out, in, static_cast<size_t>(size0 * size1 * e));
      return;
    }
    tls_last_copy_loop = "vectorized";
    for (int64_t j = 0; j < size1; ++j) {
      std::memcpy(out + j * os1, in + j * is1, static_cast<size_t>(size0 * e));
    }
    return;
  }
  // Below 16 x 16 the whole block fits in L1 anyway: the plain loop is cheaper.
  if (os0 == e && is1 == e && size0 >= 16 && size1 >= 16) {
    tls_last_copy_loop = "blocked transpose";
    blocked_transpose<T>(out, in, size0, size1, os1, is0);
    return;
  }
  tls_last_copy_loop = "basic";
  for (int64_t j = 0; j < size1; ++j) {
    char* o = out + j * os1;
    const char* s = in + j * is1;
    for (int64_t i = 0; i < size0; ++i) {
      *reinterpret_cast<T*>(o + i * os0) = *reinterpret_cast<const T*>(s + i * is0);
    }
  }
}

template <typename dst_t, typename src_t>
void convert_loop(char** data, const int64_t* strides, int64_t size0, int64_t size1) {
  tls_last_copy_loop = "convert";
  for (int64_t j = 0; j < size1; ++j) {
    char* o = data[0] + j * strides[2];
    const char* s = data[1] + j * strides[3];
    if (strides[0] == static_cast<int64_t>(sizeof(dst_t)) &&
        strides[1] == static_cast<int64_t>(sizeof(src_t))) {
      // Contiguous rows: a plain loop the compiler vectorizes.
      dst_t* op = reinterpret_cast<dst_t*>(o);
      const src_t* sp = reinterpret_cast<const src_t*>(s);
      for (int64_t i = 0; i < size0; ++i) op[i] = c10::convert<dst_t>(sp[i]);
    } else {
      for (int64_t i = 0; i < size0; ++i) {
        *reinterpret_cast<dst_t*>(o + i * strides[0]) =
            c10::convert<dst_t>(*reinterpret_cast<const src_t*>(s + i * strides[1]));
      }
    }
  }
}

}  // namespace

const char* last_copy_loop() { return tls_last_copy_loop; }

void copy_kernel(TensorIteratorBase& iter) {
  const c10::ScalarType dst = iter.dtype(0);
  const c10::ScalarType src = iter.dtype(1);
  if (dst == src) {
    switch (c10::elementSize(dst)) {
      case 1:
        iter.for_each(same_dtype_loop<uint8_t>);
        return;
      case 2:
        iter.for_each(same_dtype_loop<uint16_t>);
        return;
      case 4:
        iter.for_each(same_dtype_loop<uint32_t>);
        return;
      case 8:
        iter.for_each(same_dtype_loop<uint64_t>);
        return;
      default:
        TORCH_INTERNAL_ASSERT(false, "unexpected element size");
    }
  }
  AT_DISPATCH_ALL_MINIATEN_TYPES(dst, "copy_", [&] {
    using dst_t = scalar_t;
    AT_DISPATCH_ALL_MINIATEN_TYPES(src, "copy_", [&] {
      iter.for_each(convert_loop<dst_t, scalar_t>);
    });
  });
}

}  // namespace native
}  // namespace at
