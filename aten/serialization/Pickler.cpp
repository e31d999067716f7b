#include "aten/serialization/Pickler.h"

#include <cstring>
#include <limits>

#include "aten/ATen.h"
#include "aten/serialization/PickleOpCode.h"
#include "aten/serialization/TypeAnnotation.h"
#include "dispatcher/Dict.h"
#include "dispatcher/List.h"
#include "dispatcher/Tuple.h"

namespace torch::jit {

namespace {
// Flushed to the writer in pieces of about this size, so a program's bytes are copied once.
constexpr size_t kFlushBytes = 1 << 16;

static_assert(sizeof(double) == 8, "BINFLOAT is 8 bytes");
}  // namespace

Pickler::~Pickler() = default;

void Pickler::push_bytes(const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  buffer_.insert(buffer_.end(), p, p + size);
  if (buffer_.size() >= kFlushBytes) flush();
}

template <typename T>
void Pickler::push_le(T value) {
  // miniaten runs on little-endian hosts only (as its storages' bytes are written as they are).
  push_bytes(&value, sizeof value);
}

void Pickler::flush() {
  if (!buffer_.empty()) writer_(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void Pickler::protocol() {
  push_opcode(static_cast<char>(PickleOpCode::PROTO));
  push_le<uint8_t>(2);
}

void Pickler::stop() {
  push_opcode(static_cast<char>(PickleOpCode::STOP));
  flush();
}

void Pickler::push_memo_opcode(PickleOpCode one_byte, PickleOpCode four_bytes, uint32_t memo_id) {
  if (memo_id <= std::numeric_limits<uint8_t>::max()) {
    push_opcode(static_cast<char>(one_byte));
    push_le<uint8_t>(static_cast<uint8_t>(memo_id));
  } else {
    push_opcode(static_cast<char>(four_bytes));
    push_le<uint32_t>(memo_id);
  }
}

void Pickler::push_binget(uint32_t memo_id) {
  push_memo_opcode(PickleOpCode::BINGET, PickleOpCode::LONG_BINGET, memo_id);
}

uint32_t Pickler::push_next_binput() {
  push_memo_opcode(PickleOpCode::BINPUT, PickleOpCode::LONG_BINPUT, memo_id_);
  return memo_id_++;
}

void Pickler::push_int(int64_t n) {
  if (n >= 0 && n <= std::numeric_limits<uint8_t>::max()) {
    push_opcode(static_cast<char>(PickleOpCode::BININT1));
    push_le<uint8_t>(static_cast<uint8_t>(n));
  } else if (n >= 0 && n <= std::numeric_limits<uint16_t>::max()) {
    push_opcode(static_cast<char>(PickleOpCode::BININT2));
    push_le<uint16_t>(static_cast<uint16_t>(n));
  } else if (n >= std::numeric_limits<int32_t>::min() && n <= std::numeric_limits<int32_t>::max()) {
    push_opcode(static_cast<char>(PickleOpCode::BININT));
    push_le<int32_t>(static_cast<int32_t>(n));
  } else {
    push_opcode(static_cast<char>(PickleOpCode::LONG1));
    push_le<uint8_t>(8);
    push_le<int64_t>(n);
  }
}

void Pickler::push_double(double d) {
  push_opcode(static_cast<char>(PickleOpCode::BINFLOAT));
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  push_le<uint64_t>(__builtin_bswap64(bits));  // BINFLOAT is big endian
}

void Pickler::push_string(const std::string& s) {
  auto it = memoized_strings_.find(s);
  if (it != memoized_strings_.end()) {
    push_binget(it->second);
    return;
  }
  TORCH_CHECK(s.size() <= std::numeric_limits<uint32_t>::max(),
              "pickle_save: strings of 4 GB or more are not supported");
  push_opcode(static_cast<char>(PickleOpCode::BINUNICODE));
  push_le<uint32_t>(static_cast<uint32_t>(s.size()));
  push_bytes(s.data(), s.size());
  memoized_strings_.emplace(s, push_next_binput());
}

void Pickler::push_global(const std::string& module, const std::string& name) {
  const std::string key = module + "\n" + name + "\n";
  auto it = memoized_globals_.find(key);
  if (it != memoized_globals_.end()) {
    push_binget(it->second);
    return;
  }
  push_opcode(static_cast<char>(PickleOpCode::GLOBAL));
  push_bytes(key.data(), key.size());
  memoized_globals_.emplace(key, push_next_binput());
}

void Pickler::pushIValue(const IValue& ivalue) {
  push_ivalue(ivalue, 0);
}

void Pickler::push_ivalue(const IValue& ivalue, size_t borrowed) {
  // As libtorch: mutable objects held more than once are memoized by identity; strings are
  // memoized by value in push_string. A dict hands out copies of its entries, which do not
  // count as holders.
  const bool memoize =
      ivalue.isPtrType() && !ivalue.isString() && ivalue.use_count() > 1 + borrowed;
  if (!memoize) {
    push_ivalue_impl(ivalue);
    return;
  }
  const void* ptr = ivalue.internalToPointer();
  auto it = memoized_ivalues_.find(ptr);
  if (it != memoized_ivalues_.end()) {
    push_binget(it->second);
    return;
  }
  push_ivalue_impl(ivalue);
  memoized_keep_alive_.push_back(ivalue);
  memoized_ivalues_.emplace(ptr, push_next_binput());
}

void Pickler::push_ivalue_impl(const IValue& ivalue) {
  if (ivalue.isTensor()) {
    push_tensor(ivalue.toTensor());
  } else if (ivalue.isTuple()) {
    push_tuple(ivalue);
  } else if (ivalue.isDouble()) {
    push_double(ivalue.toDouble());
  } else if (ivalue.isComplexDouble()) {
    const c10::complex<double> c = ivalue.toComplexDouble();
    push_global("builtins", "complex");
    push_double(c.real());
    push_double(c.imag());
    push_opcode(static_cast<char>(PickleOpCode::TUPLE2));
    push_opcode(static_cast<char>(PickleOpCode::REDUCE));
  } else if (ivalue.isInt()) {
    push_int(ivalue.toInt());
  } else if (ivalue.isBool()) {
    push_opcode(
        static_cast<char>(ivalue.toBool() ? PickleOpCode::NEWTRUE : PickleOpCode::NEWFALSE));
  } else if (ivalue.isString()) {
    push_string(ivalue.toStringRef());
  } else if (ivalue.isNone()) {
    push_opcode(static_cast<char>(PickleOpCode::NONE));
  } else if (ivalue.isGenericDict()) {
    push_dict(ivalue);
  } else if (ivalue.isIntList() || ivalue.isDoubleList() || ivalue.isBoolList() ||
             ivalue.isTensorList()) {
    push_typed_list(ivalue);
  } else if (ivalue.isList()) {
    push_generic_list(ivalue);
  } else if (ivalue.isDevice()) {
    push_global("torch", "device");
    push_string(ivalue.toDevice().str());
    push_opcode(static_cast<char>(PickleOpCode::TUPLE1));
    push_opcode(static_cast<char>(PickleOpCode::REDUCE));
  } else {
    TORCH_CHECK(false, "Unknown IValue type for pickling: ", ivalue.tagKind());
  }
}

void Pickler::push_tuple(const IValue& ivalue) {
  const auto& elements = ivalue.toTupleRef().elements();
  if (elements.size() == 0) {
    push_opcode(static_cast<char>(PickleOpCode::EMPTY_TUPLE));
    return;
  }
  if (elements.size() > 3) push_opcode(static_cast<char>(PickleOpCode::MARK));
  for (const IValue& e : elements) pushIValue(e);
  static const PickleOpCode kTupleOf[] = {PickleOpCode::EMPTY_TUPLE, PickleOpCode::TUPLE1,
                                          PickleOpCode::TUPLE2, PickleOpCode::TUPLE3};
  push_opcode(
      static_cast<char>(elements.size() > 3 ? PickleOpCode::TUPLE : kTupleOf[elements.size()]));
}

void Pickler::push_type_tag(const IValue& ivalue) {
  push_string(type_annotation(*ivalue.type()));
  push_opcode(static_cast<char>(PickleOpCode::TUPLE2));
  push_opcode(static_cast<char>(PickleOpCode::REDUCE));
}

void Pickler::push_dict(const IValue& ivalue) {
  push_global("torch.jit._pickle", "restore_type_tag");
  push_opcode(static_cast<char>(PickleOpCode::EMPTY_DICT));
  push_opcode(static_cast<char>(PickleOpCode::MARK));
  for (const auto& entry : ivalue.toGenericDict()) {
    const IValue key = entry.key();
    const IValue value = entry.value();
    push_ivalue(key, 1);
    push_ivalue(value, 1);
  }
  push_opcode(static_cast<char>(PickleOpCode::SETITEMS));
  push_type_tag(ivalue);
}

void Pickler::push_generic_list(const IValue& ivalue) {
  push_global("torch.jit._pickle", "restore_type_tag");
  push_opcode(static_cast<char>(PickleOpCode::EMPTY_LIST));
  push_opcode(static_cast<char>(PickleOpCode::MARK));
  if (ivalue.isComplexDoubleList()) {
    for (const auto& c : ivalue.toComplexDoubleVector()) pushIValue(c);
  } else if (ivalue.isOptionalTensorList()) {
    for (const auto& t : ivalue.toOptionalTensorList()) pushIValue(t);
  } else {
    for (const IValue& e : ivalue.toListRef()) pushIValue(e);
  }
  push_opcode(static_cast<char>(PickleOpCode::APPENDS));
  push_type_tag(ivalue);
}

void Pickler::push_typed_list(const IValue& ivalue) {
  const char* name = ivalue.isIntList()      ? "build_intlist"
                     : ivalue.isDoubleList() ? "build_doublelist"
                     : ivalue.isBoolList()   ? "build_boollist"
                                             : "build_tensorlist";
  push_global("torch.jit._pickle", name);
  push_opcode(static_cast<char>(PickleOpCode::MARK));
  push_opcode(static_cast<char>(PickleOpCode::EMPTY_LIST));
  push_opcode(static_cast<char>(PickleOpCode::MARK));
  if (ivalue.isIntList()) {
    for (int64_t v : ivalue.toIntListRef()) push_int(v);
  } else if (ivalue.isDoubleList()) {
    for (double v : ivalue.toDoubleListRef()) push_double(v);
  } else if (ivalue.isBoolList()) {
    for (bool v : ivalue.toBoolListRef()) {
      push_opcode(static_cast<char>(v ? PickleOpCode::NEWTRUE : PickleOpCode::NEWFALSE));
    }
  } else {
    for (const at::Tensor& t : ivalue.toTensorListRef()) pushIValue(t);
  }
  push_opcode(static_cast<char>(PickleOpCode::APPENDS));
  push_opcode(static_cast<char>(PickleOpCode::TUPLE));
  push_opcode(static_cast<char>(PickleOpCode::REDUCE));
}

void Pickler::push_tensor(const at::Tensor& tensor) {
  TORCH_CHECK(tensor.defined(), "pickle_save: cannot pickle an undefined tensor");
  TORCH_CHECK(tensor.layout() == at::kStrided, "pickle_save: only strided tensors can be pickled");
  push_global("torch._utils", "_rebuild_tensor_v2");
  push_opcode(static_cast<char>(PickleOpCode::MARK));
  push_storage(tensor);
  push_int(tensor.storage_offset());
  push_opcode(static_cast<char>(PickleOpCode::MARK));
  for (int64_t size : tensor.sizes()) push_int(size);
  push_opcode(static_cast<char>(PickleOpCode::TUPLE));
  push_opcode(static_cast<char>(PickleOpCode::MARK));
  for (int64_t stride : tensor.strides()) push_int(stride);
  push_opcode(static_cast<char>(PickleOpCode::TUPLE));
  push_opcode(
      static_cast<char>(tensor.requires_grad() ? PickleOpCode::NEWTRUE : PickleOpCode::NEWFALSE));
  // backward_hooks: an empty OrderedDict, never read back.
  push_global("collections", "OrderedDict");
  push_opcode(static_cast<char>(PickleOpCode::EMPTY_TUPLE));
  push_opcode(static_cast<char>(PickleOpCode::REDUCE));
  push_opcode(static_cast<char>(PickleOpCode::TUPLE));
  push_opcode(static_cast<char>(PickleOpCode::REDUCE));
}

void Pickler::push_storage(const at::Tensor& tensor) {
  const void* key = tensor.storage().unsafeGetStorageImpl();
  auto it = memoized_storages_.find(key);
  if (it != memoized_storages_.end()) {
    // The format gives a storage one dtype, which every tensor over it is read back with.
    TORCH_CHECK(it->second.second == tensor.scalar_type(), "pickle_save: tensors of dtypes ",
                c10::toString(it->second.second), " and ", c10::toString(tensor.scalar_type()),
                " share a storage, which PyTorch's format cannot express");
    push_binget(it->second.first);
    return;
  }
  const size_t numel = tensor.storage().nbytes() / tensor.element_size();
  push_opcode(static_cast<char>(PickleOpCode::MARK));
  push_string("storage");
  push_global("torch", std::string(c10::toString(tensor.scalar_type())) + "Storage");
  push_string(std::to_string(tensor_data_.size()));
  push_string(tensor.device().str());
  push_int(static_cast<int64_t>(numel));
  push_opcode(static_cast<char>(PickleOpCode::TUPLE));
  push_opcode(static_cast<char>(PickleOpCode::BINPERSID));
  const uint32_t memo_id = push_next_binput();
  memoized_storages_.emplace(key, std::make_pair(memo_id, tensor.scalar_type()));
  // The whole storage, as a 1-d tensor over it (a CUDA one is copied to the host).
  at::Tensor whole = at::as_strided(tensor, {static_cast<int64_t>(numel)}, {1}, 0);
  tensor_data_.push_back(whole.is_cpu() ? whole : whole.cpu());
}

}  // namespace torch::jit
