// DistributedDataParallel over Gloo, ranks as threads: gradients averaged across ranks,
// parameters taken from rank 0, buckets of libtorch's shape, an allreduce started while backward
// is still running, no_sync() accumulation, the errors for replicas that disagree or a
// parameter left out of the loss, and find_unused_parameters.
#include <gtest/gtest.h>

#include "aten/ATen.h"
#include "aten/autograd/GradMode.h"
#include "distributed/c10d/DistributedDataParallel.h"
#include "tests/TestUtils.h"
#include "tests/distributed/GlooTestUtils.h"

namespace {

using gloo_test::PG;
using gloo_test::run_ranks;
using test_util::error_of;

at::Tensor leaf(at::IntArrayRef sizes, double value) {
  return at::full(sizes, value).requires_grad_();
}

TEST(DistributedDataParallel, AveragesGradientsAndStartsFromRankZero) {
  run_ranks(3, [](int rank, const PG& pg) {
    // Different starting values: rank 0's win.
    at::Tensor w = leaf({4}, 1.0 + rank);
    at::Tensor b = leaf({1}, 10.0 * rank);
    c10d::DistributedDataParallel ddp({w, b}, pg);
    EXPECT_TRUE(at::equal(w.detach(), at::full({4}, 1.0)));
    EXPECT_TRUE(at::equal(b.detach(), at::full({1}, 0.0)));
    // Each rank's data: x = rank + 1; d/dw sum(w * x + b) = x, d/db = 4.
    at::Tensor x = at::full({4}, rank + 1.0);
    (w * x + b).sum().backward();
    EXPECT_TRUE(at::allclose(w.grad(), at::full({4}, 2.0))) << w.grad();  // mean of 1, 2, 3
    EXPECT_TRUE(at::allclose(b.grad(), at::full({1}, 4.0))) << b.grad();
    EXPECT_EQ(ddp.buckets_launched(), 1);
    // A second step: the gradients are zeroed by the user, averaged again.
    w.mutable_grad().zero_();
    b.mutable_grad().zero_();
    (w * x * 2 + b).sum().backward();
    EXPECT_TRUE(at::allclose(w.grad(), at::full({4}, 4.0))) << w.grad();
    EXPECT_TRUE(at::allclose(b.grad(), at::full({1}, 4.0))) << b.grad();
  });
}

TEST(DistributedDataParallel, BucketsTakeParametersInReverseUpToTheCaps) {
  run_ranks(2, [](int, const PG& pg) {
    // Six parameters of 1000 floats (4000 bytes); a 4 KB first bucket, 8 KB after; a double
    // parameter in a bucket of its own dtype.
    std::vector<at::Tensor> params;
    for (int i = 0; i < 6; ++i) params.push_back(leaf({1000}, 1.0));
    params.push_back(at::ones({10}, at::kDouble).requires_grad_());
    c10d::DDPOptions options;
    options.first_bucket_bytes = 4000;
    options.bucket_bytes = 8000;
    c10d::DistributedDataParallel ddp(params, pg, options);
    EXPECT_EQ(ddp.bucket_indices(),
              (std::vector<std::vector<size_t>>{{6}, {5}, {4, 3}, {2, 1}, {0}}));
  });
}

TEST(DistributedDataParallel, AnAllreduceStartsBeforeBackwardEnds) {
  run_ranks(2, [](int rank, const PG& pg) {
    // A chain of four layers: the last layer's gradients are ready first, the first layer's
    // last. With 4 KB buckets each layer's weight is a bucket of its own.
    std::vector<at::Tensor> weights;
    for (int i = 0; i < 4; ++i) weights.push_back(leaf({32, 32}, 0.01 * (i + 1)));
    c10d::DDPOptions options;
    options.first_bucket_bytes = 4096;
    options.bucket_bytes = 4096;
    c10d::DistributedDataParallel ddp(weights, pg, options);
    ASSERT_EQ(ddp.bucket_indices().size(), 4u);
    // Seen when the first layer's gradient arrives, before it is accumulated: the buckets of
    // the three later layers have been launched already.
    int64_t launched_before_last = -1;
    weights[0].register_hook(
        [&](const at::Tensor&) { launched_before_last = ddp.buckets_launched(); });
    at::Tensor h = at::full({1, 32}, rank + 1.0);
    for (const auto& w : weights) h = at::tanh(at::mm(h, w));
    h.sum().backward();
    EXPECT_EQ(launched_before_last, 3);
    EXPECT_EQ(ddp.buckets_launched(), 4);
    // And the result is the average of the two ranks' gradients.
    std::vector<at::Tensor> local;
    {
      at::Tensor h0 = at::full({1, 32}, rank + 1.0);
      std::vector<at::Tensor> copies;
      for (const auto& w : weights) copies.push_back(w.detach().clone().requires_grad_());
      for (const auto& w : copies) h0 = at::tanh(at::mm(h0, w));
      h0.sum().backward();
      for (const auto& w : copies) local.push_back(w.grad());
    }
    for (size_t i = 0; i < weights.size(); ++i) {
      std::vector<at::Tensor> t{local[i].clone()};
      pg->allreduce(t)->wait();
      EXPECT_TRUE(at::allclose(weights[i].grad(), t[0] / 2, 1e-5, 1e-6)) << "layer " << i;
    }
  });
}

TEST(DistributedDataParallel, NoSyncAccumulatesLocally) {
  run_ranks(2, [](int rank, const PG& pg) {
    at::Tensor w = leaf({3}, 1.0);
    c10d::DistributedDataParallel ddp({w}, pg);
    const double x1 = rank + 1.0, x2 = 10.0 * (rank + 1);
    {
      auto guard = ddp.no_sync();
      (w * x1).sum().backward();
    }
    EXPECT_TRUE(at::equal(w.grad(), at::full({3}, x1)));  // local only
    EXPECT_EQ(ddp.buckets_launched(), 0);
    (w * x2).sum().backward();
    // The average of (x1 + x2) over the ranks: (1 + 10 + 2 + 20) / 2.
    EXPECT_TRUE(at::allclose(w.grad(), at::full({3}, 16.5))) << w.grad();
  });
}

TEST(DistributedDataParallel, ReplicasThatDisagreeAndUnusedParameters) {
  run_ranks(2, [](int rank, const PG& pg) {
    std::vector<at::Tensor> params{leaf({2}, 1.0)};
    if (rank == 1) params.push_back(leaf({2}, 1.0));
    const std::string msg = error_of([&] { c10d::DistributedDataParallel ddp(params, pg); });
    EXPECT_EQ(msg, rank == 0 ? "DDP expects same model across all ranks, but Rank 0 has 1 params, "
                               "while rank 1 has inconsistent 2 params."
                             : "DDP expects same model across all ranks, but Rank 1 has 2 params, "
                               "while rank 0 has inconsistent 1 params.");
  });
  run_ranks(2, [](int, const PG& pg) {
    at::Tensor used = leaf({2}, 1.0), unused = leaf({2}, 1.0);
    c10d::DDPOptions options;
    options.first_bucket_bytes = 4;  // one bucket each
    options.bucket_bytes = 4;
    c10d::DistributedDataParallel ddp({used, unused}, pg, options);
    EXPECT_EQ(error_of([&] { (used * 2).sum().backward(); }),
              "DistributedDataParallel: parameters 1 received no gradient in this backward pass. "
              "Every parameter must take part in producing the loss on every rank, or "
              "DDPOptions::find_unused_parameters must be set (with "
              "prepare_for_backward(outputs) after each forward pass).");
  });
  EXPECT_EQ(error_of([] {
              c10d::DistributedDataParallel ddp({}, c10::intrusive_ptr<c10d::ProcessGroup>());
            }),
            "DistributedDataParallel: no process group");
}

TEST(DistributedDataParallel, ABackwardThatThrowsMidwayLeavesTheNextOneWhole) {
  run_ranks(2, [](int rank, const PG& pg) {
    at::Tensor a = leaf({3}, 1.0), b = leaf({3}, 1.0);
    c10d::DDPOptions options;
    options.first_bucket_bytes = 4;  // one bucket each
    options.bucket_bytes = 4;
    c10d::DistributedDataParallel ddp({a, b}, pg, options);
    // b's product is made after a's, so backward reaches b first: its gradient is stored and
    // its bucket launched; then a's hook throws, and backward ends without DDP's final callback.
    bool fail = true;
    a.register_hook([&](const at::Tensor&) { TORCH_CHECK(!fail, "a hook failed"); });
    const double x = rank + 1.0;
    auto loss = [&] {
      const at::Tensor ta = a * x;
      const at::Tensor tb = b * x;
      return (ta + tb).sum();
    };
    EXPECT_EQ(error_of([&] { loss().backward(); }), "a hook failed");
    EXPECT_EQ(ddp.buckets_launched(), 1);
    // The next backward is a round of its own: averaged, not "ready only once".
    fail = false;
    a.mutable_grad() = at::Tensor();  // a never got its gradient, b did
    b.mutable_grad() = at::Tensor();
    loss().backward();
    EXPECT_TRUE(at::allclose(a.grad(), at::full({3}, 1.5))) << a.grad();
    EXPECT_TRUE(at::allclose(b.grad(), at::full({3}, 1.5))) << b.grad();
  });
}

c10d::DDPOptions finding_unused(bool bucket_each) {
  c10d::DDPOptions options;
  options.find_unused_parameters = true;
  if (bucket_each) {
    options.first_bucket_bytes = 4;
    options.bucket_bytes = 4;
  }
  return options;
}

TEST(DistributedDataParallel, UnusedParametersGetTheAverageOfWhatSomeRankUsed) {
  for (bool bucket_each : {false, true}) {
    SCOPED_TRACE(bucket_each ? "a bucket each" : "one bucket");
    run_ranks(2, [&](int rank, const PG& pg) {
      // a: used by both ranks; b: by rank 0 only; c: by neither.
      at::Tensor a = leaf({3}, 1.0), b = leaf({2}, 1.0), c = leaf({4}, 1.0);
      c10d::DistributedDataParallel ddp({a, b, c}, pg, finding_unused(bucket_each));
      const double x = rank + 1.0;
      at::Tensor loss = (a * x).sum();
      if (rank == 0) loss = loss + (b * 3).sum();
      ddp.prepare_for_backward({loss});
      const std::vector<size_t> expected_unused =
          rank == 0 ? std::vector<size_t>{2} : std::vector<size_t>{1, 2};
      EXPECT_EQ(ddp.unused_parameters(), expected_unused);
      loss.backward();
      EXPECT_TRUE(at::allclose(a.grad(), at::full({3}, 1.5))) << a.grad();
      // Rank 1 had no gradient for b: it took part with zeros and now holds the average.
      ASSERT_TRUE(b.grad().defined());
      EXPECT_TRUE(at::allclose(b.grad(), at::full({2}, 1.5))) << b.grad();
      EXPECT_FALSE(c.grad().defined());  // no rank used it: left alone
      EXPECT_EQ(ddp.buckets_launched(), static_cast<int64_t>(ddp.bucket_indices().size()));
      // A second step where nobody uses b, whose gradients now differ by rank: each keeps its
      // own (an average would make them equal).
      a.mutable_grad().zero_();
      b.mutable_grad().fill_(rank + 1.0);
      at::Tensor loss2 = (a * x).sum();
      ddp.prepare_for_backward({loss2});
      loss2.backward();
      EXPECT_TRUE(at::allclose(a.grad(), at::full({3}, 1.5))) << a.grad();
      EXPECT_TRUE(at::equal(b.grad(), at::full({2}, rank + 1.0))) << b.grad();
      EXPECT_FALSE(c.grad().defined());
    });
  }
}

TEST(DistributedDataParallel, AGradientMadeForAParameterUnusedHereHasItsStrides) {
  run_ranks(2, [](int rank, const PG& pg) {
    // A transposed parameter that only rank 0 uses: rank 1's new .grad() keeps its strides.
    at::Tensor w = at::ones({3, 2}).t().requires_grad_();
    at::Tensor other = leaf({1}, 1.0);
    c10d::DistributedDataParallel ddp({w, other}, pg, finding_unused(false));
    at::Tensor loss = (other * 1).sum();
    if (rank == 0) loss = loss + (w * 4).sum();
    ddp.prepare_for_backward({loss});
    loss.backward();
    ASSERT_TRUE(w.grad().defined());
    EXPECT_EQ(w.grad().strides(), w.strides());
    EXPECT_TRUE(at::equal(w.grad(), at::full({2, 3}, 2.0))) << w.grad();
  });
}

TEST(DistributedDataParallel, UseUnderNoSyncCountsAsUse) {
  run_ranks(2, [](int rank, const PG& pg) {
    at::Tensor a = leaf({2}, 1.0), b = leaf({2}, 1.0);
    c10d::DistributedDataParallel ddp({a, b}, pg, finding_unused(false));
    {
      // Rank 1 uses b in an accumulating step; nobody uses it in the synchronised one.
      auto guard = ddp.no_sync();
      at::Tensor loss = (a * 1).sum();
      if (rank == 1) loss = loss + (b * 3).sum();
      loss.backward();
    }
    at::Tensor loss = (a * 1).sum();
    ddp.prepare_for_backward({loss});
    loss.backward();
    EXPECT_TRUE(at::allclose(a.grad(), at::full({2}, 2.0))) << a.grad();
    // b's accumulated gradients, 0 on rank 0 and 3 on rank 1, are averaged.
    ASSERT_TRUE(b.grad().defined());
    EXPECT_TRUE(at::allclose(b.grad(), at::full({2}, 1.5))) << b.grad();
  });
}

TEST(DistributedDataParallel, FindingUnusedParametersNeedsTheOutputs) {
  run_ranks(2, [](int, const PG& pg) {
    at::Tensor a = leaf({2}, 1.0), b = leaf({2}, 1.0);
    c10d::DistributedDataParallel ddp({a, b}, pg, finding_unused(true));
    // No prepare_for_backward(): refused before any collective.
    EXPECT_EQ(error_of([&] { (a * 2).sum().backward(); }),
              "DistributedDataParallel: find_unused_parameters is set, so "
              "prepare_for_backward(outputs) must be called after each forward pass, before its "
              "backward.");
    EXPECT_EQ(ddp.buckets_launched(), 0);
    // The outputs given are not those of the loss: b looked unused but got a gradient.
    a.mutable_grad() = at::Tensor();
    at::Tensor only_a = (a * 2).sum();
    ddp.prepare_for_backward({only_a});
    EXPECT_EQ(error_of([&] { (only_a + (b * 2).sum()).backward(); }),
              "Expected to mark a variable ready only once. Parameter 1 received a gradient "
              "twice in one backward pass (it is shared, or used in a reentrant backward, or "
              "prepare_for_backward() was not given the outputs the loss is computed from).");
    // The round was abandoned; a proper step works.
    a.mutable_grad() = at::Tensor();
    b.mutable_grad() = at::Tensor();
    at::Tensor loss = (a * 2).sum() + (b * 4).sum();
    ddp.prepare_for_backward({loss});
    EXPECT_TRUE(ddp.unused_parameters().empty());
    loss.backward();
    EXPECT_TRUE(at::allclose(b.grad(), at::full({2}, 4.0))) << b.grad();
  });
}

TEST(DistributedDataParallel, NothingUnusedWarns) {
  run_ranks(1, [](int, const PG& pg) {
    at::Tensor a = leaf({2}, 1.0);
    c10d::DistributedDataParallel ddp({a}, pg, finding_unused(false));
    at::Tensor loss = (a * 2).sum();
    test_util::CapturedWarnings warnings;
    {
      c10::WarningUtils::WarningHandlerGuard capture(&warnings);
      c10::WarningUtils::WarnAlways always;
      ddp.prepare_for_backward({loss});
    }
    ASSERT_EQ(warnings.messages.size(), 1u);
    EXPECT_EQ(warnings.messages[0].rfind("find_unused_parameters=True was specified in DDP "
                                         "constructor, but did not find any unused parameters",
                                         0),
              0u)
        << warnings.messages[0];
    // A parameter given as an output is used (backward accumulates into it directly).
    ddp.prepare_for_backward({a});
    EXPECT_TRUE(ddp.unused_parameters().empty());
    // Without find_unused_parameters prepare_for_backward() has nothing to find.
    c10d::DistributedDataParallel plain({leaf({1}, 1.0)}, pg);
    plain.prepare_for_backward({});
    EXPECT_TRUE(plain.unused_parameters().empty());
  });
}

}  // namespace
