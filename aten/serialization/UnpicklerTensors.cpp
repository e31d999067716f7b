#include <limits>

#include "aten/ATen.h"
#include "aten/serialization/Unpickler.h"
#include "c10/core/StorageSize.h"
#include "c10/core/TensorOptions.h"
#include "dispatcher/Tuple.h"

// The Unpickler's storages and tensors: persistent ids, storages read from the archive, and
// _rebuild_tensor_v2 (see Note [The pickle subset we read]); the stack machine is Unpickler.cpp.

namespace torch::jit {

namespace {

bool is_known_dtype(int64_t v) {
#define MINIATEN_KNOWN_DTYPE(_, name) \
  if (v == static_cast<int64_t>(c10::ScalarType::name)) return true;
  C10_FORALL_SCALAR_TYPES(MINIATEN_KNOWN_DTYPE)
#undef MINIATEN_KNOWN_DTYPE
  return false;
}

std::vector<int64_t> int_tuple(const IValue& v, const char* what) {
  TORCH_CHECK(v.isTuple(), "Unpickler: a tensor's ", what, " must be a tuple of ints");
  std::vector<int64_t> out;
  for (const IValue& e : v.toTupleRef().elements()) {
    TORCH_CHECK(e.isInt(), "Unpickler: a tensor's ", what, " must be a tuple of ints");
    out.push_back(e.toInt());
  }
  return out;
}

}  // namespace

c10::Storage Unpickler::load_storage(const std::string& key, c10::ScalarType dtype, int64_t numel) {
  // A key names one storage: naming it again with another dtype or size would make a tensor
  // that pickle_save cannot write back (and libtorch reads as another storage).
  auto cached = storages_.find(key);
  if (cached != storages_.end()) {
    const c10::Storage& storage = cached->second.storage;
    TORCH_CHECK(cached->second.dtype == dtype && cached->second.numel == numel,
                "Unpickler: storage '", key, "' is named as ", cached->second.numel, " ",
                c10::toString(cached->second.dtype), " elements and as ", numel, " ",
                c10::toString(dtype), " elements");
    return storage;
  }
  TORCH_CHECK(numel >= 0, "Unpickler: storage '", key, "' has a negative size ", numel);
  const size_t itemsize = c10::elementSize(dtype);
  uint64_t nbytes = 0;
  TORCH_CHECK(!__builtin_mul_overflow(static_cast<uint64_t>(numel), itemsize, &nbytes) &&
                  nbytes <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
              "Unpickler: storage '", key, "' of ", numel, " elements is too large");
  at::DataPtr data;
  if (nbytes > 0) {
    TORCH_CHECK(read_record_, "Unpickler: the program names storage '", key,
                "' but there is no archive to read it from");
    auto record = read_record_(key);
    TORCH_CHECK(record.second >= nbytes, "Unpickler: storage '", key, "' holds ", numel, " ",
                c10::toString(dtype), " elements (", nbytes, " bytes) but its record has ",
                record.second, " bytes");
    data = std::move(record.first);
  }
  c10::Storage storage(c10::make_intrusive<c10::StorageImpl>(
      c10::StorageImpl::use_byte_size_t(), static_cast<size_t>(nbytes), std::move(data),
      /*allocator=*/nullptr, /*resizable=*/false));
  storages_.emplace(key, LoadedStorage{storage, dtype, numel});
  return storage;
}

void Unpickler::persistent_load() {
  IValue id = pop_value();
  TORCH_CHECK(id.isTuple(), "Unpickler: a persistent id must be a tuple");
  const auto& args = id.toTupleRef().elements();
  TORCH_CHECK(args.size() == 5 && args[0].isString() && args[1].isInt() && args[2].isString() &&
                  args[3].isString() && args[4].isInt(),
              "Unpickler: a persistent id must be ('storage', dtype, key, location, numel)");
  TORCH_CHECK(args[0].toStringRef() == "storage", "unknown PERSID key ", args[0].toStringRef());
  TORCH_CHECK(is_known_dtype(args[1].toInt()), "Unpickler: unknown storage dtype ",
              args[1].toInt());
  const auto dtype = static_cast<c10::ScalarType>(args[1].toInt());
  const c10::Device device(args[3].toStringRef());
  TORCH_CHECK(device.is_cpu() || device.is_cuda(),
              "supported devices include CPU and CUDA, however got ", device);
  const std::string& key = args[2].toStringRef();
  c10::Storage storage = load_storage(key, dtype, args[4].toInt());
  // Moved to the device by an earlier tensor on the same storage, which this one shares.
  const c10::DeviceType storage_device = storage.device().type();
  // The storage as a 1-d tensor over all of it; _rebuild_tensor_v2 views it.
  auto impl = c10::make_intrusive<c10::TensorImpl>(
      std::move(storage), c10::keysetForBackend(c10::backendDispatchKey(storage_device)),
      caffe2::TypeMeta::fromScalarType(dtype));
  impl->set_sizes_contiguous({args[4].toInt()});
  at::Tensor tensor(std::move(impl));
  if (device.is_cuda() && storage_device == c10::DeviceType::CPU) {
    tensor = tensor.to(device);
    storages_.at(key).storage = tensor.storage();
  }
  stack_.push_back({IValue(std::move(tensor))});
}

IValue Unpickler::rebuild_tensor(const c10::ivalue::Tuple& args) {
  const auto& e = args.elements();
  TORCH_CHECK((e.size() == 6 || e.size() == 7) && e[0].isTensor() && e[1].isInt() && e[4].isBool(),
              "Unpickler: _rebuild_tensor_v2 needs (storage, storage_offset, size, stride, "
              "requires_grad, backward_hooks)");
  const at::Tensor& storage_tensor = e[0].toTensor();
  const int64_t offset = e[1].toInt();
  const std::vector<int64_t> sizes = int_tuple(e[2], "size");
  const std::vector<int64_t> strides = int_tuple(e[3], "stride");
  TORCH_CHECK(sizes.size() == strides.size(), "Unpickler: a tensor has ", sizes.size(),
              " sizes but ", strides.size(), " strides");
  TORCH_CHECK(offset >= 0, "Tensor: invalid storage offset ", offset);
  for (size_t d = 0; d < sizes.size(); ++d) {
    TORCH_CHECK(sizes[d] >= 0 && strides[d] >= 0, "Unpickler: a tensor has size ", sizes[d],
                " and stride ", strides[d], " in dimension ", d);
  }
  if (e.size() == 7) {
    TORCH_CHECK(e[6].isGenericDict(), "Unpickler: a tensor's metadata must be a dict");
    for (const auto& entry : e[6].toGenericDict()) {
      TORCH_CHECK(entry.value().isBool() && !entry.value().toBool(),
                  "Unpickler: tensor metadata (conjugate or negative bits) is not supported");
    }
  }
  c10::Storage storage = storage_tensor.storage();
  c10::checkInBoundsForStorage(sizes, strides, offset, storage_tensor.element_size(), storage);
  auto impl = c10::make_intrusive<c10::TensorImpl>(
      std::move(storage),
      c10::keysetForBackend(c10::backendDispatchKey(storage_tensor.device().type())),
      storage_tensor.dtype());
  impl->set_sizes_and_strides(sizes, strides);
  impl->set_storage_offset(offset);
  at::Tensor tensor(std::move(impl));
  if (e[4].toBool()) tensor.set_requires_grad(true);
  return IValue(std::move(tensor));
}

}  // namespace torch::jit
