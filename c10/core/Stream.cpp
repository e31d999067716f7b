#include "c10/core/Stream.h"

#include <ostream>

namespace c10 {

std::ostream& operator<<(std::ostream& out, const Stream& s) {
  return out << "stream " << s.id() << " on device " << s.device();
}

}  // namespace c10
