#include "aten/DLConvertor.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aten/TensorMaker.h"
#include "aten/detail/CUDAHooksInterface.h"
#include "c10/core/StorageSize.h"
#include "c10/util/Exception.h"
#include "c10/util/accumulate.h"

namespace at {

namespace {

// What a DLManagedTensor made by toDLPack owns: a tensor sharing the source's storage (so the
// memory lives until the consumer's deleter call), and the sizes and strides it points at.
struct ATenDLMTensor {
  Tensor handle;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  DLManagedTensor tensor{};
};

void delete_aten_dlm_tensor(DLManagedTensor* self) {
  delete static_cast<ATenDLMTensor*>(self->manager_ctx);
}

// Calls a DLManagedTensor's deleter at most once: when the owner is destroyed, or never if
// the deleter is null.
struct DLManagedOwner {
  explicit DLManagedOwner(const DLManagedTensor* src) : src_(const_cast<DLManagedTensor*>(src)) {}
  DLManagedOwner(const DLManagedOwner&) = delete;
  DLManagedOwner& operator=(const DLManagedOwner&) = delete;
  ~DLManagedOwner() {
    if (src_->deleter != nullptr) src_->deleter(src_);
  }
  DLManagedTensor* src_;
};

Device getATenDevice(const DLDevice& ctx) {
  // A producer may name a device type this DLPack version lacks: read it as the integer it is,
  // since loading an out-of-range value as the enum is undefined behaviour.
  static_assert(sizeof(ctx.device_type) == sizeof(int));
  int device_type;
  std::memcpy(&device_type, &ctx.device_type, sizeof(int));
  switch (device_type) {
    case kDLCPU:
      return Device(DeviceType::CPU);
    case kDLCUDA:
      // A device tensor where none can be used fails here, with the reason, not at first use.
      detail::getCUDAHooks().initCUDA();
      return Device(DeviceType::CUDA, static_cast<c10::DeviceIndex>(ctx.device_id));
    default:
      TORCH_CHECK(false, "Unsupported device_type: ", device_type);
  }
}

// See Note [fromDLPack keeps what it is given]: a tensor of ours comes back on its own storage.
Tensor tensor_on_own_storage(const ATenDLMTensor& ours, const DLTensor& dl, ScalarType stype,
                             IntArrayRef sizes, IntArrayRef strides) {
  const c10::Storage& storage = ours.handle.storage();
  const auto itemsize = static_cast<int64_t>(c10::elementSize(stype));
  const auto first = reinterpret_cast<uintptr_t>(dl.data) + dl.byte_offset;
  const auto base = reinterpret_cast<uintptr_t>(storage.data());
  TORCH_CHECK(first >= base && (first - base) % itemsize == 0,
              "fromDLPack: the first element is not an element of the tensor's storage");
  const auto offset_bytes = static_cast<int64_t>(first - base);
  const int64_t offset = offset_bytes / itemsize;
  c10::checkInBoundsForStorage(sizes, strides, offset, itemsize, storage);
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(storage), ours.handle.key_set(),
                                                   c10::scalarTypeToTypeMeta(stype));
  impl->set_sizes_and_strides(sizes, strides);
  impl->set_storage_offset(offset);
  return Tensor(std::move(impl));
}

}  // namespace

DLDataType getDLDataType(const Tensor& t) {
  DLDataType dtype;
  dtype.lanes = 1;
  dtype.bits = static_cast<uint8_t>(t.element_size() * 8);
  switch (t.scalar_type()) {
    case ScalarType::Byte:
      dtype.code = kDLUInt;
      break;
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
      dtype.code = kDLInt;
      break;
    case ScalarType::Half:
    case ScalarType::Float:
    case ScalarType::Double:
      dtype.code = kDLFloat;
      break;
    case ScalarType::BFloat16:
      dtype.code = kDLBfloat;
      break;
    case ScalarType::ComplexFloat:
    case ScalarType::ComplexDouble:
      dtype.code = kDLComplex;
      break;
    case ScalarType::Bool:
      TORCH_CHECK(false, "Bool type is not supported by dlpack");
    default:
      TORCH_CHECK(false, t.scalar_type(), " is not supported by dlpack");
  }
  return dtype;
}

DLDevice getDLContext(const Tensor& tensor, const int64_t& device_id) {
  DLDevice ctx;
  ctx.device_id = static_cast<int32_t>(device_id);
  switch (tensor.device().type()) {
    case DeviceType::CPU:
      ctx.device_type = kDLCPU;
      break;
    case DeviceType::CUDA:
      ctx.device_type = kDLCUDA;
      break;
    default:
      TORCH_CHECK(false, "Cannot pack tensors on " + tensor.device().str());
  }
  return ctx;
}

