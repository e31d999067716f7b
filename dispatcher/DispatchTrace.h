#pragma once
// The dispatch trace: the learner's window onto the dispatcher. With MINIATEN_TRACE=1 in the
// environment, or a c10::DispatchTraceGuard alive on the thread, every call and redispatch logs
// one line to stderr (or to a listener), indented by depth:
//
//   aten::clone(float[3, 2] strides=[1, 3], None)
//     keys DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU) -> AutogradCPU
//     kernel: autograd::clone (registered at VariableType.cpp:40) [kernel]
//
// Off, it costs one load and one predictable branch per call (Note [One load when the trace is
// off]).
//
//   c10::DispatchTraceGuard guard;                          // trace this scope
//   c10::DispatchTrace::set_listener([](const std::string& line) { ... });  // capture lines
//
// The same calls can be recorded as Chrome trace events, nested by duration and openable in
// Perfetto (ui.perfetto.dev) or chrome://tracing: MINIATEN_TRACE_JSON=path in the environment
// records the whole run and writes the file at exit; in C++,
//
//   c10::DispatchTrace::start_events();
//   ...                                                      // calls to record
//   c10::DispatchTrace::write_events("trace.json");          // stops, writes the JSON
//
// Note [Trace events for Perfetto]
// Each call and redispatch is one complete event ("ph": "X") named by its operator, with its
// start and duration in microseconds and its key set, kernel and arguments as args; the lines
// other steps log (TensorIterator's decisions, the autograd node made) are instant events
// ("ph": "i") inside it. Events of one thread share a tid, so the viewer nests them by time as
// the text trace nests them by indentation. Recording does not print lines: it is a trace
// request of its own, beside MINIATEN_TRACE and the guards. There is one recording per process:
// a program run with MINIATEN_TRACE_JSON that calls start_events()/stop_events() itself ends the
// environment's recording there, and the file written at exit holds only what came after.

#include <atomic>
#include <functional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/core/DispatchKeySet.h"
#include "dispatcher/IValue.h"
#include "dispatcher/List.h"
#include "dispatcher/OperatorName.h"
#include "dispatcher/SchemaType.h"

namespace c10 {

struct TraceNode;  // TraceRecord.h

namespace impl {
extern C10_API bool g_dispatch_trace_env;       // MINIATEN_TRACE was set at load time
extern C10_API __thread int tls_dispatch_trace_guards C10_TLS_FAST;
// MINIATEN_TRACE (counts 1), event recording (counts 1) and the DispatchTraceGuards alive on
// all threads.
extern C10_API std::atomic<int> g_dispatch_trace_requests;
extern C10_API std::atomic<bool> g_trace_events_recording;
extern C10_API std::atomic<bool> g_trace_page_recording;  // TraceRecorder (TraceRecord.h)

// Note [One load when the trace is off]
// Every dispatch asks whether to trace. The answer depends on the environment and on this
// thread's guards, but almost always nobody traces at all: one process-wide count of trace
// requests answers that with a single load of a shared, never-written cache line, and only a
// nonzero count (someone, somewhere, traces) reads the thread-local guard count.
C10_ALWAYS_INLINE bool dispatch_trace_enabled() {
  if (C10_LIKELY(g_dispatch_trace_requests.load(std::memory_order_relaxed) == 0)) return false;
  return g_dispatch_trace_env || tls_dispatch_trace_guards != 0 ||
         g_trace_events_recording.load(std::memory_order_relaxed) ||
         g_trace_page_recording.load(std::memory_order_relaxed);
}

// Renders arguments for the trace: tensors as dtype, sizes and strides; the rest printed.
C10_API std::string trace_describe(const at::Tensor& t);
C10_API std::string trace_describe(const IValue& v);
// The same, reading an int as the dtype, layout or memory format `type` says it is.
C10_API std::string trace_describe(const IValue& v, const TypePtr& type);
template <class T, class = void>
struct is_printable : std::false_type {};
template <class T>
struct is_printable<T, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<const T&>())>>
    : std::true_type {};

template <class T>
std::string trace_describe(const T& x) {
  if constexpr (std::is_same<T, bool>::value) {
    return x ? "True" : "False";
  } else if constexpr (std::is_same<T, c10::optional<at::Tensor>>::value) {
    return x.has_value() ? trace_describe(*x) : std::string("None");
  } else if constexpr (std::is_same<T, at::ArrayRef<at::Tensor>>::value) {
    std::string s = "[";
    for (size_t i = 0; i < x.size(); ++i) s += (i ? ", " : "") + trace_describe(x[i]);
    return s + "]";
  } else if constexpr (is_printable<T>::value) {
    std::ostringstream ss;
    ss << x;
    return ss.str();
  } else {
    return "<?>";
  }
}
template <class T>
std::string trace_describe(const c10::optional<T>& x) {
  return x.has_value() ? trace_describe(*x) : std::string("None");
}

// The tensors among a call's arguments or results, for the page's record (TraceRecord.h).
inline void trace_collect(std::vector<at::Tensor>& out, const at::Tensor& t) {
  if (t.defined()) out.push_back(t);
}
template <class T>
void trace_collect(std::vector<at::Tensor>&, const T&) {}  // holds no tensor
template <class T>
void trace_collect(std::vector<at::Tensor>& out, const c10::optional<T>& x) {
  if (x.has_value()) trace_collect(out, *x);
}
template <class T>
void trace_collect(std::vector<at::Tensor>& out, const c10::ArrayRef<T>& xs) {
  for (const T& x : xs) trace_collect(out, x);
}
template <class T>
void trace_collect(std::vector<at::Tensor>& out, const std::vector<T>& xs) {
  for (const T& x : xs) trace_collect(out, x);
}
template <class T>
void trace_collect(std::vector<at::Tensor>& out, const c10::List<T>& xs) {
  for (size_t i = 0; i < xs.size(); ++i) trace_collect(out, static_cast<T>(xs.get(i)));
}
template <class... T>
void trace_collect(std::vector<at::Tensor>& out, const std::tuple<T...>& xs) {
  std::apply([&out](const auto&... x) { (trace_collect(out, x), ...); }, xs);
}

// Logs one call at the current depth and indents everything below it until destroyed; when
// events are recorded, records the call as one event lasting as long as the scope; when the
// page records, adds the call to its tree (with the tensors the caller hands it).
class C10_API TraceScope {
 public:
  TraceScope(const OperatorName& op, bool redispatch, DispatchKeySet ks, const std::string& args,
             const std::string& kernel_line);
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

