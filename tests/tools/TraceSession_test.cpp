// miniaten_trace's session (tools/trace/Session.h) on the seeds' worked examples: the life of
// at::contiguous on a transposed tensor, output strides from perm_ (channels-last plus
// contiguous, and the ambiguous [2, 3, 1, 1] case), NHWC coalescing, and an autograd graph,
// with the printed decisions checked line by line.

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>

#include "aten/ATen.h"
#include "tools/trace/Session.h"

namespace {

// The transcript without "(registered at File.cpp:123)", which moves with every edit.
std::string run(const std::string& script) {
  std::ostringstream out;
  std::ostringstream err;
  miniaten_trace::Session session(out);
  EXPECT_TRUE(session.run_script(script, err)) << err.str();
  static const std::regex registered(" \\(registered at [^)]*\\)");
  return std::regex_replace(out.str(), registered, "");
}

// The line of `text` describing result `name` ("r: Float sizes=...").
std::string result(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name + ": ", 0) == 0) return line;
  }
  return "<no line for " + name + ">";
}

// The lines of `text` that contain `marker`, in order.
std::vector<std::string> lines_with(const std::string& text, const std::string& marker) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(marker) != std::string::npos) found.push_back(line);
  }
  return found;
}

// DESIGN.md's life of at::contiguous(t): every call, redispatch and decision, in order.
TEST(TraceSession, ContiguousOfATransposedTensorStepByStep) {
  EXPECT_EQ(
      run("x = ones([2, 3, 4]); y = transpose(x, 0, 2); z = contiguous(y)"),
      ">>> x = ones([2, 3, 4])\n"
      "  aten::ones([2, 3, 4], None, None, None, None)  DispatchKeySet() -> Undefined: "
      "wrapper_CompositeExplicitAutograd__ones [CompositeExplicitAutograd kernel]\n"
      "    aten::empty.memory_format([2, 3, 4], None, None, None, None, None)  "
      "DispatchKeySet(BackendSelect) -> BackendSelect: wrapper_BackendSelect__empty_memory_format "
      "[kernel]\n"
      "      redispatch aten::empty.memory_format([2, 3, 4], None, None, None, None, None)  "
      "DispatchKeySet(CPU) -> CPU: wrapper_CPU__empty_memory_format [kernel]\n"
      "    aten::fill_.Scalar(Float[2, 3, 4], 1)  DispatchKeySet(CPU, ADInplaceOrView, "
      "AutogradCPU) "
      "-> AutogradCPU: VariableType::fill__Scalar [Autograd kernel]\n"
      "      redispatch aten::fill_.Scalar(Float[2, 3, 4], 1)  DispatchKeySet(CPU, "
      "ADInplaceOrView) "
      "-> ADInplaceOrView: wrapper_ADInplaceOrView__fill__Scalar [kernel]\n"
      "        redispatch aten::fill_.Scalar(Float[2, 3, 4], 1)  DispatchKeySet(CPU) -> CPU: "
      "wrapper_CPU__fill__Scalar [kernel]\n"
      "          TensorIterator: broadcast shape=[2, 3, 4] fast_setup=contiguous output "
      "strides=[12, 4, 1] iteration shape=[24] byte strides=[4]\n"
      "x: Float sizes=[2, 3, 4] strides=[12, 4, 1] offset=0, new storage\n"
      ">>> y = transpose(x, 0, 2)\n"
      "  aten::transpose.int(Float[2, 3, 4], 0, 2)  DispatchKeySet(CPU, ADInplaceOrView, "
      "AutogradCPU) -> AutogradCPU: VariableType::transpose_int [Autograd kernel]\n"
      "    redispatch aten::transpose.int(Float[2, 3, 4], 0, 2)  DispatchKeySet(CPU, "
      "ADInplaceOrView) -> ADInplaceOrView: ADInplaceOrView::transpose_int [kernel]\n"
      "      redispatch aten::transpose.int(Float[2, 3, 4], 0, 2)  DispatchKeySet(CPU) -> CPU: "
      "wrapper_CompositeExplicitAutograd__transpose_int [CompositeExplicitAutograd kernel]\n"
      "y: Float sizes=[4, 3, 2] strides=[1, 4, 12] offset=0, aliases x\n"
      ">>> z = contiguous(y)\n"
      "  aten::contiguous(Float[4, 3, 2] strides=[1, 4, 12], Contiguous)  DispatchKeySet(CPU, "
      "AutogradCPU) -> AutogradCPU: wrapper_CompositeImplicitAutograd__contiguous "
      "[CompositeImplicitAutograd kernel]\n"
      "    aten::clone(Float[4, 3, 2] strides=[1, 4, 12], Contiguous)  DispatchKeySet(CPU, "
      "AutogradCPU) -> AutogradCPU: VariableType::clone [Autograd kernel]\n"
      "      redispatch aten::clone(Float[4, 3, 2] strides=[1, 4, 12], Contiguous)  "
      "DispatchKeySet(CPU) -> CPU: wrapper_CompositeExplicitAutograd__clone "
      "[CompositeExplicitAutograd kernel]\n"
      "        aten::empty_like(Float[4, 3, 2] strides=[1, 4, 12], None, None, None, None, "
      "Contiguous)  DispatchKeySet(CPU) -> CPU: wrapper_CompositeExplicitAutograd__empty_like "
      "[CompositeExplicitAutograd kernel]\n"
      "          aten::empty.memory_format([4, 3, 2], Float, Strided, cpu, None, Contiguous)  "
      "DispatchKeySet(BackendSelect) -> BackendSelect: wrapper_BackendSelect__empty_memory_format "
      "[kernel]\n"
      "            redispatch aten::empty.memory_format([4, 3, 2], Float, Strided, cpu, None, "
      "Contiguous)  DispatchKeySet(CPU) -> CPU: wrapper_CPU__empty_memory_format [kernel]\n"
      "        aten::copy_(Float[4, 3, 2], Float[4, 3, 2] strides=[1, 4, 12], False)  "
      "DispatchKeySet(CPU) -> CPU: wrapper_CompositeExplicitAutograd__copy_ "
      "[CompositeExplicitAutograd kernel]\n"
      "          TensorIterator: broadcast shape=[4, 3, 2] fast_setup=none perm_=[2, 1, 0] output "
      "strides=[6, 2, 1] iteration shape=[2, 3, 4] byte strides=[4, 8, 24] [48, 16, 4]\n"
      "          copy_kernel: basic loop\n"
      "z: Float sizes=[4, 3, 2] strides=[6, 2, 1] offset=0, new storage\n");
}

