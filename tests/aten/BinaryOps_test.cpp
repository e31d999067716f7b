// add, sub, mul, div: values against a naive loop for every dtype (contiguous, transposed,
// row- and column-broadcast and Scalar operands, so every loop of Loops.h runs), output layouts
// against libtorch's strides, the promotion table, argument errors, out= resizing, overlap
// errors, and parallel == serial. div's rounding modes and the integer edge cases are in
// BinaryOpsIntegers_test.cpp.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "ElementwiseTestUtils.h"
#include "aten/Parallel.h"
#include "aten/native/cpu/Loops.h"

namespace {

using namespace elementwise_test;
using at::Tensor;

template <typename T>
constexpr bool is_floating() {
  return !std::is_integral<T>::value;
}

// div's result type: integers and bool divide in Float.
template <typename T>
using div_t = std::conditional_t<is_floating<T>(), T, float>;

// ---- Naive references (Half and BFloat16 in float, rounded once) ------------------------------

template <typename T>
T ref_add(T a, T b, T alpha) {
  return static_cast<T>(static_cast<acc_t<T>>(a) +
                        static_cast<acc_t<T>>(alpha) * static_cast<acc_t<T>>(b));
}
template <typename T>
T ref_sub(T a, T b, T alpha) {
  return static_cast<T>(static_cast<acc_t<T>>(a) -
                        static_cast<acc_t<T>>(alpha) * static_cast<acc_t<T>>(b));
}
template <typename T>
T ref_mul(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a && b;
  } else {
    return static_cast<T>(static_cast<acc_t<T>>(a) * static_cast<acc_t<T>>(b));
  }
}
template <typename T>
div_t<T> ref_div(T a, T b) {
  using R = div_t<T>;
  return static_cast<R>(static_cast<acc_t<R>>(static_cast<R>(a)) /
                        static_cast<acc_t<R>>(static_cast<R>(b)));
}

// result == ref(x, y) elementwise, x and y broadcast to result's shape.
template <typename T, typename Out, typename Ref>
void check(const Tensor& result, const Tensor& x, const Tensor& y, Ref ref, const char* what) {
  ASSERT_EQ(result.scalar_type(), c10::CppTypeToScalarType<Out>::value) << what;
  const Tensor xe = x.expand(result.sizes()).contiguous();
  const Tensor ye = y.expand(result.sizes()).contiguous();
  expect_values<Out>(
      result, [&](int64_t i) { return ref(element<T>(xe, i), element<T>(ye, i)); }, what);
}

// Every op on one pair of operands (x and y of dtype T; y_scalar, when given, is y's value as
// the Scalar overload's argument).
template <typename T>
void check_all_ops(const Tensor& x, const Tensor& y, const char* form) {
  const T one = static_cast<T>(1), two = static_cast<T>(2);
  SCOPED_TRACE(form);
  check<T, T>(
      at::add(x, y), x, y, [&](T a, T b) { return ref_add(a, b, one); }, "add");
  check<T, T>(
      at::add(x, y, 2), x, y, [&](T a, T b) { return ref_add(a, b, two); }, "add alpha=2");
  check<T, T>(
      at::mul(x, y), x, y, [](T a, T b) { return ref_mul(a, b); }, "mul");
  check<T, div_t<T>>(
      at::div(x, y), x, y, [](T a, T b) { return ref_div(a, b); }, "div");
  if constexpr (!std::is_same<T, bool>::value) {
    check<T, T>(
        at::sub(x, y), x, y, [&](T a, T b) { return ref_sub(a, b, one); }, "sub");
    check<T, T>(
        at::sub(x, y, 2), x, y, [&](T a, T b) { return ref_sub(a, b, two); }, "sub alpha=2");
  }
  if constexpr (is_floating<T>()) {
    const T half = static_cast<T>(0.5);
    check<T, T>(
        at::add(x, y, 0.5), x, y, [&](T a, T b) { return ref_add(a, b, half); }, "add alpha=0.5");
  }
}

