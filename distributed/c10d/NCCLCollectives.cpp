// ProcessGroupNCCL's collectives (ProcessGroupNCCL.h): how a call is launched on the NCCL streams
// and each collective's NCCL calls, with libtorch 1.13's checks and texts. The Work, the
// communicators and the group calls are in ProcessGroupNCCL.cpp.
//
// Note [How ProcessGroupNCCL runs a collective]
// NCCL runs collectives as kernels on a stream; the host only enqueues them. A call:
//  1. checks its tensors (one per GPU, CUDA, dense, contiguous: NCCLUtils.h);
//  2. takes the communicators of its set of GPUs, made at the first call on that set: rank 0 of
//     the group makes NCCL's unique id and puts it in the store under the n-th key ("0", "1",
//     ...: every rank makes its communicators in the same order), the others read it there, and
//     each GPU joins the clique as rank (group rank * GPUs + i). A send or recv has a clique of
//     its own for the two ranks, keyed "low:high";
//  3. makes the group's NCCL stream of each GPU wait for the caller's current stream (an event),
//     so the collective reads the inputs after the kernels that wrote them;
//  4. tells the caching allocator that the NCCL stream uses every tensor (recordStream): a tensor
//     the caller frees meanwhile is not reused until the collective is done with it;
//  5. enqueues the NCCL calls for every GPU inside one ncclGroupStart/End, then any copies out
//     of a flat buffer (allgather, reduce_scatter), on the NCCL streams;
//  6. records an end event on each NCCL stream; the Work holds them.
// work->wait() makes the caller's current streams wait for those events (the host goes on, as in
// libtorch); with NCCL_BLOCKING_WAIT=1 the host polls until the events fire, NCCL reports an
// error or the timeout passes, and then aborts the communicators and throws. libtorch's
// background watchdog (which aborts timed-out collectives without a blocking wait) is not here:
// without NCCL_BLOCKING_WAIT, a peer that never arrives leaves the collective running.

#include "distributed/c10d/ProcessGroupNCCL.h"

#ifdef USE_C10D_NCCL

#include <cctype>
#include <sstream>

#include "aten/ATen.h"
#include "c10/cuda/CUDACachingAllocator.h"
#include "c10/cuda/CUDAException.h"
#include "c10/cuda/CUDAGuard.h"
#include "distributed/c10d/Utils.h"

