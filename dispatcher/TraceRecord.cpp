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
  TraceRecord record;  // roots ended since the last take() (its `dropped` kept apart, below)
  std::atomic<size_t> calls{0};
  std::atomic<size_t> dropped{0};
  std::atomic<int64_t> origin_ns{0};
  std::atomic<bool> keep_tensors{false};
  std::unordered_map<const StorageImpl*, std::pair<weak_intrusive_ptr<StorageImpl>, int64_t>>
      storages;
  // Objects named by object_id: watched weakly, so no address comes back as another object.
  std::unordered_map<const void*, std::pair<std::weak_ptr<const void>, int64_t>> objects;
  int64_t next_object = 1;
  std::vector<at::Tensor> kept;  // with keep_tensors, every tensor snapshotted
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

// This thread's calls: those open, outermost first (null where a call is not recorded), and the
// outermost one, owned here until it ends. A call made after the thread's state is destroyed
// (from a static destructor at exit, while MINIATEN_TRACE_HTML still records) is not recorded:
// the flag is plain data, valid to the end.
struct ThreadState {
  std::vector<TraceNode*> open;
  std::unique_ptr<TraceNode> root;
  ~ThreadState();
};
thread_local bool tls_state_destroyed = false;
ThreadState::~ThreadState() {
  tls_state_destroyed = true;
}
ThreadState* thread_state() {
  if (tls_state_destroyed) return nullptr;
  thread_local ThreadState state;
  return &state;
}

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

// The storage's first cells as text, read as the tensor's dtype: those from the tensor's first
// element to its last, the others left empty. Reading only that span reads nothing another
// thread may be writing while the program, unrecorded, would be race-free (two threads filling
// two halves of one buffer). Memory nobody wrote (an empty's result) prints whatever it holds,
// as printing the tensor would.
std::vector<std::string> cells_of(const at::Tensor& t, int64_t storage_size) {
  std::vector<std::string> cells;
  const c10::Storage& storage = t.storage();
  if (t.device().type() != DeviceType::CPU || storage.data() == nullptr || t.numel() == 0) {
    return cells;
  }
  int64_t lo = t.storage_offset(), hi = lo;
  for (int64_t d = 0; d < t.dim(); ++d)
    (t.stride(d) < 0 ? lo : hi) += (t.size(d) - 1) * t.stride(d);
  const int64_t n = std::min(storage_size, kTraceCells);
  lo = std::max<int64_t>(lo, 0);
  hi = std::min<int64_t>(hi, n - 1);
  const void* data = storage.data();
  auto read = [&](auto tag, auto format) {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(data);
    cells.resize(static_cast<size_t>(n));
    for (int64_t i = lo; i <= hi; ++i) cells[static_cast<size_t>(i)] = format(p[i]);
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
    if (const auto& fn = t.grad_fn()) s.grad_fn_id = TraceRecorder::object_id(fn);
  }
  // See Note [Which ids are unique].
  if (recorder().keep_tensors.load(std::memory_order_relaxed)) {
    s.impl_id = trace_id(t.unsafeGetTensorImpl());
    std::lock_guard<std::mutex> lock(recorder().mutex);
    recorder().kept.push_back(t);
  }
  if (t.has_storage()) {
    s.storage = storage_number(t.storage());
    s.storage_size = s.itemsize > 0 ? static_cast<int64_t>(t.storage().nbytes()) / s.itemsize : 0;
    s.cells = cells_of(t, s.storage_size);
  }
  return s;
}

// Appends a node under the innermost open call, or as a root; null when it is not recorded.
TraceNode* new_node(ThreadState& ts, TraceNode::Kind kind) {
  if (!ts.open.empty() && ts.open.back() == nullptr) return nullptr;  // inside a dropped call
  if (ts.open.empty()) {
    ts.root = std::make_unique<TraceNode>();
    ts.root->kind = kind;
    return ts.root.get();
  }
  TraceNode* parent = ts.open.back();
  parent->children.emplace_back();
  parent->children.back().kind = kind;
  return &parent->children.back();
}

void end_root(ThreadState& ts) {
  Recorder& r = recorder();
  std::unique_ptr<TraceNode> root = std::move(ts.root);
  if (!root || !g_trace_page_recording.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(r.mutex);
  r.record.roots.push_back(std::move(*root));
}

}  // namespace

