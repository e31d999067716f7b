#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <variant>

#include "dispatcher/CustomClass.h"
#include "dispatcher/SchemaParser.h"

// Unless a comment says otherwise, the expected texts here were produced by libtorch 1.13 itself
// (parseSchema, then operator<<, or the exception's message) and pasted in unchanged.

namespace {

using c10::FunctionSchema;
using c10::IValue;
using c10::TypeKind;
using torch::jit::parseSchema;

// The custom classes these schemas name, registered as libtorch's quantized and c10d libraries
// register them before their schemas are parsed (Note [Custom classes must be registered]).
const bool kClassesRegistered = [] {
  for (const char* cls : {"c10d.ProcessGroup", "c10d.Work", "quantized.Conv2dPackedParamsBase",
                          "quantized.LinearPackedParamsBase"}) {
    c10::registerCustomClass(std::string("__torch__.torch.classes.") + cls);
  }
  return true;
}();

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

// Schemas from libtorch's registries (dispatcher and JIT operators), chosen to cover every
// type, annotation and default form they use, plus a few forms they do not.
const char* const kRoundTrips[] = {
    R"X(_quantized::conv2d(Tensor qx, __torch__.torch.classes.quantized.Conv2dPackedParamsBase packed_weight, float output_scale, int output_zero_point) -> Tensor)X",
    R"X(_test::get_first(str[][] _0) -> str _0)X",
    R"X(aten::Delete.Dict_Tensor(Dict(Tensor, t)(a!) self, Tensor key) -> ())X",
    R"X(aten::Delete.t(t[](a!) self, int idx) -> ())X",
    R"X(aten::__getitem__.Dict_Tensor(Dict(Tensor, t) self, Tensor key) -> t(*))X",
    R"X(aten::__interpolate.scale_list(Tensor input, int? size=None, float[]? scale_factor=None, str mode="nearest", bool? align_corners=None, bool? recompute_scale_factor=None, bool antialias=False) -> Tensor)X",
    R"X(aten::__is__(t1 self, t2 obj) -> bool)X",
    R"X(aten::_amp_foreach_non_finite_check_and_unscale.out(Tensor[] self, Tensor(b!) found_inf, Tensor inv_scale, *, Tensor(a!)[] out) -> ())X",
    R"X(aten::_assert_tensor_metadata(Tensor a, int[]? size=None, int[]? stride=None, ScalarType? dtype=None) -> ())X",
    R"X(aten::_batch_norm_impl_index_backward(int impl_index, Tensor input, Tensor grad_output, Tensor? weight, Tensor? running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_var_transform, bool train, float eps, bool[3] output_mask, Tensor reservedSpace) -> (Tensor, Tensor, Tensor))X",
    R"X(aten::_cudnn_init_dropout_state(float dropout, bool train, int dropout_seed, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False) -> Tensor)X",
    R"X(aten::_cudnn_rnn(Tensor input, Tensor[] weight, int weight_stride0, Tensor? weight_buf, Tensor hx, Tensor? cx, int mode, SymInt hidden_size, SymInt proj_size, int num_layers, bool batch_first, float dropout, bool train, bool bidirectional, SymInt[] batch_sizes, Tensor? dropout_state) -> (Tensor, Tensor, Tensor, Tensor, Tensor))X",
    R"X(aten::_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor))X",
    R"X(aten::_foreach_add.ScalarList(Tensor[] self, Scalar[] scalars) -> Tensor[])X",
    R"X(aten::_foreach_cos_(Tensor(a!)[] self) -> ())X",
    R"X(aten::_fused_dropout(Tensor self, float p, Generator? generator=None) -> (Tensor, Tensor))X",
    R"X(aten::_index_put_impl(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False, bool unsafe=False) -> Tensor)X",
    R"X(aten::_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh))X",
    R"X(aten::_mps_max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor)X",
    R"X(aten::_nested_sum_backward(Tensor grad, Tensor self, int[1]? dim, bool keepdim=False) -> Tensor)X",
    R"X(aten::_nnpack_spatial_convolution(Tensor input, Tensor weight, Tensor? bias, int[2] padding, int[2] stride=1) -> Tensor)X",
    R"X(aten::_resize_output(Tensor self, int[] size, Device device) -> Tensor)X",
    R"X(aten::_test_string_default(Tensor dummy, str a="\"\'\\", str b="\"\'\\") -> Tensor)X",
    R"X(aten::_upsample_nearest_exact1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor)X",
    R"X(aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!))X",
    R"X(aten::allclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> bool)X",
    R"X(aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!))X",
    R"X(aten::as_tensor(Tensor(a) data, *, ScalarType? dtype=None, Device? device=None) -> Tensor(b|a))X",
    R"X(aten::bernoulli.float_out(Tensor self, float p=0.5, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!))X",
    R"X(aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[])X",
    R"X(aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a))X",
    R"X(aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor)X",
    R"X(aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100, float label_smoothing=0.) -> Tensor)X",
    R"X(aten::cummax.dimname_out(Tensor self, str dim, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices))X",
    R"X(aten::dict.Tensor((Tensor, tVal)[] inputs) -> Dict(Tensor, tVal))X",
    R"X(aten::einsum.sublist(Tensor a, ...) -> Tensor)X",
    R"X(aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor)X",
    R"X(aten::eq.enum(AnyEnumType a, AnyEnumType b) -> bool)X",
    R"X(aten::fft_fft2(Tensor self, int[1]? s=None, int[1] dim=[-2, -1], str? norm=None) -> Tensor)X",
    R"X(aten::format(str self, ...) -> str)X",
    R"X(aten::histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor)X",
    R"X(aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor)X",
    R"X(aten::items.Tensor(Dict(Tensor, t) self) -> ((Tensor, t)[]))X",
    R"X(aten::keys.complex(Dict(complex, t) self) -> complex[](*))X",
    R"X(aten::logsumexp.names(Tensor self, str[1] dim, bool keepdim=False) -> Tensor)X",
    R"X(aten::lstrip(str self, str chars=" \n\t\f\v") -> str)X",
    R"X(aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices))X",
    R"X(aten::nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation="linear") -> Tensor)X",
    R"X(aten::popitem.str(Dict(str, t)(a!) self) -> ((str, t)))X",
    R"X(aten::qscheme(Tensor self) -> QScheme)X",
    R"X(aten::record_stream(Tensor(a!) self, Stream s) -> ())X",
    R"X(aten::reflection_pad3d(Tensor self, int[6] padding) -> Tensor)X",
    R"X(aten::rot90(Tensor self, int k=1, int[] dims=[0, 1]) -> Tensor)X",
    R"X(aten::rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, Generator? generator=None) -> Tensor)X",
    R"X(aten::set.source_Storage(Tensor self, Storage source) -> Tensor)X",
    R"X(aten::sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices))X",
    R"X(aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[])X",
    R"X(aten::to_here(RRef(t) self, float timeout=60.) -> t)X",
    R"X(aten::unique_consecutive.out(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!)))X",
    R"X(aten::wait(Future(t) self) -> t)X",
    R"X(c10d::allgather_(Tensor[][] _0, Tensor[] _1, __torch__.torch.classes.c10d.ProcessGroup _2, int _3) -> (Tensor[][] _0, __torch__.torch.classes.c10d.Work _1))X",
    R"X(prim::IfThenElse(bool cond, Any(a) x, Any(b) y) -> Any(b|a))X",
    R"X(prim::IgnoredPythonOp(...) -> NoneType)X",
    R"X(prim::TupleUnpack(Any tup) -> ...)X",
    R"X(prim::id(AnyClassType? x) -> int)X",
    R"X(quantized::add.Scalar_out(Tensor qa, Scalar b, Tensor(a!) out) -> Tensor(a!) out)X",
    R"X(static_runtime::dict_unpack(...) -> ...)X",
    R"X(test::capsule(Capsule c, Tensor(a)[](b) x, Tensor(a -> b|c) y) -> Tensor[2])X",
};

