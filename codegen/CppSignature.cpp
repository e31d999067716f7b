#include "codegen/CppSignature.h"

#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace codegen {

using c10::TypeKind;

namespace {

TypeKind kind_of(const c10::TypePtr& t) { return t ? t->kind() : TypeKind::Tensor; }

bool is_write(const c10::Argument& a) { return a.alias_info() && a.alias_info()->isWrite(); }

// The C++ type of a value held by value (optional elements, returns).
std::string value_type(const c10::TypePtr& t) {
  switch (kind_of(t)) {
    case TypeKind::Tensor:
      return "at::Tensor";
    case TypeKind::Int:
    case TypeKind::SymInt:
      return "int64_t";
    case TypeKind::Float:
      return "double";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Str:
      return "c10::string_view";
    case TypeKind::Scalar:
      return "at::Scalar";
    case TypeKind::ScalarType:
      return "at::ScalarType";
    case TypeKind::Layout:
      return "at::Layout";
    case TypeKind::MemoryFormat:
      return "at::MemoryFormat";
    case TypeKind::Device:
      return "at::Device";
    case TypeKind::Generator:
      return "at::Generator";
    case TypeKind::List:
      if (kind_of(t->getElementType()) == TypeKind::Tensor) return "::std::vector<at::Tensor>";
      break;
    default:
      break;
  }
  throw std::runtime_error("no C++ type for schema type " + (t ? t->str() : "Tensor"));
}

std::string list_type(const c10::Argument& arg, const c10::TypePtr& elem) {
  switch (kind_of(elem)) {
    case TypeKind::Tensor:
      return "at::TensorList";
    case TypeKind::Int:
    case TypeKind::SymInt:
      return "at::IntArrayRef";
    case TypeKind::Float:
      return "at::ArrayRef<double>";
    case TypeKind::Scalar:
      return "at::ArrayRef<at::Scalar>";
    case TypeKind::Bool:
      if (arg.N()) return "::std::array<bool," + std::to_string(*arg.N()) + ">";
      break;
    case TypeKind::Optional:
      if (kind_of(elem->getElementType()) == TypeKind::Tensor) {
        return "const c10::List<c10::optional<at::Tensor>> &";
      }
      break;
    default:
      break;
  }
  throw std::runtime_error("no C++ type for list argument " + arg.name());
}

std::string number(double d) {
  std::ostringstream ss;
  ss << std::setprecision(17) << d;
  std::string s = ss.str();
  if (s.find_first_of(".e") == std::string::npos && s.find("inf") == std::string::npos &&
      s.find("nan") == std::string::npos) {
    s += ".0";
  }
  if (s == "inf") return "::std::numeric_limits<double>::infinity()";
  if (s == "-inf") return "-::std::numeric_limits<double>::infinity()";
  return s;
}

// An int-coded enum default, spelled as its C++ constant.
std::string enum_default(TypeKind kind, int64_t v) {
  if (kind == TypeKind::MemoryFormat) {
    static const char* names[] = {"Contiguous", "Preserve", "ChannelsLast", "ChannelsLast3d"};
    if (v >= 0 && v < 4) return std::string("at::MemoryFormat::") + names[v];
  }
  if (kind == TypeKind::ScalarType) {
    return std::string("at::k") + c10::toString(static_cast<c10::ScalarType>(v));
  }
  if (kind == TypeKind::Layout) return "at::kStrided";
  return std::to_string(v);
}

}  // namespace

std::string cpp_argument_type(const c10::Argument& arg) {
  const c10::TypePtr& t = arg.type();
  switch (kind_of(t)) {
    case TypeKind::Tensor:
      return is_write(arg) ? "at::Tensor &" : "const at::Tensor &";
    case TypeKind::Scalar:
      return "const at::Scalar &";
    case TypeKind::List:
      return list_type(arg, t->getElementType());
    case TypeKind::Optional: {
      const c10::TypePtr& elem = t->getElementType();
      switch (kind_of(elem)) {
        case TypeKind::Tensor:
          return "const c10::optional<at::Tensor> &";
        case TypeKind::Scalar:
          return "const c10::optional<at::Scalar> &";
        case TypeKind::List:
          if (kind_of(elem->getElementType()) == TypeKind::Int ||
              kind_of(elem->getElementType()) == TypeKind::SymInt) {
            return "at::OptionalIntArrayRef";
          }
          if (kind_of(elem->getElementType()) == TypeKind::Float) {
            return "c10::optional<at::ArrayRef<double>>";
          }
          break;
        default:
          return "c10::optional<" + value_type(elem) + ">";
      }
      break;
    }
    default:
      return value_type(t);
  }
  throw std::runtime_error("no C++ type for argument " + arg.name());
}

