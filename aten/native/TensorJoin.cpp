// cat and stack, with libtorch 1.13's checks and texts (aten/src/ATen/native/TensorShape.cpp).
//
// Note [How cat lays out its result]
// The result has the promoted dtype of all inputs and the sizes of the first one that counts,
// with the cat dim summed; its memory format is the inputs' common one (channels-last inputs
// give a channels-last result), contiguous when they disagree, as libtorch's. Each input is then
// copied into its slice of the result (narrow + copy_), so the copy kernel's layouts and
// conversions serve cat too; contiguous inputs of the result's dtype into a contiguous result
// are memcpy'd instead (Note [cat by memcpy]). A 1-D tensor with no elements is skipped wherever it
// is (libtorch's legacy rule: torch.cat([x, torch.tensor([])]) is x).

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "aten/ATen.h"
#include "aten/MemoryOverlap.h"
#include "aten/Parallel.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/Resize.h"
#include "aten/native/TypePromotion.h"
#include "c10/core/WrapDimMinimal.h"

namespace at {
namespace native {

namespace {

bool skipped_in_cat(const Tensor& t) {
  return t.dim() == 1 && t.numel() == 0;
}

struct CatGeometry {
  std::vector<int64_t> sizes;
  int64_t dim = 0;
  ScalarType dtype = kFloat;
  MemoryFormat format = MemoryFormat::Contiguous;
  const Tensor* reference = nullptr;  // the first tensor that is not skipped
};

CatGeometry cat_geometry(TensorList tensors, int64_t dim) {
  TORCH_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  CatGeometry g;
  ResultTypeState state;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    TORCH_CHECK(t.dim() > 0, "zero-dimensional tensor (at position ", i,
                ") cannot be concatenated");
    state = update_result_type_state(t, state);
    if (g.reference == nullptr && !skipped_in_cat(t)) g.reference = &t;
    // Every input votes on the format, a skipped 1-D one too (libtorch's
    // cat_compute_output_memory_format).
    const MemoryFormat format = t.suggest_memory_format();
    g.format = i == 0 || format == g.format ? format : MemoryFormat::Contiguous;
  }
  g.dtype = result_type(state);
  const Tensor& ref = g.reference ? *g.reference : tensors[0];
  if (g.reference == nullptr) {
    // Every input skipped: libtorch leaves the dim unchecked and returns an empty 1-D tensor.
    g.sizes = {0};
    return g;
  }
  g.dim = c10::maybe_wrap_dim(dim, ref.dim());
  g.sizes = ref.sizes().vec();
  g.sizes[static_cast<size_t>(g.dim)] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    TORCH_CHECK(t.device() == ref.device(),
                "Expected all tensors to be on the same device, but found at least two devices, ",
                ref.device(), " and ", t.device(), "!");
    if (skipped_in_cat(t)) continue;
    TORCH_CHECK(t.dim() == ref.dim(), "Tensors must have same number of dimensions: got ",
                ref.dim(), " and ", t.dim());
    for (int64_t d = 0; d < ref.dim(); ++d) {
      if (d == g.dim) continue;
      TORCH_CHECK(t.size(d) == ref.size(d), "Sizes of tensors must match except in dimension ",
                  g.dim, ". Expected size ", ref.size(d), " but got size ", t.size(d),
                  " for tensor number ", i, " in the list.");
    }
    g.sizes[static_cast<size_t>(g.dim)] += t.size(g.dim);
  }
  return g;
}

// Note [cat by memcpy]: a contiguous result and contiguous inputs of its dtype are, for each
// index of the dims before `dim`, one run of bytes per input laid end to end. Those runs are
// memcpy'd (glibc's memcpy streams large runs past the cache), in parallel over the outer index,
// or over pieces of each run when there is only one.
bool cat_by_memcpy(const Tensor& result, TensorList tensors, const CatGeometry& g) {
  if (!result.is_contiguous() || result.device().type() != kCPU) return false;
  for (const Tensor& t : tensors) {
    if (skipped_in_cat(t)) continue;
    if (!t.is_contiguous() || t.scalar_type() != result.scalar_type() ||
        t.device().type() != kCPU) {
      return false;
    }
  }
  int64_t outer = 1;
  for (int64_t d = 0; d < g.dim; ++d) outer *= result.size(d);
  const int64_t row_bytes = result.numel() / std::max<int64_t>(outer, 1) * result.element_size();
  char* out = static_cast<char*>(result.data_ptr());
  std::vector<std::pair<const char*, int64_t>> runs;  // each input's data and run length
  for (const Tensor& t : tensors) {
    if (skipped_in_cat(t) || t.numel() == 0) continue;
    runs.emplace_back(static_cast<const char*>(t.data_ptr()),
                      t.numel() / std::max<int64_t>(outer, 1) * t.element_size());
  }
  if (outer == 1) {
    int64_t offset = 0;
    for (const auto& run : runs) {
      constexpr int64_t kPiece = 1 << 20;
      at::parallel_for(0, run.second, kPiece, [&](int64_t begin, int64_t end) {
        std::memcpy(out + offset + begin, run.first + begin, static_cast<size_t>(end - begin));
      });
      offset += run.second;
    }
    return true;
  }
  at::parallel_for(0, outer, std::max<int64_t>(1, (1 << 20) / std::max<int64_t>(row_bytes, 1)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t o = begin; o < end; ++o) {
                       char* dst = out + o * row_bytes;
                       for (const auto& run : runs) {
                         std::memcpy(dst, run.first + o * run.second,
                                     static_cast<size_t>(run.second));
                         dst += run.second;
                       }
                     }
                   });
  return true;
}

