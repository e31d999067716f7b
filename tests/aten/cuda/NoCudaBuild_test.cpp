// A build without CUDA (MINIATEN_CUDA=OFF, or no nvcc; the sanitizer builds are such builds):
// nothing is registered on the CUDA key, so asking for a CUDA tensor is the dispatcher's error,
// as in a CPU build of libtorch, and the CUDA queries say there is nothing.

#include <gtest/gtest.h>

#include "../DLPackTestUtils.h"
#include "TestUtils.h"
#include "aten/ATen.h"
#include "aten/DLConvertor.h"
#include "aten/cuda/CUDAQueries.h"

namespace {

using test_util::error_of;

TEST(NoCudaBuild, CudaTensorsAreTheDispatchersError) {
#ifdef MINIATEN_HAVE_CUDA
  GTEST_SKIP() << "built with CUDA (tests/aten/cuda/CUDANoDevice_test.cpp covers no device)";
#else
  const std::string empty = error_of([] { at::empty({1}, at::kCUDA); });
  EXPECT_EQ(empty.rfind("Could not run 'aten::empty.memory_format' with arguments from the 'CUDA' "
                        "backend.",
                        0),
            0u)
      << empty;
  // to("cuda") first asks which CUDA device is current, as libtorch's does.
  EXPECT_EQ(error_of([] { at::ones({2}).cuda(); }),
            "PyTorch is not linked with support for cuda devices");
  const std::string to = error_of([] { at::ones({2}).to(at::Device("cuda:0")); });
  EXPECT_EQ(
      to.rfind("Could not run 'aten::empty_strided' with arguments from the 'CUDA' backend.", 0),
      0u)
      << to;
  EXPECT_FALSE(torch::cuda::is_available());
  EXPECT_EQ(torch::cuda::device_count(), 0u);
  EXPECT_FALSE(at::ones({2}).is_pinned());
  EXPECT_EQ(error_of([] { at::empty({4}, at::TensorOptions().pinned_memory(true)); }),
            "Need to provide pin_memory allocator to use pin memory.");
  // A CUDA DLPack tensor: libtorch's reason, and its producer still released once.
  dlpack_test::OneFloat m(kDLCUDA);
  EXPECT_EQ(error_of([&] { at::fromDLPack(&m.managed); }), "Torch not compiled with CUDA enabled");
  EXPECT_EQ(m.deleted, 1);
#endif
}

}  // namespace
