// What the ops built on indexed_copy_stub and flagged_positions_stub share off the CPU
// (IndexedCopy.h): the iterator the kernel takes, the check of index values before a launch, and
// the positions of a mask's true elements.

#include "aten/native/IndexedCopy.h"

#include "aten/ATen.h"

namespace at {
namespace native {

DEFINE_DISPATCH(indexed_copy_stub);
DEFINE_DISPATCH(flagged_positions_stub);

TensorIterator make_indexed_copy_iterator(const Tensor& out, const Tensor& in,
                                          const std::vector<Tensor>& indices, IntArrayRef shape) {
  TensorIteratorConfig config;
  config.set_check_mem_overlap(false)
      .check_all_same_dtype(false)
      .resize_outputs(false)
      .declare_static_shape(shape)
      .add_output(out)
      .add_input(in);
  for (const Tensor& index : indices) config.add_input(index);
  return config.build();
}

c10::optional<int64_t> first_index_outside(const Tensor& index, int64_t low, int64_t high) {
  if (index.numel() == 0) return c10::nullopt;
  // Both bounds come back in one copy: one wait for the device, not two.
  const Tensor bounds = at::stack({index.min(), index.max()}).to(kCPU, kLong);
  const int64_t* min_max = bounds.data_ptr<int64_t>();
  if (min_max[0] >= low && min_max[1] < high) return c10::nullopt;
  const Tensor host = index.cpu().to(kLong).contiguous();
  const int64_t* values = host.data_ptr<int64_t>();
  for (int64_t p = 0; p < host.numel(); ++p) {
    if (values[p] < low || values[p] >= high) return values[p];
  }
  TORCH_INTERNAL_ASSERT(false, "first_index_outside: the reductions saw a value the scan did not");
}

Tensor flagged_positions(const Tensor& mask) {
  TORCH_INTERNAL_ASSERT(mask.scalar_type() == kBool && mask.is_contiguous());
  const int64_t count = mask.sum(kLong).item<int64_t>();
  Tensor positions = at::empty({count}, mask.options().dtype(kLong));
  if (count > 0) flagged_positions_stub(mask.device().type(), mask, positions);
  return positions;
}

}  // namespace native
}  // namespace at
