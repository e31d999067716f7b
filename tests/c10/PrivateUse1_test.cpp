// Naming the PrivateUse1 device type and the device-guard hooks. Its own test program: the
// name is set once per process, so no other test may run after a registration and expect
// "privateuseone" (each test here states the order it relies on).

#include <gtest/gtest.h>

#include <sstream>
#include <thread>
#include <vector>

#include "c10/core/Device.h"
#include "c10/core/DeviceGuard.h"
#include "c10/core/impl/DeviceGuardImplInterface.h"

namespace {

std::string printed(const c10::Device& d) {
  std::ostringstream ss;
  ss << d;
  return ss.str();
}

template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "(no error)";
}

// A backend's guard: four devices, the current one per thread, every call counted.
struct RecordingGuardImpl final : c10::impl::DeviceGuardImplInterface {
  static thread_local c10::DeviceIndex current;
  static thread_local int set_calls;
  c10::DeviceType type() const override { return c10::kPrivateUse1; }
  c10::Device exchangeDevice(c10::Device d) const override {
    const c10::Device old = getDevice();
    setDevice(d);
    return old;
  }
  c10::Device getDevice() const override { return c10::Device(c10::kPrivateUse1, current); }
  void setDevice(c10::Device d) const override {
    TORCH_CHECK(d.index() >= 0 && d.index() < 4, "no such device index: ", int(d.index()));
    current = d.index();
    ++set_calls;
  }
  void uncheckedSetDevice(c10::Device d) const noexcept override {
    current = d.index();
    ++set_calls;
  }
  c10::Stream getStream(c10::Device d) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, d);
  }
  c10::Stream exchangeStream(c10::Stream s) const noexcept override { return s; }
  c10::DeviceIndex deviceCount() const noexcept override { return 4; }
};
thread_local c10::DeviceIndex RecordingGuardImpl::current = 0;
thread_local int RecordingGuardImpl::set_calls = 0;

TEST(PrivateUse1, UnnamedItIsPrivateuseoneAndNpuIsNoDevice) {
  EXPECT_FALSE(c10::is_privateuse1_backend_registered());
  EXPECT_EQ(c10::get_privateuse1_backend(), "privateuseone");
  EXPECT_EQ(c10::get_privateuse1_backend(false), "PRIVATEUSEONE");
  EXPECT_EQ(printed(c10::Device(c10::kPrivateUse1, 1)), "privateuseone:1");
  EXPECT_EQ(error_of([] { c10::Device("npu:0"); }),
            "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
            "ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of "
            "device string: npu");
}

// Runs after the test above (gtest runs a file's tests in order; ctest runs each alone).
TEST(PrivateUse1, ARegisteredNameParsesAndPrints) {
  // In-tree names and names a device string could not spell are refused, and leave it unnamed.
  EXPECT_EQ(error_of([] { c10::register_privateuse1_backend("cuda"); }),
            "Cannot register privateuse1 backend with in-tree device name: cuda");
  EXPECT_EQ(error_of([] { c10::register_privateuse1_backend("meta"); }),
            "Cannot register privateuse1 backend with in-tree device name: meta");
  EXPECT_EQ(error_of([] { c10::register_privateuse1_backend("np u"); }),
            "Invalid privateuse1 backend name: 'np u' (a device type name is letters and '_')");
  EXPECT_FALSE(c10::is_privateuse1_backend_registered());

  // Registered from several threads at once: one name wins, readers never see a torn one.
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([] {
      c10::register_privateuse1_backend("npu");
      EXPECT_EQ(c10::get_privateuse1_backend(), "npu");
    });
  }
  for (auto& t : threads) t.join();

  EXPECT_TRUE(c10::is_privateuse1_backend_registered());
  EXPECT_EQ(c10::get_privateuse1_backend(false), "NPU");
  const c10::Device d("npu:1");
  EXPECT_EQ(d.type(), c10::kPrivateUse1);
  EXPECT_EQ(d.index(), 1);
  EXPECT_TRUE(d.is_privateuseone());
  EXPECT_EQ(printed(d), "npu:1");
  EXPECT_EQ(d.str(), "npu:1");
  EXPECT_EQ(c10::DeviceTypeName(c10::kPrivateUse1), "NPU");
  EXPECT_EQ(c10::DeviceTypeName(c10::kPrivateUse1, true), "npu");
  // The generic spelling still parses, and prints as the name.
  EXPECT_EQ(printed(c10::Device("privateuseone:0")), "npu:0");
  EXPECT_EQ(c10::Device("npu"), c10::Device(c10::kPrivateUse1));
  EXPECT_EQ(error_of([] { c10::Device("npu:x"); }), "Invalid device string: 'npu:x'");
  // Once named, the same name again is fine and another is refused.
  c10::register_privateuse1_backend("npu");
  EXPECT_EQ(error_of([] { c10::register_privateuse1_backend("xpu2"); }),
            "torch.register_privateuse1_backend() has already been set! Current backend: npu");
}

