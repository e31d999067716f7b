#include "dispatcher/SchemaParser.h"

#include <cctype>
#include <charconv>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "dispatcher/CustomClass.h"
#include "dispatcher/impl/SchemaLexer.h"

namespace torch {
namespace jit {

using c10::AliasInfo;
using c10::Argument;
using c10::FunctionSchema;
using c10::IValue;
using c10::OperatorName;
using c10::SchemaType;
using c10::TypeKind;
using c10::TypePtr;
using impl::Token;

namespace {

// Note [Schema grammar]
// A port of libtorch's SchemaParser and SchemaTypeParser, kept to their structure so the same
// inputs succeed and fail with the same messages.
//
//   declaration := name [ '(' args ')' '->' returns ]
//   name        := ident [ '::' ident ] [ '.' ident ]        (overload not `default` or `__*`)
//   args        := arg, ...  with `*` (the rest are keyword-only) and a final `...`
//   returns     := '...' | '(' ret, ... [, '...'] ')' | ret
//   arg         := type [ '[' N ']' [alias] ['?'] ] name [ '=' default ]
//   ret         := type [ '[' N ']' [alias] ['?'] ] [ name ]
//   type        := ( '(' type, ... ')' | Future(type) | RRef(type) | Dict(type, type)[alias]
//                  | __torch__.torch.classes.ns.Name | base [alias] ) { '[]' [alias] | '?' }
//   alias       := '(' set|set... ['!'] [ '->' set|set... ] ')' | '!'      (set: ident or *)
//   base        := Tensor | int | float | ... (SchemaType's leaves) | lower-case type variable
//
// Defaults are read by the JIT view of the type (ScalarType, Layout, MemoryFormat, SymInt are
// int; see Note [Schema types are the real types]):
//   Tensor, Generator     None only
//   int/float/bool/str/Scalar/T?   True, False, None, a string, [-]number, or one of the names
//                         float long complex (dtypes), strided, Mean, contiguous_format — stored
//                         as the Int libtorch stores (6, 4, 9, 0, 1, 0)
//   Device                a string: "cpu", "cuda:1"
//   T[] / T[N]            [a, b, ...] of int, float or bool; T[N] also takes one value, repeated
// A number is a float when the type is float or the text has '.' or 'e', else an int.
// Not supported (libtorch accepts them; no registered schema uses them): complex number
// defaults (`1j`), and custom classes are not checked against a class registry.

// libtorch's enum spellings for defaults, as the Ints it stores.
struct NamedDefault {
  const char* name;
  int64_t value;
};
constexpr NamedDefault kNamedDefaults[] = {
    {"float", static_cast<int64_t>(c10::ScalarType::Float)},
    {"complex", 9},  // libtorch's ScalarType::ComplexFloat
    {"long", static_cast<int64_t>(c10::ScalarType::Long)},
    {"strided", static_cast<int64_t>(c10::Layout::Strided)},
    {"Mean", 1},  // at::Reduction::Mean
    {"contiguous_format", static_cast<int64_t>(c10::MemoryFormat::Contiguous)},
};

struct NamedType {
  const char* name;
  TypeKind kind;
};
// Base type names; Tensor and the containers are parsed separately. Dimname and
// ConstQuantizerPtr map to str and int, as in libtorch.
constexpr NamedType kBaseTypes[] = {
    {"Generator", TypeKind::Generator},
    {"Dimname", TypeKind::Str},
    {"ScalarType", TypeKind::ScalarType},
    {"Layout", TypeKind::Layout},
    {"MemoryFormat", TypeKind::MemoryFormat},
    {"Storage", TypeKind::Storage},
    {"QScheme", TypeKind::QScheme},
    {"Quantizer", TypeKind::Quantizer},
    {"ConstQuantizerPtr", TypeKind::Int},
    {"Device", TypeKind::Device},
    {"Stream", TypeKind::Stream},
    {"Scalar", TypeKind::Scalar},
    {"str", TypeKind::Str},
    {"float", TypeKind::Float},
    {"complex", TypeKind::Complex},
    {"int", TypeKind::Int},
    {"SymInt", TypeKind::SymInt},
    {"bool", TypeKind::Bool},
    {"Capsule", TypeKind::Capsule},
    {"Any", TypeKind::Any},
    {"AnyClassType", TypeKind::AnyClassType},
    {"AnyEnumType", TypeKind::AnyEnumType},
};

// How libtorch's parser sees a type when reading its default.
TypeKind default_kind(const SchemaType& type) {
  return type.isIntLike() ? TypeKind::Int : type.kind();
}

class SchemaParser {
 public:
  explicit SchemaParser(std::string_view text) : L(text) {}

