// parallel_reduce. See Note [How reductions iterate and parallelise] in TensorIteratorReduce.h.

#include "aten/native/TensorIteratorReduce.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "aten/Parallel.h"

namespace at {
namespace native {

namespace {

using loop2d_t = TensorIteratorBase::loop2d_t;

// One thread's partial result, on a cache line of its own.
struct alignas(64) Slot {
  char bytes[64];
};

// The whole input reduces into one output element: each thread sums its share of the linear
// range into a slot seeded with the output's initial value, then the slots are reduced into
// the output as one more row, by `combine`.
void two_pass_reduction(TensorIteratorBase& iter, loop2d_t loop, loop2d_t combine) {
  const int max_threads = at::get_num_threads();
  const int64_t element_size = iter.element_size(0);
  TORCH_INTERNAL_ASSERT(element_size <= static_cast<int64_t>(sizeof(Slot)));
  char* out = static_cast<char*>(iter.data_ptr(0));
  std::vector<Slot> slots(static_cast<size_t>(max_threads));
  for (Slot& slot : slots) std::memcpy(slot.bytes, out, static_cast<size_t>(element_size));

  at::parallel_for(0, iter.numel(), internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
    char* slot = slots[static_cast<size_t>(at::get_thread_num())].bytes;
    // The output has stride 0 in every dim, so redirecting its pointer moves every write.
    iter.serial_for_each(
        [&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
          char* ptrs[2] = {slot, data[1]};
          loop(ptrs, strides, size0, size1);
        },
        {begin, end});
  });

  char* ptrs[2] = {out, slots[0].bytes};
  const int64_t strides[4] = {0, static_cast<int64_t>(sizeof(Slot)), 0, 0};
  combine(ptrs, strides, max_threads, 1);
}

// The outermost non-reduced dim with at least one column per thread, else the largest
// non-reduced one (reduced dims are at the front, but for one kept dim: see Note [A reduction's
// contiguous kept dim moves inward]).
int find_split_dim(const TensorIteratorBase& iter) {
  const int num_threads = at::get_num_threads();
  const IntArrayRef shape = iter.shape();
  int best_dim = -1;
  for (int dim = iter.ndim() - 1; dim >= 0; dim--) {
    if (iter.is_dim_reduced(dim)) continue;
    if (shape[dim] >= num_threads) return dim;
    if (best_dim < 0 || shape[dim] > shape[best_dim]) best_dim = dim;
  }
  TORCH_INTERNAL_ASSERT(best_dim >= 0);
  return best_dim;
}

// Each thread takes a range of columns of one non-reduced dim: it owns their output elements.
void parallel_dim_reduction(TensorIteratorBase& iter, loop2d_t loop) {
  TORCH_INTERNAL_ASSERT(iter.ndim() >= 1);
  const int dim = find_split_dim(iter);
  const int64_t cols = iter.shape()[dim];
  const int64_t element_size = iter.element_size(1);
  // Columns adjacent in the input: split on 128-byte boundaries.
  const bool round_columns = iter.strides(1)[dim] == element_size;
  const int64_t cols_per_128_bytes = std::max<int64_t>(1, 128 / element_size);
  at::parallel_for(0, cols, 1, [&](int64_t begin, int64_t end) {
    if (round_columns) {
      begin -= begin % cols_per_128_bytes;
      if (end != cols) end -= end % cols_per_128_bytes;
    }
    if (begin == end) return;
    TensorIteratorBase sub_iter(iter);
    sub_iter.narrow(dim, begin, end - begin);
    sub_iter.serial_for_each(loop, {0, sub_iter.numel()});
  });
}

}  // namespace

void parallel_reduce(TensorIteratorBase& iter, loop2d_t loop) {
  parallel_reduce(iter, loop, loop);
}

void parallel_reduce(TensorIteratorBase& iter, loop2d_t loop, loop2d_t combine) {
  TORCH_INTERNAL_ASSERT(iter.ntensors() == 2 && iter.noutputs() == 1,
                        "parallel_reduce only supports one input and one output");
  const int64_t numel = iter.numel();
  if (numel < internal::GRAIN_SIZE || at::get_num_threads() == 1 || at::in_parallel_region()) {
    iter.serial_for_each(loop, {0, numel});
  } else if (iter.output(0).numel() == 1) {
    two_pass_reduction(iter, loop, combine);
  } else {
    parallel_dim_reduction(iter, loop);
  }
}

}  // namespace native
}  // namespace at
