#include "distributed/c10d/Work.h"

#include "c10/util/Exception.h"

namespace c10d {

std::string opTypeToString(OpType opType) {
  switch (opType) {
    case OpType::BROADCAST:
      return "BROADCAST";
    case OpType::ALLREDUCE:
      return "ALLREDUCE";
    case OpType::ALLREDUCE_COALESCED:
      return "ALLREDUCE_COALESCED";
    case OpType::REDUCE:
      return "REDUCE";
    case OpType::ALLGATHER:
      return "ALLGATHER";
    case OpType::_ALLGATHER_BASE:
      return "_ALLGATHER_BASE";
    case OpType::ALLGATHER_COALESCED:
      return "ALLGATHER_COALESCED";
    case OpType::GATHER:
      return "GATHER";
    case OpType::SCATTER:
      return "SCATTER";
    case OpType::REDUCE_SCATTER:
      return "REDUCE_SCATTER";
    case OpType::ALLTOALL_BASE:
      return "ALLTOALL_BASE";
    case OpType::ALLTOALL:
      return "ALLTOALL";
    case OpType::SEND:
      return "SEND";
    case OpType::RECV:
      return "RECV";
    case OpType::RECVANYSOURCE:
      return "RECVANYSOURCE";
    case OpType::BARRIER:
      return "BARRIER";
    case OpType::_REDUCE_SCATTER_BASE:
      return "_REDUCE_SCATTER_BASE";
    case OpType::UNKNOWN:
      return "UNKNOWN";
  }
  TORCH_INTERNAL_ASSERT(false, "Unknown op type!");
}

bool isP2POp(OpType opType, bool batchP2P) {
  if (batchP2P) return false;
  return opType == OpType::SEND || opType == OpType::RECV || opType == OpType::RECVANYSOURCE;
}

Work::Work(int rank, OpType opType, const char* /*profilingTitle*/,
           const c10::optional<std::vector<at::Tensor>>& /*inputTensors*/)
    : rank_(rank), opType_(opType) {}

Work::~Work() = default;

bool Work::isCompleted() {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_;
}

bool Work::isSuccess() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !exception_;
}

std::exception_ptr Work::exception() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return exception_;
}

int Work::sourceRank() const {
  TORCH_CHECK(false,
              "sourceRank() may only be called on work objects that correspond to a recv or "
              "recv-from-any call.");
}

std::vector<at::Tensor> Work::result() {
  TORCH_CHECK(false, "result() not implemented.");
}

void Work::synchronize() {}

bool Work::wait(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (timeout == kNoTimeout) {
    cv_.wait(lock, [&] { return completed_; });
  } else {
    cv_.wait_for(lock, timeout, [&] { return completed_; });
    TORCH_CHECK(completed_, "Operation timed out!");
  }
  if (exception_) std::rethrow_exception(exception_);
  lock.unlock();
  synchronize();
  return true;
}

void Work::abort() {
  TORCH_CHECK(false, "Work::abort not implemented.");
}

c10::intrusive_ptr<c10::ivalue::Future> Work::getFuture() {
  TORCH_CHECK(false, "Work::getFuture not implemented.");
}

OpType Work::retrieveOpType() {
  return opType_;
}

void Work::finish(std::exception_ptr exception) {
  std::unique_lock<std::mutex> lock(mutex_);
  completed_ = true;
  exception_ = exception;
  if (recordFunctionEndCallback_) {
    recordFunctionEndCallback_();
    recordFunctionEndCallback_ = nullptr;
  }
  lock.unlock();
  cv_.notify_all();
}

void Work::finishAndThrow(std::exception_ptr exception) {
  finish(exception);
  if (exception) std::rethrow_exception(exception);
}

namespace {

// A Work over a Future someone else completes.
class FutureWrappingWork : public Work {
 public:
  explicit FutureWrappingWork(c10::intrusive_ptr<c10::ivalue::Future> fut) : fut_(std::move(fut)) {}

  bool isCompleted() override { return fut_->completed(); }
  bool isSuccess() const override { return fut_->hasValue(); }
  std::exception_ptr exception() const override { return fut_->exception_ptr(); }
  int sourceRank() const override {
    TORCH_CHECK(false, "FutureWrappingWork::sourceRank() not implemented");
  }
  std::vector<at::Tensor> result() override {
    const c10::IValue value = fut_->value();
    if (value.isTensor()) return {value.toTensor()};
    return value.to<std::vector<at::Tensor>>();
  }
  bool wait(std::chrono::milliseconds timeout) override {
    TORCH_CHECK(timeout == kNoTimeout,
                "FutureWrappingWork::wait() with finite timeout not implemented");
    fut_->wait();
    return true;
  }
  void abort() override { TORCH_CHECK(false, "FutureWrappingWork::abort() not implemented"); }
  c10::intrusive_ptr<c10::ivalue::Future> getFuture() override { return fut_; }

 private:
  c10::intrusive_ptr<c10::ivalue::Future> fut_;
};

}  // namespace

c10::intrusive_ptr<Work> Work::create_from_future(c10::intrusive_ptr<c10::ivalue::Future> future) {
  return c10::make_intrusive<FutureWrappingWork>(std::move(future));
}

}  // namespace c10d