void cat_into(const Tensor& result, TensorList tensors, const CatGeometry& g) {
  if (result.is_meta() || g.reference == nullptr || result.numel() == 0) return;
  if (cat_by_memcpy(result, tensors, g)) return;
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (skipped_in_cat(t)) continue;
    const int64_t n = t.size(g.dim);
    if (n > 0) result.narrow(g.dim, offset, n).copy_(t);
    offset += n;
  }
}

}  // namespace

Tensor cat(TensorList tensors, int64_t dim) {
  const CatGeometry g = cat_geometry(tensors, dim);
  Tensor result = at::empty(g.sizes, tensors[0].options().dtype(g.dtype).memory_format(g.format));
  cat_into(result, tensors, g);
  return result;
}

Tensor& cat_out(TensorList tensors, int64_t dim, Tensor& out) {
  const CatGeometry g = cat_geometry(tensors, dim);
  resize_out(out, g.sizes, tensors[0], out.scalar_type());
  TORCH_CHECK(c10::canCast(g.dtype, out.scalar_type()), "result type ", g.dtype,
              " can't be cast to the desired output type ", out.scalar_type());
  // An input that shares memory with out would be overwritten while it is read.
  at::assert_no_internal_overlap(out);
  for (const Tensor& t : tensors) at::assert_no_overlap(out, t);
  cat_into(out, tensors, g);
  return out;
}

// libtorch's stack: inside the dims, one cat along dim viewed with the new dim split out (a
// split dim is always a view); at the end, a cat of the tensors unsqueezed there.
Tensor stack(TensorList tensors, int64_t dim) {
  TORCH_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  const int64_t wrapped = c10::maybe_wrap_dim(dim, tensors[0].dim() + 1);
  const IntArrayRef entry_shape = tensors[0].sizes();
  for (size_t i = 1; i < tensors.size(); ++i) {
    TORCH_CHECK(tensors[i].sizes().equals(entry_shape),
                "stack expects each tensor to be equal size, but got ", entry_shape,
                " at entry 0 and ", tensors[i].sizes(), " at entry ", i);
  }
  if (wrapped < tensors[0].dim()) {
    std::vector<int64_t> result_sizes = entry_shape.vec();
    result_sizes.insert(result_sizes.begin() + wrapped, static_cast<int64_t>(tensors.size()));
    return at::cat(tensors, wrapped).view(result_sizes);
  }
  std::vector<Tensor> inputs;
  inputs.reserve(tensors.size());
  for (const Tensor& t : tensors) inputs.push_back(t.unsqueeze(wrapped));
  return at::cat(inputs, wrapped);
}

}  // namespace native
}  // namespace at