TEST(DeviceGuard, CpuAndMetaHaveNoOpGuardsAndOthersLibtorchsError) {
  EXPECT_TRUE(c10::impl::hasDeviceGuardImpl(c10::kCPU));
  EXPECT_TRUE(c10::impl::hasDeviceGuardImpl(c10::kMeta));
  EXPECT_EQ(c10::impl::getDeviceGuardImpl(c10::kCPU)->deviceCount(), 1);
  {
    c10::DeviceGuard g{c10::Device(c10::kCPU)};
    EXPECT_EQ(g.current_device(), c10::Device(c10::kCPU));
  }
  EXPECT_FALSE(c10::impl::hasDeviceGuardImpl(c10::DeviceType::XLA));
  EXPECT_EQ(error_of([] { c10::DeviceGuard g(c10::Device(c10::DeviceType::XLA, 0)); }),
            "PyTorch is not linked with support for xla devices");
  EXPECT_EQ(error_of([] {
              c10::impl::getDeviceGuardImpl(c10::kCPU)->getDefaultStream(c10::Device(c10::kCPU));
            }),
            "Backend doesn't support acquiring a default stream.");
}

// Registered here, after the no-op test above looked for a missing PrivateUse1 impl elsewhere.
C10_REGISTER_GUARD_IMPL(PrivateUse1, RecordingGuardImpl);

TEST(DeviceGuard, SetsAndRestoresTheBackendsDevice) {
  ASSERT_TRUE(c10::impl::hasDeviceGuardImpl(c10::kPrivateUse1));
  RecordingGuardImpl::current = 0;
  {
    c10::DeviceGuard g(c10::Device(c10::kPrivateUse1, 2));
    EXPECT_EQ(RecordingGuardImpl::current, 2);
    EXPECT_EQ(g.original_device(), c10::Device(c10::kPrivateUse1, 0));
    EXPECT_EQ(g.current_device(), c10::Device(c10::kPrivateUse1, 2));
    g.set_index(3);
    EXPECT_EQ(RecordingGuardImpl::current, 3);
    EXPECT_EQ(g.original_device(), c10::Device(c10::kPrivateUse1, 0));
    // A device with no index changes nothing.
    g.reset_device(c10::Device(c10::kPrivateUse1));
    EXPECT_EQ(RecordingGuardImpl::current, 3);
    // The backend's own errors come through.
    EXPECT_EQ(error_of([&] { g.set_index(7); }), "no such device index: 7");
  }
  EXPECT_EQ(RecordingGuardImpl::current, 0);
  // Switching device type mid-scope restores this type's original first.
  {
    c10::DeviceGuard g(c10::Device(c10::kPrivateUse1, 1));
    g.reset_device(c10::Device(c10::kCPU));
    EXPECT_EQ(RecordingGuardImpl::current, 0);
    EXPECT_EQ(g.current_device(), c10::Device(c10::kCPU, -1));
  }
  EXPECT_EQ(RecordingGuardImpl::current, 0);
}

TEST(DeviceGuard, OptionalGuardDoesNothingUntilGivenADevice) {
  RecordingGuardImpl::current = 0;
  RecordingGuardImpl::set_calls = 0;
  {
    c10::OptionalDeviceGuard g;
    EXPECT_FALSE(g.original_device().has_value());
    c10::OptionalDeviceGuard none(c10::optional<c10::Device>{});
    EXPECT_FALSE(none.current_device().has_value());
  }
  EXPECT_EQ(RecordingGuardImpl::set_calls, 0);
  {
    c10::OptionalDeviceGuard g(c10::Device(c10::kPrivateUse1, 1));
    EXPECT_EQ(RecordingGuardImpl::current, 1);
    EXPECT_EQ(*g.original_device(), c10::Device(c10::kPrivateUse1, 0));
    g.reset_device(c10::Device(c10::kPrivateUse1, 3));
    EXPECT_EQ(*g.current_device(), c10::Device(c10::kPrivateUse1, 3));
    g.reset();
    EXPECT_EQ(RecordingGuardImpl::current, 0);
    EXPECT_FALSE(g.current_device().has_value());
  }
  EXPECT_EQ(RecordingGuardImpl::current, 0);
}

}  // namespace