template <typename T>
void check_dtype(at::ScalarType dtype) {
  const Tensor x = make_values(dtype, kNumel, 1);
  const Tensor y = make_values(dtype, kNumel, 2);
  // kNumel = 17 * 61.
  check_all_ops<T>(x, y, "contiguous");
  check_all_ops<T>(x.view({17, 61}).t(), y.view({17, 61}).t(), "transposed");
  check_all_ops<T>(x.view({17, 61}), y.narrow(0, 0, 61), "row broadcast");
  check_all_ops<T>(x.view({17, 61}), y.narrow(0, 0, 17).view({17, 1}), "column broadcast");
  check_all_ops<T>(x.narrow(0, 0, 61).view({1, 61}), y.narrow(0, 0, 17).view({17, 1}),
                   "both broadcast");
  check_all_ops<T>(x, y.select(0, 5), "zero-dim");
}

class BinaryOpsDtypes : public ::testing::TestWithParam<at::ScalarType> {};

TEST_P(BinaryOpsDtypes, MatchNaiveLoop) {
  AT_DISPATCH_ALL_MINIATEN_TYPES(GetParam(), "test", [&] { check_dtype<scalar_t>(GetParam()); });
}

// The Scalar overloads wrap their argument; the result keeps the tensor's dtype here.
TEST_P(BinaryOpsDtypes, ScalarOverloadsMatchNaiveLoop) {
  AT_DISPATCH_ALL_MINIATEN_TYPES(GetParam(), "test", [&] {
    using T = scalar_t;
    const Tensor x = make_values(GetParam(), kNumel, 1);
    const at::Scalar s = is_floating<T>()               ? at::Scalar(1.5)
                         : std::is_same<T, bool>::value ? at::Scalar(true)
                                                        : at::Scalar(3);
    const Tensor y = at::scalar_tensor(s, GetParam());
    const T one = static_cast<T>(1);
    check<T, T>(
        at::add(x, s), x, y, [&](T a, T b) { return ref_add(a, b, one); }, "add");
    check<T, T>(
        at::mul(x, s), x, y, [](T a, T b) { return ref_mul(a, b); }, "mul");
    check<T, div_t<T>>(
        at::div(x, s), x, y, [](T a, T b) { return ref_div(a, b); }, "div");
    Tensor inplace = x.clone();
    inplace.add_(s);
    check<T, T>(
        inplace, x, y, [&](T a, T b) { return ref_add(a, b, one); }, "add_");
    inplace = x.clone();
    inplace.mul_(s);
    check<T, T>(
        inplace, x, y, [](T a, T b) { return ref_mul(a, b); }, "mul_");
    if constexpr (!std::is_same<T, bool>::value) {
      check<T, T>(
          at::sub(x, s), x, y, [&](T a, T b) { return ref_sub(a, b, one); }, "sub");
      inplace = x.clone();
      inplace.sub_(s);
      check<T, T>(
          inplace, x, y, [&](T a, T b) { return ref_sub(a, b, one); }, "sub_");
    }
    if constexpr (is_floating<T>()) {
      inplace = x.clone();
      inplace.div_(s);
      check<T, T>(
          inplace, x, y, [](T a, T b) { return ref_div(a, b); }, "div_");
    }
  });
}

TEST_P(BinaryOpsDtypes, InPlaceAndOutMatchFunctional) {
  const Tensor x = make_values(GetParam(), kNumel, 1);
  const Tensor y = make_values(GetParam(), kNumel, 2);
  Tensor inplace = x.clone();
  const Tensor& r = inplace.add_(y, 2);
  EXPECT_TRUE(r.is_same(inplace));
  EXPECT_TRUE(same_tensor(at::add(x, y, 2), inplace));
  Tensor out = at::empty({0}, GetParam());
  Tensor& o = at::mul_out(out, x, y);
  EXPECT_TRUE(o.is_same(out));
  EXPECT_TRUE(same_tensor(at::mul(x, y), out));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, BinaryOpsDtypes, ::testing::ValuesIn(kAllTypes),
                         [](const auto& info) { return std::string(c10::toString(info.param)); });

// ---- Layouts ---------------------------------------------------------------------------------

