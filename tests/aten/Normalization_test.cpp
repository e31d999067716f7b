// batch_norm: values, running statistics, layouts, error texts and gradients, against
// libtorch 1.13 (every expected number below was printed by a program built against it).

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "autograd/GradCheck.h"
#include "dispatcher/Dispatcher.h"
#include "TestUtils.h"

namespace {

// x[i] = i^1.5 over [2, 3, 4], in double.
at::Tensor input_2x3x4() {
  at::Tensor x = at::empty({2, 3, 4}, at::kDouble);
  double* p = x.data_ptr<double>();
  for (int i = 0; i < 24; ++i) p[i] = std::pow(static_cast<double>(i), 1.5);
  return x;
}

at::Tensor vec(std::vector<double> values) {
  at::Tensor t = at::empty({static_cast<int64_t>(values.size())}, at::kDouble);
  for (size_t i = 0; i < values.size(); ++i) t.data_ptr<double>()[i] = values[i];
  return t;
}

void expect_values(const at::Tensor& t, const std::vector<double>& expected, double tol) {
  const at::Tensor flat = t.contiguous().view({-1});
  ASSERT_EQ(flat.numel(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(flat[static_cast<int64_t>(i)].item<double>(), expected[i], tol) << "at " << i;
  }
}

using test_util::error_of;

TEST(BatchNorm, TrainingNormalizesPerChannelAndUpdatesRunningStats) {
  const at::Tensor x = input_2x3x4();
  const at::Tensor w = vec({0.5, 1.5, 2.5});
  const at::Tensor b = vec({0, -1, -2});
  at::Tensor rm = at::zeros({3}, at::kDouble);
  at::Tensor rv = at::ones({3}, at::kDouble);
  const at::Tensor y = at::batch_norm(x, w, b, rm, rv, true, 0.1, 1e-5, false);
  EXPECT_EQ(y.sizes(), x.sizes());
  EXPECT_EQ(y.strides(), x.strides());
  expect_values(y,
                {-0.53763104, -0.516947347, -0.47912872, -0.430155415, -2.72359895, -2.56791335,
                 -2.39576704, -2.20860592, -4.93247981, -4.62707631, -4.30419802, -3.96474412,
                 0.322173959, 0.431858495, 0.545847092, 0.663982976, 0.0177412317, 0.315998829,
                 0.623162899, 0.938982301, -0.265758326, 0.208585629, 0.694362292, 1.19130867},
                1e-7);
  // Momentum 0.1 towards the batch mean and the unbiased batch variance.
  expect_values(rm, {2.59929899, 4.32096182, 6.46128933}, 1e-7);
  expect_values(rv, {67.6845116, 108.20616, 147.319887}, 1e-5);
}

TEST(BatchNorm, EvaluationUsesRunningStats) {
  at::Tensor rm = vec({2.59929899, 4.32096182, 6.46128933});
  at::Tensor rv = vec({67.6845116, 108.20616, 147.319887});
  const at::Tensor y = at::batch_norm(input_2x3x4(), {}, {}, rm, rv, false, 0.1, 1e-5, false);
  const std::vector<double> first8 = {-0.31594505, -0.194394951, 0.0278505477, 0.315647793,
                                      0.353678193, 0.659414858,  0.997477191,  1.36502574};
  expect_values(y.view({-1}).narrow(0, 0, 8), first8, 1e-6);
  EXPECT_EQ(error_of([&] { at::batch_norm(input_2x3x4(), {}, {}, {}, {}, false, 0.1, 1e-5, false); }),
            "running_mean must be defined in evaluation mode");
}

TEST(BatchNorm, ConstantInputGivesZerosWithoutStats) {
  const at::Tensor y = at::batch_norm(at::ones({5, 5}, at::kFloat), {}, {}, {}, {}, true, 0.1,
                                      1e-5, false);
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{5, 5}));
  EXPECT_EQ(y.strides(), (std::vector<int64_t>{5, 1}));
  EXPECT_EQ(y.scalar_type(), at::kFloat);
  EXPECT_TRUE(at::equal(y, at::zeros({5, 5}, at::kFloat)));
}