  std::variant<OperatorName, FunctionSchema> parseExactlyOneDeclaration() {
    auto result = parseDeclaration();
    L.nextIf(impl::TK_NEWLINE);
    L.expect(impl::TK_EOF);
    return result;
  }

 private:
  std::variant<OperatorName, FunctionSchema> parseDeclaration() {
    OperatorName name = parseName();
    if (L.cur().kind != '(') return name;

    std::vector<Argument> arguments;
    std::vector<Argument> returns;
    bool kwarg_only = false;
    bool is_vararg = false;
    bool is_varret = false;
    parseList('(', ',', ')', [&] {
      if (is_vararg) L.report(L.cur(), "... must be the last element of the argument list");
      if (L.nextIf('*')) {
        kwarg_only = true;
      } else if (L.nextIf(impl::TK_DOTS)) {
        is_vararg = true;
      } else {
        arguments.push_back(parseArgument(/*is_return=*/false, kwarg_only));
      }
    });
    if (is_vararg) {
      for (const auto& arg : arguments) {
        if (arg.default_value()) {
          L.report(L.cur(), "schemas with vararg (...) can't have default value args");
        }
      }
    }

    L.expect(impl::TK_ARROW);
    if (L.nextIf(impl::TK_DOTS)) {
      is_varret = true;
    } else if (L.cur().kind == '(') {
      parseList('(', ',', ')', [&] {
        if (is_varret) L.report(L.cur(), "... must be the last element of the return list");
        if (L.nextIf(impl::TK_DOTS)) {
          is_varret = true;
        } else {
          returns.push_back(parseArgument(/*is_return=*/true, /*kwarg_only=*/false));
        }
      });
    } else {
      returns.push_back(parseArgument(/*is_return=*/true, /*kwarg_only=*/false));
    }
    return FunctionSchema(std::move(name), std::move(arguments), std::move(returns), is_vararg,
                          is_varret);
  }

  OperatorName parseName() {
    std::string name = L.expect(impl::TK_IDENT).text();
    if (L.nextIf(':')) {
      L.expect(':');
      name += "::" + L.expect(impl::TK_IDENT).text();
    }
    std::string overload_name;
    if (L.nextIf('.')) overload_name = L.expect(impl::TK_IDENT).text();
    // `default` and dunder names are attributes of Python's OpOverloadPacket.
    TORCH_CHECK(overload_name != "default" && overload_name.rfind("__", 0) != 0, overload_name,
                " is not a legal overload name for aten operators");
    return OperatorName(std::move(name), std::move(overload_name));
  }

