#pragma once
// The argument checks of ProcessGroupGloo's collectives, with libtorch 1.13's texts: each failure
// is "ProcessGroupGloo::<collective>: ..." (the checks every group shares are in Utils.h).
// Internal to distributed/c10d (GlooCollectives.cpp).

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"
#include "distributed/c10d/Utils.h"

namespace c10d {
namespace gloo_detail {

inline Fail failing(const char* collective) {
  return [collective](const std::string& msg) {
    TORCH_CHECK(false, "ProcessGroupGloo::", collective, ": ", msg);
  };
}

// Gloo runs on host memory: CPU tensors, and CUDA tensors staged through it.
inline void assertHostOrCuda(const Fail& fail, const at::Tensor& t) {
  const auto type = t.device().type();
  if (type != at::kCPU && type != at::kCUDA) {
    std::ostringstream ss;
    ss << "unsupported device type " << type;
    fail(ss.str());
  }
}

}  // namespace gloo_detail
}  // namespace c10d
