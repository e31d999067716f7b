#pragma once
// The little language miniaten_trace reads: calls, one per statement, as a Python user writes
// them against torch.
//
//   x = ones([2, 3, 4]); y = transpose(x, 0, 2)
//   z = y.contiguous()                          # a method: contiguous(y)
//   s = sum(z, [0], keepdim=True, dtype=float64)
//   v, i = max(x, 1)                            # one name per return
//   w = aten::add.Tensor(x, x, alpha=2)         # namespace and overload spelled out
//
// Statements end at ';' or a newline; '#' starts a comment. A value is an integer, a float
// (`1.5`, `1e-3`, `inf`, `nan`), True/False, None, a string in single or double quotes, a list
// in brackets, or a name (a variable, a dtype, a memory format, a layout, a device). Names are
// resolved later, against the schema of the operator called (tools/trace/Binder.h).

#include <cstdint>
#include <string>
#include <vector>

namespace miniaten_trace {

struct Value {
  enum class Kind { Int, Float, Bool, None, String, Name, List };
  Kind kind = Kind::None;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string text;          // String's contents, Name's name; the source text otherwise
  std::vector<Value> items;  // List's elements
};

struct Arg {
  std::string name;  // empty for a positional argument
  Value value;
};

struct Call {
  // As written: "transpose", "add.Tensor", "aten::add.Tensor", "myops::my_add", "y.contiguous".
  // Whether "a.b" is an overload or a method call depends on whether `a` is a variable, which
  // the runner knows (tools/trace/Session.cpp).
  std::string callee;
  std::vector<Arg> args;
  size_t column = 0;  // where the callee starts in the statement's line
};

struct Statement {
  std::vector<std::string> targets;  // `a, b = ...`; empty for a bare call
  Call call;
  std::string text;  // the statement as written, for messages
};

// Parses a whole script. A syntax error is a c10::Error quoting the line and pointing at the
// token: "expected ')' but found 'x'".
std::vector<Statement> parse_script(const std::string& source);

// How a value reads back in messages and the trace ("[2, 3]", "'floor'", "channels_last").
std::string to_text(const Value& v);

}  // namespace miniaten_trace
