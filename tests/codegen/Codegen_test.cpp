// Golden tests for the code generator: what it writes for a handful of schemas, one of each
// kind (plain, overload, in-place, out=, tuple return, factory with TensorOptions, Tensor?[]).
// The expected texts were reviewed against libtorch 1.13's generated API (same names, types,
// defaults and argument orders).

#include <gtest/gtest.h>

#include "codegen/CppSignature.h"
#include "codegen/Emit.h"

namespace {

codegen::NativeFunction parse(const char* schema, const char* variants, const char* dispatch) {
  return codegen::parse_registry({{schema, variants, dispatch}}).at(0);
}

// Every piece the generator writes for one function, in a fixed order.
std::string everything(const codegen::NativeFunction& f) {
  std::string s = codegen::emit_ops_declaration(f) + "--\n" + codegen::emit_functions(f) + "--\n" +
                  codegen::emit_method_declaration(f) + codegen::emit_method_definition(f) + "--\n";
  for (const auto& k : f.kernels) {
    s += codegen::emit_native_declaration(f, k.name) + codegen::emit_wrapper(f, k) +
         codegen::emit_impl_line(f, k.key);
  }
  if (f.needs_backend_select()) s += codegen::emit_backend_select_wrapper(f);
  return s;
}

TEST(CodegenGolden, Plain) {
  const auto f = parse(
      "contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
      "function, method", "CompositeImplicitAutograd: contiguous");
  EXPECT_EQ(everything(f), R"golden(struct TORCH_API contiguous {
  using schema = at::Tensor (const at::Tensor &, at::MemoryFormat);
  using ptr_schema = schema*;
  static constexpr const char* name = "aten::contiguous";
  static constexpr const char* overload_name = "";
  static constexpr const char* schema_str = "contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)";
  static at::Tensor call(const at::Tensor & self, at::MemoryFormat memory_format);
  static at::Tensor redispatch(c10::DispatchKeySet dispatchKeySet, const at::Tensor & self, at::MemoryFormat memory_format);
};
--
// aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)
inline at::Tensor contiguous(const at::Tensor & self, at::MemoryFormat memory_format=at::MemoryFormat::Contiguous) {
  return at::_ops::contiguous::call(self, memory_format);
}
--
at::Tensor contiguous(at::MemoryFormat memory_format=at::MemoryFormat::Contiguous) const;
// aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)
inline at::Tensor Tensor::contiguous(at::MemoryFormat memory_format) const {
  return at::_ops::contiguous::call(const_cast<Tensor&>(*this), memory_format);
}
--
TORCH_API at::Tensor contiguous(const at::Tensor & self, at::MemoryFormat memory_format=at::MemoryFormat::Contiguous);
at::Tensor wrapper_CompositeImplicitAutograd__contiguous(const at::Tensor & self, at::MemoryFormat memory_format) {
  return at::native::contiguous(self, memory_format);
}
  m.impl("contiguous", TORCH_FN(wrapper_CompositeImplicitAutograd__contiguous));
)golden");
}

TEST(CodegenGolden, Overload) {
  const auto f = parse(
      "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      "function, method", "CPU: add");
  EXPECT_EQ(everything(f), R"golden(struct TORCH_API add_Tensor {
  using schema = at::Tensor (const at::Tensor &, const at::Tensor &, const at::Scalar &);
  using ptr_schema = schema*;
  static constexpr const char* name = "aten::add";
  static constexpr const char* overload_name = "Tensor";
  static constexpr const char* schema_str = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
  static at::Tensor call(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha);
  static at::Tensor redispatch(c10::DispatchKeySet dispatchKeySet, const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha);
};
--
// aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
inline at::Tensor add(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha=1) {
  return at::_ops::add_Tensor::call(self, other, alpha);
}
--
at::Tensor add(const at::Tensor & other, const at::Scalar & alpha=1) const;
// aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
inline at::Tensor Tensor::add(const at::Tensor & other, const at::Scalar & alpha) const {
  return at::_ops::add_Tensor::call(const_cast<Tensor&>(*this), other, alpha);
}
--
TORCH_API at::Tensor add(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha=1);
at::Tensor wrapper_CPU__add_Tensor(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha) {
  return at::native::add(self, other, alpha);
}
  m.impl("add.Tensor", TORCH_FN(wrapper_CPU__add_Tensor));
)golden");
}

