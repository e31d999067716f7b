#pragma once
// c10d::ProcessGroupGloo: collectives on CPU tensors over TCP, carried out by Gloo (libgloo), as
// libtorch 1.13's ProcessGroupGloo.hpp. CUDA tensors are staged through host memory (Debian's
// Gloo is built without CUDA), as libtorch's Gloo group does.
//
//   auto opts = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(30));
//   opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
//   auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size, opts);
//   std::vector<at::Tensor> t{at::ones({4})};
//   pg->allreduce(t)->wait();          // t[0] == size everywhere
//
// See Note [How ProcessGroupGloo runs a collective] in ProcessGroupGloo.cpp.

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gloo/algorithm.h>
#include <gloo/common/error.h>
#include <gloo/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/transport/device.h>
#include <gloo/transport/unbound_buffer.h>

#include "distributed/c10d/ProcessGroup.h"
#include "distributed/c10d/Store.h"
#include "distributed/c10d/Types.h"

namespace c10d {

constexpr const char* GLOO_BACKEND_NAME = "gloo";

class ProcessGroupGloo : public ProcessGroup {
 public:
  // A collective queued for the group's worker threads; run() does the communication.
  class AsyncWork : public Work {
   public:
    explicit AsyncWork(std::vector<std::vector<at::Tensor>> outputTensors,
                       const char* profilingTitle = nullptr,
                       const c10::optional<std::vector<at::Tensor>>& inputTensors = c10::nullopt);
    ~AsyncWork() override = default;

    // Runs `work` and finishes it, with its error if run() threw.
    static void execute(c10::intrusive_ptr<AsyncWork> work);
    virtual void run() = 0;

    // The output tensors of a one-list collective (call after wait()).
    std::vector<at::Tensor> result() override;
    c10::intrusive_ptr<c10::ivalue::Future> getFuture() override;

   protected:
    friend class ProcessGroupGloo;

   private:
    void finishWorkGloo();
    void finishWorkGlooError(std::exception_ptr eptr);

    const std::vector<std::vector<at::Tensor>> outputTensors_;
    c10::intrusive_ptr<c10::ivalue::Future> future_;
  };

  // Gloo's rendezvous store over a c10d::Store.
  class GlooStore : public ::gloo::rendezvous::Store {
   public:
    GlooStore(const c10::intrusive_ptr<::c10d::Store>& store) : store_(store) {}  // NOLINT
    void setUint(const std::string& key, const std::vector<uint8_t>& value) {
      store_->set(key, value);
    }
    void set(const std::string& key, const std::vector<char>& value) override {
      store_->set(key, std::vector<uint8_t>(value.begin(), value.end()));
    }
    std::vector<uint8_t> getUint(const std::string& key) { return store_->get(key); }
    std::vector<char> get(const std::string& key) override {
      auto value = store_->get(key);
      return std::vector<char>(value.begin(), value.end());
    }
    void wait(const std::vector<std::string>& keys) override {
      store_->wait(keys, ::c10d::Store::kDefaultTimeout);
    }
    void wait(const std::vector<std::string>& keys,
              const std::chrono::milliseconds& timeout) override {
      store_->wait(keys, timeout);
    }
    ::c10d::Store& c10dStore() const { return *store_; }

   protected:
    c10::intrusive_ptr<::c10d::Store> store_;
  };

  // send() and recv() complete on their own buffers rather than on the worker threads.
  class SendWork : public Work {
   public:
    explicit SendWork(at::Tensor& tensor, std::unique_ptr<::gloo::transport::UnboundBuffer> buffer);
    bool wait(std::chrono::milliseconds timeout = kNoTimeout) override;
    void abort() override;

   protected:
    at::Tensor tensor_;
    std::unique_ptr<::gloo::transport::UnboundBuffer> buffer_;
  };

  class RecvWork : public Work {
   public:
    explicit RecvWork(at::Tensor& tensor, std::unique_ptr<::gloo::transport::UnboundBuffer> buffer,
                      const char* profilingTitle = nullptr);
    int sourceRank() const override;
    bool wait(std::chrono::milliseconds timeout = kNoTimeout) override;
    void abort() override;

   protected:
    at::Tensor tensor_;
    std::unique_ptr<::gloo::transport::UnboundBuffer> buffer_;
    int srcRank_;
  };

  struct Options : public ProcessGroup::Options {
    explicit Options(std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout);
    static c10::intrusive_ptr<Options> create(
        std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout) {
      return c10::make_intrusive<Options>(timeout);
    }

    // One connected context per device; collectives take them in turn.
    std::vector<std::shared_ptr<::gloo::transport::Device>> devices;
    // Worker threads running the queued collectives (2, as libtorch).
    int threads;
  };

  const std::string getBackendName() const override { return std::string(GLOO_BACKEND_NAME); }

  // TCP devices: bound to a network interface, to the address a hostname resolves to, or to
  // this host's name (the loopback address when that does not resolve to a usable address).
  static std::shared_ptr<::gloo::transport::Device> createDeviceForInterface(
      const std::string& interface);
  static std::shared_ptr<::gloo::transport::Device> createDeviceForHostname(
      const std::string& hostname);
  static std::shared_ptr<::gloo::transport::Device> createDefaultDevice();

  // Connects to every other rank through `store` (a full mesh per device); blocks until all
  // `size` ranks have arrived or options->timeout has passed.
  explicit ProcessGroupGloo(const c10::intrusive_ptr<Store>& store, int rank, int size,
                            c10::intrusive_ptr<Options> options = Options::create());
  // Waits for the queued collectives to start, then for the workers to finish them.
  ~ProcessGroupGloo() override;

