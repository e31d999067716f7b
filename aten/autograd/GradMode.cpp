#include "aten/autograd/GradMode.h"

namespace at {
namespace impl {
__thread bool tls_grad_mode_disabled C10_TLS_FAST = false;
}  // namespace impl
}  // namespace at
