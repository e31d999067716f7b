// cpu_kernel / cpu_kernel_vec / cpu_serial_kernel over contiguous, strided, transposed,
// broadcast-scalar and mixed operands: the values against a naive strided reference, and which
// loop ran (Note [Which loop runs], counted per Note [Loop counters]). The last tests run the
// AVX2 and AVX-512 copies of a cpu_kernel_vec kernel (LoopsTestKernel.cpp) over every dtype.

#include <gtest/gtest.h>

#include <vector>

#include "LoopsTestKernel.h"
#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/Parallel.h"
#include "aten/native/TypePromotion.h"
#include "aten/native/cpu/Loops.h"

namespace miniaten_test {
DEFINE_DISPATCH(sub3_stub);
}  // namespace miniaten_test

namespace {

using at::native::CPUCapability;
using at::native::detail::loop_counters;
using Vec = at::vec::Vectorized<float>;

struct LoopsRan {
  int64_t vectorized = 0, vectorized_scalar = 0, basic = 0;
};

template <typename F>
LoopsRan count_loops(F&& f) {
  loop_counters.reset();
  loop_counters.enabled = true;
  f();
  loop_counters.enabled = false;
  return {loop_counters.vectorized.load(), loop_counters.vectorized_scalar.load(),
          loop_counters.basic.load()};
}

// A fresh tensor of `dtype` holding small distinct values (negative ones where dtype has them).
at::Tensor filled(std::vector<int64_t> sizes, at::ScalarType dtype = at::kFloat, int seed = 0) {
  at::Tensor t = at::empty(sizes, dtype);
  AT_DISPATCH_ALL_TYPES_AND3(at::kBool, at::kHalf, at::kBFloat16, dtype, "filled", [&] {
    auto* p = static_cast<scalar_t*>(t.data_ptr());
    for (int64_t i = 0; i < t.numel(); ++i) {
      p[i] = static_cast<scalar_t>(static_cast<int>((i * 7 + seed * 3) % 23) - 11);
    }
  });
  return t;
}

// Element k, in row-major order of t's sizes, read through t's strides.
template <typename T = float>
T element(const at::Tensor& t, int64_t k) {
  int64_t offset = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    offset += (k % t.sizes()[d]) * t.strides()[d];
    k /= t.sizes()[d];
  }
  return static_cast<const T*>(t.data_ptr())[offset];
}

void affine_kernel(at::TensorIteratorBase& iter) {  // 2a + 1
  at::native::cpu_kernel_vec(
      iter, [](float a) -> float { return 2.f * a + 1.f; },
      [](Vec a) { return a * Vec(2.f) + Vec(1.f); });
}

void sub3_kernel(at::TensorIteratorBase& iter) {  // a - 3b (not symmetric: catches swapped args)
  at::native::cpu_kernel_vec(
      iter, [](float a, float b) -> float { return a - 3.f * b; },
      [](Vec a, Vec b) { return a - Vec(3.f) * b; });
}

// Runs affine_kernel; returns the output (allocated by TensorIterator when `out` is undefined).
at::Tensor unary(const at::Tensor& a, at::Tensor out, LoopsRan* ran) {
  auto iter = at::TensorIterator::unary_op(out, a);
  *ran = count_loops([&] { affine_kernel(iter); });
  const at::Tensor result = iter.output();
  for (int64_t k = 0; k < result.numel(); ++k) {
    EXPECT_EQ(element(result, k), 2.f * element(a, k) + 1.f) << "element " << k;
  }
  return result;
}

at::Tensor binary(const at::Tensor& a, const at::Tensor& b, at::Tensor out, LoopsRan* ran) {
  auto iter = at::TensorIterator::binary_op(out, a, b);
  *ran = count_loops([&] { sub3_kernel(iter); });
  const at::Tensor result = iter.output();
  // The iterator's inputs: a wrapped double Scalar has become a float there.
  const at::Tensor ea = iter.input(0).expand(result.sizes(), false);
  const at::Tensor eb = iter.input(1).expand(result.sizes(), false);
  for (int64_t k = 0; k < result.numel(); ++k) {
    EXPECT_EQ(element(result, k), element(ea, k) - 3.f * element(eb, k)) << "element " << k;
  }
  return result;
}

TEST(Loops, ContiguousUnaryIsVectorized) {
  LoopsRan ran;
  unary(filled({100}), at::Tensor(), &ran);
  EXPECT_EQ(ran.vectorized, 1);
  EXPECT_EQ(ran.vectorized_scalar + ran.basic, 0);
}

TEST(Loops, EveryLengthAroundTheVectorWidthIsVectorizedWithAScalarTail) {
  for (int64_t n = 1; n <= 4 * Vec::size() + 1; ++n) {
    SCOPED_TRACE(n);
    LoopsRan ran;
    unary(filled({n}), at::Tensor(), &ran);
    EXPECT_EQ(ran.vectorized, 1);
  }
}

