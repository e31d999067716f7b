#pragma once
// How a schema becomes C++: argument and return types (libtorch's spelling), default values, and
// the argument lists of each generated API (dispatcher, at:: with and without TensorOptions,
// out-first, method).

#include <string>
#include <vector>

#include "codegen/NativeFunction.h"

namespace codegen {

struct CppArg {
  std::string type;
  std::string name;
  std::string default_value;  // empty: none
};

// `Tensor` -> "const at::Tensor &", `Tensor(a!)` -> "at::Tensor &", `int[]` -> "at::IntArrayRef", ...
std::string cpp_argument_type(const c10::Argument& arg);
// `Tensor` -> "at::Tensor", `Tensor(a!)` -> "at::Tensor &", tuples, `()` -> "void".
std::string cpp_return_type(const c10::FunctionSchema& schema);
// `None` -> "c10::nullopt", `contiguous_format` -> "at::MemoryFormat::Contiguous", `[0,1]` ->
// "{0,1}"; empty when the argument has no default.
std::string cpp_default(const c10::Argument& arg);

// The dispatcher signature: every argument in schema order, no defaults. This is also the
// at::native and the wrapper signature, and the typed handle's.
std::vector<CppArg> dispatcher_arguments(const NativeFunction& f);
// The at::native declaration's arguments: the dispatcher's, with the schema's defaults on their
// trailing run, as libtorch's NativeFunctions.h declares them (at::native::ones({2, 2})).
std::vector<CppArg> native_arguments(const NativeFunction& f);

// One generated at:: overload (or method): its arguments, and for each dispatcher argument the
// expression that produces it.
struct ApiSignature {
  std::string name;
  std::vector<CppArg> arguments;
  std::vector<std::string> dispatcher_exprs;
};

// The at:: overloads of a function: the faithful one; for factories also the TensorOptions one;
// for out= functions name_out (outs first, with defaults) and name_outf (schema order).
std::vector<ApiSignature> function_signatures(const NativeFunction& f);
// Note [Overloads that defaults would make ambiguous]
// arange.start(start, end, options={}) and arange.start_step(start, end, step=1, options={})
// can both be called as arange(0, 5). libtorch's generated API drops the default of `step`;
// the rule here is the general one: when two overloads of one C++ name accept the same leading
// argument types at some call length, the longer overload loses the defaults that allow it.
void disambiguate_defaults(std::vector<ApiSignature*>& overloads);

// The Tensor method (self dropped), with TensorOptions grouped when there are any.
ApiSignature method_signature(const NativeFunction& f);

// "const at::Tensor & self, int64_t dim=0".
std::string declare_arguments(const std::vector<CppArg>& args, bool with_defaults);
std::string argument_names(const std::vector<CppArg>& args);
// The same, each by-value argument in std::move: for TypedOperatorHandle's *Forwarded calls.
std::string forwarded_argument_names(const std::vector<CppArg>& args);

}  // namespace codegen
