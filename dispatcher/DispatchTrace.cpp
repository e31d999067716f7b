#include "dispatcher/DispatchTrace.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <mutex>
#include <vector>

#include "dispatcher/Dispatcher.h"
#include "dispatcher/TraceRecord.h"

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

// The count is constant-initialized, before any file's dynamic initialization, so requests
// made at load time elsewhere (MINIATEN_TRACE_HTML's recording) are never overwritten.
std::atomic<int> g_dispatch_trace_requests{0};
bool g_dispatch_trace_env = [] {
  const bool on = trace_requested_by_env();
  if (on) g_dispatch_trace_requests.fetch_add(1, std::memory_order_relaxed);
  return on;
}();
std::atomic<bool> g_trace_events_recording{false};
C10_TLS_FAST __thread int tls_dispatch_trace_guards = 0;

namespace {

// Text lines are printed for MINIATEN_TRACE and the guards, not for event recording alone.
bool lines_wanted() {
  return g_dispatch_trace_env || tls_dispatch_trace_guards != 0;
}

void emit_line(const std::string& line) {
  const std::string indented = std::string(2 * static_cast<size_t>(tls_trace_depth), ' ') + line;
  std::lock_guard<std::mutex> lock(listener_mutex());
  if (listener()) {
    listener()(indented);
  } else {
    trace_logger().info(indented);
    trace_logger().flush();
  }
}

// ---- Chrome trace events (Note [Trace events for Perfetto]) ----------------------------------

struct EventStore {
  std::mutex mutex;
  std::vector<std::string> events;  // one JSON object each
  // When recording started, in steady_clock nanoseconds: read by every recorded call without
  // the lock, so atomic.
  std::atomic<int64_t> origin_ns{trace_steady_ns()};
};
EventStore& event_store() {
  static EventStore* store = new EventStore();  // never destroyed: written at exit
  return *store;
}

double now_us() {
  return static_cast<double>(trace_steady_ns() -
                             event_store().origin_ns.load(std::memory_order_relaxed)) /
         1000.0;
}

std::string json_number(double us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", us);
  return buf;
}

void record_event(std::string event) {
  EventStore& store = event_store();
  std::lock_guard<std::mutex> lock(store.mutex);
  if (g_trace_events_recording.load(std::memory_order_relaxed)) {
    store.events.push_back(std::move(event));
  }
}

std::string event_head(const std::string& name, const char* cat, const char* ph, double ts) {
  return str("{\"name\": ", json_string(name), ", \"cat\": \"", cat, "\", \"ph\": \"", ph,
             "\", \"pid\": 1, \"tid\": ", trace_thread_number(), ", \"ts\": ", json_number(ts));
}

// MINIATEN_TRACE_JSON=path: the whole run, written when the process exits.
// Read once at load: the program may change its environment before it exits.
const std::string& events_path_from_env() {
  static const std::string path = [] {
    const char* v = std::getenv("MINIATEN_TRACE_JSON");
    return std::string(v != nullptr ? v : "");
  }();
  return path;
}
[[maybe_unused]] const bool g_env_recording = [] {
  if (events_path_from_env().empty()) return false;
  DispatchTrace::start_events();
  std::atexit([] {
    try {
      DispatchTrace::write_events(events_path_from_env());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "MINIATEN_TRACE_JSON: %s\n", e.what());
    }
  });
  return true;
}();

}  // namespace