TEST(BatchNorm, KeepsChannelsLast) {
  at::Tensor x = at::arange(2 * 3 * 2 * 2, at::kFloat).view({2, 3, 2, 2});
  x = x.contiguous(at::MemoryFormat::ChannelsLast);
  const at::Tensor y = at::batch_norm(x, {}, {}, {}, {}, true, 0.1, 1e-5, false);
  EXPECT_EQ(y.strides(), (std::vector<int64_t>{12, 1, 6, 3}));
  EXPECT_NEAR(y.reshape({-1})[5].item<float>(), -1.06500137f, 1e-6);
}

TEST(BatchNorm, ChannelSizeErrors) {
  const at::Tensor x = input_2x3x4();
  EXPECT_EQ(error_of([&] {
              at::batch_norm(x, {}, {}, at::zeros({4}, at::kDouble), at::ones({3}, at::kDouble),
                             false, 0.1, 1e-5, false);
            }),
            "running_mean should contain 3 elements not 4");
  EXPECT_EQ(error_of([&] {
              at::batch_norm(x, at::ones({2}, at::kDouble), {}, {}, {}, true, 0.1, 1e-5, false);
            }),
            "weight should contain 3 elements not 2");
}

// No channels: the result is the input's shape, as libtorch 1.13 gives, and the running
// statistics (of no channels) stay as they were (found by fuzz_boxed_call: a division by zero).
TEST(BatchNorm, NoChannels) {
  for (bool training : {true, false}) {
    const at::Tensor mean = at::empty({0}), var = at::empty({0});
    const at::Tensor y =
        at::batch_norm(at::empty({2, 0, 3}), {}, {}, mean, var, training, 0.1, 1e-5, false);
    EXPECT_EQ(y.sizes(), c10::IntArrayRef({2, 0, 3}));
    EXPECT_EQ(y.strides(), c10::IntArrayRef({3, 3, 1}));
  }
  EXPECT_EQ(at::batch_norm(at::empty({2, 0}), {}, {}, {}, {}, true, 0.1, 1e-5, false).sizes(),
            c10::IntArrayRef({2, 0}));
}

// One value per channel: the running variance becomes NaN and the running mean moves towards
// the value, as libtorch 1.13 gives (its kernel divides the sum of squares by n - 1 = 0).
TEST(BatchNorm, OneValuePerChannelMakesTheRunningVarianceNaN) {
  at::Tensor mean = at::zeros({3}), var = at::ones({3});
  const at::Tensor y = at::batch_norm(at::ones({1, 3}), {}, {}, mean, var, true, 0.1, 1e-5, false);
  EXPECT_EQ(y.sizes(), c10::IntArrayRef({1, 3}));
  for (int64_t c = 0; c < 3; ++c) {
    EXPECT_FLOAT_EQ(mean[c].item<float>(), 0.1f);
    EXPECT_TRUE(std::isnan(var[c].item<float>()));
  }
}

TEST(BatchNorm, IsCompositeImplicitAutograd) {
  // See Note [batch_norm is composite]: every backend and autograd key runs the composite.
  const auto op = c10::Dispatcher::singleton().findSchemaOrThrow("aten::batch_norm", "");
  for (c10::DispatchKey k : {c10::DispatchKey::CPU, c10::DispatchKey::CUDA,
                             c10::DispatchKey::Meta, c10::DispatchKey::AutogradCPU}) {
    EXPECT_STREQ(op.entry().tableEntry(k).provenance, "CompositeImplicitAutograd kernel") << k;
  }
  EXPECT_EQ(toString(op.schema()),
            "aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
            "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) "
            "-> Tensor");
}

TEST(BatchNorm, GradientsMatchFiniteDifferences) {
  const at::Tensor x = miniaten_test::leaf({3, 2, 2});
  const at::Tensor w = miniaten_test::leaf({2}, 0.7);
  const at::Tensor b = miniaten_test::leaf({2}, -0.2);
  EXPECT_TRUE(miniaten_test::gradcheck(
      [](const miniaten_test::TensorList& in) {
        return at::batch_norm(in[0], in[1], in[2], {}, {}, true, 0.1, 1e-5, false);
      },
      {x, w, b}));
}

}  // namespace
