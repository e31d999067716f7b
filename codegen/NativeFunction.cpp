#include "codegen/NativeFunction.h"

#include <sstream>
#include <stdexcept>

#include "dispatcher/SchemaParser.h"

namespace codegen {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, sep)) {
    part = trim(part);
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

bool is_tensor(const c10::Argument& a) {
  return !a.type() || a.type()->kind() == c10::TypeKind::Tensor;
}

bool is_write(const c10::Argument& a) { return a.alias_info() && a.alias_info()->isWrite(); }

}  // namespace

std::string NativeFunction::ops_name() const {
  return schema.overload_name().empty() ? schema.name().substr(6)
                                        : schema.name().substr(6) + "_" + schema.overload_name();
}

std::string NativeFunction::registration_name() const {
  return schema.overload_name().empty() ? schema.name().substr(6)
                                        : schema.name().substr(6) + "." + schema.overload_name();
}

size_t NativeFunction::num_out_args() const {
  size_t n = 0;
  for (const auto& a : schema.arguments()) {
    if (a.kwarg_only() && is_tensor(a) && is_write(a)) ++n;
  }
  return n;
}

std::vector<const c10::Argument*> NativeFunction::mutable_arguments() const {
  std::vector<const c10::Argument*> args;
  for (const auto& a : schema.arguments()) {
    if (is_write(a)) args.push_back(&a);
  }
  return args;
}

bool NativeFunction::is_out() const { return num_out_args() > 0; }

bool NativeFunction::has_tensor_options() const {
  const auto& args = schema.arguments();
  for (size_t i = 0; i + 3 < args.size(); ++i) {
    if (args[i].name() == "dtype" && args[i + 1].name() == "layout" &&
        args[i + 2].name() == "device" && args[i + 3].name() == "pin_memory") {
      return true;
    }
  }
  return false;
}

size_t NativeFunction::tensor_options_start() const {
  const auto& args = schema.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].name() == "dtype") return i;
  }
  throw std::logic_error("no tensor options in " + schema_text);
}

bool NativeFunction::has_tensor_arguments() const {
  for (const auto& a : schema.arguments()) {
    const auto& t = a.type();
    if (!t || t->isTensor() || t->isOptionalTensor() || t->isTensorList() ||
        t->isOptionalTensorList()) {
      return true;
    }
  }
  return false;
}

bool NativeFunction::has_key(const std::string& key) const {
  for (const auto& k : kernels) {
    if (k.key == key) return true;
  }
  return false;
}

bool NativeFunction::needs_backend_select() const {
  return has_tensor_options() && !has_tensor_arguments() &&
         (has_key("CPU") || has_key("CUDA") || has_key("Meta"));
}

std::vector<NativeFunction> parse_registry(const std::vector<RegistryEntry>& entries) {
  std::vector<NativeFunction> result;
  for (const auto& e : entries) {
    try {
      NativeFunction f{torch::jit::parseSchema(std::string("aten::") + e.schema), e.schema, false,
                       false, {}};
      for (const auto& v : split(e.variants, ',')) {
        if (v == "function") {
          f.function_variant = true;
        } else if (v == "method") {
          f.method_variant = true;
        } else {
          throw std::runtime_error("unknown variant '" + v + "'");
        }
      }
      for (const auto& pair : split(e.dispatch, ';')) {
        const auto colon = pair.find(':');
        if (colon == std::string::npos) throw std::runtime_error("expected 'Key: kernel'");
        const std::string kernel = trim(pair.substr(colon + 1));
        for (const auto& key : split(pair.substr(0, colon), ',')) f.kernels.push_back({key, kernel});
      }
      result.push_back(std::move(f));
    } catch (const std::exception& ex) {
      throw std::runtime_error(std::string("native_functions.def: in entry '") + e.schema +
                               "': " + ex.what());
    }
  }
  return result;
}

}  // namespace codegen
