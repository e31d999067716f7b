// NCCLUtils.h: the communicator wrapper, the error texts, the dtype and reduction maps and the
// tensor checks, with libtorch 1.13's texts.

#include "distributed/c10d/NCCLUtils.h"

#ifdef USE_C10D_NCCL

#include <unordered_set>

#include "c10/cuda/CUDAFunctions.h"

namespace c10d {

std::string getNcclVersion() {
  int version = 0;
  if (ncclGetVersion(&version) != ncclSuccess || version <= 0) return "Unknown NCCL version";
  // NCCL_VERSION_CODE is major * 10000 + minor * 100 + patch since 2.9 (1000 and 100 before).
  const int major = version >= 10000 ? version / 10000 : version / 1000;
  const int minor = version >= 10000 ? (version % 10000) / 100 : (version % 1000) / 100;
  const int patch = version % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::string ncclGetErrorWithVersion(ncclResult_t error) {
  return std::string(ncclGetErrorString(error)) + ", NCCL version " + getNcclVersion();
}

std::string getNcclErrorDetailStr(ncclResult_t error) {
  std::string interpret;
  switch (error) {
    case ncclUnhandledCudaError:
      interpret = "ncclUnhandledCudaError: Call to CUDA function failed.";
      break;
    case ncclSystemError:
      interpret =
          "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
          "device error. ";
      break;
    case ncclInternalError:
      interpret = "ncclInternalError: Internal check failed.";
      break;
    case ncclInvalidArgument:
      interpret = "ncclInvalidArgument: Invalid value for an argument.";
      break;
    case ncclInvalidUsage:
      interpret = "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.";
      break;
    case ncclRemoteError:
      interpret =
          "ncclRemoteError: A call failed possibly due to a network error or a remote process "
          "exiting prematurely.";
      break;
    default:
      interpret = "Unknown NCCL error!";
  }
  const char* last = ncclGetLastError(nullptr);
  return interpret + "\nLast error:\n" + (last != nullptr ? last : "");
}

NCCLComm::~NCCLComm() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (comm_ != nullptr && !aborted_) (void)ncclCommDestroy(comm_);
}

std::shared_ptr<NCCLComm> NCCLComm::create(int numRanks, int rank, const ncclUniqueId& id) {
  ncclComm_t comm = nullptr;
  C10D_NCCL_CHECK(ncclCommInitRank(&comm, numRanks, id, rank));
  return std::make_shared<NCCLComm>(comm);
}

ncclComm_t NCCLComm::getNcclComm() {
  std::lock_guard<std::mutex> lock(mutex_);
  TORCH_CHECK(!aborted_, "NCCL communicator was aborted.");
  return comm_;
}

void NCCLComm::ncclCommAbort() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (aborted_ || comm_ == nullptr) return;
  (void)::ncclCommAbort(comm_);
  aborted_ = true;
}

bool NCCLComm::isAborted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aborted_;
}

ncclResult_t NCCLComm::checkForNcclError() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (aborted_ || comm_ == nullptr) return ncclSuccess;
  ncclResult_t async = ncclSuccess;
  C10D_NCCL_CHECK(ncclCommGetAsyncError(comm_, &async));
  return async;
}

ncclDataType_t getNcclDataType(at::ScalarType type) {
  switch (type) {
    case at::kChar:
      return ncclInt8;
    case at::kByte:
    case at::kBool:
      return ncclUint8;
    case at::kInt:
      return ncclInt32;
    case at::kLong:
      return ncclInt64;
    case at::kHalf:
      return ncclHalf;
    case at::kBFloat16:
      return ncclBfloat16;
    case at::kFloat:
      return ncclFloat;
    case at::kDouble:
      return ncclDouble;
    default:
      TORCH_CHECK(false, "Input tensor data type is not supported for NCCL process group: ", type);
  }
}

ncclRedOp_t getNcclReduceOp(const ReduceOp& op, at::ScalarType type) {
  if (type == at::kBool) {
    if (op == ReduceOp::SUM) return ncclMax;
    TORCH_CHECK(op != ReduceOp::AVG, "Cannot use ReduceOp.AVG with boolean inputs");
  }
  switch (op.op_) {
    case ReduceOp::SUM:
      return ncclSum;
    case ReduceOp::PRODUCT:
      return ncclProd;
    case ReduceOp::MIN:
      return ncclMin;
    case ReduceOp::MAX:
      return ncclMax;
    case ReduceOp::AVG:
      return ncclAvg;
    case ReduceOp::BAND:
      TORCH_CHECK(false, "Cannot use ReduceOp.BAND with NCCL");
    case ReduceOp::BOR:
      TORCH_CHECK(false, "Cannot use ReduceOp.BOR with NCCL");
    case ReduceOp::BXOR:
      TORCH_CHECK(false, "Cannot use ReduceOp.BXOR with NCCL");
    case ReduceOp::PREMUL_SUM:
      TORCH_CHECK(false, "ProcessGroupNCCL does not support PREMUL_SUM");
    default:
      TORCH_CHECK(false, "Unhandled ReduceOp");
  }
}

void checkGpuSingleTensor(const at::Tensor& tensor) {
  TORCH_CHECK(tensor.is_cuda() && tensor.layout() == at::kStrided,
              "Tensors must be CUDA and dense");
  TORCH_CHECK(tensor.is_contiguous(tensor.suggest_memory_format()), "Tensors must be contiguous");
}

void checkGpuTensorsDifferentDevices(const std::vector<at::Tensor>& tensors) {
  TORCH_CHECK(!tensors.empty(), "Tensor list must be nonempty");
  TORCH_CHECK(tensors.size() <= static_cast<size_t>(c10::cuda::device_count()),
              "Tensor list mustn't be larger than the number of available GPUs");
  const at::Tensor& first = tensors.front();
  std::unordered_set<int> used;
  for (const at::Tensor& t : tensors) {
    TORCH_CHECK(t.is_cuda() && t.layout() == at::kStrided, "Tensors must be CUDA and dense");
    TORCH_CHECK(t.scalar_type() == first.scalar_type(), "Tensors must have identical type");
    TORCH_CHECK(t.sizes().equals(first.sizes()), "Tensors must have identical size");
    TORCH_CHECK(t.strides().equals(first.strides()), "Tensors must have identical strides");
    TORCH_CHECK(t.is_contiguous(t.suggest_memory_format()), "Tensors must be contiguous");
    TORCH_CHECK(used.insert(t.device().index()).second, "Tensors must be on distinct GPU devices");
  }
}

std::vector<c10::Device> getDeviceList(const std::vector<at::Tensor>& tensors) {
  std::vector<c10::Device> devices;
  devices.reserve(tensors.size());
  for (const at::Tensor& t : tensors) devices.push_back(t.device());
  return devices;
}

std::string getKeyFromDevices(const std::vector<c10::Device>& devices) {
  std::string key;
  for (const c10::Device& d : devices) {
    if (!key.empty()) key += ",";
    key += std::to_string(d.index());
  }
  return key;
}

std::string getKeySendRecv(int myRank, int peer) {
  const int low = myRank < peer ? myRank : peer, high = myRank < peer ? peer : myRank;
  return std::to_string(low) + ":" + std::to_string(high);
}

}  // namespace c10d

#endif  // USE_C10D_NCCL
