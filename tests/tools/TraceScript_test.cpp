// miniaten_trace's script language (tools/trace/Script.h) and how calls bind to schemas
// (tools/trace/Binder.h, Note [Which overload a call binds]).

#include <gtest/gtest.h>

#include "aten/ATen.h"
#include "tools/trace/Binder.h"
#include "tools/trace/Script.h"

namespace {

using miniaten_trace::parse_script;
using miniaten_trace::Value;

std::string parse_error(const std::string& script) {
  try {
    parse_script(script);
  } catch (const c10::Error& e) {
    return e.msg();
  }
  return "<parsed>";
}

TEST(TraceScript, StatementsTargetsAndArguments) {
  const auto st = parse_script(
      "x = ones([2, 3, 4])  # a comment\n"
      "y = transpose(x, 0, -2); z = y.contiguous()\n"
      "v, i = aten::max.dim(x, 1, keepdim=True)\n"
      "s = sum(x, dtype=torch.float64, dim=(0,))\n"
      "w = full([2], -inf, device='cpu', layout=None, pin_memory=False)\n"
      "\n"
      "f(1e-3, 2.5, .5, \"floor\", [], [[1], [2, 3]])");
  ASSERT_EQ(st.size(), 7u);
  EXPECT_EQ(st[0].text, "x = ones([2, 3, 4])  # a comment");
  EXPECT_EQ(st[0].targets, std::vector<std::string>{"x"});
  EXPECT_EQ(st[0].call.callee, "ones");
  ASSERT_EQ(st[0].call.args.size(), 1u);
  EXPECT_EQ(miniaten_trace::to_text(st[0].call.args[0].value), "[2, 3, 4]");

  EXPECT_EQ(st[1].call.callee, "transpose");
  EXPECT_EQ(st[1].call.args[2].value.i, -2);
  EXPECT_EQ(st[2].text, "z = y.contiguous()");
  EXPECT_EQ(st[2].call.callee, "y.contiguous");
  EXPECT_TRUE(st[2].call.args.empty());

  EXPECT_EQ(st[3].targets, (std::vector<std::string>{"v", "i"}));
  EXPECT_EQ(st[3].call.callee, "aten::max.dim");
  EXPECT_EQ(st[3].call.args[2].name, "keepdim");
  EXPECT_EQ(st[3].call.args[2].value.kind, Value::Kind::Bool);

  EXPECT_EQ(st[4].call.args[1].value.kind, Value::Kind::Name);
  EXPECT_EQ(st[4].call.args[1].value.text, "torch.float64");
  EXPECT_EQ(miniaten_trace::to_text(st[4].call.args[2].value), "[0]");

  EXPECT_EQ(st[5].call.args[1].value.kind, Value::Kind::Float);
  EXPECT_EQ(st[5].call.args[1].value.text, "-inf");
  EXPECT_EQ(st[5].call.args[2].value.kind, Value::Kind::String);
  EXPECT_EQ(st[5].call.args[3].value.kind, Value::Kind::None);
  EXPECT_TRUE(st[6].targets.empty());

  const auto calls = parse_script("f(1e-3, 2.5, .5, \"floor\", [], [[1], [2, 3]])");
  const auto& f = calls[0].call.args;
  EXPECT_DOUBLE_EQ(f[0].value.f, 1e-3);
  EXPECT_DOUBLE_EQ(f[2].value.f, 0.5);
  EXPECT_EQ(f[3].value.text, "floor");
  EXPECT_TRUE(f[4].value.items.empty());
  EXPECT_EQ(miniaten_trace::to_text(f[5].value), "[[1], [2, 3]]");
  // Inside brackets a newline does not end the statement, right after the opening one too.
  EXPECT_EQ(parse_script("x = ones([2,\n 3])").size(), 1u);
  const auto spread = parse_script("x = ones(\n[\n2, 3\n]\n)\ny = neg(x)");
  ASSERT_EQ(spread.size(), 2u);
  EXPECT_EQ(miniaten_trace::to_text(spread[0].call.args[0].value), "[2, 3]");
}

TEST(TraceScript, SyntaxErrorsPointAtTheToken) {
  EXPECT_EQ(parse_error("x = ones([2, 3)"),
            "expected ']' but found ')':\nx = ones([2, 3)\n              ^");
  EXPECT_EQ(parse_error("x = ones([2])\ny = = 1"),
            "expected a call but found '=':\ny = = 1\n    ^");
  EXPECT_EQ(parse_error("x = ones"), "expected '(' but found end of input:\nx = ones\n        ^");
  EXPECT_EQ(parse_error("x = f('abc)"), "unterminated string:\nx = f('abc)\n      ^");
  EXPECT_EQ(parse_error("x = f(1) y = g()"),
            "expected ';' or a newline but found 'y':\nx = f(1) y = g()\n         ^");
  EXPECT_EQ(parse_error("x = f(1 $)"),
            "expected a name, a number, a string or punctuation but found '$':\nx = f(1 $)\n"
            "        ^");
}

// Binds `call` (one statement) with x a float [2, 3, 4] tensor and returns the schema chosen.
std::string bound_schema(const std::string& call) {
  miniaten_trace::Variables vars;
  vars["x"] = at::ones({2, 3, 4});
  const auto st = parse_script(call);
  return c10::toString(
      miniaten_trace::resolve(st[0].call.callee, st[0].call.args, vars).op.schema());
}

std::string bind_error(const std::string& call) {
  try {
    return "<bound> " + bound_schema(call);
  } catch (const c10::Error& e) {
    return e.msg();
  }
}

TEST(TraceScript, CallsBindToTheOverloadTheirArgumentsFit) {
  EXPECT_EQ(bound_schema("transpose(x, 0, 2)"),
            "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)");
  EXPECT_EQ(bound_schema("add(x, x)"),
            "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(bound_schema("add(x, 1)"),
            "aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(bound_schema("sum(x, 1, keepdim=True)").rfind("aten::sum.dim_IntList(", 0), 0u);
  EXPECT_EQ(bound_schema("sum(x)").rfind("aten::sum(", 0), 0u);
  EXPECT_EQ(bound_schema("add(x, x, out=x)").rfind("aten::add.out(", 0), 0u);
  EXPECT_EQ(bound_schema("aten::add.Tensor(x, x, alpha=2)").rfind("aten::add.Tensor(", 0), 0u);
  EXPECT_EQ(bound_schema("ones([2], dtype=int64, device='cpu')").rfind("aten::ones(", 0), 0u);
  EXPECT_EQ(bound_schema("contiguous(x, memory_format=torch.channels_last)"),
            "aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)");
}

TEST(TraceScript, CallsThatFitNothingSayWhyForEachOverload) {
  EXPECT_EQ(bind_error("nonesuch(x)"),
            "unknown operator 'nonesuch': no operator of that name is registered (--ops lists "
            "them)");
  EXPECT_EQ(bind_error("transpose.int(x, 0)"),
            "no overload of aten::transpose takes these arguments:\n"
            "  aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)\n"
            "    missing argument 'dim1'");
  EXPECT_EQ(bind_error("contiguous(y)"),
            "no overload of aten::contiguous takes these arguments:\n"
            "  aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)\n"
            "    argument 'self': 'y' is not a variable");
  EXPECT_EQ(bind_error("contiguous(x, channels_last)"),
            "no overload of aten::contiguous takes these arguments:\n"
            "  aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)\n"
            "    takes at most 1 positional argument");
  EXPECT_EQ(bind_error("contiguous(x, memory_format=nhwc)"),
            "no overload of aten::contiguous takes these arguments:\n"
            "  aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)\n"
            "    argument 'memory_format': 'nhwc' is not a memory format (contiguous_format, "
            "channels_last, channels_last_3d, preserve_format)");
  EXPECT_NE(bind_error("ones([2], dtype=float65)")
                .find("argument 'dtype': 'float65' is not a dtype (float32, int64, bool, ...)"),
            std::string::npos);
  const std::string e = bind_error("transpose(x, 0, 1.5)");
  EXPECT_NE(e.find("aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)\n"
                   "    argument 'dim1': expected int but got 1.5 (float)"),
            std::string::npos)
      << e;
  EXPECT_NE(bind_error("transpose(x, 0, 1, 2)").find("takes at most 3 positional arguments"),
            std::string::npos);
  EXPECT_NE(bind_error("transpose(x, dim0=0, dim9=1)").find("has no argument named 'dim9'"),
            std::string::npos);
  // As in Python, a positional argument may not follow a named one (it would land on a slot
  // already taken: sum(x, dim=[0], 1) must not sum over dim 1).
  EXPECT_EQ(bind_error("sum(x, dim=[0], 1)"), "positional argument follows keyword argument");
  EXPECT_NE(bind_error("transpose(x, 0, dim0=1)").find("argument 'dim0' given twice"),
            std::string::npos);
}

}  // namespace
