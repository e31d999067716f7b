#pragma once
// AliasAnalysisKind: what TorchScript's alias analysis may assume about an operator. miniaten
// has no alias analysis of its own; it records the kind on the schema, as libtorch does, so
// that code setting or reading it (torch::schema(..., kind), RegisterOperators'
// aliasAnalysis(), FunctionSchema::aliasAnalysis()) behaves the same.
//
//   m.def(torch::schema("myop(Tensor self) -> Tensor", c10::AliasAnalysisKind::PURE_FUNCTION));

#include <cstdint>

namespace c10 {

enum class AliasAnalysisKind : uint8_t {
  INTERNAL_SPECIAL_CASE,
  CONSERVATIVE,  // assumes side effects; the default when nothing was said
  FROM_SCHEMA,   // trust the schema's alias annotations (what a schema string given to def() gets)
  PURE_FUNCTION,
};

constexpr const char* toString(AliasAnalysisKind kind) {
  switch (kind) {
    case AliasAnalysisKind::CONSERVATIVE:
      return "CONSERVATIVE";
    case AliasAnalysisKind::FROM_SCHEMA:
      return "FROM_SCHEMA";
    case AliasAnalysisKind::PURE_FUNCTION:
      return "PURE_FUNCTION";
    case AliasAnalysisKind::INTERNAL_SPECIAL_CASE:
      return "INTERNAL_SPECIAL_CASE";
  }
  return "UNKNOWN";
}

}  // namespace c10