// Seed 000: a channels-last [2, 3, 4, 5] plus a contiguous [3, 4, 5]. perm_ sorts the
// dimensions by stride, [1, 3, 2, 0], and the output takes the channels-last strides.
TEST(TraceSession, OutputStridesFromPermForChannelsLastPlusContiguous) {
  const std::string out =
      run("a = rand([2, 3, 4, 5]); cl = contiguous(a, memory_format=channels_last)\n"
          "ct = rand([3, 4, 5]); r = add(cl, ct)");
  const auto ti = lines_with(out, "TensorIterator:");
  ASSERT_EQ(ti.size(), 4u) << out;
  EXPECT_EQ(ti[3],
            "      TensorIterator: broadcast shape=[2, 3, 4, 5] fast_setup=none perm_=[1, 3, 2, 0] "
            "output strides=[60, 1, 15, 3] iteration shape=[3, 20, 2] byte strides=[4, 12, 240] "
            "[4, 12, 240] [80, 4, 0]");
  EXPECT_EQ(result(out, "cl"),
            "cl: Float sizes=[2, 3, 4, 5] strides=[60, 1, 15, 3] offset=0, new storage");
  EXPECT_EQ(result(out, "r"),
            "r: Float sizes=[2, 3, 4, 5] strides=[60, 1, 15, 3] offset=0, new storage");
}

