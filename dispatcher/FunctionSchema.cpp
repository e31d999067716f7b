#include "dispatcher/FunctionSchema.h"

#include <algorithm>
#include <ostream>
#include <sstream>

namespace c10 {

// ---- AliasInfo ------------------------------------------------------------------------------

const std::string& AliasInfo::wildcardSet() {
  static const std::string wildcard = "*";
  return wildcard;
}

namespace {

void add_unique(std::vector<std::string>& sets, const std::string& set) {
  if (std::find(sets.begin(), sets.end(), set) == sets.end()) sets.push_back(set);
}

bool same_sets(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return a.size() == b.size() && std::is_permutation(a.begin(), a.end(), b.begin());
}

bool contains(const std::vector<std::string>& sets, const std::string& set) {
  return std::find(sets.begin(), sets.end(), set) != sets.end();
}

void print_sets(std::ostream& out, const std::vector<std::string>& sets) {
  for (size_t i = 0; i < sets.size(); ++i) out << (i > 0 ? "|" : "") << sets[i];
}

}  // namespace

void AliasInfo::addBeforeSet(const std::string& set) {
  add_unique(before_sets_, set);
}
void AliasInfo::addAfterSet(const std::string& set) {
  add_unique(after_sets_, set);
}

const std::string& AliasInfo::beforeSet() const {
  TORCH_CHECK(before_sets_.size() == 1, "Expected exactly one alias set before the call but got ",
              before_sets_.size());
  return before_sets_[0];
}
bool AliasInfo::isWildcardBefore() const {
  return contains(before_sets_, wildcardSet());
}
bool AliasInfo::isWildcardAfter() const {
  return contains(after_sets_, wildcardSet());
}

bool operator==(const AliasInfo& lhs, const AliasInfo& rhs) {
  return lhs.isWrite() == rhs.isWrite() && same_sets(lhs.beforeSets(), rhs.beforeSets()) &&
         same_sets(lhs.afterSets(), rhs.afterSets()) &&
         lhs.containedTypes() == rhs.containedTypes();
}

std::ostream& operator<<(std::ostream& out, const AliasInfo& info) {
  out << "(";
  print_sets(out, info.beforeSets());
  if (info.isWrite()) out << "!";
  if (!same_sets(info.beforeSets(), info.afterSets())) {
    out << " -> ";
    print_sets(out, info.afterSets());
  }
  return out << ")";
}

// ---- Argument -------------------------------------------------------------------------------

Argument::Argument(std::string name, TypePtr type, c10::optional<int32_t> N,
                   c10::optional<IValue> default_value, bool kwarg_only,
                   c10::optional<AliasInfo> alias_info)
    : name_(std::move(name)),
      type_(type ? std::move(type) : SchemaType::get(TypeKind::Tensor)),
      N_(N),
      default_value_(std::move(default_value)),
      alias_info_(std::move(alias_info)),
      kwarg_only_(kwarg_only),
      // libtorch's (softly enforced) definition of an out= argument.
      is_out_(kwarg_only && alias_info_ && alias_info_->isWrite()) {}

bool operator==(const Argument& lhs, const Argument& rhs) {
  const bool same_alias =
      (lhs.alias_info() == nullptr && rhs.alias_info() == nullptr) ||
      (lhs.alias_info() && rhs.alias_info() && *lhs.alias_info() == *rhs.alias_info());
  return lhs.name() == rhs.name() && *lhs.type() == *rhs.type() && lhs.N() == rhs.N() &&
         lhs.default_value() == rhs.default_value() && lhs.kwarg_only() == rhs.kwarg_only() &&
         same_alias;
}

namespace {

// c10::printQuotedString: double quotes, C escapes, octal for other unprintables.
void print_quoted_string(std::ostream& out, const std::string& str) {
  static constexpr std::pair<char, const char*> kEscapes[] = {
      {'\\', "\\\\"}, {'\'', "\\'"}, {'"', "\\\""}, {'\a', "\\a"}, {'\b', "\\b"},
      {'\f', "\\f"},  {'\n', "\\n"}, {'\r', "\\r"}, {'\t', "\\t"}, {'\v', "\\v"},
  };
  out << '"';
  for (char ch : str) {
    const auto* escape = std::find_if(std::begin(kEscapes), std::end(kEscapes),
                                      [&](const auto& e) { return e.first == ch; });
    const auto u = static_cast<unsigned char>(ch);
    if (escape != std::end(kEscapes)) {
      out << escape->second;
    } else if (u >= 0x20 && u < 0x7f) {
      out << ch;
    } else {
      out << '\\' << char('0' + (u >> 6)) << char('0' + ((u >> 3) & 7)) << char('0' + (u & 7));
    }
  }
  out << '"';
}

// Note [How a schema prints]
// Follows libtorch's operator<< for Argument and FunctionSchema so that the text round-trips:
//  - An argument is `Type(alias)? name=default`. The alias goes before `?` (`Tensor(a!)?`).
//    For a list, the element type prints first, then the element alias, then `[N]` or `[]`,
//    then the list's own alias: `Tensor(a!)[]`, `Tensor(a)[](b)`, `int[2]`.
//    libtorch unwraps one optional only and prints the rest of the type whole, alias after it:
//    `Tensor(a!)??` prints as `Tensor?(a!)?` and `Tensor(a)?[]` as `Tensor?(a)[]`, neither of
//    which its parser reads (found by fuzz_schema). Here every `?` and `[]` wrapper prints after
//    the alias of what it wraps, as the parser reads them.
//  - Defaults print as IValues (see IValue's operator<<), except: strings are quoted (whatever
//    the argument's type), and an `int[N]` default of N elements, all equal, prints as one of
//    them (`int[2] stride=1`).
//    libtorch 1.13 collapses any int list of equal elements, whatever its length: it prints
//    `int[1] y=[1, 1]` as `int[1] y=1`, which parses back as [1], and `int[] y=[1, 1]` as
//    `int[] y=1`, which does not parse at all (both found by fuzz_schema). Here a list
//    collapses only where the parser expands it back to the same list.
//    Enum defaults print as numbers, as libtorch stores them (`MemoryFormat? memory_format=0`).
//  - `*, ` precedes the first keyword-only argument; `...` ends a vararg list.
//  - Returns: one return (not varret) prints bare, named or not (`-> Tensor(a!) out`), unless
//    its text starts with `(`; anything else is parenthesised: `-> ()`, `-> (Tensor, Tensor)`.
//    A varret with no other returns is a bare `-> ...`.
void print_default(std::ostream& out, const Argument& arg) {
  const IValue& value = *arg.default_value();
  const SchemaType& type = *arg.type();
  // Any string value prints quoted. libtorch quotes only a str argument's, but its parser takes
  // a string default for any type (`int s="a"`), which it then prints bare and cannot read back
  // (found by fuzz_schema).
  if (value.isString()) {
    print_quoted_string(out, value.toStringRef());
    return;
  }
  if (type.isList() && type.getElementType()->kind() == TypeKind::Int && value.isIntList()) {
    const auto& ints = value.toIntListRef();
    if (ints.size() > 1 && arg.N() && ints.size() == static_cast<size_t>(*arg.N()) &&
        std::all_of(ints.begin(), ints.end(), [&](int64_t i) { return i == ints[0]; })) {
      out << ints[0];
      return;
    }
  }
  out << value;
}

// The type of an argument with its alias annotations where the parser reads them: right after
// the element type they annotate, before the `?` and `[]` that wrap it (Note [How a schema
// prints]). `N` is the fixed size of the outermost list.
void print_type_with_alias(std::ostream& out, const SchemaType& type, const AliasInfo* alias,
                           c10::optional<int32_t> N) {
  if (type.isOptional()) {
    print_type_with_alias(out, *type.getElementType(), alias, N);
    out << "?";
    return;
  }
  if (type.isList()) {
    const AliasInfo* element =
        alias && !alias->containedTypes().empty() ? &alias->containedTypes()[0] : nullptr;
    print_type_with_alias(out, *type.getElementType(), element, c10::nullopt);
    out << "[";
    if (N) out << *N;
    out << "]";
  } else {
    out << type.str();
  }
  if (alias && !alias->beforeSets().empty()) out << *alias;
}

}  // namespace

std::ostream& operator<<(std::ostream& out, const Argument& arg) {
  print_type_with_alias(out, *arg.type(), arg.alias_info(), arg.N());
  if (!arg.name().empty()) out << " " << arg.name();
  if (arg.default_value()) {
    out << "=";
    print_default(out, arg);
  }
  return out;
}

// ---- FunctionSchema -------------------------------------------------------------------------

FunctionSchema::FunctionSchema(std::string name, std::string overload_name,
                               std::vector<Argument> arguments, std::vector<Argument> returns,
                               bool is_vararg, bool is_varret)
    : FunctionSchema(OperatorName(std::move(name), std::move(overload_name)), std::move(arguments),
                     std::move(returns), is_vararg, is_varret) {}

FunctionSchema::FunctionSchema(OperatorName name, std::vector<Argument> arguments,
                               std::vector<Argument> returns, bool is_vararg, bool is_varret)
    : name_(std::move(name)),
      arguments_(std::move(arguments)),
      returns_(std::move(returns)),
      is_vararg_(is_vararg),
      is_varret_(is_varret) {
  checkSchema();
}

void FunctionSchema::checkSchema() const {
  bool seen_default = false;
  for (const auto& arg : arguments_) {
    if (arg.default_value()) {
      seen_default = true;
    } else if (!arg.type()->isList()) {
      // Lists are exempt: old serialized schemas have broadcasting lists without defaults.
      TORCH_CHECK(!seen_default || arg.kwarg_only(),
                  "Non-default positional argument follows default argument. Parameter ",
                  arg.name(), " in ", *this);
    }
  }
}

bool FunctionSchema::is_mutable() const {
  return std::any_of(arguments_.begin(), arguments_.end(), [](const Argument& arg) {
    return arg.alias_info() && arg.alias_info()->isWrite();
  });
}

c10::optional<int> FunctionSchema::argumentIndexWithName(c10::string_view name) const {
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (arguments_[i].name() == name) return static_cast<int>(i);
  }
  return c10::nullopt;
}