  // Whether the page records this call: then the caller passes its tensors.
  bool records_tensors() const { return node_ != nullptr; }
  void record_inputs(const std::vector<at::Tensor>& tensors);
  void record_outputs(const std::vector<at::Tensor>& tensors);

 private:
  double start_us_ = -1;  // >= 0 when the call is being recorded as an event
  std::string event_;     // the event's JSON up to its duration
  bool page_ = false;     // the page was recording when the call began
  TraceNode* node_ = nullptr;  // the page's node for this call, while it is recorded
  int uncaught_ = 0;           // std::uncaught_exceptions() when the call began
};

C10_API void trace_log(const std::string& line, const std::string& detail = std::string(),
                       const std::vector<at::Tensor>& tensors = {});
}  // namespace impl

class C10_API DispatchTraceGuard {
 public:
  DispatchTraceGuard() {
    ++impl::tls_dispatch_trace_guards;
    impl::g_dispatch_trace_requests.fetch_add(1, std::memory_order_relaxed);
  }
  ~DispatchTraceGuard() {
    impl::g_dispatch_trace_requests.fetch_sub(1, std::memory_order_relaxed);
    --impl::tls_dispatch_trace_guards;
  }
  DispatchTraceGuard(const DispatchTraceGuard&) = delete;
  DispatchTraceGuard& operator=(const DispatchTraceGuard&) = delete;
};

struct C10_API DispatchTrace {
  // Receives every trace line (indentation included) instead of the spdlog logger; an empty
  // function restores the logger. Also used by non-dispatcher steps (TensorIterator).
  static void set_listener(std::function<void(const std::string&)> listener);
  // Logs a line at the current depth, if tracing (what TensorIterator and autograd use).
  static void log(const std::string& line) {
    if (impl::dispatch_trace_enabled()) impl::trace_log(line);
  }
  // The same line with its facts for the page: `detail` a JSON object, `tensors` what the step
  // worked on (TensorIterator's operands). Build them only when recording_page() says so.
  static void log(const std::string& line, const std::string& detail,
                  const std::vector<at::Tensor>& tensors) {
    if (impl::dispatch_trace_enabled()) impl::trace_log(line, detail, tensors);
  }
  static bool recording_page() {
    return impl::g_trace_page_recording.load(std::memory_order_relaxed);
  }
  static bool enabled() { return impl::dispatch_trace_enabled(); }

  // Chrome trace events (Note [Trace events for Perfetto]). start_events() clears what was
  // recorded and begins recording on all threads; stop_events() ends it and returns the JSON;
  // write_events() stops and writes the JSON to `path` (a c10::Error if it cannot).
  static void start_events();
  static std::string stop_events();
  static void write_events(const std::string& path);
  static bool recording_events() {
    return impl::g_trace_events_recording.load(std::memory_order_relaxed);
  }
};

}  // namespace c10