TEST(CodegenGolden, InPlace) {
  const auto f = parse(
      "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      "method", "CPU: add_");
  EXPECT_EQ(everything(f), R"golden(struct TORCH_API add__Tensor {
  using schema = at::Tensor & (at::Tensor &, const at::Tensor &, const at::Scalar &);
  using ptr_schema = schema*;
  static constexpr const char* name = "aten::add_";
  static constexpr const char* overload_name = "Tensor";
  static constexpr const char* schema_str = "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)";
  static at::Tensor & call(at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha);
  static at::Tensor & redispatch(c10::DispatchKeySet dispatchKeySet, at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha);
};
--
--
at::Tensor & add_(const at::Tensor & other, const at::Scalar & alpha=1) const;
// aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
inline at::Tensor & Tensor::add_(const at::Tensor & other, const at::Scalar & alpha) const {
  return at::_ops::add__Tensor::call(const_cast<Tensor&>(*this), other, alpha);
}
--
TORCH_API at::Tensor & add_(at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha=1);
at::Tensor & wrapper_CPU__add__Tensor(at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha) {
  return at::native::add_(self, other, alpha);
}
  m.impl("add_.Tensor", TORCH_FN(wrapper_CPU__add__Tensor));
)golden");
}

TEST(CodegenGolden, Out) {
  const auto f = parse(
      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
      "function", "CPU: add_out");
  EXPECT_EQ(everything(f), R"golden(struct TORCH_API add_out {
  using schema = at::Tensor & (const at::Tensor &, const at::Tensor &, const at::Scalar &, at::Tensor &);
  using ptr_schema = schema*;
  static constexpr const char* name = "aten::add";
  static constexpr const char* overload_name = "out";
  static constexpr const char* schema_str = "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)";
  static at::Tensor & call(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha, at::Tensor & out);
  static at::Tensor & redispatch(c10::DispatchKeySet dispatchKeySet, const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha, at::Tensor & out);
};
--
// aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
inline at::Tensor & add_out(at::Tensor & out, const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha=1) {
  return at::_ops::add_out::call(self, other, alpha, out);
}
// aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
inline at::Tensor & add_outf(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha, at::Tensor & out) {
  return at::_ops::add_out::call(self, other, alpha, out);
}
--
--
TORCH_API at::Tensor & add_out(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha, at::Tensor & out);
at::Tensor & wrapper_CPU__add_out(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha, at::Tensor & out) {
  return at::native::add_out(self, other, alpha, out);
}
  m.impl("add.out", TORCH_FN(wrapper_CPU__add_out));
)golden");
}

TEST(CodegenGolden, TupleReturn) {
  const auto f = parse(
      "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
      "function, method", "CPU: max");
  EXPECT_EQ(everything(f), R"golden(struct TORCH_API max_dim {
  using schema = ::std::tuple<at::Tensor,at::Tensor> (const at::Tensor &, int64_t, bool);
  using ptr_schema = schema*;
  static constexpr const char* name = "aten::max";
  static constexpr const char* overload_name = "dim";
  static constexpr const char* schema_str = "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)";
  static ::std::tuple<at::Tensor,at::Tensor> call(const at::Tensor & self, int64_t dim, bool keepdim);
  static ::std::tuple<at::Tensor,at::Tensor> redispatch(c10::DispatchKeySet dispatchKeySet, const at::Tensor & self, int64_t dim, bool keepdim);
};
--
// aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
inline ::std::tuple<at::Tensor,at::Tensor> max(const at::Tensor & self, int64_t dim, bool keepdim=false) {
  return at::_ops::max_dim::call(self, dim, keepdim);
}
--
::std::tuple<at::Tensor,at::Tensor> max(int64_t dim, bool keepdim=false) const;
// aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
inline ::std::tuple<at::Tensor,at::Tensor> Tensor::max(int64_t dim, bool keepdim) const {
  return at::_ops::max_dim::call(const_cast<Tensor&>(*this), dim, keepdim);
}
--
TORCH_API ::std::tuple<at::Tensor,at::Tensor> max(const at::Tensor & self, int64_t dim, bool keepdim=false);
::std::tuple<at::Tensor,at::Tensor> wrapper_CPU__max_dim(const at::Tensor & self, int64_t dim, bool keepdim) {
  return at::native::max(self, dim, keepdim);
}
  m.impl("max.dim", TORCH_FN(wrapper_CPU__max_dim));
)golden");
}