TEST(SchemaParser, RegisteredSchemasPrintBackUnchanged) {
  for (const char* text : kRoundTrips) {
    const FunctionSchema schema = parseSchema(text);
    EXPECT_EQ(c10::toString(schema), text);
    EXPECT_EQ(parseSchema(c10::toString(schema)), schema) << text;
  }
}

struct Normalization {
  const char* input;
  const char* printed;
};

// Inputs libtorch accepts but prints differently: its canonical spelling of defaults (floats with
// 17 significant digits, enum names as numbers, double-quoted strings, collapsed int lists),
// types (Dimname is str), alias sets, returns and whitespace.
const Normalization kNormalizations[] = {
    {R"X(a::b.c(Tensor x) -> (Tensor))X", R"X(a::b.c(Tensor x) -> Tensor)X"},
    {R"X(a::b.c(Tensor x) -> (Tensor a))X", R"X(a::b.c(Tensor x) -> Tensor a)X"},
    {R"X(a::b(Tensor x) -> Tensor[2])X", R"X(a::b(Tensor x) -> Tensor[2])X"},
    {R"X(a::b(int x=contiguous_format, int y=float, int z=long, int w=strided, int r=Mean, ScalarType s=complex) -> ())X",
     R"X(a::b(int x=0, int y=6, int z=4, int w=0, int r=1, ScalarType s=9) -> ())X"},
    {R"X(a::b(MemoryFormat? m=contiguous_format, Layout l=strided, ScalarType? s=long) -> ())X",
     R"X(a::b(MemoryFormat? m=0, Layout l=0, ScalarType? s=4) -> ())X"},
    {R"X(a::b(float x=1.5e300, float y=0.1, float z=2.5, float w=1e-5, float v=1e-8, float u=0.16) -> ())X",
     R"X(a::b(float x=1.5000000000000001e+300, float y=0.10000000000000001, float z=2.5, float w=1.0000000000000001e-05, float v=1e-08, float u=0.16) -> ())X"},
    {R"X(a::b(float a=1e15, float b=9.2e18, float c=1e19, float d=-1e20, float e=-0.0, float f=-5., float g=.5) -> ())X",
     R"X(a::b(float a=1000000000000000., float b=9200000000000000000., float c=1e+19, float d=-1e+20, float e=0., float f=-5., float g=0.5) -> ())X"},
    {R"X(a::b(float x=123456789012.0, float y=1e10, float z=9999999999) -> ())X",
     R"X(a::b(float x=123456789012., float y=10000000000., float z=9999999999.) -> ())X"},
    {R"X(a::b(str x='abc', str y="a\nb", str z='it"s', str w="a'b", str v='''tri"ple''') -> ())X",
     R"X(a::b(str x="abc", str y="a\nb", str z="it\"s", str w="a\'b", str v="tri\"ple") -> ())X"},
    {R"X(a::b(str x="\a\b\f\v\101\t\\", str y="\1234", str z=" \n\t\f\v") -> ())X",
     R"X(a::b(str x="\a\b\f\vA\t\\", str y="S4", str z=" \n\t\f\v") -> ())X"},
    {R"X(a::b(int[] x=[], int[2] y=[1,2], int[2] z=3, int[3] w=[4,4,4], int[1] o=[2], int[2] e=[]) -> ())X",
     R"X(a::b(int[] x=[], int[2] y=[1, 2], int[2] z=3, int[3] w=4, int[1] o=[2], int[2] e=[]) -> ())X"},
    {R"X(a::b(float[] f=[1.0, 2.5, -3], float[2] g=0.5, bool[3] b=[True,False,True], bool[2] c=True) -> ())X",
     R"X(a::b(float[] f=[1., 2.5, -3.], float[2] g=[0.5, 0.5], bool[3] b=[True, False, True], bool[2] c=[True, True]) -> ())X"},
    {R"X(a::b(SymInt[2] x=1, SymInt[] y=[1, 2], int[2]? z=3, int[]? w=None) -> ())X",
     R"X(a::b(SymInt[2] x=[1, 1], SymInt[] y=[1, 2], int[2]? z=3, int[]? w=None) -> ())X"},
    {R"X(a::b(Scalar x=1e-2, Scalar y=-3, Scalar z=False, Scalar? w=2, Scalar v=1.5) -> ())X",
     R"X(a::b(Scalar x=0.01, Scalar y=-3, Scalar z=False, Scalar? w=2, Scalar v=1.5) -> ())X"},
    {R"X(a::b(int a=True, float b=False, int c=None, float? d=1, int e=1.5, bool f=1) -> ())X",
     R"X(a::b(int a=True, float b=False, int c=None, float? d=1, int e=1.5, bool f=1) -> ())X"},
    {R"X(a::b(int x=1e5, int y=1E5, float z=1E5, int[2.5] w) -> ())X",
     R"X(a::b(int x=100000., int y=1, float z=100000., int[2] w) -> ())X"},
    {R"X(a::b(QScheme q, Stream s, Storage t, Dimname n, Dimname[] m, Dimname? o, ConstQuantizerPtr p, None r) -> NoneType)X",
     R"X(a::b(QScheme q, Stream s, Storage t, str n, str[] m, str? o, int p, NoneType r) -> NoneType)X"},
    {R"X(a::b(Tensor(a!->b) x, Tensor(A) y, Tensor(a|a) z) -> ())X",
     R"X(a::b(Tensor(a! -> b) x, Tensor(A) y, Tensor(a) z) -> ())X"},
    {R"X(a::b((Tensor(a), Tensor(b)) x, Future(Tensor(a)) f) -> ())X",
     R"X(a::b((Tensor, Tensor) x, Future(Tensor) f) -> ())X"},
    {R"X(a::b(*, ...) -> (...))X", R"X(a::b(...) -> ...)X"},
    {R"X(a::b(Tensor x, *) -> ())X", R"X(a::b(Tensor x) -> ())X"},
    {R"X(a::b(Tensor x, *, *, Tensor z) -> ())X", R"X(a::b(Tensor x, *, Tensor z) -> ())X"},
    {R"X(  a :: b . c ( Tensor  x , int [ 2 ] y ) ->  (  )   # a comment)X",
     R"X(a::b.c(Tensor x, int[2] y) -> ())X"},
    {R"X(a::b(int x) -> ())X", R"X(a::b(int x) -> ())X"},
};

TEST(SchemaParser, PrintsTheCanonicalFormLibtorchPrints) {
  for (const auto& c : kNormalizations) {
    EXPECT_EQ(printed(c.input), c.printed);
    EXPECT_EQ(printed(c.printed), c.printed);
  }
}

// A string default holding any byte prints back to text that parses to the same string:
// libtorch's printer writes a carriage return as `\r`, which its parser refuses (Note [A
// carriage return in a string default]; found by fuzz_schema), and other bytes as octal.
TEST(SchemaParser, StringDefaultsOfAnyBytesRoundTrip) {
  const std::string value("\r\n\t\"'\\\x01\x7f\x80\xff", 10);
  std::ostringstream text;
  text << R"(a::b(str s=")";
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    text << '\\' << char('0' + (u >> 6)) << char('0' + ((u >> 3) & 7)) << char('0' + (u & 7));
  }
  text << R"(") -> ())";
  const c10::FunctionSchema schema = torch::jit::parseSchema(text.str());
  ASSERT_EQ(schema.arguments()[0].default_value()->toStringRef(), value);
  EXPECT_EQ(c10::toString(schema), R"(a::b(str s="\r\n\t\"\'\\\001\177\200\377") -> ())");
  const c10::FunctionSchema again = torch::jit::parseSchema(c10::toString(schema));
  EXPECT_EQ(again.arguments()[0].default_value()->toStringRef(), value);
  EXPECT_EQ(again, schema);
}

TEST(SchemaParser, SomeOfLibtorchsSpellingsDoNotParseBack) {
  // Printed exactly as libtorch prints them, though neither parser reads these texts back.
  EXPECT_EQ(printed(R"(a::b(Device d="cpu", Device e="cuda:1", Device? f=None) -> ())"),
            "a::b(Device d=cpu, Device e=cuda:1, Device? f=None) -> ()");
  // `!` alone names a fresh set and leaves the after-sets empty.
  EXPECT_EQ(printed("a::b(Tensor! w) -> Tensor!"), "a::b(Tensor($0! -> ) w) -> Tensor($1! -> )");
}

// An alias prints right after the type it annotates, before the `?` and `[]` that wrap it, as
// the parser reads it. libtorch unwraps one `?` only and prints `Tensor(a)?[]` as
// `Tensor?(a)[]`, `Tensor(a!)[][]` as `Tensor[](!)[]` and `Tensor(a!)??` as `Tensor?(a!)?`,
// none of which parses (Note [How a schema prints]; found by fuzz_schema).
TEST(SchemaParser, WrappedAliasedTypesPrintAsTheyParse) {
  for (const char* text : {
           "a::b(Tensor(a)?[] z, Tensor(a!)[][] y) -> ()",
           "a::b(Tensor(a!)?? x) -> Tensor(a!)???",
           "a::b(Tensor(a!)[]? x, Tensor(a)?[](b)? y, int?[3] z, Tensor(a)?[2](b)? w) -> ()",
           "a::b(Dict(str, Tensor)(a)?[] d) -> ()",
       }) {
    EXPECT_EQ(printed(text), text);
    const FunctionSchema schema = parseSchema(text);
    EXPECT_EQ(parseSchema(c10::toString(schema)), schema) << text;
  }
}

TEST(SchemaParser, AddOutHasKwargOnlyOutArgument) {
  const FunctionSchema s = parseSchema(
      "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_EQ(s.name(), "aten::add");
  EXPECT_EQ(s.overload_name(), "out");
  EXPECT_EQ(s.operator_name(), c10::OperatorName("aten::add", "out"));
  ASSERT_EQ(s.arguments().size(), 4u);
  ASSERT_EQ(s.returns().size(), 1u);
  EXPECT_FALSE(s.is_vararg());
  EXPECT_FALSE(s.is_varret());
  EXPECT_TRUE(s.is_mutable());

  const auto& self = s.arguments()[0];
  EXPECT_EQ(self.name(), "self");
  EXPECT_TRUE(self.type()->isTensor());
  EXPECT_FALSE(self.kwarg_only());
  EXPECT_EQ(self.alias_info(), nullptr);
  EXPECT_FALSE(self.default_value().has_value());

  const auto& alpha = s.arguments()[2];
  EXPECT_EQ(alpha.type()->kind(), TypeKind::Scalar);
  EXPECT_TRUE(alpha.kwarg_only());
  EXPECT_FALSE(alpha.is_out());
  ASSERT_TRUE(alpha.default_value().has_value());
  EXPECT_TRUE(alpha.default_value()->isInt());
  EXPECT_EQ(alpha.default_value()->toInt(), 1);

  const auto& out = s.arguments()[3];
  EXPECT_TRUE(out.kwarg_only());
  EXPECT_TRUE(out.is_out());
  ASSERT_NE(out.alias_info(), nullptr);
  EXPECT_TRUE(out.alias_info()->isWrite());
  EXPECT_EQ(out.alias_info()->beforeSet(), "a");
  EXPECT_EQ(out.alias_info()->afterSets(), std::vector<std::string>{"a"});

  const auto& ret = s.returns()[0];
  EXPECT_EQ(ret.name(), "");
  EXPECT_FALSE(ret.kwarg_only());
  EXPECT_FALSE(ret.is_out());  // returns are never keyword-only
  ASSERT_NE(ret.alias_info(), nullptr);
  EXPECT_EQ(*ret.alias_info(), *out.alias_info());

  EXPECT_EQ(s.argumentIndexWithName("out"), 3);
  EXPECT_EQ(s.argumentIndexWithName("nope"), c10::nullopt);
}

TEST(SchemaParser, ReturnsCanBeNamedTuplesOrNothing) {
  const auto max = parseSchema(
      "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  ASSERT_EQ(max.returns().size(), 2u);
  EXPECT_EQ(max.returns()[0].name(), "values");
  EXPECT_EQ(max.returns()[1].name(), "indices");
  EXPECT_FALSE(max.is_mutable());
  EXPECT_EQ(max.arguments()[2].default_value(), IValue(false));

  EXPECT_TRUE(parseSchema("a::b(Tensor(a!) x) -> ()").returns().empty());
  const auto varret = parseSchema("a::b(...) -> ...");
  EXPECT_TRUE(varret.is_vararg());
  EXPECT_TRUE(varret.is_varret());
  EXPECT_TRUE(varret.arguments().empty());
  EXPECT_TRUE(varret.returns().empty());

  // A single tuple-typed return keeps its extra parentheses; a list of one return drops them.
  const auto items = parseSchema("aten::items.str(Dict(str, t) self) -> ((str, t)[])");
  ASSERT_EQ(items.returns().size(), 1u);
  EXPECT_EQ(items.returns()[0].type()->str(), "(str, t)[]");
  EXPECT_EQ(printed("a::b() -> ((int, int))"), "a::b() -> ((int, int))");
  EXPECT_EQ(printed("a::b() -> (int)"), "a::b() -> int");
}

TEST(SchemaParser, FixedSizeListsKeepTheirSize) {
  const auto conv = parseSchema(
      "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
      "int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor");
  const auto& bias = conv.arguments()[2];
  EXPECT_TRUE(bias.type()->isOptionalTensor());
  EXPECT_TRUE(bias.default_value()->isNone());
  const auto& stride = conv.arguments()[3];
  EXPECT_EQ(stride.type()->str(), "int[]");  // the size lives on the argument
  EXPECT_EQ(stride.N(), 2);
  EXPECT_EQ(stride.default_value()->toIntVector(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(conv.arguments()[6].N(), c10::nullopt);

  const auto opt = parseSchema("a::b(int[1]? dim=None, int[3] x=[1, 2, 3]) -> ()");
  EXPECT_EQ(opt.arguments()[0].type()->str(), "int[]?");
  EXPECT_EQ(opt.arguments()[0].N(), 1);
  EXPECT_EQ(opt.arguments()[1].default_value()->toIntVector(), (std::vector<int64_t>{1, 2, 3}));
  // Only int lists collapse when printed; SymInt and float lists print every element.
  EXPECT_EQ(printed("a::b(SymInt[2] x=1, float[2] y=1) -> ()"),
            "a::b(SymInt[2] x=[1, 1], float[2] y=[1., 1.]) -> ()");
}

TEST(SchemaParser, AliasAnnotationsOnListsAndSets) {
  const auto s = parseSchema(
      "a::b(Tensor(a!)[] w, Tensor(a)[](b) v, Tensor[](c!) u, Tensor(a -> *) x, "
      "Tensor(a|b) y, Tensor(*) z, t(c -> b|d) t) -> ()");
  const auto& args = s.arguments();

  // Tensor(a!)[]: the list itself is in no set but is written (it inherits the element's `!`);
  // the elements are in a, written.
  const c10::AliasInfo* w = args[0].alias_info();
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(w->beforeSets().empty());
  EXPECT_TRUE(w->isWrite());
  ASSERT_EQ(w->containedTypes().size(), 1u);
  EXPECT_EQ(w->containedTypes()[0].beforeSet(), "a");
  EXPECT_TRUE(w->containedTypes()[0].isWrite());
  EXPECT_TRUE(args[0].type()->isTensorList());

  const c10::AliasInfo* v = args[1].alias_info();
  EXPECT_EQ(v->beforeSet(), "b");
  EXPECT_FALSE(v->isWrite());
  EXPECT_EQ(v->containedTypes()[0].beforeSet(), "a");

  const c10::AliasInfo* u = args[2].alias_info();
  EXPECT_EQ(u->beforeSet(), "c");
  EXPECT_TRUE(u->isWrite());
  EXPECT_TRUE(u->containedTypes().empty());

  const c10::AliasInfo* x = args[3].alias_info();
  EXPECT_EQ(x->beforeSets(), std::vector<std::string>{"a"});
  EXPECT_TRUE(x->isWildcardAfter());
  EXPECT_FALSE(x->isWildcardBefore());

  EXPECT_EQ(args[4].alias_info()->beforeSets(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(args[5].alias_info()->isWildcardBefore());
  EXPECT_EQ(args[6].type()->kind(), TypeKind::Var);
  EXPECT_EQ(args[6].alias_info()->afterSets(), (std::vector<std::string>{"b", "d"}));

  // Sets print in the order written; equality ignores the order.
  EXPECT_EQ(printed("a::b(Tensor(b|a) x) -> Tensor(b|a)"), "a::b(Tensor(b|a) x) -> Tensor(b|a)");
  EXPECT_EQ(parseSchema("a::b(Tensor(a|b) x) -> ()"), parseSchema("a::b(Tensor(b|a) x) -> ()"));
  EXPECT_NE(parseSchema("a::b(Tensor(a) x) -> ()"), parseSchema("a::b(Tensor(a!) x) -> ()"));
}

TEST(SchemaParser, DefaultsAreTheIValuesLibtorchStores) {
  const auto s = parseSchema(
      "a::b(MemoryFormat m=contiguous_format, ScalarType d=float, int r=Mean, Layout l=strided, "
      "float f=1, int i=1.5, float? o=1, str s='x', Device dev=\"cuda:1\", bool[2] b=True, "
      "Tensor? t=None, float[] e=[]) -> ()");
  const auto def = [&](size_t i) { return *s.arguments()[i].default_value(); };
  EXPECT_EQ(def(0), IValue(int64_t(0)));
  EXPECT_EQ(def(0).toMemoryFormat(), c10::MemoryFormat::Contiguous);
  EXPECT_EQ(def(1).toScalarType(), c10::kFloat);
  EXPECT_EQ(def(2), IValue(1));
  EXPECT_EQ(def(3).toLayout(), c10::kStrided);
  EXPECT_EQ(def(4), IValue(1.0));  // a float argument reads any number as a double
  EXPECT_EQ(def(5), IValue(1.5));  // an int argument keeps a double it is given, as libtorch
  EXPECT_EQ(def(6), IValue(1));    // an optional reads by the text: no '.', so an int
  EXPECT_EQ(def(7), IValue("x"));
  EXPECT_EQ(def(8).toDevice(), c10::Device(c10::kCUDA, 1));
  EXPECT_EQ(def(9).toBoolList(), (std::vector<bool>{true, true}));
  EXPECT_TRUE(def(10).isNone());
  EXPECT_TRUE(def(11).isDoubleList());
  EXPECT_TRUE(def(11).toDoubleVector().empty());
}

TEST(SchemaParser, TypesOfEveryKind) {
  const auto s = parseSchema(
      "a::b(Tensor?[] a, Tensor[][] b, Dict(str, Tensor) c, Future(int) d, RRef(t) e, "
      "(int, str) f, Any g, NoneType h, complex i, Dimname j, "
      "__torch__.torch.classes.quantized.LinearPackedParamsBase k, Generator? l) -> ()");
  const auto type = [&](size_t i) { return s.arguments()[i].type(); };
  EXPECT_TRUE(type(0)->isOptionalTensorList());
  EXPECT_FALSE(type(0)->isTensorList());
  EXPECT_EQ(type(1)->getElementType()->str(), "Tensor[]");
  EXPECT_EQ(type(2)->kind(), TypeKind::Dict);
  EXPECT_EQ(type(2)->containedTypes()[1]->kind(), TypeKind::Tensor);
  EXPECT_EQ(type(3)->str(), "Future(int)");
  EXPECT_EQ(type(4)->getElementType()->name(), "t");
  EXPECT_EQ(type(5)->containedTypes().size(), 2u);
  EXPECT_EQ(type(6)->kind(), TypeKind::Any);
  EXPECT_EQ(type(7)->kind(), TypeKind::NoneType);
  EXPECT_EQ(type(8)->kind(), TypeKind::Complex);
  EXPECT_EQ(type(9)->kind(), TypeKind::Str);  // Dimname is str, as in libtorch
  EXPECT_EQ(type(10)->kind(), TypeKind::CustomClass);
  EXPECT_EQ(type(10)->name(), "__torch__.torch.classes.quantized.LinearPackedParamsBase");
  EXPECT_EQ(type(11)->getElementType()->kind(), TypeKind::Generator);
}

TEST(SchemaParser, NamesAndSchemasAreToldApart) {
  const auto name = torch::jit::parseSchemaOrName("aten::add.out");
  ASSERT_TRUE(std::holds_alternative<c10::OperatorName>(name));
  EXPECT_EQ(std::get<c10::OperatorName>(name), c10::OperatorName("aten::add", "out"));
  EXPECT_TRUE(std::holds_alternative<FunctionSchema>(
      torch::jit::parseSchemaOrName("aten::add(Tensor a) -> Tensor")));
  EXPECT_EQ(torch::jit::parseName("relu"), c10::OperatorName("relu", ""));
  EXPECT_EQ(parseSchema("relu(Tensor self) -> Tensor").name(), "relu");

  EXPECT_EQ(parse_error("aten::b.default(Tensor a) -> ()"),
            "default is not a legal overload name for aten operators");
  EXPECT_EQ(parse_error("aten::b.__x(Tensor a) -> ()"),
            "__x is not a legal overload name for aten operators");
  try {
    parseSchema("aten::add");
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.msg(), "Tried to parse a function schema but only the operator name was given");
  }
  try {
    torch::jit::parseName("aten::add(Tensor a) -> Tensor");
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.msg(), "Tried to parse an operator name but function schema was given");
  }
}

}  // namespace
