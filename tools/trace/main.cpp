// miniaten_trace: watch the dispatch chain of any call without writing C++.
//
//   miniaten_trace 'x = ones([2, 3, 4]); y = transpose(x, 0, 2); z = contiguous(y)'
//   miniaten_trace -f script.txt --json trace.json --dot graph.dot --html page.html
//   miniaten_trace --table aten::add.Tensor
//   miniaten_trace --ops
//
// See tools/trace/Script.h for what a script may say and tools/trace/Session.h for what is
// printed.

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "aten/ATen.h"
#include "tools/trace/Session.h"

namespace {

const char kUsage[] =
    "usage: miniaten_trace [options] [SCRIPT ...]\n"
    "\n"
    "Runs the calls in SCRIPT (statements separated by ';' or newlines, e.g.\n"
    "'x = ones([2, 3]); y = x.t(); z = contiguous(y)') through the dispatcher and prints\n"
    "each step: the key set, the chosen key, the kernel and why, TensorIterator's decisions,\n"
    "the autograd node made, and each result's sizes, strides, offset, dtype and aliasing.\n"
    "\n"
    "options:\n"
    "  -f FILE       read statements from FILE ('-' for standard input)\n"
    "  --table OP    print the computed dispatch table of OP (aten::add.Tensor, add, ...)\n"
    "  --ops         list every registered operator's schema\n"
    "  --json FILE   write the calls as Chrome trace-event JSON (open it in ui.perfetto.dev)\n"
    "  --dot FILE    write the autograd graph of the script's tensors that require grad as\n"
    "                Graphviz DOT (render it with: dot -Tsvg FILE -o graph.svg)\n"
    "  --html FILE   write the trace as one self-contained page to open in a browser: the\n"
    "                call tree, each tensor's geometry and memory picture, TensorIterator's\n"
    "                decisions and the autograd graph\n"
    "  -h, --help    this text\n";

bool read_file(const std::string& path, std::string* text) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    *text += ss.str() + "\n";
    return true;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;  // a folder reads as empty
  std::ifstream in(path);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *text += ss.str() + "\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string script;
  std::string json_path;
  std::string dot_path;
  std::string html_path;
  std::string command = "miniaten_trace";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool plain =
        arg.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:") ==
        std::string::npos;
    std::string quoted = "'";  // as a shell would need it
    for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    command += " " + (plain ? arg : quoted + "'");
  }
  std::vector<std::string> tables;
  bool list_ops = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* option) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "miniaten_trace: " << option << " needs a value\n" << kUsage;
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "-f") {
      const std::string path = value("-f");
      if (!read_file(path, &script)) {
        std::cerr << "miniaten_trace: cannot read '" << path << "'\n";
        return 2;
      }
    } else if (arg == "--table") {
      tables.push_back(value("--table"));
    } else if (arg == "--ops") {
      list_ops = true;
    } else if (arg == "--json") {
      json_path = value("--json");
    } else if (arg == "--dot") {
      dot_path = value("--dot");
    } else if (arg == "--html") {
      html_path = value("--html");
    } else if (arg.size() > 1 && arg[0] == '-' && arg.find_first_of(" =;(") == std::string::npos) {
      std::cerr << "miniaten_trace: unknown option '" << arg << "'\n" << kUsage;
      return 2;
    } else {
      script += arg + "\n";
    }
  }
  if (script.empty() && tables.empty() && !list_ops) {
    std::cerr << kUsage;
    return 2;
  }

  try {
    if (list_ops) std::cout << miniaten_trace::operator_list();
    for (const std::string& op : tables) std::cout << miniaten_trace::dispatch_tables(op);
  } catch (const std::exception& e) {
    std::cerr << "miniaten_trace: " << miniaten_trace::error_text(e) << "\n";
    return 1;
  }
  if (script.empty()) return 0;

  miniaten_trace::Session session(std::cout);
  if (!json_path.empty()) c10::DispatchTrace::start_events();
  if (!html_path.empty()) {
    c10::TraceRecorder::start(/*keep_tensors=*/true);  // a script's tensors are few
    session.record_page(true);
  }
  const bool ok = session.run_script(script, std::cerr);
  try {
    if (!json_path.empty()) c10::DispatchTrace::write_events(json_path);
    if (!html_path.empty()) {
      c10::TraceRecorder::stop();
      at::trace::TracePage page;
      page.command = command;
      page.groups = session.page_groups();
      at::trace::write_trace_page(html_path, page);
    }
    if (!dot_path.empty()) {
      std::vector<at::Tensor> tensors;
      std::vector<std::string> names;
      for (auto& [name, tensor] : session.named_tensors()) {
        if (!tensor.defined() || !tensor.requires_grad()) continue;  // not in the graph
        names.push_back(name);
        tensors.push_back(tensor);
      }
      torch::autograd::write_graph_dot(dot_path, tensors, names);
    }
  } catch (const std::exception& e) {
    std::cerr << "miniaten_trace: " << miniaten_trace::error_text(e) << "\n";
    return 1;
  }
  return ok ? 0 : 1;
}