bool operator==(const FunctionSchema& lhs, const FunctionSchema& rhs) {
  return lhs.operator_name() == rhs.operator_name() && lhs.arguments() == rhs.arguments() &&
         lhs.returns() == rhs.returns() && lhs.is_vararg() == rhs.is_vararg() &&
         lhs.is_varret() == rhs.is_varret();
}

std::ostream& operator<<(std::ostream& out, const FunctionSchema& schema) {
  out << schema.operator_name() << "(";
  bool seen_kwarg_only = false;
  const auto& args = schema.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out << ", ";
    if (args[i].kwarg_only() && !seen_kwarg_only) {
      out << "*, ";
      seen_kwarg_only = true;
    }
    out << args[i];
  }
  if (schema.is_vararg()) out << (args.empty() ? "" : ", ") << "...";
  out << ") -> ";

  // See Note [How a schema prints].
  const auto& returns = schema.returns();
  bool need_paren =
      !((returns.size() == 1 && !schema.is_varret()) || (returns.empty() && schema.is_varret()));
  std::vector<std::string> texts;
  for (const auto& ret : returns) {
    std::ostringstream ss;
    ss << ret;
    texts.push_back(ss.str());
  }
  if (returns.size() == 1 && !schema.is_varret() && texts[0].front() == '(') need_paren = true;

  if (need_paren) out << "(";
  for (size_t i = 0; i < texts.size(); ++i) out << (i > 0 ? ", " : "") << texts[i];
  if (schema.is_varret()) out << (returns.empty() ? "" : ", ") << "...";
  if (need_paren) out << ")";
  return out;
}

std::string toString(const FunctionSchema& schema) {
  std::ostringstream ss;
  ss << schema;
  return ss.str();
}

}  // namespace c10
