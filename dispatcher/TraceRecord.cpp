#include "dispatcher/TraceRecord.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "c10/core/StorageImpl.h"
#include "c10/util/BFloat16.h"
#include "c10/util/Half.h"
#include "dispatcher/DispatchTrace.h"

namespace c10 {
namespace impl {

std::atomic<bool> g_trace_page_recording{false};

int64_t trace_steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int trace_thread_number() {
  static std::atomic<int> next{1};
  thread_local const int n = next.fetch_add(1);
  return n;
}

namespace {

// See Note [What the page records].
struct Recorder {
  std::mutex mutex;
  TraceRecord record;  // roots ended since the last take()
  std::atomic<size_t> calls{0};
  std::atomic<int64_t> origin_ns{0};
  std::unordered_map<const StorageImpl*, std::pair<weak_intrusive_ptr<StorageImpl>, int64_t>>
      storages;
};
Recorder& recorder() {
  static Recorder* r = new Recorder();  // never destroyed: a page may be written at exit
  return *r;
}

double now_us() {
  return static_cast<double>(trace_steady_ns() -
                             recorder().origin_ns.load(std::memory_order_relaxed)) /
         1000.0;
}

// The calls open on this thread, outermost first; null where a call is not recorded. The
// outermost one is owned here until it ends.
thread_local std::vector<TraceNode*> tls_open;
thread_local std::unique_ptr<TraceNode> tls_root;

template <class T>
std::string number_text(T v) {
  std::ostringstream ss;
  ss << v;
  return ss.str();
}

std::string float_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// The storage's first cells, read as the tensor's dtype. Memory nobody wrote (an empty's result)
// prints whatever it holds, as printing the tensor would.
std::vector<std::string> cells_of(const at::Tensor& t, int64_t storage_size) {
  std::vector<std::string> cells;
  const c10::Storage& storage = t.storage();
  if (t.device().type() != DeviceType::CPU || storage.data() == nullptr) return cells;
  const int64_t n = std::min(storage_size, kTraceCells);
  const void* data = storage.data();
  auto read = [&](auto tag, auto format) {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(data);
    cells.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) cells.push_back(format(p[i]));
  };
  auto as_float = [](auto v) { return float_text(static_cast<double>(v)); };
  auto as_int = [](auto v) { return number_text(static_cast<int64_t>(v)); };
  switch (t.scalar_type()) {
    case ScalarType::Float:
      read(float(), as_float);
      break;
    case ScalarType::Double:
      read(double(), as_float);
      break;
    case ScalarType::Half:
      read(c10::Half(), as_float);
      break;
    case ScalarType::BFloat16:
      read(c10::BFloat16(), as_float);
      break;
    case ScalarType::Long:
      read(int64_t(), as_int);
      break;
    case ScalarType::Int:
      read(int32_t(), as_int);
      break;
    case ScalarType::Short:
      read(int16_t(), as_int);
      break;
    case ScalarType::Char:
      read(int8_t(), as_int);
      break;
    case ScalarType::Byte:
      read(uint8_t(), as_int);
      break;
    case ScalarType::Bool:
      read(uint8_t(), [](uint8_t v) { return std::string(v ? "True" : "False"); });
      break;
    default:
      break;
  }
  return cells;
}

int64_t storage_number(const c10::Storage& storage) {
  Recorder& r = recorder();
  const StorageImpl* impl = storage.unsafeGetStorageImpl();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.storages.find(impl);
  if (it != r.storages.end()) return it->second.second;
  const int64_t number = static_cast<int64_t>(r.storages.size()) + 1;
  r.storages.emplace(
      impl, std::make_pair(weak_intrusive_ptr<StorageImpl>(storage.getIntrusivePtr()), number));
  return number;
}

// Note [Recording never rebuilds a view's grad_fn]
// Tensor::grad_fn() is not a plain read: on a view written in place since its grad_fn was made
// it builds a fresh AsStridedBackward0 from the base's history (Note [Views and in-place]).
// Asked inside an in-place call, between the write and the autograd kernel's rebase of the
// history, it would build a node the rebase throws away at once, taking a sequence number (the
// engine's order) and moving the view's hooks twice. Recording must not change what it
// records, so a snapshot asks for grad_fn only where a user could: around an outermost call, or
// at the caller's request.
TraceTensor snapshot_of(const at::Tensor& t, bool read_grad_fn) {
  TraceTensor s;
  if (!t.defined()) return s;
  s.dtype = toString(t.scalar_type());
  s.sizes.assign(t.sizes().begin(), t.sizes().end());
  s.strides.assign(t.strides().begin(), t.strides().end());
  s.offset = t.storage_offset();
  std::ostringstream device;
  device << t.device();
  s.device = device.str();
  s.itemsize = static_cast<int64_t>(t.itemsize());
  s.contiguous = t.is_contiguous();
  s.channels_last = t.dim() == 4 && t.is_contiguous(MemoryFormat::ChannelsLast);
  s.non_overlapping_and_dense = t.is_non_overlapping_and_dense();
  s.requires_grad = t.requires_grad();
  if (read_grad_fn && s.requires_grad) {
    if (const auto& fn = t.grad_fn()) s.grad_fn_id = trace_id(fn.get());
  }
  s.impl_id = trace_id(t.unsafeGetTensorImpl());
  if (t.has_storage()) {
    s.storage = storage_number(t.storage());
    s.storage_size = s.itemsize > 0 ? static_cast<int64_t>(t.storage().nbytes()) / s.itemsize : 0;
    s.cells = cells_of(t, s.storage_size);
  }
  return s;
}

// Appends a node under the innermost open call, or as a root; null when it is not recorded.
TraceNode* new_node(TraceNode::Kind kind) {
  if (!tls_open.empty() && tls_open.back() == nullptr) return nullptr;  // inside a dropped call
  if (tls_open.empty()) {
    tls_root = std::make_unique<TraceNode>();
    tls_root->kind = kind;
    return tls_root.get();
  }
  TraceNode* parent = tls_open.back();
  parent->children.emplace_back();
  parent->children.back().kind = kind;
  return &parent->children.back();
}

void end_root() {
  Recorder& r = recorder();
  std::unique_ptr<TraceNode> root = std::move(tls_root);
  if (!root || !g_trace_page_recording.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(r.mutex);
  r.record.roots.push_back(std::move(*root));
}

}  // namespace

TraceNode* record_call_begin(bool redispatch, const std::string& op, const std::string& args,
                             const std::string& keys, const std::string& kernel_line) {
  Recorder& r = recorder();
  // An outermost call is kept while the recording holds fewer than kTraceMaxCalls calls; the
  // calls inside it are kept with it, so no tree is ever kept in part.
  const size_t before = r.calls.fetch_add(1, std::memory_order_relaxed);
  const bool keep = tls_open.empty() ? before < kTraceMaxCalls : tls_open.back() != nullptr;
  TraceNode* node = nullptr;
  if (keep) {
    node = new_node(redispatch ? TraceNode::Kind::Redispatch : TraceNode::Kind::Call);
  } else {
    std::lock_guard<std::mutex> lock(r.mutex);
    ++r.record.dropped;
  }
  tls_open.push_back(node);
  if (node == nullptr) return nullptr;
  node->thread = trace_thread_number();
  node->op = op;
  node->args = args;
  node->keys = keys;
  // kernel_line is trace_kernel_line's "KEY: kernel [why]".
  const size_t colon = kernel_line.find(": ");
  const size_t bracket = kernel_line.rfind(" [");
  node->key = kernel_line.substr(0, colon);
  if (colon != std::string::npos && bracket != std::string::npos && bracket > colon) {
    node->kernel = kernel_line.substr(colon + 2, bracket - colon - 2);
    node->why = kernel_line.substr(bracket + 2, kernel_line.size() - bracket - 3);
  }
  node->line =
      str(redispatch ? "redispatch " : "", op, "(", args, ")  ", keys, " -> ", kernel_line);
  node->start_us = now_us();
  return node;
}

void record_call_end(TraceNode* node, bool raised) {
  if (tls_open.empty()) return;  // the recording began inside this call
  tls_open.pop_back();
  if (node != nullptr) {
    node->dur_us = now_us() - node->start_us;
    node->raised = raised;
  }
  if (tls_open.empty()) end_root();
}

void record_tensors(std::vector<TraceTensor>& into, const std::vector<at::Tensor>& tensors) {
  // The call being recorded is open: alone on the stack, it is an outermost one.
  const bool outermost = tls_open.size() == 1;
  into.reserve(tensors.size());
  for (const at::Tensor& t : tensors) into.push_back(snapshot_of(t, outermost));
}

void record_step(const std::string& line, const std::string& detail,
                 const std::vector<at::Tensor>& tensors) {
  if (tls_open.empty() && recorder().calls.load(std::memory_order_relaxed) >= kTraceMaxCalls) {
    return;  // a step outside any call, past the limit
  }
  TraceNode* node = new_node(TraceNode::Kind::Step);
  if (node == nullptr) return;
  node->thread = trace_thread_number();
  node->line = line;
  node->detail = detail;
  node->start_us = now_us();
  for (const at::Tensor& t : tensors) node->inputs.push_back(snapshot_of(t, tls_open.empty()));
  if (tls_open.empty()) end_root();  // a step outside any call is a root of its own
}

}  // namespace impl

// ---- TraceRecorder --------------------------------------------------------------------------

void TraceRecorder::start() {
  impl::Recorder& r = impl::recorder();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    r.record = TraceRecord();
    r.storages.clear();
    r.calls.store(0, std::memory_order_relaxed);
    r.origin_ns.store(impl::trace_steady_ns(), std::memory_order_relaxed);
  }
  if (!impl::g_trace_page_recording.exchange(true)) {
    impl::g_dispatch_trace_requests.fetch_add(1, std::memory_order_relaxed);
  }
}