// Seed 000's ambiguous case: [2, 3, 1, 1] is both contiguous and channels-last, so the output's
// layout comes from perm_, not from the first input's memory format: (3, 1, 3, 3), as libtorch.
TEST(TraceSession, OutputStridesOfAnAmbiguousChannelsLastTensor) {
  const std::string out =
      run("b = rand([2, 3, 1, 1]); acl = to(b, memory_format=channels_last)\n"
          "act = rand([3, 1, 1]); r = add(acl, act)");
  EXPECT_EQ(result(out, "acl"),
            "acl: Float sizes=[2, 3, 1, 1] strides=[3, 1, 3, 3] offset=0, new storage");
  EXPECT_EQ(result(out, "r"),
            "r: Float sizes=[2, 3, 1, 1] strides=[3, 1, 3, 3] offset=0, new storage");
  EXPECT_EQ(lines_with(out, "  aten::to.dtype_layout(")[0].rfind(
                "  aten::to.dtype_layout(Float[2, 3, 1, 1], None, None, None, None, False, False, "
                "ChannelsLast)  DispatchKeySet(CPU, AutogradCPU) -> AutogradCPU",
                0),
            0u);
}

// NHWC: a channels-last copy is one dense run (fast setup, one dimension); a permuted view made
// contiguous coalesces the dimensions that are adjacent in memory into three.
TEST(TraceSession, ChannelsLastCopiesCoalesce) {
  const std::string out =
      run("n = empty([2, 3, 4, 5], memory_format=channels_last); c = clone(n)\n"
          "a = rand([2, 3, 4, 5]); p = permute(a, [0, 2, 3, 1]); q = contiguous(p)");
  const auto ti = lines_with(out, "TensorIterator:");
  ASSERT_EQ(ti.size(), 3u) << out;
  EXPECT_EQ(ti[0],
            "        TensorIterator: broadcast shape=[2, 3, 4, 5] fast_setup=channels_last output "
            "strides=[60, 1, 15, 3] iteration shape=[120] byte strides=[4] [4]");
  EXPECT_EQ(ti[2],
            "          TensorIterator: broadcast shape=[2, 4, 5, 3] fast_setup=none "
            "perm_=[3, 2, 1, 0] output strides=[60, 15, 3, 1] iteration shape=[3, 20, 2] byte "
            "strides=[4, 12, 240] [80, 4, 240]");
  EXPECT_EQ(result(out, "c"),
            "c: Float sizes=[2, 3, 4, 5] strides=[60, 1, 15, 3] offset=0, new storage");
  EXPECT_EQ(result(out, "p"),
            "p: Float sizes=[2, 4, 5, 3] strides=[60, 5, 1, 20] offset=0, aliases a");
  EXPECT_EQ(result(out, "q"),
            "q: Float sizes=[2, 4, 5, 3] strides=[60, 15, 3, 1] offset=0, new storage");
}

TEST(TraceSession, AutogradNodesAndResultsOfSeveralReturns) {
  const std::string out =
      run("w = ones([2, 3], requires_grad=True); v = w.clone(); s = sum(v); k, i = max(w, 1)\n"
          "parts = split(w, 2, 1)");
  EXPECT_EQ(lines_with(out, "autograd: created CloneBackward0")[0],
            "    autograd: created CloneBackward0 (next edges: torch::autograd::AccumulateGrad)");
  EXPECT_EQ(result(out, "w"),
            "w: Float sizes=[2, 3] strides=[3, 1] offset=0, new storage, requires_grad");
  EXPECT_EQ(result(out, "v"),
            "v: Float sizes=[2, 3] strides=[3, 1] offset=0, new storage, requires_grad, "
            "grad_fn=CloneBackward0");
  EXPECT_EQ(result(out, "s"),
            "s: Float sizes=[] strides=[] offset=0, new storage, requires_grad, "
            "grad_fn=SumBackward0");
  EXPECT_EQ(result(out, "k"),
            "k: Float sizes=[2] strides=[1] offset=0, new storage, requires_grad, "
            "grad_fn=MaxBackward0");
  EXPECT_EQ(result(out, "i"), "i: Long sizes=[2] strides=[1] offset=0, new storage");
  EXPECT_EQ(result(out, "parts"), "parts: 2 tensors");
  EXPECT_EQ(result(out, "parts[1]"),
            "parts[1]: Float sizes=[2, 1] strides=[3, 1] offset=2, aliases w, requires_grad, "
            "grad_fn=SplitBackward0");
}

