#include "dispatcher/Library.h"

#include "dispatcher/SchemaParser.h"

#include <cstring>

namespace torch {

namespace {
// "RegisterCPU.cpp" rather than the whole build path: the trace and the dumps stay readable.
const char* file_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}
}  // namespace


CppFunction::CppFunction(c10::KernelFunction func,
                         c10::optional<c10::impl::CppSignature> cpp_signature,
                         std::unique_ptr<c10::InferredSignature> schema)
    : func_(std::move(func)), cpp_signature_(cpp_signature), schema_(std::move(schema)) {}

CppFunction::~CppFunction() = default;

CppFunction CppFunction::makeFallthrough() {
  return CppFunction(c10::KernelFunction::makeFallthrough(), c10::nullopt, nullptr);
}

Library::Library(Kind kind, std::string ns, c10::optional<c10::DispatchKey> k, const char* file,
                 uint32_t line)
    : kind_(kind),
      ns_(ns == "_" ? c10::nullopt : c10::make_optional(ns)),
      dispatch_key_(k.has_value() && *k == c10::DispatchKey::CatchAll ? c10::nullopt : k),
      file_(file),
      line_(line) {
  if (kind_ == DEF) {
    TORCH_CHECK(ns_.has_value(), "TORCH_LIBRARY needs a namespace; `_` is for TORCH_LIBRARY_IMPL");
    registrars_.emplace_back(c10::Dispatcher::singleton().registerLibrary(
        *ns_, c10::str("registered at ", file_name(file_), ":", line_)));
  }
}

Library::~Library() {
  // Undo registrations newest first, so kernels go before the schemas they implement.
  while (!registrars_.empty()) registrars_.pop_back();
}

// libtorch's "registered at File.cpp:12"; a kernel whose name is known is named before it, the
// place in parentheses ("wrapper_CPU__add_Tensor (registered at RegisterCPU.cpp:35)").
std::string Library::debugString(const std::string& name) const {
  if (name.empty()) return c10::str("registered at ", file_name(file_), ":", line_);
  return c10::str(name, " (registered at ", file_name(file_), ":", line_, ")");
}

const std::string& Library::classNamespace(const std::string& className) const {
  TORCH_CHECK(kind_ == DEF || kind_ == FRAGMENT, "class_(\"", className,
              "\"): Cannot define a class inside of a TORCH_LIBRARY_IMPL block.  All class_()s "
              "should be placed in the (unique) TORCH_LIBRARY block for their namespace.  (Error "
              "occurred at ",
              file_, ":", line_, ")");
  TORCH_CHECK(ns_.has_value(), "class_(\"", className, "\"): a library with no namespace (_)");
  return *ns_;
}

namespace detail {

void checkValidIdent(const std::string& str, const char* type) {
  for (size_t i = 0; i < str.size(); ++i) {
    const char c = str[i];
    const bool valid = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       (i > 0 && c >= '0' && c <= '9');
    TORCH_CHECK(valid, type, " must be a valid Python/C++ identifier. Character '", c,
                "' at index ", i, " is illegal.");
  }
}

}  // namespace detail

// Puts the block's namespace on an unqualified name; a different explicit one is an error.
std::string Library::withNamespace(std::string name, const char* what) const {
  const auto sep = name.find("::");
  if (sep == std::string::npos) {
    TORCH_CHECK(ns_.has_value(), "Cannot ", what, " an operator without a namespace (", name,
                ") in a library with no namespace (_)");
    return *ns_ + "::" + name;
  }
  if (ns_.has_value()) {
    const std::string explicit_ns = name.substr(0, sep);
    TORCH_CHECK(explicit_ns == *ns_, "Explicitly provided namespace (", explicit_ns,
                ") in operator name does not match namespace of enclosing ",
                kind_ == IMPL ? "TORCH_LIBRARY_IMPL" : "TORCH_LIBRARY", " block (", *ns_,
                ").  Move this definition to the ",
                kind_ == IMPL ? "TORCH_LIBRARY_IMPL" : "TORCH_LIBRARY",
                " block corresponding to this namespace (and consider deleting the namespace "
                "from your schema string.)  (Error occurred at ",
                file_, ":", line_, ")");
  }
  return name;
}

namespace {
// "name(...) -> ..." gets the block's namespace in front of its name.
std::string qualify_schema_text(const std::string& text, const c10::optional<std::string>& ns) {
  const auto paren = text.find('(');
  const auto sep = text.find("::");
  if (!ns.has_value() || (sep != std::string::npos && sep < paren)) return text;
  return *ns + "::" + text;
}
}  // namespace

