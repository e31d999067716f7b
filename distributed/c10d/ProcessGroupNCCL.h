#pragma once
// c10d::ProcessGroupNCCL: collectives on CUDA tensors carried out by NCCL, as libtorch 1.13's
// ProcessGroupNCCL.hpp. One tensor per GPU in each call (usually one GPU per process).
//
//   auto pg = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size);
//   std::vector<at::Tensor> t{at::ones({4}, at::kCUDA)};
//   pg->allreduce(t)->wait();   // the current stream now waits for the sum; the host does not
//
// See Note [How ProcessGroupNCCL runs a collective] in NCCLCollectives.cpp. A CUDA build with
// NCCL only (USE_C10D_NCCL), as libtorch's.

#ifdef USE_C10D_NCCL

#include <cuda_runtime_api.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "c10/cuda/CUDAStream.h"
#include "distributed/c10d/NCCLUtils.h"
#include "distributed/c10d/ProcessGroup.h"
#include "distributed/c10d/Store.h"

namespace c10d {

constexpr const char* NCCL_BLOCKING_WAIT = "NCCL_BLOCKING_WAIT";
constexpr const char* NCCL_BACKEND_NAME = "nccl";

class ProcessGroupNCCL : public ProcessGroup {
 public:
  // A collective enqueued on the group's NCCL streams. wait() makes the caller's current streams
  // wait for it (the host goes on); with NCCL_BLOCKING_WAIT=1 it blocks the host until the
  // collective has finished, failed, or run past the group's timeout.
  class WorkNCCL : public Work {
   public:
    WorkNCCL(const std::vector<c10::Device>& devices, int rank, OpType opType, uint64_t seq,
             const char* profilingTitle = nullptr,
             const c10::optional<std::vector<at::Tensor>>& inputs = c10::nullopt);
    ~WorkNCCL() override;

    // Whether the GPUs have finished it (or an error was found), without blocking.
    bool isCompleted() override;
    bool isSuccess() const override;
    bool wait(std::chrono::milliseconds timeout = kNoTimeout) override;
    void synchronize() override;
    // libtorch 1.13's refusal ("ProcessGroupNCCL::WorkNCCL::abort not implemented.").
    void abort() override;
    std::vector<at::Tensor> result() override;
    // Completed at once with the outputs, valid in the order of the current streams (which
    // getFuture makes wait for the work, as libtorch's CUDA-aware future does for its users).
    c10::intrusive_ptr<c10::ivalue::Future> getFuture() override;

    // The current streams of the work's devices wait for its end events.
    void synchronizeStreams();
    bool finishedGPUExecution();

   private:
    friend class ProcessGroupNCCL;
    void checkAndSetException();
    // A blocking wait that timed out or failed aborts the work's communicators.
    void abortComms();
    bool finishedGPUExecutionInternal() const;
    std::string describe() const;

    std::vector<c10::Device> devices_;
    std::vector<cudaEvent_t> ncclEndEvents_;  // one per device, recorded after the collective
    std::vector<std::shared_ptr<NCCLComm>> ncclComms_;
    std::vector<at::Tensor> barrierTensors_;  // a barrier's work also synchronizes the devices
    std::shared_ptr<std::vector<at::Tensor>> outputs_;
    bool blockingWait_ = false;
    std::chrono::milliseconds opTimeout_;
    std::chrono::time_point<std::chrono::steady_clock> workStartTime_;
    uint64_t seq_;
    c10::intrusive_ptr<c10::ivalue::Future> future_;
  };

  struct Options : ProcessGroup::Options {
    explicit Options(bool is_high_priority_stream = false);
    static c10::intrusive_ptr<Options> create(bool is_high_priority_stream = false) {
      return c10::make_intrusive<Options>(is_high_priority_stream);
    }
    // The NCCL streams come from the high-priority pool.
    bool is_high_priority_stream;
  };

  // Needs a GPU ("ProcessGroupNCCL is only supported with GPUs, no GPUs found!"); the
  // communicators are made at the first collective on each set of devices.
  ProcessGroupNCCL(const c10::intrusive_ptr<Store>& store, int rank, int size,
                   c10::intrusive_ptr<Options> options = Options::create());
  // Aborts the communicators.
  ~ProcessGroupNCCL() override;

  c10::intrusive_ptr<Options> getOptions() { return options_; }
  const std::string getBackendName() const override { return std::string(NCCL_BACKEND_NAME); }