class BinaryOpsLayouts : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(BinaryOpsLayouts, OutputStridesMatchLibtorch) {
  const LayoutCase& c = GetParam();
  const Tensor a = c.a(), b = c.b();
  for (const Tensor& r : {at::add(a, b), at::sub(a, b), at::mul(a, b), at::div(a, b)}) {
    EXPECT_EQ(r.sizes().vec(), c.sizes);
    EXPECT_EQ(r.strides().vec(), c.binary);
  }
  Tensor out = at::empty({0});
  at::add_out(out, a, b);
  EXPECT_EQ(out.strides().vec(), c.binary);
  // The wrapped Scalar never decides the layout.
  EXPECT_EQ(at::add(a, 2.5).strides().vec(), c.unary);
  check<float, float>(
      at::add(a, b), a, b, [](float x, float y) { return x + y; }, "add");
  check<float, float>(
      out, a, b, [](float x, float y) { return x + y; }, "add_out");
}

INSTANTIATE_TEST_SUITE_P(Libtorch, BinaryOpsLayouts, ::testing::ValuesIn(layout_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(BinaryOps, InPlaceKeepsSelfLayout) {
  Tensor a = cl({2, 3, 4, 5});
  const Tensor expected = at::add(a, ct({3, 4, 5}));
  a.add_(ct({3, 4, 5}));
  EXPECT_EQ(a.strides().vec(), (std::vector<int64_t>{60, 1, 15, 3}));
  EXPECT_TRUE(same_tensor(a, expected));
  Tensor t = ct({4, 5}).t();
  t.mul_(2);
  EXPECT_EQ(t.strides().vec(), (std::vector<int64_t>{1, 5}));
}

// Which loop of Loops.h each operand pattern takes (see Note [Which loop runs] there).
TEST(BinaryOps, LoopChosenByOperandPattern) {
  using at::native::detail::loop_counters;
  struct Ran {
    int64_t vectorized, vectorized_scalar, basic;
  };
  auto count = [](auto&& f) {
    loop_counters.reset();
    loop_counters.enabled = true;
    f();
    loop_counters.enabled = false;
    return Ran{loop_counters.vectorized.load(), loop_counters.vectorized_scalar.load(),
               loop_counters.basic.load()};
  };
  const Tensor x = make_values(at::kFloat, kNumel, 1), y = make_values(at::kFloat, kNumel, 2);
  Ran r = count([&] { at::add(x, y); });
  EXPECT_GT(r.vectorized, 0);
  EXPECT_EQ(r.vectorized_scalar + r.basic, 0);
  r = count([&] { at::mul(x, 2.5); });  // the wrapped Scalar is a broadcast input
  EXPECT_GT(r.vectorized_scalar, 0);
  EXPECT_EQ(r.vectorized + r.basic, 0);
  // A per-channel bias: constant along each NCHW row (H*W, coalesced), but in channels-last
  // the rows run along C, where the bias is contiguous too.
  r = count([&] { at::add(ct({2, 3, 4, 5}), ct({3, 1, 1})); });
  EXPECT_GT(r.vectorized_scalar, 0);
  EXPECT_EQ(r.vectorized + r.basic, 0);
  r = count([&] { at::add(cl({2, 3, 4, 5}), ct({3, 1, 1})); });
  EXPECT_GT(r.vectorized, 0);
  EXPECT_EQ(r.vectorized_scalar + r.basic, 0);
  r = count([&] { at::sub(x.view({17, 61}).t(), y.view({61, 17})); });
  EXPECT_GT(r.basic, 0);
}

// See Note [The dense fast path]: operands laid out alike skip TensorIterator.
TEST(BinaryOps, DenseFastPathSkipsTensorIterator) {
  std::vector<std::string> lines;
  c10::DispatchTrace::set_listener([&](const std::string& l) { lines.push_back(l); });
  auto trace = [&](auto&& f) {
    lines.clear();
    c10::DispatchTraceGuard guard;
    f();
    std::string all;
    for (const std::string& l : lines) all += l + "\n";
    return all;
  };
  auto took_dense = [](const std::string& t) {
    return t.find("dense fast path") != std::string::npos &&
           t.find("TensorIterator:") == std::string::npos;
  };
  const Tensor a = ct({4, 5}), b = ct({4, 5}), c = cl({2, 3, 4, 5}), z = ct({});
  const Tensor row = ct({5}), tr = ct({5, 4}).t(), d = b.to(at::kDouble);
  const Tensor i = at::ones({3}, at::kInt);
  EXPECT_TRUE(took_dense(trace([&] { at::add(a, b); })));
  EXPECT_TRUE(took_dense(trace([&] { at::mul(c, c); })));
  EXPECT_TRUE(took_dense(trace([&] { at::div(a.t(), b.t()); })));
  EXPECT_TRUE(took_dense(trace([&] { at::sub(z, z); })));
  // Broadcasting, mixed layouts, promotion, int division, in-place: TensorIterator.
  EXPECT_FALSE(took_dense(trace([&] { at::add(a, row); })));
  EXPECT_FALSE(took_dense(trace([&] { at::add(a, tr); })));
  EXPECT_FALSE(took_dense(trace([&] { at::add(a, d); })));
  EXPECT_FALSE(took_dense(trace([&] { at::div(i, i); })));
  Tensor self = a.clone();
  EXPECT_FALSE(took_dense(trace([&] { self.add_(b); })));
  // Scalar overloads: the wrapped number (already in self's dtype) is read with stride 0.
  EXPECT_TRUE(took_dense(trace([&] { at::add(a, 2.5); })));
  EXPECT_TRUE(took_dense(trace([&] { at::mul(c, 3); })));
  EXPECT_TRUE(took_dense(trace([&] { at::sub(a.t(), 1); })));
  EXPECT_TRUE(took_dense(trace([&] { at::div(a, 4); })));
  // ... but not when the Scalar promotes, self is not dense, or the op is in place.
  EXPECT_FALSE(took_dense(trace([&] { at::add(i, 2.5); })));
  EXPECT_FALSE(took_dense(trace([&] { at::mul(a.narrow(1, 0, 3), 2); })));
  EXPECT_FALSE(took_dense(trace([&] { self.mul_(2); })));
  c10::DispatchTrace::set_listener(nullptr);
}

// The Scalar overloads on the dense path give what TensorIterator gives: values, layout, dtype.
TEST(BinaryOps, ScalarOverloadsOnTheDensePath) {
  const Tensor base = at::arange(120, at::kFloat).view({2, 3, 4, 5});
  const Tensor layouts[] = {base, base.contiguous(at::MemoryFormat::ChannelsLast),
                            base.permute({2, 0, 3, 1})};
  for (const Tensor& x : layouts) {
    const Tensor y = at::mul(at::add(x, 1.5), 2);
    EXPECT_EQ(y.strides(), x.strides());
    EXPECT_EQ(y.scalar_type(), at::kFloat);
    const Tensor expected = at::mul(at::add(x, at::full(x.sizes(), 1.5)), at::full(x.sizes(), 2.0));
    EXPECT_EQ(at::ne(y, expected).to(at::kFloat).sum().item<float>(), 0.f);
  }
}

// ---- Type promotion --------------------------------------------------------------------------

TEST(BinaryOps, PromotionTable) {
  const Tensor i64 = at::ones({2, 3}, at::kLong), i32 = at::ones({2, 3}, at::kInt);
  const Tensor f = at::ones({2, 3}), b = at::ones({2, 3}, at::kBool);
  struct Case {
    const char* what;
    Tensor result;
    at::ScalarType expected;
  };
  const Case cases[] = {
      {"int64 tensor + 2.5", at::add(i64, 2.5), at::kFloat},
      {"int64 tensor + int32 zero-dim", at::add(i64, at::scalar_tensor(1, at::kInt)), at::kLong},
      {"int32 tensor + int64 zero-dim", at::add(i32, at::scalar_tensor(1, at::kLong)), at::kInt},
      {"int32 tensor + double zero-dim", at::add(i32, at::scalar_tensor(2.0, at::kDouble)),
       at::kDouble},
      {"float + double tensor", at::add(f, at::ones({2}, at::kDouble).view({2, 1})), at::kDouble},
      {"half + bfloat16", at::add(at::ones({2}, at::kHalf), at::ones({2}, at::kBFloat16)),
       at::kFloat},
      {"half + 2.5", at::add(at::ones({2}, at::kHalf), 2.5), at::kHalf},
      {"uint8 + int8", at::add(at::ones({2}, at::kByte), at::ones({2}, at::kChar)), at::kShort},
      {"bool + int32 zero-dim", at::add(b, at::scalar_tensor(2, at::kInt)), at::kInt},
      {"int32 zero-dim + double zero-dim",
       at::add(at::scalar_tensor(2, at::kInt), at::scalar_tensor(2.0, at::kDouble)), at::kDouble},
      {"int32 zero-dim + 2.5", at::add(at::scalar_tensor(2, at::kInt), 2.5), at::kFloat},
      {"int32 zero-dim + uint8 tensor",
       at::add(at::scalar_tensor(2, at::kInt), at::ones({2}, at::kByte)), at::kByte},
      {"bool + true", at::add(b, true), at::kBool},
      {"bool * bool", at::mul(b, b), at::kBool},
      {"bool * 2", at::mul(b, 2), at::kLong},
      {"bool * 2.5", at::mul(b, 2.5), at::kFloat},
      {"int64 / int64", at::div(i64, i64), at::kFloat},
      {"bool / bool", at::div(b, b), at::kFloat},
      {"int64 / 2", at::div(i64, 2), at::kFloat},
      {"int32 / double zero-dim", at::div(i32, at::scalar_tensor(2.0, at::kDouble)), at::kDouble},
      {"half / 2", at::div(at::ones({2}, at::kHalf), 2), at::kHalf},
  };
  for (const Case& c : cases) EXPECT_EQ(c.result.scalar_type(), c.expected) << c.what;
  // The wrapped 2.5 is not truncated to an integer: 1 + 2.5 in Float.
  EXPECT_TRUE(same_tensor(at::add(i64, 2.5), at::full({2, 3}, 3.5, at::kFloat)));
  EXPECT_TRUE(same_tensor(at::div(at::full({2}, 7, at::kLong), 2), at::full({2}, 3.5, at::kFloat)));
}

// The Scalar is converted to the result dtype as copy_ converts (wrapping, overflowing to inf),
// not with Scalar::to's overflow check; values from libtorch 1.13.
TEST(BinaryOps, ScalarConvertsToTheResultDtypeAsLibtorch) {
  EXPECT_TRUE(same_tensor(at::add(at::full({1}, 1, at::kChar), 300), at::full({1}, 45, at::kChar)));
  EXPECT_TRUE(same_tensor(at::add(at::full({1}, 1, at::kByte), -1), at::full({1}, 0, at::kByte)));
  EXPECT_TRUE(
      same_tensor(at::add(at::full({1}, 1, at::kFloat), 1e300), at::full({1}, INFINITY, at::kFloat)));
  EXPECT_TRUE(
      same_tensor(at::mul(at::full({1}, 3, at::kHalf), 70000), at::full({1}, INFINITY, at::kHalf)));
}

TEST(BinaryOps, EmptyTensors) {
  EXPECT_EQ(at::add(at::empty({0, 3}), at::empty({0, 3})).sizes().vec(),
            (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(at::mul(at::empty({0, 3}), at::ones({3})).sizes().vec(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(at::div(at::empty({0}, at::kInt), 2).scalar_type(), at::kFloat);
}

TEST(BinaryOps, ResultTypeMustCastToTheOutput) {
  Tensor i64 = at::ones({2, 3}, at::kLong);
  const Tensor f = at::ones({2, 3});
  const std::string long_error = "result type Float can't be cast to the desired output type Long";
  EXPECT_EQ(error_of([&] { i64.add_(2.5); }), long_error);
  EXPECT_EQ(error_of([&] { i64.add_(f); }), long_error);
  EXPECT_EQ(error_of([&] { i64.div_(i64); }), long_error);
  EXPECT_EQ(error_of([&] { i64.mul_(2.5); }), long_error);
  Tensor int_out = at::empty({2, 3}, at::kInt);
  EXPECT_EQ(error_of([&] { at::add_out(int_out, f, f); }),
            "result type Float can't be cast to the desired output type Int");
  Tensor bool_out = at::empty({2, 3}, at::kBool);
  EXPECT_EQ(error_of([&] { at::add_out(bool_out, f, f); }),
            "result type Float can't be cast to the desired output type Bool");
  EXPECT_EQ(error_of([&] { at::div_out(i64, i64, i64); }), long_error);
  // Casting down within a category is allowed: int32 += int64 stays int32.
  Tensor i32 = at::full({2, 3}, 5, at::kInt);
  i32.add_(at::full({2, 3}, 2, at::kLong));
  EXPECT_EQ(i32.scalar_type(), at::kInt);
  EXPECT_TRUE(same_tensor(i32, at::full({2, 3}, 7, at::kInt)));
  // A wider out= gets the common dtype's values cast: int64 + int64 into Float.
  Tensor float_out = at::empty({2, 3});
  at::add_out(float_out, i64, at::full({2, 3}, 2, at::kLong));
  EXPECT_TRUE(same_tensor(float_out, at::full({2, 3}, 3.0, at::kFloat)));
}

// ---- Argument errors -------------------------------------------------------------------------

TEST(BinaryOps, AlphaAndBoolErrors) {
  const Tensor i64 = at::ones({2, 3}, at::kLong), f = at::ones({2, 3}),
               b = at::ones({2, 3}, at::kBool);
  const std::string int_alpha =
      "For integral input tensors, argument alpha must not be a floating point number.";
  EXPECT_EQ(error_of([&] { at::add(i64, i64, 2.5); }), int_alpha);
  EXPECT_EQ(error_of([&] { at::sub(i64, i64, 2.5); }), int_alpha);
  EXPECT_EQ(error_of([&] { at::add(i64, 1, 0.5); }), int_alpha);
  EXPECT_EQ(error_of([&] { at::add(f, f, true); }),
            "Boolean alpha only supported for Boolean results.");
  EXPECT_EQ(error_of([&] { at::add(b, b, true); }), "no error");
  EXPECT_EQ(error_of([&] { at::sub(b, b); }),
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead.");
  const std::string one_bool =
      "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
      "invert a mask, use the `~` or `logical_not()` operator instead.";
  EXPECT_EQ(error_of([&] { at::sub(b, i64); }), one_bool);
  EXPECT_EQ(error_of([&] { at::sub(i64, b); }), one_bool);
  EXPECT_EQ(error_of([&] { at::sub(b, 1); }), one_bool);
}

TEST(BinaryOps, BroadcastErrors) {
  EXPECT_EQ(error_of([] { at::add(at::ones({16}), at::ones({3})); }),
            "The size of tensor a (16) must match the size of tensor b (3) at non-singleton "
            "dimension 0");
  EXPECT_EQ(error_of([] {
              at::mul(at::ones({2, 16}), at::ones({2, 3}));
            }),
            "The size of tensor a (16) must match the size of tensor b (3) at non-singleton "
            "dimension 1");
  Tensor x = at::ones({2, 3});
  EXPECT_EQ(error_of([&] {
              x.add_(at::ones({2, 2, 3}));
            }),
            "output with shape [2, 3] doesn't match the broadcast shape [2, 2, 3]");
}

TEST(BinaryOps, OverlapErrors) {
  Tensor a = at::arange(10, at::kFloat);
  Tensor head = a.narrow(0, 0, 5);
  const std::string partial =
      "unsupported operation: some elements of the input tensor and the written-to tensor refer "
      "to a single memory location. Please clone() the tensor before performing the operation.";
  EXPECT_EQ(error_of([&] { head.add_(a.narrow(0, 1, 5)); }), partial);
  EXPECT_EQ(error_of([&] { at::mul_out(head, a.narrow(0, 1, 5), a.narrow(0, 1, 5)); }), partial);
  Tensor expanded = a.expand({3, 10});
  EXPECT_EQ(error_of([&] { expanded.add_(1); }),
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.");
  // Exactly the same memory is fine (an elementwise op reads each element before writing it).
  at::add_out(head, head, head);
  EXPECT_TRUE(same_tensor(head, at::arange(0, 10, 2, at::kFloat)));
}

// ---- out= ------------------------------------------------------------------------------------

TEST(BinaryOps, OutResizesWithAWarning) {
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  Tensor out = at::empty({5}, at::kLong);
  const Tensor i64 = at::ones({2, 3}, at::kLong);
  Tensor& r = at::add_out(out, i64, i64);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(out.sizes().vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(same_tensor(out, at::full({2, 3}, 2, at::kLong)));
  ASSERT_EQ(warnings.messages.size(), 1u);
  EXPECT_EQ(warnings.messages[0],
            "An output with one or more elements was resized since it had shape [5], which does "
            "not match the required output shape [2, 3]. This behavior is deprecated, and in a "
            "future PyTorch release outputs will not be resized unless they have zero elements. "
            "You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
            "with t.resize_(0).");
  // Empty or right-sized outputs: no warning, and a right-sized out keeps its strides.
  Tensor empty = at::empty({0}, at::kLong);
  at::sub_out(empty, i64, i64);
  Tensor transposed = at::empty({3, 2}, at::kLong).t();
  at::mul_out(transposed, i64, i64);
  EXPECT_EQ(transposed.strides().vec(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(warnings.messages.size(), 1u);
}

TEST(BinaryOps, WritesBumpTheVersion) {
  Tensor a = at::ones({3});
  const auto v0 = a._version();
  a.add_(1);
  at::mul_out(a, at::ones({3}), at::ones({3}));
  EXPECT_EQ(a._version(), v0 + 2);
}

// ---- Parallel loops --------------------------------------------------------------------------

TEST(BinaryOps, ParallelMatchesSerial) {
  // Above the 32768-element grain size, with a broadcast and a transposed operand.
  const Tensor x = make_values(at::kFloat, 256 * 301, 1).view({256, 301});
  const Tensor y = make_values(at::kFloat, 301 * 256, 2).view({301, 256}).t();
  const Tensor row = make_values(at::kFloat, 301, 3);
  const int threads = at::get_num_threads();
  at::set_num_threads(1);
  // add: TensorIterator; div: a broadcast input; mul: the dense fast path.
  const Tensor serial_add = at::add(x, y, 0.5), serial_div = at::div(x, row),
               serial_mul = at::mul(x, x);
  at::set_num_threads(2);
  const Tensor parallel_add = at::add(x, y, 0.5), parallel_div = at::div(x, row),
               parallel_mul = at::mul(x, x);
  at::set_num_threads(threads);
  EXPECT_TRUE(same_tensor(serial_add, parallel_add));
  EXPECT_TRUE(same_tensor(serial_div, parallel_div));
  EXPECT_TRUE(same_tensor(serial_mul, parallel_mul));
  check<float, float>(
      parallel_mul, x, x, [](float a, float b) { return a * b; }, "mul");
}

TEST(BinaryOps, UndefinedOutIsAnError) {
  const at::Tensor a = at::ones({2});
  at::Tensor out;
  EXPECT_EQ(elementwise_test::error_of([&] { at::mul_out(out, a, a); }),
            "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument "
            "#2 'out'");
  EXPECT_EQ(elementwise_test::error_of([&] { at::add_out(out, a, a); }),
            "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument "
            "#3 'out'");
  EXPECT_EQ(elementwise_test::error_of([&] { at::neg_out(out, a); }),
            "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument "
            "#1 'out'");
  EXPECT_EQ(elementwise_test::error_of([&] { at::mul_out(out, at::Tensor(), a); }),
            "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument "
            "#0 'self'");
  EXPECT_FALSE(out.defined());
}

}  // namespace
