// ProcessGroupNCCL (ProcessGroupNCCL.h): libtorch 1.13's NCCL process group, its checks and texts.
//
// This file holds the Work, the communicators and the group calls; the collectives, and Note [How
// ProcessGroupNCCL runs a collective], are in NCCLCollectives.cpp.

#include "distributed/c10d/ProcessGroupNCCL.h"

#ifdef USE_C10D_NCCL

#include <cstdlib>
#include <cstring>
#include <thread>

#include "aten/ATen.h"
#include "c10/cuda/CUDACachingAllocator.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAFunctions.h"
#include "c10/cuda/CUDAGuard.h"
#include "distributed/c10d/Utils.h"

namespace c10d {

namespace {

constexpr auto kSynchronizeBusyWait = std::chrono::milliseconds(10);

// "1" on, "0" or unset off (libtorch's parseEnvVarFlag).
bool parseEnvVarFlag(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || std::strcmp(value, "0") == 0) return false;
  TORCH_CHECK(std::strcmp(value, "1") == 0, "Invalid value for environment variable: ", name);
  return true;
}

cudaEvent_t newEvent() {
  cudaEvent_t event = nullptr;
  C10_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  return event;
}

}  // namespace

// ---- WorkNCCL ----------------------------------------------------------------------------------

ProcessGroupNCCL::WorkNCCL::WorkNCCL(const std::vector<c10::Device>& devices, int rank,
                                     OpType opType, uint64_t seq, const char* profilingTitle,
                                     const c10::optional<std::vector<at::Tensor>>& inputs)
    : Work(rank, opType, profilingTitle, inputs),
      devices_(devices),
      opTimeout_(kProcessGroupDefaultTimeout),
      workStartTime_(std::chrono::steady_clock::now()),
      seq_(seq) {
  for (const c10::Device& d : devices_) {
    const c10::cuda::CUDAGuard guard(d);
    ncclEndEvents_.push_back(newEvent());
  }
}

ProcessGroupNCCL::WorkNCCL::~WorkNCCL() {
  for (cudaEvent_t e : ncclEndEvents_) (void)cudaEventDestroy(e);
}

std::string ProcessGroupNCCL::WorkNCCL::describe() const {
  return c10::str("WorkNCCL(SeqNum=", seq_, ", OpType=", opTypeToString(opType_),
                  ", Timeout(ms)=", opTimeout_.count(), ")");
}

bool ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const {
  for (cudaEvent_t e : ncclEndEvents_) {
    const cudaError_t status = cudaEventQuery(e);
    if (status == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    C10_CUDA_CHECK(status);
  }
  return true;
}

void ProcessGroupNCCL::WorkNCCL::checkAndSetException() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (exception_) return;
  }
  for (const auto& comm : ncclComms_) {
    const ncclResult_t error = comm->checkForNcclError();
    if (error == ncclSuccess) continue;
    std::lock_guard<std::mutex> lock(mutex_);
    exception_ =
        std::make_exception_ptr(c10::Error(c10::str("NCCL error: ", ncclGetErrorWithVersion(error),
                                                    "\n", getNcclErrorDetailStr(error)),
                                           ""));
    return;
  }
}

bool ProcessGroupNCCL::WorkNCCL::finishedGPUExecution() {
  checkAndSetException();
  return finishedGPUExecutionInternal();
}

bool ProcessGroupNCCL::WorkNCCL::isCompleted() {
  checkAndSetException();
  return exception() != nullptr || finishedGPUExecutionInternal();
}

bool ProcessGroupNCCL::WorkNCCL::isSuccess() const {
  return exception() == nullptr && finishedGPUExecutionInternal();
}

void ProcessGroupNCCL::WorkNCCL::synchronizeStreams() {
  for (size_t i = 0; i < devices_.size(); ++i) {
    const c10::cuda::CUDAGuard guard(devices_[i]);
    const c10::cuda::CUDAStream current = c10::cuda::getCurrentCUDAStream(devices_[i].index());
    C10_CUDA_CHECK(cudaStreamWaitEvent(current, ncclEndEvents_[i], 0));
  }
}