std::string cpp_return_type(const c10::FunctionSchema& schema) {
  const auto& rets = schema.returns();
  auto one = [](const c10::Argument& r) {
    if (kind_of(r.type()) == TypeKind::Tensor && is_write(r)) return std::string("at::Tensor &");
    return value_type(r.type());
  };
  if (rets.empty()) return "void";
  if (rets.size() == 1) return one(rets[0]);
  std::string s = "::std::tuple<";
  for (size_t i = 0; i < rets.size(); ++i) s += (i ? "," : "") + one(rets[i]);
  return s + ">";
}

std::string cpp_default(const c10::Argument& arg) {
  const auto& dv = arg.default_value();
  if (!dv.has_value()) return "";
  const c10::TypePtr& t = arg.type();
  const TypeKind kind = kind_of(t);
  const TypeKind inner = kind == TypeKind::Optional ? kind_of(t->getElementType()) : kind;
  if (dv->isNone()) return inner == TypeKind::Tensor ? "{}" : "c10::nullopt";
  if (dv->isBool()) return dv->toBool() ? "true" : "false";
  if (dv->isInt()) return enum_default(inner, dv->toInt());
  if (dv->isDouble()) return number(dv->toDouble());
  if (dv->isString()) return "\"" + dv->toStringRef() + "\"";
  if (dv->isIntList()) {
    const auto& v = dv->toIntListRef();
    bool all_same = !v.empty();
    for (int64_t x : v) all_same = all_same && x == v[0];
    if (arg.N() && all_same) return std::to_string(v[0]);
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "}";
  }
  if (dv->isDoubleList()) {
    std::string s = "{";
    const auto& v = dv->toDoubleListRef();
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + number(v[i]);
    return s + "}";
  }
  if (dv->isBoolList()) {
    std::string s = "{";
    const auto& v = dv->toBoolListRef();
    for (size_t i = 0; i < v.size(); ++i) s += std::string(i ? "," : "") + (v[i] ? "true" : "false");
    return s + "}";
  }
  throw std::runtime_error("unsupported default for argument " + arg.name());
}

std::vector<CppArg> dispatcher_arguments(const NativeFunction& f) {
  std::vector<CppArg> args;
  for (const auto& a : f.schema.arguments()) args.push_back({cpp_argument_type(a), a.name(), ""});
  return args;
}

namespace {

// Defaults apply to a trailing run of arguments only (C++'s rule).
void keep_trailing_defaults(std::vector<CppArg>& args) {
  bool trailing = true;
  for (size_t i = args.size(); i-- > 0;) {
    if (args[i].default_value.empty()) trailing = false;
    if (!trailing) args[i].default_value.clear();
  }
}

}  // namespace

std::vector<CppArg> native_arguments(const NativeFunction& f) {
  std::vector<CppArg> args;
  for (const auto& a : f.schema.arguments()) {
    args.push_back({cpp_argument_type(a), a.name(), cpp_default(a)});
  }
  keep_trailing_defaults(args);
  return args;
}

namespace {

std::vector<std::string> names_of(const std::vector<CppArg>& args) {
  std::vector<std::string> names;
  for (const auto& a : args) names.push_back(a.name);
  return names;
}

// Arguments with defaults, TensorOptions grouped when `group`; `skip_self` for methods.
ApiSignature grouped_signature(const NativeFunction& f, const std::string& name, bool group,
                               bool skip_self) {
  ApiSignature sig{name, {}, {}};
  const auto& schema_args = f.schema.arguments();
  const size_t to = f.has_tensor_options() ? f.tensor_options_start() : schema_args.size();
  // A method's *this is the argument named self, which is not always the first one
  // (where.self(Tensor condition, Tensor self, Tensor other): x.where(cond, y)).
  size_t self_index = 0;
  for (size_t i = 0; i < schema_args.size(); ++i) {
    if (schema_args[i].name() == "self") {
      self_index = i;
      break;
    }
  }
  for (size_t i = 0; i < schema_args.size(); ++i) {
    const auto& a = schema_args[i];
    if (group && i >= to && i < to + 4) {
      static const char* exprs[] = {"c10::optTypeMetaToScalarType(options.dtype_opt())",
                                    "options.layout_opt()", "options.device_opt()",
                                    "options.pinned_memory_opt()"};
      // A dtype with a default (randint's `ScalarType? dtype=4`) becomes the options' default,
      // as libtorch's `TensorOptions options=at::kLong`.
      if (i == to) {
        const std::string dtype_default = cpp_default(a);
        const bool has_dtype = dtype_default.rfind("at::k", 0) == 0;
        sig.arguments.push_back({"at::TensorOptions", "options", has_dtype ? dtype_default : "{}"});
      }
      sig.dispatcher_exprs.push_back(exprs[i - to]);
      continue;
    }
    if (skip_self && i == self_index) {
      sig.dispatcher_exprs.push_back("const_cast<Tensor&>(*this)");
      continue;
    }
    if (group && a.name() == "memory_format" && f.has_tensor_options()) {
      sig.arguments.push_back({cpp_argument_type(a), a.name(), cpp_default(a)});
      sig.dispatcher_exprs.push_back(
          "c10::impl::check_tensor_options_and_extract_memory_format(options, memory_format)");
      continue;
    }
    sig.arguments.push_back({cpp_argument_type(a), a.name(), cpp_default(a)});
    sig.dispatcher_exprs.push_back(a.name());
  }
  keep_trailing_defaults(sig.arguments);
  return sig;
}

}  // namespace