TEST(TraceSession, ErrorsNameTheStatement) {
  std::ostringstream out;
  std::ostringstream err;
  miniaten_trace::Session session(out);
  EXPECT_FALSE(session.run_script("x = ones([2, 3]); y = transpose(x, 0, 5); z = clone(y)", err));
  EXPECT_EQ(err.str(),
            "miniaten_trace: in `y = transpose(x, 0, 5)`:\n"
            "Dimension out of range (expected to be in range of [-2, 1], but got 5)\n");
  EXPECT_EQ(result(out.str(), "z"), "<no line for z>");  // stops at the first error
  err.str("");
  EXPECT_FALSE(session.run_script("y = transpose(x, 0,", err));
  EXPECT_EQ(err.str().rfind("miniaten_trace: expected a value but found end of input", 0), 0u)
      << err.str();
  err.str("");
  EXPECT_FALSE(session.run_script("a, b = ones([2])", err));
  EXPECT_EQ(
      err.str(),
      "miniaten_trace: in `a, b = ones([2])`:\n"
      "aten::ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor returns 1 value but 2 names are given\n");
}

TEST(TraceSession, DispatchTablesAndOperatorList) {
  const std::string table = miniaten_trace::dispatch_tables("aten::add.Tensor");
  EXPECT_EQ(table.rfind("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
                        "  schema registered at ",
                        0),
            0u)
      << table;
  EXPECT_NE(table.find("\n  CPU: wrapper_CPU__add_Tensor (registered at "), std::string::npos);
  EXPECT_NE(table.find("\n  AutogradCPU: VariableType::add_Tensor (registered at "),
            std::string::npos);
  EXPECT_NE(table.find(") [Autograd kernel]\n"), std::string::npos);
  EXPECT_NE(table.find("\n  ADInplaceOrView: ad_inplace_or_view_fallthrough"), std::string::npos);
  // Without an overload, every overload's table.
  EXPECT_GE(lines_with(miniaten_trace::dispatch_tables("add"), "aten::add").size(), 3u);
  const std::string ops = miniaten_trace::operator_list();
  EXPECT_NE(ops.find("\naten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)\n"),
            std::string::npos);
  EXPECT_LT(ops.find("aten::add.Tensor("), ops.find("aten::transpose.int("));
}

