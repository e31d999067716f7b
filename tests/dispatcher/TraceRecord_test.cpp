// The trace page's record (dispatcher/TraceRecord.h): calls kept as a tree with the same facts
// as the text trace, the tensors each call was given and returned, TensorIterator's decisions
// and the autograd nodes made as steps with JSON facts, storages numbered so views share a
// number, and a recording that stays bounded and balanced whatever the calls do.

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/autograd/Node.h"
#include "dispatcher/TraceRecord.h"

namespace {

using c10::TraceNode;
using c10::TraceRecord;
using c10::TraceRecorder;

// Every node of the record in pre-order, with its depth.
std::vector<std::pair<const TraceNode*, int>> preorder(const TraceRecord& record) {
  std::vector<std::pair<const TraceNode*, int>> out;
  std::function<void(const TraceNode&, int)> walk = [&](const TraceNode& n, int depth) {
    out.emplace_back(&n, depth);
    for (const TraceNode& c : n.children) walk(c, depth + 1);
  };
  for (const TraceNode& root : record.roots) walk(root, 0);
  return out;
}

const TraceNode* find(const TraceRecord& record, const std::string& op,
                      TraceNode::Kind kind = TraceNode::Kind::Call) {
  for (const auto& [node, depth] : preorder(record)) {
    if (node->op == op && node->kind == kind) return node;
  }
  return nullptr;
}

// Stops a recording a failed test left running.
struct Recording {
  explicit Recording(bool keep_tensors = false) { TraceRecorder::start(keep_tensors); }
  ~Recording() {
    if (TraceRecorder::recording()) TraceRecorder::stop();
  }
};

// The record's lines are the text trace's lines, indented by the same depth, in the same order.
TEST(TraceRecord, NodesAreTheTextTraceLines) {
  at::Tensor y = at::arange(24.0).view({2, 3, 4}).transpose(0, 2);
  std::vector<std::string> lines;
  c10::DispatchTrace::set_listener([&](const std::string& l) { lines.push_back(l); });
  TraceRecord record;
  {
    Recording recording;
    c10::DispatchTraceGuard guard;
    at::Tensor z = y.contiguous();
    record = TraceRecorder::stop();
  }
  c10::DispatchTrace::set_listener(nullptr);
  const auto nodes = preorder(record);
  ASSERT_EQ(nodes.size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(std::string(2 * nodes[i].second, ' ') + nodes[i].first->line, lines[i]);
  }
  ASSERT_EQ(record.roots.size(), 1u);
  const TraceNode& root = record.roots[0];
  EXPECT_EQ(root.op, "aten::contiguous");
  EXPECT_EQ(root.key, "AutogradCPU");
  EXPECT_EQ(root.why, "CompositeImplicitAutograd kernel");
  EXPECT_EQ(root.kernel.rfind("wrapper_CompositeImplicitAutograd__contiguous (registered at ", 0),
            0u)
      << root.kernel;
  EXPECT_EQ(root.keys, "DispatchKeySet(CPU, AutogradCPU)");
  EXPECT_GE(root.dur_us, 0.0);
  EXPECT_FALSE(root.raised);
}

// The copy's operands as the copy saw them: the new contiguous output over storage of its own,
// the transposed input over x's storage; the contiguous call's result is the output.
TEST(TraceRecord, CallsKeepTheirTensors) {
  at::Tensor x = at::arange(24.0).view({2, 3, 4});
  at::Tensor y = x.transpose(0, 2);
  Recording recording(/*keep_tensors=*/true);
  const c10::TraceTensor xs = TraceRecorder::snapshot(x);
  at::Tensor z = y.contiguous();
  const TraceRecord record = TraceRecorder::stop();

  const TraceNode* copy = find(record, "aten::copy_");
  ASSERT_NE(copy, nullptr);
  ASSERT_EQ(copy->inputs.size(), 2u);
  const c10::TraceTensor& out = copy->inputs[0];
  const c10::TraceTensor& in = copy->inputs[1];
  EXPECT_EQ(out.sizes, (std::vector<int64_t>{4, 3, 2}));
  EXPECT_EQ(out.strides, (std::vector<int64_t>{6, 2, 1}));
  EXPECT_EQ(in.strides, (std::vector<int64_t>{1, 4, 12}));
  EXPECT_EQ(in.storage, xs.storage);
  EXPECT_NE(out.storage, xs.storage);
  EXPECT_EQ(in.impl_id, c10::trace_id(y.unsafeGetTensorImpl()));
  EXPECT_TRUE(out.contiguous);
  EXPECT_FALSE(in.contiguous);
  EXPECT_TRUE(in.non_overlapping_and_dense);  // a transpose is still dense
  EXPECT_EQ(in.storage_size, 24);
  EXPECT_EQ(in.itemsize, 4);
  ASSERT_EQ(in.cells.size(), 24u);
  EXPECT_EQ(in.cells[5], "5");
  // copy_ returns its self: the output after the write holds y's elements in row-major order.
  ASSERT_EQ(copy->outputs.size(), 1u);
  EXPECT_EQ(copy->outputs[0].storage, out.storage);
  EXPECT_EQ(copy->outputs[0].cells[1], "12");  // z[0, 0, 1] = y[0, 0, 1] = x[1, 0, 0]

  ASSERT_EQ(record.roots.size(), 1u);
  ASSERT_EQ(record.roots[0].outputs.size(), 1u);
  EXPECT_EQ(record.roots[0].outputs[0].storage, out.storage);
  EXPECT_EQ(record.roots[0].inputs[0].strides, (std::vector<int64_t>{1, 4, 12}));
}

// TensorIterator's step: the text line plus its decisions as JSON, and its operands.
TEST(TraceRecord, TensorIteratorStepsCarryTheirDecisions) {
  at::Tensor y = at::ones({2, 3, 4}).transpose(0, 2);
  Recording recording;
  at::Tensor z = y.contiguous();
  const TraceRecord record = TraceRecorder::stop();
  const TraceNode* copy = find(record, "aten::copy_");
  ASSERT_NE(copy, nullptr);
  ASSERT_FALSE(copy->children.empty());
  const TraceNode& ti = copy->children[0];
  EXPECT_EQ(ti.kind, TraceNode::Kind::Step);
  EXPECT_EQ(ti.line,
            "TensorIterator: broadcast shape=[4, 3, 2] fast_setup=none perm_=[2, 1, 0] output "
            "strides=[6, 2, 1] iteration shape=[2, 3, 4] byte strides=[4, 8, 24] [48, 16, 4]");
  EXPECT_EQ(ti.detail,
            "{\"broadcast_shape\": [4, 3, 2], \"fast_setup\": \"none\", \"perm\": [2, 1, 0], "
            "\"order\": [2, 1, 0], \"output_strides\": [6, 2, 1], \"iteration_shape\": [2, 3, 4], "
            "\"byte_strides\": [[4, 8, 24], [48, 16, 4]], \"groups\": [[2], [1], [0]], "
            "\"num_outputs\": 1, \"is_reduction\": false}");
  ASSERT_EQ(ti.inputs.size(), 2u);
  EXPECT_EQ(ti.inputs[1].strides, (std::vector<int64_t>{1, 4, 12}));
  ASSERT_EQ(copy->children.size(), 2u);
  EXPECT_EQ(copy->children[1].line, "copy_kernel: basic loop");
}

// Coalesced dims name the tensor dims they merged, fastest first.
TEST(TraceRecord, CoalescedGroupsNameTheTensorDims) {
  at::Tensor a = at::rand({2, 3, 4, 5});
  at::Tensor p = a.permute({0, 2, 3, 1});
  Recording recording;
  // [2, 4, 5, 3] with strides [60, 5, 1, 20] into [60, 15, 3, 1]: walked fastest first as dims
  // 3, 2, 1, 0, where dims 2 and 1 (5 * 1 == 5 in p, 5 * 3 == 15 in q) merge into 20.
  at::Tensor q = p.contiguous();
  at::Tensor cl = a.contiguous(at::MemoryFormat::ChannelsLast).clone();  // one fast run
  const TraceRecord record = TraceRecorder::stop();
  std::vector<std::string> details;
  for (const auto& [node, depth] : preorder(record)) {
    if (node->line.rfind("TensorIterator:", 0) == 0) details.push_back(node->detail);
  }
  ASSERT_EQ(details.size(), 3u);
  EXPECT_NE(details[0].find("\"perm\": [3, 2, 1, 0], \"order\": [3, 2, 1, 0]"), std::string::npos)
      << details[0];
  EXPECT_NE(details[0].find("\"iteration_shape\": [3, 20, 2]"), std::string::npos) << details[0];
  EXPECT_NE(details[0].find("\"groups\": [[3], [2, 1], [0]]"), std::string::npos) << details[0];
  EXPECT_NE(details[2].find("\"fast_setup\": \"channels_last\", \"perm\": null, \"order\": "
                            "[1, 3, 2, 0]"),
            std::string::npos)
      << details[2];
  EXPECT_NE(details[2].find("\"groups\": [[1, 3, 2, 0]]"), std::string::npos) << details[2];
}

// A view's result shares its input's storage number and keeps its own offset and strides.
TEST(TraceRecord, ViewsShareTheirBasesStorageNumber) {
  at::Tensor x = at::arange(24.0).view({2, 3, 4});
  Recording recording;
  at::Tensor n = x.narrow(2, 1, 2);
  at::Tensor tail = x.view({24}).narrow(0, 20, 4);
  at::Tensor e = x.select(0, 1).unsqueeze(0).expand({3, 3, 4});
  at::Tensor fresh = at::empty({4});
  const TraceRecord record = TraceRecorder::stop();
  const TraceNode* narrow = find(record, "aten::narrow");
  ASSERT_NE(narrow, nullptr);
  EXPECT_EQ(narrow->outputs[0].storage, narrow->inputs[0].storage);
  EXPECT_EQ(narrow->outputs[0].offset, 1);
  const TraceNode* expand = find(record, "aten::expand");
  ASSERT_NE(expand, nullptr);
  EXPECT_EQ(expand->outputs[0].strides, (std::vector<int64_t>{0, 4, 1}));
  EXPECT_EQ(expand->outputs[0].offset, 12);
  EXPECT_EQ(expand->outputs[0].storage, narrow->inputs[0].storage);
  const TraceNode* empty = find(record, "aten::empty.memory_format");
  ASSERT_NE(empty, nullptr);
  EXPECT_NE(empty->outputs[0].storage, narrow->inputs[0].storage);
  // Only the cells from a tensor's first element to its last are read.
  const c10::TraceTensor tail_snapshot = [&] {
    for (const TraceNode& root : record.roots) {
      if (root.op == "aten::narrow" && root.outputs[0].offset == 20) return root.outputs[0];
    }
    return c10::TraceTensor();
  }();
  ASSERT_EQ(tail_snapshot.cells.size(), 24u);
  EXPECT_EQ(tail_snapshot.cells[19], "");
  EXPECT_EQ(tail_snapshot.cells[20], "20");
  EXPECT_EQ(tail_snapshot.cells[23], "23");
  // Without kept tensors, tensors have no id (Note [Which ids are unique]).
  EXPECT_EQ(tail_snapshot.impl_id, "");
}

// A storage freed during a recording never lends its number to another one, even one made at
// the same address: the recorder observes it weakly, and its bytes are still freed.
TEST(TraceRecord, FreedStoragesKeepTheirNumbers) {
  Recording recording;
  std::vector<int64_t> numbers;
  for (int i = 0; i < 8; ++i) {
    at::Tensor t = at::empty({1000});
    numbers.push_back(TraceRecorder::snapshot(t).storage);
  }
  TraceRecorder::stop();
  for (size_t i = 1; i < numbers.size(); ++i) EXPECT_EQ(numbers[i], numbers[i - 1] + 1);
}

// The autograd node made is a step naming its node and edges; the result's grad_fn_id is it.
TEST(TraceRecord, AutogradStepsNameTheirNodes) {
  at::Tensor x = at::ones({2, 3}).requires_grad_(true);
  Recording recording;
  at::Tensor y = x.clone();
  const TraceRecord record = TraceRecorder::stop();
  const TraceNode* made = nullptr;
  for (const auto& [node, depth] : preorder(record)) {
    if (node->line.rfind("autograd: created CloneBackward0", 0) == 0) made = node;
  }
  ASSERT_NE(made, nullptr);
  const std::string id = record.roots[0].outputs[0].grad_fn_id;
  ASSERT_EQ(id.rfind("n", 0), 0u) << id;
  EXPECT_EQ(made->detail.rfind("{\"id\": \"" + id +
                                   "\", \"name\": \"CloneBackward0\", \"next\": "
                                   "[{\"id\": \"n",
                               0),
            0u)
      << made->detail;
  EXPECT_NE(made->detail.find("\"leaf_impl_id\": \"" + c10::trace_id(x.unsafeGetTensorImpl()) +
                              "\", \"leaf_sizes\": \"[2, 3]\""),
            std::string::npos)
      << made->detail;
  EXPECT_TRUE(record.roots[0].outputs[0].requires_grad);
}

// Node ids are unique for the recording, though each iteration frees its node and the next one
// may be made at the same address.
TEST(TraceRecord, FreedNodesKeepTheirIds) {
  at::Tensor x = at::ones({3}).requires_grad_(true);
  Recording recording;
  for (int i = 0; i < 6; ++i) at::Tensor y = at::mul(x, 2);
  const TraceRecord record = TraceRecorder::stop();
  std::vector<std::string> ids;
  for (const TraceNode& root : record.roots) ids.push_back(root.outputs[0].grad_fn_id);
  ASSERT_EQ(ids.size(), 6u);
  for (size_t i = 0; i < ids.size(); ++i) {
    for (size_t j = 0; j < i; ++j) EXPECT_NE(ids[i], ids[j]) << i << " and " << j;
  }
}

// Recording an in-place write to a view leaves autograd as it was: no extra node is built
// (Note [Recording never rebuilds a view's grad_fn]), so the nodes made next get the sequence
// numbers they get unrecorded, and the view's gradient goes through the write.
TEST(TraceRecord, RecordingAnInPlaceWriteToAViewChangesNoAutogradState) {
  std::vector<uint64_t> gaps;
  for (const bool record : {false, true}) {
    at::Tensor x = at::ones({4}).requires_grad_(true);
    at::Tensor b = x.clone();
    at::Tensor v = b.narrow(0, 1, 2);
    const uint64_t before = b.grad_fn()->sequence_nr();
    if (record) TraceRecorder::start();
    v.mul_(2);
    if (record) TraceRecorder::stop();
    gaps.push_back(x.clone().grad_fn()->sequence_nr() - before);
    v.sum().backward();
    EXPECT_EQ(x.grad().data_ptr<float>()[1], 2.0f) << (record ? "recorded" : "not recorded");
    EXPECT_EQ(x.grad().data_ptr<float>()[0], 0.0f);
  }
  EXPECT_EQ(gaps[1], gaps[0]) << "nodes made while recording the write";
}

// A call that raises is marked, and the recording goes on balanced: the next call is a root.
TEST(TraceRecord, RaisedCallsAreMarked) {
  Recording recording;
  EXPECT_THROW(at::ones({2, 3}).view({4}), c10::Error);
  at::Tensor ok = at::zeros({2});
  const TraceRecord record = TraceRecorder::stop();
  const TraceNode* view = find(record, "aten::view");
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(view->raised);
  EXPECT_EQ(record.roots.back().op, "aten::zeros");
  EXPECT_FALSE(record.roots.back().raised);
}

// Boxed calls record the tensors on the stack.
TEST(TraceRecord, BoxedCallsRecordTheirTensors) {
  at::Tensor a = at::ones({2, 2});
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("aten::mul", "Tensor");
  torch::jit::Stack stack{at::zeros({5}), a, a};  // the caller's value below the arguments
  Recording recording;
  op.callBoxed(&stack);
  const TraceRecord record = TraceRecorder::stop();
  ASSERT_FALSE(record.roots.empty());
  EXPECT_EQ(record.roots[0].op, "aten::mul.Tensor");
  EXPECT_EQ(record.roots[0].inputs.size(), 2u);
  ASSERT_EQ(record.roots[0].outputs.size(), 1u);
  EXPECT_EQ(record.roots[0].outputs[0].sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(record.roots[0].outputs[0].cells[0], "1");
}

// Past kTraceMaxCalls calls no more outermost calls are kept, and none is kept in part: every
// root kept is a whole neg, and the calls kept and dropped add up to all the calls made.
TEST(TraceRecord, RecordingsAreBounded) {
  at::Tensor t = at::ones({1});
  Recording recording;
  const size_t n = c10::kTraceMaxCalls;
  for (size_t i = 0; i < n; ++i) t = at::neg(t);
  const TraceRecord record = TraceRecorder::stop();
  ASSERT_FALSE(record.roots.empty());
  auto calls_in = [](const TraceNode& root) {
    size_t calls = 0;
    std::function<void(const TraceNode&)> walk = [&](const TraceNode& node) {
      calls += node.kind != TraceNode::Kind::Step;
      for (const TraceNode& c : node.children) walk(c);
    };
    walk(root);
    return calls;
  };
  const size_t per_neg = calls_in(record.roots[0]);
  ASSERT_GE(per_neg, 2u);  // neg on Autograd, then on CPU at least
  size_t kept = 0;
  for (const TraceNode& root : record.roots) {
    EXPECT_EQ(root.op, "aten::neg");
    EXPECT_EQ(calls_in(root), per_neg);
    kept += calls_in(root);
  }
  EXPECT_GE(kept, c10::kTraceMaxCalls);
  EXPECT_LT(kept, c10::kTraceMaxCalls + per_neg);
  EXPECT_EQ(kept + record.dropped, n * per_neg);
  EXPECT_FALSE(c10::DispatchTrace::enabled());  // the recording's trace request is gone
}

TEST(TraceRecord, JsonStringsAreSafeInAPage) {
  EXPECT_EQ(c10::json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
  EXPECT_EQ(c10::json_string("</script>"), "\"\\u003c/script>\"");
  EXPECT_EQ(c10::json_string("\xc2\xb5s"), "\"\xc2\xb5s\"");  // µs passes whole
  EXPECT_EQ(c10::json_string("a\xff"
                             "b\xc3"),
            "\"a\\ufffdb\\ufffd\"");
  EXPECT_EQ(c10::json_string("\xe2\x82"), "\"\\ufffd\\ufffd\"");  // cut short
  EXPECT_EQ(c10::json_string("\xc0\xaf"), "\"\\ufffd\\ufffd\"");  // overlong '/'
  EXPECT_EQ(c10::json_string("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // a surrogate
  EXPECT_EQ(c10::json_string("\xf8\x88\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  EXPECT_EQ(c10::json_string("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");  // U+1F600 passes
}

}  // namespace
