// CUDA tensors: made, copied across and within the device, made contiguous, printed and brought
// back, compared value for value and stride for stride with the same operations on the CPU, with
// the GPU loop each copy takes. Skipped without a device.

#include <sstream>

#include "../ElementwiseTestUtils.h"
#include "CUDATestUtils.h"
#include "TestUtils.h"
#include "aten/native/Copy.h"
#include "aten/native/cuda/ElementwiseBody.h"
#include "c10/cuda/CUDAStream.h"

namespace {

using elementwise_test::same_tensor;
using test_util::error_of;

const at::ScalarType kAllTypes[] = {
    at::kByte,  at::kChar,   at::kShort, at::kInt,      at::kLong,         at::kHalf,
    at::kFloat, at::kDouble, at::kBool,  at::kBFloat16, at::kComplexFloat, at::kComplexDouble};

std::vector<int64_t> vec(c10::IntArrayRef r) {
  return std::vector<int64_t>(r.begin(), r.end());
}

// ---- Factories -------------------------------------------------------------------------------

TEST(CUDAFactories, EmptyHasTheGeometryOfTheCpuTensor) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor t = at::empty({2, 3, 4, 5}, at::TensorOptions().device(at::kCUDA));
  EXPECT_TRUE(t.is_cuda());
  EXPECT_EQ(t.device(), at::Device("cuda:0"));
  EXPECT_EQ(t.scalar_type(), at::kFloat);
  EXPECT_EQ(vec(t.strides()), (std::vector<int64_t>{60, 20, 5, 1}));
  EXPECT_EQ(t.toString(), "CUDAFloatType");
  const at::Tensor cl =
      at::empty({2, 3, 4, 5}, at::kFloat, at::MemoryFormat::ChannelsLast).to(at::kCUDA);
  EXPECT_EQ(vec(cl.strides()), (std::vector<int64_t>{60, 1, 15, 3}));
  const at::Tensor s = at::empty_strided({3, 4}, {1, 3}, at::TensorOptions().device("cuda"));
  EXPECT_EQ(vec(s.strides()), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(s.device(), at::Device("cuda:0")) << "\"cuda\" is the current device";
  const at::Tensor e = at::empty({0}, at::kCUDA);
  EXPECT_EQ(e.numel(), 0);
  EXPECT_EQ(e.data_ptr(), nullptr);
}

TEST(CUDAFactories, ErrorsAreTheCpuOnes) {
  SKIP_WITHOUT_CUDA();
  EXPECT_EQ(error_of([] {
              at::empty({2, -1}, at::kCUDA);
            }),
            "Trying to create tensor with negative dimension -1: [2, -1]");
  EXPECT_EQ(
      error_of([] { at::empty({2}, at::TensorOptions().device(at::kCUDA).pinned_memory(true)); }),
      "Only dense CPU tensors can be pinned");
  EXPECT_EQ(error_of([] {
              at::empty_strided({2, 3}, {1}, at::kCUDA);
            }),
            "dimensionality of sizes (2) must match dimensionality of strides (1)");
}

TEST(CUDAFactories, ValueFactoriesMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  const auto on = at::TensorOptions().device(at::kCUDA);
  EXPECT_TRUE(same_tensor(at::zeros({3, 5}, on).cpu(), at::zeros({3, 5})));
  EXPECT_TRUE(
      same_tensor(at::ones({4, 3}, on.dtype(at::kHalf)).cpu(), at::ones({4, 3}, at::kHalf)));
  EXPECT_TRUE(same_tensor(at::full({2, 7}, 2.5, on.dtype(at::kDouble)).cpu(),
                          at::full({2, 7}, 2.5, at::kDouble)));
  EXPECT_EQ(at::full({2}, 3, on).scalar_type(), at::kLong) << "full infers the dtype as on CPU";
  for (const at::ScalarType t :
       {at::kFloat, at::kDouble, at::kLong, at::kInt, at::kHalf, at::kBFloat16}) {
    // A fractional step for floating types (each element one rounding of start + step * i).
    const double step = c10::isFloatingType(t) ? 0.7 : 3;
    EXPECT_TRUE(same_tensor(at::arange(-3, 1000, step, on.dtype(t)).cpu(),
                            at::arange(-3, 1000, step, at::TensorOptions().dtype(t))))
        << c10::toString(t);
  }
  EXPECT_TRUE(same_tensor(at::arange(10, on).cpu(), at::arange(10)));
  EXPECT_EQ(at::arange(10, on).scalar_type(), at::kLong);
  // An out= of the right size keeps its shape, on the GPU as on the CPU.
  at::Tensor out = at::empty({4, 3}, on).t();
  at::arange_out(out, 0, 12);
  at::Tensor cpu_out = at::empty({4, 3}).t();
  at::arange_out(cpu_out, 0, 12);
  EXPECT_TRUE(same_tensor(out.cpu(), cpu_out));
  EXPECT_EQ(vec(out.strides()), vec(cpu_out.strides()));
}

TEST(CUDAFactories, FillAndZeroOfEveryDtypeAndLayout) {
  SKIP_WITHOUT_CUDA();
  for (const at::ScalarType t : kAllTypes) {
    at::Tensor x = at::empty({6, 10}, at::TensorOptions().dtype(t).device(at::kCUDA));
    x.fill_(1);
    x.narrow(1, 2, 5).t().fill_(0);  // a strided fill
    at::Tensor expected = at::ones({6, 10}, t);
    expected.narrow(1, 2, 5).zero_();
    EXPECT_TRUE(at::equal(x.cpu(), expected)) << c10::toString(t);
  }
  at::Tensor b = at::empty({3}, at::TensorOptions().dtype(at::kByte).device(at::kCUDA));
  EXPECT_EQ(error_of([&] { b.fill_(300); }),
            error_of([] { at::empty({3}, at::kByte).fill_(300); }));
}

// ---- Copies ----------------------------------------------------------------------------------

class CUDARoundTrip : public ::testing::TestWithParam<at::ScalarType> {};

TEST_P(CUDARoundTrip, HostToDeviceToHostKeepsEveryBit) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor cpu = elementwise_test::make_values(
                             c10::isComplexType(GetParam()) ? at::kDouble : GetParam(), 1037, 3)
                             .to(GetParam());
  const at::Tensor gpu = cpu.cuda();
  EXPECT_TRUE(gpu.is_cuda());
  EXPECT_EQ(gpu.scalar_type(), GetParam());
  EXPECT_STREQ(at::native::last_copy_loop(), "cudaMemcpyAsync host to device");
  const at::Tensor back = gpu.cpu();
  EXPECT_STREQ(at::native::last_copy_loop(), "cudaMemcpyAsync device to host");
  EXPECT_TRUE(at::equal(back, cpu));
  EXPECT_EQ(gpu.cuda().data_ptr(), gpu.data_ptr()) << "cuda() of a CUDA tensor is itself";
}

