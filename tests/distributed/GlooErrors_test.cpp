// ProcessGroupGloo's refusals: argument errors thrown at the call (libtorch 1.13's texts, read
// off its ProcessGroupGloo), type and reduction errors thrown by wait() (as libtorch's come from
// its worker threads), the collectives Gloo does not do, bad constructions, and a collective
// that one rank never joins timing out.
#include <gtest/gtest.h>

#include <atomic>

#include "aten/ATen.h"
#include "distributed/c10d/ProcessGroupGloo.h"
#include "distributed/c10d/debug.h"
#include "tests/TestUtils.h"
#include "tests/distributed/GlooTestUtils.h"

namespace {

using gloo_test::PG;
using gloo_test::run_ranks;
using test_util::error_of;

const char* kFloatOptions =
    "TensorOptions(dtype=float, device=cpu, layout=Strided, requires_grad=false (default), "
    "pinned_memory=false (default), memory_format=(nullopt))";
const char* kDoubleOptions =
    "TensorOptions(dtype=double, device=cpu, layout=Strided, requires_grad=false (default), "
    "pinned_memory=false (default), memory_format=(nullopt))";

at::Tensor meta(at::IntArrayRef sizes) {
  return at::empty(sizes, at::TensorOptions().device(at::kMeta));
}

TEST(GlooErrors, ArgumentsAreCheckedAtTheCall) {
  run_ranks(2, [](int rank, const PG& pg) {
    if (rank != 0) return;
    std::vector<at::Tensor> none;
    std::vector<at::Tensor> mixed{at::ones({4}), at::ones({4}, at::kDouble)};
    std::vector<at::Tensor> sized{at::ones({4}), at::ones({2, 2})};
    std::vector<at::Tensor> on_meta{meta({4})};
    c10d::BroadcastOptions bad_root;
    bad_root.rootRank = 2;
    std::vector<at::Tensor> one{at::ones({4})};
    EXPECT_EQ(error_of([&] { pg->broadcast(one, bad_root); }),
              "ProcessGroupGloo::broadcast: invalid root rank: 2");
    c10d::BroadcastOptions bad_tensor;
    bad_tensor.rootTensor = 1;
    EXPECT_EQ(error_of([&] { pg->broadcast(one, bad_tensor); }),
              "ProcessGroupGloo::broadcast: invalid root tensor: 1");
    EXPECT_EQ(error_of([&] { pg->broadcast(none); }),
              "ProcessGroupGloo::broadcast: invalid root tensor: 0");
    EXPECT_EQ(error_of([&] { pg->broadcast(on_meta); }),
              "ProcessGroupGloo::broadcast: unsupported device type meta");
    EXPECT_EQ(error_of([&] { pg->allreduce(none); }),
              "ProcessGroupGloo::allreduce: requires non-empty tensor list");
    // See Note [Which tensor a mismatch names]: libtorch 1.13 says "index 0" for these two.
    EXPECT_EQ(
        error_of([&] { pg->allreduce(mixed); }),
        std::string("ProcessGroupGloo::allreduce: invalid tensor type at index 1 (expected ") +
            kFloatOptions + ", got " + kDoubleOptions + ")");
    EXPECT_EQ(error_of([&] { pg->allreduce(sized); }),
              "ProcessGroupGloo::allreduce: invalid tensor size at index 1 (expected (4), got (2, "
              "2))");
    EXPECT_EQ(error_of([&] { pg->allreduce(on_meta); }),
              "ProcessGroupGloo::allreduce: unsupported device type meta");
    EXPECT_EQ(error_of([&] { pg->allreduce_coalesced(none); }),
              "ProcessGroupGloo::allreduce_coalesced: requires non-empty tensor list");
    EXPECT_EQ(error_of([&] { pg->allreduce_coalesced(mixed); }),
              "ProcessGroupGloo::allreduce_coalesced: tensors must all have the same type");
    c10d::ReduceOptions reduce_root;
    reduce_root.rootRank = 5;
    EXPECT_EQ(error_of([&] { pg->reduce(one, reduce_root); }),
              "ProcessGroupGloo::reduce: invalid root rank: 5");
    EXPECT_EQ(error_of([&] { pg->reduce(sized); }),
              "ProcessGroupGloo::reduce: requires a single-element tensor list");

    std::vector<std::vector<at::Tensor>> no_lists;
    EXPECT_EQ(error_of([&] { pg->allgather(no_lists, none); }),
              "ProcessGroupGloo::allgather: requires non-empty input tensor list");
    EXPECT_EQ(error_of([&] { pg->allgather(no_lists, one); }),
              "ProcessGroupGloo::allgather: requires input/output tensor lists to have the same "
              "length");
    std::vector<std::vector<at::Tensor>> short_list{{at::ones({4})}};
    EXPECT_EQ(error_of([&] { pg->allgather(short_list, one); }),
              "ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected "
              "length 2, got 1)");
    std::vector<std::vector<at::Tensor>> wrong_type{{at::ones({4}), at::ones({4}, at::kDouble)}};
    EXPECT_EQ(
        error_of([&] { pg->allgather(wrong_type, one); }),
        std::string("ProcessGroupGloo::allgather: invalid tensor type at index 1 (expected ") +
            kFloatOptions + ", got " + kDoubleOptions + ")");
    std::vector<std::vector<at::Tensor>> wrong_size{{at::ones({5}), at::ones({4})}};
    EXPECT_EQ(error_of([&] { pg->allgather(wrong_size, one); }),
              "ProcessGroupGloo::allgather: invalid tensor size at index 0 (expected (4), got "
              "(5))");
    std::vector<std::vector<at::Tensor>> one_list{{at::ones({4})}};
    EXPECT_EQ(error_of([&] { pg->allgather_coalesced(one_list, one); }),
              "ProcessGroupGloo::allgather_coalesced: output lists should be equal to world size");
    std::vector<std::vector<at::Tensor>> bad_sizes{{at::ones({5})}, {at::ones({4})}};
    EXPECT_EQ(error_of([&] { pg->allgather_coalesced(bad_sizes, one); }),
              "ProcessGroupGloo::allgather_coalesced: invalid size of output tensor at index 0 "
              "(expected length (4), got (5))");
    std::vector<std::vector<at::Tensor>> bad_types{{at::ones({4}, at::kDouble)}, {at::ones({4})}};
    EXPECT_EQ(error_of([&] { pg->allgather_coalesced(bad_types, one); }),
              "ProcessGroupGloo::allgather_coalesced: invalid tensor type at index 0 (expected "
              "Float, got Double)");

    c10d::GatherOptions gather_root;
    gather_root.rootRank = 2;
    EXPECT_EQ(error_of([&] { pg->gather(no_lists, one, gather_root); }),
              "ProcessGroupGloo::gather: invalid root rank: 2");
    EXPECT_EQ(error_of([&] { pg->gather(no_lists, sized); }),
              "ProcessGroupGloo::gather: requires a single-element input tensor list");
    EXPECT_EQ(error_of([&] { pg->gather(no_lists, one); }),
              "ProcessGroupGloo::gather: requires a single-element output list containing a list "
              "with 2 tensors.");
    EXPECT_EQ(error_of([&] { pg->gather(one_list, one); }),
              "ProcessGroupGloo::gather: Incorrect output list size 1. Output list size should be "
              "2, same as size of the process group.");
    c10d::GatherOptions gather_to_1;
    gather_to_1.rootRank = 1;
    EXPECT_EQ(error_of([&] { pg->gather(one_list, one, gather_to_1); }),
              "ProcessGroupGloo::gather: requires empty output on non-root");

    EXPECT_EQ(error_of([&] { pg->scatter(none, no_lists); }),
              "ProcessGroupGloo::scatter: requires a single-element output tensor list");
    EXPECT_EQ(error_of([&] { pg->scatter(one, no_lists); }),
              "ProcessGroupGloo::scatter: requires a single-element input list containing a list "
              "with 2 tensors");
    std::vector<std::vector<at::Tensor>> three{{at::ones({4}), at::ones({4}), at::ones({4})}};
    EXPECT_EQ(error_of([&] { pg->scatter(one, three); }),
              "ProcessGroupGloo::scatter: Incorrect input list size 3. Input list size should be "
              "2, same as size of the process group.");
    std::vector<std::vector<at::Tensor>> scatter_sizes{{at::ones({4}), at::ones({3})}};
    EXPECT_EQ(error_of([&] { pg->scatter(one, scatter_sizes); }),
              "ProcessGroupGloo::scatter: invalid tensor size at index 1 (expected (4), got (3))");
    c10d::ScatterOptions scatter_from_1;
    scatter_from_1.rootRank = 1;
    EXPECT_EQ(error_of([&] { pg->scatter(one, three, scatter_from_1); }),
              "ProcessGroupGloo::scatter: requires empty input on non-root");

    at::Tensor four = at::ones({4});
    at::Tensor three_rows = at::ones({3});
    at::Tensor on_meta_4 = meta({4});
    std::vector<int64_t> no_splits;
    std::vector<int64_t> one_split{4};
    std::vector<int64_t> wrong_total{1, 1};
    EXPECT_EQ(error_of([&] { pg->alltoall_base(four, on_meta_4, no_splits, no_splits); }),
              "output tensor and input tensor must be on the same type of device");
    EXPECT_EQ(error_of([&] { pg->alltoall_base(three_rows, three_rows, no_splits, no_splits); }),
              "Tensor's dim 0 does not divide equally across group size");
    EXPECT_EQ(error_of([&] { pg->alltoall_base(four, four, no_splits, one_split); }),
              "Number of tensor splits not equal to group size");
    EXPECT_EQ(error_of([&] { pg->alltoall_base(four, four, no_splits, wrong_total); }),
              "Split sizes doesn't match total dim 0 size");
    std::vector<int64_t> negative{-1, 5};
    EXPECT_EQ(error_of([&] { pg->alltoall_base(four, four, no_splits, negative); }),
              "Split sizes doesn't match total dim 0 size");
    at::Tensor rows_of_3 = at::ones({4, 3});
    at::Tensor rows_of_5 = at::ones({4, 5});
    EXPECT_EQ(error_of([&] { pg->alltoall_base(rows_of_5, rows_of_3, no_splits, no_splits); }),
              "ProcessGroupGloo::alltoall_base: the input's rows hold 3 elements, the output's 5");

    std::vector<at::Tensor> strided{at::ones({4, 4}).t()};
    EXPECT_EQ(error_of([&] { pg->send(sized, 1, 0); }),
              "ProcessGroupGloo::send takes a single tensor");
    EXPECT_EQ(error_of([&] { pg->send(strided, 1, 0); }), "input tensor has to be contiguous");
    EXPECT_EQ(error_of([&] { pg->send(one, 1, -1); }), "Tag must be nonnegative");
    EXPECT_EQ(error_of([&] { pg->send(one, 5, 0); }),
              "ProcessGroupGloo::send: invalid destination rank 5 (the world size is 2)");
    EXPECT_EQ(error_of([&] { pg->send(one, 0, 0); }),
              "ProcessGroupGloo::send: rank 0 cannot send to itself");
    EXPECT_EQ(error_of([&] { pg->recv(one, 0, 0); }),
              "ProcessGroupGloo::recv: rank 0 cannot receive from itself");

    std::vector<std::vector<at::Tensor>> lists;
    EXPECT_EQ(error_of([&] { pg->reduce_scatter(one, lists); }),
              "ProcessGroupGloo does not support reduce_scatter");
    at::Tensor a = at::ones({4});
    EXPECT_EQ(error_of([&] { pg->_allgather_base(a, a); }),
              "no support for _allgather_base in Gloo process group");
    EXPECT_EQ(error_of([&] { pg->_reduce_scatter_base(a, a); }),
              "ProcessGroup gloo does not support _reduce_scatter_base");
    EXPECT_EQ(error_of([&] { pg->alltoall(one, one); }),
              "ProcessGroup gloo does not support alltoall");
  });
}

TEST(GlooErrors, TypesAndReductionsGlooCannotDoFailTheWork) {
  run_ranks(2, [](int, const PG& pg) {
    auto wait_error = [&](std::vector<at::Tensor> t, c10d::ReduceOp op) {
      c10d::AllreduceOptions opts;
      opts.reduceOp = op;
      auto work = pg->allreduce(t, opts);
      const std::string msg = error_of([&] { work->wait(); });
      EXPECT_TRUE(work->isCompleted());
      EXPECT_FALSE(work->isSuccess());
      EXPECT_TRUE(work->exception() != nullptr);
      EXPECT_TRUE(work->getFuture()->hasError());
      return msg;
    };
    EXPECT_EQ(wait_error({at::ones({2})}, c10d::ReduceOp::AVG),
              "Cannot use ReduceOp.AVG with Gloo");
    EXPECT_EQ(wait_error({at::ones({2})}, c10d::makeNCCLPreMulSum(2.0)),
              "Cannot use ReduceOp.PREMUL_SUM with Gloo");
    EXPECT_EQ(wait_error({at::ones({2})}, c10d::ReduceOp::BAND),
              "Cannot use ReduceOp.BAND with non-integral dtype");
    EXPECT_EQ(wait_error({at::ones({2}, at::kDouble)}, c10d::ReduceOp::BOR),
              "Cannot use ReduceOp.BOR with non-integral dtype");
    EXPECT_EQ(wait_error({at::ones({2}, at::kHalf)}, c10d::ReduceOp::BXOR),
              "Cannot use ReduceOp.BXOR with non-integral dtype");
    EXPECT_EQ(wait_error({at::ones({2}, at::kShort)}, c10d::ReduceOp::SUM), "Invalid scalar type");
    EXPECT_EQ(wait_error({at::ones({2}, at::kComplexFloat)}, c10d::ReduceOp::SUM),
              "Invalid scalar type");
    // The group still works after a refused collective.
    std::vector<at::Tensor> t{at::ones({2})};
    pg->allreduce(t)->wait();
    EXPECT_TRUE(at::equal(t[0], at::full({2}, 2.0)));
  });
}

TEST(GlooErrors, BadConstruction) {
  auto store = c10::make_intrusive<c10d::HashStore>();
  auto opts = gloo_test::loopback_options(std::chrono::seconds(1));
  EXPECT_EQ(error_of([&] { c10d::ProcessGroupGloo(store, 2, 2, opts); }),
            "ProcessGroupGloo: rank 2 is out of range for a world of size 2 (expected 0 <= rank "
            "< 2)");
  EXPECT_EQ(error_of([&] { c10d::ProcessGroupGloo(store, -1, 2, opts); }),
            "ProcessGroupGloo: rank -1 is out of range for a world of size 2 (expected 0 <= rank "
            "< 2)");
  EXPECT_EQ(error_of([&] { c10d::ProcessGroupGloo(store, 0, 0, opts); }),
            "ProcessGroupGloo: the world size must be positive, got 0");
  EXPECT_EQ(error_of([&] { c10d::ProcessGroupGloo(store, 0, 2); }), "No device(s) specified");
  EXPECT_EQ(
      error_of([&] { c10d::ProcessGroupGloo(c10::intrusive_ptr<c10d::Store>(), 0, 2, opts); }),
      "ProcessGroupGloo: no store");
  auto null_device = c10d::ProcessGroupGloo::Options::create();
  null_device->devices.push_back(nullptr);
  EXPECT_EQ(error_of([&] { c10d::ProcessGroupGloo(store, 0, 2, null_device); }),
            "ProcessGroupGloo: options->devices[0] is null");
  EXPECT_EQ(
      error_of([] { c10d::ProcessGroupGloo::createDeviceForHostname("no-such-host.invalid"); }),
      "Cannot resolve no-such-host.invalid to a (local) address");
  // A rank whose peers never come: the store's wait times out.
  const std::string alone = error_of([&] { c10d::ProcessGroupGloo(store, 0, 2, opts); });
  EXPECT_EQ(alone.rfind("Wait timeout", 0), 0u) << alone;
}

TEST(GlooErrors, ACollectiveOneRankSkipsTimesOut) {
  std::atomic<bool> done{false};
  run_ranks(
      2,
      [&](int rank, const PG& pg) {
        if (rank != 0) {
          // Alive and connected, but never joining: rank 0's collective times out. (A rank
          // that left would close its connections, failing rank 0 at once instead.)
          while (!done) std::this_thread::sleep_for(std::chrono::milliseconds(5));
          return;
        }
        std::vector<at::Tensor> t{at::ones({4})};
        c10d::AllreduceOptions opts;
        opts.timeout = std::chrono::milliseconds(300);
        auto work = pg->allreduce(t, opts);
        const auto start = std::chrono::steady_clock::now();
        const std::string msg = error_of([&] { work->wait(); });
        const auto took = std::chrono::steady_clock::now() - start;
        done = true;
        EXPECT_NE(msg.find("Gloo failed: "), std::string::npos) << msg;
        EXPECT_NE(msg.find("Timed out waiting 300ms"), std::string::npos) << msg;
        EXPECT_LT(took, std::chrono::seconds(5));
      },
      std::chrono::seconds(5));
}

TEST(GlooErrors, WaitWithATimeoutOnAWorkThatDoesNotFinish) {
  std::atomic<bool> checked{false};  // rank 1 joins only after rank 0 has looked
  run_ranks(
      2,
      [&](int rank, const PG& pg) {
        std::vector<at::Tensor> t{at::ones({4})};
        if (rank == 0) {
          auto work = pg->allreduce(t);
          EXPECT_EQ(error_of([&] { work->wait(std::chrono::milliseconds(100)); }),
                    "Operation timed out!");
          EXPECT_FALSE(work->isCompleted());
          EXPECT_EQ(error_of([&] { work->result(); }),
                    "Work needs to be completed before calling result(). Should call wait() "
                    "before result().");
          checked = true;
          work->wait();
          EXPECT_TRUE(at::equal(t[0], at::full({4}, 2.0)));
        } else {
          while (!checked) std::this_thread::sleep_for(std::chrono::milliseconds(5));
          pg->allreduce(t)->wait();
        }
        pg->barrier()->wait();
      },
      std::chrono::seconds(10));
}

TEST(GlooErrors, MonitoredBarrierNamesTheRanksThatDoNotArrive) {
  run_ranks(3, [](int, const PG& pg) {
    pg->monitoredBarrier();  // everyone arrives
    pg->monitoredBarrier(c10d::BarrierOptions(), /*waitAllRanks=*/true);
  });
  for (bool wait_all : {false, true}) {
    std::atomic<int> finished{0};
    run_ranks(
        3,
        [&](int rank, const PG& pg) {
          c10d::BarrierOptions opts;
          opts.timeout = std::chrono::milliseconds(300);
          if (rank == 0) {
            const std::string msg = error_of([&] { pg->monitoredBarrier(opts, wait_all); });
            const std::string expected =
                wait_all ? "[Rank 0]: Ranks 2 failed to pass monitoredBarrier in 300 ms"
                         : "[Rank 0]: Rank 2 failed to pass monitoredBarrier in 300 ms";
            EXPECT_EQ(msg.substr(0, expected.size()), expected) << msg;
          } else if (rank == 1) {
            const std::string msg = error_of([&] { pg->monitoredBarrier(opts, wait_all); });
            EXPECT_EQ(msg.rfind("Rank 1 successfully reached monitoredBarrier, but received errors "
                                "while waiting for send/recv from rank 0. Please check rank 0 logs "
                                "for faulty rank.",
                                0),
                      0u)
                << msg;
          } else {
            // Rank 2 never comes, but stays connected until the others are done.
            while (finished < 2) std::this_thread::sleep_for(std::chrono::milliseconds(5));
            return;
          }
          ++finished;
        },
        std::chrono::seconds(2));
  }
}

// Without the check, ranks disagreeing on a collective's size abort inside Gloo (as libtorch's
// do); at TORCH_DISTRIBUTED_DEBUG=DETAIL every rank gets an error naming both collectives.
TEST(GlooErrors, MismatchedCollectivesAreErrorsAtDetail) {
  c10d::setDebugLevel(c10d::DebugLevel::Detail);
  run_ranks(2, [](int rank, const PG& pg) {
    std::vector<at::Tensor> ok{at::ones({3})};
    pg->allreduce(ok)->wait();  // agreeing collectives still run
    EXPECT_TRUE(at::equal(ok[0], at::full({3}, 2.0)));
    std::vector<at::Tensor> t{at::ones({rank == 0 ? 4 : 8})};
    auto work = pg->allreduce(t);
    const std::string four =
        "CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[4], TensorDtypes=Float, "
        "TensorDeviceTypes=cpu)";
    const std::string eight =
        "CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[8], TensorDtypes=Float, "
        "TensorDeviceTypes=cpu)";
    EXPECT_EQ(error_of([&] { work->wait(); }),
              rank == 0 ? "Detected mismatch between collectives on ranks. Rank 0 is running "
                          "collective: " +
                              four + ", but Rank 1 is running collective: " + eight + "."
                        : "Detected mismatch between collectives on ranks. Rank 1 is running "
                          "collective: " +
                              eight + ", but Rank 0 is running collective: " + four + ".");
    // Different collectives altogether.
    std::vector<at::Tensor> b{at::ones({2})};
    auto other = rank == 0 ? pg->allreduce(b) : pg->broadcast(b);
    const std::string msg = error_of([&] { other->wait(); });
    EXPECT_NE(msg.find("OpType=ALLREDUCE"), std::string::npos) << msg;
    EXPECT_NE(msg.find("OpType=BROADCAST"), std::string::npos) << msg;
    // The group goes on working. (Not shown with a barrier: a barrier also waits for the works
    // still running when it is called, and may rethrow the failed one's error, as libtorch's.)
    std::vector<at::Tensor> after{at::ones({2})};
    pg->allreduce(after)->wait();
    EXPECT_TRUE(at::equal(after[0], at::full({2}, 2.0)));
  });
  c10d::setDebugLevel(c10d::DebugLevel::Off);
}

}  // namespace