ScalarType toScalarType(const DLDataType& dtype) {
  TORCH_CHECK(dtype.lanes == 1, "ATen does not support lanes != 1");
  const int bits = dtype.bits;
  switch (dtype.code) {
    case kDLUInt:
      TORCH_CHECK(bits == 8, "Unsupported kUInt bits ", bits);
      return ScalarType::Byte;
    case kDLInt:
      switch (bits) {
        case 8:
          return ScalarType::Char;
        case 16:
          return ScalarType::Short;
        case 32:
          return ScalarType::Int;
        case 64:
          return ScalarType::Long;
      }
      TORCH_CHECK(false, "Unsupported kInt bits ", bits);
    case kDLFloat:
      switch (bits) {
        case 16:
          return ScalarType::Half;
        case 32:
          return ScalarType::Float;
        case 64:
          return ScalarType::Double;
      }
      TORCH_CHECK(false, "Unsupported kFloat bits ", bits);
    case kDLBfloat:
      // libtorch's text names kFloat here too.
      TORCH_CHECK(bits == 16, "Unsupported kFloat bits ", bits);
      return ScalarType::BFloat16;
    case kDLComplex:
      switch (bits) {
        case 32:
          // libtorch's ComplexHalf; see Note [Why ComplexHalf is a gap] (c10/core/ScalarType.h).
          TORCH_CHECK(false, "Unsupported kComplex bits 32: miniaten has no ComplexHalf");
        case 64:
          return ScalarType::ComplexFloat;
        case 128:
          return ScalarType::ComplexDouble;
      }
      TORCH_CHECK(false, "Unsupported kFloat bits ", bits);
    default:
      TORCH_CHECK(false, "Unsupported code ", static_cast<int>(dtype.code));
  }
}

DLManagedTensor* toDLPack(const Tensor& src) {
  // Checked before anything is allocated.
  const DLDataType dtype = getDLDataType(src);
  const DLDevice device = getDLContext(src, src.is_cuda() ? src.device().index() : 0);

  auto owner = std::make_unique<ATenDLMTensor>();
  owner->handle = src;
  owner->sizes = src.sizes().vec();
  owner->strides = src.strides().vec();
  // See Note [What DLPack carries].
  for (size_t i = 0; i < owner->sizes.size(); ++i) {
    if (owner->sizes[i] < 2) owner->strides[i] = 1;
  }
  DLManagedTensor& m = owner->tensor;
  m.manager_ctx = owner.get();
  m.deleter = &delete_aten_dlm_tensor;
  m.dl_tensor.data = src.data_ptr();
  m.dl_tensor.device = device;
  m.dl_tensor.ndim = static_cast<int32_t>(src.dim());
  m.dl_tensor.dtype = dtype;
  m.dl_tensor.shape = owner->sizes.data();
  m.dl_tensor.strides = owner->strides.data();
  m.dl_tensor.byte_offset = 0;
  return &owner.release()->tensor;
}

Tensor fromDLPack(const DLManagedTensor* src) {
  TORCH_CHECK(src != nullptr, "fromDLPack: expected a DLManagedTensor, got a null pointer");
  // Owns src from here: a refused tensor is released too.
  auto owner = std::make_shared<DLManagedOwner>(src);
  const DLTensor& dl = src->dl_tensor;
  const Device device = getATenDevice(dl.device);
  const ScalarType stype = toScalarType(dl.dtype);
  TORCH_CHECK(dl.ndim >= 0, "fromDLPack: ndim must be non-negative, got ", dl.ndim);
  TORCH_CHECK(dl.ndim == 0 || dl.shape != nullptr, "fromDLPack: a tensor of ", dl.ndim,
              " dims has no shape");
  IntArrayRef sizes(dl.shape, static_cast<size_t>(dl.ndim));
  const int64_t numel = c10::multiply_integers(sizes);
  TORCH_CHECK(dl.data != nullptr || numel == 0, "fromDLPack: a tensor of ", numel,
              " elements has no data");
  // Null strides: compact row-major, as DLPack defines it and as from_blob makes them.
  OptionalIntArrayRef strides;
  if (dl.strides != nullptr) strides = IntArrayRef(dl.strides, static_cast<size_t>(dl.ndim));

  // toDLPack always writes strides.
  if (src->deleter == &delete_aten_dlm_tensor && strides.has_value()) {
    const auto& ours = *static_cast<const ATenDLMTensor*>(src->manager_ctx);
    return tensor_on_own_storage(ours, dl, stype, sizes, *strides);  // owner releases src
  }
  void* first = static_cast<char*>(dl.data) + dl.byte_offset;
  return at::for_blob(first, sizes)
      .strides(strides)
      .deleter([owner](void*) mutable { owner.reset(); })
      .options(TensorOptions().device(device).dtype(stype))
      .target_device(device)
      .make_tensor();
}

}  // namespace at
