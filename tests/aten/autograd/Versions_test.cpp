// Version counters (t._version()) after each operator, against the numbers libtorch 1.13 prints
// for the same calls (measured with the same program built against libtorch), and the version
// numbers in the "modified by an inplace operation" error. Only ADInplaceOrView kernels bump,
// once per written argument, and whatever runs below them does not; see Note [Who bumps the
// version counter] in codegen/Emit.cpp.

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>

#include "TestUtils.h"
#include "aten/ATen.h"
#include "aten/autograd/autograd.h"

namespace {

using test_util::error_of;

at::Tensor input() {
  return at::ones({2, 3});
}  // itself at version 1

template <typename F>
at::Tensor after(at::Tensor t, F&& write) {
  write(t);
  return t;
}

struct VersionCase {
  const char* name;
  std::function<at::Tensor()> make;
  int64_t libtorch;  // t._version() in libtorch 1.13
};

const VersionCase kFreshTensors[] = {
    // Factories that fill through an in-place op count that write; the rest start at 0.
    {"Zeros", [] { return at::zeros({2}); }, 1},
    {"Ones", [] { return at::ones({2}); }, 1},
    {"Full", [] { return at::full({2}, 3); }, 1},
    {"ZerosSizeZero", [] { return at::zeros({0}); }, 1},
    {"Arange", [] { return at::arange(3); }, 1},
    {"ArangeStartStep", [] { return at::arange(1, 5, 2); }, 1},
    {"MetaZeros", [] { return at::zeros({2}, at::device(c10::kMeta)); }, 1},
    {"Empty", [] { return at::empty({2}); }, 0},
    {"EmptyStrided", [] { return at::empty_strided({2}, {1}); }, 0},
    {"ScalarTensor", [] { return at::scalar_tensor(2); }, 0},  // libtorch's CPU fast path
    {"TensorFromValues",
     [] {
       return at::tensor({1, 2});
     },
     0},
    // Functional ops: their inner writes run below ADInplaceOrView.
    {"Clone", [] { return input().clone(); }, 0},
    {"TransposeContiguous", [] { return input().t().contiguous(); }, 0},
    {"ReshapeThatCopies", [] { return input().t().reshape({6}); }, 0},
    {"ExpandClone", [] { return at::ones({1}).expand({3}).clone(); }, 0},
    {"ToDouble", [] { return input().to(at::kDouble); }, 0},
    {"TypeAs", [] { return input().type_as(at::ones({1}, at::kDouble)); }, 0},
    {"ToSameTypeIsSelf", [] { return input().to(at::kFloat); }, 1},
    {"ContiguousIsSelf", [] { return input().contiguous(); }, 1},
    {"Add", [] { return at::add(input(), input()); }, 0},
    {"AddScalar", [] { return at::add(input(), 2); }, 0},
    {"Mul", [] { return at::mul(input(), input()); }, 0},
    {"Neg", [] { return at::neg(input()); }, 0},
    {"Abs", [] { return at::abs(input()); }, 0},  // through abs.out
    {"Exp", [] { return at::exp(input()); }, 0},
    {"Eq", [] { return at::eq(input(), input()); }, 0},
    {"EqScalar", [] { return at::eq(input(), 1); }, 0},
    {"Where", [] { return at::where(at::eq(input(), 1), input(), input()); }, 0},
    {"WhereScalar", [] { return at::where(at::eq(input(), 1), 1.0, input()); }, 0},
    {"ZerosLike", [] { return at::zeros_like(input()); }, 0},
    {"OnesLike", [] { return at::ones_like(input()); }, 0},
    {"FullLike", [] { return at::full_like(input(), 2); }, 0},
    {"EmptyLike", [] { return at::empty_like(input()); }, 0},
    {"Sum", [] { return input().sum(); }, 0},
    {"SumDim", [] { return input().sum({0}); }, 0},
    {"SumKeepDim", [] { return input().sum({1}, true); }, 0},
    {"SumInt", [] { return at::ones({3}, at::kInt).sum(); }, 0},
    {"Mean", [] { return input().mean(); }, 0},
    {"MeanDim", [] { return input().mean({0}); }, 0},
    {"Cumsum", [] { return input().cumsum(0); }, 0},
    {"CumsumInt", [] { return at::ones({3}, at::kInt).cumsum(0); }, 0},
    // The same with inputs that require grad.
    {"CloneRequiringGrad", [] { return at::ones({2}).requires_grad_().clone(); }, 0},
    {"MulRequiringGrad", [] { return at::mul(at::ones({2}).requires_grad_(), 2); }, 0},
    {"ToDoubleRequiringGrad", [] { return at::ones({2}).requires_grad_().to(at::kDouble); }, 0},
    {"ZerosLikeRequiringGrad", [] { return at::zeros_like(at::ones({2}).requires_grad_()); }, 0},
    {"SumRequiringGrad", [] { return at::ones({2}).requires_grad_().sum(); }, 0},
    // One write each.
    {"EmptyLikeThenFill",
     [] { return after(at::empty_like(input()), [](at::Tensor& t) { t.fill_(2); }); }, 1},
    {"OnesAdd", [] { return after(at::ones({2}), [](at::Tensor& t) { t.add_(1); }); }, 2},
    {"OnesAddTensor",
     [] { return after(at::ones({2}), [](at::Tensor& t) { t.add_(at::ones({2})); }); }, 2},
    {"OnesSub", [] { return after(at::ones({2}), [](at::Tensor& t) { t.sub_(at::ones({2})); }); },
     2},
    {"OnesMul", [] { return after(at::ones({2}), [](at::Tensor& t) { t.mul_(2); }); }, 2},
    {"OnesDiv", [] { return after(at::ones({2}), [](at::Tensor& t) { t.div_(2); }); }, 2},
    {"OnesNeg", [] { return after(at::ones({2}), [](at::Tensor& t) { t.neg_(); }); }, 2},
    {"OnesAbs", [] { return after(at::ones({2}), [](at::Tensor& t) { t.abs_(); }); }, 2},
    {"OnesCopy",
     [] {
       return after(at::ones({2, 3}), [](at::Tensor& t) { t.copy_(input()); });
     },
     2},
    {"OnesFill", [] { return after(at::ones({2}), [](at::Tensor& t) { t.fill_(3); }); }, 2},
    {"OnesFillTensor",
     [] { return after(at::ones({2}), [](at::Tensor& t) { t.fill_(at::scalar_tensor(3)); }); }, 2},
    {"OnesZero", [] { return after(at::ones({2}), [](at::Tensor& t) { t.zero_(); }); }, 2},
    {"EmptyOnesAdd", [] { return after(at::ones({0}), [](at::Tensor& t) { t.add_(1); }); }, 2},
    {"EmptyCopy",
     [] { return after(at::ones({0}), [](at::Tensor& t) { t.copy_(at::ones({0})); }); }, 2},
    {"CopyFromItself", [] { return after(at::ones({2}), [](at::Tensor& t) { t.copy_(t); }); }, 2},
    {"MetaFill",
     [] {
       return after(at::empty({2}, at::device(c10::kMeta)), [](at::Tensor& t) { t.fill_(1); });
     },
     1},
    {"CopyIntoRequiringGrad",
     [] {
       return after(at::zeros({2}), [](at::Tensor& t) { t.copy_(at::ones({2}).requires_grad_()); });
     },
     2},
    {"MulInPlaceOfAResult",
     [] {
       return after(at::mul(at::ones({2}).requires_grad_(), 2), [](at::Tensor& t) { t.mul_(2); });
     },
     1},
    // Metadata changes: set_ is a write of self (not of the source), resize_ is none.
    {"SetToAnother", [] { return after(at::ones({2}), [](at::Tensor& t) { t.set_(input()); }); },
     2},
    {"SetToNothing", [] { return after(at::ones({2}), [](at::Tensor& t) { t.set_(); }); }, 2},
    {"Resize", [] { return after(at::ones({2}), [](at::Tensor& t) { t.resize_({4}); }); }, 1},
    {"ResizeToSameSize", [] { return after(at::ones({2}), [](at::Tensor& t) { t.resize_({2}); }); },
     1},
    // Reading is not writing; a write that throws is no write.
    {"ItemReads", [] { return after(at::ones({1}), [](at::Tensor& t) { (void)t.item(); }); }, 1},
    {"FailedFill",
     [] {
       return after(at::zeros({2}, at::kByte),
                    [](at::Tensor& t) { EXPECT_ANY_THROW(t.fill_(300)); });
     },
     1},
};

void PrintTo(const VersionCase& c, std::ostream* os) {
  *os << c.name;
}

class Versions : public ::testing::TestWithParam<VersionCase> {};

TEST_P(Versions, AsLibtorch) {
  EXPECT_EQ(GetParam().make()._version(), GetParam().libtorch);
}

// Grad mode changes nothing: the bump is in ADInplaceOrView, not in autograd.
TEST_P(Versions, AsLibtorchUnderNoGrad) {
  torch::NoGradGuard no_grad;
  EXPECT_EQ(GetParam().make()._version(), GetParam().libtorch);
}

INSTANTIATE_TEST_SUITE_P(Ops, Versions, ::testing::ValuesIn(kFreshTensors),
                         [](const ::testing::TestParamInfo<VersionCase>& info) {
                           return std::string(info.param.name);
                         });

// Each out= variant bumps its out once (resized or not), and none of its inputs.
TEST(Versions, OutVariantsBumpTheirOut) {
  const at::Tensor a = input();
  const at::Tensor cond = at::eq(a, 1);
  struct OutCase {
    const char* name;
    at::Tensor out;
    std::function<void(at::Tensor&)> run;
  };
  const OutCase cases[] = {
      {"add_out", at::empty({2, 3}), [&](at::Tensor& o) { at::add_out(o, a, a); }},
      {"add_out resized", at::empty({0}), [&](at::Tensor& o) { at::add_out(o, a, a); }},
      {"sub_out", at::empty({2, 3}), [&](at::Tensor& o) { at::sub_out(o, a, a); }},
      {"mul_out", at::empty({2, 3}), [&](at::Tensor& o) { at::mul_out(o, a, a); }},
      {"div_out", at::empty({2, 3}), [&](at::Tensor& o) { at::div_out(o, a, a); }},
      {"neg_out", at::empty({2, 3}), [&](at::Tensor& o) { at::neg_out(o, a); }},
      {"abs_out", at::empty({2, 3}), [&](at::Tensor& o) { at::abs_out(o, a); }},
      {"exp_out", at::empty({2, 3}), [&](at::Tensor& o) { at::exp_out(o, a); }},
      {"log_out", at::empty({2, 3}), [&](at::Tensor& o) { at::log_out(o, a); }},
      {"sqrt_out", at::empty({2, 3}), [&](at::Tensor& o) { at::sqrt_out(o, a); }},
      {"eq_out", at::empty({2, 3}, at::kBool), [&](at::Tensor& o) { at::eq_out(o, a, a); }},
      {"eq_out scalar", at::empty({2, 3}, at::kBool), [&](at::Tensor& o) { at::eq_out(o, a, 1); }},
      {"ge_out", at::empty({2, 3}, at::kBool), [&](at::Tensor& o) { at::ge_out(o, a, a); }},
      {"where_out", at::empty({2, 3}), [&](at::Tensor& o) { at::where_out(o, cond, a, a); }},
      {"sum_out", at::empty({3}), [&](at::Tensor& o) { at::sum_out(o, a, {0}); }},
      {"sum_out resized", at::empty({0}), [&](at::Tensor& o) { at::sum_out(o, a, {0}); }},
      {"mean_out", at::empty({3}), [&](at::Tensor& o) { at::mean_out(o, a, {0}); }},
      {"cumsum_out", at::empty({2, 3}), [&](at::Tensor& o) { at::cumsum_out(o, a, 0); }},
      {"arange_out", at::empty({3}), [&](at::Tensor& o) { at::arange_out(o, 0, 3, 1); }},
  };
  for (const auto& c : cases) {
    at::Tensor out = c.out;
    ASSERT_EQ(out._version(), 0) << c.name;
    c.run(out);
    EXPECT_EQ(out._version(), 1) << c.name;
    EXPECT_EQ(a._version(), 1) << c.name;
    EXPECT_EQ(cond._version(), 0) << c.name;
  }
}

// Only the written arguments are bumped, not what is read.
TEST(Versions, InputsAreNotBumped) {
  at::Tensor self = at::ones({2});
  at::Tensor other = at::ones({2});
  self.add_(other);
  self.copy_(other);
  self.fill_(at::scalar_tensor(3, at::kDouble));
  EXPECT_EQ(self._version(), 4);
  EXPECT_EQ(other._version(), 1);
  at::Tensor source = at::ones({3});
  self.set_(source);  // self now shares source's storage, but keeps its own counter
  EXPECT_EQ(self._version(), 5);
  EXPECT_EQ(source._version(), 1);
}

// Views share their base's counter: a write through any of them is a new version of all.
TEST(Versions, InPlaceOnAViewBumpsTheSharedCounter) {
  at::Tensor base = at::ones({2, 3});
  at::Tensor view = base.view({6});
  at::Tensor row = base.select(0, 1);
  view.mul_(2);
  EXPECT_EQ(base._version(), 2);
  EXPECT_EQ(view._version(), 2);
  EXPECT_EQ(row._version(), 2);
  row.fill_(0);
  EXPECT_EQ(base._version(), 3);
  EXPECT_EQ(view._version(), 3);

  at::Tensor zeros = at::zeros({4});
  at::Tensor slice = zeros.slice(0, 1, 3);
  slice.add_(1);
  slice.add_(1);
  EXPECT_EQ(zeros._version(), 3);

  at::Tensor transposed_base = at::zeros({2, 3});
  transposed_base.t().copy_(at::ones({3, 2}));
  EXPECT_EQ(transposed_base._version(), 2);

  // An out= into a view, and a write through a detached alias.
  at::Tensor out_base = at::zeros({2, 3});
  at::Tensor flat = out_base.view({6});
  at::add_out(flat, at::ones({6}), at::ones({6}));
  EXPECT_EQ(out_base._version(), 2);
  at::Tensor y = at::ones({2});
  y.detach().add_(1);
  EXPECT_EQ(y._version(), 2);

  // With history: the view's in-place rebases the base's history and still bumps once.
  at::Tensor x = at::ones({2, 2}).requires_grad_();
  at::Tensor c = x.clone();
  at::Tensor first = c.select(0, 0);
  first.mul_(2);
  EXPECT_EQ(c._version(), 1);
  EXPECT_EQ(first._version(), 1);
}

// The version numbers (and node names) of libtorch's message, for the same programs.
std::string modified_error(const std::string& tensor, int expected_now, int expected_saved) {
  return "one of the variables needed for gradient computation has been modified by an inplace "
         "operation: " +
         tensor + " is at version " + std::to_string(expected_now) + "; expected version " +
         std::to_string(expected_saved) +
         " instead. Hint: enable anomaly detection to find the operation that failed to compute "
         "its gradient, with torch.autograd.set_detect_anomaly(True).";
}

TEST(Versions, ModifiedByAnInplaceOperationMessages) {
  const auto x = torch::ones({2, 3}, torch::requires_grad());
  {
    auto ones = at::ones({2, 3});
    auto c = at::mul(ones, x);
    ones.mul_(2);
    EXPECT_EQ(error_of([&] { c.sum().backward(); }), modified_error("[CPUFloatType [2, 3]]", 2, 1));
  }
  {
    auto zeros = at::zeros_like(x);
    auto c = at::mul(zeros, x);
    zeros.add_(1);
    EXPECT_EQ(error_of([&] { c.sum().backward(); }), modified_error("[CPUFloatType [2, 3]]", 1, 0));
  }
  {
    auto t = at::empty({2, 3});
    t.fill_(1);
    auto c = at::mul(t, x);
    t.zero_();
    EXPECT_EQ(error_of([&] { c.sum().backward(); }), modified_error("[CPUFloatType [2, 3]]", 2, 1));
  }
  {
    auto z = at::ones({2, 3});
    auto c = at::mul(z, x);
    at::add_out(z, x.detach(), x.detach());
    EXPECT_EQ(error_of([&] { c.sum().backward(); }), modified_error("[CPUFloatType [2, 3]]", 2, 1));
  }
  {
    auto t = at::zeros({2, 3});
    auto c = at::mul(t, x);
    t.copy_(t);
    EXPECT_EQ(error_of([&] { c.sum().backward(); }), modified_error("[CPUFloatType [2, 3]]", 2, 1));
  }
  {
    // A saved non-output is named by its grad_fn at the time of the error (the in-place op's).
    auto y = x.clone();
    y.add_(1);
    auto w = at::mul(y, y);
    y.add_(1);
    y.add_(1);
    EXPECT_EQ(error_of([&] { w.sum().backward(); }),
              modified_error("[CPUFloatType [2, 3]], which is output 0 of AddBackward1,", 3, 1));
  }
  {
    auto y = x.to(at::kDouble);
    auto w = at::mul(y, y);
    y.mul_(3);
    EXPECT_EQ(error_of([&] { w.sum().backward(); }),
              modified_error("[CPUDoubleType [2, 3]], which is output 0 of MulBackward1,", 1, 0));
  }
  {
    auto y = x.mul(2);
    auto w = at::mul(y, y);
    {
      torch::NoGradGuard no_grad;
      y.add_(1);
    }
    EXPECT_EQ(error_of([&] { w.sum().backward(); }),
              modified_error("[CPUFloatType [2, 3]], which is output 0 of MulBackward1,", 1, 0));
  }
  {
    // A view saved before its base was written: its regenerated grad_fn.
    auto y = x.mul(2);
    auto v = y.view({6});
    auto w = at::mul(v, v);
    y.add_(1);
    EXPECT_EQ(error_of([&] { w.sum().backward(); }),
              modified_error("[CPUFloatType [6]], which is output 0 of AsStridedBackward0,", 1, 0));
  }
  {
    // A saved output keeps the name of the node that made it.
    auto e = torch::ones({2, 2}, torch::requires_grad()).exp();
    e.select(0, 0).mul_(2);
    EXPECT_EQ(error_of([&] { e.sum().backward(); }),
              modified_error("[CPUFloatType [2, 2]], which is output 0 of ExpBackward0,", 1, 0));
  }
}

}  // namespace
