#pragma once
// Parsing schema text, as libtorch's torch/csrc/jit/frontend/function_schema_parser.h does.
//
//   c10::FunctionSchema s = torch::jit::parseSchema(
//       "aten::max.dim(Tensor self, int dim, bool keepdim=False)"
//       " -> (Tensor values, Tensor indices)");
//   c10::OperatorName n = torch::jit::parseName("aten::add.out");
//   auto either = torch::jit::parseSchemaOrName("aten::relu");   // holds an OperatorName
//
// The grammar (full list of forms in Note [Schema grammar] in SchemaParser.cpp):
//   ns::name[.overload](arg, ..., *, kwarg, ...) -> ret | (ret, ...) | ... | ()
//   arg:  Type[(alias)][[N]][?] name[=default]        ret: Type[(alias)] [name]
// A malformed schema throws c10::Error with libtorch's message, quoting the schema and
// underlining the offending token (see Note [Schema error layout] in impl/SchemaLexer.cpp).

#include <string_view>
#include <variant>

#include "dispatcher/FunctionSchema.h"
#include "dispatcher/OperatorName.h"

namespace torch {
namespace jit {

// An operator name alone ("aten::add.out") or a whole schema. (libtorch returns c10::either.)
std::variant<c10::OperatorName, c10::FunctionSchema> parseSchemaOrName(
    std::string_view schemaOrName);
// Throws "Tried to parse a function schema but only the operator name was given".
c10::FunctionSchema parseSchema(std::string_view schema);
// Throws "Tried to parse an operator name but function schema was given".
c10::OperatorName parseName(std::string_view name);

}  // namespace jit
}  // namespace torch
