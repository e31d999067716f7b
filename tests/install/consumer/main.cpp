// An outside project: only the installed headers and library, libtorch-style calls.
#include <iostream>
#include <sstream>

#include "aten/ATen.h"

int main() {
  at::Tensor t = at::zeros({2, 3}, at::TensorOptions().dtype(at::kLong));
  t.fill_(2);
  std::ostringstream printed;
  printed << t;
  if (printed.str() != " 2  2  2\n 2  2  2\n[ CPULongType{2,3} ]") {
    std::cout << "unexpected printing:\n" << printed.str() << "\n";
    return 1;
  }
  at::Tensor e = at::empty({2, 3, 4, 5}, at::kFloat, at::MemoryFormat::ChannelsLast);
  if (e.strides() != c10::IntArrayRef({60, 1, 15, 3})) {
    std::cout << "unexpected strides " << e.strides() << "\n";
    return 1;
  }
  // Static registrations in the shared library survived linking: the schema is there.
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("aten::empty", "memory_format");
  std::cout << "consumer ok " << op.schema() << "\n" << t << "\n";
  return 0;
}
