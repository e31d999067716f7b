// CUDA tensors in and out: DLPack (kDLCUDA and the device's index go out, the same device
// memory comes back, on its storage; without a device, the reason), and PyTorch's format and
// safetensors (saved through the host, loaded back to the device with views still sharing).

#include "../DLPackTestUtils.h"
#include "CUDATestUtils.h"
#include "TestUtils.h"
#include "aten/DLConvertor.h"
#include "aten/serialization/Pickle.h"
#include "aten/serialization/Safetensors.h"

namespace {

TEST(CUDADLPack, ADeviceTensorGoesOutAsKDLCUDAAndComesBackOnItsStorage) {
  SKIP_WITHOUT_CUDA();
  at::Tensor base = at::arange(24, at::TensorOptions().dtype(at::kFloat).device(at::kCUDA));
  at::Tensor t = base.reshape({4, 6}).slice(1, 2, 5).t();
  DLManagedTensor* m = at::toDLPack(t);
  EXPECT_EQ(m->dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(m->dl_tensor.device.device_id, t.device().index());
  EXPECT_EQ(m->dl_tensor.data, t.data_ptr());
  EXPECT_EQ(std::vector<int64_t>(m->dl_tensor.strides, m->dl_tensor.strides + 2),
            (std::vector<int64_t>{1, 6}));
  at::Tensor back = at::fromDLPack(m);
  EXPECT_TRUE(back.is_cuda());
  EXPECT_EQ(back.device(), t.device());
  EXPECT_TRUE(back.is_alias_of(t));
  EXPECT_EQ(back.storage_offset(), 2);
  EXPECT_TRUE(at::equal(back.cpu(), t.cpu()));
}

// A producer's device memory (not a miniaten tensor): shared, and released once.
TEST(CUDADLPack, AForeignDeviceBufferIsSharedAndReleasedOnce) {
  SKIP_WITHOUT_CUDA();
  static int deleted = 0;
  deleted = 0;
  at::Tensor owner = at::arange(6, at::TensorOptions().dtype(at::kInt).device(at::kCUDA));
  int64_t shape[2] = {2, 3};
  DLManagedTensor m{};
  m.dl_tensor.data = owner.data_ptr();
  m.dl_tensor.device = {kDLCUDA, static_cast<int32_t>(owner.device().index())};
  m.dl_tensor.ndim = 2;
  m.dl_tensor.dtype = {kDLInt, 32, 1};
  m.dl_tensor.shape = shape;
  m.deleter = [](DLManagedTensor*) { ++deleted; };
  {
    at::Tensor t = at::fromDLPack(&m);
    EXPECT_TRUE(t.is_cuda());
    EXPECT_EQ(t.data_ptr(), owner.data_ptr());
    EXPECT_TRUE(at::equal(t.cpu(), at::arange(6, at::kInt).reshape({2, 3})));
    EXPECT_EQ(deleted, 0);
  }
  EXPECT_EQ(deleted, 1);
}

// Without a device: the reason, and the producer's deleter still runs once.
TEST(CUDADLPack, WithoutADeviceTheReasonAndOneRelease) {
  SKIP_WITH_CUDA();
  dlpack_test::OneFloat m(kDLCUDA);
  EXPECT_EQ(test_util::error_of([&] { at::fromDLPack(&m.managed); }), cuda_test::no_device_error());
  EXPECT_EQ(m.deleted, 1);
}

TEST(CUDATensorIO, PickleSavesThroughTheHostAndLoadsViewsSharingOneDeviceStorage) {
  SKIP_WITHOUT_CUDA();
  at::Tensor base = at::arange(12, at::TensorOptions().dtype(at::kFloat).device(at::kCUDA));
  c10::Dict<std::string, at::Tensor> dict;
  dict.insert("a", base.view({3, 4}).t());
  dict.insert("b", base.slice(0, 4, 8));
  c10::IValue back = torch::jit::pickle_load(torch::jit::pickle_save(dict));
  const at::Tensor a = back.toGenericDict().at("a").toTensor();
  const at::Tensor b = back.toGenericDict().at("b").toTensor();
  EXPECT_TRUE(a.is_cuda());
  EXPECT_EQ(a.device(), base.device());
  EXPECT_EQ(a.strides(), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(b.storage_offset(), 4);
  EXPECT_TRUE(a.is_alias_of(b));
  EXPECT_TRUE(at::equal(a.cpu(), base.view({3, 4}).t().cpu()));
}

TEST(CUDATensorIO, SafetensorsSavesDeviceTensorsThroughTheHost) {
  SKIP_WITHOUT_CUDA();
  at::Tensor t = at::arange(6, at::TensorOptions().dtype(at::kHalf).device(at::kCUDA)).view({2, 3});
  const auto loaded = at::safetensors::load(at::safetensors::save({{"t", t.t()}}));
  EXPECT_TRUE(at::equal(loaded.at("t"), t.t().cpu()));
}

}  // namespace
