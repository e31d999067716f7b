#pragma once
// The trace kept as a tree, for the HTML page (aten/trace/TracePage.h): every call and
// redispatch with the same facts as its text trace line, the tensors it was given and returned,
// and the steps logged inside it (TensorIterator's decisions, the loop chosen, the autograd node
// made) with their facts as JSON.
//
//   c10::TraceRecorder::start();
//   at::Tensor z = y.contiguous();                 // recorded
//   c10::TraceRecord record = c10::TraceRecorder::stop();
//   record.roots[0].op;                            // "aten::contiguous"
//   record.roots[0].children[0].outputs[0].strides;  // the clone's result, [6, 2, 1]
//
// Note [What the page records]
// A call's tensors are snapshots taken as the call saw them: its inputs when it began, its
// outputs when it returned (an in-place op's self after the write, an empty_like's result before
// anyone filled it). A snapshot holds the geometry, the flags and the first kTraceCells elements
// of its storage, so the page can draw the storage as cells without the tensor staying alive.
// Storages are numbered in first-seen order; views share their base's number. The recorder
// observes each numbered storage through a weak pointer, so the address of a storage that was
// freed cannot come back as another storage under the same number, and the bytes of a freed
// storage are still released (StorageImpl::release_resources). A recording keeps outermost
// calls, whole, until it holds kTraceMaxCalls calls: a program traced whole still writes a page
// a browser can open, and the record says how many calls it left out.
//
// Note [Which ids are unique]
// The page joins tensors to autograd nodes and names by id. Autograd nodes (grad_fn_id, the
// autograd steps' ids) are numbered by TraceRecorder::object_id, which watches each through a
// weak_ptr: a node freed during the recording never lends its number to another. A tensor's
// impl_id is its address, which a freed tensor hands on to the next one; so tensor ids are kept
// only when the recording keeps the tensors it snapshots alive (start(true), what
// miniaten_trace does: a script's tensors are few), and are empty otherwise (a whole program's
// recording, MINIATEN_TRACE_HTML, must not hold its tensors).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aten/core/Tensor.h"

namespace c10 {

// How many storage elements a snapshot keeps, and after how many calls a recording keeps no
// more outermost calls.
constexpr int64_t kTraceCells = 256;
constexpr size_t kTraceMaxCalls = 4000;

struct C10_API TraceTensor {
  std::string dtype;  // "Float"
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  std::string device;        // "cpu"
  int64_t storage = 0;       // the recording's number for its storage (0: none)
  int64_t storage_size = 0;  // elements the storage holds
  int64_t itemsize = 0;
  bool contiguous = false;
  bool channels_last = false;
  bool non_overlapping_and_dense = false;
  bool requires_grad = false;
  // Its autograd node's id, as the autograd steps name nodes; read only around outermost calls
  // (Note [Recording never rebuilds a view's grad_fn] in TraceRecord.cpp).
  std::string grad_fn_id;
  // The tensor's id, the same for the same tensor in two calls; empty unless the recording
  // keeps its tensors (Note [Which ids are unique]).
  std::string impl_id;
  // The storage's first min(storage_size, kTraceCells) elements as text, those outside the
  // tensor's own span left empty; no cells where they cannot be read here (not on the CPU, no
  // elements, or a dtype the page does not print).
  std::vector<std::string> cells;
};

struct C10_API TraceNode {
  enum class Kind : uint8_t { Call, Redispatch, Step };
  Kind kind = Kind::Call;
  int thread = 0;
  // A call: the text trace's line is
  //   [redispatch ]op(args)  keys -> key: kernel [why]
  std::string op;
  std::string args;
  std::string keys;
  std::string key;
  std::string kernel;
  std::string why;
  // The text trace's line, without its indentation (a step's whole line).
  std::string line;
  std::string detail;  // a step's facts as a JSON object, or empty
  double start_us = 0;
  double dur_us = 0;
  bool raised = false;              // left by an exception
  std::vector<TraceTensor> inputs;  // a step's tensors are its inputs
  std::vector<TraceTensor> outputs;
  std::vector<TraceNode> children;
};

struct C10_API TraceRecord {
  std::vector<TraceNode> roots;  // the outermost calls (and steps outside any call), by start
  size_t dropped = 0;            // calls not recorded (those of outermost calls past the limit)
};

struct C10_API TraceRecorder {
  // Begins a recording on all threads: storage numbers, ids and the call count start afresh.
  // With keep_tensors, every tensor snapshotted stays alive until stop() and has an impl_id
  // (Note [Which ids are unique]). There is one recording per process: a start() while one runs
  // begins it again, and whoever stops it ends it for everyone (as for the trace events).
  static void start(bool keep_tensors = false);
  // The outermost calls ended since start() or the last take(), recording on.
  static TraceRecord take();
  // Ends the recording; returns what take() would.
  static TraceRecord stop();
  static bool recording();
  // `t` as a call would record it now, numbered in this recording (what a caller records
  // beside the calls: the tool's named results).
  static TraceTensor snapshot(const at::Tensor& t);
  // The recording's id for an object owned by shared_ptr (an autograd node): "n1", "n2", ...;
  // empty for null. See Note [Which ids are unique].
  static std::string object_id(const std::shared_ptr<const void>& object);
};

// The record as JSON: {"roots": [node...], "dropped": n}, a node as its fields named as above
// ("kind": "call" | "redispatch" | "step"; "detail" inlined as JSON).
C10_API std::string to_json(const TraceRecord& record);
C10_API std::string to_json(const TraceNode& node);
C10_API std::string to_json(const TraceTensor& tensor);
// An object's address in hex: a tensor's impl_id (Note [Which ids are unique]).
C10_API std::string trace_id(const void* p);
// A JSON string literal: quotes, backslashes and control characters escaped, bytes that are not
// UTF-8 replaced by U+FFFD (a kernel's name or a value's text could hold any byte).
C10_API std::string json_string(const std::string& s);
// A JSON array of integers: "[2, 3, 4]" (the form the text trace prints shapes in, too).
C10_API std::string json_ints(IntArrayRef v);

}  // namespace c10

namespace c10 {
namespace impl {
// The clock and thread numbers the trace events and the page share: steady_clock nanoseconds,
// and small stable numbers (1, 2, ...) that read better than hashed thread ids.
int64_t trace_steady_ns();
int trace_thread_number();
// The recorder's side of TraceScope and trace_log (DispatchTrace.cpp). Every call begun is
// ended, recorded or not: a null node is a call not recorded.
TraceNode* record_call_begin(bool redispatch, const std::string& op, const std::string& args,
                             const std::string& keys, const std::string& kernel_line);
void record_call_end(TraceNode* node, bool raised);
void record_tensors(std::vector<TraceTensor>& into, const std::vector<at::Tensor>& tensors);
void record_step(const std::string& line, const std::string& detail,
                 const std::vector<at::Tensor>& tensors);
}  // namespace impl
}  // namespace c10
