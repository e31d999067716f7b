// The README's main demo: a tensor, its transpose, and the transpose made contiguous, with the
// sizes, strides and cached layout flags at each step.
//
// The operator layer arrives with the dispatcher; until then the transpose is built as a view
// by hand (same storage, swapped sizes and strides) and made contiguous by an explicit loop.

#include <cstdio>
#include <iostream>

#include "aten/core/Tensor.h"
#include "aten/detail/EmptyTensor.h"

namespace {

void describe(const char* title, const at::Tensor& t) {
  std::cout << title << "\n"
            << "  sizes " << t.sizes() << "  strides " << t.strides() << "  offset "
            << t.storage_offset() << "\n"
            << "  is_contiguous " << t.is_contiguous()
            << "  channels_last " << t.is_contiguous(at::MemoryFormat::ChannelsLast)
            << "  non_overlapping_and_dense " << t.is_non_overlapping_and_dense()
            << "  suggest_memory_format " << t.suggest_memory_format() << "\n  values";
  const float* data = t.data_ptr<float>();
  for (int64_t i = 0; i < t.size(0); ++i) {
    std::cout << (i ? " |" : "");
    for (int64_t j = 0; j < t.size(1); ++j) std::cout << " " << data[i * t.stride(0) + j * t.stride(1)];
  }
  std::cout << "\n\n";
}

// A view sharing `base`'s storage with dims 0 and 1 swapped.
at::Tensor transpose_view(const at::Tensor& base) {
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(base.storage()), base.key_set(),
                                                   base.dtype());
  impl->set_sizes_and_strides({base.size(1), base.size(0)}, {base.stride(1), base.stride(0)},
                              base.storage_offset());
  impl->set_version_counter(base.unsafeGetTensorImpl()->version_counter());
  return at::Tensor(std::move(impl));
}

at::Tensor contiguous_copy(const at::Tensor& src) {
  if (src.is_contiguous()) return src;
  at::Tensor out = at::detail::empty_cpu(src.sizes(), src.scalar_type());
  const float* in = src.data_ptr<float>();
  float* o = out.data_ptr<float>();
  for (int64_t i = 0; i < src.size(0); ++i)
    for (int64_t j = 0; j < src.size(1); ++j) *o++ = in[i * src.stride(0) + j * src.stride(1)];
  return out;
}

}  // namespace

int main() {
  at::Tensor t = at::detail::empty_cpu({2, 3}, at::kFloat);
  float* data = t.data_ptr<float>();
  for (int i = 0; i < 6; ++i) data[i] = static_cast<float>(i);
  describe("t = a [2, 3] float tensor", t);

  at::Tensor tt = transpose_view(t);
  describe("tt = t.transpose(0, 1)  (a view: same storage, swapped strides)", tt);
  std::cout << "  tt.is_alias_of(t) " << tt.is_alias_of(t) << "\n\n";

  at::Tensor c = contiguous_copy(tt);
  describe("c = tt.contiguous()  (a new tensor, rows laid out one after another)", c);
  std::cout << "  c.is_alias_of(t) " << c.is_alias_of(t) << "\n";
  return 0;
}
