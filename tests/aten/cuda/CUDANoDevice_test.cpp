// A CUDA build on a machine without a device (CI's): every way of asking for a CUDA tensor is a
// clear c10::Error with libtorch's reason, never an abort; CPU work and the queries go on.

#include "CUDATestUtils.h"
#include "TestUtils.h"
#include "aten/cuda/CUDAContext.h"
#include "c10/cuda/CUDACachingAllocator.h"

namespace {

using test_util::error_of;

TEST(CUDANoDevice, QueriesSayNone) {
  SKIP_WITH_CUDA();
  EXPECT_EQ(c10::cuda::device_count(), 0);
  EXPECT_FALSE(at::cuda::is_available());
  EXPECT_FALSE(torch::cuda::is_available());
  EXPECT_EQ(torch::cuda::device_count(), 0u);
  EXPECT_FALSE(at::hasCUDA());
}

TEST(CUDANoDevice, EveryWayToACudaTensorRaisesTheReason) {
  SKIP_WITH_CUDA();
  const std::string reason = cuda_test::no_device_error();
  const at::Tensor cpu = at::ones({2, 3});
  EXPECT_EQ(error_of([] { at::empty({1}, at::kCUDA); }), reason);
  EXPECT_EQ(error_of([] { at::empty_strided({2}, {1}, at::kCUDA); }), reason);
  EXPECT_EQ(error_of([] { at::zeros({2, 3}, at::TensorOptions().device("cuda:0")); }), reason);
  EXPECT_EQ(error_of([] { at::arange(5, at::TensorOptions().device(at::kCUDA)); }), reason);
  EXPECT_EQ(error_of([&] { cpu.cuda(); }), reason);
  EXPECT_EQ(error_of([&] { cpu.to(at::kCUDA); }), reason);
  EXPECT_EQ(error_of([&] { cpu.to(at::Device("cuda:0"), at::kHalf); }), reason);
  EXPECT_EQ(error_of([] { c10::cuda::getCurrentCUDAStream(); }), reason);
  EXPECT_EQ(error_of([] { c10::cuda::getStreamFromPool(); }), reason);
  EXPECT_EQ(error_of([] { c10::cuda::device_count_ensure_non_zero(); }), reason);
  // A second try says the same (libtorch checks again rather than remembering a failure).
  EXPECT_EQ(error_of([] { at::empty({1}, at::kCUDA); }), reason);
  // Errors are of the base type a caller catches.
  EXPECT_THROW(at::empty({1}, at::kCUDA), c10::Error);
}

TEST(CUDANoDevice, PinnedMemoryIsRefusedAndNothingIsPinned) {
  SKIP_WITH_CUDA();
  const at::Tensor cpu = at::ones({4});
  EXPECT_FALSE(cpu.is_pinned());
  EXPECT_EQ(error_of([] { at::empty({4}, at::TensorOptions().pinned_memory(true)); }),
            "Need to provide pin_memory allocator to use pin memory.");
  EXPECT_EQ(error_of([&] { cpu.pin_memory(); }),
            "Need to provide pin_memory allocator to use pin memory.");
}

TEST(CUDANoDevice, CpuWorkGoesOn) {
  SKIP_WITH_CUDA();
  (void)error_of([] { at::empty({1}, at::kCUDA); });
  const at::Tensor t = at::arange(6, at::kFloat).view({2, 3}).t().contiguous();
  EXPECT_EQ(t.strides(), c10::IntArrayRef({2, 1}));
  EXPECT_EQ(t.cpu().data_ptr(), t.data_ptr()) << "cpu() of a CPU tensor is the tensor itself";
}

// The message C10_CUDA_CHECK raises: libtorch's wording, a help line, and the asynchrony
// reminder for the errors kernels report late. The runtime knows its error strings without a
// driver, so these run everywhere.
TEST(CUDAErrors, CheckRaisesLibtorchsText) {
  const auto check = [](cudaError_t e) { return [e] { C10_CUDA_CHECK(e); }; };
  EXPECT_EQ(error_of(check(cudaErrorInvalidDevice)),
            "CUDA error: invalid device ordinal\n"
            "GPU device may be out of range, do you have enough GPUs?");
  EXPECT_EQ(error_of(check(cudaErrorIllegalAddress)),
            "CUDA error: an illegal memory access was encountered\n"
            "Search for `cudaErrorIllegalAddress' in "
            "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more "
            "information.\n"
            "CUDA kernel errors might be asynchronously reported at some other API call, so the "
            "stacktrace below might be incorrect.\n"
            "For debugging consider passing CUDA_LAUNCH_BLOCKING=1");
  EXPECT_EQ(error_of(check(cudaErrorMemoryAllocation)),
            "CUDA error: out of memory\n"
            "Search for `cudaErrorMemoryAllocation' in "
            "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more "
            "information.");
  try {
    C10_CUDA_CHECK(cudaErrorInvalidValue);
    FAIL() << "expected an error";
  } catch (const c10::CUDAError& e) {
    EXPECT_EQ(e.error_code(), static_cast<int32_t>(cudaErrorInvalidValue));
  }
  EXPECT_EQ(error_of(check(cudaSuccess)), "no error");
}

}  // namespace
