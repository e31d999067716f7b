#pragma once
// The collectives as dispatcher operators (libtorch 1.13's Ops.hpp): c10d::ops::allreduce(pg,
// tensors, opts) calls the operator `c10d::allreduce_`, whose kernel calls pg->allreduce. Going
// through the dispatcher puts collectives in the trace and in dumpComputedTable() like any
// other operator, and lets a backend register its own kernel for them.
//
//   auto work = c10d::ops::allreduce(pg, {grad});   // c10d::allreduce_ -> pg->allreduce
//   work->wait();
//
// See Note [The c10d operators] in Ops.cpp for their schemas and kernels.

#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/intrusive_ptr.h"
#include "distributed/c10d/ProcessGroup.h"

namespace c10d {
namespace ops {

c10::intrusive_ptr<Work> broadcast(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                   at::TensorList tensors, const BroadcastOptions& opts = {});

c10::intrusive_ptr<Work> allreduce(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                   at::TensorList tensors, const AllreduceOptions& opts = {});

c10::intrusive_ptr<Work> allgather(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                   const std::vector<std::vector<at::Tensor>>& output_tensors,
                                   const std::vector<at::Tensor>& input_tensors,
                                   const AllgatherOptions& opts = {});

c10::intrusive_ptr<Work> reduce_scatter(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                        const std::vector<at::Tensor>& output_tensors,
                                        const std::vector<std::vector<at::Tensor>>& input_tensors,
                                        const ReduceScatterOptions& opts = {});

c10::intrusive_ptr<Work> reduce(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                at::TensorList tensors, const ReduceOptions& opts = {});

c10::intrusive_ptr<Work> gather(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                const std::vector<std::vector<at::Tensor>>& output_tensors,
                                const std::vector<at::Tensor>& input_tensors,
                                const GatherOptions& opts = {});

c10::intrusive_ptr<Work> scatter(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                 const std::vector<at::Tensor>& output_tensors,
                                 const std::vector<std::vector<at::Tensor>>& input_tensors,
                                 const ScatterOptions& opts = {});

c10::intrusive_ptr<Work> alltoall(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                  at::TensorList output_tensors, at::TensorList input_tensors,
                                  const AllToAllOptions& opts = {});

c10::intrusive_ptr<Work> barrier(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                 const BarrierOptions& opts = {});

c10::intrusive_ptr<Work> send(const c10::intrusive_ptr<ProcessGroup>& process_group,
                              at::TensorList tensors, int64_t dstRank, int64_t tag);

c10::intrusive_ptr<Work> recv(const c10::intrusive_ptr<ProcessGroup>& process_group,
                              at::TensorList tensors, int64_t srcRank, int64_t tag);

}  // namespace ops
}  // namespace c10d
