// DispatchStub: capability detection, the ATEN_CPU_CAPABILITY override, and a stub compiled
// three times (DispatchStubTestKernel.cpp) reporting which copy ran.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "DispatchStubTestKernel.h"
#include "aten/native/DispatchStub.h"

namespace miniaten_test {
DEFINE_DISPATCH(capability_probe_stub);
DEFINE_DISPATCH(unregistered_stub);

// Only the DEFAULT slot filled, from this (ordinary, compiled-once) file.
using answer_fn = int (*)();
DECLARE_DISPATCH(answer_fn, default_only_stub);
DEFINE_DISPATCH(default_only_stub);
int answer() {
  return 42;
}
REGISTER_ARCH_DISPATCH(default_only_stub, DEFAULT, &answer);
}  // namespace miniaten_test

namespace {

using at::native::CPUCapability;
using miniaten_test::capability_probe_stub;
using miniaten_test::CapabilityProbe;

// The CPU's flags as the kernel reports them, independently of __builtin_cpu_supports.
std::set<std::string> cpuinfo_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) == 0) {
      std::istringstream words(line.substr(line.find(':') + 1));
      std::set<std::string> flags;
      std::string w;
      while (words >> w) flags.insert(w);
      return flags;
    }
  }
  return {};
}

// Sets or clears an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

int float_lanes_for(CPUCapability c) {
  return c == CPUCapability::AVX512 ? 16 : 8;
}

TEST(DispatchStub, DetectionAgreesWithProcCpuinfo) {
  const auto flags = cpuinfo_flags();
  if (flags.empty()) GTEST_SKIP() << "no /proc/cpuinfo";
  auto has = [&](const char* f) { return flags.count(f) > 0; };
  CPUCapability expected = CPUCapability::DEFAULT;
  if (has("avx2") && has("fma")) expected = CPUCapability::AVX2;
  if (has("avx512f") && has("avx512bw") && has("avx512vl") && has("avx512dq") && has("fma")) {
    expected = CPUCapability::AVX512;
  }
  EXPECT_EQ(at::native::detail::detect_cpu_capability(), expected);
}

TEST(DispatchStub, EnvironmentLowersTheCapability) {
  const CPUCapability detected = at::native::detail::detect_cpu_capability();
  auto lowest = [&](CPUCapability c) {
    return static_cast<int>(c) < static_cast<int>(detected) ? c : detected;
  };
  {
    ScopedEnv env("ATEN_CPU_CAPABILITY", nullptr);
    EXPECT_EQ(at::native::detail::compute_cpu_capability(), detected);
  }
  {
    ScopedEnv env("ATEN_CPU_CAPABILITY", "default");
    EXPECT_EQ(at::native::detail::compute_cpu_capability(), CPUCapability::DEFAULT);
  }
  {
    ScopedEnv env("ATEN_CPU_CAPABILITY", "avx2");
    EXPECT_EQ(at::native::detail::compute_cpu_capability(), lowest(CPUCapability::AVX2));
  }
  {
    // More than the CPU has is ignored (with a warning) rather than crashing later.
    ScopedEnv env("ATEN_CPU_CAPABILITY", "avx512");
    EXPECT_EQ(at::native::detail::compute_cpu_capability(), detected);
  }
  {
    ScopedEnv env("ATEN_CPU_CAPABILITY", "sse9");
    EXPECT_EQ(at::native::detail::compute_cpu_capability(), detected);
  }
}

TEST(DispatchStub, CapabilityNames) {
  EXPECT_STREQ(at::native::cpu_capability_name(CPUCapability::DEFAULT), "DEFAULT");
  EXPECT_STREQ(at::native::cpu_capability_name(CPUCapability::AVX2), "AVX2");
  EXPECT_STREQ(at::native::cpu_capability_name(CPUCapability::AVX512), "AVX512");
}

TEST(DispatchStub, EveryCopyRegisteredItsOwnSlot) {
  for (CPUCapability c : {CPUCapability::DEFAULT, CPUCapability::AVX2, CPUCapability::AVX512}) {
    EXPECT_NE(capability_probe_stub.cpu_kernel_for(c), nullptr) << cpu_capability_name(c);
  }
  EXPECT_NE(capability_probe_stub.cpu_kernel_for(CPUCapability::DEFAULT),
            capability_probe_stub.cpu_kernel_for(CPUCapability::AVX2));
}

TEST(DispatchStub, CallRunsTheCopyForThisProcessCapability) {
  CapabilityProbe probe;
  capability_probe_stub(at::kCPU, probe, /*run_vectorized_checks=*/false);
  const CPUCapability cap = at::native::get_cpu_capability();
  EXPECT_EQ(probe.compiled_for, cap) << "ran " << cpu_capability_name(probe.compiled_for);
  EXPECT_EQ(probe.float_lanes, float_lanes_for(cap));
  if (std::getenv("ATEN_CPU_CAPABILITY") == nullptr) {
    EXPECT_EQ(cap, at::native::detail::detect_cpu_capability());
  }
}

// Each copy runs (where this CPU can) and was compiled with its flags; its Vectorized passes
// the same lane-by-lane checks as the DEFAULT build's.
TEST(DispatchStub, EachCopyIsCompiledForItsCapability) {
  const int detected = static_cast<int>(at::native::detail::detect_cpu_capability());
  for (CPUCapability c : {CPUCapability::DEFAULT, CPUCapability::AVX2, CPUCapability::AVX512}) {
    if (static_cast<int>(c) > detected) {
      std::cout << "[   SKIP   ] " << cpu_capability_name(c) << ": not supported by this CPU\n";
      continue;
    }
    SCOPED_TRACE(cpu_capability_name(c));
    CapabilityProbe probe;
    capability_probe_stub.cpu_kernel_for(c)(probe, /*run_vectorized_checks=*/true);
    EXPECT_EQ(probe.compiled_for, c);
    EXPECT_EQ(probe.float_lanes, float_lanes_for(c));
    EXPECT_EQ(probe.has_avx2, c != CPUCapability::DEFAULT);
    EXPECT_EQ(probe.has_avx512, c == CPUCapability::AVX512);
    for (const std::string& f : probe.vectorized_failures) ADD_FAILURE() << f;
  }
}

TEST(DispatchStub, FallsBackToTheBestFilledSlot) {
  EXPECT_EQ(miniaten_test::default_only_stub(at::kCPU), 42);
  EXPECT_EQ(miniaten_test::default_only_stub.cpu_kernel_for(CPUCapability::AVX2), nullptr);
}

template <typename F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(DispatchStub, MissingKernelsFailClearly) {
  EXPECT_NE(error_text([] {
              miniaten_test::unregistered_stub(at::kCPU, 1);
            }).find("DispatchStub: missing CPU kernel for unregistered_stub"),
            std::string::npos);
  CapabilityProbe probe;
  EXPECT_NE(error_text([&] {
              capability_probe_stub(at::kCUDA, probe, false);
            }).find("DispatchStub: missing CUDA kernel for capability_probe_stub"),
            std::string::npos);
  EXPECT_NE(error_text([&] {
              capability_probe_stub(at::kMeta, probe, false);
            }).find("DispatchStub: unsupported device type meta for capability_probe_stub"),
            std::string::npos);
}

// The override end to end, in a fresh process (the capability is chosen once per process).
TEST(DispatchStubDeathTest, EnvironmentSelectsTheDefaultCopy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("ATEN_CPU_CAPABILITY", "default", 1);
        CapabilityProbe probe;
        capability_probe_stub(at::kCPU, probe, false);
        std::exit(probe.compiled_for == CPUCapability::DEFAULT && probe.float_lanes == 8 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
