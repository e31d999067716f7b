#include "aten/MemoryOverlap.h"

namespace at {

MemOverlap has_internal_overlap(const TensorBase& t) {
  if (t.is_non_overlapping_and_dense()) return MemOverlap::No;
  const auto strides = t.strides();
  const auto sizes = t.sizes();
  for (size_t i = 0; i < strides.size(); ++i) {
    if (strides[i] == 0 && sizes[i] > 1) return MemOverlap::Yes;
  }
  return MemOverlap::TooHard;
}

void assert_no_internal_overlap(const TensorBase& t) {
  TORCH_CHECK(has_internal_overlap(t) != MemOverlap::Yes,
              "unsupported operation: more than one element of the written-to tensor refers to a "
              "single memory location. Please clone() the tensor before performing the operation.");
}

MemOverlapStatus get_overlap_status(const TensorBase& a, const TensorBase& b) {
  if (a.is_same(b)) return MemOverlapStatus::Full;
  if (a.numel() == 0 || b.numel() == 0) return MemOverlapStatus::No;
  if (!a.is_non_overlapping_and_dense() || !b.is_non_overlapping_and_dense()) {
    return MemOverlapStatus::TooHard;
  }
  if (a.has_storage() && b.has_storage() &&
      a.storage().unsafeGetStorageImpl() == b.storage().unsafeGetStorageImpl()) {
    const char* a_begin = static_cast<const char*>(a.data_ptr());
    const char* a_end = a_begin + a.numel() * a.element_size();
    const char* b_begin = static_cast<const char*>(b.data_ptr());
    const char* b_end = b_begin + b.numel() * b.element_size();
    if (a_begin == b_begin && a_end == b_end) {
      return a.strides() == b.strides() ? MemOverlapStatus::Full : MemOverlapStatus::Partial;
    }
    if (a_begin < b_end && b_begin < a_end) return MemOverlapStatus::Partial;
  }
  return MemOverlapStatus::No;
}

namespace {
const char* kPartialOverlapMessage =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to "
    "a single memory location. Please clone() the tensor before performing the operation.";
}  // namespace

void assert_no_partial_overlap(const TensorBase& a, const TensorBase& b) {
  TORCH_CHECK(get_overlap_status(a, b) != MemOverlapStatus::Partial, kPartialOverlapMessage);
}

void assert_no_overlap(const TensorBase& a, const TensorBase& b) {
  const MemOverlapStatus lap = get_overlap_status(a, b);
  TORCH_CHECK(lap != MemOverlapStatus::Partial && lap != MemOverlapStatus::Full,
              kPartialOverlapMessage);
}

}  // namespace at
