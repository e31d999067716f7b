// The README's main demo: the life of at::contiguous(t) (DESIGN.md), traced step by step.
//
// A [2, 3] tensor is transposed (a view: same storage, swapped strides), then made contiguous.
// The second step runs under a DispatchTraceGuard, so every dispatcher call and redispatch is
// printed with its key set, the kernel chosen and why, followed by TensorIterator's decisions
// (fast setup or not, perm_, output strides, coalesced shape and byte strides) and the copy loop
// that ran. Set MINIATEN_TRACE=1 to trace any program the same way.

#include <iostream>

#include "aten/ATen.h"

namespace {

void describe(const char* title, const at::Tensor& t) {
  std::cout << title << "\n"
            << "  sizes " << t.sizes() << "  strides " << t.strides() << "  offset "
            << t.storage_offset() << "  dtype " << t.dtype() << "\n"
            << "  is_contiguous " << t.is_contiguous() << "  channels_last "
            << t.is_contiguous(at::MemoryFormat::ChannelsLast) << "  non_overlapping_and_dense "
            << t.is_non_overlapping_and_dense() << "  suggest_memory_format "
            << t.suggest_memory_format() << "\n"
            << t << "\n\n";
}

}  // namespace

int main() {
  at::Tensor t = at::arange(6, at::kFloat).view({2, 3});
  describe("t = at::arange(6).view({2, 3})", t);

  at::Tensor tt = t.transpose(0, 1);
  describe("tt = t.transpose(0, 1)   (a view: same storage, strides swapped)", tt);
  std::cout << "  tt.is_alias_of(t) = " << tt.is_alias_of(t) << "\n\n";

  // The trace goes to stderr (as libtorch's does); flush stdout so the two read in order.
  std::cout << "c = at::contiguous(tt), traced:" << std::endl;
  at::Tensor c;
  {
    c10::DispatchTraceGuard trace;
    c = at::contiguous(tt);
  }
  std::cout << "\n";
  describe("c   (a new tensor: rows laid out one after another)", c);
  std::cout << "  c.is_alias_of(t) = " << c.is_alias_of(t) << "\n";
  // Already contiguous: the same tensor comes back, without touching the dispatcher.
  std::cout << "  c.contiguous().is_same(c) = " << c.contiguous().is_same(c) << "\n";
  return 0;
}
