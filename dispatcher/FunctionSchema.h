#pragma once
// FunctionSchema: an operator's signature — name, arguments, returns, aliasing — and its
// canonical text, which is exactly what libtorch prints.
//
//   c10::FunctionSchema s = torch::jit::parseSchema(
//       "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out)"
//       " -> Tensor(a!)");
//   s.operator_name();                   // aten::add.out
//   s.arguments()[2].kwarg_only();       // true
//   s.arguments()[3].is_out();           // true: kwarg-only and written to
//   s.arguments()[2].default_value();    // IValue(1)
//   c10::toString(s);                    // the text above, unchanged
//
// Build one with torch::jit::parseSchema (dispatcher/SchemaParser.h) or field by field.

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "c10/util/Optional.h"
#include "c10/util/string_view.h"
#include "dispatcher/IValue.h"
#include "dispatcher/OperatorName.h"
#include "dispatcher/OperatorOptions.h"
#include "dispatcher/SchemaType.h"

namespace c10 {

// Note [Alias annotations]
// `Tensor(a)` puts the argument in alias set a: a return annotated (a) may be a view of it.
// `Tensor(a!)` also says the operator writes to it. `(a -> b|c)` gives the sets before and
// after the call; with no arrow they are the same. `*` is the wildcard set (may alias
// anything). On a list, `Tensor(a)[]` annotates the elements (containedTypes()[0]) while
// `Tensor[](a)` annotates the list itself. Sets are kept in the order written (libtorch keeps an
// unordered_set, so it may print `(b|a)` for `(a|b)`); equality ignores the order.
class C10_API AliasInfo {
 public:
  static const std::string& wildcardSet();

  void setIsWrite(bool is_write) { is_write_ = is_write; }
  bool isWrite() const { return is_write_; }

  // Adding a set twice keeps one copy.
  void addBeforeSet(const std::string& set);
  void addAfterSet(const std::string& set);
  const std::vector<std::string>& beforeSets() const { return before_sets_; }
  const std::vector<std::string>& afterSets() const { return after_sets_; }
  // The only before-set; TORCH_CHECKs there is exactly one.
  const std::string& beforeSet() const;
  bool isWildcardBefore() const;
  bool isWildcardAfter() const;

  void addContainedType(AliasInfo info) { contained_types_.push_back(std::move(info)); }
  const std::vector<AliasInfo>& containedTypes() const { return contained_types_; }

 private:
  std::vector<std::string> before_sets_;
  std::vector<std::string> after_sets_;
  std::vector<AliasInfo> contained_types_;
  bool is_write_ = false;
};

C10_API bool operator==(const AliasInfo& lhs, const AliasInfo& rhs);
inline bool operator!=(const AliasInfo& lhs, const AliasInfo& rhs) {
  return !(lhs == rhs);
}
// "(a)", "(a!)", "(a|b)", "(a -> *)".
C10_API std::ostream& operator<<(std::ostream& out, const AliasInfo& info);

class C10_API Argument {
 public:
  // A null type means Tensor, as in libtorch.
  Argument(std::string name = "", TypePtr type = nullptr, c10::optional<int32_t> N = c10::nullopt,
           c10::optional<IValue> default_value = c10::nullopt, bool kwarg_only = false,
           c10::optional<AliasInfo> alias_info = c10::nullopt);

  const std::string& name() const { return name_; }
  const TypePtr& type() const { return type_; }
  // libtorch distinguishes a JIT-facing type from this one; see
  // Note [Schema types are the real types].
  const TypePtr& real_type() const { return type_; }
  // The size of a fixed-size list (`int[2]` -> 2).
  c10::optional<int32_t> N() const { return N_; }
  const c10::optional<IValue>& default_value() const { return default_value_; }
  bool kwarg_only() const { return kwarg_only_; }
  const AliasInfo* alias_info() const { return alias_info_ ? &*alias_info_ : nullptr; }
  // An out= argument: keyword-only and written to.
  bool is_out() const { return is_out_; }

 private:
  std::string name_;
  TypePtr type_;
  c10::optional<int32_t> N_;
  c10::optional<IValue> default_value_;
  c10::optional<AliasInfo> alias_info_;
  bool kwarg_only_;
  bool is_out_;
};

C10_API bool operator==(const Argument& lhs, const Argument& rhs);
inline bool operator!=(const Argument& lhs, const Argument& rhs) {
  return !(lhs == rhs);
}
// "Tensor(a!) out", "int[2] stride=1", "str mode=\"linear\"": one argument as a schema spells it.
C10_API std::ostream& operator<<(std::ostream& out, const Argument& arg);

class C10_API FunctionSchema {
 public:
  // TORCH_CHECKs that no positional argument without a default follows one with a default
  // (lists are exempt, as in libtorch).
  FunctionSchema(std::string name, std::string overload_name, std::vector<Argument> arguments,
                 std::vector<Argument> returns, bool is_vararg = false, bool is_varret = false);
  FunctionSchema(OperatorName name, std::vector<Argument> arguments, std::vector<Argument> returns,
                 bool is_vararg = false, bool is_varret = false);

  const OperatorName& operator_name() const { return name_; }
  const std::string& name() const { return name_.name; }
  const std::string& overload_name() const { return name_.overload_name; }
  const std::vector<Argument>& arguments() const { return arguments_; }
  const std::vector<Argument>& returns() const { return returns_; }
  // `...` in the argument / return list.
  bool is_vararg() const { return is_vararg_; }
  bool is_varret() const { return is_varret_; }
  // Whether any argument is written to (has a `!` annotation).
  bool is_mutable() const;
  c10::optional<int> argumentIndexWithName(c10::string_view name) const;

  // See dispatcher/OperatorOptions.h. Not part of the schema's identity: == and printing
  // ignore it, as in libtorch.
  bool isDefaultAliasAnalysisKind() const { return !alias_kind_.has_value(); }
  AliasAnalysisKind aliasAnalysis() const {
    return alias_kind_.value_or(AliasAnalysisKind::CONSERVATIVE);
  }
  void setAliasAnalysis(AliasAnalysisKind kind) { alias_kind_ = kind; }

 private:
  void checkSchema() const;

  OperatorName name_;
  std::vector<Argument> arguments_;
  std::vector<Argument> returns_;
  bool is_vararg_;
  bool is_varret_;
  c10::optional<AliasAnalysisKind> alias_kind_;
};

C10_API bool operator==(const FunctionSchema& lhs, const FunctionSchema& rhs);
inline bool operator!=(const FunctionSchema& lhs, const FunctionSchema& rhs) {
  return !(lhs == rhs);
}
// The canonical text; see Note [How a schema prints] in FunctionSchema.cpp.
C10_API std::ostream& operator<<(std::ostream& out, const FunctionSchema& schema);
C10_API std::string toString(const FunctionSchema& schema);

}  // namespace c10
