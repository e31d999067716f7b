#include "c10/core/TensorOptions.h"

#include <ostream>

namespace c10 {

namespace {
template <typename T>
void print_field(std::ostream& out, const char* name, bool has, const T& value) {
  out << name << "=" << value;
  if (!has) out << " (default)";
}
}  // namespace

std::ostream& operator<<(std::ostream& stream, const TensorOptions& options) {
  stream << "TensorOptions(";
  print_field(stream, "dtype", options.has_dtype(), options.dtype());
  stream << ", ";
  print_field(stream, "device", options.has_device(), options.device());
  stream << ", ";
  print_field(stream, "layout", options.has_layout(), options.layout());
  stream << ", ";
  print_field(stream, "requires_grad", options.has_requires_grad(),
              options.requires_grad() ? "true" : "false");
  stream << ", ";
  print_field(stream, "pinned_memory", options.has_pinned_memory(),
              options.pinned_memory() ? "true" : "false");
  stream << ", memory_format=";
  if (options.has_memory_format()) {
    stream << *options.memory_format_opt();
  } else {
    stream << "(nullopt)";
  }
  return stream << ")";
}

}  // namespace c10