TEST(CodegenGolden, FactoryWithOptions) {
  const auto f = parse(
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      "function", "CPU: empty_cpu");
  EXPECT_EQ(everything(f), R"golden(struct TORCH_API empty_memory_format {
  using schema = at::Tensor (at::IntArrayRef, c10::optional<at::ScalarType>, c10::optional<at::Layout>, c10::optional<at::Device>, c10::optional<bool>, c10::optional<at::MemoryFormat>);
  using ptr_schema = schema*;
  static constexpr const char* name = "aten::empty";
  static constexpr const char* overload_name = "memory_format";
  static constexpr const char* schema_str = "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor";
  static at::Tensor call(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
  static at::Tensor redispatch(c10::DispatchKeySet dispatchKeySet, at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
};
--
// aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
inline at::Tensor empty(at::IntArrayRef size, at::TensorOptions options={}, c10::optional<at::MemoryFormat> memory_format=c10::nullopt) {
  return at::_ops::empty_memory_format::call(size, c10::optTypeMetaToScalarType(options.dtype_opt()), options.layout_opt(), options.device_opt(), options.pinned_memory_opt(), c10::impl::check_tensor_options_and_extract_memory_format(options, memory_format));
}
// aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
inline at::Tensor empty(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format) {
  return at::_ops::empty_memory_format::call(size, dtype, layout, device, pin_memory, memory_format);
}
--
--
TORCH_API at::Tensor empty_cpu(at::IntArrayRef size, c10::optional<at::ScalarType> dtype=c10::nullopt, c10::optional<at::Layout> layout=c10::nullopt, c10::optional<at::Device> device=c10::nullopt, c10::optional<bool> pin_memory=c10::nullopt, c10::optional<at::MemoryFormat> memory_format=c10::nullopt);
at::Tensor wrapper_CPU__empty_memory_format(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format) {
  return at::native::empty_cpu(size, dtype, layout, device, pin_memory, memory_format);
}
  m.impl("empty.memory_format", TORCH_FN(wrapper_CPU__empty_memory_format));
at::Tensor wrapper_BackendSelect__empty_memory_format(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format) {
  c10::DispatchKeySet _dk = c10::DispatchKeySet(c10::computeDispatchKey(dtype, layout, device));
  return at::_ops::empty_memory_format::redispatch(_dk, size, dtype, layout, device, pin_memory, memory_format);
}
)golden");
}

TEST(CodegenGolden, OptionalTensorList) {
  const auto f = parse(
      "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
      "function, method", "CPU: index");
  EXPECT_EQ(everything(f), R"golden(struct TORCH_API index_Tensor {
  using schema = at::Tensor (const at::Tensor &, const c10::List<c10::optional<at::Tensor>> &);
  using ptr_schema = schema*;
  static constexpr const char* name = "aten::index";
  static constexpr const char* overload_name = "Tensor";
  static constexpr const char* schema_str = "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor";
  static at::Tensor call(const at::Tensor & self, const c10::List<c10::optional<at::Tensor>> & indices);
  static at::Tensor redispatch(c10::DispatchKeySet dispatchKeySet, const at::Tensor & self, const c10::List<c10::optional<at::Tensor>> & indices);
};
--
// aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
inline at::Tensor index(const at::Tensor & self, const c10::List<c10::optional<at::Tensor>> & indices) {
  return at::_ops::index_Tensor::call(self, indices);
}
--
at::Tensor index(const c10::List<c10::optional<at::Tensor>> & indices) const;
// aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
inline at::Tensor Tensor::index(const c10::List<c10::optional<at::Tensor>> & indices) const {
  return at::_ops::index_Tensor::call(const_cast<Tensor&>(*this), indices);
}
--
TORCH_API at::Tensor index(const at::Tensor & self, const c10::List<c10::optional<at::Tensor>> & indices);
at::Tensor wrapper_CPU__index_Tensor(const at::Tensor & self, const c10::List<c10::optional<at::Tensor>> & indices) {
  return at::native::index(self, indices);
}
  m.impl("index.Tensor", TORCH_FN(wrapper_CPU__index_Tensor));
)golden");
}

