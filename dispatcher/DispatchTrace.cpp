#include "dispatcher/DispatchTrace.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "dispatcher/Dispatcher.h"

namespace c10 {
namespace impl {

namespace {
bool trace_requested_by_env() {
  const char* v = std::getenv("MINIATEN_TRACE");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

thread_local int tls_trace_depth = 0;

std::mutex& listener_mutex() {
  static std::mutex m;
  return m;
}
std::function<void(const std::string&)>& listener() {
  static std::function<void(const std::string&)> l;
  return l;
}
// The trace goes to stderr, as libtorch's dispatch trace (TORCH_SHOW_DISPATCH_TRACE) does: stdout
// is the traced program's own.
spdlog::logger& trace_logger() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto l = std::make_shared<spdlog::logger>("miniaten.trace",
                                              std::make_shared<spdlog::sinks::stderr_sink_mt>());
    l->set_pattern("%v");
    return l;
  }();
  return *logger;
}
}  // namespace

bool g_dispatch_trace_env = trace_requested_by_env();
std::atomic<int> g_dispatch_trace_requests{g_dispatch_trace_env ? 1 : 0};
C10_TLS_FAST __thread int tls_dispatch_trace_guards = 0;

void trace_log(const std::string& line) {
  const std::string indented = std::string(2 * static_cast<size_t>(tls_trace_depth), ' ') + line;
  std::lock_guard<std::mutex> lock(listener_mutex());
  if (listener()) {
    listener()(indented);
  } else {
    trace_logger().info(indented);
    trace_logger().flush();
  }
}

std::string trace_describe(const at::Tensor& t) {
  if (!t.defined()) return "undefined";
  std::ostringstream ss;
  ss << c10::toString(t.scalar_type()) << t.sizes();
  if (!t.is_contiguous()) ss << " strides=" << t.strides();
  if (t.storage_offset() != 0) ss << " offset=" << t.storage_offset();
  return ss.str();
}

std::string trace_describe(const IValue& v) {
  if (v.isTensor()) return trace_describe(v.toTensor());
  std::ostringstream ss;
  ss << v;
  return ss.str();
}

std::string trace_kernel_line(const OperatorEntry& entry, DispatchKeySet ks) {
  const DispatchKey key = ks.highestPriorityTypeId();
  const DispatchTableEntry& e = entry.tableEntry(key);
  return str(key, ": ", e.debug, " [", e.provenance, "]");
}

TraceScope::TraceScope(const OperatorName& op, bool redispatch, DispatchKeySet ks,
                       const std::string& args, const std::string& kernel_line) {
  trace_log(str(redispatch ? "redispatch " : "", op, "(", args, ")  ", ks, " -> ", kernel_line));
  ++tls_trace_depth;
}

TraceScope::~TraceScope() { --tls_trace_depth; }

}  // namespace impl

void DispatchTrace::set_listener(std::function<void(const std::string&)> l) {
  std::lock_guard<std::mutex> lock(impl::listener_mutex());
  impl::listener() = std::move(l);
}

}  // namespace c10