namespace c10d {

namespace {

// The flat buffer of an allgather's outputs or a reduce_scatter's inputs on device i: the
// `lists[i]` tensors one after another, each with the first one's shape (libtorch's newLikeFlat).
at::Tensor newLikeFlat(std::vector<std::vector<at::Tensor>>& lists, size_t i) {
  const at::Tensor& t = lists[i][0];
  const c10::cuda::CUDAGuard guard(t.device());
  std::vector<int64_t> sizes{static_cast<int64_t>(lists[i].size())};
  sizes.insert(sizes.end(), t.sizes().begin(), t.sizes().end());
  return at::empty(sizes, t.options());
}

// The NCCL calls that the list and the flat-buffer forms share: allgather and _allgather_base put
// every rank's input end to end in the output; reduce_scatter and _reduce_scatter_base reduce
// the input and keep this rank's part.
void allGatherCall(at::Tensor& input, at::Tensor& output, ncclComm_t comm, cudaStream_t stream) {
  C10D_NCCL_CHECK(ncclAllGather(input.data_ptr(), output.data_ptr(),
                                static_cast<size_t>(input.numel()),
                                getNcclDataType(input.scalar_type()), comm, stream));
}

auto reduceScatterCall(ncclRedOp_t op) {
  return [op](at::Tensor& input, at::Tensor& output, ncclComm_t comm, cudaStream_t stream) {
    C10D_NCCL_CHECK(ncclReduceScatter(input.data_ptr(), output.data_ptr(),
                                      static_cast<size_t>(output.numel()),
                                      getNcclDataType(input.scalar_type()), op, comm, stream));
  };
}

// libtorch's flatten_for_scatter_gather checks: each list has one tensor per participant, each of
// `other[i]`'s size and on its device.
void checkScatterGatherLists(const std::vector<std::vector<at::Tensor>>& lists,
                             const std::vector<at::Tensor>& other, size_t worldSize) {
  TORCH_CHECK(lists.size() == other.size(),
              "Tensor list operands to scatter/gather must have the same length");
  for (size_t i = 0; i < lists.size(); ++i) {
    TORCH_CHECK(lists[i].size() == worldSize * lists.size(),
                "Tensor list input to scatter/gather must match number of collective "
                "participants");
    for (const at::Tensor& t : lists[i]) {
      TORCH_CHECK(t.numel() == other[i].numel(),
                  "All tensor operands to scatter/gather must have the same number of elements");
      TORCH_CHECK(t.device() == other[i].device(),
                  "Corresponding input/output tensors to scatter/gather must all reside on the "
                  "same device");
      TORCH_CHECK(t.scalar_type() == other[i].scalar_type(),
                  "All tensor operands to scatter/gather must have the same data type");
    }
  }
}

void checkPeer(int peer, int rank, int size, const char* what) {
  TORCH_CHECK(peer >= 0 && peer < size, "ProcessGroupNCCL::", what, ": invalid peer rank ", peer,
              " for a group of size ", size);
  TORCH_CHECK(peer != rank, "ProcessGroupNCCL::", what, ": rank ", rank,
              " cannot send to or receive from itself");
}

char* bytes(const at::Tensor& t) {
  return static_cast<char*>(t.data_ptr());
}

}  // namespace

// ---- Launching ---------------------------------------------------------------------------------

template <typename Fn>
c10::intrusive_ptr<ProcessGroupNCCL::WorkNCCL> ProcessGroupNCCL::launch(
    const std::string& key, std::vector<std::shared_ptr<NCCLComm>>& comms,
    const std::vector<c10::Device>& devices, std::vector<at::Tensor>& inputs,
    std::vector<at::Tensor>& outputs, Fn fn, const PostFn& post, OpType opType, const char* title,
    const std::vector<at::Tensor>& alsoUsed) {
  checkNoActiveGroup();
  // What can throw is asked before ncclGroupStart: a throw inside the group would leave NCCL
  // waiting for the calls already queued on other GPUs.
  std::vector<ncclComm_t> raw;
  for (size_t i = 0; i < devices.size(); ++i) {
    raw.push_back(comms[i]->getNcclComm());
    (void)getNcclDataType(inputs[i].scalar_type());
  }
  std::vector<c10::cuda::CUDAStream> streams;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    streams = ncclStreams_.at(key);
  }
  auto work = c10::make_intrusive<WorkNCCL>(devices, rank_, opType, seq_, title, inputs);
  work->blockingWait_ = blockingWait_;
  work->opTimeout_ = options_->timeout;
  work->ncclComms_ = comms;
  // Step 3: the NCCL streams wait for the current ones.
  for (size_t i = 0; i < devices.size(); ++i) {
    const c10::cuda::CUDAGuard guard(devices[i]);
    const c10::cuda::CUDAStream current = c10::cuda::getCurrentCUDAStream(devices[i].index());
    C10_CUDA_CHECK(cudaEventRecord(work->ncclEndEvents_[i], current));
    C10_CUDA_CHECK(cudaStreamWaitEvent(streams[i], work->ncclEndEvents_[i], 0));
  }
  // Step 4: the tensors stay allocated until the NCCL streams are done with them.
  auto record = [](const at::Tensor& t, const c10::cuda::CUDAStream& stream) {
    if (t.defined() && t.storage().data_ptr().get() != nullptr) {
      c10::cuda::CUDACachingAllocator::recordStream(t.storage().data_ptr(), stream);
    }
  };
  for (size_t i = 0; i < devices.size(); ++i) {
    record(inputs[i], streams[i]);
    record(outputs[i], streams[i]);
  }
  // The list tensors of a one-GPU call (gather's, scatter's, alltoall's).
  for (const at::Tensor& t : alsoUsed) record(t, streams[0]);
  // Step 5.
  C10D_NCCL_CHECK(ncclGroupStart());
  try {
    for (size_t i = 0; i < devices.size(); ++i) {
      const c10::cuda::CUDAGuard guard(devices[i]);
      fn(inputs[i], outputs[i], raw[i], streams[i]);
    }
  } catch (...) {
    (void)ncclGroupEnd();
    throw;
  }
  C10D_NCCL_CHECK(ncclGroupEnd());
  // What follows the collective on each NCCL stream (still step 5: after ncclGroupEnd, which is
  // when NCCL enqueues its kernels).
  if (post) {
    for (size_t i = 0; i < devices.size(); ++i) {
      const c10::cuda::CUDAGuard guard(devices[i]);
      const c10::cuda::CUDAStreamGuard on_nccl(streams[i]);
      post(i, streams[i]);
    }
  }
  // Step 6.
  for (size_t i = 0; i < devices.size(); ++i) {
    const c10::cuda::CUDAGuard guard(devices[i]);
    C10_CUDA_CHECK(cudaEventRecord(work->ncclEndEvents_[i], streams[i]));
  }
  work->outputs_ = std::make_shared<std::vector<at::Tensor>>(outputs);
  return work;
}

