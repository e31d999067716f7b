#pragma once
// The argument checks of ProcessGroupGloo's collectives, with libtorch 1.13's texts (its
// torch/csrc/distributed/c10d/Utils.hpp): each failure is "ProcessGroupGloo::<collective>: ...".
// Internal to distributed/c10d (GlooCollectives.cpp).

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"

namespace c10d {
namespace gloo_detail {

using Fail = std::function<void(const std::string&)>;

inline Fail failing(const char* collective) {
  return [collective](const std::string& msg) {
    TORCH_CHECK(false, "ProcessGroupGloo::", collective, ": ", msg);
  };
}

inline std::string sizes_str(at::IntArrayRef sizes) {
  std::ostringstream ss;
  ss << "(";
  for (size_t i = 0; i < sizes.size(); ++i) ss << (i ? ", " : "") << sizes[i];
  ss << ")";
  return ss.str();
}

inline std::string options_str(const at::TensorOptions& options) {
  std::ostringstream ss;
  ss << options;
  return ss.str();
}

inline void assertRootRank(const Fail& fail, int64_t rank, int64_t size) {
  if (rank < 0 || rank >= size) fail("invalid root rank: " + std::to_string(rank));
}

inline void assertRootTensor(const Fail& fail, int64_t rank, int64_t size) {
  if (rank < 0 || rank >= size) fail("invalid root tensor: " + std::to_string(rank));
}

inline void assertNonEmpty(const Fail& fail, const std::vector<at::Tensor>& tensors) {
  if (tensors.empty()) fail("requires non-empty tensor list");
}

inline void assertDense(const Fail& fail, const std::vector<at::Tensor>& tensors) {
  for (const auto& t : tensors) {
    if (t.layout() != at::kStrided) fail("only supports dense tensors");
  }
}

inline void assertLayoutMatch(const Fail& fail, const std::vector<at::Tensor>& tensors) {
  const auto layout = tensors[0].layout();
  for (size_t i = 1; i < tensors.size(); ++i) {
    if (tensors[i].layout() != layout) {
      std::ostringstream ss;
      ss << "invalid tensor layout at index " << i << " (expected " << layout << ", got "
         << tensors[i].layout() << ")";
      fail(ss.str());
    }
  }
}

// Note [Which tensor a mismatch names]
// libtorch 1.13's assertTypeAndSizesMatch(fn, tensors) checks tensors[1:] against tensors[0]
// but reports the position within the slice, so a mismatch at index 1 of [float, double] is
// named "at index 0". miniaten names the tensor's real index; lists checked against a given
// type (allgather's and gather's outputs) report as libtorch does.
inline void assertTypeAndSizesMatch(const Fail& fail, const std::vector<at::Tensor>& tensors,
                                    const at::TensorOptions& options, at::IntArrayRef sizes,
                                    size_t first = 0) {
  for (size_t i = first; i < tensors.size(); ++i) {
    const at::Tensor& t = tensors[i];
    if (t.scalar_type() != c10::typeMetaToScalarType(options.dtype()) ||
        t.device() != options.device() || t.layout() != options.layout()) {
      fail("invalid tensor type at index " + std::to_string(i) + " (expected " +
           options_str(options) + ", got " + options_str(t.options()) + ")");
    }
    if (!t.sizes().equals(sizes)) {
      fail("invalid tensor size at index " + std::to_string(i) + " (expected " + sizes_str(sizes) +
           ", got " + sizes_str(t.sizes()) + ")");
    }
  }
}

inline void assertTypeAndSizesMatch(const Fail& fail, const std::vector<at::Tensor>& tensors) {
  assertTypeAndSizesMatch(fail, tensors, tensors[0].options(), tensors[0].sizes(), 1);
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
