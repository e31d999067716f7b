// index_select, index_add_ / index_add and masked_fill_ / masked_fill, with libtorch 1.13's
// checks and texts (aten/src/ATen/native/TensorAdvancedIndexing.cpp).
//
// Note [Indexing along one dim]
// A contiguous tensor seen along `dim` is outer x size x inner (as softmax's, SoftMax.h): index i
// picks, in each of the `outer` blocks, the run of `inner` elements at i * inner. index_select
// copies those runs (one copy each, in parallel over the rows it writes), index_add_ adds them
// in order (a repeated index adds twice, so it runs serially). Indices are checked against the
// dim's size before anything is written. The copying is index_select_stub's
// (aten/native/cpu/IndexSelectKernel.cpp).

#include <type_traits>
#include <vector>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/MemoryOverlap.h"
#include "aten/OpMathType.h"
#include "aten/Parallel.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/IndexedCopy.h"
#include "aten/native/Indexing.h"
#include "aten/native/SameDevice.h"
#include "aten/native/TensorIterator.h"
#include "c10/core/WrapDimMinimal.h"
#include "c10/util/WrappingArithmetic.h"

namespace at {
namespace native {

DEFINE_DISPATCH(index_select_stub);
DEFINE_DISPATCH(masked_fill_stub);

namespace {

struct Blocks {
  int64_t outer = 1, size = 1, inner = 1;
};

Blocks blocks_of(IntArrayRef sizes, int64_t dim) {
  Blocks b;
  if (sizes.empty()) return b;
  b.size = sizes[static_cast<size_t>(dim)];
  for (int64_t d = 0; d < dim; ++d) b.outer *= sizes[static_cast<size_t>(d)];
  for (size_t d = static_cast<size_t>(dim) + 1; d < sizes.size(); ++d) b.inner *= sizes[d];
  return b;
}

// The indices as int64, each checked against the dim's size.
std::vector<int64_t> checked_indices(const Tensor& index, int64_t size) {
  // A device's indices are read here too (a copy and a sync): the bounds are checked before
  // anything is written, as on the CPU.
  const Tensor idx = index.cpu().to(kLong).contiguous();
  const int64_t* p = idx.data_ptr<int64_t>();
  std::vector<int64_t> out(p, p + idx.numel());
  for (int64_t i : out) TORCH_CHECK_INDEX(i >= 0 && i < size, "index out of range in self");
  return out;
}

// dst + src * alpha in the op-math type; integers wrap (this file is not built with -fwrapv),
// Bool is an or.
template <typename T, typename Op>
T add_scaled(T dst, T src, Op alpha) {
  if constexpr (std::is_same<T, bool>::value) {
    return dst || (src && alpha);
  } else if constexpr (std::is_integral<T>::value) {
    return c10::wrapping_add(dst, static_cast<T>(c10::wrapping_mul(static_cast<Op>(src), alpha)));
  } else {
    return static_cast<T>(static_cast<Op>(dst) + static_cast<Op>(src) * alpha);
  }
}

}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  check_same_device("_index_select", {{"self", self}, {"index", index}});
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  TORCH_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
              "index_select(): Expected dtype int32 or int64 for index");
  std::vector<int64_t> sizes = self.sizes().vec();
  if (self.dim() > 0) sizes[static_cast<size_t>(wrapped)] = index.numel();
  Tensor result = at::empty(sizes, self.options());
  TORCH_CHECK_INDEX(self.dim() > 0 || index.numel() == 1,
                    "index_select(): Index to scalar can have only 1 value, got ", index.numel(),
                    " value(s)");
  if (result.is_meta()) return result;  // the index values (their bounds) are data
  const Blocks b = blocks_of(self.sizes(), wrapped);
  const std::vector<int64_t> idx = checked_indices(index, b.size);
  if (result.numel() == 0) return result;
  const Tensor src = self.contiguous();
  // Note [Indexing along one dim]: row r of the result is block r / n, index r % n.
  RowGather rows;
  rows.out = static_cast<char*>(result.data_ptr());
  rows.in = static_cast<const char*>(src.data_ptr());
  rows.index = idx.data();
  // On a device the kernel reads the indices there: index itself when it is a contiguous Long
  // tensor (checked above through a host copy), else the checked copy sent back.
  Tensor device_index;
  if (!self.device().is_cpu()) {
    if (index.scalar_type() == kLong && index.is_contiguous()) {
      device_index = index;
    } else {
      device_index = at::empty({static_cast<int64_t>(idx.size())}, self.options().dtype(kLong));
      device_index.copy_(at::from_blob(const_cast<int64_t*>(idx.data()),
                                       {static_cast<int64_t>(idx.size())}, at::kLong));
    }
    rows.index = device_index.data_ptr<int64_t>();
  }
  rows.n = static_cast<int64_t>(idx.size());
  rows.outer = b.outer;
  rows.size = b.size;
  rows.run = b.inner * self.element_size();
  rows.grain = std::max<int64_t>(1, at::internal::GRAIN_SIZE / b.inner);
  index_select_stub(self.device().type(), rows);
  return result;
}

