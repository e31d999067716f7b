// Which GPU loop ran last on this thread (Note [Which GPU loop runs]). Built in every build:
// the CPU tests run the GPU loop bodies on the host (tests/aten/cuda/HostLauncher.h), and the
// names come from the same choice.

#include "aten/native/cuda/ElementwiseBody.h"
#include "dispatcher/DispatchTrace.h"

namespace at {
namespace native {

namespace {
__thread const char* tls_last_gpu_loop C10_TLS_FAST = "";
}  // namespace

const char* last_gpu_loop() {
  return tls_last_gpu_loop;
}

void set_last_gpu_loop(const char* loop) {
  tls_last_gpu_loop = loop;
  if (c10::DispatchTrace::enabled()) c10::DispatchTrace::log(std::string("gpu loop: ") + loop);
}

}  // namespace native
}  // namespace at