// Every dtype pair converted on the device matches the CPU conversion bit for bit.
// Values every dtype holds; negative ones too where the conversion is defined (a negative
// floating value into an unsigned type is undefined in C++: x86 wraps, a GPU saturates, in
// libtorch as here).
TEST_P(CUDARoundTrip, ConversionsOnTheDeviceMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  elementwise_test::CapturedWarnings sink;
  c10::WarningUtils::WarningHandlerGuard quiet(&sink);
  const bool floating_source = c10::isFloatingType(GetParam()) || c10::isComplexType(GetParam());
  for (const at::ScalarType to : kAllTypes) {
    const at::Tensor values =
        floating_source && to == at::kByte
            ? at::tensor({0.0, 1.0, 2.5, 100.0, 0.1, 3.999, 127.0, 0.5, 7.75, 64.25})
            : at::tensor({0.0, 1.0, -1.0, 2.5, -2.75, 100.0, 0.1, 3.999, -0.5, 127.0});
    const at::Tensor src = values.to(GetParam());
    const at::Tensor src_gpu = src.cuda();
    const at::Tensor on_gpu = src_gpu.to(to);
    if (to != GetParam()) {
      EXPECT_STREQ(at::native::last_gpu_loop(), "vectorized cast")
          << c10::toString(GetParam()) << " -> " << c10::toString(to);
    }
    EXPECT_TRUE(at::equal(on_gpu.cpu(), src.to(to)))
        << c10::toString(GetParam()) << " -> " << c10::toString(to);
  }
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, CUDARoundTrip, ::testing::ValuesIn(kAllTypes));