template <typename Fn>
c10::intrusive_ptr<Work> ProcessGroupNCCL::collective(std::vector<at::Tensor>& inputs,
                                                      std::vector<at::Tensor>& outputs, Fn fn,
                                                      OpType opType, const char* title,
                                                      const PostFn& post,
                                                      const std::vector<at::Tensor>& alsoUsed) {
  ++seq_;  // send and recv do not count (libtorch 1.13's collective() bumps it, pointToPoint not)
  const std::vector<c10::Device> devices = getDeviceList(inputs);
  const std::string key = getKeyFromDevices(devices);
  auto& comms = getNCCLComm(key, devices);
  return launch(key, comms, devices, inputs, outputs, fn, post, opType, title, alsoUsed);
}

template <typename Fn>
c10::intrusive_ptr<Work> ProcessGroupNCCL::pointToPoint(std::vector<at::Tensor>& tensors, Fn fn,
                                                        int peer, OpType opType,
                                                        const char* title) {
  // One GPU a call: the clique of the two ranks has one member on each side.
  TORCH_CHECK(tensors.size() == 1, "ProcessGroupNCCL::", opTypeToString(opType),
              ": send and recv take one tensor (one GPU) a call");
  const std::vector<c10::Device> devices = getDeviceList(tensors);
  // The clique of the two ranks, keyed (in the cache and in the store, where rank 0 of the
  // clique puts its id) by the pair alone; this rank is 0 in it when it is the lower.
  const std::string key = getKeySendRecv(rank_, peer);
  const int p2pRank = rank_ < peer ? 0 : 1;
  auto& comms = getNCCLComm(key, devices, p2pRank);
  const int target = 1 - p2pRank;
  return launch(key, comms, devices, tensors, tensors,
                [&](at::Tensor& input, at::Tensor&, ncclComm_t comm, cudaStream_t stream) {
                  fn(input, comm, stream, target);
                },
                nullptr, opType, title, {});
}

// ---- The collectives ---------------------------------------------------------------------------

