#include "dispatcher/InferSchema.h"

#include "dispatcher/FunctionSchema.h"

namespace c10 {

namespace {

std::string joined(const std::vector<std::string>& types, bool named) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) {
    s += (i ? ", " : "") + types[i];
    if (named) s += " _" + std::to_string(i);
  }
  return s;
}

// The schema's spelling of a type, reduced to what a C++ type can tell apart: SymInt is int,
// and a list's fixed size is dropped (bool[3] is bool[], as libtorch compares them).
std::string normalized(const Argument& arg) {
  std::string s = arg.type() ? arg.type()->str() : "Tensor";
  for (size_t pos; (pos = s.find("SymInt")) != std::string::npos;) s.replace(pos, 6, "int");
  for (size_t open = s.find('['); open != std::string::npos; open = s.find('[', open + 1)) {
    size_t close = s.find(']', open);
    if (close != std::string::npos && close > open + 1) s.erase(open + 1, close - open - 1);
  }
  return s;
}

}  // namespace

std::string InferredSignature::str() const {
  std::string rets = joined(returns, /*named=*/true);
  if (returns.size() != 1) rets = "(" + rets + ")";
  return "(" + joined(arguments, /*named=*/true) + ") -> " + rets;
}

std::string InferredSignature::schema_text(const std::string& name) const {
  return name + str();
}

std::string InferredSignature::mismatch_reason(const FunctionSchema& schema) const {
  const auto& args = schema.arguments();
  const auto& rets = schema.returns();
  if (args.size() != arguments.size()) {
    return "The number of arguments is different. " + std::to_string(args.size()) + " vs " +
           std::to_string(arguments.size()) + ".";
  }
  if (rets.size() != returns.size()) {
    return "The number of returns is different. " + std::to_string(rets.size()) + " vs " +
           std::to_string(returns.size()) + ".";
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (normalized(args[i]) != arguments[i]) {
      return "Type mismatch in argument " + std::to_string(i + 1) + ": " + normalized(args[i]) +
             " vs " + arguments[i];
    }
  }
  for (size_t i = 0; i < rets.size(); ++i) {
    if (normalized(rets[i]) != returns[i]) {
      return "Type mismatch in return " + std::to_string(i + 1) + ": " + normalized(rets[i]) +
             " vs " + returns[i];
    }
  }
  return "";
}

}  // namespace c10