  c10::intrusive_ptr<Options> getOptions() { return options_; }

  c10::intrusive_ptr<Work> broadcast(std::vector<at::Tensor>& tensors,
                                     const BroadcastOptions& opts = BroadcastOptions()) override;
  c10::intrusive_ptr<Work> allreduce(std::vector<at::Tensor>& tensors,
                                     const AllreduceOptions& opts = AllreduceOptions()) override;
  c10::intrusive_ptr<Work> allreduce_coalesced(
      std::vector<at::Tensor>& tensors,
      const AllreduceCoalescedOptions& opts = AllreduceCoalescedOptions()) override;
  c10::intrusive_ptr<Work> reduce(std::vector<at::Tensor>& tensors,
                                  const ReduceOptions& opts = ReduceOptions()) override;
  c10::intrusive_ptr<Work> allgather(std::vector<std::vector<at::Tensor>>& outputs,
                                     std::vector<at::Tensor>& inputs,
                                     const AllgatherOptions& opts = AllgatherOptions()) override;
  c10::intrusive_ptr<Work> _allgather_base(
      at::Tensor& outputBuffer, at::Tensor& inputBuffer,
      const AllgatherOptions& opts = AllgatherOptions()) override;
  c10::intrusive_ptr<Work> allgather_coalesced(
      std::vector<std::vector<at::Tensor>>& output_lists, std::vector<at::Tensor>& input_list,
      const AllgatherOptions& opts = AllgatherOptions()) override;
  c10::intrusive_ptr<Work> gather(std::vector<std::vector<at::Tensor>>& outputs,
                                  std::vector<at::Tensor>& inputs,
                                  const GatherOptions& opts = GatherOptions()) override;
  c10::intrusive_ptr<Work> scatter(std::vector<at::Tensor>& outputs,
                                   std::vector<std::vector<at::Tensor>>& inputs,
                                   const ScatterOptions& opts = ScatterOptions()) override;
  c10::intrusive_ptr<Work> reduce_scatter(
      std::vector<at::Tensor>& outputs, std::vector<std::vector<at::Tensor>>& inputs,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  c10::intrusive_ptr<Work> alltoall_base(at::Tensor& outputTensor, at::Tensor& inputTensor,
                                         std::vector<int64_t>& outputCounts,
                                         std::vector<int64_t>& inputCounts,
                                         const AllToAllOptions& opts = AllToAllOptions()) override;
  c10::intrusive_ptr<Work> send(std::vector<at::Tensor>& tensors, int dstRank, int tag) override;
  c10::intrusive_ptr<Work> recv(std::vector<at::Tensor>& tensors, int srcRank, int tag) override;
  c10::intrusive_ptr<Work> recvAnysource(std::vector<at::Tensor>& tensors, int tag) override;
  c10::intrusive_ptr<Work> barrier(const BarrierOptions& opts = BarrierOptions()) override;

  // A barrier that names the ranks that do not reach it: every rank reports to rank 0, which
  // waits for each within the timeout (opts.timeout, else the group's) and throws "[Rank 0]:
  // Rank 2 failed to pass monitoredBarrier in 1000 ms" (with waitAllRanks, all such ranks at
  // once: "Ranks 1, 2 failed ..."); the others wait for rank 0's release. Blocking.
  void monitoredBarrier(const BarrierOptions& opts = BarrierOptions(),
                        bool waitAllRanks = false) override;

  // Rank 0 picks the starting number and sets it in the store; every collective (not send,
  // recv or monitoredBarrier) then adds one as it is queued.
  void setSequenceNumberForGroup() override;
  uint64_t getSequenceNumberForGroup() override;

  const std::unique_ptr<::gloo::rendezvous::Store>& _getStore() const { return store_; }

  int getNumThreads() { return options_->threads; }

 protected:
  std::unique_ptr<::gloo::rendezvous::Store> store_;
  const c10::intrusive_ptr<Options> options_;

  // One context per device, each a full mesh of pairs to the other ranks.
  std::vector<std::shared_ptr<::gloo::Context>> contexts_;
  std::vector<std::thread> threads_;
  bool stop_;

  // Every rank issues its collectives in the same order, so the n-th collective has the same
  // tag everywhere; Gloo matches messages by tag, which lets collectives run concurrently.
  uint32_t collectiveCounter_;
  uint32_t nextTag();
  std::shared_ptr<::gloo::Context> getContext(uint32_t tag);

  void runLoop(int workerIndex);
  void enqueue(c10::intrusive_ptr<AsyncWork> work);

  // TORCH_DISTRIBUTED_DEBUG=DETAIL: each collective first checks that every rank runs the same
  // one (Note [Checking that the ranks run the same collective] in GlooCollectives.cpp).
  bool checkCollectives_ = false;
  // A collective's work: `body` run by a worker thread, after that check when it is on.
  c10::intrusive_ptr<AsyncWork> makeWork(std::vector<std::vector<at::Tensor>> outputs,
                                         const char* title, OpType op,
                                         const std::vector<at::Tensor>& fingerprinted,
                                         bool withShapes, uint32_t tag,
                                         const std::shared_ptr<::gloo::Context>& context,
                                         std::function<void()> body);

  std::deque<c10::intrusive_ptr<AsyncWork>> workQueue_;
  std::vector<c10::intrusive_ptr<AsyncWork>> workInProgress_;
  std::mutex workMutex_;
  std::condition_variable workProduceCV_;
  std::condition_variable workConsumeCV_;
};

}  // namespace c10d
