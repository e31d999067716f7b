#include "tools/trace/Binder.h"

#include <algorithm>
#include <cctype>

#include "c10/core/MemoryFormat.h"
#include "c10/core/ScalarType.h"

namespace miniaten_trace {

namespace {

using c10::IValue;
using c10::TypeKind;
using c10::TypePtr;

std::string strip_torch(const std::string& name) {
  return name.rfind("torch.", 0) == 0 ? name.substr(6) : name;
}

// Python's dtype names (torch.float32, float, ...), c10's (Float) and C++'s (kFloat).
c10::optional<c10::ScalarType> dtype_named(const std::string& written) {
  static const std::map<std::string, c10::ScalarType> python = {{"float32", c10::kFloat},
                                                                {"float", c10::kFloat},
                                                                {"float64", c10::kDouble},
                                                                {"double", c10::kDouble},
                                                                {"float16", c10::kHalf},
                                                                {"half", c10::kHalf},
                                                                {"bfloat16", c10::kBFloat16},
                                                                {"int64", c10::kLong},
                                                                {"long", c10::kLong},
                                                                {"int32", c10::kInt},
                                                                {"int", c10::kInt},
                                                                {"int16", c10::kShort},
                                                                {"short", c10::kShort},
                                                                {"int8", c10::kChar},
                                                                {"uint8", c10::kByte},
                                                                {"bool", c10::kBool},
                                                                {"complex64", c10::kComplexFloat},
                                                                {"cfloat", c10::kComplexFloat},
                                                                {"complex128", c10::kComplexDouble},
                                                                {"cdouble", c10::kComplexDouble}};
  const std::string name = strip_torch(written);
  if (auto it = python.find(name); it != python.end()) return it->second;
  for (c10::ScalarType t :
       {c10::kByte, c10::kChar, c10::kShort, c10::kInt, c10::kLong, c10::kHalf, c10::kFloat,
        c10::kDouble, c10::kComplexFloat, c10::kComplexDouble, c10::kBool, c10::kBFloat16}) {
    const std::string c10_name = c10::toString(t);
    if (name == c10_name || name == "k" + c10_name) return t;
  }
  return c10::nullopt;
}

c10::optional<c10::MemoryFormat> memory_format_named(const std::string& written) {
  const std::string name = strip_torch(written);
  if (name == "contiguous_format") return c10::MemoryFormat::Contiguous;
  if (name == "channels_last") return c10::MemoryFormat::ChannelsLast;
  if (name == "channels_last_3d") return c10::MemoryFormat::ChannelsLast3d;
  if (name == "preserve_format") return c10::MemoryFormat::Preserve;
  return c10::nullopt;
}

const char* kind_text(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Int:
      return "int";
    case Value::Kind::Float:
      return "float";
    case Value::Kind::Bool:
      return "bool";
    case Value::Kind::None:
      return "None";
    case Value::Kind::String:
      return "str";
    case Value::Kind::Name:
      return "name";
    case Value::Kind::List:
      return "list";
  }
  return "value";
}

// `v` as a value of `type` (see Note [Which overload a call binds]), or nullopt with `why`.
c10::optional<IValue> convert(const Value& v, const TypePtr& type, c10::optional<int32_t> N,
                              const Variables& vars, std::string* why) {
  auto refuse = [&](const std::string& reason = "") -> c10::optional<IValue> {
    *why = reason.empty()
               ? "expected " + type->str() + " but got " + to_text(v) + " (" + kind_text(v) + ")"
               : reason;
    return c10::nullopt;
  };
  const IValue* var = nullptr;
  if (v.kind == Value::Kind::Name) {
    auto it = vars.find(v.text);
    if (it != vars.end()) var = &it->second;
  }
  switch (type->kind()) {
    case TypeKind::Optional:
      if (v.kind == Value::Kind::None) return IValue();
      return convert(v, type->getElementType(), N, vars, why);
    case TypeKind::Tensor:
      if (var != nullptr && var->isTensor()) return *var;
      if (v.kind == Value::Kind::Name && var == nullptr) {
        return refuse("'" + v.text + "' is not a variable");
      }
      return refuse();
    case TypeKind::Int:
    case TypeKind::SymInt:
      if (v.kind == Value::Kind::Int) return IValue(v.i);
      if (var != nullptr && var->isInt()) return *var;
      return refuse();
    case TypeKind::Float:
      if (v.kind == Value::Kind::Int) return IValue(static_cast<double>(v.i));
      if (v.kind == Value::Kind::Float) return IValue(v.f);
      if (var != nullptr && var->isDouble()) return *var;
      if (var != nullptr && var->isInt()) return IValue(static_cast<double>(var->toInt()));
      return refuse();
    case TypeKind::Bool:
      if (v.kind == Value::Kind::Bool) return IValue(v.b);
      return refuse();
    case TypeKind::Scalar:
      if (v.kind == Value::Kind::Int) return IValue(v.i);
      if (v.kind == Value::Kind::Float) return IValue(v.f);
      if (v.kind == Value::Kind::Bool) return IValue(v.b);
      if (var != nullptr && (var->isInt() || var->isDouble() || var->isBool())) return *var;
      return refuse();
    case TypeKind::Str:
      if (v.kind == Value::Kind::String) return IValue(v.text);
      return refuse();
    case TypeKind::ScalarType:
      if (v.kind == Value::Kind::Name && var == nullptr) {
        if (auto t = dtype_named(v.text)) return IValue(*t);
        return refuse("'" + v.text + "' is not a dtype (float32, int64, bool, ...)");
      }
      return refuse();
    case TypeKind::MemoryFormat:
      if (v.kind == Value::Kind::Name && var == nullptr) {
        if (auto m = memory_format_named(v.text)) return IValue(*m);
        return refuse("'" + v.text +
                      "' is not a memory format (contiguous_format, channels_last, "
                      "channels_last_3d, preserve_format)");
      }
      return refuse();
    case TypeKind::Layout:
      if (v.kind == Value::Kind::Name && strip_torch(v.text) == "strided") {
        return IValue(c10::Layout::Strided);
      }
      return refuse();
    case TypeKind::Device:
      if ((v.kind == Value::Kind::String || v.kind == Value::Kind::Name) && var == nullptr) {
        try {
          return IValue(c10::Device(v.text));
        } catch (const c10::Error& e) {
          return refuse(e.msg());
        }
      }
      return refuse();
    case TypeKind::List: {
      const TypePtr& element = type->getElementType();
      if (var != nullptr && var->isTensorList() && element->kind() == TypeKind::Tensor) {
        return *var;
      }
      // A single int stands for a fixed-size int list (`sum(x, 1)` for `int[1] dim`).
      if (v.kind == Value::Kind::Int && N.has_value() &&
          (element->kind() == TypeKind::Int || element->kind() == TypeKind::SymInt)) {
        return IValue(std::vector<int64_t>(static_cast<size_t>(*N), v.i));
      }
      if (v.kind != Value::Kind::List) return refuse();
      std::vector<IValue> items;
      for (const Value& item : v.items) {
        c10::optional<IValue> converted = convert(item, element, c10::nullopt, vars, why);
        if (!converted) return c10::nullopt;
        items.push_back(std::move(*converted));
      }
      switch (element->kind()) {
        case TypeKind::Int:
        case TypeKind::SymInt: {
          std::vector<int64_t> ints;
          for (const IValue& i : items) ints.push_back(i.toInt());
          return IValue(std::move(ints));
        }
        case TypeKind::Float: {
          std::vector<double> doubles;
          for (const IValue& d : items) doubles.push_back(d.toDouble());
          return IValue(std::move(doubles));
        }
        case TypeKind::Bool: {
          std::vector<bool> bools;
          for (const IValue& b : items) bools.push_back(b.toBool());
          return IValue(std::move(bools));
        }
        case TypeKind::Tensor: {
          std::vector<at::Tensor> tensors;
          for (const IValue& t : items) tensors.push_back(t.toTensor());
          return IValue(std::move(tensors));
        }
        default:
          if (element->isOptionalTensor()) {
            std::vector<c10::optional<at::Tensor>> tensors;
            for (const IValue& t : items) {
              tensors.push_back(t.isNone() ? c10::nullopt
                                           : c10::optional<at::Tensor>(t.toTensor()));
            }
            return IValue(std::move(tensors));
          }
          return refuse("lists of " + element->str() + " cannot be written here");
      }
    }
    default:
      if (v.kind == Value::Kind::None && type->kind() == TypeKind::NoneType) return IValue();
      return refuse("arguments of type " + type->str() + " cannot be written here");
  }
}

bool has_out_argument(const c10::FunctionSchema& schema) {
  const auto& args = schema.arguments();
  return std::any_of(args.begin(), args.end(), [](const c10::Argument& a) { return a.is_out(); });
}

}  // namespace

