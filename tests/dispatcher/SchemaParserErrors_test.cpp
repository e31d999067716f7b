#include <gtest/gtest.h>

#include <string>

#include "dispatcher/CustomClass.h"
#include "dispatcher/SchemaParser.h"

// Parse errors, with the exact texts libtorch 1.13 gives (pasted from its output).

namespace {

using torch::jit::parseSchema;

std::string printed(const std::string& schema) {
  return c10::toString(parseSchema(schema));
}

std::string parse_error(const std::string& schema) {
  try {
    torch::jit::parseSchemaOrName(schema);
  } catch (const c10::Error& e) {
    return e.msg();
  }
  return "<parsed>";
}

struct ErrorCase {
  const char* schema;
  const char* message;
};

// See Note [Schema error layout] in dispatcher/impl/SchemaLexer.cpp.
const ErrorCase kErrors[] = {
    {R"X(aten::add(Tensor self x)X",
     R"X(expected ) but found 'ident' here:
aten::add(Tensor self x
                      ~ <--- HERE
)X"},
    {R"X(a::b(int x=channels_last) -> ())X",
     R"X(
invalid numeric default value:
a::b(int x=channels_last) -> ()
                        ~ <--- HERE
)X"},
    {R"X(a::b(int x=Sum) -> ())X",
     R"X(
invalid numeric default value:
a::b(int x=Sum) -> ()
              ~ <--- HERE
)X"},
    {R"X(a::b(float y=-inf) -> ())X",
     R"X(expected number but found 'ident' here:
a::b(float y=-inf) -> ()
              ~~~ <--- HERE
)X"},
    {R"X(a::b.c()X",
     R"X(expected ident but found 'eof' here:
a::b.c()X"},
    {R"X(a::b(Tensor x) ->)X",
     R"X(expected ident but found 'eof' here:
a::b(Tensor x) ->)X"},
    {R"X(a::b(Tensor x) -> Tensor y z)X",
     R"X(expected eof but found 'ident' here:
a::b(Tensor x) -> Tensor y z
                           ~ <--- HERE
)X"},
    {R"X(a::b(Tensor x))X",
     R"X(expected arrow but found 'eof' here:
a::b(Tensor x))X"},
    {R"X(a::b(Tensor x) -> ()  extra)X",
     R"X(expected eof but found 'ident' here:
a::b(Tensor x) -> ()  extra
                      ~~~~~ <--- HERE
)X"},
    {R"X(a::b(Tensor x, ..., Tensor y) -> ())X",
     R"X(
... must be the last element of the argument list:
a::b(Tensor x, ..., Tensor y) -> ()
                    ~~~~~~ <--- HERE
)X"},
    {R"X(a::b(Tensor x) -> (..., int))X",
     R"X(
... must be the last element of the return list:
a::b(Tensor x) -> (..., int)
                        ~~~ <--- HERE
)X"},
    {R"X(a::b(int x=1, ...) -> ())X",
     R"X(
schemas with vararg (...) can't have default value args:
a::b(int x=1, ...) -> ()
                   ~~ <--- HERE
)X"},
    {R"X(a::b(Foo x) -> ())X",
     R"X(
unknown type specifier:
a::b(Foo x) -> ()
     ~~~ <--- HERE
)X"},
    {R"X(a::b(Tensor?(a!) x) -> ())X",
     R"X(expected ident but found '(' here:
a::b(Tensor?(a!) x) -> ()
            ~ <--- HERE
)X"},
    {R"X(a::b(Tensor[2]?[] x) -> ())X",
     R"X(expected ident but found '[' here:
a::b(Tensor[2]?[] x) -> ()
               ~ <--- HERE
)X"},
    {R"X(a::b(Tensor(*|a) x) -> ())X",
     R"X(expected ) but found 'ident' here:
a::b(Tensor(*|a) x) -> ()
              ~ <--- HERE
)X"},
    {R"X(a::b(Tensor() x) -> ())X",
     R"X(expected ident but found ')' here:
a::b(Tensor() x) -> ()
            ~ <--- HERE
)X"},
    {R"X(a::b(str[] x=["a"]) -> ())X",
     R"X(
lists are only supported for float, int and complex types:
a::b(str[] x=["a"]) -> ()
             ~ <--- HERE
)X"},
    {R"X(a::b(int x=[1]) -> ())X",
     R"X(expected number but found '[' here:
a::b(int x=[1]) -> ()
           ~ <--- HERE
)X"},
    {R"X(a::b(int[2] x=[1) -> ())X",
     R"X(expected ] but found ')' here:
a::b(int[2] x=[1) -> ()
                ~ <--- HERE
)X"},
    {R"X(a::b(int[] x=3) -> ())X",
     R"X(expected [ but found 'number' here:
a::b(int[] x=3) -> ()
             ~ <--- HERE
)X"},
    {R"X(a::b(int[]? x=[3,3]) -> ())X",
     R"X(expected number but found '[' here:
a::b(int[]? x=[3,3]) -> ()
              ~ <--- HERE
)X"},
    {R"X(a::b(Tensor x=1) -> ())X",
     R"X(expected None but found 'number' here:
a::b(Tensor x=1) -> ()
              ~ <--- HERE
)X"},
    {R"X(a::b(int[2] x=foo) -> ())X",
     R"X(expected None but found 'ident' here:
a::b(int[2] x=foo) -> ()
              ~~~ <--- HERE
)X"},
    {R"X(a::b(ScalarType x=int) -> ())X",
     R"X(
invalid numeric default value:
a::b(ScalarType x=int) -> ()
                     ~ <--- HERE
)X"},
    {R"X(a::b(str x=r"raw") -> ())X",
     R"X(
invalid numeric default value:
a::b(str x=r"raw") -> ()
            ~~~~~ <--- HERE
)X"},
    {R"X(a::b(number x=1) -> ())X",
     R"X(
unexpected type, file a bug report:
a::b(number x=1) -> ()
              ~ <--- HERE
)X"},
    {R"X(a::b(Storage s=None) -> ())X",
     R"X(
unexpected type, file a bug report:
a::b(Storage s=None) -> ()
               ~~~~ <--- HERE
)X"},
    {R"X(a::b(str x="\u00e9\t") -> ())X",
     R"X(
unsupported unicode specifier:
a::b(str x="\u00e9\t") -> ()
           ~~~~~~~~~~ <--- HERE
)X"},
    {R"X(a::b(str y="\x41") -> ())X",
     R"X(
unsupported hex specifier:
a::b(str y="\x41") -> ()
           ~~~~~~ <--- HERE
)X"},
    {R"X(a::b(int x,) -> ())X",
     R"X(expected ident but found ')' here:
a::b(int x,) -> ()
           ~ <--- HERE
)X"},
    {R"X(a::b(,) -> ())X",
     R"X(expected ident but found ',' here:
a::b(,) -> ()
     ~ <--- HERE
)X"},
    {R"X(a::b() -> (int a,))X",
     R"X(expected ident but found ')' here:
a::b() -> (int a,)
                 ~ <--- HERE
)X"},
    {R"X(aten::b.c.d() -> ())X",
     R"X(expected eof but found '.' here:
aten::b.c.d() -> ()
         ~ <--- HERE
)X"},
    {R"X(aten:b() -> ())X",
     R"X(expected : but found 'ident' here:
aten:b() -> ()
     ~ <--- HERE
)X"},
    {R"X(aten::1b() -> ())X",
     R"X(expected ident but found 'number' here:
aten::1b() -> ()
      ~ <--- HERE
)X"},
    {R"X(a::b(int[-1] x) -> ())X",
     R"X(expected number but found '-' here:
a::b(int[-1] x) -> ()
         ~ <--- HERE
)X"},
    {R"X(a::b(int x=--1) -> ())X",
     R"X(expected number but found '-' here:
a::b(int x=--1) -> ()
            ~ <--- HERE
)X"},
    {R"X(a::b(int x=+1) -> ())X",
     R"X(expected number but found '+' here:
a::b(int x=+1) -> ()
           ~ <--- HERE
)X"},
    {R"X(a::b(bool x=true) -> ())X",
     R"X(
invalid numeric default value:
a::b(bool x=true) -> ()
                ~ <--- HERE
)X"},
    {R"X(a::b(Tensor in) -> ())X",
     R"X(expected ident but found 'in' here:
a::b(Tensor in) -> ()
            ~~ <--- HERE
)X"},
    {R"X(a::b(Tensor x) -> Tensor not)X",
     R"X(expected eof but found 'not' here:
a::b(Tensor x) -> Tensor not
                         ~~~ <--- HERE
)X"},
    {R"X(a::b(Tensor x$) -> ())X",
     R"X(expected a valid token but found '$' here:
a::b(Tensor x$) -> ()
             ~ <--- HERE
)X"},
    {R"X(a::b(str x="abc) -> ())X",
     R"X(expected a valid token but found '"' here:
a::b(str x="abc) -> ()
           ~ <--- HERE
)X"},
    {R"X(a::b(__torch__.torch.notclasses.foo.Bar x) -> ())X",
     R"X(
Expected classes namespace but got notclasses:
a::b(__torch__.torch.notclasses.foo.Bar x) -> ()
                     ~~~~~~~~~~ <--- HERE
)X"},
    {R"X(a::b(Dict(str Tensor) x) -> ())X",
     R"X(expected , but found 'ident' here:
a::b(Dict(str Tensor) x) -> ()
              ~~~~~~ <--- HERE
)X"},
    {R"X(a::b(str y="\q") -> ())X",
     R"X(
 ill formed octal specifier:
a::b(str y="\q") -> ()
           ~~~~ <--- HERE
)X"},
};

TEST(SchemaParserErrors, QuoteTheSchemaAndUnderlineTheToken) {
  for (const auto& c : kErrors) EXPECT_EQ(parse_error(c.schema), c.message) << c.schema;
}

TEST(SchemaParserErrors, MultiLineSchemasShowThreeLinesOfContext) {
  EXPECT_EQ(parse_error("a::b(int x,\n  int y z) -> ()"),
            "expected ) but found 'ident' here:\n"
            "a::b(int x,\n"
            "  int y z) -> ()\n"
            "        ~ <--- HERE\n");
  EXPECT_EQ(parse_error("a::b(\n int x,\n int y,\n int z,\n int w,\n int v v,\n int u,\n"
                        " int t,\n int s,\n int r) -> ()"),
            "expected ) but found 'ident' here:\n"
            " int z,\n"
            " int w,\n"
            " int v v,\n"
            "       ~ <--- HERE\n"
            " int u,\n"
            " int t,\n");
  // Outside brackets a newline is a token; a schema may only end with one.
  EXPECT_EQ(printed("a::b(int x,\n  int y) -> ()\n"), "a::b(int x, int y) -> ()");
  EXPECT_EQ(parse_error("a::b(int x,\n  int y)\n"),
            "expected arrow but found 'newline' here:\n"
            "a::b(int x,\n"
            "  int y)\n");
  EXPECT_EQ(parse_error("a::b(int x)\n  -> ()"),
            "expected arrow but found 'indent' here:\n"
            "a::b(int x)\n"
            "  -> ()\n");
  EXPECT_EQ(parse_error("   a::b(int x)\n  -> ()"),
            "invalid indent level 2:\n"
            "   a::b(int x)\n"
            "  -> ()\n");
  EXPECT_EQ(parse_error(""), "expected ident but found 'eof' here:\n");
  EXPECT_EQ(parse_error("("), "expected ident but found '(' here:\n(");
}

TEST(SchemaParserErrors, RejectsPositionalArgumentAfterADefault) {
  // libtorch 1.13 crashes on this one while formatting the message; the text is its own.
  EXPECT_EQ(parse_error("a::b(int x=1, int y) -> ()"),
            "Non-default positional argument follows default argument. Parameter y in "
            "a::b(int x=1, int y) -> ()");
  // Lists and keyword-only arguments are exempt.
  EXPECT_NO_THROW(parseSchema("a::b(int x=1, int[] y) -> ()"));
  EXPECT_NO_THROW(parseSchema("a::b(int x=1, *, int y) -> ()"));
}

TEST(SchemaParserErrors, FormsMiniatenDoesNotSupport) {
  // Complex defaults (libtorch reads `1j` as a complex number).
  EXPECT_EQ(parse_error("a::b(complex x=1j) -> ()"),
            "\ncomplex default values are not supported:\n"
            "a::b(complex x=1j) -> ()\n"
            "               ~~ <--- HERE\n");
  // Numbers outside int64 / double (libtorch throws std::out_of_range("stoll")).
  EXPECT_EQ(parse_error("a::b(int x=99999999999999999999) -> ()"),
            "\nnumber out of range:\n"
            "a::b(int x=99999999999999999999) -> ()\n"
            "           ~~~~~~~~~~~~~~~~~~~~ <--- HERE\n");
  // Types nested past 100 levels (libtorch recurses until the stack overflows; found by
  // fuzz_schema, Note [How deep a type may nest]).
  const auto nested = [](int depth) {
    return "a::b(" + std::string(static_cast<size_t>(depth), '(') + "int" +
           std::string(static_cast<size_t>(depth), ')') + " x) -> ()";
  };
  EXPECT_NO_THROW(parseSchema(nested(99)));
  const std::string error = parse_error(nested(100));
  EXPECT_EQ(error.rfind("\ntypes nest more than 100 levels deep:\n", 0), 0u) << error;
  EXPECT_NE(parse_error(nested(5000)).find("types nest more than 100 levels deep"),
            std::string::npos);
  // Fixed list sizes past int32 (libtorch reads int[4294967298] as int[2]) and single defaults
  // repeated more than 65536 times (Note [How long a fixed-size list may be]; found by
  // fuzz_schema as an out-of-memory).
  EXPECT_EQ(parse_error("a::b(int[4294967298] x) -> ()"),
            "\nlist size out of range:\n"
            "a::b(int[4294967298] x) -> ()\n"
            "         ~~~~~~~~~~ <--- HERE\n");
  EXPECT_EQ(parse_error("a::b(int[2000000000] y=-2) -> ()"),
            "\na single default for a list of 2000000000 elements (at most 65536 are expanded):\n"
            "a::b(int[2000000000] y=-2) -> ()\n"
            "                       ~ <--- HERE\n");
  EXPECT_EQ(
      parseSchema("a::b(int[65536] y=3) -> ()").arguments()[0].default_value()->toIntList().size(),
      65536u);
}

// Note [Custom classes must be registered]: libtorch 1.13's texts, arguments and returns alike.
TEST(SchemaParserErrors, UnregisteredCustomClassesAreRefused) {
  EXPECT_EQ(parse_error("a::b(Tensor x) -> __torch__.torch.classes.foo.Bar"),
            "\nUnknown custom class type foo.Bar. Please ensure it is registered.:\n"
            "a::b(Tensor x) -> __torch__.torch.classes.foo.Bar\n"
            "                                              ~~~ <--- HERE\n");
  EXPECT_EQ(parse_error("a::b(Tensor x) -> (int, __torch__.torch.classes.foo.Bar)"),
            "\nUnknown custom class type foo.Bar. Please ensure it is registered.:\n"
            "a::b(Tensor x) -> (int, __torch__.torch.classes.foo.Bar)\n"
            "                                                    ~~~ <--- HERE\n");
  EXPECT_EQ(parse_error("a::b(__torch__.torch.classes.foo.Bar? x) -> ()"),
            "\nUnknown custom class type foo.Bar. Please ensure it is registered.:\n"
            "a::b(__torch__.torch.classes.foo.Bar? x) -> ()\n"
            "                                 ~~~ <--- HERE\n");
  EXPECT_EQ(parse_error("a::b(__torch__.nottorch.classes.foo.Bar x) -> ()"),
            "\nExpected classes namespace but got nottorch:\n"
            "a::b(__torch__.nottorch.classes.foo.Bar x) -> ()\n"
            "               ~~~~~~~~ <--- HERE\n");
  EXPECT_EQ(parse_error("a::b(__torch__.torch.classes.foo x) -> ()"),
            "expected . but found 'ident' here:\n"
            "a::b(__torch__.torch.classes.foo x) -> ()\n"
            "                                 ~ <--- HERE\n");
  // Registered, the same schemas parse and print back.
  c10::registerCustomClass("__torch__.torch.classes.foo.Bar");
  EXPECT_EQ(printed("a::b(__torch__.torch.classes.foo.Bar? x) -> __torch__.torch.classes.foo.Bar"),
            "a::b(__torch__.torch.classes.foo.Bar? x) -> __torch__.torch.classes.foo.Bar");
  EXPECT_EQ(parseSchema("a::b(Tensor x) -> __torch__.torch.classes.foo.Bar").returns()[0].type(),
            c10::getCustomClass("__torch__.torch.classes.foo.Bar"));
  EXPECT_EQ(c10::getCustomClass("__torch__.torch.classes.foo.Baz"), nullptr);
}

}  // namespace
