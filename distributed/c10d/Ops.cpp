#include "distributed/c10d/Ops.h"

#include <limits>
#include <tuple>

#include "dispatcher/Dispatcher.h"
#include "dispatcher/Library.h"

namespace c10d {

// Note [The c10d operators]
// As in libtorch 1.13 (torch/csrc/distributed/c10d/Ops.cpp and OpsImpl.cpp), each collective is
// an operator in the `c10d` namespace whose schema is inferred from its kernel, so its arguments
// are named _0, _1, ...; the process group, the reduction and the Work are custom classes
// (__torch__.torch.classes.c10d.ProcessGroup, ...). Every operator has a
// CompositeExplicitAutograd kernel; broadcast_, allreduce_, send and recv_ also have CPU and CUDA
// kernels, as 1.13 registers them (it registers allreduce_ for SparseCPU/SparseCUDA too, keys
// miniaten does not have). The kernels only call the process group: which backend runs the
// collective is the group's business, not the dispatcher's. Operators that return their tensors
// as well as the Work do so that a traced graph sees the in-place update as a data dependency.
//
// An operator without tensor arguments (barrier) dispatches on no key at all, and so reaches
// its CompositeExplicitAutograd kernel through the Undefined entry of the table.

namespace {

using TensorsAndWork = std::tuple<std::vector<at::Tensor>, c10::intrusive_ptr<Work>>;
using TensorListsAndWork =
    std::tuple<std::vector<std::vector<at::Tensor>>, c10::intrusive_ptr<Work>>;

// The process group takes ranks and tags as int: a larger one is an error, not a wrapped one.
int as_int(int64_t value, const char* what) {
  TORCH_CHECK(value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max(),
              what, " ", value, " is out of range");
  return static_cast<int>(value);
}

c10::intrusive_ptr<Work> send_(at::TensorList tensors,
                               const c10::intrusive_ptr<ProcessGroup>& process_group,
                               int64_t dstRank, int64_t tag) {
  auto tensor_vec = tensors.vec();
  return process_group->send(tensor_vec, as_int(dstRank, "dstRank"), as_int(tag, "tag"));
}

c10::intrusive_ptr<Work> recv_(at::TensorList tensors,
                               const c10::intrusive_ptr<ProcessGroup>& process_group,
                               int64_t srcRank, int64_t tag) {
  auto tensor_vec = tensors.vec();
  return process_group->recv(tensor_vec, as_int(srcRank, "srcRank"), as_int(tag, "tag"));
}

TensorsAndWork broadcast_(at::TensorList tensors,
                          const c10::intrusive_ptr<ProcessGroup>& process_group, int64_t root_rank,
                          int64_t root_tensor, int64_t timeout) {
  auto tensor_vec = tensors.vec();
  auto work = process_group->broadcast(
      tensor_vec, BroadcastOptions{root_rank, root_tensor, std::chrono::milliseconds(timeout)});
  return TensorsAndWork(std::move(tensor_vec), work);
}

TensorsAndWork allreduce_(at::TensorList tensors,
                          const c10::intrusive_ptr<ProcessGroup>& process_group,
                          const c10::intrusive_ptr<ReduceOp>& reduce_op, int64_t timeout) {
  auto tensor_vec = tensors.vec();
  auto work = process_group->allreduce(
      tensor_vec, AllreduceOptions{*reduce_op, std::chrono::milliseconds(timeout)});
  return TensorsAndWork(std::move(tensor_vec), work);
}

TensorListsAndWork allgather_(const std::vector<std::vector<at::Tensor>>& output_tensors,
                              const std::vector<at::Tensor>& input_tensors,
                              const c10::intrusive_ptr<ProcessGroup>& process_group,
                              int64_t timeout) {
  auto work =
      process_group->allgather(const_cast<std::vector<std::vector<at::Tensor>>&>(output_tensors),
                               const_cast<std::vector<at::Tensor>&>(input_tensors),
                               AllgatherOptions{std::chrono::milliseconds(timeout)});
  return TensorListsAndWork(output_tensors, work);
}

TensorsAndWork reduce_scatter_(const std::vector<at::Tensor>& output_tensors,
                               const std::vector<std::vector<at::Tensor>>& input_tensors,
                               const c10::intrusive_ptr<ProcessGroup>& process_group,
                               const c10::intrusive_ptr<ReduceOp>& reduce_op, int64_t timeout) {
  auto work = process_group->reduce_scatter(
      const_cast<std::vector<at::Tensor>&>(output_tensors),
      const_cast<std::vector<std::vector<at::Tensor>>&>(input_tensors),
      ReduceScatterOptions{*reduce_op, std::chrono::milliseconds(timeout)});
  return TensorsAndWork(output_tensors, work);
}

c10::intrusive_ptr<Work> reduce_(at::TensorList tensors,
                                 const c10::intrusive_ptr<ProcessGroup>& process_group,
                                 const c10::intrusive_ptr<ReduceOp>& reduce_op, int64_t root_rank,
                                 int64_t root_tensor, int64_t timeout) {
  auto tensor_vec = tensors.vec();
  return process_group->reduce(tensor_vec, ReduceOptions{*reduce_op, root_rank, root_tensor,
                                                         std::chrono::milliseconds(timeout)});
}

c10::intrusive_ptr<Work> gather_(const std::vector<std::vector<at::Tensor>>& output_tensors,
                                 const std::vector<at::Tensor>& input_tensors,
                                 const c10::intrusive_ptr<ProcessGroup>& process_group,
                                 int64_t root_rank, int64_t timeout) {
  return process_group->gather(const_cast<std::vector<std::vector<at::Tensor>>&>(output_tensors),
                               const_cast<std::vector<at::Tensor>&>(input_tensors),
                               GatherOptions{root_rank, std::chrono::milliseconds(timeout)});
}

TensorsAndWork scatter_(const std::vector<at::Tensor>& output_tensors,
                        const std::vector<std::vector<at::Tensor>>& input_tensors,
                        const c10::intrusive_ptr<ProcessGroup>& process_group, int64_t root_rank,
                        int64_t timeout) {
  auto work =
      process_group->scatter(const_cast<std::vector<at::Tensor>&>(output_tensors),
                             const_cast<std::vector<std::vector<at::Tensor>>&>(input_tensors),
                             ScatterOptions{root_rank, std::chrono::milliseconds(timeout)});
  return TensorsAndWork(output_tensors, work);
}

c10::intrusive_ptr<Work> alltoall_(at::TensorList output_tensors, at::TensorList input_tensors,
                                   const c10::intrusive_ptr<ProcessGroup>& process_group,
                                   int64_t timeout) {
  auto output_vec = output_tensors.vec();
  auto input_vec = input_tensors.vec();
  return process_group->alltoall(output_vec, input_vec,
                                 AllToAllOptions{std::chrono::milliseconds(timeout)});
}

c10::intrusive_ptr<Work> barrier_(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                  const std::vector<int64_t>& device_ids, int64_t timeout) {
  return process_group->barrier(BarrierOptions{device_ids, std::chrono::milliseconds(timeout)});
}

TORCH_LIBRARY(c10d, m) {
  // Declarations more than bindings, as in libtorch: TorchScript sees the classes' names and
  // Work's wait().
  m.class_<ProcessGroup>("ProcessGroup").def(torch::init<int64_t, int64_t>());
  m.class_<Work>("Work").def(torch::init<>()).def("wait", [](const c10::intrusive_ptr<Work>& self) {
    self->wait();
  });
  m.class_<ReduceOp>("ReduceOp").def(torch::init<>());
  const auto composite = c10::DispatchKey::CompositeExplicitAutograd;
  m.def("broadcast_", torch::dispatch(composite, broadcast_));
  m.def("allreduce_", torch::dispatch(composite, allreduce_));
  m.def("allgather_", torch::dispatch(composite, allgather_));
  m.def("reduce_scatter_", torch::dispatch(composite, reduce_scatter_));
  m.def("reduce_", torch::dispatch(composite, reduce_));
  m.def("gather_", torch::dispatch(composite, gather_));
  m.def("scatter_", torch::dispatch(composite, scatter_));
  m.def("alltoall_", torch::dispatch(composite, alltoall_));
  m.def("barrier", torch::dispatch(composite, barrier_));
  m.def("send", torch::dispatch(composite, send_));
  m.def("recv_", torch::dispatch(composite, recv_));
}

TORCH_LIBRARY_IMPL(c10d, CPU, m) {
  m.impl("send", send_);
  m.impl("recv_", recv_);
  m.impl("broadcast_", broadcast_);
  m.impl("allreduce_", allreduce_);
}

TORCH_LIBRARY_IMPL(c10d, CUDA, m) {
  m.impl("send", send_);
  m.impl("recv_", recv_);
  m.impl("broadcast_", broadcast_);
  m.impl("allreduce_", allreduce_);
}

c10::OperatorHandle op_named(const char* name) {
  return c10::Dispatcher::singleton().findSchemaOrThrow(name, "");
}

}  // namespace

namespace ops {

c10::intrusive_ptr<Work> broadcast(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                   at::TensorList tensors, const BroadcastOptions& opts) {
  static auto op =
      op_named("c10d::broadcast_")
          .typed<TensorsAndWork(at::TensorList, const c10::intrusive_ptr<ProcessGroup>&, int64_t,
                                int64_t, int64_t)>();
  return std::get<1>(
      op.call(tensors, process_group, opts.rootRank, opts.rootTensor, opts.timeout.count()));
}

c10::intrusive_ptr<Work> allreduce(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                   at::TensorList tensors, const AllreduceOptions& opts) {
  static auto op =
      op_named("c10d::allreduce_")
          .typed<TensorsAndWork(at::TensorList, const c10::intrusive_ptr<ProcessGroup>&,
                                const c10::intrusive_ptr<ReduceOp>&, int64_t)>();
  return std::get<1>(op.call(tensors, process_group, c10::make_intrusive<ReduceOp>(opts.reduceOp),
                             opts.timeout.count()));
}

c10::intrusive_ptr<Work> allgather(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                   const std::vector<std::vector<at::Tensor>>& output_tensors,
                                   const std::vector<at::Tensor>& input_tensors,
                                   const AllgatherOptions& opts) {
  static auto op =
      op_named("c10d::allgather_")
          .typed<TensorListsAndWork(const std::vector<std::vector<at::Tensor>>&,
                                    const std::vector<at::Tensor>&,
                                    const c10::intrusive_ptr<ProcessGroup>&, int64_t)>();
  return std::get<1>(op.call(output_tensors, input_tensors, process_group, opts.timeout.count()));
}

c10::intrusive_ptr<Work> reduce_scatter(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                        const std::vector<at::Tensor>& output_tensors,
                                        const std::vector<std::vector<at::Tensor>>& input_tensors,
                                        const ReduceScatterOptions& opts) {
  static auto op = op_named("c10d::reduce_scatter_")
                       .typed<TensorsAndWork(const std::vector<at::Tensor>&,
                                             const std::vector<std::vector<at::Tensor>>&,
                                             const c10::intrusive_ptr<ProcessGroup>&,
                                             const c10::intrusive_ptr<ReduceOp>&, int64_t)>();
  return std::get<1>(op.call(output_tensors, input_tensors, process_group,
                             c10::make_intrusive<ReduceOp>(opts.reduceOp), opts.timeout.count()));
}

c10::intrusive_ptr<Work> reduce(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                at::TensorList tensors, const ReduceOptions& opts) {
  static auto op = op_named("c10d::reduce_")
                       .typed<c10::intrusive_ptr<Work>(
                           at::TensorList, const c10::intrusive_ptr<ProcessGroup>&,
                           const c10::intrusive_ptr<ReduceOp>&, int64_t, int64_t, int64_t)>();
  return op.call(tensors, process_group, c10::make_intrusive<ReduceOp>(opts.reduceOp),
                 opts.rootRank, opts.rootTensor, opts.timeout.count());
}

c10::intrusive_ptr<Work> gather(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                const std::vector<std::vector<at::Tensor>>& output_tensors,
                                const std::vector<at::Tensor>& input_tensors,
                                const GatherOptions& opts) {
  static auto op =
      op_named("c10d::gather_")
          .typed<c10::intrusive_ptr<Work>(
              const std::vector<std::vector<at::Tensor>>&, const std::vector<at::Tensor>&,
              const c10::intrusive_ptr<ProcessGroup>&, int64_t, int64_t)>();
  return op.call(output_tensors, input_tensors, process_group, opts.rootRank, opts.timeout.count());
}

c10::intrusive_ptr<Work> scatter(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                 const std::vector<at::Tensor>& output_tensors,
                                 const std::vector<std::vector<at::Tensor>>& input_tensors,
                                 const ScatterOptions& opts) {
  static auto op =
      op_named("c10d::scatter_")
          .typed<TensorsAndWork(const std::vector<at::Tensor>&,
                                const std::vector<std::vector<at::Tensor>>&,
                                const c10::intrusive_ptr<ProcessGroup>&, int64_t, int64_t)>();
  return std::get<1>(
      op.call(output_tensors, input_tensors, process_group, opts.rootRank, opts.timeout.count()));
}

c10::intrusive_ptr<Work> alltoall(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                  at::TensorList output_tensors, at::TensorList input_tensors,
                                  const AllToAllOptions& opts) {
  static auto op =
      op_named("c10d::alltoall_")
          .typed<c10::intrusive_ptr<Work>(at::TensorList, at::TensorList,
                                          const c10::intrusive_ptr<ProcessGroup>&, int64_t)>();
  return op.call(output_tensors, input_tensors, process_group, opts.timeout.count());
}

c10::intrusive_ptr<Work> barrier(const c10::intrusive_ptr<ProcessGroup>& process_group,
                                 const BarrierOptions& opts) {
  static auto op = op_named("c10d::barrier")
                       .typed<c10::intrusive_ptr<Work>(const c10::intrusive_ptr<ProcessGroup>&,
                                                       const std::vector<int64_t>&, int64_t)>();
  return op.call(process_group, opts.device_ids, opts.timeout.count());
}

c10::intrusive_ptr<Work> send(const c10::intrusive_ptr<ProcessGroup>& process_group,
                              at::TensorList tensors, int64_t dstRank, int64_t tag) {
  static auto op =
      op_named("c10d::send")
          .typed<c10::intrusive_ptr<Work>(at::TensorList, const c10::intrusive_ptr<ProcessGroup>&,
                                          int64_t, int64_t)>();
  return op.call(tensors, process_group, dstRank, tag);
}

c10::intrusive_ptr<Work> recv(const c10::intrusive_ptr<ProcessGroup>& process_group,
                              at::TensorList tensors, int64_t srcRank, int64_t tag) {
  static auto op =
      op_named("c10d::recv_")
          .typed<c10::intrusive_ptr<Work>(at::TensorList, const c10::intrusive_ptr<ProcessGroup>&,
                                          int64_t, int64_t)>();
  return op.call(tensors, process_group, srcRank, tag);
}

}  // namespace ops
}  // namespace c10d