bool ProcessGroupNCCL::WorkNCCL::wait(std::chrono::milliseconds timeout) {
  synchronizeStreams();
  if (blockingWait_) {
    const auto limit = timeout == kNoTimeout ? opTimeout_ : timeout;
    while (!isCompleted()) {
      const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::steady_clock::now() - workStartTime_);
      if (elapsed >= limit) {
        std::lock_guard<std::mutex> lock(mutex_);
        exception_ = std::make_exception_ptr(
            c10::Error(c10::str("[Rank ", rank_, "] Work ", describe(),
                                " timed out in blocking wait (NCCL_BLOCKING_WAIT=1)."),
                       ""));
        break;
      }
      std::this_thread::sleep_for(kSynchronizeBusyWait);
    }
    if (exception()) {
      abortComms();
      std::rethrow_exception(exception());
    }
  } else {
    checkAndSetException();
    if (exception()) std::rethrow_exception(exception());
  }
  // A barrier waits on the host too.
  if (!barrierTensors_.empty()) {
    for (const c10::Device& d : devices_) {
      const c10::cuda::CUDAGuard guard(d);
      C10_CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  return true;
}

void ProcessGroupNCCL::WorkNCCL::synchronize() {
  (void)wait(kNoTimeout);
}

void ProcessGroupNCCL::WorkNCCL::abort() {
  TORCH_CHECK(false, "ProcessGroupNCCL::WorkNCCL::abort not implemented.");
}

void ProcessGroupNCCL::WorkNCCL::abortComms() {
  for (const auto& comm : ncclComms_) comm->ncclCommAbort();
}

std::vector<at::Tensor> ProcessGroupNCCL::WorkNCCL::result() {
  return outputs_ ? *outputs_ : std::vector<at::Tensor>{};
}

c10::intrusive_ptr<c10::ivalue::Future> ProcessGroupNCCL::WorkNCCL::getFuture() {
  if (!future_) {
    synchronizeStreams();
    future_ = c10::make_intrusive<c10::ivalue::Future>(
        c10::SchemaType::list(c10::TensorType::get()), devices_);
    future_->markCompleted(c10::IValue(result()));
  }
  return future_;
}

// ---- The group ---------------------------------------------------------------------------------

ProcessGroupNCCL::Options::Options(bool is_high_priority_stream)
    : ProcessGroup::Options(NCCL_BACKEND_NAME), is_high_priority_stream(is_high_priority_stream) {}

ProcessGroupNCCL::ProcessGroupNCCL(const c10::intrusive_ptr<Store>& store, int rank, int size,
                                   c10::intrusive_ptr<Options> options)
    : ProcessGroup(rank, size), store_(store), options_(std::move(options)) {
  TORCH_CHECK(c10::cuda::device_count() != 0,
              "ProcessGroupNCCL is only supported with GPUs, no GPUs found!");
  TORCH_CHECK(store_, "ProcessGroupNCCL: the store is null");
  TORCH_CHECK(options_, "ProcessGroupNCCL: the options are null");
  blockingWait_ = parseEnvVarFlag(NCCL_BLOCKING_WAIT);
}

ProcessGroupNCCL::~ProcessGroupNCCL() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& entry : devNCCLCommMap_) {
    for (const auto& comm : entry.second) comm->ncclCommAbort();
  }
}

namespace {
// The groupStart() calls of this thread not yet ended.
thread_local int activeGroups = 0;
}  // namespace

void ProcessGroupNCCL::checkNoActiveGroup() {
  TORCH_CHECK(activeGroups == 0,
              "ProcessGroupNCCL: collectives between groupStart() and groupEnd() are not "
              "supported");
}

void ProcessGroupNCCL::groupStart() {
  C10D_NCCL_CHECK(ncclGroupStart());
  ++activeGroups;
}

void ProcessGroupNCCL::groupEnd() {
  C10D_NCCL_CHECK(ncclGroupEnd());
  --activeGroups;
}

void ProcessGroupNCCL::startCoalescing() {
  TORCH_CHECK(false, "ProcessGroupNCCL does not support coalescing");
}

void ProcessGroupNCCL::endCoalescing(std::vector<c10::intrusive_ptr<Work>>& /*reqs*/) {
  TORCH_CHECK(false, "ProcessGroupNCCL does not support coalescing");
}

void ProcessGroupNCCL::broadcastUniqueNCCLID(ncclUniqueId* id, bool isP2P,
                                             const std::string& p2pKey, int p2pRank) {
  const std::string key = isP2P ? p2pKey : std::to_string(ncclCommCounter_++);
  if ((isP2P ? p2pRank : rank_) == 0) {
    const auto* raw = reinterpret_cast<const uint8_t*>(id);
    store_->set(key, std::vector<uint8_t>(raw, raw + NCCL_UNIQUE_ID_BYTES));
    return;
  }
  const std::vector<uint8_t> value = store_->get(key);
  TORCH_CHECK(value.size() == NCCL_UNIQUE_ID_BYTES, "Invalid size for ncclUniqueId");
  std::memcpy(id, value.data(), NCCL_UNIQUE_ID_BYTES);
}

std::vector<std::shared_ptr<NCCLComm>>& ProcessGroupNCCL::getNCCLComm(
    const std::string& devicesKey, const std::vector<c10::Device>& devices, int p2pRank) {
  TORCH_CHECK(!devicesKey.empty(),
              "Not able to create/get the NCCL Communicator since the GPU devices are not known");
  checkNoActiveGroup();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const c10::Device& d : devices) usedDeviceIdxs_.insert(d.index());
    auto found = devNCCLCommMap_.find(devicesKey);
    if (found != devNCCLCommMap_.end()) return found->second;
  }
  const bool isP2P = p2pRank >= 0;
  ncclUniqueId id;
  std::memset(&id, 0, sizeof(id));
  if ((isP2P ? p2pRank : rank_) == 0) C10D_NCCL_CHECK(ncclGetUniqueId(&id));
  broadcastUniqueNCCLID(&id, isP2P, devicesKey, p2pRank);

  const int perRank = static_cast<int>(devices.size());
  const int numRanks = isP2P ? 2 * perRank : size_ * perRank;
  std::vector<std::shared_ptr<NCCLComm>> comms(devices.size());
  std::vector<c10::cuda::CUDAStream> streams;
  C10D_NCCL_CHECK(ncclGroupStart());
  try {
    for (size_t i = 0; i < devices.size(); ++i) {
      const c10::cuda::CUDAGuard guard(devices[i]);
      const int cliqueRank = (isP2P ? p2pRank : rank_) * perRank + static_cast<int>(i);
      comms[i] = NCCLComm::create(numRanks, cliqueRank, id);
      streams.push_back(
          c10::cuda::getStreamFromPool(options_->is_high_priority_stream, devices[i].index()));
    }
  } catch (...) {
    (void)ncclGroupEnd();
    throw;
  }
  C10D_NCCL_CHECK(ncclGroupEnd());

  std::lock_guard<std::mutex> lock(mutex_);
  ncclStreams_.emplace(devicesKey, std::move(streams));
  return devNCCLCommMap_.emplace(devicesKey, std::move(comms)).first->second;
}

}  // namespace c10d

#endif  // USE_C10D_NCCL