TEST(Loops, StridedInputIsBasic) {
  LoopsRan ran;
  at::Tensor out = unary(filled({200}).slice(0, 0, 200, 2), at::Tensor(), &ran);
  EXPECT_EQ(out.strides(), c10::IntArrayRef({1}));
  EXPECT_EQ(ran.basic, 1);
  EXPECT_EQ(ran.vectorized + ran.vectorized_scalar, 0);
}

TEST(Loops, TransposedInputWithFreshOutputIsVectorized) {
  // The new output follows the input's layout, so both walk memory contiguously.
  LoopsRan ran;
  at::Tensor out = unary(filled({12, 40}).transpose(0, 1), at::Tensor(), &ran);
  EXPECT_EQ(out.sizes(), c10::IntArrayRef({40, 12}));
  EXPECT_EQ(out.strides(), c10::IntArrayRef({1, 40}));
  EXPECT_EQ(ran.vectorized, 1);
  EXPECT_EQ(ran.basic, 0);
}

TEST(Loops, TransposedInputIntoContiguousOutputIsBasic) {
  LoopsRan ran;
  unary(filled({12, 40}).transpose(0, 1), at::empty({40, 12}), &ran);
  EXPECT_GE(ran.basic, 1);
  EXPECT_EQ(ran.vectorized + ran.vectorized_scalar, 0);
}

TEST(Loops, ContiguousBinaryIsVectorized) {
  LoopsRan ran;
  binary(filled({77}), filled({77}, at::kFloat, 1), at::Tensor(), &ran);
  EXPECT_EQ(ran.vectorized, 1);
  EXPECT_EQ(ran.vectorized_scalar + ran.basic, 0);
}

TEST(Loops, ScalarOperandTakesTheBroadcastVectorPath) {
  LoopsRan ran;
  // The Scalar of add(t, 2.5): a 0-dim wrapped number, stride 0.
  binary(filled({77}), at::wrapped_scalar_tensor(2.5), at::Tensor(), &ran);
  EXPECT_EQ(ran.vectorized_scalar, 1);
  EXPECT_EQ(ran.vectorized + ran.basic, 0);
  // As the first input (is_contiguous_scalar<traits, 1>).
  binary(at::wrapped_scalar_tensor(2.5), filled({77}), at::Tensor(), &ran);
  EXPECT_EQ(ran.vectorized_scalar, 1);
  // An expanded one-element tensor is the same thing to the loop.
  binary(filled({77}), filled({1}, at::kFloat, 4).expand({77}, false), at::Tensor(), &ran);
  EXPECT_EQ(ran.vectorized_scalar, 1);
}

TEST(Loops, RowBroadcasts) {
  LoopsRan ran;
  // b [40] repeats along dim 0: contiguous along each row (outer stride 0): vectorized.
  binary(filled({4, 40}), filled({40}, at::kFloat, 2), at::Tensor(), &ran);
  EXPECT_EQ(ran.vectorized, 1);
  EXPECT_EQ(ran.basic + ran.vectorized_scalar, 0);
  // b [4, 1] is constant along each row: a broadcast scalar per row.
  binary(filled({4, 40}), filled({4, 1}, at::kFloat, 2), at::Tensor(), &ran);
  EXPECT_EQ(ran.vectorized_scalar, 1);
  EXPECT_EQ(ran.basic + ran.vectorized, 0);
}

TEST(Loops, TwoBroadcastInputsAreBasic) {
  LoopsRan ran;
  binary(filled({4, 1}).expand({4, 40}, false),
         filled({4, 1}, at::kFloat, 3).expand({4, 40}, false), at::Tensor(), &ran);
  EXPECT_EQ(ran.basic, 1);
  EXPECT_EQ(ran.vectorized + ran.vectorized_scalar, 0);
}

TEST(Loops, MixedContiguousAndStridedIsBasic) {
  LoopsRan ran;
  binary(filled({50}), filled({150}, at::kFloat, 5).slice(0, 0, 150, 3), at::Tensor(), &ran);
  EXPECT_EQ(ran.basic, 1);
  EXPECT_EQ(ran.vectorized + ran.vectorized_scalar, 0);
}

TEST(Loops, ParallelChunksEachTakeTheVectorizedPath) {
  const int saved = at::get_num_threads();
  at::set_num_threads(2);
  LoopsRan ran;
  const int64_t n = 3 * at::internal::GRAIN_SIZE + 5;
  binary(filled({n}), filled({n}, at::kFloat, 1), at::Tensor(), &ran);
  EXPECT_EQ(ran.vectorized, 2) << "one block per chunk";
  EXPECT_EQ(ran.basic + ran.vectorized_scalar, 0);
  at::set_num_threads(saved);
}

