// ProcessGroupGloo's collectives, rank by rank: the values every rank ends with, for every
// dtype and reduction Gloo takes, several tensors per rank, non-contiguous tensors, and the
// Work each call returns (completion, result(), getFuture()). Ranks are threads of this
// process (GlooTestUtils.h), on loopback.
#include <gtest/gtest.h>

#include "aten/ATen.h"
#include "distributed/c10d/ProcessGroupGloo.h"
#include "tests/TestUtils.h"
#include "tests/distributed/GlooTestUtils.h"

namespace {

using gloo_test::PG;
using gloo_test::run_ranks;

at::Tensor full(at::IntArrayRef sizes, double value, at::ScalarType type = at::kFloat) {
  return at::full(sizes, value, at::TensorOptions().dtype(type));
}

void expect_equal(const at::Tensor& actual, const at::Tensor& expected, const std::string& what) {
  EXPECT_TRUE(at::equal(actual, expected)) << what << "\nactual:\n"
                                           << actual << "\nexpected:\n"
                                           << expected;
}

TEST(ProcessGroupGloo, AllreduceSumsEveryDtype) {
  run_ranks(2, [](int rank, const PG& pg) {
    EXPECT_EQ(pg->getBackendName(), "gloo");
    EXPECT_EQ(pg->getRank(), rank);
    EXPECT_EQ(pg->getSize(), 2);
    EXPECT_EQ(pg->getNumThreads(), 2);
    for (auto type : {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kChar, at::kByte,
                      at::kInt, at::kLong}) {
      std::vector<at::Tensor> t{full({3, 5}, rank + 1, type)};
      pg->allreduce(t)->wait();
      expect_equal(t[0], full({3, 5}, 3, type), std::string("sum of ") + at::toString(type));
    }
    // bool: a sum is "any".
    std::vector<at::Tensor> flags{full({4}, rank == 1, at::kBool)};
    pg->allreduce(flags)->wait();
    expect_equal(flags[0], full({4}, 1, at::kBool), "bool sum");
  });
}

TEST(ProcessGroupGloo, AllreduceAppliesEveryReduction) {
  // rank 0 holds 6, rank 1 holds 3.
  const std::vector<std::pair<c10d::ReduceOp::RedOpType, int64_t>> cases = {
      {c10d::ReduceOp::SUM, 9}, {c10d::ReduceOp::PRODUCT, 18}, {c10d::ReduceOp::MIN, 3},
      {c10d::ReduceOp::MAX, 6}, {c10d::ReduceOp::BAND, 2},     {c10d::ReduceOp::BOR, 7},
      {c10d::ReduceOp::BXOR, 5}};
  run_ranks(2, [&](int rank, const PG& pg) {
    for (const auto& c : cases) {
      for (auto type : {at::kLong, at::kInt, at::kByte}) {
        std::vector<at::Tensor> t{full({7}, rank == 0 ? 6 : 3, type)};
        c10d::AllreduceOptions opts;
        opts.reduceOp = c.first;
        pg->allreduce(t, opts)->wait();
        expect_equal(t[0], full({7}, c.second, type),
                     "op " + std::to_string(c.first) + " on " + at::toString(type));
      }
    }
    std::vector<at::Tensor> f{full({2}, rank == 0 ? -1.5 : 2.5)};
    c10d::AllreduceOptions max;
    max.reduceOp = c10d::ReduceOp::MAX;
    pg->allreduce(f, max)->wait();
    expect_equal(f[0], full({2}, 2.5), "float max");
  });
}

TEST(ProcessGroupGloo, AllreduceOverThreeRanksSeveralTensorsAndStrides) {
  run_ranks(3, [](int rank, const PG& pg) {
    // Two tensors per rank: every one of the six is summed into both.
    std::vector<at::Tensor> two{full({100}, rank), full({100}, 10 * rank)};
    pg->allreduce(two)->wait();
    expect_equal(two[0], full({100}, 33), "first of two");
    expect_equal(two[1], full({100}, 33), "second of two");
    // A transposed tensor: the sum lands at the right elements, the strides are kept.
    at::Tensor base = at::arange(12, at::TensorOptions().dtype(at::kFloat)).view({3, 4});
    std::vector<at::Tensor> t{(base * (rank + 1)).t()};
    ASSERT_FALSE(t[0].is_contiguous());
    pg->allreduce(t)->wait();
    EXPECT_EQ(t[0].strides(), (std::vector<int64_t>{1, 4}));
    expect_equal(t[0], (base * 6).t(), "transposed");
    // A slice of a larger tensor: only the slice changes.
    at::Tensor whole = full({4, 6}, 1);
    std::vector<at::Tensor> slice{whole.narrow(1, 2, 3)};
    pg->allreduce(slice)->wait();
    expect_equal(whole.narrow(1, 0, 2), full({4, 2}, 1), "outside the slice");
    expect_equal(whole.narrow(1, 2, 3), full({4, 3}, 3), "the slice");
    // A large tensor (several of Gloo's segments).
    std::vector<at::Tensor> big{full({1 << 20}, rank + 1)};
    pg->allreduce(big)->wait();
    expect_equal(big[0], full({1 << 20}, 6), "1M floats");
  });
}

TEST(ProcessGroupGloo, AllreduceCoalescedReducesEachTensor) {
  run_ranks(2, [](int rank, const PG& pg) {
    std::vector<at::Tensor> ts{full({3}, rank + 1), full({2, 2}, 10 * (rank + 1)),
                               full({5}, rank).t()};
    pg->allreduce_coalesced(ts)->wait();
    expect_equal(ts[0], full({3}, 3), "first");
    expect_equal(ts[1], full({2, 2}, 30), "second");
    expect_equal(ts[2], full({5}, 1), "third");
  });
}

TEST(ProcessGroupGloo, BroadcastFromAnyRootAndTensor) {
  run_ranks(3, [](int rank, const PG& pg) {
    std::vector<at::Tensor> t{full({4}, rank)};
    c10d::BroadcastOptions opts;
    opts.rootRank = 2;
    auto work = pg->broadcast(t, opts);
    work->wait();
    expect_equal(t[0], full({4}, 2), "from rank 2");
    EXPECT_TRUE(work->isCompleted());
    EXPECT_TRUE(work->isSuccess());
    ASSERT_EQ(work->result().size(), 1u);
    EXPECT_TRUE(work->result()[0].is_same(t[0]));
    // The root's second tensor goes to both tensors of every rank.
    std::vector<at::Tensor> two{full({2, 3}, 100 + rank), full({2, 3}, 200 + rank).t().t()};
    opts.rootRank = 1;
    opts.rootTensor = 1;
    pg->broadcast(two, opts)->wait();
    expect_equal(two[0], full({2, 3}, 201), "first tensor");
    expect_equal(two[1], full({2, 3}, 201), "second tensor");
    // Non-contiguous, logically equal everywhere.
    at::Tensor base = at::arange(6, at::TensorOptions().dtype(at::kDouble)).view({2, 3});
    std::vector<at::Tensor> nc{rank == 0 ? base.t() : at::zeros({3, 2}, at::kDouble)};
    opts.rootRank = 0;
    opts.rootTensor = 0;
    pg->broadcast(nc, opts)->wait();
    expect_equal(nc[0], base.t(), "transposed");
  });
}

TEST(ProcessGroupGloo, ReduceToTheRootOnly) {
  run_ranks(2, [](int rank, const PG& pg) {
    std::vector<at::Tensor> t{full({3}, rank == 0 ? 5 : 3)};
    c10d::ReduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::MAX;
    opts.rootRank = 1;
    pg->reduce(t, opts)->wait();
    if (rank == 1) expect_equal(t[0], full({3}, 5), "the root");
    std::vector<at::Tensor> s{full({3}, rank + 1, at::kLong)};
    pg->reduce(s)->wait();  // SUM to rank 0
    if (rank == 0) expect_equal(s[0], full({3}, 3, at::kLong), "sum at rank 0");
  });
}

TEST(ProcessGroupGloo, AllgatherGivesEveryRankEveryInput) {
  run_ranks(3, [](int rank, const PG& pg) {
    std::vector<at::Tensor> in{full({2, 2}, rank)};
    std::vector<std::vector<at::Tensor>> out{
        {at::zeros({2, 2}), at::zeros({2, 2}).t(), at::zeros({2, 2})}};
    auto work = pg->allgather(out, in);
    work->wait();
    for (int r = 0; r < 3; ++r)
      expect_equal(out[0][r], full({2, 2}, r), "from rank " + std::to_string(r));
    ASSERT_EQ(work->result().size(), 3u);
    EXPECT_TRUE(work->result()[1].is_same(out[0][1]));
    // The future holds the outputs.
    auto future = work->getFuture();
    EXPECT_TRUE(future->completed());
    EXPECT_EQ(future->value().toTensorList().size(), 3u);
    // allgather_coalesced: a list of tensors of different sizes and types from every rank.
    std::vector<at::Tensor> list{full({1}, rank), full({2}, 10 * rank, at::kLong)};
    std::vector<std::vector<at::Tensor>> lists;
    for (int r = 0; r < 3; ++r) lists.push_back({at::zeros({1}), at::zeros({2}, at::kLong)});
    auto coalesced = pg->allgather_coalesced(lists, list);
    coalesced->wait();
    for (int r = 0; r < 3; ++r) {
      expect_equal(lists[r][0], full({1}, r), "coalesced float");
      expect_equal(lists[r][1], full({2}, 10 * r, at::kLong), "coalesced long");
    }
    EXPECT_EQ(test_util::error_of([&] { coalesced->result(); }),
              "work result does not support list of lists, use .getFuture() and value()");
  });
}

TEST(ProcessGroupGloo, GatherAndScatterThroughTheRoot) {
  run_ranks(3, [](int rank, const PG& pg) {
    std::vector<at::Tensor> in{full({3}, rank + 1)};
    std::vector<std::vector<at::Tensor>> out;
    if (rank == 1) out = {{at::zeros({3}), at::zeros({3}), at::zeros({3})}};
    c10d::GatherOptions g;
    g.rootRank = 1;
    auto work = pg->gather(out, in, g);
    work->wait();
    if (rank == 1) {
      for (int r = 0; r < 3; ++r) expect_equal(out[0][r], full({3}, r + 1), "gathered");
      EXPECT_EQ(work->result().size(), 3u);
    } else {
      EXPECT_EQ(work->result().size(), 0u);
    }
    std::vector<at::Tensor> mine{at::zeros({2, 2}).t()};
    std::vector<std::vector<at::Tensor>> all;
    if (rank == 0) all = {{full({2, 2}, 7), full({2, 2}, 8), full({2, 2}, 9)}};
    pg->scatter(mine, all)->wait();
    expect_equal(mine[0], full({2, 2}, 7 + rank), "scattered");
  });
}

TEST(ProcessGroupGloo, AlltoallBaseSplitsEquallyOrBySizes) {
  run_ranks(2, [](int rank, const PG& pg) {
    // Equal split: rows 0-1 to rank 0, rows 2-3 to rank 1.
    at::Tensor in = at::arange(4, at::TensorOptions().dtype(at::kFloat)) + 10 * rank;
    at::Tensor out = at::zeros({4});
    std::vector<int64_t> none;
    pg->alltoall_base(out, in, none, none)->wait();
    const std::vector<double> expected =
        rank == 0 ? std::vector<double>{0, 1, 10, 11} : std::vector<double>{2, 3, 12, 13};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i].item<float>(), expected[i]) << "rank " << rank;
    // Uneven: rank 0 sends 1 row to itself and 2 to rank 1; rank 1 sends 3 rows to 0, 1 to itself.
    at::Tensor in2 = full({rank == 0 ? 3 : 4, 2}, rank + 1, at::kLong);
    std::vector<int64_t> in_splits =
        rank == 0 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{3, 1};
    std::vector<int64_t> out_splits =
        rank == 0 ? std::vector<int64_t>{1, 3} : std::vector<int64_t>{2, 1};
    at::Tensor out2 = at::zeros({rank == 0 ? 4 : 3, 2}, at::kLong);
    pg->alltoall_base(out2, in2, out_splits, in_splits)->wait();
    if (rank == 0) {
      expect_equal(out2.narrow(0, 0, 1), full({1, 2}, 1, at::kLong), "from itself");
      expect_equal(out2.narrow(0, 1, 3), full({3, 2}, 2, at::kLong), "from rank 1");
    } else {
      expect_equal(out2.narrow(0, 0, 2), full({2, 2}, 1, at::kLong), "from rank 0");
      expect_equal(out2.narrow(0, 2, 1), full({1, 2}, 2, at::kLong), "from itself");
    }
  });
}

