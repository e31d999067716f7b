#pragma once
// Binding a written call to an operator, the way Python's argument parser binds `torch.*`
// calls: find the overloads the callee may name, then take the first whose schema the
// arguments fit, converting each value to the type its parameter declares.
//
//   transpose(x, 0, 2)          -> aten::transpose.int(Tensor(a) self, int dim0, int dim1)
//   add(x, 1)                   -> aten::add.Scalar (1 is no Tensor, so add.Tensor does not fit)
//   sum(x, 1, keepdim=True)     -> aten::sum.dim_IntList (an int stands for int[1])
//
// Note [Which overload a call binds]
// Overloads are tried in the order they were registered (for aten, the order of its operator
// list, which puts add.Tensor before add.Scalar as native_functions.yaml does), out= variants
// last. An argument fits a parameter when its value can stand for the parameter's type with no
// guess: integers for int, Scalar and float; numbers and booleans for Scalar; None for any
// optional; a bracketed list for a list (a single int for a fixed-size int list); a variable
// holding a Tensor for Tensor; a string for str and Device; a name for a dtype, memory format,
// layout or device. Defaults fill what is not written; a parameter with neither a value nor a
// default does not fit.

#include <map>
#include <string>
#include <vector>

#include "dispatcher/Dispatcher.h"
#include "tools/trace/Script.h"

namespace miniaten_trace {

using Variables = std::map<std::string, c10::IValue>;

// Every operator `callee` may name: "transpose" and "aten::transpose" give each overload of
// aten::transpose in the order of Note [Which overload a call binds]; "transpose.int" gives one.
std::vector<c10::OperatorHandle> candidates(const std::string& callee);

// The stack for `schema`, or nullopt with the reason in `why`.
c10::optional<torch::jit::Stack> bind(const c10::FunctionSchema& schema,
                                      const std::vector<Arg>& args, const Variables& vars,
                                      std::string* why);

struct Bound {
  c10::OperatorHandle op;
  torch::jit::Stack stack;
};

// The first candidate the arguments fit. A c10::Error says when no operator has that name, or
// lists each overload's schema with the reason it did not fit.
Bound resolve(const std::string& callee, const std::vector<Arg>& args, const Variables& vars);

}  // namespace miniaten_trace