Tensor& index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                   const Scalar& alpha) {
  const int64_t wrapped = c10::maybe_wrap_dim(dim, self.dim());
  check_same_device("index_add_", {{"self", self}, {"index", index}, {"source", source}});
  TORCH_CHECK_INDEX(index.dim() <= 1, "index_add_(): Index is supposed to be a vector");
  TORCH_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
              "index_add_(): Expected dtype int32/int64 for index but got: ", index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), "index_add_(): self (",
              self.scalar_type(), ") and source (", source.scalar_type(),
              ") must have the same scalar type");
  TORCH_CHECK(wrapped == 0 || wrapped < source.dim(), "index_add_(): Indexing dim ", wrapped,
              " is out of bounds of the source tensor with dim ", source.dim());
  const int64_t source_size = source.dim() == 0 ? 1 : source.size(wrapped);
  TORCH_CHECK(index.numel() == source_size, "index_add_(): Number of indices (", index.numel(),
              ") should be equal to source.size(dim): (", source_size, "), for dim: ", wrapped);
  std::vector<int64_t> self_sizes = self.sizes().vec(), source_sizes = source.sizes().vec();
  if (source.dim() != 0 && self.dim() != 0) {
    self_sizes.erase(self_sizes.begin() + wrapped);
    source_sizes.erase(source_sizes.begin() + wrapped);
  }
  TORCH_CHECK(self_sizes == source_sizes,
              "source tensor shape must match self tensor shape, excluding the specified "
              "dimension. Got self.shape = ",
              self.sizes(), " source.shape = ", source.sizes());
  // self is written while source and index are read: no element may be shared.
  at::assert_no_internal_overlap(self);
  at::assert_no_overlap(self, index);
  at::assert_no_overlap(self, source);
  if (self.is_meta()) return self;
  if (!self.device().is_cpu()) {
    // index_put_ with the index at dim and every other dim whole is this op without alpha: the
    // indexing result's shape is self's with dim's size that of the index, source's shape.
    const int64_t size = self.dim() == 0 ? 1 : self.size(wrapped);
    TORCH_CHECK_INDEX(!first_index_outside(index, 0, size), "index out of range in self");
    const bool scalar = self.dim() == 0;
    Tensor target = scalar ? self.view({1}) : self;
    c10::List<c10::optional<Tensor>> indices;
    for (int64_t d = 0; d < wrapped; ++d) indices.push_back(c10::nullopt);
    indices.push_back(index.reshape({-1}).to(kLong));
    const Tensor values = scalar ? source.view({1}) : source;
    // alpha in self's dtype, as the CPU converts it (for Bool, a logical and).
    const Tensor scaled =
        alpha.equal(int64_t{1}) ? values : values.mul(at::scalar_tensor(alpha, values.options()));
    // Checked above against [0, size), narrower than index_put_'s range: one read back, not two.
    IndexedCopyPlan plan = plan_index_put(target, indices, scaled, IndexBounds::CheckedByCaller);
    indexed_copy_stub(self.device().type(), plan.iter, plan.terms, true);
    return self;
  }
  const Blocks b = blocks_of(self.sizes(), wrapped);
  const std::vector<int64_t> idx = checked_indices(index, b.size);
  if (self.numel() == 0 || idx.empty()) return self;
  // Added in a contiguous copy when self is not contiguous, then written back.
  Tensor target = self.is_contiguous() ? self : self.contiguous();
  const Tensor src = source.contiguous();
  const int64_t n = static_cast<int64_t>(idx.size());
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(
      kHalf, kBFloat16, kBool, self.scalar_type(), "index_add_cpu_", [&] {
        using opmath_t = at::opmath_type<scalar_t>;
        const opmath_t a = alpha.to<opmath_t>();
        scalar_t* out = target.data_ptr<scalar_t>();
        const scalar_t* in = src.data_ptr<scalar_t>();
        for (int64_t o = 0; o < b.outer; ++o) {
          for (int64_t i = 0; i < n; ++i) {
            scalar_t* dst = out + (o * b.size + idx[static_cast<size_t>(i)]) * b.inner;
            const scalar_t* from = in + (o * n + i) * b.inner;
            for (int64_t k = 0; k < b.inner; ++k) dst[k] = add_scaled(dst[k], from[k], a);
          }
        }
      });
  if (!target.is_same(self)) self.copy_(target);
  return self;
}

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha) {
  return self.clone(MemoryFormat::Contiguous).index_add_(dim, index, source, alpha);
}