TEST(ProcessGroupGloo, BarrierSendAndRecv) {
  run_ranks(3, [](int rank, const PG& pg) {
    auto barrier = pg->barrier();
    barrier->wait();
    EXPECT_TRUE(barrier->result().empty());
    if (rank == 0) {
      std::vector<at::Tensor> t{full({5}, 42)};
      auto work = pg->send(t, 2, /*tag=*/7);
      EXPECT_TRUE(work->wait());
      EXPECT_EQ(work->retrieveOpType(), c10d::OpType::SEND);
      EXPECT_EQ(test_util::error_of([&] { work->sourceRank(); }),
                "sourceRank() may only be called on work objects that correspond to a recv or "
                "recv-from-any call.");
    } else if (rank == 2) {
      std::vector<at::Tensor> t{at::zeros({5})};
      auto work = pg->recv(t, 0, 7);
      work->wait();
      expect_equal(t[0], full({5}, 42), "received");
      EXPECT_EQ(work->sourceRank(), 0);
      EXPECT_TRUE(work->wait());  // again: answered by the finished Work
      EXPECT_TRUE(work->isCompleted());
      // From whichever rank sends: rank 1.
      std::vector<at::Tensor> any{at::zeros({2}, at::kLong)};
      auto from_any = pg->recvAnysource(any, 3);
      from_any->wait();
      EXPECT_EQ(from_any->sourceRank(), 1);
      expect_equal(any[0], full({2}, 9, at::kLong), "from any source");
    }
    if (rank == 1) {
      std::vector<at::Tensor> t{full({2}, 9, at::kLong)};
      pg->send(t, 2, 3)->wait();
    }
    pg->barrier()->wait();
  });
}