std::vector<c10::OperatorHandle> candidates(const std::string& callee) {
  std::string name = callee;
  std::string overload;
  const size_t ns_end = name.find("::");
  const size_t dot = name.find('.', ns_end == std::string::npos ? 0 : ns_end + 2);
  if (dot != std::string::npos) {
    overload = name.substr(dot + 1);
    name = name.substr(0, dot);
  }
  if (ns_end == std::string::npos) name = "aten::" + name;
  c10::Dispatcher& dispatcher = c10::Dispatcher::singleton();
  std::vector<c10::OperatorHandle> ops;
  if (dot != std::string::npos) {
    if (auto op = dispatcher.findSchema(c10::OperatorName(name, overload))) ops.push_back(*op);
    return ops;
  }
  std::vector<c10::OperatorHandle> outs;
  for (const c10::OperatorName& op_name : dispatcher.getAllOpNames()) {
    if (op_name.name != name) continue;
    auto op = dispatcher.findSchema(op_name);
    if (!op) continue;
    (has_out_argument(op->schema()) ? outs : ops).push_back(*op);
  }
  ops.insert(ops.end(), outs.begin(), outs.end());
  return ops;
}

c10::optional<torch::jit::Stack> bind(const c10::FunctionSchema& schema,
                                      const std::vector<Arg>& args, const Variables& vars,
                                      std::string* why) {
  const auto& params = schema.arguments();
  std::vector<c10::optional<IValue>> slots(params.size());
  size_t positional = 0;
  for (const Arg& arg : args) {
    size_t index = 0;
    if (arg.name.empty()) {
      while (positional < params.size() && params[positional].kwarg_only()) ++positional;
      if (positional >= params.size()) {
        const auto n = std::count_if(params.begin(), params.end(),
                                     [](const c10::Argument& p) { return !p.kwarg_only(); });
        *why = "takes at most " + std::to_string(n) + " positional argument" + (n == 1 ? "" : "s");
        return c10::nullopt;
      }
      index = positional++;
      if (slots[index].has_value()) {  // only when called with a name first: resolve() refuses
        *why = "argument '" + params[index].name() + "' given twice";
        return c10::nullopt;
      }
    } else {
      auto it = std::find_if(params.begin(), params.end(),
                             [&](const c10::Argument& p) { return p.name() == arg.name; });
      if (it == params.end()) {
        *why = "has no argument named '" + arg.name + "'";
        return c10::nullopt;
      }
      index = static_cast<size_t>(it - params.begin());
      if (slots[index].has_value()) {
        *why = "argument '" + arg.name + "' given twice";
        return c10::nullopt;
      }
    }
    std::string reason;
    slots[index] = convert(arg.value, params[index].type(), params[index].N(), vars, &reason);
    if (!slots[index]) {
      *why = "argument '" + params[index].name() + "': " + reason;
      return c10::nullopt;
    }
  }
  torch::jit::Stack stack;
  for (size_t i = 0; i < params.size(); ++i) {
    if (slots[i]) {
      stack.push_back(std::move(*slots[i]));
    } else if (params[i].default_value()) {
      stack.push_back(*params[i].default_value());
    } else {
      *why = "missing argument '" + params[i].name() + "'";
      return c10::nullopt;
    }
  }
  return stack;
}

Bound resolve(const std::string& callee, const std::vector<Arg>& args, const Variables& vars) {
  bool named = false;
  for (const Arg& a : args) {
    TORCH_CHECK(!named || !a.name.empty(), "positional argument follows keyword argument");
    named |= !a.name.empty();
  }
  const std::vector<c10::OperatorHandle> ops = candidates(callee);
  TORCH_CHECK(!ops.empty(), "unknown operator '", callee,
              "': no operator of that name is registered (--ops lists them)");
  std::string reasons;
  for (const c10::OperatorHandle& op : ops) {
    std::string why;
    if (auto stack = bind(op.schema(), args, vars, &why)) return Bound{op, std::move(*stack)};
    reasons += "\n  " + c10::toString(op.schema()) + "\n    " + why;
  }
  TORCH_CHECK(false, "no overload of ", ops.front().schema().name(),
              " takes these arguments:", reasons);
}

}  // namespace miniaten_trace
