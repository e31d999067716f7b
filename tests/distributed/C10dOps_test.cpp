// The collectives as dispatcher operators: libtorch 1.13's schemas (read off its dispatcher),
// the kernels each registers, the process group, reduction and Work passing through the
// dispatcher as custom-class objects, and c10d::ops:: calls running the group's collectives.
#include <gtest/gtest.h>

#include <algorithm>

#include "aten/ATen.h"
#include "dispatcher/Dispatcher.h"
#include "distributed/c10d/Ops.h"
#include "tests/TestUtils.h"
#include "tests/distributed/GlooTestUtils.h"

namespace {

using gloo_test::PG;
using gloo_test::run_ranks;
using test_util::error_of;

std::string schema_of(const char* name) {
  return test_util::printed(c10::Dispatcher::singleton().findSchemaOrThrow(name, "").schema());
}

TEST(C10dOps, SchemasAreLibtorchs) {
  const std::string pg = "__torch__.torch.classes.c10d.ProcessGroup";
  const std::string op = "__torch__.torch.classes.c10d.ReduceOp";
  const std::string work = "__torch__.torch.classes.c10d.Work";
  EXPECT_EQ(schema_of("c10d::allreduce_"), "c10d::allreduce_(Tensor[] _0, " + pg + " _1, " + op +
                                               " _2, int _3) -> (Tensor[] _0, " + work + " _1)");
  EXPECT_EQ(schema_of("c10d::broadcast_"), "c10d::broadcast_(Tensor[] _0, " + pg +
                                               " _1, int _2, int _3, int _4) -> (Tensor[] _0, " +
                                               work + " _1)");
  EXPECT_EQ(schema_of("c10d::allgather_"), "c10d::allgather_(Tensor[][] _0, Tensor[] _1, " + pg +
                                               " _2, int _3) -> (Tensor[][] _0, " + work + " _1)");
  EXPECT_EQ(schema_of("c10d::reduce_scatter_"),
            "c10d::reduce_scatter_(Tensor[] _0, Tensor[][] _1, " + pg + " _2, " + op +
                " _3, int _4) -> (Tensor[] _0, " + work + " _1)");
  EXPECT_EQ(schema_of("c10d::reduce_"), "c10d::reduce_(Tensor[] _0, " + pg + " _1, " + op +
                                            " _2, int _3, int _4, int _5) -> " + work + " _0");
  EXPECT_EQ(schema_of("c10d::gather_"), "c10d::gather_(Tensor[][] _0, Tensor[] _1, " + pg +
                                            " _2, int _3, int _4) -> " + work + " _0");
  EXPECT_EQ(schema_of("c10d::scatter_"), "c10d::scatter_(Tensor[] _0, Tensor[][] _1, " + pg +
                                             " _2, int _3, int _4) -> (Tensor[] _0, " + work +
                                             " _1)");
  EXPECT_EQ(schema_of("c10d::alltoall_"),
            "c10d::alltoall_(Tensor[] _0, Tensor[] _1, " + pg + " _2, int _3) -> " + work + " _0");
  EXPECT_EQ(schema_of("c10d::barrier"),
            "c10d::barrier(" + pg + " _0, int[] _1, int _2) -> " + work + " _0");
  EXPECT_EQ(schema_of("c10d::send"),
            "c10d::send(Tensor[] _0, " + pg + " _1, int _2, int _3) -> " + work + " _0");
  EXPECT_EQ(schema_of("c10d::recv_"),
            "c10d::recv_(Tensor[] _0, " + pg + " _1, int _2, int _3) -> " + work + " _0");
}

TEST(C10dOps, KernelsAreRegisteredForTheKeysLibtorchUses) {
  auto& d = c10::Dispatcher::singleton();
  for (const char* name : {"c10d::allreduce_", "c10d::broadcast_", "c10d::send", "c10d::recv_"}) {
    const std::string state = d.findSchemaOrThrow(name, "").dumpState();
    EXPECT_NE(state.find("\nCPU: "), std::string::npos) << state;
    EXPECT_NE(state.find("\nCUDA: "), std::string::npos) << state;
    EXPECT_NE(state.find("\nCompositeExplicitAutograd: "), std::string::npos) << state;
  }
  for (const char* name : {"c10d::allgather_", "c10d::reduce_", "c10d::gather_", "c10d::scatter_",
                           "c10d::alltoall_", "c10d::barrier", "c10d::reduce_scatter_"}) {
    const std::string state = d.findSchemaOrThrow(name, "").dumpState();
    EXPECT_EQ(state.find("\nCPU: "), std::string::npos) << state;
    EXPECT_NE(state.find("\nCompositeExplicitAutograd: "), std::string::npos) << state;
  }
  // barrier has no tensor to dispatch on: its Undefined entry is the composite kernel.
  const std::string table = d.findSchemaOrThrow("c10d::barrier", "").dumpComputedTable();
  EXPECT_NE(table.find("Undefined: "), std::string::npos) << table;
}

TEST(C10dOps, CollectivesThroughTheDispatcher) {
  run_ranks(2, [](int rank, const PG& gloo) {
    const c10::intrusive_ptr<c10d::ProcessGroup> pg = gloo;
    at::Tensor t = at::full({3}, rank + 1.0);
    c10d::ops::allreduce(pg, {t})->wait();
    EXPECT_TRUE(at::equal(t, at::full({3}, 3.0)));

    c10d::AllreduceOptions max;
    max.reduceOp = c10d::ReduceOp::MAX;
    at::Tensor m = at::full({2}, rank == 0 ? 7.0 : 2.0);
    c10d::ops::allreduce(pg, {m}, max)->wait();
    EXPECT_TRUE(at::equal(m, at::full({2}, 7.0)));

    at::Tensor b = at::full({2}, rank * 10.0);
    c10d::BroadcastOptions from1;
    from1.rootRank = 1;
    c10d::ops::broadcast(pg, {b}, from1)->wait();
    EXPECT_TRUE(at::equal(b, at::full({2}, 10.0)));

    std::vector<std::vector<at::Tensor>> gathered{{at::zeros({2}), at::zeros({2})}};
    c10d::ops::allgather(pg, gathered, {at::full({2}, rank + 0.0)})->wait();
    EXPECT_TRUE(at::equal(gathered[0][1], at::full({2}, 1.0)));

    at::Tensor r = at::full({2}, rank + 1.0);
    c10d::ops::reduce(pg, {r})->wait();
    if (rank == 0) {
      EXPECT_TRUE(at::equal(r, at::full({2}, 3.0)));
    }

    std::vector<std::vector<at::Tensor>> to_root;
    if (rank == 0) to_root = {{at::zeros({1}), at::zeros({1})}};
    c10d::ops::gather(pg, to_root, {at::full({1}, rank + 5.0)})->wait();
    if (rank == 0) {
      EXPECT_TRUE(at::equal(to_root[0][1], at::full({1}, 6.0)));
    }

    at::Tensor piece = at::zeros({1});
    std::vector<std::vector<at::Tensor>> pieces;
    if (rank == 0) pieces = {{at::full({1}, 8.0), at::full({1}, 9.0)}};
    c10d::ops::scatter(pg, {piece}, pieces)->wait();
    EXPECT_TRUE(at::equal(piece, at::full({1}, 8.0 + rank)));

    c10d::ops::barrier(pg)->wait();
    if (rank == 0) {
      c10d::ops::send(pg, {at::full({2}, 4.0)}, 1, 0)->wait();
    } else {
      at::Tensor got = at::zeros({2});
      c10d::ops::recv(pg, {got}, 0, 0)->wait();
      EXPECT_TRUE(at::equal(got, at::full({2}, 4.0)));
    }
    EXPECT_EQ(error_of([&] { c10d::ops::send(pg, {at::zeros({2})}, int64_t(1) << 40, 0); }),
              "dstRank 1099511627776 is out of range");
    EXPECT_EQ(error_of([&] { c10d::ops::alltoall(pg, {at::zeros({2})}, {at::zeros({2})}); }),
              "ProcessGroup gloo does not support alltoall");
    EXPECT_EQ(error_of([&] { c10d::ops::reduce_scatter(pg, {at::zeros({2})}, {}); }),
              "ProcessGroupGloo does not support reduce_scatter");
  });
}

TEST(C10dOps, BoxedCallsPassTheGroupAsACustomClass) {
  run_ranks(2, [](int rank, const PG& gloo) {
    const c10::intrusive_ptr<c10d::ProcessGroup> pg = gloo;
    auto op = c10::Dispatcher::singleton().findSchemaOrThrow("c10d::allreduce_", "");
    at::Tensor t = at::full({2}, rank + 1.0);
    torch::jit::Stack stack{c10::IValue(std::vector<at::Tensor>{t}), c10::IValue(pg),
                            c10::IValue(c10::make_intrusive<c10d::ReduceOp>(c10d::ReduceOp::SUM)),
                            c10::IValue(int64_t(-1))};
    EXPECT_EQ(stack[1].type()->str(), "__torch__.torch.classes.c10d.ProcessGroup");
    op.callBoxed(&stack);
    ASSERT_EQ(stack.size(), 2u);
    EXPECT_TRUE(stack[0].toTensorList()[0].is_same(t));
    auto work = stack[1].toCustomClass<c10d::Work>();
    // Work's wait() is a method of the bound class, as TorchScript would call it.
    auto cls = c10::getCustomClassType<c10::intrusive_ptr<c10d::Work>>();
    cls->getMethod("wait")({stack[1]});
    EXPECT_TRUE(work->isCompleted());
    EXPECT_TRUE(at::equal(t, at::full({2}, 3.0)));
  });
}

}  // namespace
