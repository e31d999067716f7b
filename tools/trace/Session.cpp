#include "tools/trace/Session.h"

#include <algorithm>
#include <functional>
#include <sstream>

#include "aten/ATen.h"

namespace miniaten_trace {

namespace {

// Sends the dispatcher's trace lines to the session's stream for as long as it lives.
class TraceToStream {
 public:
  explicit TraceToStream(std::ostream& out) {
    c10::DispatchTrace::set_listener(
        [&out](const std::string& line) { out << "  " << line << "\n"; });
  }
  ~TraceToStream() { c10::DispatchTrace::set_listener(nullptr); }

 private:
  c10::DispatchTraceGuard guard_;
};

std::string tensor_text(const at::Tensor& t) {
  std::ostringstream ss;
  if (!t.defined()) return "undefined";
  ss << t.scalar_type() << " sizes=" << t.sizes() << " strides=" << t.strides()
     << " offset=" << t.storage_offset();
  if (t.device().type() != c10::kCPU) ss << " device=" << t.device();
  return ss.str();
}

}  // namespace

void Session::run(const Statement& st) {
  if (!record_page_ || !c10::TraceRecorder::recording()) {
    run_statement(st, nullptr);
    return;
  }
  at::trace::TracePageGroup group;
  group.text = st.text;
  try {
    run_statement(st, &group);
  } catch (const std::exception& e) {
    if (group.calls.roots.empty()) group.calls = c10::TraceRecorder::take();
    group.error = error_text(e);
    page_groups_.push_back(std::move(group));
    throw;
  }
  page_groups_.push_back(std::move(group));
}

void Session::run_statement(const Statement& st, at::trace::TracePageGroup* group) {
  Call call = st.call;
  // `y.contiguous()` is contiguous(y) when y is a variable; otherwise the dot names an
  // overload (`add.Tensor`).
  const size_t dot = call.callee.find('.');
  if (call.callee.find("::") == std::string::npos && dot != std::string::npos &&
      vars_.count(call.callee.substr(0, dot))) {
    Arg self;
    self.value.kind = Value::Kind::Name;
    self.value.text = call.callee.substr(0, dot);
    call.args.insert(call.args.begin(), self);
    call.callee = call.callee.substr(dot + 1);
  }
  // requires_grad=True on a factory, as Python's torch.ones(..., requires_grad=True): not part
  // of the schema, applied to the result.
  bool requires_grad = false;
  const auto rg = std::find_if(call.args.begin(), call.args.end(),
                               [](const Arg& a) { return a.name == "requires_grad"; });
  if (rg != call.args.end()) {
    TORCH_CHECK(rg->value.kind == Value::Kind::Bool, "requires_grad must be True or False");
    requires_grad = rg->value.b;
    call.args.erase(rg);
  }

  Bound bound = resolve(call.callee, call.args, vars_);
  // The tensors the call was given by name (in lists too), to say what a result aliases.
  std::vector<std::pair<std::string, at::Tensor>> inputs;
  std::function<void(const Value&)> collect = [&](const Value& v) {
    for (const Value& item : v.items) collect(item);
    if (v.kind != Value::Kind::Name) return;
    auto it = vars_.find(v.text);
    if (it == vars_.end()) return;
    if (it->second.isTensor()) inputs.emplace_back(it->first, it->second.toTensor());
    if (it->second.isTensorList()) {
      for (const at::Tensor& t : it->second.toTensorVector()) inputs.emplace_back(it->first, t);
    }
  };
  for (const Arg& a : call.args) collect(a.value);

  out_ << ">>> " << st.text << "\n";
  // The page shows what the text trace shows: the call, not what binding it or marking its
  // result took.
  if (group != nullptr) c10::TraceRecorder::take();
  {
    TraceToStream trace(out_);
    bound.op.callBoxed(&bound.stack);
  }
  if (group != nullptr) group->calls = c10::TraceRecorder::take();
  if (requires_grad) {
    TORCH_CHECK(bound.stack.size() == 1 && bound.stack[0].isTensor(),
                "requires_grad=True needs a call that returns one tensor");
    bound.stack[0].toTensor().requires_grad_(true);
  }
  if (group != nullptr) c10::TraceRecorder::take();

  std::vector<std::string> names = st.targets;
  if (names.empty()) {
    for (size_t i = 0; i < bound.stack.size(); ++i) names.push_back("_" + std::to_string(i));
    if (names.size() == 1) names[0] = "_";
  }
  TORCH_CHECK(names.size() == bound.stack.size(), c10::toString(bound.op.schema()), " returns ",
              bound.stack.size(), " value", bound.stack.size() == 1 ? "" : "s", " but ",
              names.size(), " name", names.size() == 1 ? " is" : "s are", " given");
  for (size_t i = 0; i < names.size(); ++i) {
    if (!vars_.count(names[i])) order_.push_back(names[i]);
    vars_[names[i]] = bound.stack[i];
    describe_result(names[i], bound.stack[i], inputs, group);
  }
}

void Session::describe_result(const std::string& name, const c10::IValue& value,
                              const std::vector<std::pair<std::string, at::Tensor>>& inputs,
                              at::trace::TracePageGroup* group) {
  std::ostringstream line;
  // Each result is one line, printed and, on the page, kept with the tensor's snapshot.
  auto finish = [&](const at::Tensor* t) {
    out_ << line.str() << "\n";
    if (group == nullptr) return;
    at::trace::TracePageResult result;
    result.name = name;
    result.line = line.str();
    result.is_tensor = t != nullptr && t->defined();
    if (result.is_tensor) result.tensor = c10::TraceRecorder::snapshot(*t);
    group->results.push_back(std::move(result));
  };
  line << name << ": ";
  if (!value.isTensor()) {
    if (value.isTensorList()) {
      const auto tensors = value.toTensorVector();
      line << tensors.size() << " tensors";
      finish(nullptr);
      for (size_t i = 0; i < tensors.size(); ++i) {
        describe_result(name + "[" + std::to_string(i) + "]", tensors[i], inputs, group);
      }
      return;
    }
    line << value;
    finish(nullptr);
    return;
  }
  const at::Tensor& t = value.toTensor();
  line << tensor_text(t);
  if (t.defined()) {
    std::string same;  // which inputs share storage with the result
    for (const auto& [input_name, input] : inputs) {
      if (input.defined() && t.is_alias_of(input) &&
          same.find(" " + input_name + ",") == std::string::npos) {
        same += " " + input_name + ",";
      }
    }
    if (same.empty()) {
      line << ", new storage";
    } else {
      same.pop_back();
      const bool is_input = std::any_of(inputs.begin(), inputs.end(),
                                        [&](const auto& in) { return in.second.is_same(t); });
      line << (is_input ? ", the same tensor as" : ", aliases") << same;
    }
    if (t.requires_grad()) {
      line << ", requires_grad";
      if (t.grad_fn()) line << ", grad_fn=" << t.grad_fn()->name();
    }
  }
  finish(&t);
}

bool Session::run_script(const std::string& source, std::ostream& err) {
  std::vector<Statement> statements;
  try {
    statements = parse_script(source);
  } catch (const std::exception& e) {
    err << "miniaten_trace: " << error_text(e) << "\n";
    return false;
  }
  for (const Statement& st : statements) {
    try {
      run(st);
    } catch (const std::exception& e) {
      out_.flush();
      err << "miniaten_trace: in `" << st.text << "`:\n" << error_text(e) << "\n";
      return false;
    }
  }
  return true;
}

std::vector<std::pair<std::string, at::Tensor>> Session::named_tensors() const {
  std::vector<std::pair<std::string, at::Tensor>> tensors;
  for (const std::string& name : order_) {
    const c10::IValue& v = vars_.at(name);
    if (v.isTensor()) tensors.emplace_back(name, v.toTensor());
  }
  return tensors;
}

std::string error_text(const std::exception& e) {
  if (const auto* error = dynamic_cast<const c10::Error*>(&e)) {
    return error->what_without_backtrace();
  }
  return e.what();
}

std::string dispatch_tables(const std::string& op) {
  const std::vector<c10::OperatorHandle> ops = candidates(op);
  TORCH_CHECK(!ops.empty(), "unknown operator '", op,
              "': no operator of that name is registered (--ops lists them)");
  std::string text;
  for (const c10::OperatorHandle& handle : ops) {
    text += c10::toString(handle.schema()) + "\n";
    text += "  schema " + handle.debug() + "\n";
    std::istringstream table(handle.dumpComputedTable());
    for (std::string line; std::getline(table, line);) text += "  " + line + "\n";
  }
  return text;
}

std::string operator_list() {
  std::vector<std::string> schemas;
  c10::Dispatcher& dispatcher = c10::Dispatcher::singleton();
  for (const c10::OperatorName& name : dispatcher.getAllOpNames()) {
    if (auto op = dispatcher.findSchema(name)) schemas.push_back(c10::toString(op->schema()));
  }
  std::sort(schemas.begin(), schemas.end());
  std::string text;
  for (const std::string& s : schemas) text += s + "\n";
  return text;
}

}  // namespace miniaten_trace
