// ProcessGroupNCCL. Without a GPU (CI): the constructor's refusal, NCCL's dtype and reduction
// maps, the tensor checks' texts, the keys and the version text. With one GPU: every collective
// in a world of one (NCCL runs one rank per GPU, so a single GPU allows no more), its Work, its
// errors, and the collectives as operators on CUDA tensors. With two GPUs or more: two ranks as
// threads, one GPU each.

#include <gtest/gtest.h>

#include <memory>
#include <thread>

#include "TestUtils.h"
#include "aten/ATen.h"
#include "aten/cuda/CUDAQueries.h"
#include "c10/cuda/CUDAFunctions.h"
#include "distributed/c10d/DistributedDataParallel.h"
#include "distributed/c10d/HashStore.h"
#include "distributed/c10d/Ops.h"
#include "distributed/c10d/ProcessGroupNCCL.h"

#define EXPECT_THROW_MSG(expr, msg) \
  EXPECT_EQ(test_util::error_of([&] { (void)(expr); }), std::string(msg))

#define SKIP_WITHOUT_CUDA() \
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device"

namespace {

using c10d::ReduceOp;

// ---- Without a GPU ---------------------------------------------------------------------------

TEST(NCCLUtils, DtypesAndReductionsMapToNcclsOrAreRefusedWithLibtorchsTexts) {
  EXPECT_EQ(c10d::getNcclDataType(at::kFloat), ncclFloat);
  EXPECT_EQ(c10d::getNcclDataType(at::kHalf), ncclHalf);
  EXPECT_EQ(c10d::getNcclDataType(at::kBFloat16), ncclBfloat16);
  EXPECT_EQ(c10d::getNcclDataType(at::kLong), ncclInt64);
  EXPECT_EQ(c10d::getNcclDataType(at::kChar), ncclInt8);
  EXPECT_EQ(c10d::getNcclDataType(at::kBool), ncclUint8);
  EXPECT_THROW_MSG(c10d::getNcclDataType(at::kComplexFloat),
                   "Input tensor data type is not supported for NCCL process group: ComplexFloat");
  EXPECT_THROW_MSG(c10d::getNcclDataType(at::kShort),
                   "Input tensor data type is not supported for NCCL process group: Short");

  EXPECT_EQ(c10d::getNcclReduceOp(ReduceOp::SUM, at::kFloat), ncclSum);
  EXPECT_EQ(c10d::getNcclReduceOp(ReduceOp::AVG, at::kFloat), ncclAvg);
  EXPECT_EQ(c10d::getNcclReduceOp(ReduceOp::PRODUCT, at::kInt), ncclProd);
  EXPECT_EQ(c10d::getNcclReduceOp(ReduceOp::MIN, at::kHalf), ncclMin);
  EXPECT_EQ(c10d::getNcclReduceOp(ReduceOp::MAX, at::kLong), ncclMax);
  // A Bool sum is an or: the max of 0s and 1s, which cannot overflow the uint8 it travels as.
  EXPECT_EQ(c10d::getNcclReduceOp(ReduceOp::SUM, at::kBool), ncclMax);
  EXPECT_EQ(c10d::getNcclReduceOp(ReduceOp::PRODUCT, at::kBool), ncclProd);
  EXPECT_THROW_MSG(c10d::getNcclReduceOp(ReduceOp::AVG, at::kBool),
                   "Cannot use ReduceOp.AVG with boolean inputs");
  EXPECT_THROW_MSG(c10d::getNcclReduceOp(ReduceOp::BAND, at::kInt),
                   "Cannot use ReduceOp.BAND with NCCL");
  EXPECT_THROW_MSG(c10d::getNcclReduceOp(ReduceOp::BOR, at::kInt),
                   "Cannot use ReduceOp.BOR with NCCL");
  EXPECT_THROW_MSG(c10d::getNcclReduceOp(ReduceOp::BXOR, at::kInt),
                   "Cannot use ReduceOp.BXOR with NCCL");
  EXPECT_THROW_MSG(c10d::getNcclReduceOp(c10d::makeNCCLPreMulSum(2.0), at::kFloat),
                   "ProcessGroupNCCL does not support PREMUL_SUM");
}

TEST(NCCLUtils, TensorChecksKeysAndTexts) {
  EXPECT_THROW_MSG(c10d::checkGpuSingleTensor(at::ones({2})), "Tensors must be CUDA and dense");
  EXPECT_THROW_MSG(c10d::checkGpuTensorsDifferentDevices({}), "Tensor list must be nonempty");
  // A list longer than the GPUs there are is refused before its tensors are looked at.
  std::vector<at::Tensor> many(static_cast<size_t>(c10::cuda::device_count()) + 1, at::ones({2}));
  EXPECT_THROW_MSG(c10d::checkGpuTensorsDifferentDevices(many),
                   "Tensor list mustn't be larger than the number of available GPUs");
  if (c10::cuda::device_count() > 0) {
    EXPECT_THROW_MSG(c10d::checkGpuTensorsDifferentDevices({at::ones({2})}),
                     "Tensors must be CUDA and dense");
  }

  EXPECT_EQ(c10d::getKeyFromDevices({c10::Device(c10::kCUDA, 0), c10::Device(c10::kCUDA, 3)}),
            "0,3");
  EXPECT_EQ(c10d::getKeySendRecv(3, 1), "1:3");
  EXPECT_EQ(c10d::getKeySendRecv(1, 3), "1:3");

  // NCCL's own texts, with the version of the library loaded.
  const std::string version = c10d::getNcclVersion();
  EXPECT_EQ(version.rfind(std::to_string(NCCL_MAJOR) + ".", 0), 0u) << version;
  EXPECT_EQ(c10d::ncclGetErrorWithVersion(ncclInvalidArgument),
            std::string(ncclGetErrorString(ncclInvalidArgument)) + ", NCCL version " + version);
  const int line = __LINE__ + 1;
  const std::string error = test_util::error_of([] { C10D_NCCL_CHECK(ncclInvalidUsage); });
  EXPECT_EQ(error, std::string("NCCL error in: ") + __FILE__ + ":" + std::to_string(line) + ", " +
                       c10d::ncclGetErrorWithVersion(ncclInvalidUsage) + "\n" +
                       c10d::getNcclErrorDetailStr(ncclInvalidUsage));
  const std::string detail = c10d::getNcclErrorDetailStr(ncclInvalidUsage);
  EXPECT_EQ(detail.rfind("ncclInvalidUsage: This usually reflects invalid usage of NCCL library."
                         "\nLast error:\n",
                         0),
            0u)
      << detail;
}

TEST(ProcessGroupNCCL, NeedsAGpu) {
  if (torch::cuda::is_available()) GTEST_SKIP() << "a CUDA device is present";
  auto store = c10::make_intrusive<c10d::HashStore>();
  EXPECT_THROW_MSG(c10::make_intrusive<c10d::ProcessGroupNCCL>(store, 0, 1),
                   "ProcessGroupNCCL is only supported with GPUs, no GPUs found!");
}

// ---- With one GPU: a world of one ---------------------------------------------------------------

c10::intrusive_ptr<c10d::ProcessGroupNCCL> world_of_one() {
  return c10::make_intrusive<c10d::ProcessGroupNCCL>(c10::make_intrusive<c10d::HashStore>(), 0, 1);
}

at::Tensor on_gpu(const at::Tensor& t) {
  return t.to(at::Device(at::kCUDA, 0));
}

TEST(ProcessGroupNCCL, EveryCollectiveInAWorldOfOne) {
  SKIP_WITHOUT_CUDA();
  auto pg = world_of_one();
  EXPECT_EQ(pg->getBackendName(), "nccl");
  // libtorch 1.13's NCCL number counts the collectives from 0; setting it changes nothing.
  EXPECT_EQ(pg->getSequenceNumberForGroup(), 0u);
  pg->setSequenceNumberForGroup();
  EXPECT_EQ(pg->getSequenceNumberForGroup(), 0u);
  const at::Tensor x = at::arange(12, at::kFloat).view({3, 4});
  for (at::ScalarType dtype : {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kInt,
                               at::kLong, at::kChar, at::kByte, at::kBool}) {
    for (ReduceOp::RedOpType op :
         {ReduceOp::SUM, ReduceOp::PRODUCT, ReduceOp::MIN, ReduceOp::MAX, ReduceOp::AVG}) {
      if (dtype == at::kBool && op == ReduceOp::AVG) continue;
      if (op == ReduceOp::AVG && !at::isFloatingType(dtype)) continue;
      SCOPED_TRACE(std::string(c10::toString(dtype)) + " op " + std::to_string(int(op)));
      std::vector<at::Tensor> t{on_gpu(x.to(dtype))};
      c10d::AllreduceOptions opts;
      opts.reduceOp = op;
      auto work = pg->allreduce(t, opts);
      work->wait();
      EXPECT_TRUE(at::equal(t[0].cpu(), x.to(dtype)));
      work->synchronize();
      EXPECT_TRUE(work->isCompleted());
      EXPECT_TRUE(work->isSuccess());
    }
  }
  // broadcast, reduce: the one rank is the root.
  std::vector<at::Tensor> t{on_gpu(x)};
  pg->broadcast(t)->wait();
  pg->reduce(t)->wait();
  EXPECT_TRUE(at::equal(t[0].cpu(), x));
  // allgather into a list and into one buffer; reduce_scatter from a list and from a buffer.
  std::vector<std::vector<at::Tensor>> gathered{{on_gpu(at::zeros({3, 4}))}};
  pg->allgather(gathered, t)->wait();
  EXPECT_TRUE(at::equal(gathered[0][0].cpu(), x));
  at::Tensor flat = on_gpu(at::zeros({12}));
  at::Tensor flat_in = on_gpu(x.reshape({12}));
  pg->_allgather_base(flat, flat_in)->wait();
  EXPECT_TRUE(at::equal(flat.cpu(), x.reshape({12})));
  std::vector<at::Tensor> scattered{on_gpu(at::zeros({3, 4}))};
  std::vector<std::vector<at::Tensor>> pieces{{on_gpu(x)}};
  pg->reduce_scatter(scattered, pieces)->wait();
  EXPECT_TRUE(at::equal(scattered[0].cpu(), x));
  at::Tensor rs_out = on_gpu(at::zeros({12}));
  pg->_reduce_scatter_base(rs_out, flat_in)->wait();
  EXPECT_TRUE(at::equal(rs_out.cpu(), x.reshape({12})));
  // alltoall: equal splits and explicit ones; the list form.
  at::Tensor a2a_out = on_gpu(at::zeros({3, 4}));
  at::Tensor a2a_in = on_gpu(x);
  std::vector<int64_t> none, three{3};
  pg->alltoall_base(a2a_out, a2a_in, none, none)->wait();
  EXPECT_TRUE(at::equal(a2a_out.cpu(), x));
  a2a_out.zero_();
  pg->alltoall_base(a2a_out, a2a_in, three, three)->wait();
  EXPECT_TRUE(at::equal(a2a_out.cpu(), x));
  std::vector<at::Tensor> list_out{on_gpu(at::zeros({3, 4}))}, list_in{on_gpu(x)};
  pg->alltoall(list_out, list_in)->wait();
  EXPECT_TRUE(at::equal(list_out[0].cpu(), x));
  // gather and scatter at root 0.
  std::vector<std::vector<at::Tensor>> gather_out{{on_gpu(at::zeros({3, 4}))}};
  pg->gather(gather_out, t)->wait();
  EXPECT_TRUE(at::equal(gather_out[0][0].cpu(), x));
  std::vector<at::Tensor> scatter_out{on_gpu(at::zeros({3, 4}))};
  std::vector<std::vector<at::Tensor>> scatter_in{{on_gpu(x)}};
  pg->scatter(scatter_out, scatter_in)->wait();
  EXPECT_TRUE(at::equal(scatter_out[0].cpu(), x));
  // barrier blocks the host too; the future holds the outputs.
  pg->barrier()->wait();
  auto work = pg->allreduce(t);
  auto future = work->getFuture();
  ASSERT_TRUE(future->completed());
  EXPECT_TRUE(at::equal(future->value().toTensorVector()[0].cpu(), x));
  EXPECT_EQ(work->result().size(), 1u);
  EXPECT_EQ(pg->getSequenceNumberForGroup(), 53u);  // every collective above
}

TEST(ProcessGroupNCCL, TheCollectivesOrderAfterTheCurrentStream) {
  SKIP_WITHOUT_CUDA();
  auto pg = world_of_one();
  // Written by a kernel on the current stream, reduced on the NCCL stream, read on the current
  // stream after wait(): each step sees the one before without a host synchronization.
  for (int round = 0; round < 20; ++round) {
    at::Tensor big = on_gpu(at::zeros({1 << 20}));
    big.fill_(static_cast<double>(round));
    std::vector<at::Tensor> t{big};
    pg->allreduce(t)->wait();
    t[0].add_(1);
    EXPECT_EQ(t[0].sum().item<double>(), static_cast<double>((round + 1) << 20));
  }
}

TEST(ProcessGroupNCCL, ErrorsAtTheCall) {
  SKIP_WITHOUT_CUDA();
  auto pg = world_of_one();
  std::vector<at::Tensor> cpu{at::ones({2})};
  EXPECT_THROW_MSG(pg->allreduce(cpu), "Tensors must be CUDA and dense");
  std::vector<at::Tensor> strided{on_gpu(at::ones({4, 4})).t()};
  EXPECT_THROW_MSG(pg->allreduce(strided), "Tensors must be contiguous");
  std::vector<at::Tensor> t{on_gpu(at::ones({2}))};
  c10d::AllreduceOptions band;
  band.reduceOp = ReduceOp::BAND;
  EXPECT_THROW_MSG(pg->allreduce(t, band), "Cannot use ReduceOp.BAND with NCCL");
  std::vector<at::Tensor> complex{on_gpu(at::ones({2}, at::kComplexFloat))};
  EXPECT_THROW_MSG(pg->allreduce(complex),
                   "Input tensor data type is not supported for NCCL process group: ComplexFloat");
  EXPECT_THROW_MSG(pg->allreduce_coalesced(t),
                   "allreduce_coalesced is currently not supported with NCCL");
  EXPECT_THROW_MSG(pg->send(t, 0, 0),
                   "ProcessGroupNCCL::send: rank 0 cannot send to or receive from itself");
  EXPECT_THROW_MSG(pg->recv(t, 2, 0),
                   "ProcessGroupNCCL::recv: invalid peer rank 2 for a group of size 1");
  EXPECT_THROW_MSG(pg->recvAnysource(t, 0), "ProcessGroupNCCL does not support recvAnysource");
  std::vector<std::vector<at::Tensor>> lists{{on_gpu(at::zeros({2}))}};
  EXPECT_THROW_MSG(pg->allgather_coalesced(lists, t),
                   "ProcessGroupNCCL does not support allgather_coalesced");
  EXPECT_THROW_MSG(pg->allreduce(t)->abort(), "ProcessGroupNCCL::WorkNCCL::abort not implemented.");
  // gather's and scatter's lists, with libtorch's texts.
  std::vector<std::vector<at::Tensor>> two{{on_gpu(at::zeros({2})), on_gpu(at::zeros({2}))}};
  EXPECT_THROW_MSG(pg->gather(two, t),
                   "ProcessGroupNCCL::gather: Incorrect output list size 2. Output list size "
                   "should be 1, same as size of the process group.");
  std::vector<std::vector<at::Tensor>> wrong{{on_gpu(at::zeros({3}))}};
  EXPECT_THROW_MSG(pg->gather(wrong, t),
                   "ProcessGroupNCCL::gather: invalid tensor size at index 0 (expected (2), got "
                   "(3))");
  c10d::ScatterOptions far;
  far.rootRank = 1;
  EXPECT_THROW_MSG(pg->scatter(t, wrong, far), "ProcessGroupNCCL::scatter: invalid root rank: 1");
  // A collective inside NCCL's group would record its events before NCCL enqueues it.
  c10d::ProcessGroupNCCL::groupStart();
  const std::string grouped = test_util::error_of([&] { pg->allreduce(t); });
  c10d::ProcessGroupNCCL::groupEnd();
  EXPECT_EQ(grouped,
            "ProcessGroupNCCL: collectives between groupStart() and groupEnd() are not supported");
  EXPECT_THROW_MSG(pg->startCoalescing(), "ProcessGroupNCCL does not support coalescing");
  at::Tensor out = on_gpu(at::zeros({3})), in = on_gpu(at::zeros({2}));
  EXPECT_THROW_MSG(pg->_allgather_base(out, in),
                   "output tensor size must be equal to world_size times input tensor size");
  std::vector<int64_t> splits{1, 1};
  EXPECT_THROW_MSG(pg->alltoall_base(out, out, splits, splits),
                   "Number of tensor splits not equal to group size");
}

TEST(ProcessGroupNCCL, TheOperatorsRunOnCudaTensors) {
  SKIP_WITHOUT_CUDA();
  c10::intrusive_ptr<c10d::ProcessGroup> pg = world_of_one();
  std::vector<at::Tensor> t{on_gpu(at::full({5}, 2.0))};
  c10d::ops::allreduce(pg, t)->wait();
  c10d::ops::broadcast(pg, t)->wait();
  EXPECT_TRUE(at::equal(t[0].cpu(), at::full({5}, 2.0)));
}

// DistributedDataParallel on CUDA parameters through NCCL: in a world of one, its averaged
// gradients are the plain ones, over several small buckets.
TEST(ProcessGroupNCCL, DataParallelOnCudaParameters) {
  SKIP_WITHOUT_CUDA();
  at::manual_seed(3);
  const at::Tensor w0 = at::randn({16, 8}), b0 = at::randn({8}), x = at::randn({4, 16});
  auto grads = [&](bool distributed) {
    at::Tensor w = on_gpu(w0).requires_grad_(true), b = on_gpu(b0).requires_grad_(true);
    c10d::DDPOptions options;
    options.first_bucket_bytes = options.bucket_bytes = 256;
    std::unique_ptr<c10d::DistributedDataParallel> ddp;
    if (distributed)
      ddp = std::make_unique<c10d::DistributedDataParallel>(std::vector<at::Tensor>{w, b},
                                                            world_of_one(), options);
    for (int step = 0; step < 3; ++step) {
      at::matmul(on_gpu(x), w).add(b).tanh().pow(2).sum().backward();
    }
    return std::make_pair(w.grad().cpu(), b.grad().cpu());
  };
  const auto plain = grads(false), averaged = grads(true);
  EXPECT_TRUE(at::allclose(plain.first, averaged.first));
  EXPECT_TRUE(at::allclose(plain.second, averaged.second));
}

// ---- With two GPUs: two ranks as threads --------------------------------------------------------

TEST(ProcessGroupNCCL, TwoRanksOnTwoGpus) {
  SKIP_WITHOUT_CUDA();
  if (c10::cuda::device_count() < 2) GTEST_SKIP() << "fewer than two GPUs";
  auto store = c10::make_intrusive<c10d::HashStore>();
  std::vector<std::string> failures(2);
  std::vector<std::thread> ranks;
  for (int r = 0; r < 2; ++r) {
    ranks.emplace_back([&, r] {
      try {
        c10d::ProcessGroupNCCL pg(store, r, 2);
        const at::Device device(at::kCUDA, static_cast<c10::DeviceIndex>(r));
        std::vector<at::Tensor> t{at::full({4}, static_cast<double>(r + 1)).to(device)};
        pg.allreduce(t)->wait();
        TORCH_CHECK(at::equal(t[0].cpu(), at::full({4}, 3.0)), "allreduce");
        std::vector<at::Tensor> p2p{at::full({3}, 7.0).to(device)};
        if (r == 0) {
          pg.send(p2p, 1, 0)->wait();
        } else {
          p2p[0].zero_();
          pg.recv(p2p, 0, 0)->wait();
          TORCH_CHECK(at::equal(p2p[0].cpu(), at::full({3}, 7.0)), "send/recv");
        }
        // The allreduce counted, the send or recv did not.
        TORCH_CHECK(pg.getSequenceNumberForGroup() == 1, "sequence number ",
                    pg.getSequenceNumberForGroup());
        pg.barrier()->wait();
      } catch (const std::exception& e) {
        failures[static_cast<size_t>(r)] = e.what();
      }
    });
  }
  for (auto& t : ranks) t.join();
  EXPECT_EQ(failures[0], "");
  EXPECT_EQ(failures[1], "");
}

}  // namespace