// Each layout case moved to the device keeps its strides (to() preserves a dense layout), and
// contiguous(), clone() and copies back give the CPU's values and strides.
TEST(CUDACopy, LayoutsMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  for (const auto& c : elementwise_test::layout_cases()) {
    for (const at::Tensor& cpu : {c.a(), c.b()}) {
      const at::Tensor gpu = cpu.to(at::kCUDA);
      EXPECT_EQ(vec(gpu.strides()), vec(cpu.clone().strides())) << c.name;
      EXPECT_TRUE(same_tensor(gpu.cpu(), cpu)) << c.name;
      for (const auto format : {at::MemoryFormat::Contiguous, at::MemoryFormat::ChannelsLast}) {
        if (format == at::MemoryFormat::ChannelsLast && cpu.dim() != 4) continue;
        const at::Tensor g = gpu.contiguous(format);
        const at::Tensor h = cpu.contiguous(format);
        EXPECT_EQ(vec(g.strides()), vec(h.strides())) << c.name;
        EXPECT_TRUE(same_tensor(g.cpu(), h)) << c.name;
      }
      const at::Tensor cloned = gpu.clone();
      EXPECT_EQ(vec(cloned.strides()), vec(cpu.clone().strides())) << c.name;
      EXPECT_TRUE(same_tensor(cloned.cpu(), cpu)) << c.name;
    }
  }
}

TEST(CUDACopy, EachLoopWhereItBelongs) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor x = at::arange(64 * 96, at::kFloat).view({64, 96}).cuda();
  at::Tensor y = x.t().contiguous();
  EXPECT_STREQ(at::native::last_copy_loop(), "transpose");
  EXPECT_TRUE(at::equal(y.cpu(), x.cpu().t().contiguous()));
  at::Tensor z = x.clone();
  EXPECT_STREQ(at::native::last_copy_loop(), "memcpy");
  at::Tensor s = x.slice(1, 0, 96, 3).contiguous();
  EXPECT_STREQ(at::native::last_copy_loop(), "strided");
  EXPECT_TRUE(at::equal(s.cpu(), x.cpu().slice(1, 0, 96, 3).contiguous()));
  const at::Tensor nchw = at::arange(2 * 32 * 7 * 9, at::kFloat).view({2, 32, 7, 9}).cuda();
  const at::Tensor nhwc = nchw.contiguous(at::MemoryFormat::ChannelsLast);
  EXPECT_STREQ(at::native::last_copy_loop(), "transpose");
  EXPECT_TRUE(at::equal(nhwc.cpu(), nchw.cpu().contiguous(at::MemoryFormat::ChannelsLast)));
  const at::Tensor back = nhwc.contiguous();
  EXPECT_STREQ(at::native::last_copy_loop(), "transpose");
  EXPECT_TRUE(at::equal(back.cpu(), nchw.cpu()));
}

TEST(CUDACopy, CopyIntoExistingTensorsAcrossTheHostBoundary) {
  SKIP_WITHOUT_CUDA();
  // Broadcast on the device.
  at::Tensor d = at::zeros({3, 4}, at::kCUDA);
  d.copy_(at::arange(4, at::kFloat).cuda());
  EXPECT_TRUE(at::equal(d.cpu(), at::arange(4, at::kFloat).expand({3, 4}).contiguous()));
  // Host -> a strided device view, with a dtype change and broadcasting: temporaries.
  at::Tensor dst = at::zeros({5, 6}, at::TensorOptions().dtype(at::kDouble).device(at::kCUDA));
  dst.narrow(1, 1, 4).t().copy_(at::arange(5, at::kInt));
  at::Tensor expected = at::zeros({5, 6}, at::kDouble);
  expected.narrow(1, 1, 4).t().copy_(at::arange(5, at::kInt));
  EXPECT_TRUE(at::equal(dst.cpu(), expected));
  // Device -> a strided host view.
  at::Tensor host = at::zeros({4, 4}, at::kLong);
  host.t().copy_(at::arange(16, at::kLong).view({4, 4}).cuda());
  EXPECT_TRUE(at::equal(host, at::arange(16, at::kLong).view({4, 4}).t()));
}