TraceRecord TraceRecorder::take() {
  impl::Recorder& r = impl::recorder();
  std::lock_guard<std::mutex> lock(r.mutex);
  TraceRecord taken = std::move(r.record);
  r.record = TraceRecord();
  // Roots of several threads end in any order; the page reads them by start.
  std::stable_sort(taken.roots.begin(), taken.roots.end(),
                   [](const TraceNode& a, const TraceNode& b) { return a.start_us < b.start_us; });
  return taken;
}

TraceRecord TraceRecorder::stop() {
  if (impl::g_trace_page_recording.exchange(false)) {
    impl::g_dispatch_trace_requests.fetch_sub(1, std::memory_order_relaxed);
  }
  TraceRecord record = take();
  std::lock_guard<std::mutex> lock(impl::recorder().mutex);
  impl::recorder().storages.clear();
  return record;
}

bool TraceRecorder::recording() {
  return impl::g_trace_page_recording.load(std::memory_order_relaxed);
}

TraceTensor TraceRecorder::snapshot(const at::Tensor& t) {
  return impl::snapshot_of(t, true);
}

// ---- JSON -----------------------------------------------------------------------------------

std::string trace_id(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%zx", reinterpret_cast<size_t>(p));
  return buf;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c < 0x20 || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else if (c == '<') {
        out += "\\u003c";  // the JSON sits in a <script>: "</script>" must not end it
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // A UTF-8 sequence passes whole; a byte that does not start a valid one is U+FFFD.
    const size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    bool valid = len > 0 && len <= 4 && i + len <= n;
    for (size_t k = 1; valid && k < len; ++k) {
      valid = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    }
    if (valid) {
      out.append(s, i, len);
      i += len;
    } else {
      out += "\\ufffd";
      ++i;
    }
  }
  return out + "\"";
}

