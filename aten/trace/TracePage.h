#pragma once
// The trace page: the text trace as one self-contained HTML file (its script and styles inline,
// nothing fetched) that a learner opens from disk. It shows the calls as a collapsible tree
// with their key sets, chosen keys, kernels, reasons and durations; every tensor a call was
// given or returned with its geometry and a memory picture (the storage as a row of cells, the
// elements as a grid, an element's cell lit when it is selected); each TensorIterator's
// decisions with its dims coloured as in the pictures; and the autograd graph the calls made.
//
//   miniaten_trace --html page.html 'x = ones([2, 3, 4]); y = transpose(x, 0, 2); z =
//   contiguous(y)' MINIATEN_TRACE_HTML=page.html ./my_program        # every call the program makes
//
// In C++:
//
//   c10::TraceRecorder::start();
//   at::Tensor z = y.contiguous();
//   at::trace::TracePage page;
//   page.groups.push_back({"z = y.contiguous()", c10::TraceRecorder::stop(), {}, ""});
//   at::trace::write_trace_page("page.html", page);
//
// Note [The page holds its data as JSON]
// The page is the files in aten/trace/page (embedded at build time) with the record written
// into it as one JSON object, which the script renders when the page loads. The JSON is the
// record's own (c10::to_json), so every fact on the page is one the text trace printed: a call
// row's parts, put back together, are its text line (the browser test checks this).

#include <string>
#include <vector>

#include "dispatcher/TraceRecord.h"

namespace at {
namespace trace {

// A named result of a statement: its text trace line ("z: Float sizes=[4, 3, 2] ...") and, for
// a tensor, its snapshot.
struct TracePageResult {
  std::string name;
  std::string line;
  bool is_tensor = false;
  c10::TraceTensor tensor;
};

// One statement of a script (or, for a whole program, everything it called).
struct TracePageGroup {
  std::string text;  // the statement as written; empty for a program's calls
  c10::TraceRecord calls;
  std::vector<TracePageResult> results;
  std::string error;  // what the statement raised, if it did
};

struct TracePage {
  std::string title = "miniaten trace";
  std::string command;  // how the page was made, shown under the title
  std::vector<TracePageGroup> groups;
};

TORCH_API std::string trace_page_html(const TracePage& page);
// Writes trace_page_html() to `path`; a c10::Error names the path if it cannot be written.
TORCH_API void write_trace_page(const std::string& path, const TracePage& page);

}  // namespace trace
}  // namespace at
