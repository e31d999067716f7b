#pragma once
// torch::jit::Pickler: an IValue as the pickle program (protocol 2) libtorch 1.13's Pickler
// writes for torch::jit::pickle_save. Tensors become calls of torch._utils._rebuild_tensor_v2
// over persistent-id storages; the storages' bytes are not in the program but collected in
// tensorData(), one tensor per storage, for the archive to write as data/<index>.
//
//   std::vector<char> program;
//   torch::jit::Pickler pickler(
//       [&](const char* p, size_t n) { program.insert(program.end(), p, p + n); });
//   pickler.protocol();
//   pickler.pushIValue(value);
//   pickler.stop();
//   pickler.tensorData();  // what data/0, data/1, ... hold
//
// Note [What our Pickler writes]
// Byte for byte what libtorch's does for the same value (checked against files libtorch wrote):
//  - ints: BININT1 for 0..255, BININT2 for 256..65535, BININT for the rest of int32, else LONG1
//    with 8 bytes; doubles: BINFLOAT (big endian); bools NEWTRUE/NEWFALSE; None NONE;
//  - strings BINUNICODE, memoized by value; globals memoized by name; a container, tensor or
//    tuple held more than once is memoized by identity (BINPUT after it, BINGET for the rest);
//  - tuples: EMPTY_TUPLE, TUPLE1..3 or MARK ... TUPLE;
//  - int, float, bool and Tensor lists: torch.jit._pickle.build_intlist (build_doublelist, ...)
//    applied to (list,); other lists and every dict are wrapped in
//    torch.jit._pickle.restore_type_tag(container, "List[str]" / "Dict[str, Tensor]");
//  - a tensor: _rebuild_tensor_v2((storage persistent id), storage_offset, sizes, strides,
//    requires_grad, collections.OrderedDict()), the persistent id being the tuple ('storage',
//    torch.<Dtype>Storage, '<key>', '<device>', storage numel). Each storage is written once,
//    whole, whatever part of it the tensors view, and its key is its index in tensorData().
//  - complex numbers: builtins.complex(real, imag); devices: torch.device('cuda:0').
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "aten/serialization/PickleOpCode.h"
#include "dispatcher/IValue.h"

namespace torch::jit {

using c10::IValue;

class TORCH_API Pickler {
 public:
  explicit Pickler(std::function<void(const char*, size_t)> writer) : writer_(std::move(writer)) {}
  ~Pickler();

  void protocol();  // PROTO 2: the program's first opcode
  void pushIValue(const IValue& ivalue);
  void stop();  // STOP: the last; flushes the writer
  // One tensor per storage written, in the order of their keys ("0", "1", ...).
  const std::vector<at::Tensor>& tensorData() const { return tensor_data_; }

 private:
  // `borrowed`: references the caller holds only to push it (see pushIValue).
  void push_ivalue(const IValue& ivalue, size_t borrowed);
  void push_ivalue_impl(const IValue& ivalue);
  void push_opcode(char op) { buffer_.push_back(op); }
  void push_bytes(const void* data, size_t size);
  template <typename T>
  void push_le(T value);
  void push_int(int64_t n);
  void push_double(double d);
  void push_string(const std::string& s);
  void push_global(const std::string& module, const std::string& name);
  void push_tuple(const IValue& ivalue);
  void push_dict(const IValue& ivalue);
  void push_generic_list(const IValue& ivalue);
  void push_typed_list(const IValue& ivalue);
  void push_tensor(const at::Tensor& tensor);
  void push_storage(const at::Tensor& tensor);
  void push_type_tag(const IValue& ivalue);
  // BINGET/BINPUT with a one-byte id where it fits, else the LONG_ form's four bytes.
  void push_memo_opcode(PickleOpCode one_byte, PickleOpCode four_bytes, uint32_t memo_id);
  void push_binget(uint32_t memo_id);
  uint32_t push_next_binput();
  void flush();

  std::function<void(const char*, size_t)> writer_;
  std::vector<char> buffer_;
  uint32_t memo_id_ = 0;
  std::unordered_map<const void*, uint32_t> memoized_ivalues_;
  std::vector<IValue> memoized_keep_alive_;  // so that no memoized address is reused
  std::unordered_map<std::string, uint32_t> memoized_strings_;
  std::unordered_map<std::string, uint32_t> memoized_globals_;
  // Each storage's memo id and the dtype it was written with.
  std::unordered_map<const void*, std::pair<uint32_t, c10::ScalarType>> memoized_storages_;
  std::vector<at::Tensor> tensor_data_;
};

}  // namespace torch::jit