namespace {

std::string json_ints(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

const char* json_bool(bool b) {
  return b ? "true" : "false";
}

std::string json_tensors(const std::vector<TraceTensor>& tensors) {
  std::string s = "[";
  for (size_t i = 0; i < tensors.size(); ++i) s += (i ? ", " : "") + to_json(tensors[i]);
  return s + "]";
}

}  // namespace

std::string to_json(const TraceTensor& t) {
  std::string cells = "[";
  for (size_t i = 0; i < t.cells.size(); ++i) cells += (i ? "," : "") + json_string(t.cells[i]);
  cells += "]";
  return str("{\"dtype\": ", json_string(t.dtype), ", \"sizes\": ", json_ints(t.sizes),
             ", \"strides\": ", json_ints(t.strides), ", \"offset\": ", t.offset,
             ", \"device\": ", json_string(t.device), ", \"storage\": ", t.storage,
             ", \"storage_size\": ", t.storage_size, ", \"itemsize\": ", t.itemsize,
             ", \"contiguous\": ", json_bool(t.contiguous),
             ", \"channels_last\": ", json_bool(t.channels_last),
             ", \"non_overlapping_and_dense\": ", json_bool(t.non_overlapping_and_dense),
             ", \"requires_grad\": ", json_bool(t.requires_grad),
             ", \"grad_fn_id\": ", json_string(t.grad_fn_id),
             ", \"impl_id\": ", json_string(t.impl_id), ", \"cells\": ", cells, "}");
}

std::string to_json(const TraceNode& node) {
  static const char* kinds[] = {"call", "redispatch", "step"};
  char times[64];
  std::snprintf(times, sizeof times, "\"start_us\": %.3f, \"dur_us\": %.3f", node.start_us,
                node.dur_us);
  std::string s =
      str("{\"kind\": \"", kinds[static_cast<int>(node.kind)], "\", \"thread\": ", node.thread,
          ", \"line\": ", json_string(node.line), ", ", times);
  if (node.kind != TraceNode::Kind::Step) {
    s += str(", \"op\": ", json_string(node.op), ", \"args\": ", json_string(node.args),
             ", \"keys\": ", json_string(node.keys), ", \"key\": ", json_string(node.key),
             ", \"kernel\": ", json_string(node.kernel), ", \"why\": ", json_string(node.why),
             ", \"raised\": ", json_bool(node.raised));
  }
  s += str(", \"detail\": ", node.detail.empty() ? std::string("null") : node.detail,
           ", \"inputs\": ", json_tensors(node.inputs),
           ", \"outputs\": ", json_tensors(node.outputs), ", \"children\": [");
  for (size_t i = 0; i < node.children.size(); ++i) {
    s += (i ? ",\n" : "\n") + to_json(node.children[i]);
  }
  return s + "]}";
}

std::string to_json(const TraceRecord& record) {
  std::string s = "{\"dropped\": " + std::to_string(record.dropped) + ", \"roots\": [";
  for (size_t i = 0; i < record.roots.size(); ++i) {
    s += (i ? ",\n" : "\n") + to_json(record.roots[i]);
  }
  return s + "]}";
}

}  // namespace c10
