#pragma once
// What ProcessGroupGloo's collectives share (internal to distributed/c10d): the reduction
// functions Gloo applies, the staging of tensors Gloo cannot use as they are, and the
// translation of Gloo's exceptions into c10::Errors.

#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aten/core/Tensor.h"
#include "distributed/c10d/Types.h"
#include "distributed/c10d/Work.h"

namespace gloo {
class Context;
}  // namespace gloo

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

// What a collective is, as every rank must agree on it: the operation, and the dtypes, devices
// and shapes of its tensors (the shapes left out where ranks may differ, as in alltoall_base).
struct Fingerprint {
  Fingerprint(OpType op, const std::vector<at::Tensor>& tensors, bool with_shapes = true);
  std::vector<int64_t> encoded;  // fixed length, so that any two ranks can exchange them
  static std::string describe(const std::vector<int64_t>& encoded);
};

// Throws on every rank, naming two that differ, unless all ranks' fingerprints are `mine`'s.
// One allgather of the fingerprints on `context`, in a tag space apart from the collectives'.
void verify_same_collective(const Fingerprint& mine,
                            const std::shared_ptr<::gloo::Context>& context, uint32_t tag);

}  // namespace gloo_detail
}  // namespace c10d
