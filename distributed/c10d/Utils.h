#pragma once
// Checks the process groups share (libtorch 1.13's torch/csrc/distributed/c10d/Utils.hpp). Each
// takes `fail`, which raises with the group's and the collective's prefix
// ("ProcessGroupGloo::allreduce: ...").

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"

namespace c10d {

using Fail = std::function<void(const std::string&)>;

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

// alltoall_base's split sizes for `t` among `world` ranks: none (dim 0 divides equally) or one
// per rank, each in [0, dim 0], summing to dim 0; libtorch's texts.
inline void checkSplitSizes(const std::vector<int64_t>& splits, const at::Tensor& t,
                            int64_t world) {
  const int64_t rows = t.dim() ? t.size(0) : 1;
  if (splits.empty()) {
    TORCH_CHECK(rows % world == 0, "Tensor's dim 0 does not divide equally across group size");
    return;
  }
  TORCH_CHECK(static_cast<int64_t>(splits.size()) == world,
              "Number of tensor splits not equal to group size");
  int64_t total = 0;
  for (int64_t s : splits) {
    TORCH_CHECK(s >= 0 && s <= rows, "Split sizes doesn't match total dim 0 size");
    total += s;
  }
  TORCH_CHECK(total == rows, "Split sizes doesn't match total dim 0 size");
}

// alltoall_base moves rows whole from one tensor to the other: their rows must hold as many
// elements (libtorch checks nothing, and reads or writes past the rows).
inline void checkRowElements(const char* collective, const at::Tensor& input,
                             const at::Tensor& output) {
  auto row_elements = [](const at::Tensor& t) {
    const int64_t rows = t.dim() ? t.size(0) : 1;
    return rows ? t.numel() / rows : -1;
  };
  TORCH_CHECK(row_elements(input) == row_elements(output) || row_elements(input) < 0 ||
                  row_elements(output) < 0,
              collective, ": the input's rows hold ", row_elements(input),
              " elements, the output's ", row_elements(output));
}

}  // namespace c10d
