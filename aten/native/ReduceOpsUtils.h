#pragma once
// Shape arithmetic shared by the reductions (ReduceOps.cpp, ReduceOpsFold.cpp,
// ReduceOpsStats.cpp): which dims a call reduces, the output's shape, and the output as the
// reduction iterator sees it (libtorch's ReduceOpsUtils.h).
//
//   DimMask mask = make_dim_mask(dims, self.dim());       // None and [] mean every dim
//   Tensor result = at::empty(reduced_shape(self.sizes(), mask, keepdim), options);
//   auto iter = TensorIterator::reduce_op(review_reduce_result(result, self.dim(), mask,
//                                                              keepdim), self);

#include <bitset>

#include "aten/core/Tensor.h"
#include "c10/core/ScalarType.h"
#include "c10/util/ArrayRef.h"

namespace at {
namespace native {

// The dims a reduction removes (libtorch's DimMask).
constexpr size_t kMaxReductionDims = 64;
using DimMask = std::bitset<kMaxReductionDims>;

// None and [] mean every dim. All dims are wrapped before duplicates are looked for, so an out
// of range dim is reported first, as libtorch does.
TORCH_API DimMask make_dim_mask(OptionalIntArrayRef opt_dims, int64_t ndim);

TORCH_API DimVector reduced_shape(IntArrayRef sizes, const DimMask& mask, bool keepdim);

// How many input elements fold into each output element.
TORCH_API int64_t reduced_count(IntArrayRef sizes, const DimMask& mask);

// The output with the reduced dims put back as size 1 and stride 0, so that TensorIterator
// lines it up with the input. See Note [Reduction outputs] in ReduceOps.cpp.
TORCH_API Tensor review_reduce_result(const Tensor& result, int64_t ndim, const DimMask& mask,
                                      bool keepdim);

// libtorch's get_dtype_from_self(self, dtype, /*promote_integers=*/true).
TORCH_API ScalarType dtype_or_promoted(const Tensor& self, c10::optional<ScalarType> dtype);

}  // namespace native
}  // namespace at