Library& Library::_def(std::string schema_text) & {
  auto parsed = torch::jit::parseSchemaOrName(qualify_schema_text(schema_text, ns_));
  TORCH_CHECK(std::holds_alternative<c10::FunctionSchema>(parsed),
              "def() needs a schema (\"name(Tensor self) -> Tensor\"), or a function to infer "
              "one from; got only the name ",
              schema_text);
  auto& schema = std::get<c10::FunctionSchema>(parsed);
  schema.setAliasAnalysis(c10::AliasAnalysisKind::FROM_SCHEMA);  // as torch::schema(text)
  return _def(std::move(schema));
}

Library& Library::_def(c10::FunctionSchema&& schema) & {
  TORCH_CHECK(kind_ == DEF || kind_ == FRAGMENT,
              "Cannot define an operator inside of a TORCH_LIBRARY_IMPL block.  All def()s "
              "should be placed in the (unique) TORCH_LIBRARY block for their namespace.  ",
              "(Error occurred at ", file_, ":", line_, ")");
  const std::string qualified = withNamespace(schema.name(), "define");
  if (qualified != schema.name()) {
    c10::FunctionSchema renamed(qualified, schema.overload_name(), schema.arguments(),
                                schema.returns(), schema.is_vararg(), schema.is_varret());
    if (!schema.isDefaultAliasAnalysisKind()) renamed.setAliasAnalysis(schema.aliasAnalysis());
    schema = std::move(renamed);
  }
  registrars_.emplace_back(c10::Dispatcher::singleton().registerDef(
      std::move(schema), c10::str("registered at ", file_name(file_), ":", line_)));
  return *this;
}

Library& Library::_def(std::string name_or_schema, CppFunction&& f) & {
  auto parsed = torch::jit::parseSchemaOrName(qualify_schema_text(name_or_schema, ns_));
  std::string op_name;
  if (std::holds_alternative<c10::FunctionSchema>(parsed)) {
    auto& schema = std::get<c10::FunctionSchema>(parsed);
    schema.setAliasAnalysis(c10::AliasAnalysisKind::FROM_SCHEMA);
    op_name = schema.name() + (schema.overload_name().empty() ? "" : "." + schema.overload_name());
    _def(std::move(schema));
  } else {
    TORCH_CHECK(f.schema_, "def(name, fn) needs an unboxed fn to infer the schema of ",
                name_or_schema, " from");
    const auto& name = std::get<c10::OperatorName>(parsed);
    op_name = name.name + (name.overload_name.empty() ? "" : "." + name.overload_name);
    _def(torch::jit::parseSchema(f.schema_->schema_text(withNamespace(op_name, "define"))));
  }
  // The kernel of a def: CompositeImplicitAutograd unless fn names a key.
  const std::string qualified = withNamespace(op_name, "define");
  c10::OperatorName name = torch::jit::parseName(qualified);
  registrars_.emplace_back(c10::Dispatcher::singleton().registerImpl(
      std::move(name), f.dispatch_key_, std::move(f.func_), f.cpp_signature_, std::move(f.schema_),
      debugString(f.debug_)));
  return *this;
}

Library& Library::_impl(const std::string& name, CppFunction&& f) & {
  c10::OperatorName op_name = torch::jit::parseName(withNamespace(name, "implement"));
  const c10::optional<c10::DispatchKey> key = f.dispatch_key_ ? f.dispatch_key_ : dispatch_key_;
  registrars_.emplace_back(c10::Dispatcher::singleton().registerImpl(
      std::move(op_name), key, std::move(f.func_), f.cpp_signature_, std::move(f.schema_),
      debugString(f.debug_)));
  return *this;
}

Library& Library::_fallback(CppFunction&& f) & {
  TORCH_CHECK(kind_ == IMPL, "fallback() may only be called from a TORCH_LIBRARY_IMPL block "
                             "(Error occurred at ", file_, ":", line_, ")");
  const c10::optional<c10::DispatchKey> key = f.dispatch_key_ ? f.dispatch_key_ : dispatch_key_;
  TORCH_CHECK(key.has_value(), "Fallback for catch all kernel not supported; pass a dispatch key "
                               "(Error occurred at ", file_, ":", line_, ")");
  registrars_.emplace_back(c10::Dispatcher::singleton().registerFallback(
      *key, std::move(f.func_), debugString(f.debug_)));
  return *this;
}

}  // namespace torch