// The Chrome trace-event JSON: one complete event per call, nested by time, with the key set
// and kernel as args, and TensorIterator's decision as an instant event.
TEST(TraceSession, CallsRecordAsChromeTraceEvents) {
  std::ostringstream out;
  miniaten_trace::Session session(out);
  at::Tensor x = at::ones({2, 3});
  c10::DispatchTrace::start_events();
  std::ostringstream err;
  ASSERT_TRUE(session.run_script("x = ones([2, 3]); y = x.t(); z = contiguous(y)", err));
  const std::string json = c10::DispatchTrace::stop_events();
  EXPECT_FALSE(c10::DispatchTrace::recording_events());
  EXPECT_EQ(json.rfind("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n  {\"name\": ", 0), 0u)
      << json;
  EXPECT_NE(json.find("{\"name\": \"aten::contiguous\", \"cat\": \"dispatch\", \"ph\": \"X\", "
                      "\"pid\": 1, \"tid\": "),
            std::string::npos);
  EXPECT_NE(json.find("{\"name\": \"aten::clone\", \"cat\": \"redispatch\", \"ph\": \"X\""),
            std::string::npos);
  EXPECT_NE(
      json.find("\"args\": {\"keys\": \"DispatchKeySet(CPU, AutogradCPU)\", \"kernel\": "
                "\"AutogradCPU: wrapper_CompositeImplicitAutograd__contiguous (registered at "),
      std::string::npos);
  EXPECT_NE(json.find("{\"name\": \"TensorIterator\", \"cat\": \"step\", \"ph\": \"i\""),
            std::string::npos);
  EXPECT_NE(json.find("\"dur\": "), std::string::npos);
  EXPECT_EQ(json.substr(json.size() - 4), "\n]}\n");
  // contiguous's event encloses clone's: it starts no later and ends no earlier.
  auto field = [&](size_t at, const char* key) {
    const size_t k = json.find(key, at);
    return std::stod(json.substr(k + std::strlen(key)));
  };
  const size_t contiguous = json.find("{\"name\": \"aten::contiguous\"");
  const size_t clone = json.find("{\"name\": \"aten::clone\"");
  EXPECT_LE(field(contiguous, "\"ts\": "), field(clone, "\"ts\": "));
  EXPECT_GE(field(contiguous, "\"ts\": ") + field(contiguous, "\"dur\": "),
            field(clone, "\"ts\": ") + field(clone, "\"dur\": "));
  // Nothing is recorded once stopped.
  ASSERT_TRUE(session.run_script("w = clone(x)", err));
  EXPECT_EQ(c10::DispatchTrace::stop_events(),
            "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n]}\n");
}

TEST(TraceSession, AutogradGraphAsDot) {
  std::ostringstream out;
  miniaten_trace::Session session(out);
  std::ostringstream err;
  ASSERT_TRUE(session.run_script(
      "x = ones([2, 3], requires_grad=True); y = x.clone(); w = mul(y, x); s = sum(w)", err));
  std::vector<at::Tensor> tensors;
  std::vector<std::string> names;
  for (const auto& [name, t] : session.named_tensors()) {
    if (name == "s") {
      names.push_back(name);
      tensors.push_back(t);
    }
  }
  const std::string dot = torch::autograd::graph_dot(tensors, names);
  EXPECT_EQ(dot,
            "digraph autograd {\n"
            "  node [shape=box, style=filled, fillcolor=lightgray, fontname=\"monospace\"];\n"
            "  out0 [label=\"s\\n[]\", fillcolor=darkolivegreen1];\n"
            "  n0 -> out0;\n"
            "  n0 [label=\"SumBackward0\"];\n"
            "  n1 -> n0;\n"
            "  n1 [label=\"MulBackward0\"];\n"
            "  n2 -> n1;\n"
            "  n3 -> n1;\n"
            "  n2 [label=\"CloneBackward0\"];\n"
            "  n3 -> n2;\n"
            "  n3 [label=\"AccumulateGrad\"];\n"
            "  leaf0 [label=\"[2, 3]\", fillcolor=lightblue];\n"
            "  leaf0 -> n3;\n"
            "}\n");
  // A leaf no other output reaches still gets its named box.
  at::Tensor lone = at::ones({4});
  lone.requires_grad_(true);
  EXPECT_EQ(torch::autograd::graph_dot({lone}, {"lone"}),
            "digraph autograd {\n"
            "  node [shape=box, style=filled, fillcolor=lightgray, fontname=\"monospace\"];\n"
            "  leaf0 [label=\"lone\\n[4]\", fillcolor=lightblue];\n"
            "}\n");
  const std::string dot_path = ::testing::TempDir() + "trace_graph.dot";
  torch::autograd::write_graph_dot(dot_path, tensors, names);
  const std::string dot_program = MINIATEN_DOT_PROGRAM;
  if (dot_program.empty() || dot_program.find("NOTFOUND") != std::string::npos) {
    GTEST_SKIP() << "Graphviz's dot is not installed; the DOT text was checked, not rendered";
  }
  const std::string svg = ::testing::TempDir() + "trace_graph.svg";
  ASSERT_EQ(std::system((dot_program + " -Tsvg " + dot_path + " -o " + svg).c_str()), 0);
  std::ifstream in(svg);
  std::stringstream rendered;
  rendered << in.rdbuf();
  EXPECT_NE(rendered.str().find("CloneBackward0"), std::string::npos);
  EXPECT_NE(rendered.str().find("AccumulateGrad"), std::string::npos);
}

}  // namespace