TEST(CUDACopy, NonBlockingCopiesWithPinnedMemory) {
  SKIP_WITHOUT_CUDA();
  at::Tensor pinned = at::empty({1 << 20}, at::TensorOptions().pinned_memory(true));
  EXPECT_TRUE(pinned.is_pinned());
  EXPECT_FALSE(at::empty({4}).is_pinned());
  pinned.copy_(at::arange(1 << 20, at::kFloat));
  const at::Tensor gpu = pinned.to(at::kCUDA, /*non_blocking=*/true);
  EXPECT_STREQ(at::native::last_copy_loop(), "cudaMemcpyAsync host to device (non-blocking)");
  at::Tensor back = at::empty({1 << 20}, at::TensorOptions().pinned_memory(true));
  back.copy_(gpu, /*non_blocking=*/true);
  c10::cuda::getCurrentCUDAStream().synchronize();
  EXPECT_TRUE(at::equal(back, at::arange(1 << 20, at::kFloat)));
  // pin_memory() of a pageable tensor copies it; of a pinned one, returns it.
  const at::Tensor pageable = at::arange(10, at::kFloat);
  const at::Tensor p = pageable.pin_memory();
  EXPECT_TRUE(p.is_pinned());
  EXPECT_NE(p.data_ptr(), pageable.data_ptr());
  EXPECT_TRUE(at::equal(p, pageable));
  EXPECT_EQ(p.pin_memory().data_ptr(), p.data_ptr());
  EXPECT_EQ(error_of([&] { gpu.pin_memory(); }),
            "cannot pin 'CUDAFloatType' only dense CPU tensors can be pinned");
}

TEST(CUDACopy, MixedDevicesAreLibtorchsError) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor g = at::ones({3}, at::kCUDA);
  const at::Tensor c = at::ones({3});
  EXPECT_EQ(error_of([&] { at::add(g, c); }),
            "Expected all tensors to be on the same device, but found at least two devices, "
            "cuda:0 and cpu!");
}

// ---- Reading back ----------------------------------------------------------------------------

TEST(CUDATensor, PrintsAsTheCpuTensorWithItsCudaType) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor cpu = at::arange(6, at::kFloat).view({2, 3}) / 4;
  std::ostringstream g, c;
  g << cpu.cuda();
  c << cpu;
  std::string expected = c.str();
  expected.replace(expected.find("CPUFloatType"), 3, "CUDA");
  EXPECT_EQ(g.str(), expected);
  EXPECT_NE(g.str().find("[ CUDAFloatType{2,3} ]"), std::string::npos);
}

TEST(CUDATensor, ItemOfEveryDtype) {
  SKIP_WITHOUT_CUDA();
  EXPECT_EQ(at::full({1}, 7, at::kCUDA).item<int64_t>(), 7);
  EXPECT_EQ(at::full({}, 2.5, at::TensorOptions().dtype(at::kHalf).device(at::kCUDA)).item<float>(),
            2.5f);
  EXPECT_TRUE(at::full({1, 1}, true, at::kCUDA).item<bool>());
  EXPECT_EQ(at::arange(10, at::kCUDA)[7].item<int64_t>(), 7);
  EXPECT_EQ(error_of([] { at::ones({2}, at::kCUDA).item(); }),
            "a Tensor with 2 elements cannot be converted to Scalar");
}

TEST(CUDATensor, ResizeKeepsTheData) {
  SKIP_WITHOUT_CUDA();
  at::Tensor t = at::arange(6, at::kFloat).cuda();
  t.resize_({2, 100});
  EXPECT_TRUE(at::equal(t.view({-1}).narrow(0, 0, 6).cpu(), at::arange(6, at::kFloat)));
}

TEST(CUDATensor, TraceShowsTheCudaKernelsAndTheGpuLoop) {
  SKIP_WITHOUT_CUDA();
  const at::Tensor t = at::arange(64, at::kFloat).view({8, 8}).cuda().t();
  std::vector<std::string> lines;
  c10::DispatchTrace::set_listener([&](const std::string& l) { lines.push_back(l); });
  {
    c10::DispatchTraceGuard guard;
    at::contiguous(t);
  }
  c10::DispatchTrace::set_listener(nullptr);
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_NE(all.find("CUDA: wrapper_CUDA__empty_memory_format"), std::string::npos) << all;
  EXPECT_NE(all.find("gpu loop: strided"), std::string::npos) << all;
  EXPECT_NE(all.find("copy_kernel: strided loop"), std::string::npos) << all;
}

}  // namespace
