// Assigning to a temporary tensor writes its elements (Note [Assigning to a temporary writes
// its elements]): `t[0] = 3` fills, `t[1] = u` copies (broadcasting), as libtorch 1.13.
#include <gtest/gtest.h>

#include <type_traits>

#include "aten/ATen.h"
#include "tests/TestUtils.h"

namespace {

using test_util::error_of;

TEST(ScalarAssignment, FillsTheIndexedElements) {
  at::Tensor u = at::zeros({2, 3});
  u[0] = 3;
  u[1][2] = 2.5;
  EXPECT_TRUE(u.equal(at::tensor({3.f, 3.f, 3.f, 0.f, 0.f, 2.5f}).view({2, 3})));

  at::Tensor l = at::zeros({2, 3}, at::kLong);
  l[0][1] = 2.9;  // converted as fill_ converts: truncated
  l[1] = 7;
  EXPECT_TRUE(l.equal(at::tensor({0, 2, 0, 7, 7, 7}).to(at::kLong).view({2, 3})));

  at::Tensor s = at::zeros({3});
  s[1] = true;
  s[at::tensor({int64_t{2}}).reshape({})] = 4;  // a 0-dim index tensor
  EXPECT_TRUE(s.equal(at::tensor({0.f, 1.f, 4.f})));
}

TEST(ScalarAssignment, TensorsAreCopiedIn) {
  at::Tensor t = at::zeros({2, 3});
  t[1] = at::tensor({1.0, 2.0, 3.0});  // converted to Float
  t[0] = at::tensor({5});              // broadcast
  EXPECT_TRUE(t.equal(at::tensor({5.f, 5.f, 5.f, 1.f, 2.f, 3.f}).view({2, 3})));

  at::Tensor s = at::tensor({0.f, 1.f, 4.f});
  s.select(0, 0) = s[2];
  EXPECT_TRUE(s.equal(at::tensor({4.f, 1.f, 4.f})));

  at::Tensor uu = at::zeros({2, 2});
  at::Tensor row = uu[1];
  uu[1] = uu[0] + 5;  // writes into the storage row still views
  EXPECT_TRUE(row.equal(at::full({2}, 5.f)));
  EXPECT_TRUE(row.is_alias_of(uu));

  EXPECT_EQ(error_of([&] { t[0] = at::tensor({1.f, 2.f}); }),
            "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
            "dimension 0");
}

TEST(ScalarAssignment, NamedTensorsStillRebind) {
  at::Tensor base = at::zeros({2});
  at::Tensor v = base[0];
  v = at::ones({3});  // an lvalue: v now names another tensor; base is unchanged
  EXPECT_EQ(v.numel(), 3);
  EXPECT_TRUE(base.equal(at::zeros({2})));
  // The rvalue overloads return the written tensor.
  at::Tensor& written = std::move(v) = 2;
  EXPECT_TRUE(written.is_same(v));
  EXPECT_TRUE(v.equal(at::full({3}, 2.f)));
  static_assert(!std::is_assignable<at::Tensor&, int>::value,
                "a named Tensor is not assignable from a number, as in libtorch");
}

}  // namespace