std::vector<ApiSignature> function_signatures(const NativeFunction& f) {
  const std::string base = f.schema.name().substr(6);
  std::vector<ApiSignature> sigs;
  if (f.is_out()) {
    // name_out(outs..., args...) with defaults, and name_outf(schema order).
    ApiSignature out_first{base + "_out", {}, {}};
    const auto& args = f.schema.arguments();
    std::vector<CppArg> outs, rest;
    for (const auto& a : args) {
      CppArg c{cpp_argument_type(a), a.name(), cpp_default(a)};
      (a.kwarg_only() && is_write(a) && kind_of(a.type()) == TypeKind::Tensor ? outs : rest)
          .push_back(c);
    }
    out_first.arguments = outs;
    out_first.arguments.insert(out_first.arguments.end(), rest.begin(), rest.end());
    keep_trailing_defaults(out_first.arguments);
    for (const auto& a : args) out_first.dispatcher_exprs.push_back(a.name());
    sigs.push_back(out_first);
    ApiSignature faithful{base + "_outf", dispatcher_arguments(f), {}};
    faithful.dispatcher_exprs = names_of(faithful.arguments);
    sigs.push_back(faithful);
    return sigs;
  }
  if (f.has_tensor_options()) {
    sigs.push_back(grouped_signature(f, base, /*group=*/true, /*skip_self=*/false));
    ApiSignature ungrouped{base, dispatcher_arguments(f), {}};
    ungrouped.dispatcher_exprs = names_of(ungrouped.arguments);
    sigs.push_back(ungrouped);
    return sigs;
  }
  sigs.push_back(grouped_signature(f, base, /*group=*/false, /*skip_self=*/false));
  return sigs;
}

namespace {
size_t min_arguments(const ApiSignature& sig) {
  size_t n = sig.arguments.size();
  while (n > 0 && !sig.arguments[n - 1].default_value.empty()) --n;
  return n;
}
bool same_leading_types(const ApiSignature& a, const ApiSignature& b, size_t k) {
  for (size_t i = 0; i < k; ++i) {
    if (a.arguments[i].type != b.arguments[i].type) return false;
  }
  return true;
}
}  // namespace

void disambiguate_defaults(std::vector<ApiSignature*>& overloads) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (ApiSignature* a : overloads) {
      for (ApiSignature* b : overloads) {
        if (a == b || a->arguments.size() < b->arguments.size()) continue;
        if (a->arguments.size() == b->arguments.size() && a > b) continue;
        // a is the longer one: find a call length both accept with the same leading types.
        const size_t lo = std::max(min_arguments(*a), min_arguments(*b));
        const size_t hi = b->arguments.size();
        for (size_t k = lo; k <= hi; ++k) {
          if (!same_leading_types(*a, *b, k)) continue;
          for (size_t i = 0; i <= k && i < a->arguments.size(); ++i) {
            a->arguments[i].default_value.clear();
          }
          changed = true;
          break;
        }
      }
    }
  }
}

ApiSignature method_signature(const NativeFunction& f) {
  return grouped_signature(f, f.schema.name().substr(6), f.has_tensor_options(),
                           /*skip_self=*/true);
}

std::string declare_arguments(const std::vector<CppArg>& args, bool with_defaults) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) {
    s += (i ? ", " : "") + args[i].type + " " + args[i].name;
    if (with_defaults && !args[i].default_value.empty()) s += "=" + args[i].default_value;
  }
  return s;
}

std::string argument_names(const std::vector<CppArg>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].name;
  return s;
}

std::string forwarded_argument_names(const std::vector<CppArg>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool by_value = args[i].type.back() != '&';
    s += (i ? ", " : "") + (by_value ? "::std::move(" + args[i].name + ")" : args[i].name);
  }
  return s;
}

}  // namespace codegen
