// eq, ne, lt, le, gt, ge and where: values against a naive loop for every dtype, Bool outputs and
// out= tensors of other dtypes, comparisons in the common dtype, output layouts against
// libtorch's strides, where's promotion, broadcasting and condition checks.

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <vector>

#include "ElementwiseTestUtils.h"
#include "aten/autograd/autograd.h"
#include "aten/native/cpu/Loops.h"

namespace {

using namespace elementwise_test;
using at::Tensor;

// Each comparison against its naive predicate, for x and y of dtype T (broadcast).
template <typename T>
void check_comparisons(const Tensor& x, const Tensor& y, const char* form) {
  SCOPED_TRACE(form);
  struct Op {
    const char* name;
    Tensor (*fn)(const Tensor&, const Tensor&);
    bool (*ref)(acc_t<T>, acc_t<T>);
  };
  const Op ops[] = {
      {"eq", [](const Tensor& a, const Tensor& b) { return at::eq(a, b); },
       [](acc_t<T> a, acc_t<T> b) { return a == b; }},
      {"ne", [](const Tensor& a, const Tensor& b) { return at::ne(a, b); },
       [](acc_t<T> a, acc_t<T> b) { return a != b; }},
      {"lt", [](const Tensor& a, const Tensor& b) { return at::lt(a, b); },
       [](acc_t<T> a, acc_t<T> b) { return a < b; }},
      {"le", [](const Tensor& a, const Tensor& b) { return at::le(a, b); },
       [](acc_t<T> a, acc_t<T> b) { return a <= b; }},
      {"gt", [](const Tensor& a, const Tensor& b) { return at::gt(a, b); },
       [](acc_t<T> a, acc_t<T> b) { return a > b; }},
      {"ge", [](const Tensor& a, const Tensor& b) { return at::ge(a, b); },
       [](acc_t<T> a, acc_t<T> b) { return a >= b; }},
  };
  for (const Op& op : ops) {
    const Tensor r = op.fn(x, y);
    ASSERT_EQ(r.scalar_type(), at::kBool) << op.name;
    const Tensor xe = x.expand(r.sizes()).contiguous(), ye = y.expand(r.sizes()).contiguous();
    auto expected = [&](int64_t i) {
      return op.ref(static_cast<acc_t<T>>(element<T>(xe, i)),
                    static_cast<acc_t<T>>(element<T>(ye, i)));
    };
    expect_values<bool>(r, expected, op.name);
  }
  // An out= of the inputs' dtype gets 1 or 0 of that dtype (the vectorized path).
  Tensor out = at::empty({0}, x.scalar_type());
  at::lt_out(out, x, y);
  const Tensor xe = x.expand(out.sizes()).contiguous(), ye = y.expand(out.sizes()).contiguous();
  expect_values<T>(
      out,
      [&](int64_t i) {
        const bool lt =
            static_cast<acc_t<T>>(element<T>(xe, i)) < static_cast<acc_t<T>>(element<T>(ye, i));
        return static_cast<T>(lt ? 1 : 0);
      },
      "lt_out");
}

class CompareOpsDtypes : public ::testing::TestWithParam<at::ScalarType> {};

TEST_P(CompareOpsDtypes, MatchNaiveLoop) {
  AT_DISPATCH_ALL_MINIATEN_TYPES(GetParam(), "test", [&] {
    const Tensor x = make_values(GetParam(), kNumel, 1);
    // Seed 1 again for the first 500 elements, so that equal pairs occur.
    Tensor y = make_values(GetParam(), kNumel, 2);
    y.narrow(0, 0, 500).copy_(x.narrow(0, 0, 500));
    check_comparisons<scalar_t>(x, y, "contiguous");
    check_comparisons<scalar_t>(x.view({17, 61}).t(), y.view({17, 61}).t(), "transposed");
    check_comparisons<scalar_t>(x.view({17, 61}), y.narrow(0, 0, 61), "row broadcast");
    check_comparisons<scalar_t>(x, y.select(0, 3), "zero-dim");
  });
}

TEST_P(CompareOpsDtypes, WhereMatchesNaiveLoop) {
  AT_DISPATCH_ALL_MINIATEN_TYPES(GetParam(), "test", [&] {
    using T = scalar_t;
    const Tensor x = make_values(GetParam(), kNumel, 1);
    const Tensor y = make_values(GetParam(), kNumel, 2);
    const Tensor cond = make_values(at::kBool, kNumel, 0);
    auto check = [&](const Tensor& c, const Tensor& a, const Tensor& b, const char* what) {
      const Tensor r = at::where(c, a, b);
      ASSERT_EQ(r.scalar_type(), GetParam());
      const Tensor ce = c.expand(r.sizes()).contiguous(), ae = a.expand(r.sizes()).contiguous(),
                   be = b.expand(r.sizes()).contiguous();
      expect_values<T>(
          r,
          [&](int64_t i) { return element<bool>(ce, i) ? element<T>(ae, i) : element<T>(be, i); },
          what);
    };
    check(cond, x, y, "contiguous");
    check(cond.view({17, 61}).t(), x.view({17, 61}).t(), y.view({61, 17}), "transposed");
    check(cond.narrow(0, 0, 61), x.view({17, 61}), y.select(0, 0), "broadcast");
  });
}

INSTANTIATE_TEST_SUITE_P(AllTypes, CompareOpsDtypes, ::testing::ValuesIn(kAllTypes),
                         [](const auto& info) { return std::string(c10::toString(info.param)); });

// ---- Comparisons -----------------------------------------------------------------------------

TEST(CompareOps, CompareInTheCommonDtype) {
  const Tensor ones_u8 = at::ones({2}, at::kByte);
  // -1 and 300 become uint8 (255 and 44) before comparing, as in libtorch.
  EXPECT_TRUE(same_tensor(at::ge(ones_u8, -1), at::zeros({2}, at::kBool)));
  EXPECT_TRUE(same_tensor(at::ge(ones_u8, 300), at::zeros({2}, at::kBool)));
  // A float Scalar lifts the comparison to Float.
  EXPECT_TRUE(same_tensor(at::lt(ones_u8, 1.5), at::ones({2}, at::kBool)));
  EXPECT_TRUE(same_tensor(at::eq(at::full({1}, 44, at::kChar), 300), at::ones({1}, at::kBool)));
  EXPECT_TRUE(same_tensor(at::eq(at::full({2}, 2, at::kLong), 2.5), at::zeros({2}, at::kBool)));
  EXPECT_TRUE(same_tensor(at::eq(at::full({2}, 2, at::kLong), at::full({2}, 2.0, at::kFloat)),
                    at::ones({2}, at::kBool)));
  EXPECT_TRUE(same_tensor(at::lt(at::ones({2}, at::kBool), 2), at::ones({2}, at::kBool)));
}

TEST(CompareOps, OutKeepsItsDtype) {
  const Tensor f = at::ones({2, 3});
  Tensor out_f = at::empty({2, 3});
  at::eq_out(out_f, at::ones({2, 3}, at::kLong), 2);
  EXPECT_TRUE(same_tensor(out_f, at::zeros({2, 3})));
  Tensor out_i = at::empty({2, 3}, at::kInt);
  at::eq_out(out_i, f, 1.0);
  EXPECT_TRUE(same_tensor(out_i, at::ones({2, 3}, at::kInt)));
  Tensor out_h = at::empty({2, 3}, at::kHalf);
  at::ne_out(out_h, at::ones({2, 3}, at::kBool), at::zeros({2, 3}, at::kBool));
  EXPECT_TRUE(same_tensor(out_h, at::ones({2, 3}, at::kHalf)));
  // A Bool out of the wrong size is resized (with a warning).
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  Tensor out_b = at::ones({3}, at::kBool);
  Tensor& r = at::gt_out(out_b, f, 0);
  EXPECT_TRUE(r.is_same(out_b));
  EXPECT_EQ(out_b.sizes().vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(warnings.messages.size(), 1u);
}

// Note [Predicates write bytes from masks]: a Bool output is written a vector at a time from the
// comparison's mask where the output row is contiguous and each input contiguous or broadcast,
// element by element elsewhere; both give the element's own answer wherever it sits.
TEST(CompareOps, BoolOutputLoops) {
  auto& counters = at::native::detail::loop_counters;
  const Tensor x = make_values(at::kFloat, kNumel, 1);
  const Tensor y = make_values(at::kFloat, kNumel, 2);
  struct Case {
    const char* what;
    std::function<Tensor()> run;
    std::atomic<int64_t>* counter;
  };
  Tensor out_strided = at::empty({2 * kNumel}, at::kBool).slice(0, 0, 2 * kNumel, 2);
  const Case cases[] = {
      {"contiguous", [&] { return at::lt(x, y); }, &counters.vectorized},
      {"Scalar", [&] { return at::lt(x, 0.5); }, &counters.vectorized_scalar},
      {"broadcast row",
       [&] {
         return at::lt(x.view({17, 61}), y.narrow(0, 0, 61));
       },
       &counters.vectorized},
      {"broadcast column",
       [&] {
         return at::lt(x.view({17, 61}), y.narrow(0, 0, 17).view({17, 1}));
       },
       &counters.vectorized_scalar},
      {"strided input", [&] { return at::lt(x.slice(0, 0, kNumel, 2), 0.5); }, &counters.basic},
      {"strided output", [&] { return at::lt_out(out_strided, x, y); }, &counters.basic},
  };
  for (const Case& c : cases) {
    counters.reset();
    counters.enabled = true;
    c.run();
    counters.enabled = false;
    EXPECT_GE(c.counter->load(), 1) << c.what;
    EXPECT_EQ(
        counters.vectorized.load() + counters.vectorized_scalar.load() + counters.basic.load(),
        c.counter->load())
        << c.what;
  }
  expect_values<bool>(
      out_strided, [&](int64_t i) { return element<float>(x, i) < element<float>(y, i); },
      "strided output");
}

// Every row length from 1 to past two vectors of bytes (64 lanes of int8 under AVX-512), each
// element compared as when it stands alone, with NaN, infinities and signed zeros among the
// floating values.
TEST_P(CompareOpsDtypes, BoolOutputAtEveryTailLength) {
  AT_DISPATCH_ALL_MINIATEN_TYPES(GetParam(), "test", [&] {
    Tensor x = make_values(GetParam(), 150, 1);
    Tensor y = make_values(GetParam(), 150, 2);
    y.narrow(0, 0, 40).copy_(x.narrow(0, 0, 40));
    if (c10::isFloatingType(GetParam())) {
      const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-40};
      for (int k = 0; k < 6; ++k) {
        x.narrow(0, 3 + 7 * k, 1).fill_(specials[k]);
        y.narrow(0, 3 + 11 * k, 1).fill_(specials[5 - k]);
        y.narrow(0, 90 + k, 1).fill_(specials[k]);
        x.narrow(0, 90 + k, 1).fill_(specials[k]);
      }
    }
    for (int64_t n = 1; n <= 130; ++n) {
      const Tensor xs = x.narrow(0, 150 - n, n), ys = y.narrow(0, 0, n);
      const Tensor lt = at::lt(xs, ys), eq = at::eq(xs, ys),
                   ne_scalar = at::ne(xs, ys.select(0, 0));
      for (int64_t i = 0; i < n; ++i) {
        const Tensor a = xs.narrow(0, i, 1), b = ys.narrow(0, i, 1);
        ASSERT_EQ(lt[i].item<bool>(), at::lt(a, b).item<bool>()) << "n " << n << " i " << i;
        ASSERT_EQ(eq[i].item<bool>(), at::eq(a, b).item<bool>()) << "n " << n << " i " << i;
        ASSERT_EQ(ne_scalar[i].item<bool>(), at::ne(a, ys.select(0, 0)).item<bool>())
            << "n " << n << " i " << i;
      }
    }
  });
}

TEST(CompareOps, Errors) {
  EXPECT_EQ(error_of([] {
              at::lt(at::ones({2, 16}), at::ones({2, 3}));
            }),
            "The size of tensor a (16) must match the size of tensor b (3) at non-singleton "
            "dimension 1");
  Tensor a = at::arange(10, at::kFloat);
  Tensor head = a.narrow(0, 0, 5);
  EXPECT_EQ(error_of([&] { at::eq_out(head, a.narrow(0, 1, 5), head); }),
            "unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.");
}

class CompareOpsLayouts : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(CompareOpsLayouts, OutputStridesMatchLibtorch) {
  const LayoutCase& c = GetParam();
  const Tensor a = c.a(), b = c.b();
  const Tensor r = at::le(a, b);
  EXPECT_EQ(r.sizes().vec(), c.sizes);
  EXPECT_EQ(r.strides().vec(), c.binary);
  EXPECT_EQ(at::eq(a, 0.5).strides().vec(), c.unary);
  const Tensor w = at::where(at::gt(a, 0), a, b);
  EXPECT_EQ(w.sizes().vec(), c.sizes);
  EXPECT_EQ(w.strides().vec(), c.where);
  const Tensor ae = a.expand(w.sizes()).contiguous(), be = b.expand(w.sizes()).contiguous();
  expect_values<float>(
      w,
      [&](int64_t i) {
        const float x = element<float>(ae, i), y = element<float>(be, i);
        return x > 0 ? x : y;
      },
      "where");
}

INSTANTIATE_TEST_SUITE_P(Libtorch, CompareOpsLayouts, ::testing::ValuesIn(layout_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- where -----------------------------------------------------------------------------------

TEST(Where, ResultType) {
  const Tensor b = at::ones({2, 3}, at::kBool), i32 = at::ones({2, 3}, at::kInt),
               i64 = at::ones({2, 3}, at::kLong);
  struct Case {
    const char* what;
    Tensor result;
    at::ScalarType expected;
  };
  const Case cases[] = {
      {"1.5, int64", at::where(b, 1.5, i64), at::kFloat},
      {"1, 2", at::where(b, 1, 2), at::kLong},
      {"1.5, 2", at::where(b, 1.5, 2), at::kFloat},
      {"true, false", at::where(b, true, false), at::kBool},
      {"int32, 2.5", at::where(b, i32, 2.5), at::kFloat},
      {"int32, 2", at::where(b, i32, 2), at::kInt},
      {"int32, int64", at::where(b, i32, i64), at::kLong},
      {"int32, float zero-dim", at::where(b, i32, at::scalar_tensor(2.5)), at::kFloat},
      {"half, bfloat16", at::where(b, at::ones({2, 1}, at::kHalf), at::ones({3}, at::kBFloat16)),
       at::kFloat},
  };
  for (const Case& c : cases) EXPECT_EQ(c.result.scalar_type(), c.expected) << c.what;
  const Tensor cond = at::gt(at::arange(-1, 2, at::kFloat), 0);  // [false, false, true]
  EXPECT_TRUE(
      same_tensor(at::where(cond, 1.5, at::full({3}, 7, at::kLong)), at::tensor({7.f, 7.f, 1.5f})));
  EXPECT_TRUE(same_tensor(at::where(cond, at::arange(3, at::kInt), 2.5), at::tensor({2.5f, 2.5f, 2.f})));
}

TEST(Where, BroadcastsAllThree) {
  const Tensor r = at::where(at::ones({1, 1, 3}, at::kBool), at::ones({2, 1}), at::ones({3}));
  EXPECT_EQ(r.sizes().vec(), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(r.strides().vec(), (std::vector<int64_t>{6, 3, 1}));
  EXPECT_EQ(error_of([] {
              at::where(at::ones({2, 3}, at::kBool), at::ones({2, 3}), at::ones({3, 2}));
            }),
            "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
            "dimension 1");
  EXPECT_EQ(error_of([] {
              at::where(at::ones({5}, at::kBool), at::ones({2, 3}), at::ones({2, 3}));
            }),
            "The size of tensor a (5) must match the size of tensor b (3) at non-singleton "
            "dimension 1");
  // A contiguous condition, being the first input, decides the layout over channels-last values.
  const Tensor w = at::where(at::ones({2, 3, 4, 5}, at::kBool), cl({2, 3, 4, 5}), cl({2, 3, 4, 5}));
  EXPECT_EQ(w.strides().vec(), (std::vector<int64_t>{60, 20, 5, 1}));
}

TEST(Where, ConditionChecks) {
  const Tensor f = at::ones({2, 3});
  EXPECT_EQ(error_of([&] { at::where(f, f, f); }),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
  EXPECT_EQ(error_of([&] { at::where(f, 1, 2); }),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
  // uint8 conditions still work, with libtorch's deprecation warning.
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  const Tensor r = at::where(at::tensor({0, 1}).to(at::kByte), at::ones({2}), at::zeros({2}));
  EXPECT_TRUE(same_tensor(r, at::tensor({0.f, 1.f})));
  ASSERT_LE(warnings.messages.size(), 1u);  // once per process
}

TEST(Where, OutVariant) {
  const Tensor b = at::ones({2, 3}, at::kBool), f = at::ones({2, 3});
  Tensor out = at::empty({0});
  Tensor& r = at::where_out(out, b, f, at::zeros({3}));
  EXPECT_TRUE(r.is_same(out));
  EXPECT_TRUE(same_tensor(out, f));
  Tensor long_out = at::empty({2, 3}, at::kLong);
  EXPECT_EQ(error_of([&] { at::where_out(long_out, b, f, f); }),
            "Expected out type to be Float but got Long");
  Tensor a = at::arange(10, at::kFloat);
  Tensor head = a.narrow(0, 0, 5);
  EXPECT_EQ(
      error_of([&] { at::where_out(head, at::ones({5}, at::kBool), a.narrow(0, 1, 5), head); }),
      "unsupported operation: some elements of the input tensor and the written-to tensor "
      "refer to a single memory location. Please clone() the tensor before performing the "
      "operation.");
}

// In place: 1 or 0 in self's own dtype, as libtorch 1.13 gives them.
TEST(CompareInPlace, WritesOneOrZeroInSelfsDtype) {
  at::Tensor x = at::arange(5, at::kFloat);
  at::Tensor& same = x.eq_(2);
  EXPECT_TRUE(same.is_same(x));
  EXPECT_EQ(x.scalar_type(), at::kFloat);
  const std::vector<float> eq_expected{0, 0, 1, 0, 0};
  EXPECT_EQ(std::vector<float>(x.data_ptr<float>(), x.data_ptr<float>() + 5), eq_expected);
  EXPECT_EQ(x._version(), 2);  // arange's write, then eq_'s

  at::Tensor i = at::arange(5);
  i.lt_(at::full({5}, 3, at::kLong));
  const std::vector<int64_t> lt_expected{1, 1, 1, 0, 0};
  EXPECT_EQ(std::vector<int64_t>(i.data_ptr<int64_t>(), i.data_ptr<int64_t>() + 5), lt_expected);

  // A fractional Scalar against an integer tensor compares in float, writes back as Long.
  at::Tensor j = at::arange(4);
  j.ge_(1.5);
  const std::vector<int64_t> ge_expected{0, 0, 1, 1};
  EXPECT_EQ(std::vector<int64_t>(j.data_ptr<int64_t>(), j.data_ptr<int64_t>() + 4), ge_expected);

  // Under autograd the result is tracked with an all-zero gradient.
  auto leaf = torch::ones({3}, torch::requires_grad());
  at::Tensor y = leaf.clone();
  y.ge_(1);
  EXPECT_EQ(y.grad_fn()->name(), "GeBackward0");
  at::Tensor z = leaf.clone();
  z.ne_(torch::ones({3}));
  EXPECT_EQ(z.grad_fn()->name(), "NeBackward1");
  (y.sum() + z.sum()).backward();
  EXPECT_EQ(leaf.grad().sum().item<float>(), 0.f);
}

}  // namespace
