#pragma once
// The pickle opcodes miniaten's Pickler writes and Unpickler reads (a subset of protocol 2, as
// libtorch's torch/csrc/jit/serialization/pickler.h names them). See Note [The pickle subset we
// read] in aten/serialization/Unpickler.h.

namespace torch::jit {

enum class PickleOpCode : char {
  MARK = '(',
  STOP = '.',
  BININT = 'J',
  BININT1 = 'K',
  BININT2 = 'M',
  NONE = 'N',
  BINPERSID = 'Q',
  BUILD = 'b',
  REDUCE = 'R',
  BINUNICODE = 'X',
  APPEND = 'a',
  GLOBAL = 'c',
  DICT = 'd',
  EMPTY_DICT = '}',
  APPENDS = 'e',
  BINGET = 'h',
  LONG_BINGET = 'j',
  LIST = 'l',
  EMPTY_LIST = ']',
  BINPUT = 'q',
  LONG_BINPUT = 'r',
  SETITEM = 's',
  TUPLE = 't',
  EMPTY_TUPLE = ')',
  SETITEMS = 'u',
  BINFLOAT = 'G',
  PROTO = '\x80',
  TUPLE1 = '\x85',
  TUPLE2 = '\x86',
  TUPLE3 = '\x87',
  NEWTRUE = '\x88',
  NEWFALSE = '\x89',
  LONG1 = '\x8a',
};

}  // namespace torch::jit
