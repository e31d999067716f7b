#pragma once
// torch::jit::Unpickler: reads back the pickle programs libtorch 1.13's pickle_save writes (and
// our Pickler, which writes the same; see Note [What our Pickler writes]). It is a stack machine
// over a small, closed subset of pickle: nothing outside it is ever run or built.
//
//   torch::jit::Unpickler unpickler(program_bytes, [&](const std::string& key) {
//     return archive.get_record("data/" + key);   // a storage's bytes and their size
//   });
//   c10::IValue value = unpickler.parse_ivalue();
//
// Note [The pickle subset we read]
// Opcodes (protocol 2): PROTO, STOP, MARK, NONE, NEWTRUE, NEWFALSE, BININT, BININT1, BININT2,
// LONG1 (up to 8 bytes), BINFLOAT, BINUNICODE, EMPTY_TUPLE, TUPLE, TUPLE1, TUPLE2, TUPLE3,
// EMPTY_LIST, LIST, APPEND, APPENDS, EMPTY_DICT, DICT, SETITEM, SETITEMS, BINPUT, LONG_BINPUT,
// BINGET, LONG_BINGET, GLOBAL, REDUCE, BINPERSID, BUILD (see Note [Python's state_dict]).
// Globals, each only as REDUCE's callable (or, for storages, a persistent id's dtype):
//   torch._utils._rebuild_tensor_v2   (storage, offset, sizes, strides, requires_grad, hooks[,
//                                      metadata]) -> a tensor viewing the storage
//   collections.OrderedDict           () -> an empty dict (a tensor's hooks, or a state_dict)
//   torch.jit._pickle.restore_type_tag (container, "annotation") -> the typed dict or list
//   torch.jit._pickle.build_intlist, build_doublelist, build_boollist, build_tensorlist
//   builtins.complex                  (real, imag);  torch.device ("cuda:0")
//   torch.<Dtype>Storage              for each dtype miniaten has (FloatStorage, ...)
// A persistent id is ('storage', torch.<Dtype>Storage, key, location, numel): the storage
// data/<key> of the archive, numel elements; one storage per key, shared by every tensor
// naming it (a key named again with another dtype or numel is an error). Anything else --
// another opcode or global, a wrong argument, a truncated program, a stack underflow, a memo
// miss, a storage smaller than its tensors need -- raises c10::Error.
//
// Note [Python's state_dict]
// Python's torch.save(module.state_dict()) pickles an OrderedDict: OrderedDict() by REDUCE,
// its items by SETITEMS, then BUILD with {'_metadata': ...}, the modules' versions, which no
// tensor needs. miniaten reads the dict and drops that state: BUILD is accepted only on a dict,
// with a dict (or None) for state. libtorch 1.13's pickle_load fails on such a file (it reads
// OrderedDict() as None, then asserts in SETITEMS); reading the weights a PyTorch user saved is
// the point of the format, so miniaten goes that far beyond it, and no further (no classes, no
// objects).
//
// Note [Containers are complete before they are placed]
// A list or dict may grow (APPEND, SETITEMS) only until it is placed in another container, and
// never holds itself: so no value read has a cycle (which would leak, and which pickle_save,
// printing or comparing would recurse on forever), and each container's nesting depth is known
// when it is placed. Nesting deeper than kMaxNesting is refused, since freeing, hashing and
// saving a nest recurse once per level. libtorch's and Python's pickles build each container
// completely before using it, so this refuses nothing they write.
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "dispatcher/IValue.h"

namespace torch::jit {

using c10::IValue;

class TORCH_API Unpickler {
 public:
  // A storage's record: its bytes (owned by the DataPtr) and their size.
  using RecordReader = std::function<std::pair<at::DataPtr, size_t>(const std::string& key)>;

  // `program` must outlive parse_ivalue(). Without a record reader a tensor is an error.
  Unpickler(absl::Span<const char> program, RecordReader read_record)
      : program_(program), read_record_(std::move(read_record)) {}
  ~Unpickler();

  IValue parse_ivalue();

 private:
  // The callables a GLOBAL can name (see the Note); kValue marks an ordinary value.
  enum class Global : uint8_t {
    kValue,
    kRebuildTensor,
    kOrderedDict,
    kRestoreTypeTag,
    kBuildIntList,
    kBuildDoubleList,
    kBuildBoolList,
    kBuildTensorList,
    kComplex,
    kDevice,
  };
  struct Item {
    IValue value;
    Global global = Global::kValue;
  };

  bool run_opcode();  // false after STOP
  template <typename T>
  T read();
  const char* read_bytes(size_t n);
  std::string read_line();
  void read_global();
  void reduce();
  void persistent_load();
  IValue rebuild_tensor(const c10::ivalue::Tuple& args);
  IValue restore_type_tag(const c10::ivalue::Tuple& args);
  IValue build_typed_list(Global kind, const c10::ivalue::Tuple& args);
  c10::Storage load_storage(const std::string& key, c10::ScalarType dtype, int64_t numel);

  // See Note [Containers are complete before they are placed].
  static constexpr uint32_t kMaxNesting = 1000;
  struct Nesting {
    uint32_t depth = 1;
    bool placed = false;
  };
  Nesting& nesting(const IValue& container);
  void check_growable(const IValue& container);
  void adopt(const IValue& parent, const IValue& child);
  void adopt_all(const IValue& built);  // a container built whole, from placed parts

  size_t pop_mark();
  // The first of the top n stack items, after checking that they are values above any MARK
  // and that `below` more items lie under them.
  size_t take_top(size_t n, size_t below = 0);
  IValue pop_value();
  void memo_put(uint32_t id);
  void memo_get(uint32_t id);

  absl::Span<const char> program_;
  size_t pos_ = 0;
  RecordReader read_record_;
  std::vector<Item> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint32_t, Item> memo_;
  struct LoadedStorage {
    c10::Storage storage;
    c10::ScalarType dtype;
    int64_t numel;
  };
  std::unordered_map<std::string, LoadedStorage> storages_;
  std::unordered_map<const void*, Nesting> nesting_;
  std::vector<IValue> containers_;  // alive while parsing, so that no address is reused
};

}  // namespace torch::jit