  c10::intrusive_ptr<Work> broadcast(std::vector<at::Tensor>& tensors,
                                     const BroadcastOptions& opts = BroadcastOptions()) override;
  c10::intrusive_ptr<Work> allreduce(std::vector<at::Tensor>& tensors,
                                     const AllreduceOptions& opts = AllreduceOptions()) override;
  c10::intrusive_ptr<Work> allreduce_coalesced(
      std::vector<at::Tensor>& tensors,
      const AllreduceCoalescedOptions& opts = AllreduceCoalescedOptions()) override;
  c10::intrusive_ptr<Work> reduce(std::vector<at::Tensor>& tensors,
                                  const ReduceOptions& opts = ReduceOptions()) override;
  c10::intrusive_ptr<Work> allgather(std::vector<std::vector<at::Tensor>>& outputTensors,
                                     std::vector<at::Tensor>& inputTensors,
                                     const AllgatherOptions& opts = AllgatherOptions()) override;
  c10::intrusive_ptr<Work> _allgather_base(
      at::Tensor& outputBuffer, at::Tensor& inputBuffer,
      const AllgatherOptions& opts = AllgatherOptions()) override;
  c10::intrusive_ptr<Work> reduce_scatter(
      std::vector<at::Tensor>& outputTensors, std::vector<std::vector<at::Tensor>>& inputTensors,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  c10::intrusive_ptr<Work> _reduce_scatter_base(
      at::Tensor& outputBuffer, at::Tensor& inputBuffer,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  c10::intrusive_ptr<Work> alltoall_base(at::Tensor& outputTensor, at::Tensor& inputTensor,
                                         std::vector<int64_t>& outputSplitSizes,
                                         std::vector<int64_t>& inputSplitSizes,
                                         const AllToAllOptions& opts = AllToAllOptions()) override;
  c10::intrusive_ptr<Work> alltoall(std::vector<at::Tensor>& outputTensors,
                                    std::vector<at::Tensor>& inputTensors,
                                    const AllToAllOptions& opts = AllToAllOptions()) override;
  c10::intrusive_ptr<Work> gather(std::vector<std::vector<at::Tensor>>& outputTensors,
                                  std::vector<at::Tensor>& inputTensors,
                                  const GatherOptions& opts = GatherOptions()) override;
  c10::intrusive_ptr<Work> scatter(std::vector<at::Tensor>& outputTensors,
                                   std::vector<std::vector<at::Tensor>>& inputTensors,
                                   const ScatterOptions& opts = ScatterOptions()) override;
  c10::intrusive_ptr<Work> allgather_coalesced(
      std::vector<std::vector<at::Tensor>>& outputTensorLists,
      std::vector<at::Tensor>& inputTensors,
      const AllgatherOptions& opts = AllgatherOptions()) override;
  c10::intrusive_ptr<Work> recvAnysource(std::vector<at::Tensor>& tensors, int tag) override;
  // Not yet: each refuses ("ProcessGroupNCCL does not support coalescing").
  void startCoalescing() override;
  void endCoalescing(std::vector<c10::intrusive_ptr<Work>>& reqs) override;
  c10::intrusive_ptr<Work> send(std::vector<at::Tensor>& tensors, int dstRank, int tag) override;
  c10::intrusive_ptr<Work> recv(std::vector<at::Tensor>& tensors, int srcRank, int tag) override;
  c10::intrusive_ptr<Work> barrier(const BarrierOptions& opts = BarrierOptions()) override;

  // libtorch 1.13's NCCL group needs no agreement: its number is the count of collectives (not
  // send or recv) issued, from 0, so setSequenceNumberForGroup() does nothing.
  void setSequenceNumberForGroup() override {}
  uint64_t getSequenceNumberForGroup() override { return seq_; }

  // NCCL's group calls. A collective of this group between them is refused: it would record its
  // end events before NCCL enqueues its kernels, at the group's end.
  static void groupStart();
  static void groupEnd();

 private:
  // "ProcessGroupNCCL: collectives between groupStart() and groupEnd() are not supported".
  static void checkNoActiveGroup();
  // The communicators (one per device) for `devicesKey`, made on first use; `p2pRank` >= 0 for
  // the two-rank communicator of a send or recv (rank 0 or 1 in it).
  std::vector<std::shared_ptr<NCCLComm>>& getNCCLComm(const std::string& devicesKey,
                                                      const std::vector<c10::Device>& devices,
                                                      int p2pRank = -1);
  // Rank 0 of the clique makes NCCL's id and sets it in the store; the others wait for it.
  void broadcastUniqueNCCLID(ncclUniqueId* id, bool isP2P, const std::string& p2pKey, int p2pRank);

  // What runs on device i's NCCL stream after the collective (copies out of a flat buffer).
  using PostFn = std::function<void(size_t i, const c10::cuda::CUDAStream& stream)>;

  // Note [How ProcessGroupNCCL runs a collective]: fn(input, output, comm, stream) per device,
  // inside one NCCL group, on the NCCL streams; then post, if any.
  template <typename Fn>
  c10::intrusive_ptr<Work> collective(std::vector<at::Tensor>& inputs,
                                      std::vector<at::Tensor>& outputs, Fn fn, OpType opType,
                                      const char* title, const PostFn& post = nullptr,
                                      const std::vector<at::Tensor>& alsoUsed = {});
  template <typename Fn>
  c10::intrusive_ptr<Work> pointToPoint(std::vector<at::Tensor>& tensors, Fn fn, int peer,
                                        OpType opType, const char* title);
  // Launches on `comms` after the NCCL streams wait for the current ones; the work's events
  // are recorded after.
  template <typename Fn>
  c10::intrusive_ptr<WorkNCCL> launch(const std::string& key,
                                      std::vector<std::shared_ptr<NCCLComm>>& comms,
                                      const std::vector<c10::Device>& devices,
                                      std::vector<at::Tensor>& inputs,
                                      std::vector<at::Tensor>& outputs, Fn fn, const PostFn& post,
                                      OpType opType, const char* title,
                                      const std::vector<at::Tensor>& alsoUsed);

  c10::intrusive_ptr<Store> store_;
  const c10::intrusive_ptr<Options> options_;
  bool blockingWait_ = false;
  uint64_t ncclCommCounter_ = 0;
  uint64_t seq_ = 0;

  std::mutex mutex_;
  std::unordered_map<std::string, std::vector<std::shared_ptr<NCCLComm>>> devNCCLCommMap_;
  std::unordered_map<std::string, std::vector<c10::cuda::CUDAStream>> ncclStreams_;
  // The devices collectives have run on, in order: a barrier uses them (else GPU rank % GPUs).
  std::set<int> usedDeviceIdxs_;
};

}  // namespace c10d

#endif  // USE_C10D_NCCL
