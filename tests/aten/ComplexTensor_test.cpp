// Complex tensors (kComplexFloat, kComplexDouble): factories, type inference, random numbers,
// conversions to and from every real dtype, views and copies, element access, printing, and
// requires_grad. Every expected value was read off libtorch 1.13 programs doing the same.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ElementwiseTestUtils.h"
#include "aten/ATen.h"
#include "aten/Torch.h"

namespace {

using at::Tensor;
using elementwise_test::CapturedWarnings;
using test_util::error_of;
using cd = c10::complex<double>;
using cf = c10::complex<float>;

// The elements in row-major order, widened to complex<double>.
std::vector<cd> values_of(const Tensor& t) {
  const Tensor c = t.contiguous();
  std::vector<cd> out;
  AT_DISPATCH_COMPLEX_TYPES(c.scalar_type(), "values_of", [&] {
    const scalar_t* p = c.data_ptr<scalar_t>();
    for (int64_t i = 0; i < c.numel(); ++i) out.emplace_back(p[i].real(), p[i].imag());
  });
  return out;
}

std::vector<double> real_values_of(const Tensor& t) {
  const Tensor c = t.contiguous().to(at::kDouble);
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

std::string printed(const Tensor& t) {
  std::ostringstream ss;
  ss << t;
  return ss.str();
}

// ---- Factories --------------------------------------------------------------------------------

TEST(ComplexFactories, EmptyZerosOnesFull) {
  const Tensor e = at::empty({2, 3}, at::kComplexDouble);
  EXPECT_EQ(e.scalar_type(), at::kComplexDouble);
  EXPECT_EQ(e.strides().vec(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(e.element_size(), 16);
  EXPECT_EQ(e.dtype().name(), "c10::complex<double>");
  EXPECT_TRUE(e.is_complex());
  EXPECT_FALSE(e.is_floating_point());

  EXPECT_EQ(values_of(at::zeros({2}, at::kComplexFloat)), (std::vector<cd>{{0, 0}, {0, 0}}));
  EXPECT_EQ(values_of(at::ones({2}, at::kComplexDouble)), (std::vector<cd>{{1, 0}, {1, 0}}));
  EXPECT_EQ(values_of(at::full({2}, 1.5, at::kComplexFloat)),
            (std::vector<cd>{{1.5, 0}, {1.5, 0}}));
  const Tensor f = at::full({2}, cd(1, 2), at::kComplexDouble);
  EXPECT_EQ(values_of(f), (std::vector<cd>{{1, 2}, {1, 2}}));
}

TEST(ComplexFactories, FullInfersTheDefaultComplexDtype) {
  // libtorch 1.13: a complex fill value without a dtype gives ComplexFloat (the default float
  // dtype's complex type), not ComplexDouble.
  const Tensor t = at::full({2}, cd(1, 2));
  EXPECT_EQ(t.scalar_type(), at::kComplexFloat);
  EXPECT_EQ(values_of(t), (std::vector<cd>{{1, 2}, {1, 2}}));
  // A real dtype cannot hold the value.
  EXPECT_EQ(error_of([] { at::full({2}, cd(1, 2), at::kFloat); }),
            "value cannot be converted to type float without overflow");
  EXPECT_EQ(error_of([] { at::full_like(at::ones({2}), cd(1, 2)); }),
            "value cannot be converted to type float without overflow");
}

TEST(ComplexFactories, LikeFactories) {
  const Tensor a = at::tensor({cf(1, 2), cf(-0.5f, 3), cf(0, -1)});
  EXPECT_EQ(at::zeros_like(a).scalar_type(), at::kComplexFloat);
  EXPECT_EQ(values_of(at::zeros_like(a)), (std::vector<cd>(3, cd(0, 0))));
  const Tensor o = at::ones_like(a, at::kComplexDouble);
  EXPECT_EQ(o.scalar_type(), at::kComplexDouble);
  EXPECT_EQ(values_of(o), (std::vector<cd>(3, cd(1, 0))));
  EXPECT_EQ(at::empty_like(a).scalar_type(), at::kComplexFloat);
  const Tensor fl = at::full_like(at::ones({3}), cd(1, 2), at::kComplexFloat);
  EXPECT_EQ(values_of(fl), (std::vector<cd>(3, cd(1, 2))));
}

TEST(ComplexFactories, TensorAndFromBlob) {
  const Tensor a = at::tensor({cf(1, 2), cf(-0.5f, 3)});
  EXPECT_EQ(a.scalar_type(), at::kComplexFloat);
  EXPECT_EQ(values_of(a), (std::vector<cd>{{1, 2}, {-0.5, 3}}));
  EXPECT_EQ(at::tensor({cd(1, 2)}).scalar_type(), at::kComplexDouble);
  EXPECT_EQ(error_of([] { at::tensor({cf(1, 2)}, at::kDouble); }),
            "\"tensor_cpu\" not implemented for 'Double'");
  // Real values into a complex dtype get a zero imaginary part.
  EXPECT_EQ(values_of(at::tensor({1.5f}, at::kComplexFloat)), (std::vector<cd>{{1.5, 0}}));
  // torch::tensor keeps complex values' own dtype (only float/double follow the default).
  EXPECT_EQ(torch::tensor({cd(1, 2)}).scalar_type(), at::kComplexDouble);
  EXPECT_EQ(torch::tensor({cf(1, 2)}).scalar_type(), at::kComplexFloat);
  EXPECT_EQ(torch::tensor(cd(1, 2)).dim(), 0);

  cf data[3] = {cf(1, 2), cf(3, 4), cf(5, 6)};
  const Tensor b = at::from_blob(data, {3}, at::kComplexFloat);
  EXPECT_EQ(b.data_ptr<cf>(), data);
  EXPECT_EQ(values_of(b), (std::vector<cd>{{1, 2}, {3, 4}, {5, 6}}));
}

TEST(ComplexFactories, ArangeIsNotImplemented) {
  EXPECT_EQ(error_of([] { at::arange(5, at::kComplexFloat); }),
            "\"arange_cpu\" not implemented for 'ComplexFloat'");
  EXPECT_EQ(error_of([] { at::arange(0, 2, 0.5, at::kComplexDouble); }),
            "\"arange_cpu\" not implemented for 'ComplexDouble'");
}

// ---- Random numbers ---------------------------------------------------------------------------

TEST(ComplexRandom, RandnDrawsPartsWithHalfTheVariance) {
  // libtorch 1.13 fills view_as_real(self) with normal(0, 1/sqrt(2)): the parts are randn of
  // twice the elements, interleaved and scaled. Values printed by libtorch with seed 0.
  at::manual_seed(0);
  const Tensor small = at::randn({4}, at::kComplexFloat);
  const std::vector<cf> expected_small = {{1.08964884f, -0.207485572f},
                                          {-1.54063678f, 0.401941597f},
                                          {-0.766873121f, -0.988956273f},
                                          {0.285209298f, 0.59257412f}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(small.data_ptr<cf>()[i], expected_small[i]) << i;

  // 20 floats: the 16-at-a-time path of contiguous float tensors.
  at::manual_seed(0);
  const Tensor wide = at::randn({10}, at::kComplexFloat);
  const std::vector<cf> expected_wide = {
      {-0.796088994f, -0.814841688f}, {-0.177185819f, -0.306798637f}, {0.423443437f, -1.0996182f},
      {-0.241378248f, 1.31027317f},   {0.330994129f, -0.111519538f},  {1.02082181f, 0.188125342f},
      {0.98243022f, 1.12170768f},     {0.669133961f, -0.596569538f},  {0.658900917f, 0.890253961f},
      {1.41773534f, 0.0379977264f}};
  for (int i = 0; i < 10; ++i) EXPECT_EQ(wide.data_ptr<cf>()[i], expected_wide[i]) << i;

  at::manual_seed(0);
  const Tensor d = at::randn({3}, at::kComplexDouble);
  EXPECT_EQ(d.data_ptr<cd>()[0], cd(1.089648797921442, -0.20748556905971358));
  EXPECT_EQ(d.data_ptr<cd>()[2], cd(-0.76687310267634401, -0.98895628820302739));
}

TEST(ComplexRandom, RandFillsBothParts) {
  at::manual_seed(0);
  const Tensor f = at::rand({3}, at::kComplexFloat);
  EXPECT_EQ(f.data_ptr<cf>()[0], cf(0.49625659f, 0.768221796f));
  EXPECT_EQ(f.data_ptr<cf>()[2], cf(0.307422817f, 0.634078681f));
  at::manual_seed(0);
  const Tensor d = at::rand({2}, at::kComplexDouble);
  EXPECT_EQ(d.data_ptr<cd>()[0], cd(0.97005300180655307, 0.70781986439978795));
  EXPECT_EQ(d.data_ptr<cd>()[1], cd(0.45938294312745087, 0.92074768412196029));
}

TEST(ComplexRandom, InPlaceOnAViewWritesThroughAndBumpsTheVersion) {
  Tensor base = at::zeros({2, 3}, at::kComplexFloat);
  Tensor column = base.select(1, 1);
  const int64_t version = base._version();
  column.normal_();
  EXPECT_GT(base._version(), version);
  const std::vector<cd> v = values_of(base);
  EXPECT_EQ(v[0], cd(0, 0));
  EXPECT_NE(v[1], cd(0, 0));
  EXPECT_EQ(v[2], cd(0, 0));
  EXPECT_NE(v[4], cd(0, 0));
}

// ---- Conversions ------------------------------------------------------------------------------

TEST(ComplexConversions, ComplexToRealKeepsTheRealPart) {
  const Tensor a = at::tensor({cf(1, 2), cf(-0.5f, 3), cf(0, -1)});
  EXPECT_EQ(real_values_of(a.to(at::kFloat)), (std::vector<double>{1, -0.5, 0}));
  EXPECT_EQ(real_values_of(a.to(at::kDouble)), (std::vector<double>{1, -0.5, 0}));
  EXPECT_EQ(real_values_of(a.to(at::kLong)), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(real_values_of(a.to(at::kHalf)), (std::vector<double>{1, -0.5, 0}));
  EXPECT_EQ(real_values_of(a.to(at::kBFloat16)), (std::vector<double>{1, -0.5, 0}));
  EXPECT_EQ(real_values_of((a * -1).to(at::kByte)), (std::vector<double>{255, 0, 0}));
  // Bool: true when either part is nonzero.
  const Tensor z = at::tensor({cf(0, 0), cf(0, 1), cf(1, 0)});
  EXPECT_EQ(real_values_of(z.to(at::kBool)), (std::vector<double>{0, 1, 1}));
}

TEST(ComplexConversions, RealToComplexHasZeroImaginaryParts) {
  EXPECT_EQ(values_of(at::tensor({1.5f, -2.f, 3.f}).to(at::kComplexFloat)),
            (std::vector<cd>{{1.5, 0}, {-2, 0}, {3, 0}}));
  EXPECT_EQ(values_of(at::tensor({int64_t(1), int64_t(2)}).to(at::kComplexDouble)),
            (std::vector<cd>{{1, 0}, {2, 0}}));
  EXPECT_EQ(values_of(at::ones({2}, at::kHalf).to(at::kComplexFloat)),
            (std::vector<cd>{{1, 0}, {1, 0}}));
  EXPECT_EQ(values_of(at::ones({2}, at::kBool).to(at::kComplexFloat)),
            (std::vector<cd>{{1, 0}, {1, 0}}));
  // Between the two precisions, both ways.
  const Tensor d = at::tensor({cd(0.1, -0.2)});
  EXPECT_EQ(d.to(at::kComplexFloat).data_ptr<cf>()[0], cf(0.1f, -0.2f));
  EXPECT_EQ(d.to(at::kComplexFloat).to(at::kComplexDouble).data_ptr<cd>()[0],
            cd(static_cast<double>(0.1f), static_cast<double>(-0.2f)));
}

// libtorch warns once per process; a fresh process (the death test's) sees the first warning.
void copy_complex_to_real_twice_and_report() {
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  const Tensor a = at::tensor({cf(1, 2)});
  Tensor f = at::empty({1});
  f.copy_(a);
  f.copy_(a);
  at::empty({1}, at::kBool).copy_(a);
  std::cerr << warnings.messages.size() << ":"
            << (warnings.messages.empty() ? "" : warnings.messages[0]);
  std::exit(0);
}

TEST(ComplexConversionsDeathTest, CastingToRealWarnsOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(copy_complex_to_real_twice_and_report(), ::testing::ExitedWithCode(0),
              "^1:Casting complex values to real discards the imaginary part$");
}

TEST(ComplexConversions, RealToComplexAndComplexToBoolDoNotWarn) {
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  at::empty({1}, at::kComplexFloat).copy_(at::ones({1}));
  at::empty({1}, at::kBool).copy_(at::ones({1}, at::kComplexFloat));
  EXPECT_TRUE(warnings.messages.empty());
}

// ---- Views, copies, element access -----------------------------------------------------------

TEST(ComplexLayouts, TransposeContiguousCloneKeepValuesAndStrides) {
  const Tensor m =
      at::tensor({cf(1, 2), cf(3, 4), cf(5, 6), cf(7, 8), cf(9, 10), cf(11, 12)}).view({2, 3});
  const std::vector<cd> transposed = {{1, 2}, {7, 8}, {3, 4}, {9, 10}, {5, 6}, {11, 12}};
  const Tensor p = m.permute({1, 0});
  EXPECT_EQ(p.strides().vec(), (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(p.is_alias_of(m));
  EXPECT_EQ(values_of(p), transposed);
  const Tensor c = m.t().contiguous();
  EXPECT_EQ(c.strides().vec(), (std::vector<int64_t>{2, 1}));
  EXPECT_FALSE(c.is_alias_of(m));
  EXPECT_EQ(values_of(c), transposed);
  // clone keeps the (dense) transposed strides, as libtorch's preserve_format does.
  const Tensor k = m.t().clone();
  EXPECT_EQ(k.strides().vec(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(values_of(k), transposed);
  // 16-byte elements, strided and transposed copies of a larger block.
  const Tensor big = at::randn({20, 24}, at::kComplexDouble);
  const Tensor bt = big.t().contiguous();
  for (int64_t i = 0; i < 20; i += 7) {
    for (int64_t j = 0; j < 24; j += 5) {
      EXPECT_EQ(bt.data_ptr<cd>()[j * 20 + i], big.data_ptr<cd>()[i * 24 + j]);
    }
  }
}

TEST(ComplexLayouts, ItemAndDataPtr) {
  const Tensor a = at::tensor({cf(1, 2), cf(-0.5f, 3)});
  EXPECT_EQ(a[0].item<cf>(), cf(1, 2));
  EXPECT_EQ(a[1].item<cd>(), cd(-0.5, 3));
  const c10::Scalar s = a[1].item();
  EXPECT_TRUE(s.isComplex());
  EXPECT_EQ(s.type(), at::kComplexDouble);
  EXPECT_EQ(a.data_ptr<cf>()[1], cf(-0.5f, 3));
  EXPECT_EQ(error_of([&] { a[1].item<float>(); }),
            "value cannot be converted to type float without overflow");
  EXPECT_EQ(error_of([&] { a.data_ptr<cd>(); }),
            "expected scalar type ComplexDouble but found ComplexFloat");
  EXPECT_EQ(error_of([&] { a.data_ptr<float>(); }),
            "expected scalar type Float but found ComplexFloat");
  Tensor r = at::empty({2}, at::kComplexFloat);
  r.fill_(cd(1, -1));
  EXPECT_EQ(values_of(r), (std::vector<cd>{{1, -1}, {1, -1}}));
  r.zero_();
  EXPECT_EQ(values_of(r), (std::vector<cd>{{0, 0}, {0, 0}}));
}

// ---- Printing ---------------------------------------------------------------------------------

TEST(ComplexPrinting, PrintsTheRealPartsAsLibtorch) {
  // libtorch 1.13 prints a kDouble copy: the imaginary parts are not shown.
  CapturedWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  EXPECT_EQ(printed(at::tensor({cf(1, 2), cf(-0.5f, 3)})),
            " 1.0000\n-0.5000\n[ CPUComplexFloatType{2} ]");
  EXPECT_EQ(printed(at::tensor({cd(1, 2), cd(-0.5, 3)})),
            " 1.0000\n-0.5000\n[ CPUComplexDoubleType{2} ]");
  EXPECT_EQ(printed(at::tensor({cf(1, 2), cf(-0.5f, 3)}).view({1, 2})),
            " 1.0000 -0.5000\n[ CPUComplexFloatType{1,2} ]");
  EXPECT_EQ(printed(at::tensor({cf(1e10f, 2), cf(-0.5f, 3)})),
            " 1.0000e+10\n-5.0000e-01\n[ CPUComplexFloatType{2} ]");
  EXPECT_EQ(printed(at::tensor({cd(1e-10, 2), cd(12345.5, 3)})),
            " 1.0000e-10\n 1.2346e+04\n[ CPUComplexDoubleType{2} ]");
  EXPECT_EQ(printed(at::zeros({2, 3}, at::kComplexFloat)),
            " 0  0  0\n 0  0  0\n[ CPUComplexFloatType{2,3} ]");
  EXPECT_EQ(printed(at::zeros({2, 2, 2}, at::kComplexDouble)),
            "(1,.,.) = \n  0  0\n  0  0\n\n(2,.,.) = \n  0  0\n  0  0\n"
            "[ CPUComplexDoubleType{2,2,2} ]");
  EXPECT_EQ(printed(at::tensor({cd(1.5, 2)}).squeeze()), "1.5\n[ CPUComplexDoubleType{} ]");
  EXPECT_EQ(printed(at::empty({0}, at::kComplexFloat)), "[ CPUComplexFloatType{0} ]");
  EXPECT_EQ(at::tensor({cf(1, 2)}).toString(), "CPUComplexFloatType");
  // The warning of the kDouble copy, at most once per process.
  EXPECT_LE(warnings.messages.size(), 1u);
}

// ---- Autograd ---------------------------------------------------------------------------------

TEST(ComplexAutograd, RequiresGradIsRefusedClearly) {
  // libtorch differentiates complex functions; miniaten refuses rather than compute wrong
  // gradients with its real-only formulas.
  EXPECT_EQ(error_of([] { at::ones({2}, at::kComplexFloat).set_requires_grad(true); }),
            "miniaten: autograd does not support complex tensors yet (got a ComplexFloat tensor "
            "that requires grad)");
  EXPECT_EQ(error_of([] {
              torch::ones({2}, at::TensorOptions().dtype(at::kComplexDouble).requires_grad(true));
            }),
            "miniaten: autograd does not support complex tensors yet (got a ComplexDouble tensor "
            "that requires grad)");
  Tensor t = at::ones({2}, at::kComplexFloat);
  t.set_requires_grad(false);
  EXPECT_FALSE(t.requires_grad());
  // A complex result of a recorded op is refused too; without grad mode there is no graph.
  const Tensor x = torch::ones({2}, torch::requires_grad());
  const std::string refused =
      "miniaten: autograd does not support complex tensors yet (got a ComplexFloat tensor that "
      "requires grad)";
  EXPECT_EQ(error_of([&] { x* cd(0, 1); }), refused);
  EXPECT_EQ(error_of([&] { x.to(at::kComplexFloat); }), refused);
  {
    torch::NoGradGuard no_grad;
    EXPECT_EQ(values_of(x * cd(0, 1)), (std::vector<cd>{{0, 1}, {0, 1}}));
  }
  EXPECT_FALSE((x.detach() * cd(0, 1)).requires_grad());
}

}  // namespace
