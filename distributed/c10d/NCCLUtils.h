#pragma once
// What ProcessGroupNCCL builds on (libtorch 1.13's NCCLUtils.hpp and the checks at the top of its
// ProcessGroupNCCL.cpp): NCCLComm, a communicator owned and aborted or destroyed once; the
// error check with libtorch's text; the mapping of dtypes and reductions to NCCL's; and the
// checks of the tensors a collective takes. Everything but NCCLComm only reads tensor metadata
// and NCCL's headers, so the CPU tests run it on a machine without a GPU.
//
// A CUDA build with NCCL only (MINIATEN_HAVE_NCCL, USE_C10D_NCCL), as libtorch's.

#ifdef USE_C10D_NCCL

#include <nccl.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"
#include "distributed/c10d/Types.h"

namespace c10d {

// "2.28.9", of the NCCL the program runs with.
std::string getNcclVersion();
// "<NCCL's text for the error>, NCCL version 2.28.9".
std::string ncclGetErrorWithVersion(ncclResult_t error);
// libtorch's explanation of an error ("ncclInvalidUsage: This usually reflects invalid usage of
// NCCL library."), then NCCL's last error message.
std::string getNcclErrorDetailStr(ncclResult_t error);

}  // namespace c10d

// libtorch's C10D_NCCL_CHECK: "NCCL error in: <file>:<line>, <error>, NCCL version 2.28.9\n<the
// explanation>".
#define C10D_NCCL_CHECK(cmd)                                                              \
  do {                                                                                    \
    const ncclResult_t result_ = (cmd);                                                   \
    TORCH_CHECK(result_ == ncclSuccess, "NCCL error in: ", __FILE__, ":", __LINE__, ", ", \
                ::c10d::ncclGetErrorWithVersion(result_), "\n",                           \
                ::c10d::getNcclErrorDetailStr(result_));                                  \
  } while (0)

namespace c10d {

// One NCCL communicator: this process's rank in an NCCL clique. ncclCommAbort (on errors and
// when the group goes) or ncclCommDestroy runs once, whichever comes first.
class NCCLComm {
 public:
  explicit NCCLComm(ncclComm_t comm) : comm_(comm) {}
  ~NCCLComm();
  NCCLComm(const NCCLComm&) = delete;
  NCCLComm& operator=(const NCCLComm&) = delete;

  // ncclCommInitRank: collective over the `numRanks` ranks that got the same id.
  static std::shared_ptr<NCCLComm> create(int numRanks, int rank, const ncclUniqueId& id);

  ncclComm_t getNcclComm();
  void ncclCommAbort();
  bool isAborted() const;
  // The communicator's asynchronous error (a peer gone, a failed kernel), ncclSuccess if none.
  ncclResult_t checkForNcclError();

 private:
  mutable std::mutex mutex_;
  ncclComm_t comm_;
  bool aborted_ = false;
};

// NCCL's dtype: "Input tensor data type is not supported for NCCL process group: <dtype>" for
// the others (Bool travels as uint8).
ncclDataType_t getNcclDataType(at::ScalarType type);

// NCCL's reduction for `op` on `type`: a Bool sum is a max (an or without overflow of the
// uint8 it travels as); "Cannot use ReduceOp.AVG with boolean inputs", "Cannot use ReduceOp.BAND
// with NCCL" (BOR, BXOR), and "ProcessGroupNCCL does not support PREMUL_SUM" (miniaten's group has
// no premultiplied sum yet).
ncclRedOp_t getNcclReduceOp(const ReduceOp& op, at::ScalarType type);

// The checks libtorch runs before a collective:
// - one tensor: "Tensors must be CUDA and dense", "Tensors must be contiguous";
// - one per device: also "Tensor list must be nonempty", "Tensor list mustn't be larger than the
//   number of available GPUs", "Tensors must have identical type" / "... size" / "... strides",
//   "Tensors must be on distinct GPU devices".
void checkGpuSingleTensor(const at::Tensor& tensor);
void checkGpuTensorsDifferentDevices(const std::vector<at::Tensor>& tensors);

// The devices of the tensors, in order (one tensor per device, checked).
std::vector<c10::Device> getDeviceList(const std::vector<at::Tensor>& tensors);
// "0,1": the communicators' cache key for these devices.
std::string getKeyFromDevices(const std::vector<c10::Device>& devices);
// "1:3": the key of the two-rank communicator of a send or recv between these ranks.
std::string getKeySendRecv(int myRank, int peer);

}  // namespace c10d

#endif  // USE_C10D_NCCL
