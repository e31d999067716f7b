#pragma once
// c10d::Work: the handle a collective returns (libtorch 1.13's Work.hpp). The collective runs
// in the background; wait() blocks until it has finished and rethrows its error, getFuture()
// gives the same as an ivalue::Future holding the output tensors.
//
//   auto work = pg->allreduce(tensors);
//   work->isCompleted();        // false while in flight
//   work->wait();               // throws the collective's c10::Error if it failed
//   work->wait(std::chrono::seconds(5));   // or "Operation timed out!" after 5 s

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/Optional.h"
#include "dispatcher/CustomClassHolder.h"
#include "dispatcher/Future.h"

// wait()'s default: no timeout, wait for as long as it takes.
constexpr auto kNoTimeout = std::chrono::milliseconds(0);

namespace c10d {

constexpr const char* const kSeqNumStoreKey = "SEQ_NUM_STORE_KEY";

enum class OpType : std::uint8_t {
  BROADCAST = 0,
  ALLREDUCE = 1,
  ALLREDUCE_COALESCED = 2,
  REDUCE = 3,
  ALLGATHER = 4,
  _ALLGATHER_BASE = 5,
  ALLGATHER_COALESCED = 6,
  GATHER = 7,
  SCATTER = 8,
  REDUCE_SCATTER = 9,
  ALLTOALL_BASE = 10,
  ALLTOALL = 11,
  SEND = 12,
  RECV = 13,
  RECVANYSOURCE = 14,
  BARRIER = 15,
  _REDUCE_SCATTER_BASE = 16,
  UNKNOWN = 100,
};

// "ALLREDUCE", ...
std::string opTypeToString(OpType opType);
// SEND, RECV and RECVANYSOURCE (and with batchP2P, the collectives NCCL batches as P2P).
bool isP2POp(OpType opType, bool batchP2P = false);

class Work : public torch::CustomClassHolder {
 public:
  Work(int rank = -1, OpType opType = OpType::UNKNOWN, const char* profilingTitle = nullptr,
       const c10::optional<std::vector<at::Tensor>>& inputTensors = c10::nullopt);
  ~Work() override;

  // Non-blocking: whether the work has finished (successfully or not).
  virtual bool isCompleted();
  // Whether it has no error (so far: true while still running, as in libtorch).
  virtual bool isSuccess() const;
  // The error it finished with, or null.
  virtual std::exception_ptr exception() const;
  // The rank a recv (or recvAnysource) got its data from.
  virtual int sourceRank() const;
  // The output tensors of a finished collective.
  virtual std::vector<at::Tensor> result();
  // Device synchronisation after completion (CUDA streams); nothing on the CPU.
  virtual void synchronize();
  // Blocks until finished, or until `timeout` (then throws "Operation timed out!"); rethrows the
  // work's error. kNoTimeout waits without limit.
  virtual bool wait(std::chrono::milliseconds timeout = kNoTimeout);
  virtual void abort();
  // A Future completed with the outputs (or the error) when the work finishes.
  virtual c10::intrusive_ptr<c10::ivalue::Future> getFuture();

  OpType retrieveOpType();

  // A Work that finishes when `future` does.
  static c10::intrusive_ptr<Work> create_from_future(c10::intrusive_ptr<c10::ivalue::Future>);

 protected:
  // Marks the work finished (with `exception`, if any) and wakes the waiters.
  void finish(std::exception_ptr exception = nullptr);
  // finish(exception), then rethrows it.
  void finishAndThrow(std::exception_ptr exception);

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool completed_ = false;
  std::exception_ptr exception_;
  const int rank_;
  OpType opType_;
  std::function<void()> recordFunctionEndCallback_;
};

}  // namespace c10d