// See Note [Who bumps the version counter] in codegen/Emit.cpp. The kernel text is libtorch
// 1.13's ADInplaceOrViewType_*.cpp one, minus its unpacking.
TEST(CodegenGolden, InPlaceOrViewKernelOfAnInPlaceOp) {
  const auto f = parse(
      "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", "method",
      "CPU: add_");
  ASSERT_TRUE(codegen::needs_inplace_or_view_kernel(f));
  EXPECT_EQ(codegen::emit_inplace_or_view_wrapper(f) +
                codegen::emit_impl_line(f, "ADInplaceOrView"),
            R"golden(at::Tensor & wrapper_ADInplaceOrView__add__Tensor(c10::DispatchKeySet ks, at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha) {
  {
    at::AutoDispatchBelowADInplaceOrView guard;
    at::_ops::add__Tensor::redispatch(ks & c10::after_ADInplaceOrView_keyset, self, other, alpha);
  }
  torch::autograd::increment_version(self);
  return self;
}
  m.impl("add_.Tensor", TORCH_FN(wrapper_ADInplaceOrView__add__Tensor));
)golden");
}

TEST(CodegenGolden, InPlaceOrViewKernelOfAnOutVariant) {
  const auto f = parse(
      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
      "function", "CPU: add_out");
  ASSERT_TRUE(codegen::needs_inplace_or_view_kernel(f));
  EXPECT_EQ(codegen::emit_inplace_or_view_wrapper(f),
            R"golden(at::Tensor & wrapper_ADInplaceOrView__add_out(c10::DispatchKeySet ks, const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha, at::Tensor & out) {
  {
    at::AutoDispatchBelowADInplaceOrView guard;
    at::_ops::add_out::redispatch(ks & c10::after_ADInplaceOrView_keyset, self, other, alpha, out);
  }
  torch::autograd::increment_version(out);
  return out;
}
)golden");
  // Several outs: each is bumped, and the returns are the outs they alias.
  const auto g = parse(
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
      "max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
      "function", "CPU: max_out");
  EXPECT_EQ(codegen::emit_inplace_or_view_wrapper(g),
            R"golden(::std::tuple<at::Tensor &,at::Tensor &> wrapper_ADInplaceOrView__max_dim_max(c10::DispatchKeySet ks, const at::Tensor & self, int64_t dim, bool keepdim, at::Tensor & max, at::Tensor & max_values) {
  {
    at::AutoDispatchBelowADInplaceOrView guard;
    at::_ops::max_dim_max::redispatch(ks & c10::after_ADInplaceOrView_keyset, self, dim, keepdim, max, max_values);
  }
  torch::autograd::increment_version(max);
  torch::autograd::increment_version(max_values);
  return ::std::forward_as_tuple(max, max_values);
}
)golden");
}

TEST(Codegen, WhichOpsGetAnInPlaceOrViewKernel) {
  auto needs = [](const char* schema, const char* dispatch) {
    return codegen::needs_inplace_or_view_kernel(parse(schema, "function", dispatch));
  };
  EXPECT_TRUE(needs("zero_(Tensor(a!) self) -> Tensor(a!)", "CompositeExplicitAutograd: zero_"));
  EXPECT_TRUE(needs("fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", "Meta: f"));
  // Functional ops and views write nothing (views have hand-written kernels,
  // aten/autograd/ADInplaceOrView.cpp).
  EXPECT_FALSE(needs("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
                     "CPU: add"));
  EXPECT_FALSE(needs("t(Tensor(a) self) -> Tensor(a)", "CompositeExplicitAutograd: t"));
  // A composite-implicit op's parts bump; an op that returns nothing is skipped (as libtorch);
  // resize_ bumps nothing in libtorch.
  EXPECT_FALSE(needs("g_(Tensor(a!) self) -> Tensor(a!)", "CompositeImplicitAutograd: g_"));
  EXPECT_FALSE(needs("h_(Tensor(a!) self) -> ()", "CPU: h_"));
  EXPECT_FALSE(needs("resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? "
                     "memory_format=None) -> Tensor(a!)",
                     "CPU, Meta: resize_"));
  // A return that is none of the written arguments cannot be generated.
  EXPECT_THROW(codegen::emit_inplace_or_view_wrapper(
                   parse("k_(Tensor(a!) self) -> Tensor", "function", "CPU: k_")),
               std::runtime_error);
}

