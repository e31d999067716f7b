#pragma once
// DLPack: hand a tensor to another library, or take one from it, without a copy
// (libtorch's ATen/DLConvertor.h, on Debian's libdlpack-dev, DLPack 0.6 as libtorch 1.13).
//
//   DLManagedTensor* m = at::toDLPack(t);   // shares t's memory; the consumer calls
//                                           // m->deleter(m) once, when it is done
//   at::Tensor u = at::fromDLPack(m);       // shares it again; m->deleter runs, exactly once,
//                                           // when u's storage dies
//
// Note [What DLPack carries]
// A DLTensor is a data pointer, a byte offset, a device, a dtype, and sizes with strides in
// elements. toDLPack writes what libtorch 1.13 writes: `data` is the tensor's first element
// (the storage offset already applied), `byte_offset` is 0, and the stride of every dim of size
// 0 or 1 is written as 1 (libtorch's gh-83069: a consumer that checks contiguity by strides
// should not trip on a stride no element uses). The DLManagedTensor holds a reference to the
// tensor's storage, so the memory outlives the producer's tensor until the consumer's deleter
// call.
//
// Note [fromDLPack keeps what it is given]
// - byte_offset is added to `data`. libtorch 1.13 ignores it (a producer that sets it is read
//   from the wrong address, checked against libtorch: data = {0..7}, byte_offset 8 reads 0, 1);
//   DLPack defines the first element at data + byte_offset, and that is what miniaten reads.
// - A DLManagedTensor made by toDLPack comes back as a tensor on the same storage (is_alias_of
//   the original) at the original storage offset; libtorch makes a new storage starting at the
//   first element. Sizes and strides are the DLTensor's either way.
// - A foreign tensor becomes a from_blob tensor whose storage starts at its first element, and
//   whose deleter calls the DLManagedTensor's deleter exactly once (none when it is null).

#include <cstdint>

#include <dlpack/dlpack.h>

#include "aten/core/Tensor.h"

namespace at {

// The ScalarType a DLPack dtype names. "ATen does not support lanes != 1", "Unsupported kInt
// bits 7", "Unsupported code 3" (libtorch's texts).
TORCH_API ScalarType toScalarType(const DLDataType& dtype);
// "Bool type is not supported by dlpack" (libtorch 1.13; DLPack 0.6 has no bool code).
TORCH_API DLDataType getDLDataType(const Tensor& t);
// kDLCPU (device_id as given) or kDLCUDA; "Cannot pack tensors on meta" otherwise.
TORCH_API DLDevice getDLContext(const Tensor& tensor, const int64_t& device_id);

TORCH_API DLManagedTensor* toDLPack(const Tensor& src);
// Takes ownership of *src: its deleter is called exactly once, when the returned tensor's
// storage dies (or at once, if this throws, so that a refused tensor is not leaked).
TORCH_API Tensor fromDLPack(const DLManagedTensor* src);

}  // namespace at
