#pragma once
// c10d::ProcessGroup: a group of `size` processes, this one `rank` in it, and the collectives
// among them (libtorch 1.13's ProcessGroup.hpp). Each collective returns a Work at once and runs
// in the background; the backends (ProcessGroupGloo, ProcessGroupNCCL) implement them, and what
// a backend does not implement throws "ProcessGroup <backend> does not support <collective>".
//
//   auto store = c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);
//   auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size);
//   std::vector<at::Tensor> grads{grad};
//   pg->allreduce(grads)->wait();       // grad now holds the sum over all ranks
//
// The same collectives are operators in the dispatcher (distributed/c10d/Ops.h).

#include <chrono>
#include <string>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"
#include "distributed/c10d/Types.h"
#include "distributed/c10d/Work.h"
#include "distributed/c10d/sequence_num.h"

constexpr auto kProcessGroupDefaultTimeout = std::chrono::milliseconds(30 * 60 * 1000);

namespace c10d {

class Store;

class ProcessGroup : public torch::CustomClassHolder {
 public:
  struct Options : torch::CustomClassHolder {
    explicit Options(std::string backend,
                     std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout)
        : timeout(timeout), backend(std::move(backend)) {}
    ~Options() override = default;

    std::chrono::milliseconds timeout;
    const std::string backend;
  };

  explicit ProcessGroup(int rank, int size);
  ~ProcessGroup() override;

  int getRank() const { return rank_; }
  int getSize() const { return size_; }
  virtual const std::string getBackendName() const;

  virtual void startCoalescing() {}
  virtual void endCoalescing(std::vector<c10::intrusive_ptr<Work>>& /*reqs*/) {}

  virtual c10::intrusive_ptr<Work> broadcast(std::vector<at::Tensor>& tensors,
                                             const BroadcastOptions& opts = BroadcastOptions());
  virtual c10::intrusive_ptr<Work> allreduce(std::vector<at::Tensor>& tensors,
                                             const AllreduceOptions& opts = AllreduceOptions());
  virtual c10::intrusive_ptr<Work> allreduce_coalesced(
      std::vector<at::Tensor>& tensors,
      const AllreduceCoalescedOptions& opts = AllreduceCoalescedOptions());
  virtual c10::intrusive_ptr<Work> reduce(std::vector<at::Tensor>& tensors,
                                          const ReduceOptions& opts = ReduceOptions());
  virtual c10::intrusive_ptr<Work> allgather(std::vector<std::vector<at::Tensor>>& outputTensors,
                                             std::vector<at::Tensor>& inputTensors,
                                             const AllgatherOptions& opts = AllgatherOptions());
  virtual c10::intrusive_ptr<Work> _allgather_base(
      at::Tensor& outputBuffer, at::Tensor& inputBuffer,
      const AllgatherOptions& opts = AllgatherOptions());
  virtual c10::intrusive_ptr<Work> allgather_coalesced(
      std::vector<std::vector<at::Tensor>>& outputTensorLists,
      std::vector<at::Tensor>& inputTensors, const AllgatherOptions& opts = AllgatherOptions());
  virtual c10::intrusive_ptr<Work> gather(std::vector<std::vector<at::Tensor>>& outputTensors,
                                          std::vector<at::Tensor>& inputTensors,
                                          const GatherOptions& opts = GatherOptions());
  virtual c10::intrusive_ptr<Work> scatter(std::vector<at::Tensor>& outputTensors,
                                           std::vector<std::vector<at::Tensor>>& inputTensors,
                                           const ScatterOptions& opts = ScatterOptions());
  virtual c10::intrusive_ptr<Work> reduce_scatter(
      std::vector<at::Tensor>& outputTensors, std::vector<std::vector<at::Tensor>>& inputTensors,
      const ReduceScatterOptions& opts = ReduceScatterOptions());
  virtual c10::intrusive_ptr<Work> _reduce_scatter_base(
      at::Tensor& outputBuffer, at::Tensor& inputBuffer,
      const ReduceScatterOptions& opts = ReduceScatterOptions());
  virtual c10::intrusive_ptr<Work> alltoall_base(at::Tensor& outputBuffer, at::Tensor& inputBuffer,
                                                 std::vector<int64_t>& outputSplitSizes,
                                                 std::vector<int64_t>& inputSplitSizes,
                                                 const AllToAllOptions& opts = AllToAllOptions());
  virtual c10::intrusive_ptr<Work> alltoall(std::vector<at::Tensor>& outputTensors,
                                            std::vector<at::Tensor>& inputTensors,
                                            const AllToAllOptions& opts = AllToAllOptions());
  virtual void monitoredBarrier(const BarrierOptions& opts, bool waitAllRanks = false);
  // Agrees on a starting sequence number for the whole group (rank 0 picks it and hands it to
  // the others through the store); every collective adds one. Gloo and NCCL implement them.
  virtual void setSequenceNumberForGroup();
  // The current number, 0 before setSequenceNumberForGroup(). Ranks whose numbers differ have
  // issued different collectives.
  virtual uint64_t getSequenceNumberForGroup();
  virtual c10::intrusive_ptr<Work> send(std::vector<at::Tensor>& tensors, int dstRank, int tag);
  virtual c10::intrusive_ptr<Work> recv(std::vector<at::Tensor>& tensors, int srcRank, int tag);
  virtual c10::intrusive_ptr<Work> recvAnysource(std::vector<at::Tensor>& tensors, int tag);
  virtual c10::intrusive_ptr<Work> barrier(const BarrierOptions& opts = BarrierOptions());

 protected:
  // "ProcessGroup <backend> does not support <what>", as each default above throws.
  [[noreturn]] void unsupported(const char* what) const;

  // setSequenceNumberForGroup() for a backend that meets through `store`: rank 0 sets a random
  // starting number under "SEQ_NUM_STORE_KEY", the others wait up to `timeout` for it.
  void agreeOnSequenceNumber(Store& store, std::chrono::milliseconds timeout);
  // getSequenceNumberForGroup() for such a backend.
  uint64_t currentSequenceNumber() const;
  // A collective was issued: one more, when a number is set.
  void countCollective();

  const int rank_;
  const int size_;
  // Optional sequence number structure for matching collectives.
  c10::optional<c10d::SequenceNum> sequenceNum_ = c10::nullopt;
};

}  // namespace c10d