  Argument parseArgument(bool is_return, bool kwarg_only) {
    auto [type, alias_info] = parseType();
    c10::optional<int32_t> N;
    if (L.nextIf('[')) {
      // A fixed size can only be given at the top of an argument's type.
      type = SchemaType::list(std::move(type));
      const Token size = L.expect(impl::TK_NUMBER);
      const int64_t n = parseInteger(size);
      // See Note [How long a fixed-size list may be].
      if (n > std::numeric_limits<int32_t>::max()) L.report(size, "list size out of range");
      N = static_cast<int32_t>(n);
      L.expect(']');
      alias_info = wrapInContainer(std::move(alias_info), parseAliasAnnotation());
      if (L.nextIf('?')) type = SchemaType::optional(std::move(type));
    }
    std::string name;
    c10::optional<IValue> default_value;
    if (is_return) {
      if (L.cur().kind == impl::TK_IDENT) name = L.next().text();
    } else {
      name = L.expect(impl::TK_IDENT).text();
      if (L.nextIf('=')) default_value = parseDefaultValue(*type, N);
    }
    return Argument(std::move(name), std::move(type), N, std::move(default_value),
                    !is_return && kwarg_only, std::move(alias_info));
  }

  // ---- types ----

  // Note [How deep a type may nest]
  // parseType recurses once per nested `(`, `Future(`, `Dict(`: about 1,700 nested tuples
  // overflowed the stack under ASan (found by fuzz_schema; libtorch's parser recurses the same
  // way, unbounded). Real schemas nest a few levels, so past kMaxTypeDepth the text is refused.
  static constexpr int kMaxTypeDepth = 100;
  int type_depth_ = 0;

  std::pair<TypePtr, c10::optional<AliasInfo>> parseType() {
    struct DepthGuard {
      int& depth;
      explicit DepthGuard(int& d) : depth(++d) {}
      ~DepthGuard() { --depth; }
    } guard(type_depth_);
    if (type_depth_ > kMaxTypeDepth) {
      L.report(L.cur(), "types nest more than " + std::to_string(kMaxTypeDepth) + " levels deep");
    }
    TypePtr value;
    c10::optional<AliasInfo> alias_info;
    const Token tok = L.cur();
    const std::string text = tok.kind == impl::TK_IDENT ? tok.text() : std::string();
    if (tok.kind == '(') {
      // Aliases inside a tuple are dropped, as libtorch does.
      std::vector<TypePtr> elements;
      parseList('(', ',', ')', [&] { elements.push_back(parseType().first); });
      value = SchemaType::tuple(std::move(elements));
    } else if (text == "Future" || text == "RRef") {
      L.next();
      L.expect('(');
      TypePtr element = parseType().first;
      L.expect(')');
      value = text == "Future" ? SchemaType::future(element) : SchemaType::rref(element);
    } else if (text == "Tensor") {
      L.next();
      value = SchemaType::get(TypeKind::Tensor);
      alias_info = parseAliasAnnotation();
    } else if (text == "Dict") {
      L.next();
      L.expect('(');
      TypePtr key = parseType().first;
      L.expect(',');
      TypePtr val = parseType().first;
      L.expect(')');
      alias_info = parseAliasAnnotation();
      value = SchemaType::dict(std::move(key), std::move(val));
    } else if (text == "__torch__") {
      value = parseCustomClass();
    } else {
      value = parseBaseType();
      alias_info = parseAliasAnnotation();
    }
    while (true) {
      if (L.cur().kind == '[' && L.lookahead().kind == ']') {
        L.next();
        L.next();
        value = SchemaType::list(std::move(value));
        alias_info = wrapInContainer(std::move(alias_info), parseAliasAnnotation());
      } else if (L.nextIf('?')) {
        value = SchemaType::optional(std::move(value));
      } else {
        break;
      }
    }
    return {std::move(value), std::move(alias_info)};
  }

  TypePtr parseBaseType() {
    const Token tok = L.cur();
    if (L.nextIf(impl::TK_NONE) || L.nextIf(impl::TK_NONE_TYPE)) {
      return SchemaType::get(TypeKind::NoneType);
    }
    const std::string text = L.expect(impl::TK_IDENT).text();
    for (const auto& t : kBaseTypes) {
      if (text == t.name) return SchemaType::get(t.kind);
    }
    // Lower-case names that are not types are type variables (`t`, `tVal`).
    if (std::islower(static_cast<unsigned char>(text[0]))) return SchemaType::var(text);
    L.report(tok, "unknown type specifier");
  }

