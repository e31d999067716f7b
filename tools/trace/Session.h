#pragma once
// Running a script step by step, as the demo shows at::contiguous: for each statement, the
// statement, then every dispatcher call and redispatch it made (key set, chosen key, kernel and
// why), TensorIterator's decisions and the autograd nodes made, then what each result is.
//
//   >>> y = transpose(x, 0, 2)
//     aten::transpose.int(float[2, 3, 4], 0, 2)  DispatchKeySet(CPU, ADInplaceOrView, ...
//       redispatch aten::transpose.int(...)  DispatchKeySet(CPU, ADInplaceOrView) -> ...
//   y: Float sizes=[4, 3, 2] strides=[1, 4, 12] offset=0, a view of x
//
// Calls go through the boxed path (OperatorHandle::callBoxed), as a Python call does.

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "aten/trace/TracePage.h"
#include "tools/trace/Binder.h"
#include "tools/trace/Script.h"

namespace miniaten_trace {

class Session {
 public:
  // Results and trace lines go to `out`.
  explicit Session(std::ostream& out) : out_(out) {}

  // Runs one statement; a c10::Error if it cannot bind or the operator refuses.
  void run(const Statement& statement);
  // Parses and runs a script; on the first error writes it to `err` (with the statement) and
  // returns false.
  bool run_script(const std::string& source, std::ostream& err);

  const Variables& variables() const { return vars_; }
  // The tensors the script named, in the order they were first assigned.
  std::vector<std::pair<std::string, at::Tensor>> named_tensors() const;

  // With record_page(true) (and c10::TraceRecorder recording), each statement run (or refused)
  // becomes one group of the trace page: its calls, its results' lines and snapshots, its error.
  void record_page(bool on) { record_page_ = on; }
  const std::vector<at::trace::TracePageGroup>& page_groups() const { return page_groups_; }

 private:
  void run_statement(const Statement& statement, at::trace::TracePageGroup* group);
  void describe_result(const std::string& name, const c10::IValue& value,
                       const std::vector<std::pair<std::string, at::Tensor>>& inputs,
                       at::trace::TracePageGroup* group);

  std::ostream& out_;
  Variables vars_;
  std::vector<std::string> order_;  // first assignment order
  bool record_page_ = false;
  std::vector<at::trace::TracePageGroup> page_groups_;
};

// What an error says, for the tool's messages: a c10::Error without its "Exception raised
// from" location, anything else (a kernel's std::bad_alloc, say) as what().
std::string error_text(const std::exception& e);

// `--table OP`: each overload's schema and its computed dispatch table, every entry with the
// reason it is there (libtorch's torch._C._dispatch_dump_table).
std::string dispatch_tables(const std::string& op);
// `--ops`: every registered operator's schema, sorted.
std::string operator_list();

}  // namespace miniaten_trace