namespace {

// While the recorder runs, each statement becomes one group of the page: its calls are the
// lines the text trace printed under its `>>>`, its results the lines after them.
TEST(TraceSession, StatementsBecomePageGroups) {
  std::ostringstream out;
  std::ostringstream err;
  miniaten_trace::Session session(out);
  session.record_page(true);
  c10::TraceRecorder::start(/*keep_tensors=*/true);
  ASSERT_TRUE(session.run_script(
      "x = ones([2, 3], requires_grad=True); y = x.t(); z = contiguous(y); v, i = max(z, 1)", err));
  c10::TraceRecorder::stop();
  const auto& groups = session.page_groups();
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].text, "x = ones([2, 3], requires_grad=True)");
  // The page's groups, printed as the tool prints them, are the transcript.
  std::string page;
  std::function<void(const c10::TraceNode&, int)> print = [&](const c10::TraceNode& n, int depth) {
    page += std::string(2 + 2 * depth, ' ') + n.line + "\n";
    for (const c10::TraceNode& c : n.children) print(c, depth + 1);
  };
  for (const auto& group : groups) {
    page += ">>> " + group.text + "\n";
    for (const c10::TraceNode& root : group.calls.roots) print(root, 0);
    for (const auto& result : group.results) page += result.line + "\n";
  }
  EXPECT_EQ(page, out.str());
  // Results keep their snapshots: y is a view over x's storage.
  ASSERT_EQ(groups[1].results.size(), 1u);
  EXPECT_EQ(groups[1].results[0].name, "y");
  EXPECT_TRUE(groups[1].results[0].is_tensor);
  EXPECT_EQ(groups[1].results[0].tensor.strides, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(groups[1].results[0].tensor.storage, groups[0].results[0].tensor.storage);
  EXPECT_NE(groups[2].results[0].tensor.storage, groups[0].results[0].tensor.storage);
  ASSERT_EQ(groups[3].results.size(), 2u);
  EXPECT_EQ(groups[3].results[1].tensor.dtype, "Long");
}

// A failing statement is a group with its error; the page escapes what would end its script.
TEST(TraceSession, PagesHoldErrorsAndEscapeTheirText) {
  std::ostringstream out;
  std::ostringstream err;
  miniaten_trace::Session session(out);
  session.record_page(true);
  c10::TraceRecorder::start(/*keep_tensors=*/true);
  EXPECT_FALSE(session.run_script("x = ones([2]); y = div(x, 2, rounding_mode='</script>')", err));
  c10::TraceRecorder::stop();
  const auto& groups = session.page_groups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_NE(groups[1].error.find("</script>"), std::string::npos) << groups[1].error;
  at::trace::TracePage page;
  page.groups = groups;
  const std::string html = at::trace::trace_page_html(page);
  size_t closes = 0;
  for (size_t at = html.find("</script>"); at != std::string::npos;
       at = html.find("</script>", at + 1)) {
    ++closes;
  }
  EXPECT_EQ(closes, 2u);  // the data's and the script's own
  EXPECT_EQ(html.find("{{"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // nothing fetched
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_NE(html.find("\\u003c/script>"), std::string::npos);
}

}  // namespace