  TypePtr parseCustomClass() {
    L.next();  // __torch__
    L.expect('.');
    for (const char* expected : {"torch", "classes"}) {
      const Token tok = L.expect(impl::TK_IDENT);
      if (tok.text() != expected) {
        L.report(tok, "Expected classes namespace but got " + tok.text());
      }
      L.expect('.');
    }
    const std::string ns = L.expect(impl::TK_IDENT).text();
    L.expect('.');
    const Token cls = L.expect(impl::TK_IDENT);
    // Note [Custom classes must be registered]
    if (TypePtr type = c10::getCustomClass("__torch__.torch.classes." + ns + "." + cls.text())) {
      return type;
    }
    L.report(cls, "Unknown custom class type " + ns + "." + cls.text() +
                      ". Please ensure it is registered.");
  }

  // `(a)`, `(a!)`, `(a|b -> *)`, or `!` (a fresh set, written to); nullopt when absent.
  c10::optional<AliasInfo> parseAliasAnnotation() {
    AliasInfo info;
    if (L.nextIf('(')) {
      // After a wildcard further names are not consumed, so `(*|a)` fails at `a`.
      parseList(impl::TK_NOTHING, '|', impl::TK_NOTHING, [&] {
        if (L.nextIf('*')) {
          info.addBeforeSet(AliasInfo::wildcardSet());
        } else if (!info.isWildcardBefore()) {
          info.addBeforeSet(L.expect(impl::TK_IDENT).text());
        }
      });
      if (L.nextIf('!')) info.setIsWrite(true);
      if (L.nextIf(impl::TK_ARROW)) {
        parseList(impl::TK_NOTHING, '|', impl::TK_NOTHING, [&] {
          if (L.nextIf('*')) {
            info.addAfterSet(AliasInfo::wildcardSet());
          } else if (!info.isWildcardAfter()) {
            info.addAfterSet(L.expect(impl::TK_IDENT).text());
          }
        });
      } else {
        for (const auto& set : info.beforeSets()) info.addAfterSet(set);
      }
      L.expect(')');
    } else if (L.nextIf('!')) {
      // libtorch leaves the after-sets empty here, so this prints as `($0! -> )`.
      info.addBeforeSet("$" + std::to_string(next_fresh_set_++));
      info.setIsWrite(true);
    } else {
      return c10::nullopt;
    }
    return info;
  }

  // The alias info of `T[]` given that of T (`element`) and of the list (`container`): the
  // element's info moves inside, and an unannotated list inherits the element's `!`.
  static c10::optional<AliasInfo> wrapInContainer(c10::optional<AliasInfo> element,
                                                  c10::optional<AliasInfo> container) {
    if (!element) return container;
    if (!container) {
      container = AliasInfo();
      container->setIsWrite(element->isWrite());
    }
    container->addContainedType(std::move(*element));
    return container;
  }

  // ---- defaults ----

  // Note [How long a fixed-size list may be]
  // The N of `int[N]` is an int32 (Argument::N, as in libtorch, whose parser narrows the number
  // to int32 silently: int[4294967298] reads as int[2]); here a larger N is refused. A single
  // default value stands for N copies of it, which the parser materializes: `int[2000000000]
  // y=1` took gigabytes (found by fuzz_schema as an out-of-memory). Real schemas repeat a
  // default two or three times, so past kMaxRepeatedDefault copies the text is refused.
  static constexpr int32_t kMaxRepeatedDefault = 1 << 16;