void trace_log(const std::string& line, const std::string& detail,
               const std::vector<at::Tensor>& tensors) {
  if (lines_wanted()) emit_line(line);
  if (g_trace_page_recording.load(std::memory_order_relaxed)) record_step(line, detail, tensors);
  if (g_trace_events_recording.load(std::memory_order_relaxed)) {
    const std::string name = line.substr(0, line.find(':'));
    record_event(event_head(name, "step", "i", now_us()) +
                 ", \"s\": \"t\", \"args\": {\"line\": " + json_string(line) + "}}");
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

// A boxed call holds a dtype, a layout or a memory format as a plain int; the schema says which,
// so the trace prints it as the typed path does ("Contiguous", not 0).
std::string trace_describe(const IValue& v, const TypePtr& type) {
  if (!v.isInt()) return trace_describe(v);
  // An int out of the enum's range prints as the int: the kernel will say what is wrong with
  // it, and a traced call must fail as an untraced one does.
  const int64_t i = v.toInt();
  auto in_range = [i](auto num_options) { return i >= 0 && i < static_cast<int64_t>(num_options); };
  std::ostringstream ss;
  switch ((type->isOptional() ? type->getElementType() : type)->kind()) {
    case TypeKind::ScalarType:
      if (in_range(ScalarType::NumOptions)) return toString(static_cast<ScalarType>(i));
      break;
    case TypeKind::MemoryFormat:
      if (in_range(MemoryFormat::NumOptions)) ss << static_cast<MemoryFormat>(i);
      break;
    case TypeKind::Layout:
      if (in_range(Layout::NumOptions)) ss << static_cast<Layout>(i);
      break;
    default:
      break;
  }
  return ss.tellp() > 0 ? ss.str() : trace_describe(v);
}

std::string trace_kernel_line(const OperatorEntry& entry, DispatchKeySet ks) {
  const DispatchKey key = ks.highestPriorityTypeId();
  const DispatchTableEntry& e = entry.tableEntry(key);
  return str(key, ": ", e.debug, " [", e.provenance, "]");
}

TraceScope::TraceScope(const OperatorName& op, bool redispatch, DispatchKeySet ks,
                       const std::string& args, const std::string& kernel_line) {
  if (lines_wanted()) {
    emit_line(str(redispatch ? "redispatch " : "", op, "(", args, ")  ", ks, " -> ", kernel_line));
  }
  if (g_trace_events_recording.load(std::memory_order_relaxed)) {
    start_us_ = now_us();
    event_ = event_head(toString(op), redispatch ? "redispatch" : "dispatch", "X", start_us_) +
             ", \"args\": {\"keys\": " + json_string(toString(ks)) +
             ", \"kernel\": " + json_string(kernel_line) + ", \"arguments\": " + json_string(args) +
             "}";
  }
  if (g_trace_page_recording.load(std::memory_order_relaxed)) {
    try {
      uncaught_ = std::uncaught_exceptions();
      node_ = record_call_begin(redispatch, toString(op), args, toString(ks), kernel_line);
      page_ = true;  // pushed: ~TraceScope pops it
    } catch (...) {
      // Out of memory while recording: the page loses the call, the program does not.
    }
  }
  ++tls_trace_depth;
}

// A snapshot that cannot be made (out of memory) is left out; the call goes on.
void TraceScope::record_inputs(const std::vector<at::Tensor>& tensors) {
  try {
    record_tensors(node_->inputs, tensors);
  } catch (...) {
  }
}

void TraceScope::record_outputs(const std::vector<at::Tensor>& tensors) {
  try {
    record_tensors(node_->outputs, tensors);
  } catch (...) {
  }
}

TraceScope::~TraceScope() {
  --tls_trace_depth;
  if (page_) {
    try {
      record_call_end(node_, std::uncaught_exceptions() > uncaught_);
    } catch (...) {
      // Out of memory while recording: the page loses the call, the program does not.
    }
  }
  if (start_us_ < 0) return;
  try {
    record_event(event_ + ", \"dur\": " + json_number(now_us() - start_us_) + "}");
  } catch (...) {
    // Out of memory while recording: the event is lost, the call is not.
  }
}

}  // namespace impl

void DispatchTrace::set_listener(std::function<void(const std::string&)> l) {
  std::lock_guard<std::mutex> lock(impl::listener_mutex());
  impl::listener() = std::move(l);
}

void DispatchTrace::start_events() {
  impl::EventStore& store = impl::event_store();
  std::lock_guard<std::mutex> lock(store.mutex);
  store.events.clear();
  store.origin_ns.store(impl::trace_steady_ns(), std::memory_order_relaxed);
  if (!impl::g_trace_events_recording.exchange(true)) {
    impl::g_dispatch_trace_requests.fetch_add(1, std::memory_order_relaxed);
  }
}

std::string DispatchTrace::stop_events() {
  impl::EventStore& store = impl::event_store();
  std::lock_guard<std::mutex> lock(store.mutex);
  if (impl::g_trace_events_recording.exchange(false)) {
    impl::g_dispatch_trace_requests.fetch_sub(1, std::memory_order_relaxed);
  }
  std::string json = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [";
  for (size_t i = 0; i < store.events.size(); ++i) {
    json += (i ? ",\n  " : "\n  ") + store.events[i];
  }
  json += "\n]}\n";
  store.events.clear();
  return json;
}

void DispatchTrace::write_events(const std::string& path) {
  const std::string json = stop_events();
  std::ofstream out(path);
  TORCH_CHECK(out.good(), "cannot open '", path, "' to write the trace events");
  out << json;
  TORCH_CHECK(out.good(), "writing the trace events to '", path, "' failed");
}

}  // namespace c10