TEST(Loops, CpuKernelHandlesMixedTypesElementByElement) {
  at::Tensor a = filled({30});
  at::Tensor out = at::empty({30}, at::kBool);
  auto iter =
      at::TensorIteratorConfig().add_output(out).add_input(a).check_all_same_dtype(false).build();
  const LoopsRan ran =
      count_loops([&] { at::native::cpu_kernel(iter, [](float x) -> bool { return x > 1.f; }); });
  EXPECT_EQ(ran.basic, 1);
  for (int64_t k = 0; k < 30; ++k) EXPECT_EQ(element<bool>(out, k), element(a, k) > 1.f);
}

TEST(Loops, CpuSerialKernelWithAVoidOpVisitsEveryElementInOrder) {
  at::Tensor a = filled({6, 7}).transpose(0, 1);
  auto iter = at::TensorIteratorConfig().add_input(a).build();
  std::vector<float> seen;
  at::native::cpu_serial_kernel(iter, [&](float x) { seen.push_back(x); });
  ASSERT_EQ(seen.size(), 42u);
  // Memory order of the underlying [6, 7] tensor.
  for (int64_t k = 0; k < 42; ++k) EXPECT_EQ(seen[k], element(a.transpose(0, 1), k));
}

TEST(Loops, CountersStayOffUnlessEnabled) {
  loop_counters.reset();
  at::Tensor out;
  auto iter = at::TensorIterator::unary_op(out, filled({64}));
  affine_kernel(iter);
  EXPECT_EQ(loop_counters.vectorized.load() + loop_counters.basic.load(), 0);
}

TEST(Loops, OpTypesMustMatchTheOperandDtypes) {
  at::Tensor out;
  auto iter = at::TensorIterator::unary_op(out, filled({8}));
  try {
    at::native::cpu_kernel(iter, [](double x) -> double { return x; });
    FAIL() << "expected an internal assert";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find("op types do not match"), std::string::npos) << e.what();
  }
}

// ---- Every capability's copy of a cpu_kernel_vec kernel, for every dtype -----------------------

template <typename scalar_t>
void check_sub3(const at::Tensor& a, const at::Tensor& b, const at::Tensor& out) {
  const at::Tensor ea = a.expand(out.sizes(), false), eb = b.expand(out.sizes(), false);
  for (int64_t k = 0; k < out.numel(); ++k) {
    const scalar_t want = element<scalar_t>(ea, k) - element<scalar_t>(eb, k) * scalar_t(3);
    ASSERT_EQ(static_cast<double>(element<scalar_t>(out, k)), static_cast<double>(want))
        << "element " << k << " of " << out.numel();
  }
}

TEST(Loops, EveryCapabilityCopyMatchesScalarCodeForEveryDtype) {
  const int detected = static_cast<int>(at::native::detail::detect_cpu_capability());
  const at::ScalarType dtypes[] = {at::kByte,  at::kChar,   at::kShort, at::kInt,  at::kLong,
                                   at::kFloat, at::kDouble, at::kBool,  at::kHalf, at::kBFloat16};
  for (CPUCapability c : {CPUCapability::DEFAULT, CPUCapability::AVX2, CPUCapability::AVX512}) {
    if (static_cast<int>(c) > detected) continue;
    auto kernel = miniaten_test::sub3_stub.cpu_kernel_for(c);
    ASSERT_NE(kernel, nullptr);
    for (at::ScalarType dtype : dtypes) {
      // Lengths around 2 * Vec::size() for every lane width from 64 (bytes) down to 4 (doubles).
      for (int64_t n : {1, 3, 4, 7, 8, 9, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200}) {
        SCOPED_TRACE(std::string(cpu_capability_name(c)) + " " + c10::toString(dtype) +
                     " n=" + std::to_string(n));
        for (bool scalar_b : {false, true}) {
          const at::Tensor a = filled({n}, dtype, 1);
          const at::Tensor b =
              scalar_b ? filled({1}, dtype, 2).expand({n}, false) : filled({n}, dtype, 2);
          at::Tensor out;
          auto iter = at::TensorIterator::binary_op(out, a, b);
          const LoopsRan ran = count_loops([&] { kernel(iter); });
          // (With n == 1 the expanded b is an ordinary one-element tensor.)
          EXPECT_EQ(scalar_b && n > 1 ? ran.vectorized_scalar : ran.vectorized, 1);
          AT_DISPATCH_ALL_TYPES_AND3(at::kBool, at::kHalf, at::kBFloat16, dtype, "check",
                                     [&] { check_sub3<scalar_t>(a, b, iter.output()); });
        }
      }
    }
  }
}

}  // namespace