  IValue parseDefaultValue(const SchemaType& type, c10::optional<int32_t> N) {
    const Token start = L.cur();
    switch (default_kind(type)) {
      case TypeKind::Tensor:
      case TypeKind::Generator:
      case TypeKind::Quantizer:
        L.expect(impl::TK_NONE);
        return IValue();
      case TypeKind::Str:
      case TypeKind::Optional:
      case TypeKind::Scalar:
      case TypeKind::Int:
      case TypeKind::Bool:
      case TypeKind::Float:
      case TypeKind::Complex:
        return parseSingleConstant(default_kind(type));
      case TypeKind::Device:
        return c10::Device(parseStringLiteral(L.expect(impl::TK_STRINGLITERAL)));
      case TypeKind::List: {
        const TypeKind element = default_kind(*type.getElementType());
        if (L.cur().kind == impl::TK_IDENT) L.expected(impl::kind_name(impl::TK_NONE), L.cur());
        if (N && L.cur().kind != '[') {
          // `int[2] stride=1` means [1, 1]. See Note [How long a fixed-size list may be].
          if (*N > kMaxRepeatedDefault) {
            L.report(L.cur(), "a single default for a list of " + std::to_string(*N) +
                                  " elements (at most " + std::to_string(kMaxRepeatedDefault) +
                                  " are expanded)");
          }
          IValue v = parseSingleConstant(element);
          return convertToList(element, start, std::vector<IValue>(*N, v));
        }
        const Token open = L.expect('[');
        std::vector<IValue> values;
        if (L.cur().kind != ']') {
          do {
            values.push_back(parseSingleConstant(element));
          } while (L.nextIf(','));
        }
        L.expect(']');
        return convertToList(element, open, std::move(values));
      }
      default:
        L.report(start, "unexpected type, file a bug report");
    }
  }

  IValue parseSingleConstant(TypeKind kind) {
    switch (L.cur().kind) {
      case impl::TK_TRUE:
        L.next();
        return true;
      case impl::TK_FALSE:
        L.next();
        return false;
      case impl::TK_NONE:
        L.next();
        return IValue();
      case impl::TK_STRINGLITERAL:
        return parseStringLiteral(L.next());
      case impl::TK_IDENT: {
        const std::string text = L.next().text();
        for (const auto& d : kNamedDefaults) {
          if (text == d.name) return d.value;
        }
        // libtorch points at the token after the name.
        L.report(L.cur(), "invalid numeric default value");
      }
      default: {
        const bool negative = L.nextIf('-');
        const Token tok = L.expect(impl::TK_NUMBER);
        const std::string n = (negative ? "-" : "") + tok.text();
        if (kind == TypeKind::Complex || n.find('j') != std::string::npos) {
          L.report(tok, "complex default values are not supported");
        }
        if (kind == TypeKind::Float || n.find('.') != std::string::npos ||
            n.find('e') != std::string::npos) {
          double d = 0;
          const auto res = std::from_chars(n.data(), n.data() + n.size(), d);
          if (res.ec != std::errc()) L.report(tok, "number out of range");
          return d;
        }
        return parseInteger(tok, negative);
      }
    }
  }

  // std::stoll's reading of a number token: its leading integer ("2.5" -> 2, "1E5" -> 1).
  int64_t parseInteger(const Token& tok, bool negative = false) {
    const std::string n = (negative ? "-" : "") + tok.text();
    int64_t v = 0;
    const auto res = std::from_chars(n.data(), n.data() + n.size(), v);
    if (res.ec != std::errc()) L.report(tok, "number out of range");
    return v;
  }

  IValue convertToList(TypeKind kind, const Token& at, const std::vector<IValue>& values) {
    switch (kind) {
      case TypeKind::Float: {
        std::vector<double> out;
        for (const auto& v : values) out.push_back(v.toDouble());
        return out;
      }
      case TypeKind::Int: {
        std::vector<int64_t> out;
        for (const auto& v : values) out.push_back(v.toInt());
        return out;
      }
      case TypeKind::Bool: {
        std::vector<bool> out;
        for (const auto& v : values) out.push_back(v.toBool());
        return out;
      }
      case TypeKind::Complex:
        L.report(at, "complex default values are not supported");
      default:
        L.report(at, "lists are only supported for float, int and complex types");
    }
  }