TraceNode* record_call_begin(bool redispatch, const std::string& op, const std::string& args,
                             const std::string& keys, const std::string& kernel_line) {
  ThreadState* ts = thread_state();
  if (ts == nullptr) return nullptr;
  Recorder& r = recorder();
  // An outermost call is kept while the recording holds fewer than kTraceMaxCalls calls; the
  // calls inside it are kept with it, so no tree is ever kept in part.
  const size_t before = r.calls.fetch_add(1, std::memory_order_relaxed);
  const bool keep = ts->open.empty() ? before < kTraceMaxCalls : ts->open.back() != nullptr;
  if (!keep) r.dropped.fetch_add(1, std::memory_order_relaxed);
  // Everything that can throw (out of memory) happens before the call is pushed: a call pushed
  // is always popped, by ~TraceScope.
  std::unique_ptr<TraceNode> fresh;
  if (keep) {
    fresh = std::make_unique<TraceNode>();
    fresh->kind = redispatch ? TraceNode::Kind::Redispatch : TraceNode::Kind::Call;
    fresh->thread = trace_thread_number();
    fresh->op = op;
    fresh->args = args;
    fresh->keys = keys;
    // kernel_line is trace_kernel_line's "KEY: kernel [why]".
    const size_t colon = kernel_line.find(": ");
    const size_t bracket = kernel_line.rfind(" [");
    fresh->key = kernel_line.substr(0, colon);
    if (colon != std::string::npos && bracket != std::string::npos && bracket > colon) {
      fresh->kernel = kernel_line.substr(colon + 2, bracket - colon - 2);
      fresh->why = kernel_line.substr(bracket + 2, kernel_line.size() - bracket - 3);
    }
    fresh->line =
        str(redispatch ? "redispatch " : "", op, "(", args, ")  ", keys, " -> ", kernel_line);
    fresh->start_us = now_us();
  }
  ts->open.reserve(ts->open.size() + 1);
  TraceNode* node = nullptr;
  if (fresh) {
    node = new_node(*ts, fresh->kind);  // may throw: nothing is pushed yet
    *node = std::move(*fresh);
  }
  ts->open.push_back(node);  // reserved: cannot throw
  return node;
}

void record_call_end(TraceNode* node, bool raised) {
  ThreadState* ts = thread_state();
  if (ts == nullptr || ts->open.empty()) return;  // the recording began inside this call
  ts->open.pop_back();
  if (node != nullptr) {
    node->dur_us = now_us() - node->start_us;
    node->raised = raised;
  }
  if (ts->open.empty()) end_root(*ts);
}

void record_tensors(std::vector<TraceTensor>& into, const std::vector<at::Tensor>& tensors) {
  ThreadState* ts = thread_state();
  // The call being recorded is open: alone on the stack, it is an outermost one.
  const bool outermost = ts != nullptr && ts->open.size() == 1;
  into.reserve(tensors.size());
  for (const at::Tensor& t : tensors) into.push_back(snapshot_of(t, outermost));
}

void record_step(const std::string& line, const std::string& detail,
                 const std::vector<at::Tensor>& tensors) {
  ThreadState* ts = thread_state();
  if (ts == nullptr) return;
  if (ts->open.empty() && recorder().calls.load(std::memory_order_relaxed) >= kTraceMaxCalls) {
    return;  // a step outside any call, past the limit
  }
  TraceNode* node = new_node(*ts, TraceNode::Kind::Step);
  if (node == nullptr) return;
  node->thread = trace_thread_number();
  node->line = line;
  node->detail = detail;
  node->start_us = now_us();
  for (const at::Tensor& t : tensors) node->inputs.push_back(snapshot_of(t, ts->open.empty()));
  if (ts->open.empty()) end_root(*ts);  // a step outside any call is a root of its own
}

}  // namespace impl

// ---- TraceRecorder --------------------------------------------------------------------------

void TraceRecorder::start(bool keep_tensors) {
  impl::Recorder& r = impl::recorder();
  std::vector<at::Tensor> kept;  // the last recording's, released outside the lock
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    kept.swap(r.kept);
    r.record = TraceRecord();
    r.storages.clear();
    r.objects.clear();
    r.next_object = 1;
    r.calls.store(0, std::memory_order_relaxed);
    r.dropped.store(0, std::memory_order_relaxed);
    r.keep_tensors.store(keep_tensors, std::memory_order_relaxed);
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
  taken.dropped = r.dropped.exchange(0, std::memory_order_relaxed);
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
  std::vector<at::Tensor> kept;  // released outside the lock: a tensor's end takes no lock here
  {
    std::lock_guard<std::mutex> lock(impl::recorder().mutex);
    impl::recorder().storages.clear();
    impl::recorder().objects.clear();
    kept.swap(impl::recorder().kept);
  }
  return record;
}

std::string TraceRecorder::object_id(const std::shared_ptr<const void>& object) {
  if (!object) return "";
  impl::Recorder& r = impl::recorder();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.objects.find(object.get());
  // An expired entry is a freed object whose address came back: a new object.
  if (it == r.objects.end() || it->second.first.expired()) {
    const int64_t number = r.next_object++;
    it = r.objects
             .insert_or_assign(object.get(),
                               std::make_pair(std::weak_ptr<const void>(object), number))
             .first;
  }
  return "n" + std::to_string(it->second.second);
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
    // A well-formed UTF-8 sequence passes whole (Unicode's table 3-7: no overlong forms, no
    // surrogates, nothing past U+10FFFF); a byte that does not start one is U+FFFD.
    const size_t len = c >= 0xc2 && c < 0xe0   ? 2
                       : c >= 0xe0 && c < 0xf0 ? 3
                       : c >= 0xf0 && c < 0xf5 ? 4
                                               : 0;
    bool valid = len > 0 && i + len <= n;
    if (valid) {
      const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
      const unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
      const unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
      valid = c1 >= lo && c1 <= hi;
    }
    for (size_t k = 2; valid && k < len; ++k) {
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

std::string json_ints(IntArrayRef v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

namespace {

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
