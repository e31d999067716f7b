// logical_and, logical_or, logical_xor, logical_not, isnan and isinf: values and dtypes as
// libtorch 1.13 gives them (the expectations below are its output for the same calls), the
// out= and in-place forms, any nonzero value (NaN too) being true, mixed dtypes, complex,
// layouts, which loop runs, Meta geometry and autograd.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ElementwiseTestUtils.h"
#include "aten/native/cpu/Loops.h"

namespace {

using namespace elementwise_test;
using at::Tensor;

// The values of t (any dtype, any layout) as doubles, in t's logical order.
std::vector<double> values(const Tensor& t) {
  const Tensor d = t.to(at::kDouble).contiguous();
  return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

using Values = std::vector<double>;

const Tensor& f() {
  static const Tensor t = at::tensor({0.0, -0.0, 1.5, NAN, INFINITY, -2.0}, at::kFloat);
  return t;
}
const Tensor& g() {
  static const Tensor t = at::tensor({1.0, 0.0, 0.0, NAN, 0.0, 3.0}, at::kFloat);
  return t;
}
const Tensor& i() {
  static const Tensor t = at::tensor({0, 1, 2, 0, 5, 0}, at::kInt);
  return t;
}

TEST(LogicalOps, FunctionalValuesAreLibtorchs) {
  struct Case {
    const char* what;
    Tensor result;
    Values expected;
  };
  const Case cases[] = {
      {"and", at::logical_and(f(), g()), {0, 0, 0, 1, 0, 1}},
      {"or", at::logical_or(f(), g()), {1, 0, 1, 1, 1, 1}},
      {"xor", at::logical_xor(f(), g()), {1, 0, 1, 0, 1, 0}},
      {"and float int", at::logical_and(f(), i()), {0, 0, 1, 0, 1, 0}},
      {"not float", at::logical_not(f()), {1, 1, 0, 0, 0, 0}},
      {"not int", at::logical_not(i()), {1, 0, 0, 1, 0, 1}},
      {"and method", f().logical_and(i()), {0, 0, 1, 0, 1, 0}},
      {"not method", i().logical_not(), {1, 0, 0, 1, 0, 1}},
      {"not complex", at::logical_not(at::tensor({0.0, 1.0, 0.0}, at::kComplexFloat)), {1, 0, 1}},
      {"and complex",
       at::logical_and(at::tensor({0.0, 1.0, 0.0}, at::kComplexFloat), at::ones({3})),
       {0, 1, 0}},
      {"Scalar tensor",
       at::logical_or(at::zeros({3}, at::kInt), at::scalar_tensor(1.5)),
       {1, 1, 1}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.result.scalar_type(), at::kBool) << c.what;
    EXPECT_EQ(values(c.result), c.expected) << c.what;
  }
}

TEST(LogicalOps, OutAndInPlaceKeepTheirDtype) {
  Tensor out_f = at::empty({6}, at::kFloat);
  at::logical_and_out(out_f, f(), i());
  EXPECT_EQ(out_f.scalar_type(), at::kFloat);
  EXPECT_EQ(values(out_f), (Values{0, 0, 1, 0, 1, 0}));
  Tensor out_l = at::empty({6}, at::kLong);
  at::logical_not_out(out_l, f());
  EXPECT_EQ(values(out_l), (Values{1, 1, 0, 0, 0, 0}));
  Tensor out_b = at::empty({6}, at::kBool);
  at::logical_xor_out(out_b, i(), g());
  EXPECT_EQ(values(out_b), (Values{1, 1, 1, 1, 1, 1}));

  Tensor fc = f().clone();
  Tensor& r = fc.logical_and_(i());
  EXPECT_TRUE(r.is_same(fc));
  EXPECT_EQ(fc.scalar_type(), at::kFloat);
  EXPECT_EQ(values(fc), (Values{0, 0, 1, 0, 1, 0}));
  Tensor ic = i().clone();
  ic.logical_not_();
  EXPECT_EQ(ic.scalar_type(), at::kInt);
  EXPECT_EQ(values(ic), (Values{1, 0, 0, 1, 0, 1}));
  Tensor hc = f().to(at::kHalf);
  hc.logical_or_(g());
  EXPECT_EQ(hc.scalar_type(), at::kHalf);
  EXPECT_EQ(values(hc), (Values{1, 0, 1, 1, 1, 1}));
  Tensor bc = at::tensor({1, 0, 1, 0}).to(at::kBool);
  bc.logical_or_(at::tensor({0.f, 0.f, 1.f, 2.f}));
  EXPECT_EQ(values(bc), (Values{1, 0, 1, 1}));
}

TEST(LogicalOps, LayoutsAndLoops) {
  const Tensor bcast = at::logical_and(at::ones({2, 1}), at::tensor({0.f, 1.f, 2.f}));
  EXPECT_EQ(bcast.sizes().vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values(bcast), (Values{0, 1, 1, 0, 1, 1}));
  const Tensor tr = at::logical_and(at::ones({3, 2}).t(), at::ones({2, 3}));
  EXPECT_EQ(tr.strides().vec(), (std::vector<int64_t>{1, 2}));  // libtorch's
  EXPECT_EQ(at::logical_not(at::ones({3, 2}).t()).strides().vec(), (std::vector<int64_t>{1, 2}));

  // Every tail length, each element as computed alone; a contiguous call takes the vector loop.
  auto& counters = at::native::detail::loop_counters;
  Tensor x = make_values(at::kFloat, 150, 1), y = make_values(at::kFloat, 150, 2);
  x.slice(0, 0, 150, 7).zero_();
  y.slice(0, 2, 150, 5).zero_();
  x.narrow(0, 5, 1).fill_(NAN);
  y.narrow(0, 9, 1).fill_(NAN);
  for (int64_t n = 1; n <= 70; ++n) {
    const Tensor xs = x.narrow(0, 0, n), ys = y.narrow(0, 150 - n, n);
    counters.reset();
    counters.enabled = true;
    const Tensor a = at::logical_and(xs, ys), o = at::logical_or(xs, ys),
                 e = at::logical_xor(xs, ys), nt = at::logical_not(xs);
    counters.enabled = false;
    EXPECT_EQ(counters.vectorized.load(), 4) << n;
    for (int64_t k = 0; k < n; ++k) {
      const bool p = x[k].item<float>() != 0, q = y[150 - n + k].item<float>() != 0;
      ASSERT_EQ(a[k].item<bool>(), p && q) << n << " " << k;
      ASSERT_EQ(o[k].item<bool>(), p || q) << n << " " << k;
      ASSERT_EQ(e[k].item<bool>(), p != q) << n << " " << k;
      ASSERT_EQ(nt[k].item<bool>(), !p) << n << " " << k;
    }
  }
}

TEST(LogicalOps, IsnanIsinf) {
  EXPECT_EQ(values(at::isnan(f())), (Values{0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(values(at::isinf(f())), (Values{0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(values(f().isnan()), (Values{0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(values(at::isnan(i())), (Values{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(values(at::isinf(i())), (Values{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(values(at::isinf(f().to(at::kHalf))), (Values{0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(values(f().to(at::kBFloat16).isinf()), (Values{0, 0, 0, 0, 1, 0}));
  const Tensor z = at::tensor({0.0, INFINITY, NAN}, at::kComplexDouble);
  EXPECT_EQ(values(at::isinf(z)), (Values{0, 1, 0}));
  EXPECT_EQ(values(at::isnan(z)), (Values{0, 0, 1}));
  for (const Tensor& r : {at::isinf(f()), at::isnan(i()), at::isinf(z)}) {
    EXPECT_EQ(r.scalar_type(), at::kBool);
  }
  // The input's layout, as libtorch's (an integer input through zeros_like's Preserve).
  EXPECT_EQ(at::isinf(at::ones({3, 2}).t()).strides().vec(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(at::isinf(at::ones({3, 2}, at::kInt).t()).strides().vec(),
            (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(
      at::isinf(at::ones({2, 3, 4, 5}).contiguous(at::MemoryFormat::ChannelsLast)).strides().vec(),
      (std::vector<int64_t>{60, 1, 15, 3}));
}

TEST(LogicalOps, Errors) {
  Tensor a = at::zeros({6});
  Tensor head = a.narrow(0, 0, 3);
  EXPECT_EQ(error_of([&] { at::logical_and_out(head, a.narrow(0, 1, 3), head); }),
            "unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.");
  Tensor b = at::zeros({3});
  EXPECT_EQ(error_of([&] {
              b.logical_and_(at::ones({2, 3}));
            }),
            "output with shape [3] doesn't match the broadcast shape [2, 3]");
}

// Not differentiable: the result never requires grad (libtorch's output_differentiability
// [False]); in place on a leaf is allowed, as in libtorch.
TEST(LogicalOps, Autograd) {
  Tensor x = at::ones({3}).set_requires_grad(true);
  EXPECT_FALSE(at::logical_and(x, x).requires_grad());
  EXPECT_FALSE(at::logical_not(x).requires_grad());
  EXPECT_FALSE(at::isnan(x).requires_grad());
  EXPECT_FALSE(at::isinf(x).requires_grad());
}

// Meta tensors get the CPU's geometry without running a kernel (libtorch 1.13 has no Meta
// kernel for these).
TEST(LogicalOps, Meta) {
  const Tensor m = at::empty({2, 3}, at::device(c10::kMeta));
  const Tensor r = at::logical_and(m, m.t().t());
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.scalar_type(), at::kBool);
  EXPECT_EQ(r.sizes().vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(at::logical_not(at::empty({3, 2}, at::device(c10::kMeta)).t()).strides().vec(),
            (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(at::logical_xor(m, at::empty({3}, at::device(c10::kMeta))).sizes().vec(),
            (std::vector<int64_t>{2, 3}));
}

}  // namespace
