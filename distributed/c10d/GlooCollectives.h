#pragma once
// What ProcessGroupGloo's collectives share (internal to distributed/c10d): the reduction
// functions Gloo applies, the staging of tensors Gloo cannot use as they are, and the
// translation of Gloo's exceptions into c10::Errors.

#include <exception>
#include <functional>
#include <vector>

#include "aten/core/Tensor.h"
#include "distributed/c10d/Types.h"

namespace c10d {
namespace gloo_detail {

// c = a (op) b over n elements: what gloo's algorithms call to combine two buffers.
using ReduceFunc = std::function<void(void*, const void*, const void*, size_t)>;

// The reduction `op` over elements of `type`; libtorch's errors for the reductions Gloo cannot
// do (AVG, PREMUL_SUM, bitwise ops on floating types) and for the types it does not support.
ReduceFunc reduce_function(at::ScalarType type, const ReduceOp& op);

// Throws "Invalid scalar type" unless Gloo's collectives can carry `type`.
void check_gloo_type(at::ScalarType type);

// A tensor as Gloo sees it: `buffer` is `user` itself when that is a contiguous CPU tensor, else
// a contiguous CPU copy of it (Note [How ProcessGroupGloo runs a collective]).
struct Staged {
  at::Tensor user;
  at::Tensor buffer;
  // Copies the buffer back into the user's tensor, when they differ.
  void copy_back() const;
};
Staged stage(const at::Tensor& t);
std::vector<Staged> stage(const std::vector<at::Tensor>& tensors);

// The exception a Gloo call threw, as a c10d::C10dError (c10::Errors pass through unchanged).
std::exception_ptr as_c10d_error(std::exception_ptr eptr);

}  // namespace gloo_detail
}  // namespace c10d
