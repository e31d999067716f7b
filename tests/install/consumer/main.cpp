// An outside project: only the installed headers and library.
#include <iostream>

#include "aten/ATen.h"

int main() {
  at::Tensor t = at::detail::empty_cpu({2, 3, 4, 5}, at::kFloat, at::MemoryFormat::ChannelsLast);
  if (t.strides() != c10::IntArrayRef({60, 1, 15, 3})) {
    std::cout << "unexpected strides " << t.strides() << "\n";
    return 1;
  }
  if (!t.is_contiguous(at::MemoryFormat::ChannelsLast) || t.is_contiguous()) return 1;
  std::cout << "consumer ok " << t.sizes() << " " << t.strides() << "\n";
  return 0;
}
