#pragma once
// NativeFunction: one entry of aten/native/native_functions.def, parsed with the dispatcher's own
// schema parser, plus the facts the emitters ask about it.

#include <string>
#include <vector>

#include "dispatcher/FunctionSchema.h"

namespace codegen {

// One line of the registry, as written.
struct RegistryEntry {
  const char* schema;
  const char* variants;
  const char* dispatch;
};

struct Kernel {
  std::string key;   // "CPU", "CompositeImplicitAutograd", ...
  std::string name;  // the at::native function
};

struct NativeFunction {
  c10::FunctionSchema schema;
  std::string schema_text;  // as written, without "aten::"
  bool function_variant = false;
  bool method_variant = false;
  std::vector<Kernel> kernels;  // one per key

  // "empty_memory_format": the at::_ops struct (name, then _overload).
  std::string ops_name() const;
  // "empty.memory_format": the name m.impl() takes.
  std::string registration_name() const;
  // Writes to kwarg-only Tensor(a!) arguments (an out= variant).
  bool is_out() const;
  size_t num_out_args() const;
  // Every argument the op writes to (`Tensor(a!)`: self of an in-place op, the outs of an out=
  // variant), in schema order.
  std::vector<const c10::Argument*> mutable_arguments() const;
  // Takes the scattered dtype, layout, device, pin_memory of a factory.
  bool has_tensor_options() const;
  // Index of `dtype` among the arguments, when has_tensor_options().
  size_t tensor_options_start() const;
  bool has_tensor_arguments() const;
  // Factories with per-backend kernels choose the backend from their options.
  bool needs_backend_select() const;
  bool has_key(const std::string& key) const;
};

// Parses every entry; errors name the entry.
std::vector<NativeFunction> parse_registry(const std::vector<RegistryEntry>& entries);

}  // namespace codegen