TEST(CodegenGolden, NotDifferentiableAutogradKernel) {
  const auto f = parse(
      "zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      "function", "CompositeExplicitAutograd: zeros_like");
  ASSERT_TRUE(codegen::needs_not_differentiable_kernel(f));
  EXPECT_EQ(codegen::emit_not_differentiable_wrapper(f) + codegen::emit_impl_line(f, "Autograd"),
            R"golden(at::Tensor wrapper_Autograd__zeros_like(c10::DispatchKeySet ks, const at::Tensor & self, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format) {
  at::AutoDispatchBelowADInplaceOrView guard;
  return at::_ops::zeros_like::redispatch(ks & c10::after_autograd_keyset, self, dtype, layout, device, pin_memory, memory_format);
}
  m.impl("zeros_like", TORCH_FN(wrapper_Autograd__zeros_like));
)golden");
  // Only the functional overloads: the out= ones go through ADInplaceOrView.
  EXPECT_TRUE(codegen::needs_not_differentiable_kernel(
      parse("eq.Scalar(Tensor self, Scalar other) -> Tensor", "function", "CPU: eq")));
  EXPECT_FALSE(codegen::needs_not_differentiable_kernel(
      parse("eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
            "function", "CPU: eq_out")));
  EXPECT_FALSE(codegen::needs_not_differentiable_kernel(
      parse("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "function",
            "CPU: add")));
  EXPECT_THROW(codegen::needs_not_differentiable_kernel(parse(
                   "ne.Scalar(Tensor self, Scalar other) -> Tensor", "function", "Autograd: ne")),
               std::runtime_error);
}

TEST(Codegen, RegisterADInplaceOrViewFile) {
  const auto functions = codegen::parse_registry(
      {{"add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", "method",
        "CPU: add_"},
       {"add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "function",
        "CPU: add"},
       {"view(Tensor(a) self, SymInt[] size) -> Tensor(a)", "method", "CPU: view"}});
  const auto files = codegen::generate_all(functions);
  ASSERT_EQ(files.count("RegisterADInplaceOrView.cpp"), 1u);
  const std::string& file = files.at("RegisterADInplaceOrView.cpp");
  EXPECT_NE(file.find("#include \"aten/autograd/IncrementVersion.h\"\n"), std::string::npos);
  EXPECT_NE(file.find("TORCH_LIBRARY_IMPL(aten, ADInplaceOrView, m) {\n"
                      "  m.impl(\"add_.Tensor\", TORCH_FN(wrapper_ADInplaceOrView__add__Tensor));\n"
                      "}\n"),
            std::string::npos);
  EXPECT_EQ(file.find("wrapper_ADInplaceOrView__add_Tensor"), std::string::npos);
  EXPECT_EQ(file.find("m.impl(\"view\""), std::string::npos);
  // Nothing here calls at::native, so the file does not include its declarations.
  EXPECT_EQ(file.find("NativeFunctions.h"), std::string::npos);
}

TEST(Codegen, FactoryFactsAndErrors) {
  const auto f = parse(
      "zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor",
      "function", "CompositeExplicitAutograd: zeros");
  EXPECT_TRUE(f.has_tensor_options());
  EXPECT_EQ(f.tensor_options_start(), 1u);
  EXPECT_FALSE(f.needs_backend_select());  // composite: no backend to choose
  EXPECT_EQ(f.registration_name(), "zeros");
  const auto sigs = codegen::function_signatures(f);
  ASSERT_EQ(sigs.size(), 2u);  // grouped TensorOptions + ungrouped
  EXPECT_EQ(codegen::declare_arguments(sigs[0].arguments, true),
            "at::IntArrayRef size, at::TensorOptions options={}");
  EXPECT_THROW(parse("bad(Tensor x) -> Tensor", "function", "CPU no colon"), std::runtime_error);
  EXPECT_THROW(parse("bad(Tensor x) -> Tensor", "functoin", "CPU: bad"), std::runtime_error);
  EXPECT_THROW(parse("bad(Tensor x -> Tensor", "function", "CPU: bad"), std::exception);
}

