// Factories: empty / empty_strided per backend, and the composites built on them (zeros, ones,
// full, arange, *_like, scalar_tensor).

#include <cmath>
#include <limits>

#include "aten/ATen.h"
#include "aten/Dispatch.h"
#include "aten/TensorUtils.h"
#include "aten/detail/CUDAHooksInterface.h"
#include "aten/detail/EmptyTensor.h"
#include "aten/detail/Resize.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/TensorFactories.h"
#include "c10/core/CPUAllocator.h"
#include "c10/core/StorageSize.h"

namespace at {
namespace native {

DEFINE_DISPATCH(arange_stub);

namespace {

c10::ScalarType dtype_or_default(c10::optional<c10::ScalarType> dtype) {
  return dtype.value_or(c10::ScalarType::Float);
}

void check_strided(c10::optional<Layout> layout) {
  TORCH_CHECK(layout.value_or(Layout::Strided) == Layout::Strided,
              "empty: only the strided layout is supported");
}

void check_strided_cpu(c10::optional<Layout> layout, c10::optional<bool> pin_memory) {
  check_strided(layout);
  TORCH_CHECK(!pin_memory.value_or(false), "Need to provide pin_memory allocator to use pin memory.");
}

constexpr c10::DispatchKeySet kCPUKeys = c10::keysetForBackend(c10::DispatchKey::CPU);

// libtorch's GetCPUAllocatorMaybePinned(true): the CUDA build's page-locked allocator when a
// device is present, else its error.
c10::Allocator* pinned_allocator() {
  const at::detail::CUDAHooksInterface& hooks = at::detail::getCUDAHooks();
  TORCH_CHECK(hooks.hasCUDA(), "Need to provide pin_memory allocator to use pin memory.");
  return hooks.getPinnedMemoryAllocator();
}

// Before any storage arithmetic, which would read past the shorter list.
void check_sizes_match_strides(IntArrayRef size, IntArrayRef stride) {
  TORCH_CHECK(size.size() == stride.size(), "dimensionality of sizes (", size.size(),
              ") must match dimensionality of strides (", stride.size(), ")");
}

// Meta tensors have sizes, strides and a storage size, but no bytes.
c10::Storage meta_storage(size_t nbytes) {
  return c10::Storage(c10::make_intrusive<c10::StorageImpl>(
      c10::StorageImpl::use_byte_size_t(), nbytes,
      c10::DataPtr(nullptr, c10::Device(c10::DeviceType::Meta)), nullptr, /*resizable=*/false));
}

Tensor make_meta(IntArrayRef size, c10::ScalarType dtype, size_t nbytes) {
  static const c10::DispatchKeySet meta_ks = c10::keysetForBackend(c10::DispatchKey::Meta);
  auto impl = c10::make_intrusive<c10::TensorImpl>(meta_storage(nbytes), meta_ks,
                                                   caffe2::TypeMeta::fromScalarType(dtype));
  impl->set_sizes_contiguous(size);
  return Tensor(std::move(impl));
}

// The dtype `full` gives a fill value when none is asked for: bool, long, or the default float.
TensorOptions infer_full_options(const Scalar& fill_value, const TensorOptions& options) {
  if (options.has_dtype()) return options;
  if (fill_value.isBoolean()) return options.dtype(c10::ScalarType::Bool);
  if (fill_value.isIntegral(/*includeBool=*/false)) return options.dtype(c10::ScalarType::Long);
  // The default complex dtype follows the default float dtype (Float): ComplexFloat.
  if (fill_value.isComplex()) return options.dtype(c10::ScalarType::ComplexFloat);
  return options;
}

TensorOptions make_options(c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
                           c10::optional<Device> device, c10::optional<bool> pin_memory) {
  return TensorOptions().dtype(dtype).layout(layout).device(device).pinned_memory(pin_memory);
}

}  // namespace

Tensor empty_cpu(IntArrayRef size, c10::optional<c10::ScalarType> dtype,
                 c10::optional<Layout> layout, c10::optional<Device> device,
                 c10::optional<bool> pin_memory, c10::optional<MemoryFormat> memory_format) {
  TORCH_INTERNAL_ASSERT(!device.has_value() || device->is_cpu());
  if (C10_UNLIKELY(pin_memory.value_or(false))) {
    // Page-locked memory from the CUDA build's allocator (or libtorch's error without one).
    check_strided(layout);
    return at::detail::empty_generic(size, pinned_allocator(), kCPUKeys, dtype_or_default(dtype),
                                     memory_format);
  }
  check_strided(layout);
  return at::detail::empty_cpu(size, dtype_or_default(dtype), memory_format);
}

Tensor empty_meta(IntArrayRef size, c10::optional<c10::ScalarType> dtype,
                  c10::optional<Layout> layout, c10::optional<Device> device,
                  c10::optional<bool> pin_memory, c10::optional<MemoryFormat> memory_format) {
  (void)device;
  check_strided_cpu(layout, pin_memory);
  at::detail::check_size_nonnegative(size);
  const c10::ScalarType st = dtype_or_default(dtype);
  Tensor t = make_meta(size, st, c10::computeStorageNbytesContiguous(size, c10::elementSize(st)));
  if (memory_format.has_value() && *memory_format != MemoryFormat::Contiguous) {
    t.unsafeGetTensorImpl()->empty_tensor_restride(*memory_format);
  }
  return t;
}

Tensor empty_strided_cpu(IntArrayRef size, IntArrayRef stride,
                         c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
                         c10::optional<Device> device, c10::optional<bool> pin_memory) {
  TORCH_INTERNAL_ASSERT(!device.has_value() || device->is_cpu());
  check_strided(layout);
  if (C10_UNLIKELY(pin_memory.value_or(false))) {
    at::detail::check_size_nonnegative(size);
    check_sizes_match_strides(size, stride);
    return at::detail::empty_strided_generic(size, stride, pinned_allocator(), kCPUKeys,
                                             dtype_or_default(dtype));
  }
  // at::detail::empty_strided_cpu checks for negative sizes first thing; only a length mismatch
  // needs catching here, after that check, for libtorch's order of errors (every clone() comes
  // through here, so the sizes are not walked twice).
  if (size.size() != stride.size()) {
    at::detail::check_size_nonnegative(size);
    check_sizes_match_strides(size, stride);
  }
  return at::detail::empty_strided_cpu(size, stride, dtype_or_default(dtype));
}

Tensor empty_strided_meta(IntArrayRef size, IntArrayRef stride,
                          c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
                          c10::optional<Device> device, c10::optional<bool> pin_memory) {
  (void)device;
  check_strided_cpu(layout, pin_memory);
  at::detail::check_size_nonnegative(size);
  check_sizes_match_strides(size, stride);
  const c10::ScalarType st = dtype_or_default(dtype);
  Tensor t = make_meta(size, st, c10::computeStorageNbytes(size, stride, c10::elementSize(st)));
  t.unsafeGetTensorImpl()->set_sizes_and_strides(size, stride);
  return t;
}

// Note [empty_like and Preserve]
// With Preserve (the default), a non-overlapping-and-dense source keeps its exact strides; any
// other strided source gets dense strides in the same dimension order (infer_dense_strides) —
// libtorch 1.13's rule, which keeps e.g. a sliced channels-last tensor channels-last even
// though suggest_memory_format() would say Contiguous. An explicit format restrides.
Tensor empty_like(const Tensor& self, c10::optional<c10::ScalarType> dtype,
                  c10::optional<Layout> layout, c10::optional<Device> device,
                  c10::optional<bool> pin_memory, c10::optional<MemoryFormat> memory_format) {
  // self's options with the given ones on top, passed on unpacked: every clone and
  // contiguous() comes through here, and packing into TensorOptions and out again costs more
  // than the rest of this function.
  if (!dtype.has_value()) dtype = self.scalar_type();
  if (!layout.has_value()) layout = self.layout();
  if (!device.has_value()) device = self.device();
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Preserve);
  if (format == MemoryFormat::Preserve) {
    if (self.is_non_overlapping_and_dense()) {
      return at::empty_strided(self.sizes(), self.strides(), dtype, layout, device, pin_memory);
    }
    return at::empty_strided(self.sizes(), infer_dense_strides(self.sizes(), self.strides()),
                             dtype, layout, device, pin_memory);
  }
  return at::empty(self.sizes(), dtype, layout, device, pin_memory, format);
}

Tensor zeros(IntArrayRef size, c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
             c10::optional<Device> device, c10::optional<bool> pin_memory) {
  Tensor result = at::empty(size, make_options(dtype, layout, device, pin_memory));
  return result.zero_();
}

Tensor ones(IntArrayRef size, c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
            c10::optional<Device> device, c10::optional<bool> pin_memory) {
  return native::full(size, /*fill_value=*/1., dtype, layout, device, pin_memory);
}

Tensor full(IntArrayRef size, const Scalar& fill_value, c10::optional<c10::ScalarType> dtype,
            c10::optional<Layout> layout, c10::optional<Device> device,
            c10::optional<bool> pin_memory) {
  const TensorOptions options = make_options(dtype, layout, device, pin_memory);
  Tensor result = at::empty(size, infer_full_options(fill_value, options));
  return result.fill_(fill_value);
}

Tensor zeros_like(const Tensor& self, c10::optional<c10::ScalarType> dtype,
                  c10::optional<Layout> layout, c10::optional<Device> device,
                  c10::optional<bool> pin_memory, c10::optional<MemoryFormat> memory_format) {
  Tensor result = at::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  return result.zero_();
}

Tensor ones_like(const Tensor& self, c10::optional<c10::ScalarType> dtype,
                 c10::optional<Layout> layout, c10::optional<Device> device,
                 c10::optional<bool> pin_memory, c10::optional<MemoryFormat> memory_format) {
  Tensor result = at::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  return result.fill_(1.);
}

Tensor full_like(const Tensor& self, const Scalar& fill_value, c10::optional<c10::ScalarType> dtype,
                 c10::optional<Layout> layout, c10::optional<Device> device,
                 c10::optional<bool> pin_memory, c10::optional<MemoryFormat> memory_format) {
  Tensor result = at::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  return result.fill_(fill_value);
}

Tensor scalar_tensor(const Scalar& s, c10::optional<c10::ScalarType> dtype,
                     c10::optional<Layout> layout, c10::optional<Device> device,
                     c10::optional<bool> pin_memory) {
  const TensorOptions options = make_options(dtype, layout, device, pin_memory);
  Tensor result = at::empty({}, options);
  // libtorch's CPU fast path fills through the kernel itself, not the operator: a CPU
  // scalar_tensor is at version 0, others at 1 (Note [Who bumps the version counter]).
  if (options.device().is_cpu()) return native::fill_(result, s);
  return result.fill_(s);
}

// ---- arange ---------------------------------------------------------------------------------

Tensor arange(const Scalar& end, c10::optional<c10::ScalarType> dtype,
              c10::optional<Layout> layout, c10::optional<Device> device,
              c10::optional<bool> pin_memory) {
  return native::arange(/*start=*/0, end, dtype, layout, device, pin_memory);
}

Tensor arange(const Scalar& start, const Scalar& end, c10::optional<c10::ScalarType> dtype,
              c10::optional<Layout> layout, c10::optional<Device> device,
              c10::optional<bool> pin_memory) {
  return native::arange(start, end, /*step=*/1, dtype, layout, device, pin_memory);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              c10::optional<c10::ScalarType> dtype, c10::optional<Layout> layout,
              c10::optional<Device> device, c10::optional<bool> pin_memory) {
  TensorOptions options = make_options(dtype, layout, device, pin_memory);
  // All-integer bounds give a Long tensor; anything else the default dtype.
  const bool integral = !options.has_dtype() && start.isIntegral(true) && end.isIntegral(true) &&
                        step.isIntegral(true);
  Tensor result = at::empty({0}, integral ? options.dtype(c10::ScalarType::Long) : options);
  return at::arange_out(result, start, end, step);
}

// Note [arange_out arithmetic]
// As libtorch's CPU kernel: bounds and step convert to the accumulation type first (int64 for
// integers, float for Half/BFloat16, double otherwise), so arange(0, 5, 0.5, kLong) has step
// 0. A Long range is sized with int64 division, every other with double division. Element i
// is start + step * i, rounded once (libtorch's kernel is built with FMA contraction).
Tensor& arange_out(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& result) {
  AT_DISPATCH_ALL_TYPES_AND2(c10::kHalf, c10::kBFloat16, result.scalar_type(), "arange_cpu", [&] {
    using acc_t = arange_acc_t<scalar_t>;
    const acc_t xstart = start.to<acc_t>();
    const acc_t xend = end.to<acc_t>();
    const acc_t xstep = step.to<acc_t>();
    TORCH_CHECK(xstep > 0 || xstep < 0, "step must be nonzero");
    TORCH_CHECK(std::isfinite(static_cast<double>(xstart)) &&
                    std::isfinite(static_cast<double>(xend)),
                "unsupported range: ", xstart, " -> ", xend);
    TORCH_CHECK(((xstep > 0) && (xend >= xstart)) || ((xstep < 0) && (xend <= xstart)),
                "upper bound and larger bound inconsistent with step sign");
    double size_d;
    if constexpr (std::is_same<scalar_t, int64_t>::value) {
      // In 128 bits: libtorch's int64 sum overflows for a range like [INT64_MIN, INT64_MAX)
      // (undefined behaviour, found by UBSan); the true size then fails the check below.
      const __int128 sgn = (xstep > 0) - (xstep < 0);
      size_d = static_cast<double>((static_cast<__int128>(xend) - xstart + xstep - sgn) / xstep);
    } else {
      size_d = std::ceil((end.to<double>() - start.to<double>()) / step.to<double>());
    }
    // Below 2^63, strictly: INT64_MAX as a double is 2^63, which no int64 holds. libtorch's `<=`
    // lets 2^63 through to a conversion with undefined behaviour (on x86 it gives INT64_MIN,
    // then "Trying to create tensor with negative dimension"; found by fuzz_boxed_call).
    TORCH_CHECK(size_d >= 0 && size_d < static_cast<double>(std::numeric_limits<int64_t>::max()),
                "invalid size, possible overflow?");
    const int64_t size = static_cast<int64_t>(size_d);
    if (result.numel() != size) {
      if (result.numel() > 0) {
        TORCH_WARN("The number of elements in the out tensor of shape ", result.sizes(), " is ",
                   result.numel(), " which does not match the computed number of elements ", size,
                   ". Note that this may occur as a result of rounding error. The out tensor will "
                   "be resized to a tensor of shape (",
                   size, ",).");
      }
      at::detail::resize_impl_(result.unsafeGetTensorImpl(), {size});
    }
    if (result.is_meta()) return;
    if (result.is_cuda()) {
      // The values are computed on the device into a contiguous tensor (an out of the right
      // size keeps its shape: element i goes to row-major position i, as below).
      Tensor r = result.is_contiguous() ? result : result.contiguous();
      arange_stub(c10::DeviceType::CUDA, r, start, step);
      if (!r.is_same(result)) result.copy_(r);
      return;
    }
    auto value = [&](int64_t i) {
      if constexpr (std::is_integral<acc_t>::value) {
        return static_cast<scalar_t>(xstart + xstep * i);
      } else {
        return static_cast<scalar_t>(std::fma(xstep, static_cast<acc_t>(i), xstart));
      }
    };
    scalar_t* data = result.data_ptr<scalar_t>();
    if (result.is_contiguous()) {
      for (int64_t i = 0; i < size; ++i) data[i] = value(i);
    } else {
      // An out of the right size keeps its shape: element i goes to row-major position i.
      const IntArrayRef sizes = result.sizes();
      const IntArrayRef strides = result.strides();
      for (int64_t i = 0; i < size; ++i) {
        int64_t offset = 0;
        int64_t rest = i;
        for (int64_t d = result.dim() - 1; d >= 0; --d) {
          offset += (rest % sizes[d]) * strides[d];
          rest /= sizes[d];
        }
        data[offset] = value(i);
      }
    }
  });
  return result;
}

}  // namespace native
}  // namespace at
