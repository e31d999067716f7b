// Meta runs every layout case of the CPU elementwise tests, over several dtype pairs, through
// every kind of operator (binary and unary elementwise, comparisons, logical and bitwise ops,
// where, reductions, scans, softmax, indexing, shaping copies), and must give exactly the CPU
// result's sizes, strides and dtype, or exactly the CPU's error, including the dtypes a CPU
// kernel refuses (libtorch 1.13's Meta gives a geometry there; see MetaStub.h). Each case is
// rebuilt on Meta with the same sizes, strides and storage offset (as_strided over a meta base of
// the same storage size), so the Meta kernels see the geometry the CPU kernels saw.

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "ElementwiseTestUtils.h"
#include "aten/ATen.h"

namespace {

using at::Tensor;
using elementwise_test::layout_cases;
using elementwise_test::LayoutCase;

// t's geometry (sizes, strides, storage offset) with `dtype`, on `device`: ones on the CPU,
// nothing on Meta.
Tensor rebuild(const Tensor& t, at::ScalarType dtype, c10::Device device) {
  int64_t storage = t.storage_offset() + 1;
  for (int64_t d = 0; d < t.dim(); ++d) storage += (t.size(d) - 1) * t.stride(d);
  if (t.numel() == 0) storage = t.storage_offset();
  const auto options = at::TensorOptions().dtype(dtype).device(device);
  const Tensor base =
      device.is_meta() ? at::empty({storage}, options) : at::ones({storage}, options);
  return base.as_strided(t.sizes(), t.strides(), t.storage_offset());
}

// n indices of 0 into dim 0, or none when dim 0 is empty: index values are data, which Meta
// cannot check, so no case here depends on them.
int64_t indices_for(const Tensor& a, int64_t n) {
  return a.dim() > 0 && a.size(0) == 0 ? 0 : n;
}

struct Op {
  const char* name;
  std::function<Tensor(const Tensor&, const Tensor&)> f;
};

// Every op takes the case's two tensors (a, b); unary ops use a.
const std::vector<Op>& ops() {
  static const std::vector<Op> list = {
      {"add", [](const Tensor& a, const Tensor& b) { return at::add(a, b, 2); }},
      {"sub", [](const Tensor& a, const Tensor& b) { return at::sub(a, b); }},
      {"mul", [](const Tensor& a, const Tensor& b) { return at::mul(a, b); }},
      {"div", [](const Tensor& a, const Tensor& b) { return at::div(a, b); }},
      {"div_floor", [](const Tensor& a, const Tensor& b) { return at::div(a, b, "floor"); }},
      {"remainder", [](const Tensor& a, const Tensor& b) { return at::remainder(a, b); }},
      {"fmod", [](const Tensor& a, const Tensor& b) { return at::fmod(a, b); }},
      {"pow", [](const Tensor& a, const Tensor& b) { return at::pow(a, b); }},
      {"atan2", [](const Tensor& a, const Tensor& b) { return at::atan2(a, b); }},
      {"maximum", [](const Tensor& a, const Tensor& b) { return at::maximum(a, b); }},
      {"lerp", [](const Tensor& a, const Tensor& b) { return at::lerp(a, b, 0.5); }},
      {"eq", [](const Tensor& a, const Tensor& b) { return at::eq(a, b); }},
      {"lt", [](const Tensor& a, const Tensor& b) { return at::lt(a, b); }},
      {"logical_and", [](const Tensor& a, const Tensor& b) { return at::logical_and(a, b); }},
      {"bitwise_and", [](const Tensor& a, const Tensor& b) { return at::bitwise_and(a, b); }},
      {"where", [](const Tensor& a, const Tensor& b) { return at::where(at::gt(a, 0), a, b); }},
      {"clamp", [](const Tensor& a, const Tensor& b) { return at::clamp(a, b, c10::nullopt); }},
      {"add_out",
       [](const Tensor& a, const Tensor& b) {
         Tensor out =
             at::empty({0}, a.options().dtype(c10::promoteTypes(a.scalar_type(), b.scalar_type())));
         return at::add_out(out, a, b);
       }},
      {"add_inplace", [](const Tensor& a, const Tensor& b) { return a.clone().add_(b); }},
      {"add_scalar", [](const Tensor& a, const Tensor&) { return at::add(a, 2.5); }},
      {"neg", [](const Tensor& a, const Tensor&) { return at::neg(a); }},
      {"abs", [](const Tensor& a, const Tensor&) { return at::abs(a); }},
      {"exp", [](const Tensor& a, const Tensor&) { return at::exp(a); }},
      {"sqrt", [](const Tensor& a, const Tensor&) { return at::sqrt(a); }},
      {"sigmoid", [](const Tensor& a, const Tensor&) { return at::sigmoid(a); }},
      {"sign", [](const Tensor& a, const Tensor&) { return at::sign(a); }},
      {"floor", [](const Tensor& a, const Tensor&) { return at::floor(a); }},
      {"relu", [](const Tensor& a, const Tensor&) { return at::relu(a); }},
      {"gelu", [](const Tensor& a, const Tensor&) { return at::gelu(a); }},
      {"logical_not", [](const Tensor& a, const Tensor&) { return at::logical_not(a); }},
      {"bitwise_not", [](const Tensor& a, const Tensor&) { return at::bitwise_not(a); }},
      {"isnan", [](const Tensor& a, const Tensor&) { return at::isnan(a); }},
      {"to_double", [](const Tensor& a, const Tensor&) { return a.to(at::kDouble); }},
      {"clone", [](const Tensor& a, const Tensor&) { return a.clone(); }},
      {"contiguous", [](const Tensor& a, const Tensor&) { return a.contiguous(); }},
      {"channels_last",
       [](const Tensor& a, const Tensor&) {
         return a.contiguous(a.dim() == 4 ? at::MemoryFormat::ChannelsLast
                                          : at::MemoryFormat::Contiguous);
       }},
      {"sum_all", [](const Tensor& a, const Tensor&) { return a.sum(); }},
      {"sum_last", [](const Tensor& a, const Tensor&) { return a.sum(-1); }},
      {"sum_first_keepdim", [](const Tensor& a, const Tensor&) { return a.sum({0}, true); }},
      {"mean_last", [](const Tensor& a, const Tensor&) { return a.mean(-1); }},
      {"amax", [](const Tensor& a, const Tensor&) { return at::amax(a, {-1}); }},
      {"argmax", [](const Tensor& a, const Tensor&) { return at::argmax(a, -1); }},
      {"max_dim", [](const Tensor& a, const Tensor&) { return std::get<0>(at::max(a, -1)); }},
      {"prod", [](const Tensor& a, const Tensor&) { return at::prod(a, 0); }},
      {"any", [](const Tensor& a, const Tensor&) { return at::any(a, -1); }},
      {"var", [](const Tensor& a, const Tensor&) { return at::var(a, {-1}, 1, false); }},
      {"cumsum", [](const Tensor& a, const Tensor&) { return at::cumsum(a, 0); }},
      {"softmax", [](const Tensor& a, const Tensor&) { return at::softmax(a, -1); }},
      {"log_softmax", [](const Tensor& a, const Tensor&) { return at::log_softmax(a, 0); }},
      {"flip", [](const Tensor& a, const Tensor&) { return at::flip(a, {0}); }},
      {"index_select",
       [](const Tensor& a, const Tensor&) {
         return at::index_select(a, 0,
                                 at::zeros({indices_for(a, 2)}, a.options().dtype(at::kLong)));
       }},
      {"index",
       [](const Tensor& a, const Tensor&) {
         return at::index(a, {at::zeros({indices_for(a, 3)}, a.options().dtype(at::kLong))});
       }},
      {"masked_fill",
       [](const Tensor& a, const Tensor& b) { return a.masked_fill(at::gt(b, 0), 3); }},
      {"cat",
       [](const Tensor& a, const Tensor& b) {
         return at::cat({a, b}, 0);
       }},
  };
  return list;
}

// (a's dtype, b's dtype): same, promoted, bool with float, half with double, integers.
const std::pair<at::ScalarType, at::ScalarType> kDtypePairs[] = {{at::kFloat, at::kFloat},
                                                                 {at::kInt, at::kLong},
                                                                 {at::kBool, at::kFloat},
                                                                 {at::kHalf, at::kDouble},
                                                                 {at::kLong, at::kLong}};

std::string error_of(const std::function<Tensor()>& f, Tensor& result) {
  try {
    result = f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "";
}

enum class Outcome { Compared, Error, DtypeError };

// op on the meta tensors gives exactly what op on the CPU tensors gives: the same error, or a
// meta result with the same sizes, strides, storage offset and dtype. A dtype the CPU kernel's
// dispatch refuses is a DtypeError: Meta says so in the same words (Note [Meta asks the CPU
// kernel which dtypes it takes] in aten/native/MetaStub.h).
Outcome expect_cpu_geometry(const Op& op, const Tensor& a, const Tensor& b, const Tensor& ma,
                            const Tensor& mb, const std::string& what) {
  Tensor cpu, meta;
  const std::string cpu_error = error_of([&] { return op.f(a, b); }, cpu);
  const std::string meta_error = error_of([&] { return op.f(ma, mb); }, meta);
  EXPECT_EQ(meta_error, cpu_error) << what;
  if (!cpu_error.empty() || !meta_error.empty()) {
    return cpu_error.find("\" not implemented for '") != std::string::npos ? Outcome::DtypeError
                                                                           : Outcome::Error;
  }
  EXPECT_TRUE(meta.is_meta()) << what;
  EXPECT_EQ(meta.sizes(), cpu.sizes()) << what;
  EXPECT_EQ(meta.strides(), cpu.strides()) << what;
  EXPECT_EQ(meta.scalar_type(), cpu.scalar_type()) << what;
  EXPECT_EQ(meta.storage_offset(), cpu.storage_offset()) << what;
  return Outcome::Compared;
}

class MetaGeometry : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(MetaGeometry, EveryOpGivesTheCpuGeometryOrTheCpuError) {
  const LayoutCase& c = GetParam();
  const Tensor a0 = c.a(), b0 = c.b();
  int compared = 0, errors = 0, dtype_errors = 0;
  for (const auto& [ta, tb] : kDtypePairs) {
    const Tensor a = rebuild(a0, ta, at::kCPU), b = rebuild(b0, tb, at::kCPU);
    const Tensor ma = rebuild(a0, ta, at::kMeta), mb = rebuild(b0, tb, at::kMeta);
    ASSERT_EQ(ma.strides(), a.strides());
    ASSERT_EQ(ma.storage_offset(), a.storage_offset());
    for (const Op& op : ops()) {
      const std::string what =
          std::string(op.name) + " " + c10::toString(ta) + "," + c10::toString(tb);
      const Outcome outcome = expect_cpu_geometry(op, a, b, ma, mb, what);
      compared += outcome == Outcome::Compared;
      errors += outcome != Outcome::Compared;
      dtype_errors += outcome == Outcome::DtypeError;
    }
  }
  // Most ops run for every case; the errors are the CPU's own (shapes that do not broadcast,
  // bitwise ops on floats, ...).
  EXPECT_GT(compared, errors) << c.name;
  // Every case meets some: bitwise ops on floats, float functions on Half, ...
  EXPECT_GT(dtype_errors, 0) << c.name;
}

INSTANTIATE_TEST_SUITE_P(CpuCases, MetaGeometry, ::testing::ValuesIn(layout_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

// Zero-size and one-element tensors, and a reduction over a zero-size dim.
TEST(MetaGeometry, ZeroSizeAndOneElement) {
  const auto meta = at::TensorOptions().device(at::kMeta);
  for (const std::vector<int64_t>& sizes :
       std::vector<std::vector<int64_t>>{{0}, {2, 0, 3}, {1}, {1, 1, 1}}) {
    const Tensor a = at::ones(sizes), ma = at::empty(sizes, meta);
    for (const Op& op : ops()) {
      std::ostringstream what;
      what << op.name << " " << c10::IntArrayRef(sizes);
      expect_cpu_geometry(op, a, a, ma, ma, what.str());
    }
  }
}

// The kernels that take tensors rather than a TensorIterator (matrix products, losses, layer
// norm, scans, joins, gathers, the statistics), over every kind of dtype: the same geometry or
// the same error, the dtypes each CPU kernel refuses included.
TEST(MetaGeometry, TensorKernelsOverDtypes) {
  const std::vector<Op> tensor_ops = {
      {"mm", [](const Tensor& a, const Tensor&) { return at::mm(a, a); }},
      {"bmm",
       [](const Tensor& a, const Tensor&) { return at::bmm(a.unsqueeze(0), a.unsqueeze(0)); }},
      {"dot", [](const Tensor& a, const Tensor&) { return at::dot(a[0], a[1]); }},
      {"mv", [](const Tensor& a, const Tensor&) { return at::mv(a, a[0]); }},
      {"addmm", [](const Tensor& a, const Tensor&) { return at::addmm(a, a, a); }},
      {"sum", [](const Tensor& a, const Tensor&) { return a.sum(0); }},
      {"mean", [](const Tensor& a, const Tensor&) { return a.mean(0); }},
      {"amin", [](const Tensor& a, const Tensor&) { return at::amin(a, {0}); }},
      {"all", [](const Tensor& a, const Tensor&) { return at::all(a, 0); }},
      {"norm", [](const Tensor& a, const Tensor&) { return at::norm(a, 2, {0}); }},
      {"logsumexp", [](const Tensor& a, const Tensor&) { return at::logsumexp(a, {0}); }},
      {"max_all", [](const Tensor& a, const Tensor&) { return at::max(a); }},
      {"tril", [](const Tensor& a, const Tensor&) { return at::tril(a); }},
      {"gather",
       [](const Tensor& a, const Tensor&) {
         return at::gather(a, 0, at::zeros({2, 2}, a.options().dtype(at::kLong)));
       }},
      {"scatter_add",
       [](const Tensor& a, const Tensor&) {
         return at::scatter_add(a, 0, at::zeros({2, 2}, a.options().dtype(at::kLong)), a);
       }},
      {"index_add_",
       [](const Tensor& a, const Tensor&) {
         return a.clone().index_add_(0, at::zeros({2}, a.options().dtype(at::kLong)), a);
       }},
      {"roll", [](const Tensor& a, const Tensor&) { return at::roll(a, {1}, {0}); }},
      {"silu", [](const Tensor& a, const Tensor&) { return at::silu(a); }},
      {"mse_loss", [](const Tensor& a, const Tensor&) { return at::mse_loss(a, a); }},
      {"layer_norm", [](const Tensor& a, const Tensor&) { return at::layer_norm(a, {3}); }},
      {"nll_loss",
       [](const Tensor& a, const Tensor&) {
         return at::nll_loss(a, at::zeros({3}, a.options().dtype(at::kLong)));
       }},
      {"binary_cross_entropy",
       [](const Tensor& a, const Tensor&) { return at::binary_cross_entropy(a, a); }},
      {"softmax_backward",
       [](const Tensor& a, const Tensor&) {
         return at::_softmax_backward_data(a, a, 1, a.scalar_type());
       }},
      {"diag", [](const Tensor& a, const Tensor&) { return at::diag(a); }},
      {"constant_pad_nd",
       [](const Tensor& a, const Tensor&) {
         return at::constant_pad_nd(a, {1, 1});
       }},
      {"repeat",
       [](const Tensor& a, const Tensor&) {
         return a.repeat({2, 1});
       }},
      {"uniform_", [](const Tensor& a, const Tensor&) { return a.clone().uniform_(); }},
      {"normal_", [](const Tensor& a, const Tensor&) { return a.clone().normal_(); }},
      {"bernoulli_", [](const Tensor& a, const Tensor&) { return a.clone().bernoulli_(0.5); }},
      {"random_", [](const Tensor& a, const Tensor&) { return a.clone().random_(0, 2); }},
  };
  const at::ScalarType types[] = {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16,    at::kInt,
                                  at::kLong,  at::kBool,   at::kByte, at::kComplexFloat};
  int dtype_errors = 0;
  for (const Op& op : tensor_ops) {
    for (const at::ScalarType type : types) {
      const std::string what = std::string(op.name) + " " + c10::toString(type);
      const Tensor a = at::ones({3, 3}, at::TensorOptions().dtype(type));
      const Tensor m = at::empty({3, 3}, at::TensorOptions().dtype(type).device(at::kMeta));
      dtype_errors += expect_cpu_geometry(op, a, a, m, m, what) == Outcome::DtypeError;
    }
  }
  // mm on Half and Bool, layer_norm and nll_loss on integers, ... (26 when this was written).
  EXPECT_GE(dtype_errors, 20);
}

// A Meta fill asks the CPU kernel about its dtype with an empty tensor: the generator does not
// move (Note [Meta asks the random kernels about dtypes] in Distributions.cpp).
TEST(MetaGeometry, RandomFillsOnMetaDrawNothing) {
  at::manual_seed(7);
  const Tensor expected = at::rand({8});
  at::manual_seed(7);
  Tensor m = at::empty({64}, at::TensorOptions().device(at::kMeta));
  m.uniform_();
  m.normal_();
  m.bernoulli_(0.5);
  m.random_(0, 10);
  EXPECT_TRUE(at::equal(at::rand({8}), expected));
}

// The Meta kernels libtorch 1.13 lacks or has that miniaten added: index, index_put_,
// masked_scatter_ (Note [Indexing on Meta]), where and abs.out.
TEST(MetaGeometry, IndexingAndWhereOnMeta) {
  const auto meta = at::TensorOptions().device(at::kMeta);
  const Tensor m = at::empty({4, 5, 6}, meta);
  const Tensor idx = at::empty({2, 3}, meta.dtype(at::kLong));
  EXPECT_EQ(at::index(m, {c10::nullopt, idx}).sizes(), c10::IntArrayRef({4, 2, 3, 6}));
  EXPECT_EQ(at::index(m, {idx, c10::nullopt, idx}).sizes(), c10::IntArrayRef({2, 3, 5}));
  Tensor target = at::empty({4, 5}, meta);
  EXPECT_TRUE(target.index_put_({idx}, at::empty({5}, meta)).is_same(target));
  EXPECT_THROW(target.index_put_({idx}, at::empty({4}, meta)), c10::Error);
  EXPECT_THROW(target.index_put_({idx}, at::empty({5}, meta.dtype(at::kDouble))), c10::Error);
  EXPECT_TRUE(target.masked_scatter_(at::empty({5}, meta.dtype(at::kBool)), at::empty({9}, meta))
                  .is_same(target));
  // A Bool mask has a shape only once its values are known: nonzero's error, as in libtorch.
  try {
    at::index(m, {at::empty({4}, meta.dtype(at::kBool))});
    ADD_FAILURE() << "a Bool mask on Meta has no shape";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace())
                  .rfind("Could not run 'aten::nonzero' with arguments from the 'Meta' backend", 0),
              0u)
        << e.what_without_backtrace();
  }
  const Tensor w = at::where(at::empty({5, 1}, meta.dtype(at::kBool)), at::empty({1, 4}, meta),
                             at::empty({4}, meta.dtype(at::kDouble)));
  EXPECT_EQ(w.sizes(), c10::IntArrayRef({5, 4}));
  EXPECT_EQ(w.scalar_type(), at::kDouble);
  Tensor out = at::empty({0}, meta);
  at::abs_out(out, at::empty({3, 2}, meta).t());
  EXPECT_EQ(out.sizes(), c10::IntArrayRef({2, 3}));
  EXPECT_EQ(at::abs(at::empty({2}, meta.dtype(at::kComplexFloat))).scalar_type(), at::kFloat);
}

}  // namespace
