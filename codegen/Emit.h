#pragma once
// The emitters: each turns one NativeFunction into one piece of one generated file. main.cpp
// puts the pieces together; the golden tests check them one function at a time.

#include <map>
#include <string>
#include <vector>

#include "codegen/CppSignature.h"
#include "codegen/NativeFunction.h"

namespace codegen {

// at::_ops::<name>: the schema string, the typed handle, call and redispatch.
std::string emit_ops_declaration(const NativeFunction& f);
std::string emit_ops_definition(const NativeFunction& f);
// The at:: functions (inline, in Functions.h), from the given signatures or, without them,
// from function_signatures(f).
std::string emit_functions(const NativeFunction& f);
std::string emit_functions(const NativeFunction& f, const std::vector<ApiSignature>& sigs);
// at::redispatch:: functions.
std::string emit_redispatch_functions(const NativeFunction& f,
                                      const std::vector<ApiSignature>& sigs);
// The Tensor method: its declaration inside the class and its inline definition.
std::string emit_method_declaration(const NativeFunction& f);
std::string emit_method_definition(const NativeFunction& f);
// at::native declarations, one per kernel name and signature.
std::string emit_native_declaration(const NativeFunction& f, const std::string& kernel);
// The per-key wrapper wrapper_<Key>__<op>[_<overload>] and its m.impl line.
std::string wrapper_name(const NativeFunction& f, const std::string& key);
std::string emit_wrapper(const NativeFunction& f, const Kernel& kernel);
std::string emit_backend_select_wrapper(const NativeFunction& f);
std::string emit_impl_line(const NativeFunction& f, const std::string& key);

// See Note [Who bumps the version counter]. Whether the op gets a generated ADInplaceOrView
// kernel (it writes to an argument, is not composite, and has no hand-written one), and that
// kernel: run the op below ADInplaceOrView, then bump each written argument's version.
bool needs_inplace_or_view_kernel(const NativeFunction& f);
std::string emit_inplace_or_view_wrapper(const NativeFunction& f);
// Whether the op gets a generated Autograd kernel because its outputs are not differentiable
// (libtorch's DONT_REQUIRE_DERIVATIVE and output_differentiability: [False]), and that kernel:
// the redispatch below ADInplaceOrView, with no history.
bool needs_not_differentiable_kernel(const NativeFunction& f);
std::string emit_not_differentiable_wrapper(const NativeFunction& f);
// The out= overloads' Autograd kernels; Note [out= variants under autograd].
bool needs_out_autograd_kernel(const NativeFunction& f);
std::string emit_out_autograd_wrapper(const NativeFunction& f);

// Every generated file, name -> contents.
std::map<std::string, std::string> generate_all(const std::vector<NativeFunction>& functions);

// The dispatch keys that get a Register<Key>.cpp (all of them, always, so the build's file list
// is fixed).
const std::vector<std::string>& registration_keys();

}  // namespace codegen
