#pragma once
// TensorAccessor and PackedTensorAccessor: typed, dimension-checked element access into a
// strided tensor, as libtorch's ATen/core/TensorAccessor.h. Obtained from a tensor:
//
//   at::Tensor t = at::zeros({2, 3});
//   auto a = t.accessor<float, 2>();        // "TensorAccessor expected 2 dims but tensor has 3"
//   a[1][2] = 5.f;                           // writes t's storage: no copy
//   auto p = t.packed_accessor32<float, 2>();  // holds sizes/strides by value (for kernels)
//
// Note [Accessors borrow or copy the geometry]
// A TensorAccessor points at the tensor's own sizes and strides: it is cheap, and valid only
// while the tensor lives unchanged. A PackedTensorAccessor copies them into arrays of index_t
// (int32_t for packed_accessor32, int64_t for packed_accessor64), so it can be passed by value
// to a kernel running elsewhere; indexing one yields a TensorAccessor over its arrays. Indexing
// past the last dimension is a T&, never checked (as in libtorch).

#include <cstddef>
#include <cstdint>

#include "c10/util/ArrayRef.h"
#include "c10/util/Half.h"  // C10_HOST_DEVICE

namespace at {

// How the data pointer is spelled: plain, or __restrict__ for kernels that promise no aliasing.
template <typename T>
struct DefaultPtrTraits {
  typedef T* PtrType;
};

#if defined(__CUDACC__) || defined(__HIPCC__)
template <typename T>
struct RestrictPtrTraits {
  typedef T* __restrict__ PtrType;
};
#else
template <typename T>
struct RestrictPtrTraits {
  typedef T* __restrict PtrType;
};
#endif

// What every accessor of N dims holds: the data pointer and (pointers to) sizes and strides.
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST_DEVICE TensorAccessorBase(PtrType data, const index_t* sizes, const index_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  C10_HOST_DEVICE c10::IntArrayRef sizes() const { return c10::IntArrayRef(sizes_, N); }
  C10_HOST_DEVICE c10::IntArrayRef strides() const { return c10::IntArrayRef(strides_, N); }
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE PtrType data() { return data_; }
  C10_HOST_DEVICE const PtrType data() const { return data_; }

 protected:
  PtrType data_;
  const index_t* sizes_;
  const index_t* strides_;
};

// a[i] drops the first dimension: a TensorAccessor of N-1 dims, or a T& when N == 1.
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST_DEVICE TensorAccessor(PtrType data, const index_t* sizes, const index_t* strides)
      : TensorAccessorBase<T, N, PtrTraits, index_t>(data, sizes, strides) {}

  C10_HOST_DEVICE TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                        this->sizes_ + 1, this->strides_ + 1);
  }
  C10_HOST_DEVICE const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                        this->sizes_ + 1, this->strides_ + 1);
  }
};

template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> : public TensorAccessorBase<T, 1, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST_DEVICE TensorAccessor(PtrType data, const index_t* sizes, const index_t* strides)
      : TensorAccessorBase<T, 1, PtrTraits, index_t>(data, sizes, strides) {}
  C10_HOST_DEVICE T& operator[](index_t i) { return this->data_[this->strides_[0] * i]; }
  C10_HOST_DEVICE const T& operator[](index_t i) const {
    return this->data_[this->strides_[0] * i];
  }
};

// The packed form owns copies of sizes and strides (see Note [Accessors borrow or copy the
// geometry]); built from int64_t arrays, narrowed to index_t.
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class GenericPackedTensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  template <typename source_index_t>
  C10_HOST_DEVICE GenericPackedTensorAccessorBase(PtrType data, const source_index_t* sizes,
                                                  const source_index_t* strides)
      : data_(data) {
    for (size_t i = 0; i < N; ++i) {
      sizes_[i] = static_cast<index_t>(sizes[i]);
      strides_[i] = static_cast<index_t>(strides[i]);
    }
  }
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE PtrType data() { return data_; }
  C10_HOST_DEVICE const PtrType data() const { return data_; }

 protected:
  PtrType data_;
  index_t sizes_[N];
  index_t strides_[N];
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class GenericPackedTensorAccessor : public GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  template <typename source_index_t>
  C10_HOST_DEVICE GenericPackedTensorAccessor(PtrType data, const source_index_t* sizes,
                                              const source_index_t* strides)
      : GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t>(data, sizes, strides) {}

  C10_HOST_DEVICE TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                        this->sizes_ + 1, this->strides_ + 1);
  }
  C10_HOST_DEVICE const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                        this->sizes_ + 1, this->strides_ + 1);
  }
};

template <typename T, template <typename U> class PtrTraits, typename index_t>
class GenericPackedTensorAccessor<T, 1, PtrTraits, index_t>
    : public GenericPackedTensorAccessorBase<T, 1, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  template <typename source_index_t>
  C10_HOST_DEVICE GenericPackedTensorAccessor(PtrType data, const source_index_t* sizes,
                                              const source_index_t* strides)
      : GenericPackedTensorAccessorBase<T, 1, PtrTraits, index_t>(data, sizes, strides) {}
  C10_HOST_DEVICE T& operator[](index_t i) { return this->data_[this->strides_[0] * i]; }
  C10_HOST_DEVICE const T& operator[](index_t i) const {
    return this->data_[this->strides_[0] * i];
  }
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
// libtorch's deprecated spelling, 64-bit indices.
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;

}  // namespace at