// ---- masked_fill
// ---------------------------------------------------------------------------------

namespace {

// libtorch's masks are Bool; a uint8 mask still works, with its deprecation warning.
Tensor bool_mask(const Tensor& mask) {
  if (mask.scalar_type() == kBool) return mask;
  if (mask.scalar_type() == kByte) {
    TORCH_WARN(
        "masked_fill_ received a mask with dtype torch.uint8, this behavior is now deprecated,"
        "please use a mask with dtype torch.bool instead.");
  }
  return mask.to(kBool);
}

void masked_fill_impl(Tensor& self, const Tensor& mask, const Scalar& value) {
  if (self.is_cuda() || mask.is_cuda()) {  // libtorch's CUDA check, before the iterator's
    TORCH_CHECK(self.device() == mask.device(),
                "expected self and mask to be on the same device, but got mask on ", mask.device(),
                " and self on ", self.device());
  }
  const Tensor m = bool_mask(mask);
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(false)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .add_output(self)
                  .add_input(m)
                  .build();
  if (self.is_meta()) return;
  if (!self.device().is_cpu()) {
    auto device_iter = TensorIteratorConfig()
                           .set_check_mem_overlap(false)
                           .check_all_same_dtype(false)
                           .resize_outputs(false)
                           .add_output(self)
                           .add_input(self)
                           .add_input(m)
                           .build();
    masked_fill_stub(self.device().type(), device_iter, value);
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(
      kHalf, kBFloat16, kBool, self.scalar_type(), "masked_fill", [&] {
        const scalar_t v = value.to<scalar_t>();
        iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
          for (int64_t i = 0; i < n; ++i) {
            if (*reinterpret_cast<const bool*>(data[1] + i * strides[1])) {
              *reinterpret_cast<scalar_t*>(data[0] + i * strides[0]) = v;
            }
          }
        });
      });
}

}  // namespace

Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Scalar& value) {
  masked_fill_impl(self, mask, value);
  return self;
}

Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0,
              "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  masked_fill_impl(self, mask, value.is_meta() ? Scalar(0) : value.item());
  return self;
}

// The broadcast of mask and self (in that order, as libtorch's expand_outplace, which its
// broadcast errors show), contiguous, then filled.
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  const c10::DimVector shape = infer_size_dimvector(mask.sizes(), self.sizes());
  Tensor result = self.expand(shape).clone(MemoryFormat::Contiguous);
  return result.masked_fill_(mask, value);
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  const c10::DimVector shape = infer_size_dimvector(mask.sizes(), self.sizes());
  Tensor result = self.expand(shape).clone(MemoryFormat::Contiguous);
  return result.masked_fill_(mask, value);
}

}  // namespace native
}  // namespace at