TEST(Codegen, DefaultsMapToCpp) {
  const auto f = parse(
      "f(Tensor self, int[2] stride=1, float eps=1e-05, bool flag=True, str mode=\"mean\", "
      "ScalarType? dtype=None, int[] dims=[], MemoryFormat fmt=contiguous_format, Tensor? w=None) "
      "-> Tensor",
      "function", "CPU: f");
  EXPECT_EQ(codegen::declare_arguments(codegen::function_signatures(f)[0].arguments, true),
            "const at::Tensor & self, at::IntArrayRef stride=1, double eps=1.0000000000000001e-05, "
            "bool flag=true, c10::string_view mode=\"mean\", "
            "c10::optional<at::ScalarType> dtype=c10::nullopt, at::IntArrayRef dims={}, "
            "at::MemoryFormat fmt=at::MemoryFormat::Contiguous, "
            "const c10::optional<at::Tensor> & w={}");
}

// A Generator? is passed by value as libtorch's c10::optional<at::Generator>; before the tensor
// options (rand.generator) it stays its own argument, ahead of the grouped TensorOptions.
TEST(Codegen, GeneratorArguments) {
  const auto uniform = parse(
      "uniform_(Tensor(a!) self, float from=0., float to=1., *, Generator? generator=None) -> "
      "Tensor(a!)",
      "method", "CPU: uniform_");
  EXPECT_EQ(codegen::declare_arguments(codegen::method_signature(uniform).arguments, true),
            "double from=0.0, double to=1.0, c10::optional<at::Generator> generator=c10::nullopt");
  const auto rand = parse(
      "rand.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "function", "CompositeExplicitAutograd: rand");
  const auto sigs = codegen::function_signatures(rand);
  ASSERT_EQ(sigs.size(), 2u);
  EXPECT_EQ(codegen::declare_arguments(sigs[0].arguments, true),
            "at::IntArrayRef size, c10::optional<at::Generator> generator, "
            "at::TensorOptions options={}");
  EXPECT_EQ(codegen::declare_arguments(sigs[1].arguments, true),
            "at::IntArrayRef size, c10::optional<at::Generator> generator, "
            "c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, "
            "c10::optional<at::Device> device, c10::optional<bool> pin_memory");
}

}  // namespace

// Note [out= variants under autograd]: the generated Autograd kernel of an out= overload.
TEST(CodegenGolden, OutVariantAutogradKernel) {
  const auto f = parse(
      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
      "function", "CPU: add_out");
  ASSERT_TRUE(codegen::needs_out_autograd_kernel(f));
  EXPECT_EQ(
      codegen::emit_out_autograd_wrapper(f) + codegen::emit_impl_line(f, "Autograd"),
      R"golden(at::Tensor & wrapper_Autograd__add_out(c10::DispatchKeySet ks, const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha, at::Tensor & out) {
  TORCH_CHECK(self.defined(), "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #0 'self'");
  TORCH_CHECK(other.defined(), "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #1 'other'");
  TORCH_CHECK(out.defined(), "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #3 'out'");
  TORCH_CHECK(!(at::GradMode::is_enabled() && ((self.defined() && self.requires_grad()) ||
       (other.defined() && other.requires_grad()) ||
       (out.defined() && out.requires_grad()))),
              "add(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.");
  at::AutoDispatchBelowAutograd guard;
  return at::_ops::add_out::redispatch(ks & c10::after_autograd_keyset, self, other, alpha, out);
}
  m.impl("add.out", TORCH_FN(wrapper_Autograd__add_out));
)golden");
  EXPECT_FALSE(codegen::needs_out_autograd_kernel(
      parse("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "function",
            "CPU: add")));
  EXPECT_FALSE(codegen::needs_out_autograd_kernel(
      parse("f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "function",
            "CompositeImplicitAutograd: f_out")));
}