TEST(ProcessGroupGloo, AWorldOfOne) {
  run_ranks(1, [](int, const PG& pg) {
    std::vector<at::Tensor> t{full({3}, 4)};
    pg->allreduce(t)->wait();
    expect_equal(t[0], full({3}, 4), "alone");
    pg->barrier()->wait();
    EXPECT_EQ(test_util::error_of([&] { pg->recvAnysource(t, 0); }),
              "ProcessGroupGloo::recvAnysource: no other rank to receive from in a world of size "
              "1");
  });
}

TEST(ProcessGroupGloo, CollectivesQueuedBackToBackCompleteInOrder) {
  // Many collectives in flight at once on two worker threads: tags keep them apart.
  run_ranks(2, [](int rank, const PG& pg) {
    std::vector<std::vector<at::Tensor>> tensors;
    std::vector<c10::intrusive_ptr<c10d::Work>> works;
    for (int i = 0; i < 32; ++i) {
      tensors.push_back({full({1000}, i + rank)});
      works.push_back(pg->allreduce(tensors.back()));
    }
    for (int i = 0; i < 32; ++i) {
      works[i]->wait();
      expect_equal(tensors[i][0], full({1000}, 2 * i + 1), "collective " + std::to_string(i));
    }
  });
}

TEST(ProcessGroupGloo, SequenceNumbersAgreeAndCountTheCollectives) {
  // Each rank's numbers at three points; the ranks must agree at each.
  std::vector<std::vector<uint64_t>> seen(3);
  run_ranks(3, [&](int rank, const PG& pg) {
    EXPECT_EQ(pg->getSequenceNumberForGroup(), 0u);  // before any is set
    pg->setSequenceNumberForGroup();
    const uint64_t start = pg->getSequenceNumberForGroup();
    EXPECT_GT(start, 0u);
    std::vector<at::Tensor> t{full({4}, rank)};
    pg->allreduce(t)->wait();
    pg->broadcast(t)->wait();
    pg->barrier()->wait();
    std::vector<std::vector<at::Tensor>> all{{full({4}, 0), full({4}, 0), full({4}, 0)}};
    pg->allgather(all, t)->wait();
    const uint64_t after_collectives = pg->getSequenceNumberForGroup();
    EXPECT_EQ(after_collectives - start, 4u);
    // send, recv and monitoredBarrier are not collectives of the queue: no count.
    if (rank == 0) pg->send(t, 1, 0)->wait();
    if (rank == 1) pg->recv(t, 0, 0)->wait();
    pg->monitoredBarrier(c10d::BarrierOptions(), true);
    EXPECT_EQ(pg->getSequenceNumberForGroup(), after_collectives);
    seen[rank] = {start, after_collectives};
  });
  EXPECT_EQ(seen[1], seen[0]);
  EXPECT_EQ(seen[2], seen[0]);
}

TEST(ProcessGroupGloo, TheSequenceNumberTravelsThroughTheStore) {
  auto store = c10::make_intrusive<c10d::HashStore>();
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(
      store, 0, 1, gloo_test::loopback_options(std::chrono::seconds(20)));
  EXPECT_FALSE(store->check({"SEQ_NUM_STORE_KEY"}));
  pg->setSequenceNumberForGroup();
  const std::vector<uint8_t> bytes = store->get("SEQ_NUM_STORE_KEY");
  EXPECT_EQ(bytes.size(), 8u);  // libtorch's kBytes, least significant first
  EXPECT_EQ(c10d::fromVec(bytes), pg->getSequenceNumberForGroup());
  // A second call picks a new start (rank 0 overwrites the key).
  std::vector<at::Tensor> t{full({2}, 1)};
  pg->allreduce(t)->wait();
  pg->setSequenceNumberForGroup();
  EXPECT_EQ(c10d::fromVec(store->get("SEQ_NUM_STORE_KEY")), pg->getSequenceNumberForGroup());
}

}  // namespace
