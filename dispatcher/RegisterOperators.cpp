#include "dispatcher/RegisterOperators.h"

#include <unordered_set>

#include "dispatcher/SchemaParser.h"

namespace c10 {

RegisterOperators::RegisterOperators() = default;
RegisterOperators::~RegisterOperators() = default;
RegisterOperators::RegisterOperators(RegisterOperators&&) noexcept = default;
RegisterOperators& RegisterOperators::operator=(RegisterOperators&&) noexcept = default;

// ---- Options --------------------------------------------------------------------------------

RegisterOperators::Options&& RegisterOperators::Options::schema(const std::string& schema_or_name) {
  TORCH_CHECK(!schema_or_name_.has_value(), "Tried to register operator ", schema_or_name,
              " but specified schema multiple times. You can only specify the schema once per "
              "operator registration.");
  schema_or_name_ = torch::jit::parseSchemaOrName(schema_or_name);
  return std::move(*this);
}

RegisterOperators::Options&& RegisterOperators::Options::schema(FunctionSchema&& schema) {
  TORCH_CHECK(!schema_or_name_.has_value(),
              "You can only specify the schema once per operator registration.");
  schema_or_name_ = std::move(schema);
  return std::move(*this);
}

RegisterOperators::Options&& RegisterOperators::Options::aliasAnalysis(AliasAnalysisKind kind) && {
  TORCH_CHECK(!alias_analysis_kind_.has_value(),
              "You can only call aliasAnalysis() once per operator registration.");
  alias_analysis_kind_ = kind;
  return std::move(*this);
}

RegisterOperators::Options&& RegisterOperators::Options::addKernel_(
    c10::optional<DispatchKey> dispatch_key, KernelFunction&& func,
    c10::optional<impl::CppSignature> cpp_signature,
    std::unique_ptr<InferredSignature> inferred_signature) && {
  kernels_.push_back(KernelRegistrationConfig{dispatch_key, std::move(func), cpp_signature,
                                              std::move(inferred_signature)});
  return std::move(*this);
}

// ---- Registration ---------------------------------------------------------------------------

void RegisterOperators::checkSchemaAndRegisterOp_(Options&& options) {
  TORCH_CHECK(options.schema_or_name_.has_value(),
              "In operator registration: Tried to register an operator without specifying a "
              "schema or operator name.");
  if (auto* name = std::get_if<OperatorName>(&*options.schema_or_name_)) {
    // Only a name: the schema comes from the kernels. An inferred schema has no alias
    // annotations, so FROM_SCHEMA would promise what it cannot hold.
    FunctionSchema inferred = inferSchemaFromKernels_(*name, options);
    options.schema_or_name_ = std::move(inferred);
    TORCH_CHECK(options.alias_analysis_kind_ != AliasAnalysisKind::FROM_SCHEMA,
                "In operator registration: Tried to register operator ",
                std::get<FunctionSchema>(*options.schema_or_name_),
                " with AliasAnalysisKind::FROM_SCHEMA, but the schema is inferred.");
  }
  checkNoDuplicateKernels_(options);
  registerOp_(std::move(options));
}

FunctionSchema RegisterOperators::inferSchemaFromKernels_(const OperatorName& op_name,
                                                          const Options& options) {
  TORCH_CHECK(!options.kernels_.empty(),
              "Cannot infer operator schema in registration of operator ", op_name,
              " because there is no kernel specified.");
  for (const auto& kernel : options.kernels_) {
    if (kernel.inferred_signature) {
      const std::string overload = op_name.overload_name.empty() ? "" : "." + op_name.overload_name;
      return torch::jit::parseSchema(
          kernel.inferred_signature->schema_text(op_name.name + overload));
    }
  }
  TORCH_CHECK(false, "Cannot infer operator schema for this kind of kernel in registration of ",
              "operator ", op_name,
              ". Please explicitly specify the operator schema or specify at least one kernel for "
              "which we can infer the schema.");
}

void RegisterOperators::checkNoDuplicateKernels_(const Options& options) {
  const auto& schema = std::get<FunctionSchema>(*options.schema_or_name_);
  std::unordered_set<DispatchKey> dispatch_keys;
  bool has_catchall_kernel = false;
  for (const auto& kernel : options.kernels_) {
    if (kernel.dispatch_key.has_value()) {
      TORCH_CHECK(dispatch_keys.count(*kernel.dispatch_key) == 0,
                  "In operator registration: Tried to register multiple kernels with same "
                  "dispatch key ",
                  *kernel.dispatch_key, " for operator schema ", toString(schema));
      dispatch_keys.insert(*kernel.dispatch_key);
    } else {
      TORCH_CHECK(!has_catchall_kernel,
                  "In operator registration: Tried to register multiple catch-all kernels for "
                  "operator schema ",
                  toString(schema));
      has_catchall_kernel = true;
    }
  }
}

void RegisterOperators::registerOp_(Options&& options) {
  FunctionSchema schema = std::get<FunctionSchema>(std::move(*options.schema_or_name_));
  if (options.alias_analysis_kind_.has_value()) {
    schema.setAliasAnalysis(*options.alias_analysis_kind_);
  }
  const OperatorName op_name = schema.operator_name();
  registrars_.emplace_back(
      Dispatcher::singleton().registerDef(std::move(schema), "registered by RegisterOperators"));
  for (auto& kernel : options.kernels_) {
    registrars_.emplace_back(Dispatcher::singleton().registerImpl(
        op_name, kernel.dispatch_key, std::move(kernel.func), kernel.cpp_signature,
        std::move(kernel.inferred_signature), "registered by RegisterOperators"));
  }
}

}  // namespace c10
