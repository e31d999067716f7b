// The fingerprint check of TORCH_DISTRIBUTED_DEBUG=DETAIL (GlooCollectives.h).
#include <gloo/allgather.h>

#include <sstream>

#include "aten/ATen.h"
#include "distributed/c10d/GlooCollectives.h"

namespace c10d {
namespace gloo_detail {

// Note [Checking that the ranks run the same collective]
// Gloo trusts every rank to call the same collective with the same sizes; when they differ its
// event-loop thread fails an enforce and the whole process aborts (libtorch 1.13 aborts alike:
// "op.preamble.length <= op.nbytes"). With TORCH_DISTRIBUTED_DEBUG=DETAIL, libtorch's answer
// (its ProcessGroupWrapper), each collective first allgathers a fixed-size fingerprint of itself
// and every rank throws "Detected mismatch between collectives on ranks. ..." instead. It is one
// more small round trip per collective, so it is off by default, as in libtorch.
namespace {
constexpr size_t kFingerprintLength = 32;
constexpr size_t kMaxDims = 24;
constexpr uint32_t kFingerprintTagBit = 1u << 31;  // apart from the collectives' tags
}  // namespace

Fingerprint::Fingerprint(OpType op, const std::vector<at::Tensor>& tensors, bool with_shapes)
    : encoded(kFingerprintLength, 0) {
  encoded[0] = static_cast<int64_t>(op);
  encoded[1] = static_cast<int64_t>(tensors.size());
  encoded[2] = tensors.empty() ? -1 : static_cast<int64_t>(tensors[0].scalar_type());
  encoded[3] = tensors.empty() ? -1 : static_cast<int64_t>(tensors[0].device().type());
  encoded[4] = tensors.empty() || !with_shapes ? -1 : tensors[0].dim();
  if (!tensors.empty() && with_shapes) {
    for (int64_t d = 0; d < tensors[0].dim() && d < static_cast<int64_t>(kMaxDims); ++d) {
      encoded[5 + d] = tensors[0].size(d);
    }
  }
  // Everything else (more dims, more tensors) folded into one number.
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](int64_t v) { h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull; };
  for (const auto& t : tensors) {
    mix(static_cast<int64_t>(t.scalar_type()));
    mix(static_cast<int64_t>(t.device().type()));
    if (with_shapes) {
      for (auto s : t.sizes()) mix(s);
    }
  }
  encoded[5 + kMaxDims] = static_cast<int64_t>(h);
}

std::string Fingerprint::describe(const std::vector<int64_t>& e) {
  std::ostringstream ss;
  ss << "CollectiveFingerPrint(OpType=" << opTypeToString(static_cast<OpType>(e[0]));
  if (e[1] > 0) {
    if (e[4] >= 0) {
      ss << ", TensorShape=[";
      for (int64_t d = 0; d < e[4] && d < static_cast<int64_t>(kMaxDims); ++d) {
        ss << (d ? ", " : "") << e[5 + d];
      }
      ss << "]";
    }
    ss << ", TensorDtypes=" << at::toString(static_cast<at::ScalarType>(e[2]))
       << ", TensorDeviceTypes=" << static_cast<c10::DeviceType>(e[3]);
    if (e[1] > 1) ss << ", Tensors=" << e[1];
  }
  ss << ")";
  return ss.str();
}

void verify_same_collective(const Fingerprint& mine,
                            const std::shared_ptr<::gloo::Context>& context, uint32_t tag) {
  std::vector<int64_t> all(kFingerprintLength * context->size);
  ::gloo::AllgatherOptions o(context);
  o.setTag(tag | kFingerprintTagBit);
  o.setInput(const_cast<int64_t*>(mine.encoded.data()), kFingerprintLength);
  o.setOutput(all.data(), all.size());
  ::gloo::allgather(o);
  for (int r = 0; r < context->size; ++r) {
    const std::vector<int64_t> theirs(all.begin() + r * kFingerprintLength,
                                      all.begin() + (r + 1) * kFingerprintLength);
    TORCH_CHECK(theirs == mine.encoded, "Detected mismatch between collectives on ranks. Rank ",
                context->rank, " is running collective: ", Fingerprint::describe(mine.encoded),
                ", but Rank ", r, " is running collective: ", Fingerprint::describe(theirs), ".");
  }
}

}  // namespace gloo_detail
}  // namespace c10d