  // The value of a string token: quotes removed, Python escapes applied. libtorch rejects \x
  // and \u, with these texts.
  //
  // Note [A carriage return in a string default]
  // libtorch 1.13's parser has no case for `\r`: it falls into the octal case and fails
  // ("ill formed octal specifier"), yet its printer writes a carriage return as `\r`, so a
  // schema whose default holds one prints to text that no longer parses (found by fuzz_schema).
  // Here `\r` is the carriage return, as in Python.
  std::string parseStringLiteral(const Token& tok) {
    const std::string text = tok.text();
    const bool triple = text.size() >= 6 && text[1] == text[0] && text[2] == text[0];
    const size_t quote_len = triple ? 3 : 1;
    std::string str = text.substr(quote_len, text.size() - 2 * quote_len);
    for (size_t pos = str.find('\\'); pos != std::string::npos; pos = str.find('\\', pos + 1)) {
      const char escaped = pos + 1 < str.size() ? str[pos + 1] : '\0';
      char c = escaped;
      size_t to_erase = 2;
      switch (escaped) {
        case '\\':
        case '\'':
        case '"':
        case '\n':
          break;
        case 'a':
          c = '\a';
          break;
        case 'b':
          c = '\b';
          break;
        case 'f':
          c = '\f';
          break;
        case 'n':
          c = '\n';
          break;
        case 'v':
          c = '\v';
          break;
        case 't':
          c = '\t';
          break;
        case 'r':  // see Note [A carriage return in a string default]
          c = '\r';
          break;
        case 'x':
          L.report(tok, "unsupported hex specifier");
        case 'u':
        case 'U':
          L.report(tok, "unsupported unicode specifier");
        default:
          if (!parseOctal(str, pos, c)) L.report(tok, " ill formed octal specifier");
          to_erase = 4;
      }
      str.replace(pos, to_erase, 1, c);
    }
    return str;
  }

  // `\nnn` at str[pos] with n in 0-7 and a value below 256, as libtorch reads it.
  static bool parseOctal(const std::string& str, size_t pos, char& out) {
    if (pos + 3 >= str.size()) return false;
    int value = 0;
    for (size_t i = 1; i <= 3; ++i) {
      const char d = str[pos + i];
      if (d < '0' || d > '7') return false;
      value = value * 8 + (d - '0');
    }
    if (value >= 256) return false;
    out = static_cast<char>(value);
    return true;
  }

  template <typename F>
  void parseList(int begin, int sep, int end, const F& callback) {
    if (begin != impl::TK_NOTHING) L.expect(begin);
    if (L.cur().kind != end) {
      do {
        callback();
      } while (L.nextIf(sep));
    }
    if (end != impl::TK_NOTHING) L.expect(end);
  }

  impl::SchemaLexer L;
  size_t next_fresh_set_ = 0;  // names `$0`, `$1`, ... for `Tensor!`
};

}  // namespace

std::variant<OperatorName, FunctionSchema> parseSchemaOrName(std::string_view schemaOrName) {
  return SchemaParser(schemaOrName).parseExactlyOneDeclaration();
}

FunctionSchema parseSchema(std::string_view schema) {
  auto parsed = parseSchemaOrName(schema);
  TORCH_CHECK(std::holds_alternative<FunctionSchema>(parsed),
              "Tried to parse a function schema but only the operator name was given");
  return std::get<FunctionSchema>(std::move(parsed));
}

OperatorName parseName(std::string_view name) {
  auto parsed = parseSchemaOrName(name);
  TORCH_CHECK(std::holds_alternative<OperatorName>(parsed),
              "Tried to parse an operator name but function schema was given");
  return std::get<OperatorName>(std::move(parsed));
}

}  // namespace jit
}  // namespace torch