c10::intrusive_ptr<Work> ProcessGroupNCCL::broadcast(std::vector<at::Tensor>& tensors,
                                                     const BroadcastOptions& opts) {
  checkGpuTensorsDifferentDevices(tensors);
  const int64_t root = opts.rootRank * static_cast<int64_t>(tensors.size()) + opts.rootTensor;
  return collective(
      tensors, tensors,
      [&](at::Tensor& input, at::Tensor&, ncclComm_t comm, cudaStream_t stream) {
        C10D_NCCL_CHECK(ncclBroadcast(
            input.data_ptr(), input.data_ptr(), static_cast<size_t>(input.numel()),
            getNcclDataType(input.scalar_type()), static_cast<int>(root), comm, stream));
      },
      OpType::BROADCAST, "nccl:broadcast");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::allreduce(std::vector<at::Tensor>& tensors,
                                                     const AllreduceOptions& opts) {
  checkGpuTensorsDifferentDevices(tensors);
  const ncclRedOp_t op = getNcclReduceOp(opts.reduceOp, tensors[0].scalar_type());
  return collective(
      tensors, tensors,
      [&](at::Tensor& input, at::Tensor& output, ncclComm_t comm, cudaStream_t stream) {
        C10D_NCCL_CHECK(ncclAllReduce(input.data_ptr(), output.data_ptr(),
                                      static_cast<size_t>(input.numel()),
                                      getNcclDataType(input.scalar_type()), op, comm, stream));
      },
      OpType::ALLREDUCE, "nccl:all_reduce");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::allreduce_coalesced(
    std::vector<at::Tensor>& /*tensors*/, const AllreduceCoalescedOptions& /*opts*/) {
  TORCH_CHECK(false, "allreduce_coalesced is currently not supported with NCCL");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::allgather_coalesced(
    std::vector<std::vector<at::Tensor>>& /*outputTensorLists*/,
    std::vector<at::Tensor>& /*inputTensors*/, const AllgatherOptions& /*opts*/) {
  TORCH_CHECK(false, "ProcessGroupNCCL does not support allgather_coalesced");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::recvAnysource(std::vector<at::Tensor>& /*tensors*/,
                                                         int /*tag*/) {
  TORCH_CHECK(false, "ProcessGroupNCCL does not support recvAnysource");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::reduce(std::vector<at::Tensor>& tensors,
                                                  const ReduceOptions& opts) {
  checkGpuTensorsDifferentDevices(tensors);
  const ncclRedOp_t op = getNcclReduceOp(opts.reduceOp, tensors[0].scalar_type());
  const int64_t root = opts.rootRank * static_cast<int64_t>(tensors.size()) + opts.rootTensor;
  return collective(
      tensors, tensors,
      [&](at::Tensor& input, at::Tensor& output, ncclComm_t comm, cudaStream_t stream) {
        C10D_NCCL_CHECK(ncclReduce(
            input.data_ptr(), output.data_ptr(), static_cast<size_t>(input.numel()),
            getNcclDataType(input.scalar_type()), op, static_cast<int>(root), comm, stream));
      },
      OpType::REDUCE, "nccl:reduce");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::allgather(
    std::vector<std::vector<at::Tensor>>& outputTensors, std::vector<at::Tensor>& inputTensors,
    const AllgatherOptions& /*opts*/) {
  checkGpuTensorsDifferentDevices(inputTensors);
  checkScatterGatherLists(outputTensors, inputTensors, static_cast<size_t>(size_));
  std::vector<at::Tensor> flat(outputTensors.size());
  for (size_t i = 0; i < flat.size(); ++i) flat[i] = newLikeFlat(outputTensors, i);
  return collective(
      inputTensors, flat, allGatherCall, OpType::ALLGATHER, "nccl:all_gather",
      // Each rank's part out of the flat buffer, on the NCCL stream (which is current).
      [&](size_t i, const c10::cuda::CUDAStream& stream) {
        for (size_t j = 0; j < outputTensors[i].size(); ++j) {
          c10::cuda::CUDACachingAllocator::recordStream(outputTensors[i][j].storage().data_ptr(),
                                                        stream);
          outputTensors[i][j].copy_(flat[i][static_cast<int64_t>(j)], true);
        }
      });
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::_allgather_base(at::Tensor& outputBuffer,
                                                           at::Tensor& inputBuffer,
                                                           const AllgatherOptions& /*opts*/) {
  checkGpuSingleTensor(inputBuffer);
  checkGpuSingleTensor(outputBuffer);
  TORCH_CHECK(inputBuffer.scalar_type() == outputBuffer.scalar_type(),
              "output tensor must have the same type as input tensor");
  TORCH_CHECK(inputBuffer.numel() * size_ == outputBuffer.numel(),
              "output tensor size must be equal to world_size times input tensor size");
  std::vector<at::Tensor> inputs{inputBuffer}, outputs{outputBuffer};
  return collective(inputs, outputs, allGatherCall, OpType::_ALLGATHER_BASE,
                    "nccl:_all_gather_base");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::reduce_scatter(
    std::vector<at::Tensor>& outputTensors, std::vector<std::vector<at::Tensor>>& inputTensors,
    const ReduceScatterOptions& opts) {
  checkGpuTensorsDifferentDevices(outputTensors);
  checkScatterGatherLists(inputTensors, outputTensors, static_cast<size_t>(size_));
  const ncclRedOp_t op = getNcclReduceOp(opts.reduceOp, outputTensors[0].scalar_type());
  // The inputs go into a flat buffer first, on the current stream (before step 3).
  std::vector<at::Tensor> flat(inputTensors.size());
  for (size_t i = 0; i < flat.size(); ++i) {
    flat[i] = newLikeFlat(inputTensors, i);
    const c10::cuda::CUDAGuard guard(flat[i].device());
    for (size_t j = 0; j < inputTensors[i].size(); ++j) {
      flat[i][static_cast<int64_t>(j)].copy_(inputTensors[i][j], true);
    }
  }
  return collective(flat, outputTensors, reduceScatterCall(op), OpType::REDUCE_SCATTER,
                    "nccl:reduce_scatter");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::_reduce_scatter_base(at::Tensor& outputBuffer,
                                                                at::Tensor& inputBuffer,
                                                                const ReduceScatterOptions& opts) {
  checkGpuSingleTensor(inputBuffer);
  checkGpuSingleTensor(outputBuffer);
  TORCH_CHECK(inputBuffer.scalar_type() == outputBuffer.scalar_type(),
              "input tensor must be the same type as the output tensor.");
  TORCH_CHECK(inputBuffer.numel() == outputBuffer.numel() * size_,
              "input tensor must be the same size as output size times world size");
  const ncclRedOp_t op = getNcclReduceOp(opts.reduceOp, inputBuffer.scalar_type());
  std::vector<at::Tensor> inputs{inputBuffer}, outputs{outputBuffer};
  return collective(inputs, outputs, reduceScatterCall(op), OpType::_REDUCE_SCATTER_BASE,
                    "nccl:_reduce_scatter_base");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::alltoall_base(at::Tensor& outputTensor,
                                                         at::Tensor& inputTensor,
                                                         std::vector<int64_t>& outputSplitSizes,
                                                         std::vector<int64_t>& inputSplitSizes,
                                                         const AllToAllOptions& /*opts*/) {
  checkGpuSingleTensor(outputTensor);
  checkGpuSingleTensor(inputTensor);
  TORCH_CHECK(outputTensor.scalar_type() == inputTensor.scalar_type(),
              "Tensors are not equal in data type");
  checkSplitSizes(inputSplitSizes, inputTensor, size_);
  checkSplitSizes(outputSplitSizes, outputTensor, size_);
  checkRowElements("ProcessGroupNCCL::alltoall_base", inputTensor, outputTensor);
  // Element counts and offsets of each rank's rows.
  auto lengths_and_offsets = [&](const std::vector<int64_t>& splits, const at::Tensor& t) {
    const int64_t rows = t.dim() ? t.size(0) : 1;
    const int64_t row = rows ? t.numel() / rows : 0;
    std::vector<std::pair<size_t, size_t>> result;
    size_t offset = 0;
    for (int r = 0; r < size_; ++r) {
      const auto n = static_cast<size_t>((splits.empty() ? rows / size_ : splits[r]) * row);
      result.emplace_back(n, offset);
      offset += n;
    }
    return result;
  };
  const auto sends = lengths_and_offsets(inputSplitSizes, inputTensor);
  const auto recvs = lengths_and_offsets(outputSplitSizes, outputTensor);
  std::vector<at::Tensor> inputs{inputTensor}, outputs{outputTensor};
  return collective(
      inputs, outputs,
      [&](at::Tensor& input, at::Tensor& output, ncclComm_t comm, cudaStream_t stream) {
        const ncclDataType_t type = getNcclDataType(input.scalar_type());
        const size_t item = input.element_size();
        for (int r = 0; r < size_; ++r) {
          if (sends[r].first != 0) {
            C10D_NCCL_CHECK(ncclSend(bytes(input) + sends[r].second * item, sends[r].first, type, r,
                                     comm, stream));
          }
          if (recvs[r].first != 0) {
            C10D_NCCL_CHECK(ncclRecv(bytes(output) + recvs[r].second * item, recvs[r].first, type,
                                     r, comm, stream));
          }
        }
      },
      OpType::ALLTOALL_BASE, "nccl:all_to_all");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::alltoall(std::vector<at::Tensor>& outputTensors,
                                                    std::vector<at::Tensor>& inputTensors,
                                                    const AllToAllOptions& /*opts*/) {
  TORCH_CHECK(static_cast<int>(inputTensors.size()) == size_,
              "Size of input tensor list not equal group size");
  TORCH_CHECK(static_cast<int>(outputTensors.size()) == size_,
              "Size of output tensor list not equal group size");
  for (size_t r = 0; r < inputTensors.size(); ++r) {
    checkGpuSingleTensor(inputTensors[r]);
    checkGpuSingleTensor(outputTensors[r]);
    TORCH_CHECK(inputTensors[r].device() == inputTensors[0].device() &&
                    outputTensors[r].device() == inputTensors[0].device(),
                "Tensors must be on the same device");
    TORCH_CHECK(inputTensors[r].scalar_type() == outputTensors[r].scalar_type(),
                "Tensors are not equal in data type");
  }
  std::vector<at::Tensor> inputs{inputTensors[0]}, outputs{outputTensors[0]};
  std::vector<at::Tensor> alsoUsed(inputTensors.begin(), inputTensors.end());
  alsoUsed.insert(alsoUsed.end(), outputTensors.begin(), outputTensors.end());
  return collective(
      inputs, outputs,
      [&](at::Tensor&, at::Tensor&, ncclComm_t comm, cudaStream_t stream) {
        for (int r = 0; r < size_; ++r) {
          const at::Tensor& in = inputTensors[r];
          const at::Tensor& out = outputTensors[r];
          C10D_NCCL_CHECK(ncclSend(in.data_ptr(), static_cast<size_t>(in.numel()),
                                   getNcclDataType(in.scalar_type()), r, comm, stream));
          C10D_NCCL_CHECK(ncclRecv(out.data_ptr(), static_cast<size_t>(out.numel()),
                                   getNcclDataType(out.scalar_type()), r, comm, stream));
        }
      },
      OpType::ALLTOALL, "nccl:all_to_all", nullptr, alsoUsed);
}

namespace {

Fail failing(const char* collective) {
  return [collective](const std::string& msg) {
    TORCH_CHECK(false, "ProcessGroupNCCL::", collective, ": ", msg);
  };
}

// libtorch's checks of gather's and scatter's lists: `single` (the input of a gather, the output
// of a scatter) holds one tensor; at the root, `lists` holds one list of a tensor per rank, each
// of single's dtype, device and sizes; elsewhere it is empty.
void checkRootLists(const char* collective, const std::vector<at::Tensor>& single,
                    const std::vector<std::vector<at::Tensor>>& lists, bool isRoot, int size,
                    const char* listName) {
  const Fail fail = failing(collective);
  checkGpuTensorsDifferentDevices(single);
  if (single.size() != 1) fail("requires a single-element input tensor list");
  if (!isRoot) {
    if (!lists.empty()) fail(std::string("requires empty ") + listName + " on non-root");
    return;
  }
  if (lists.size() != 1) {
    std::ostringstream ss;
    ss << "requires a single-element " << listName << " list containing a list with " << size
       << " tensors.";
    fail(ss.str());
  }
  if (lists[0].size() != static_cast<size_t>(size)) {
    std::ostringstream ss;
    std::string capitalized = listName;
    capitalized[0] = static_cast<char>(std::toupper(capitalized[0]));
    ss << "Incorrect " << listName << " list size " << lists[0].size() << ". " << capitalized
       << " list size should be " << size << ", same as size of the process group.";
    fail(ss.str());
  }
  assertTypeAndSizesMatch(fail, lists[0], single[0].options(), single[0].sizes());
}

}  // namespace

c10::intrusive_ptr<Work> ProcessGroupNCCL::gather(
    std::vector<std::vector<at::Tensor>>& outputTensors, std::vector<at::Tensor>& inputTensors,
    const GatherOptions& opts) {
  assertRootRank(failing("gather"), opts.rootRank, size_);
  const int root = static_cast<int>(opts.rootRank);
  checkRootLists("gather", inputTensors, outputTensors, rank_ == root, size_, "output");
  const std::vector<at::Tensor> outputs =
      rank_ == root ? outputTensors[0] : std::vector<at::Tensor>{};
  std::vector<at::Tensor> self{inputTensors[0]};
  return collective(
      inputTensors, self,
      [&](at::Tensor& input, at::Tensor&, ncclComm_t comm, cudaStream_t stream) {
        const ncclDataType_t type = getNcclDataType(input.scalar_type());
        const auto n = static_cast<size_t>(input.numel());
        if (rank_ != root) {
          C10D_NCCL_CHECK(ncclSend(input.data_ptr(), n, type, root, comm, stream));
          return;
        }
        for (int r = 0; r < size_; ++r) {
          if (r == root) {
            C10_CUDA_CHECK(cudaMemcpyAsync(outputs[r].data_ptr(), input.data_ptr(),
                                           n * input.element_size(), cudaMemcpyDeviceToDevice,
                                           stream));
          } else {
            C10D_NCCL_CHECK(ncclRecv(outputs[r].data_ptr(), n, type, r, comm, stream));
          }
        }
      },
      OpType::GATHER, "nccl:gather", nullptr, outputs);
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::scatter(
    std::vector<at::Tensor>& outputTensors, std::vector<std::vector<at::Tensor>>& inputTensors,
    const ScatterOptions& opts) {
  assertRootRank(failing("scatter"), opts.rootRank, size_);
  const int root = static_cast<int>(opts.rootRank);
  checkRootLists("scatter", outputTensors, inputTensors, rank_ == root, size_, "input");
  const std::vector<at::Tensor> inputs =
      rank_ == root ? inputTensors[0] : std::vector<at::Tensor>{};
  std::vector<at::Tensor> self{outputTensors[0]};
  return collective(
      self, outputTensors,
      [&](at::Tensor&, at::Tensor& output, ncclComm_t comm, cudaStream_t stream) {
        const ncclDataType_t type = getNcclDataType(output.scalar_type());
        const auto n = static_cast<size_t>(output.numel());
        if (rank_ != root) {
          C10D_NCCL_CHECK(ncclRecv(output.data_ptr(), n, type, root, comm, stream));
          return;
        }
        for (int r = 0; r < size_; ++r) {
          if (r == root) {
            C10_CUDA_CHECK(cudaMemcpyAsync(output.data_ptr(), inputs[r].data_ptr(),
                                           n * output.element_size(), cudaMemcpyDeviceToDevice,
                                           stream));
          } else {
            C10D_NCCL_CHECK(ncclSend(inputs[r].data_ptr(), n, type, r, comm, stream));
          }
        }
      },
      OpType::SCATTER, "nccl:scatter", nullptr, inputs);
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::send(std::vector<at::Tensor>& tensors, int dstRank,
                                                int /*tag*/) {
  checkGpuTensorsDifferentDevices(tensors);
  checkPeer(dstRank, rank_, size_, "send");
  return pointToPoint(
      tensors,
      [](at::Tensor& input, ncclComm_t comm, cudaStream_t stream, int target) {
        C10D_NCCL_CHECK(ncclSend(input.data_ptr(), static_cast<size_t>(input.numel()),
                                 getNcclDataType(input.scalar_type()), target, comm, stream));
      },
      dstRank, OpType::SEND, "nccl:send");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::recv(std::vector<at::Tensor>& tensors, int srcRank,
                                                int /*tag*/) {
  checkGpuTensorsDifferentDevices(tensors);
  checkPeer(srcRank, rank_, size_, "recv");
  return pointToPoint(
      tensors,
      [](at::Tensor& output, ncclComm_t comm, cudaStream_t stream, int target) {
        C10D_NCCL_CHECK(ncclRecv(output.data_ptr(), static_cast<size_t>(output.numel()),
                                 getNcclDataType(output.scalar_type()), target, comm, stream));
      },
      srcRank, OpType::RECV, "nccl:recv");
}

c10::intrusive_ptr<Work> ProcessGroupNCCL::barrier(const BarrierOptions& opts) {
  std::vector<int> devices;
  if (!opts.device_ids.empty()) {
    for (int64_t d : opts.device_ids) devices.push_back(static_cast<int>(d));
  } else {
    std::lock_guard<std::mutex> lock(mutex_);
    devices.assign(usedDeviceIdxs_.begin(), usedDeviceIdxs_.end());
  }
  if (devices.empty()) devices.push_back(rank_ % c10::cuda::device_count());
  std::vector<at::Tensor> tensors;
  for (int d : devices) {
    tensors.push_back(at::empty({1}, at::TensorOptions().device(at::kCUDA, d).dtype(at::kByte)));
  }
  auto work = allreduce(tensors);
  static_cast<WorkNCCL*>(work.get())->barrierTensors_ = std::move(tensors);
  return work;
}

}  // namespace c10d

#endif  // USE_C10D_NCCL
