// What ProcessGroupGloo's collectives share besides the checks: staging tensors Gloo cannot use
// as they are, and Gloo's exceptions as c10::Errors (GlooCollectives.h).
#include <exception>

#include "aten/ATen.h"
#include "distributed/c10d/GlooCollectives.h"
#include "distributed/c10d/exception.h"

namespace c10d {

namespace gloo_detail {

void Staged::copy_back() const {
  if (!buffer.is_same(user)) user.copy_(buffer);
}

Staged stage(const at::Tensor& t) {
  if (t.is_cpu() && t.is_contiguous()) return Staged{t, t};
  return Staged{t, t.to(at::kCPU).contiguous()};
}

std::vector<Staged> stage(const std::vector<at::Tensor>& tensors) {
  std::vector<Staged> staged;
  staged.reserve(tensors.size());
  for (const auto& t : tensors) staged.push_back(stage(t));
  return staged;
}

std::exception_ptr as_c10d_error(std::exception_ptr eptr) {
  try {
    std::rethrow_exception(eptr);
  } catch (const c10::Error&) {
    return eptr;
  } catch (const std::exception& e) {
    // Gloo's IoException ("Connection closed by peer [127.0.0.1]:41234", "Timed out waiting
    // 1000ms for recv operation to complete") and EnforceNotMet.
    try {
      C10D_THROW(C10dError, "Gloo failed: ", e.what());
    } catch (...) {
      return std::current_exception();
    }
  } catch (...) {
    return eptr;
  }
}

}  // namespace gloo_detail
}  // namespace c10d
