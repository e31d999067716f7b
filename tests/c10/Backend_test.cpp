// c10::Backend and its conversions, against libtorch 1.13's c10/core/Backend.h.
#include <gtest/gtest.h>

#include <sstream>

#include "c10/core/Backend.h"
#include "tests/TestUtils.h"

namespace {

using c10::Backend;
using c10::DispatchKey;
using test_util::error_of;

TEST(Backend, EnumValuesAreLibtorchs) {
  EXPECT_EQ(static_cast<int>(Backend::CPU), 0);
  EXPECT_EQ(static_cast<int>(Backend::Meta), 18);
  EXPECT_EQ(static_cast<int>(Backend::Undefined), 22);
  EXPECT_EQ(static_cast<int>(Backend::PrivateUse1), 27);
  EXPECT_EQ(static_cast<int>(Backend::NumOptions), 28);
}

TEST(Backend, Names) {
  std::ostringstream s;
  s << Backend::CPU << " " << c10::toString(Backend::SparseCPU) << " " << Backend::Undefined << " "
    << Backend::Meta << " " << Backend::QuantizedCPU << " " << Backend::MkldnnCPU
    << Backend::PrivateUse1;
  EXPECT_EQ(s.str(), "CPU SparseCPU UNKNOWN_BACKEND Meta QuantizedCPU MkldnnCPUPrivateUseOne");
}

TEST(Backend, DeviceTypes) {
  EXPECT_EQ(c10::backendToDeviceType(Backend::CPU), c10::DeviceType::CPU);
  EXPECT_EQ(c10::backendToDeviceType(Backend::SparseCUDA), c10::DeviceType::CUDA);
  EXPECT_EQ(c10::backendToDeviceType(Backend::QuantizedCPU), c10::DeviceType::CPU);
  EXPECT_EQ(c10::backendToDeviceType(Backend::Meta), c10::DeviceType::Meta);
  EXPECT_EQ(c10::backendToDeviceType(Backend::PrivateUse1), c10::DeviceType::PrivateUse1);
  EXPECT_EQ(error_of([] { c10::backendToDeviceType(Backend::Undefined); }),
            "Undefined backend is not a valid device type");
  // miniaten has no XLA device type.
  EXPECT_EQ(error_of([] { c10::backendToDeviceType(Backend::XLA); }),
            "The XLA backend has no device type in miniaten");
}

TEST(Backend, DispatchKeys) {
  EXPECT_EQ(c10::backendToDispatchKey(Backend::CPU), DispatchKey::CPU);
  EXPECT_EQ(c10::backendToDispatchKey(Backend::SparseCUDA), DispatchKey::SparseCUDA);
  EXPECT_EQ(c10::backendToDispatchKey(Backend::Undefined), DispatchKey::Undefined);
  EXPECT_EQ(c10::backendToDispatchKey(Backend::PrivateUse1), DispatchKey::PrivateUse1);
  EXPECT_EQ(c10::dispatchKeyToBackend(DispatchKey::CUDA), Backend::CUDA);
  EXPECT_EQ(c10::dispatchKeyToBackend(DispatchKey::AutogradCPU), Backend::CPU);
  EXPECT_EQ(c10::dispatchKeyToBackend(DispatchKey::AutogradXLA), Backend::XLA);
  EXPECT_EQ(c10::dispatchKeyToBackend(DispatchKey::Meta), Backend::Meta);
  EXPECT_EQ(c10::dispatchKeyToBackend(DispatchKey::QuantizedCPU), Backend::QuantizedCPU);
  EXPECT_EQ(c10::dispatchKeyToBackend(DispatchKey::Undefined), Backend::Undefined);
  EXPECT_EQ(error_of([] { c10::dispatchKeyToBackend(DispatchKey::Autograd); }),
            "Unrecognized tensor type ID: Autograd");
  for (int b = 0; b < static_cast<int>(Backend::NumOptions); ++b) {
    const auto backend = static_cast<Backend>(b);
    EXPECT_EQ(c10::dispatchKeyToBackend(c10::backendToDispatchKey(backend)), backend)
        << c10::toString(backend);
  }
  // libtorch 1.13 throws "Unknown backend" for QuantizedXPU (a missing case there).
  EXPECT_EQ(c10::backendToDispatchKey(Backend::QuantizedXPU), DispatchKey::QuantizedXPU);
}

}  // namespace
