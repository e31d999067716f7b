// probe21c: behaviour probe for view/index/pad/loss/random ops.
// Includes: <ATen/ATen.h> plus <torch/csrc/autograd/function.h> (needed for
// grad_fn()->name()); the latter compiled fine against Debian libtorch 1.13.
#include <ATen/ATen.h>
#include <ATen/core/Reduction.h>
#include <torch/csrc/autograd/function.h>
#include <iostream>
#include <sstream>

static std::string first_line(const char* s) {
  std::string x(s ? s : "");
  auto p = x.find('\n');
  return p == std::string::npos ? x : x.substr(0, p);
}

static std::string list_str(at::IntArrayRef a) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < a.size(); ++i) os << (i ? "," : "") << a[i];
  os << "]";
  return os.str();
}

static std::string vals_str(const at::Tensor& t) {
  std::ostringstream os;
  os.precision(6);
  at::Tensor c = t.detach().contiguous().reshape({-1}).to(at::kDouble).contiguous();
  int64_t n = c.numel();
  const double* p = n ? c.data_ptr<double>() : nullptr;
  os << "[";
  for (int64_t i = 0; i < n && i < 40; ++i) os << (i ? " " : "") << p[i];
  if (n > 40) os << " ...(" << n << ")";
  os << "]";
  return os.str();
}

static void show(const std::string& label, const at::Tensor& t) {
  if (!t.defined()) {
    std::cout << label << " undefined\n";
    return;
  }
  std::cout << label << " sizes=" << list_str(t.sizes()) << " strides=" << list_str(t.strides())
            << " dtype=" << c10::toString(t.scalar_type()) << " vals=" << vals_str(t) << "\n";
}

static void gf(const std::string& label, const at::Tensor& t) {
  std::cout << label << " grad_fn=" << (t.grad_fn() ? t.grad_fn()->name() : std::string("null"))
            << " requires_grad=" << t.requires_grad() << "\n";
}

static void grad(const std::string& label, const at::Tensor& t) {
  show(label + ".grad", t.grad());
}

// backward with weights arange(numel)+1
static void bw(const at::Tensor& out) {
  at::Tensor w = at::arange(out.numel(), out.scalar_type()).reshape(out.sizes()) + 1;
  out.backward(w);
}

template <class F>
static void run(const std::string& label, F f) {
  try {
    f();
  } catch (const c10::Error& e) {
    std::cout << "ERR " << label << ": " << first_line(e.what_without_backtrace()) << "\n";
  } catch (const std::exception& e) {
    std::cout << "EXC " << label << ": " << first_line(e.what()) << "\n";
  }
  std::cout << std::flush;  // keep stderr warnings on their own lines
}

static at::Tensor F(int64_t n) {
  return at::arange(n, at::kFloat);
}
static at::Tensor D(int64_t n) {
  return at::arange(n, at::kDouble);
}
static at::Tensor LL(int64_t n) {
  return at::arange(n, at::kLong);
}
static at::Tensor IDX(std::vector<int64_t> v) {
  return at::tensor(v).to(at::kLong);
}
// true 0-dim float tensor holding v (note: at::tensor(5.0) is 1-D [1] in libtorch 1.13)
static at::Tensor S0(double v) {
  return at::arange(1, at::kFloat).reshape({}) + v;
}
static at::Tensor DL(int64_t n, at::IntArrayRef s) {  // double leaf requiring grad
  return at::arange(n, at::kDouble).reshape(s).requires_grad_();
}

int main() {
  std::cout << "=== 1 repeat\n";
  run("repeat.2x3.{2,3}", [] { show("repeat.2x3.{2,3}", F(6).reshape({2, 3}).repeat({2, 3})); });
  run("repeat.more_dims.{2,1,2}", [] {
    show("repeat.more_dims.{2,1,2}", F(6).reshape({2, 3}).repeat({2, 1, 2}));
  });
  run("repeat.empty_reps", [] {
    show("repeat.empty_reps", F(6).reshape({2, 3}).repeat(at::IntArrayRef{}));
  });
  run("repeat.fewer_dims", [] { show("repeat.fewer_dims", F(6).reshape({2, 3}).repeat({2})); });
  run("repeat.zero.{0,2}", [] { show("repeat.zero.{0,2}", F(6).reshape({2, 3}).repeat({0, 2})); });
  run("repeat.zero.{2,0,1}", [] {
    show("repeat.zero.{2,0,1}", F(6).reshape({2, 3}).repeat({2, 0, 1}));
  });
  run("repeat.negative", [] { show("repeat.negative", F(6).reshape({2, 3}).repeat({-1, 2})); });
  run("repeat.transposed", [] {
    show("repeat.transposed", F(6).reshape({2, 3}).t().repeat({2, 1}));
  });
  run("repeat.expanded", [] {
    show("repeat.expanded", F(3).reshape({3, 1}).expand({3, 2}).repeat({1, 2}));
  });
  run("repeat.narrowed", [] {
    show("repeat.narrowed", F(12).reshape({3, 4}).narrow(1, 1, 2).repeat({1, 2}));
  });
  run("repeat.0dim.{3}", [] { show("repeat.0dim.{3}", S0(5.0).repeat({3})); });
  run("repeat.0dim.{}", [] { show("repeat.0dim.{}", S0(5.0).repeat(at::IntArrayRef{})); });
  run("repeat.0dim.{2,2}", [] { show("repeat.0dim.{2,2}", S0(5.0).repeat({2, 2})); });
  run("repeat.empty", [] { show("repeat.empty", F(0).reshape({0, 3}).repeat({2, 2})); });
  run("repeat.long", [] { show("repeat.long", LL(3).repeat({2})); });
  run("repeat.grad", [] {
    auto x = DL(6, {2, 3});
    auto y = x.repeat({2, 1, 2});
    show("repeat.grad.out", y);
    gf("repeat.grad.out", y);
    bw(y);
    grad("repeat.grad.x", x);
  });
  run("repeat.grad.transposed", [] {
    auto x = DL(6, {2, 3});
    auto y = x.t().repeat({1, 2});
    gf("repeat.grad.transposed.out", y);
    bw(y);
    grad("repeat.grad.transposed.x", x);
  });

  std::cout << "=== 2 broadcast_to\n";
  run("broadcast_to.{2,3,4}", [] {
    show("broadcast_to.{2,3,4}", at::broadcast_to(F(3).reshape({3, 1}), {2, 3, 4}));
  });
  run("broadcast_to.{2,-1,4}", [] {
    show("broadcast_to.{2,-1,4}", at::broadcast_to(F(3).reshape({3, 1}), {2, -1, 4}));
  });
  run("broadcast_to.{-1,3,4}", [] {
    show("broadcast_to.{-1,3,4}", at::broadcast_to(F(3).reshape({3, 1}), {-1, 3, 4}));
  });
  run("broadcast_to.{-1,-1}", [] {
    show("broadcast_to.{-1,-1}", at::broadcast_to(F(3).reshape({3, 1}), {-1, -1}));
  });
  run("broadcast_to.incompatible.{2,2}", [] {
    show("broadcast_to.incompatible.{2,2}", at::broadcast_to(F(3).reshape({3, 1}), {2, 2}));
  });
  run("broadcast_to.fewer_dims.{3}", [] {
    show("broadcast_to.fewer_dims.{3}", at::broadcast_to(F(3).reshape({3, 1}), {3}));
  });
  run("broadcast_to.to_zero.{3,0}", [] {
    show("broadcast_to.to_zero.{3,0}", at::broadcast_to(F(3).reshape({3, 1}), {3, 0}));
  });
  run("broadcast_to.transposed", [] {
    show("broadcast_to.transposed", at::broadcast_to(F(3).reshape({3, 1}).t(), {4, 3}));
  });
  run("broadcast_to.transposed2", [] {
    show("broadcast_to.transposed2", at::broadcast_to(F(6).reshape({2, 3}).t(), {2, 3, 2}));
  });
  run("broadcast_to.0dim", [] { show("broadcast_to.0dim", at::broadcast_to(S0(7.0), {2, 3})); });
  run("broadcast_to.0dim.{}",
      [] { show("broadcast_to.0dim.{}", at::broadcast_to(S0(7.0), at::IntArrayRef{})); });
  run("broadcast_to.empty", [] {
    show("broadcast_to.empty", at::broadcast_to(F(0).reshape({0, 1}), {2, 0, 4}));
  });
  run("broadcast_to.grad", [] {
    auto x = DL(3, {3, 1});
    auto y = at::broadcast_to(x, {2, 3, 4});
    gf("broadcast_to.grad.out", y);
    bw(y);
    grad("broadcast_to.grad.x", x);
  });

  std::cout << "=== 3 flip\n";
  run("flip.{0}", [] { show("flip.{0}", F(24).reshape({2, 3, 4}).flip({0})); });
  run("flip.{-1}", [] { show("flip.{-1}", F(24).reshape({2, 3, 4}).flip({-1})); });
  run("flip.{0,2}", [] { show("flip.{0,2}", F(24).reshape({2, 3, 4}).flip({0, 2})); });
  run("flip.{-2,0,2}", [] { show("flip.{-2,0,2}", F(24).reshape({2, 3, 4}).flip({-2, 0, 2})); });
  run("flip.{}", [] { show("flip.{}", F(24).reshape({2, 3, 4}).flip(at::IntArrayRef{})); });
  run("flip.repeated.{0,-3}", [] {
    show("flip.repeated.{0,-3}", F(24).reshape({2, 3, 4}).flip({0, -3}));
  });
  run("flip.out_of_range.{3}", [] {
    show("flip.out_of_range.{3}", F(24).reshape({2, 3, 4}).flip({3}));
  });
  run("flip.transposed", [] {
    show("flip.transposed", F(24).reshape({2, 3, 4}).transpose(0, 2).flip({1}));
  });
  run("flip.expanded", [] {
    show("flip.expanded", F(3).reshape({3, 1}).expand({3, 4}).flip({0, 1}));
  });
  run("flip.narrowed", [] {
    show("flip.narrowed", F(12).reshape({3, 4}).narrow(1, 1, 2).flip({1}));
  });
  run("flip.0dim.{}", [] { show("flip.0dim.{}", S0(3.0).flip(at::IntArrayRef{})); });
  run("flip.0dim.{0}", [] { show("flip.0dim.{0}", S0(3.0).flip({0})); });
  run("flip.0dim.{-1}", [] { show("flip.0dim.{-1}", S0(3.0).flip({-1})); });
  run("flip.empty", [] { show("flip.empty", F(0).reshape({0, 3}).flip({0, 1})); });
  run("flip.long", [] { show("flip.long", LL(5).flip({0})); });
  run("flip.grad", [] {
    auto x = DL(6, {2, 3});
    auto y = x.flip({0, 1});
    gf("flip.grad.out", y);
    bw(y);
    grad("flip.grad.x", x);
  });
  run("flip.grad.transposed", [] {
    auto x = DL(6, {2, 3});
    auto y = x.t().flip({-1});
    gf("flip.grad.transposed.out", y);
    bw(y);
    grad("flip.grad.transposed.x", x);
  });

  std::cout << "=== 4 roll\n";
  run("roll.1d.{2}", [] { show("roll.1d.{2}", F(10).roll({2})); });
  run("roll.1d.{2}.{0}", [] { show("roll.1d.{2}.{0}", F(10).roll({2}, {0})); });
  run("roll.2x5.{1}.{1}", [] { show("roll.2x5.{1}.{1}", F(10).reshape({2, 5}).roll({1}, {1})); });
  run("roll.2x5.{1,-1}.{0,1}", [] {
    show("roll.2x5.{1,-1}.{0,1}", F(10).reshape({2, 5}).roll({1, -1}, {0, 1}));
  });
  run("roll.2x5.{-3}.{1}", [] {
    show("roll.2x5.{-3}.{1}", F(10).reshape({2, 5}).roll({-3}, {1}));
  });
  run("roll.2x5.{12}.{-1}", [] {
    show("roll.2x5.{12}.{-1}", F(10).reshape({2, 5}).roll({12}, {-1}));
  });
  run("roll.2x5.{-12}.{1}", [] {
    show("roll.2x5.{-12}.{1}", F(10).reshape({2, 5}).roll({-12}, {1}));
  });
  run("roll.2x5.flat.{2}", [] { show("roll.2x5.flat.{2}", F(10).reshape({2, 5}).roll({2})); });
  run("roll.2x5.flat.{-13}", [] {
    show("roll.2x5.flat.{-13}", F(10).reshape({2, 5}).roll({-13}));
  });
  run("roll.2x5.same_dim_twice", [] {
    show("roll.2x5.same_dim_twice", F(10).reshape({2, 5}).roll({1, 2}, {1, 1}));
  });
  run("roll.mismatch.{1,2}.{0}", [] {
    show("roll.mismatch.{1,2}.{0}", F(10).reshape({2, 5}).roll({1, 2}, {0}));
  });
  run("roll.flat_multi_shift.{1,2}", [] {
    show("roll.flat_multi_shift.{1,2}", F(10).reshape({2, 5}).roll({1, 2}));
  });
  run("roll.no_shifts", [] {
    show("roll.no_shifts", F(10).reshape({2, 5}).roll(at::IntArrayRef{}, at::IntArrayRef{}));
  });
  run("roll.dim_out_of_range", [] {
    show("roll.dim_out_of_range", F(10).reshape({2, 5}).roll({1}, {2}));
  });
  run("roll.transposed.{1}.{0}", [] {
    show("roll.transposed.{1}.{0}", F(10).reshape({2, 5}).t().roll({1}, {0}));
  });
  run("roll.transposed.flat.{3}", [] {
    show("roll.transposed.flat.{3}", F(10).reshape({2, 5}).t().roll({3}));
  });
  run("roll.expanded", [] {
    show("roll.expanded", F(3).reshape({3, 1}).expand({3, 2}).roll({1}, {0}));
  });
  run("roll.empty", [] { show("roll.empty", F(0).roll({1})); });
  run("roll.empty.2d", [] { show("roll.empty.2d", F(0).reshape({0, 3}).roll({1}, {1})); });
  run("roll.0dim.{1}", [] { show("roll.0dim.{1}", S0(4.0).roll({1})); });
  run("roll.0dim.{1}.{0}", [] { show("roll.0dim.{1}.{0}", S0(4.0).roll({1}, {0})); });
  run("roll.grad", [] {
    auto x = DL(10, {2, 5});
    auto y = x.roll({1, 2}, {0, 1});
    gf("roll.grad.out", y);
    bw(y);
    grad("roll.grad.x", x);
  });
  run("roll.grad.flat", [] {
    auto x = DL(10, {2, 5});
    auto y = x.t().roll({3});
    show("roll.grad.flat.out", y);
    gf("roll.grad.flat.out", y);
    bw(y);
    grad("roll.grad.flat.x", x);
  });

  std::cout << "=== 5 tril/triu\n";
  for (int k : {0, 1, -1, 5, -5}) {
    std::string ks = std::to_string(k);
    run("tril.3x4.k" + ks, [k, ks] { show("tril.3x4.k" + ks, F(12).reshape({3, 4}).tril(k)); });
    run("triu.3x4.k" + ks, [k, ks] { show("triu.3x4.k" + ks, F(12).reshape({3, 4}).triu(k)); });
  }
  run("tril.2x3x4", [] { show("tril.2x3x4", F(24).reshape({2, 3, 4}).tril()); });
  run("triu.2x3x4.k1", [] { show("triu.2x3x4.k1", F(24).reshape({2, 3, 4}).triu(1)); });
  run("tril.transposed", [] { show("tril.transposed", F(12).reshape({3, 4}).t().tril()); });
  run("triu.transposed.k-1", [] {
    show("triu.transposed.k-1", F(12).reshape({3, 4}).t().triu(-1));
  });
  run("tril.expanded", [] { show("tril.expanded", F(3).reshape({3, 1}).expand({3, 3}).tril()); });
  run("tril.long", [] { show("tril.long", LL(9).reshape({3, 3}).tril()); });
  run("triu.bool", [] { show("triu.bool", LL(9).reshape({3, 3}).gt(-1).triu()); });
  run("tril_.inplace", [] {
    auto c = F(12).reshape({3, 4}).clone();
    auto& r = c.tril_();
    show("tril_.inplace", c);
    std::cout << "tril_.inplace same_ptr=" << (r.data_ptr() == c.data_ptr()) << "\n";
  });
  run("triu_.inplace.k1", [] {
    auto c = F(12).reshape({3, 4}).clone();
    c.triu_(1);
    show("triu_.inplace.k1", c);
  });
  run("tril_.inplace.transposed", [] {
    auto base = F(12).reshape({3, 4}).clone();
    auto v = base.t();
    v.tril_();
    show("tril_.inplace.transposed.view", v);
    show("tril_.inplace.transposed.base", base);
  });
  run("triu_.inplace.transposed.k-1", [] {
    auto base = F(12).reshape({3, 4}).clone();
    auto v = base.t();
    v.triu_(-1);
    show("triu_.inplace.transposed.k-1.view", v);
    show("triu_.inplace.transposed.k-1.base", base);
  });
  run("tril.1d", [] { show("tril.1d", F(3).tril()); });
  run("triu.1d", [] { show("triu.1d", F(3).triu()); });
  run("tril.0dim", [] { show("tril.0dim", S0(1.0).tril()); });
  run("tril_.1d", [] {
    auto c = F(3);
    c.tril_();
    show("tril_.1d", c);
  });
  run("tril.empty", [] { show("tril.empty", F(0).reshape({0, 3}).tril()); });
  run("tril.grad", [] {
    auto x = DL(12, {3, 4});
    auto y = x.tril(1);
    gf("tril.grad.out", y);
    bw(y);
    grad("tril.grad.x", x);
  });
  run("triu.grad", [] {
    auto x = DL(12, {3, 4});
    auto y = x.t().triu(-1);
    gf("triu.grad.out", y);
    bw(y);
    grad("triu.grad.x", x);
  });
  run("tril_.grad", [] {
    auto x = DL(12, {3, 4});
    auto y = x.mul(1);
    y.tril_();
    gf("tril_.grad.out", y);
    bw(y);
    grad("tril_.grad.x", x);
  });

  std::cout << "=== 6 diag\n";
  for (int k : {0, 1, -2, 3, -3}) {
    std::string ks = std::to_string(k);
    run("diag.1d.k" + ks, [k, ks] { show("diag.1d.k" + ks, F(3).diag(k)); });
  }
  for (int k : {0, 1, -1, 3, 4, -3, 10, -10}) {
    std::string ks = std::to_string(k);
    run("diag.3x4.k" + ks, [k, ks] { show("diag.3x4.k" + ks, F(12).reshape({3, 4}).diag(k)); });
  }
  run("diag.at", [] { show("diag.at", at::diag(F(12).reshape({3, 4}), 1)); });
  run("diag.transposed.k1", [] { show("diag.transposed.k1", F(12).reshape({3, 4}).t().diag(1)); });
  run("diag.narrowed1d", [] { show("diag.narrowed1d", F(6).narrow(0, 2, 3).diag(-1)); });
  run("diag.expanded1d", [] { show("diag.expanded1d", (F(1) + 4).expand({3}).diag()); });
  run("diag.3d", [] { show("diag.3d", F(24).reshape({2, 3, 4}).diag()); });
  run("diag.0dim", [] { show("diag.0dim", S0(2.0).diag()); });
  run("diag.empty1d", [] { show("diag.empty1d", F(0).diag()); });
  run("diag.empty1d.k2", [] { show("diag.empty1d.k2", F(0).diag(2)); });
  run("diag.empty2d", [] { show("diag.empty2d", F(0).reshape({0, 3}).diag()); });
  run("diag.long", [] { show("diag.long", LL(3).diag(1)); });
  run("diag.grad.1d", [] {
    auto x = DL(3, {3});
    auto y = x.diag(1);
    gf("diag.grad.1d.out", y);
    bw(y);
    grad("diag.grad.1d.x", x);
  });
  run("diag.grad.2d", [] {
    auto x = DL(12, {3, 4});
    auto y = x.diag(-1);
    gf("diag.grad.2d.out", y);
    bw(y);
    grad("diag.grad.2d.x", x);
  });
  run("diag.grad.2d.transposed", [] {
    auto x = DL(12, {3, 4});
    auto y = x.t().diag(1);
    gf("diag.grad.2d.transposed.out", y);
    bw(y);
    grad("diag.grad.2d.transposed.x", x);
  });

  std::cout << "=== 7 constant_pad_nd\n";
  run("pad.{1,2}", [] { show("pad.{1,2}", at::constant_pad_nd(F(6).reshape({2, 3}), {1, 2}, 0)); });
  run("pad.{1,1,2,0}.v9", [] {
    show("pad.{1,1,2,0}.v9", at::constant_pad_nd(F(6).reshape({2, 3}), {1, 1, 2, 0}, 9));
  });
  run("pad.{-1,0}", [] {
    show("pad.{-1,0}", at::constant_pad_nd(F(6).reshape({2, 3}), {-1, 0}, 0));
  });
  run("pad.{1,-1,-1,2}", [] {
    show("pad.{1,-1,-1,2}", at::constant_pad_nd(F(6).reshape({2, 3}), {1, -1, -1, 2}, -5));
  });
  run("pad.{-3,0}.to_zero", [] {
    show("pad.{-3,0}.to_zero", at::constant_pad_nd(F(6).reshape({2, 3}), {-3, 0}, 0));
  });
  run("pad.{-2,-2}.negative_size", [] {
    show("pad.{-2,-2}.negative_size", at::constant_pad_nd(F(6).reshape({2, 3}), {-2, -2}, 0));
  });
  run("pad.odd.{1}", [] {
    show("pad.odd.{1}", at::constant_pad_nd(F(6).reshape({2, 3}), {1}, 0));
  });
  run("pad.too_long", [] {
    show("pad.too_long", at::constant_pad_nd(F(6).reshape({2, 3}), {1, 1, 1, 1, 1, 1}, 0));
  });
  run("pad.{}", [] {
    show("pad.{}", at::constant_pad_nd(F(6).reshape({2, 3}), at::IntArrayRef{}, 0));
  });
  run("pad.{0,0}", [] { show("pad.{0,0}", at::constant_pad_nd(F(6).reshape({2, 3}), {0, 0}, 0)); });
  run("pad.fractional_value", [] {
    show("pad.fractional_value", at::constant_pad_nd(F(6).reshape({2, 3}), {1, 0}, 2.5));
  });
  run("pad.long.fractional_value", [] {
    show("pad.long.fractional_value", at::constant_pad_nd(LL(6).reshape({2, 3}), {1, 0}, 2.5));
  });
  run("pad.transposed", [] {
    show("pad.transposed", at::constant_pad_nd(F(6).reshape({2, 3}).t(), {0, 1, 1, 0}, 7));
  });
  run("pad.expanded", [] {
    show("pad.expanded", at::constant_pad_nd(F(3).reshape({3, 1}).expand({3, 2}), {1, 1}, 0));
  });
  run("pad.0dim.{}",
      [] { show("pad.0dim.{}", at::constant_pad_nd(S0(3.0), at::IntArrayRef{}, 0)); });
  run("pad.0dim.{1,1}", [] { show("pad.0dim.{1,1}", at::constant_pad_nd(S0(3.0), {1, 1}, 0)); });
  run("pad.empty", [] {
    show("pad.empty", at::constant_pad_nd(F(0).reshape({0, 2}), {1, 1, 1, 0}, 4));
  });
  run("pad.grad", [] {
    auto x = DL(6, {2, 3});
    auto y = at::constant_pad_nd(x, {1, -1, 1, 0}, 3);
    show("pad.grad.out", y);
    gf("pad.grad.out", y);
    bw(y);
    grad("pad.grad.x", x);
  });

  std::cout << "=== 8 gather\n";
  run("gather.dim1", [] {
    show("gather.dim1", F(12).reshape({3, 4}).gather(1, IDX({0, 3, 1, 1, 2, 0}).reshape({3, 2})));
  });
  run("gather.dim0", [] {
    show("gather.dim0",
         F(12).reshape({3, 4}).gather(0, IDX({2, 1, 0, 2, 0, 0, 1, 1}).reshape({2, 4})));
  });
  run("gather.smaller_other_dim", [] {
    show("gather.smaller_other_dim",
         F(12).reshape({3, 4}).gather(1, IDX({3, 2, 1, 0}).reshape({2, 2})));
  });
  run("gather.larger_gather_dim", [] {
    show("gather.larger_gather_dim",
         F(12).reshape({3, 4}).gather(1, IDX({3, 2, 1, 0, 0, 0}).reshape({1, 6})));
  });
  run("gather.neg_dim", [] {
    show("gather.neg_dim",
         F(12).reshape({3, 4}).gather(-1, IDX({0, 3, 1, 1, 2, 0}).reshape({3, 2})));
  });
  run("gather.neg_dim-2", [] {
    show("gather.neg_dim-2", F(12).reshape({3, 4}).gather(-2, IDX({2, 1, 0, 2}).reshape({1, 4})));
  });
  run("gather.out_of_range", [] {
    show("gather.out_of_range", F(12).reshape({3, 4}).gather(1, IDX({0, 4}).reshape({1, 2})));
  });
  run("gather.neg_index", [] {
    show("gather.neg_index", F(12).reshape({3, 4}).gather(1, IDX({0, -1}).reshape({1, 2})));
  });
  run("gather.int_index", [] {
    show("gather.int_index",
         F(12).reshape({3, 4}).gather(1, IDX({0, 1}).reshape({1, 2}).to(at::kInt)));
  });
  run("gather.dims_mismatch", [] {
    show("gather.dims_mismatch", F(12).reshape({3, 4}).gather(1, IDX({0, 1})));
  });
  run("gather.index_larger_other_dim", [] {
    show("gather.index_larger_other_dim",
         F(12).reshape({3, 4}).gather(1, IDX({0, 1, 2, 3}).reshape({4, 1})));
  });
  run("gather.dim_out_of_range", [] {
    show("gather.dim_out_of_range", F(12).reshape({3, 4}).gather(2, IDX({0}).reshape({1, 1})));
  });
  run("gather.transposed_self", [] {
    show("gather.transposed_self",
         F(12).reshape({3, 4}).t().gather(0, IDX({2, 1, 0, 0, 1, 2}).reshape({2, 3})));
  });
  run("gather.expanded_index", [] {
    show("gather.expanded_index",
         F(12).reshape({3, 4}).gather(1, IDX({1, 3}).reshape({1, 2}).expand({3, 2})));
  });
  run("gather.transposed_index", [] {
    show("gather.transposed_index",
         F(12).reshape({3, 4}).gather(1, IDX({0, 1, 2, 3, 3, 2}).reshape({2, 3}).t()));
  });
  run("gather.empty_index", [] {
    show("gather.empty_index", F(12).reshape({3, 4}).gather(1, IDX({}).reshape({3, 0})));
  });
  run("gather.0dim", [] { show("gather.0dim", S0(5.0).gather(0, IDX({0}).reshape({}))); });
  run("gather.long", [] {
    show("gather.long", LL(12).reshape({3, 4}).gather(1, IDX({3, 2, 1}).reshape({3, 1})));
  });
  run("gather.grad", [] {
    auto x = DL(12, {3, 4});
    auto y = x.gather(1, IDX({0, 3, 1, 1, 2, 0}).reshape({3, 2}));
    gf("gather.grad.out", y);
    bw(y);
    grad("gather.grad.x", x);
  });
  run("gather.grad.transposed", [] {
    auto x = DL(12, {3, 4});
    auto y = x.t().gather(0, IDX({2, 2, 0, 0, 1, 2}).reshape({2, 3}));
    gf("gather.grad.transposed.out", y);
    bw(y);
    grad("gather.grad.transposed.x", x);
  });

  std::cout << "=== 9 scatter\n";
  // idx0: unique per column for dim 0; idx1: unique per row for dim 1
  auto idx0 = IDX({0, 1, 2, 0, 2, 0, 1, 1}).reshape({2, 4});
  auto idx1 = IDX({4, 0, 2, 1, 3, 0}).reshape({2, 3});
  auto idxrep = IDX({0, 0, 2, 1, 0, 2, 2, 1}).reshape({2, 4});
  run("scatter.src.dim0", [&] {
    show("scatter.src.dim0", F(15).reshape({3, 5}).scatter(0, idx0, F(10).reshape({2, 5}) + 100));
  });
  run("scatter.src.dim1", [&] {
    show("scatter.src.dim1", F(15).reshape({3, 5}).scatter(1, idx1, F(8).reshape({2, 4}) + 100));
  });
  run("scatter.src.neg_dim", [&] {
    show("scatter.src.neg_dim",
         F(15).reshape({3, 5}).scatter(-1, idx1, F(8).reshape({2, 4}) + 100));
  });
  run("scatter.value.dim0", [&] {
    show("scatter.value.dim0", F(15).reshape({3, 5}).scatter(0, idx0, 7.5));
  });
  run("scatter.value.long_self_frac", [&] {
    show("scatter.value.long_self_frac", LL(15).reshape({3, 5}).scatter(0, idx0, 7.5));
  });
  run("scatter_.src", [&] {
    auto c = F(15).reshape({3, 5}).clone();
    c.scatter_(0, idx0, F(10).reshape({2, 5}) + 100);
    show("scatter_.src", c);
  });
  run("scatter_.value", [&] {
    auto c = F(15).reshape({3, 5}).clone();
    c.scatter_(1, idx1, -1.0);
    show("scatter_.value", c);
  });
  run("scatter_.transposed_self", [&] {
    auto base = F(15).reshape({5, 3}).clone();
    auto v = base.t();
    v.scatter_(0, idx0, F(8).reshape({2, 4}) + 100);
    show("scatter_.transposed_self.view", v);
    show("scatter_.transposed_self.base", base);
  });
  run("scatter.transposed_src", [&] {
    show("scatter.transposed_src",
         F(15).reshape({3, 5}).scatter(0, idx0, (F(10).reshape({5, 2}) + 100).t()));
  });
  run("scatter.expanded_index", [&] {
    show("scatter.expanded_index",
         F(15).reshape({3, 5}).scatter(1, IDX({4, 0}).reshape({1, 2}).expand({3, 2}),
                                       F(15).reshape({3, 5}) + 100));
  });
  run("scatter_add.dim0", [&] {
    show("scatter_add.dim0",
         F(15).reshape({3, 5}).scatter_add(0, idxrep, F(8).reshape({2, 4}) + 100));
  });
  run("scatter_add_.dim1", [&] {
    auto c = F(15).reshape({3, 5}).clone();
    c.scatter_add_(1, IDX({0, 0, 4, 1, 1, 1}).reshape({2, 3}), F(6).reshape({2, 3}) + 10);
    show("scatter_add_.dim1", c);
  });
  run("scatter.err.index_out_of_range", [&] {
    show("scatter.err.index_out_of_range",
         F(15).reshape({3, 5}).scatter(0, IDX({3}).reshape({1, 1}), F(1).reshape({1, 1})));
  });
  run("scatter.err.index_negative", [&] {
    show("scatter.err.index_negative",
         F(15).reshape({3, 5}).scatter(0, IDX({-1}).reshape({1, 1}), F(1).reshape({1, 1})));
  });
  run("scatter.err.dtype_src", [&] {
    show("scatter.err.dtype_src", F(15).reshape({3, 5}).scatter(0, idx0, D(8).reshape({2, 4})));
  });
  run("scatter_.err.dtype_src", [&] {
    auto c = F(15).reshape({3, 5}).clone();
    c.scatter_(0, idx0, D(8).reshape({2, 4}));
    show("scatter_.err.dtype_src", c);
  });
  run("scatter_add.err.dtype_src", [&] {
    show("scatter_add.err.dtype_src",
         F(15).reshape({3, 5}).scatter_add(0, idx0, D(8).reshape({2, 4})));
  });
  run("scatter_add.err.index_out_of_range", [&] {
    show("scatter_add.err.index_out_of_range",
         F(15).reshape({3, 5}).scatter_add(1, IDX({5}).reshape({1, 1}), F(1).reshape({1, 1})));
  });
  run("scatter.err.int_index", [&] {
    show("scatter.err.int_index",
         F(15).reshape({3, 5}).scatter(0, idx0.to(at::kInt), F(8).reshape({2, 4})));
  });
  run("scatter.err.index_larger_than_src", [&] {
    show("scatter.err.index_larger_than_src",
         F(15).reshape({3, 5}).scatter(0, idx0, F(6).reshape({2, 3})));
  });
  run("scatter.err.index_larger_than_self", [&] {
    show("scatter.err.index_larger_than_self",
         F(15).reshape({3, 5}).scatter(1, IDX({0, 1, 2, 3}).reshape({4, 1}), F(8).reshape({4, 2})));
  });
  run("scatter.err.dims_mismatch", [&] {
    show("scatter.err.dims_mismatch", F(15).reshape({3, 5}).scatter(0, IDX({0, 1}), F(2)));
  });
  run("scatter.empty_index", [&] {
    show("scatter.empty_index",
         F(15).reshape({3, 5}).scatter(0, IDX({}).reshape({0, 5}), F(0).reshape({0, 5})));
  });
  run("scatter.0dim",
      [&] { show("scatter.0dim", S0(5.0).scatter(0, IDX({0}).reshape({}), S0(9.0))); });
  run("scatter.grad.src", [&] {
    auto x = DL(15, {3, 5});
    auto s = DL(8, {2, 4});
    auto y = x.scatter(0, idx0, s);
    show("scatter.grad.src.out", y);
    gf("scatter.grad.src.out", y);
    bw(y);
    grad("scatter.grad.src.self", x);
    grad("scatter.grad.src.src", s);
  });
  run("scatter.grad.value", [&] {
    auto x = DL(15, {3, 5});
    auto y = x.scatter(1, idx1, 2.0);
    gf("scatter.grad.value.out", y);
    bw(y);
    grad("scatter.grad.value.self", x);
  });
  run("scatter_.grad.src", [&] {
    auto x = DL(15, {3, 5});
    auto s = DL(8, {2, 4});
    auto y = x.mul(1);
    y.scatter_(0, idx0, s);
    gf("scatter_.grad.src.out", y);
    bw(y);
    grad("scatter_.grad.src.self", x);
    grad("scatter_.grad.src.src", s);
  });
  run("scatter_.grad.value", [&] {
    auto x = DL(15, {3, 5});
    auto y = x.mul(1);
    y.scatter_(1, idx1, 2.0);
    gf("scatter_.grad.value.out", y);
    bw(y);
    grad("scatter_.grad.value.self", x);
  });
  run("scatter_add.grad", [&] {
    auto x = DL(15, {3, 5});
    auto s = DL(8, {2, 4});
    auto y = x.scatter_add(0, idxrep, s);
    show("scatter_add.grad.out", y);
    gf("scatter_add.grad.out", y);
    bw(y);
    grad("scatter_add.grad.self", x);
    grad("scatter_add.grad.src", s);
  });
  run("scatter_add_.grad", [&] {
    auto x = DL(15, {3, 5});
    auto s = DL(8, {2, 4});
    auto y = x.mul(1);
    y.scatter_add_(0, idxrep, s);
    gf("scatter_add_.grad.out", y);
    bw(y);
    grad("scatter_add_.grad.self", x);
    grad("scatter_add_.grad.src", s);
  });
  run("scatter.grad.transposed_src", [&] {
    auto x = DL(15, {3, 5});
    auto s = DL(8, {4, 2});
    auto y = x.scatter(0, idx0, s.t());
    bw(y);
    grad("scatter.grad.transposed_src.self", x);
    grad("scatter.grad.transposed_src.src", s);
  });
  run("scatter.grad.src_larger_than_index", [&] {
    auto x = DL(15, {3, 5});
    auto s = DL(10, {2, 5});
    auto y = x.scatter(0, idx0, s);
    bw(y);
    grad("scatter.grad.src_larger_than_index.self", x);
    grad("scatter.grad.src_larger_than_index.src", s);
  });
  run("scatter_add.grad.src_larger_than_index", [&] {
    auto x = DL(15, {3, 5});
    auto s = DL(10, {2, 5});
    auto y = x.scatter_add(0, idxrep, s);
    bw(y);
    grad("scatter_add.grad.src_larger_than_index.self", x);
    grad("scatter_add.grad.src_larger_than_index.src", s);
  });
  run("gather.grad.0dim", [&] {
    auto x = (at::arange(1, at::kDouble).reshape({}) + 3).requires_grad_();
    auto y = x.gather(0, IDX({0}).reshape({}));
    show("gather.grad.0dim.out", y);
    gf("gather.grad.0dim.out", y);
    bw(y);
    grad("gather.grad.0dim.x", x);
  });

  std::cout << "=== 10 masked_select\n";
  run("masked_select.basic", [] {
    auto s = F(6).reshape({2, 3});
    show("masked_select.basic", s.masked_select(s.gt(2.5)));
  });
  run("masked_select.at", [] {
    auto s = F(6).reshape({2, 3});
    show("masked_select.at", at::masked_select(s, LL(6).reshape({2, 3}).remainder(2).eq(0)));
  });
  run("masked_select.bcast_mask", [] {
    show("masked_select.bcast_mask", F(6).reshape({2, 3}).masked_select(LL(3).ne(1)));
  });
  run("masked_select.bcast_self", [] {
    show("masked_select.bcast_self", F(3).masked_select(LL(6).reshape({2, 3}).remainder(2).eq(0)));
  });
  run("masked_select.bcast_both", [] {
    show("masked_select.bcast_both",
         F(3).reshape({3, 1}).masked_select(LL(2).eq(1).reshape({1, 2})));
  });
  run("masked_select.bcast_incompatible", [] {
    show("masked_select.bcast_incompatible", F(6).reshape({2, 3}).masked_select(LL(2).eq(1)));
  });
  run("masked_select.uint8_mask", [] {
    auto s = F(6).reshape({2, 3});
    show("masked_select.uint8_mask", s.masked_select(s.gt(2.5).to(at::kByte)));
  });
  run("masked_select.long_mask", [] {
    auto s = F(6).reshape({2, 3});
    show("masked_select.long_mask", s.masked_select(s.gt(2.5).to(at::kLong)));
  });
  run("masked_select.float_mask", [] {
    auto s = F(6).reshape({2, 3});
    show("masked_select.float_mask", s.masked_select(s.gt(2.5).to(at::kFloat)));
  });
  run("masked_select.transposed_self", [] {
    auto s = F(6).reshape({2, 3});
    show("masked_select.transposed_self",
         s.t().masked_select(LL(6).reshape({3, 2}).remainder(3).eq(0)));
  });
  run("masked_select.transposed_mask", [] {
    auto s = F(6).reshape({2, 3});
    show("masked_select.transposed_mask", s.masked_select(LL(6).reshape({3, 2}).gt(2).t()));
  });
  run("masked_select.0dim_mask_true", [] {
    show("masked_select.0dim_mask_true", F(6).reshape({2, 3}).masked_select(S0(1.0).gt(0)));
  });
  run("masked_select.0dim_both",
      [] { show("masked_select.0dim_both", S0(4.0).masked_select(S0(1.0).gt(0))); });
  run("masked_select.empty", [] {
    show("masked_select.empty", F(0).reshape({0, 3}).masked_select(LL(3).gt(0)));
  });
  run("masked_select.grad", [] {
    auto x = DL(6, {2, 3});
    auto y = x.masked_select(LL(6).reshape({2, 3}).remainder(2).eq(1));
    gf("masked_select.grad.out", y);
    bw(y);
    grad("masked_select.grad.x", x);
  });
  run("masked_select.grad.bcast_self", [] {
    auto x = DL(3, {3});
    auto y = x.masked_select(LL(6).reshape({2, 3}).ne(4));
    show("masked_select.grad.bcast_self.out", y);
    gf("masked_select.grad.bcast_self.out", y);
    bw(y);
    grad("masked_select.grad.bcast_self.x", x);
  });

  std::cout << "=== 11 nonzero\n";
  run("nonzero.1d", [] { show("nonzero.1d", IDX({0, 1, 0, 2, 3}).to(at::kFloat).nonzero()); });
  run("nonzero.2d", [] {
    show("nonzero.2d", LL(6).reshape({2, 3}).remainder(4).to(at::kFloat).nonzero());
  });
  run("nonzero.at", [] { show("nonzero.at", at::nonzero(LL(6).reshape({2, 3}).remainder(4))); });
  run("nonzero.0dim_true", [] { show("nonzero.0dim_true", S0(5.0).nonzero()); });
  run("nonzero.0dim_false", [] { show("nonzero.0dim_false", S0(0.0).nonzero()); });
  run("nonzero.empty1d", [] { show("nonzero.empty1d", F(0).nonzero()); });
  run("nonzero.empty2d", [] { show("nonzero.empty2d", F(0).reshape({0, 3}).nonzero()); });
  run("nonzero.all_zero_2d", [] {
    show("nonzero.all_zero_2d", (F(6) * 0).reshape({2, 3}).nonzero());
  });
  run("nonzero.transposed", [] {
    show("nonzero.transposed", LL(6).reshape({2, 3}).remainder(4).t().nonzero());
  });
  run("nonzero.expanded", [] {
    show("nonzero.expanded", F(3).reshape({3, 1}).expand({3, 2}).nonzero());
  });
  run("nonzero.bool", [] { show("nonzero.bool", LL(6).reshape({2, 3}).gt(3).nonzero()); });
  run("nonzero.3d", [] {
    show("nonzero.3d", LL(8).reshape({2, 2, 2}).remainder(3).eq(0).nonzero());
  });
  run("nonzero.double_nan", [] { show("nonzero.double_nan", (D(3) / 0).nonzero()); });

  std::cout << "=== 12 embedding\n";
  run("embedding.1d", [] {
    show("embedding.1d", at::embedding(F(15).reshape({5, 3}), IDX({0, 2, 2, 4})));
  });
  run("embedding.2d", [] {
    show("embedding.2d",
         at::embedding(F(15).reshape({5, 3}), IDX({1, 0, 1, 4, 4, 3}).reshape({2, 3})));
  });
  run("embedding.0dim_index", [] {
    show("embedding.0dim_index", at::embedding(F(15).reshape({5, 3}), IDX({3}).reshape({})));
  });
  run("embedding.empty_index", [] {
    show("embedding.empty_index", at::embedding(F(15).reshape({5, 3}), IDX({})));
  });
  run("embedding.int_index", [] {
    show("embedding.int_index", at::embedding(F(15).reshape({5, 3}), IDX({0, 2}).to(at::kInt)));
  });
  run("embedding.float_index", [] {
    show("embedding.float_index", at::embedding(F(15).reshape({5, 3}), IDX({0, 2}).to(at::kFloat)));
  });
  run("embedding.out_of_range", [] {
    show("embedding.out_of_range", at::embedding(F(15).reshape({5, 3}), IDX({0, 5})));
  });
  run("embedding.neg_index", [] {
    show("embedding.neg_index", at::embedding(F(15).reshape({5, 3}), IDX({0, -1})));
  });
  run("embedding.1d_weight", [] { show("embedding.1d_weight", at::embedding(F(5), IDX({0, 2}))); });
  run("embedding.transposed_weight", [] {
    show("embedding.transposed_weight", at::embedding(F(15).reshape({3, 5}).t(), IDX({0, 4, 4})));
  });
  run("embedding.transposed_index", [] {
    show("embedding.transposed_index",
         at::embedding(F(15).reshape({5, 3}), IDX({0, 1, 2, 3}).reshape({2, 2}).t()));
  });
  run("embedding.grad", [] {
    auto w = DL(15, {5, 3});
    auto y = at::embedding(w, IDX({0, 2, 2, 4}));
    gf("embedding.grad.out", y);
    bw(y);
    grad("embedding.grad.w", w);
  });
  run("embedding.grad.2d", [] {
    auto w = DL(15, {5, 3});
    auto y = at::embedding(w, IDX({1, 0, 1, 4, 4, 3}).reshape({2, 3}));
    gf("embedding.grad.2d.out", y);
    bw(y);
    grad("embedding.grad.2d.w", w);
  });
  run("embedding.grad.padding_idx2", [] {
    auto w = DL(15, {5, 3});
    auto y = at::embedding(w, IDX({0, 2, 2, 4, 1, 2}).reshape({2, 3}), 2);
    show("embedding.grad.padding_idx2.out", y);
    gf("embedding.grad.padding_idx2.out", y);
    bw(y);
    grad("embedding.grad.padding_idx2.w", w);
  });
  run("embedding.grad.scale_grad_by_freq", [] {
    auto w = DL(15, {5, 3});
    auto y = at::embedding(w, IDX({0, 2, 2, 4}), -1, true);
    gf("embedding.grad.scale_grad_by_freq.out", y);
    bw(y);
    grad("embedding.grad.scale_grad_by_freq.w", w);
  });

  std::cout << "=== 13 layer_norm\n";
  auto lnx = [] { return (D(12) * 7).remainder(5).reshape({2, 2, 3}); };
  run("layer_norm.no_wb.{3}", [&] { show("layer_norm.no_wb.{3}", at::layer_norm(lnx(), {3})); });
  run("layer_norm.no_wb.{2,3}", [&] {
    show("layer_norm.no_wb.{2,3}", at::layer_norm(lnx(), {2, 3}));
  });
  run("layer_norm.wb.{3}",
      [&] { show("layer_norm.wb.{3}", at::layer_norm(lnx(), {3}, D(3) + 1, D(3) * 0.5, 1e-5)); });
  run("layer_norm.wb.{2,3}", [&] {
    show("layer_norm.wb.{2,3}",
         at::layer_norm(lnx(), {2, 3}, D(6).reshape({2, 3}) + 1, D(6).reshape({2, 3}) * 0.5, 1e-5));
  });
  run("layer_norm.w_only",
      [&] { show("layer_norm.w_only", at::layer_norm(lnx(), {3}, D(3) + 1, c10::nullopt, 1e-5)); });
  run("layer_norm.eps1", [&] {
    show("layer_norm.eps1", at::layer_norm(lnx(), {3}, c10::nullopt, c10::nullopt, 1.0));
  });
  run("layer_norm.float",
      [&] { show("layer_norm.float", at::layer_norm(lnx().to(at::kFloat), {3})); });
  run("layer_norm.transposed",
      [&] { show("layer_norm.transposed", at::layer_norm(lnx().transpose(0, 2), {2})); });
  run("layer_norm.all_dims", [&] {
    show("layer_norm.all_dims", at::layer_norm(lnx(), {2, 2, 3}));
  });
  run("layer_norm.err.shape_mismatch",
      [&] { show("layer_norm.err.shape_mismatch", at::layer_norm(lnx(), {4})); });
  run("layer_norm.err.weight_mismatch", [&] {
    show("layer_norm.err.weight_mismatch", at::layer_norm(lnx(), {3}, D(4), c10::nullopt, 1e-5));
  });
  run("layer_norm.err.too_many_dims", [&] {
    show("layer_norm.err.too_many_dims", at::layer_norm(lnx(), {1, 2, 2, 3}));
  });
  run("layer_norm.err.empty_shape",
      [&] { show("layer_norm.err.empty_shape", at::layer_norm(lnx(), at::IntArrayRef{})); });
  run("layer_norm.grad.wb", [&] {
    auto x = lnx().requires_grad_();
    auto w = (D(3) + 1).requires_grad_();
    auto b = (D(3) * 0.5).requires_grad_();
    auto y = at::layer_norm(x, {3}, w, b, 1e-5);
    gf("layer_norm.grad.wb.out", y);
    bw(y);
    grad("layer_norm.grad.wb.x", x);
    grad("layer_norm.grad.wb.w", w);
    grad("layer_norm.grad.wb.b", b);
  });
  run("layer_norm.grad.no_wb.{2,3}", [&] {
    auto x = lnx().requires_grad_();
    auto y = at::layer_norm(x, {2, 3});
    gf("layer_norm.grad.no_wb.{2,3}.out", y);
    bw(y);
    grad("layer_norm.grad.no_wb.{2,3}.x", x);
  });
  run("native_layer_norm", [&] {
    auto r = at::native_layer_norm(lnx(), {3}, D(3) + 1, D(3) * 0.5, 1e-5);
    show("native_layer_norm.out", std::get<0>(r));
    show("native_layer_norm.mean", std::get<1>(r));
    show("native_layer_norm.rstd", std::get<2>(r));
  });
  run("native_layer_norm.{2,3}", [&] {
    auto r = at::native_layer_norm(lnx(), {2, 3}, c10::nullopt, c10::nullopt, 1e-5);
    show("native_layer_norm.{2,3}.mean", std::get<1>(r));
    show("native_layer_norm.{2,3}.rstd", std::get<2>(r));
  });
  run("native_layer_norm.float", [&] {
    auto r = at::native_layer_norm(lnx().to(at::kFloat), {3}, c10::nullopt, c10::nullopt, 1e-5);
    show("native_layer_norm.float.mean", std::get<1>(r));
  });

  std::cout << "=== 14 binary_cross_entropy\n";
  auto bcep = [] { return ((D(6) + 1) / 8).reshape({2, 3}); };
  auto bcet = [] { return (D(6).remainder(3) / 2).reshape({2, 3}); };
  for (int64_t red : {0, 1, 2}) {
    std::string rs = std::to_string(red);
    run("bce.red" + rs, [&, red, rs] {
      show("bce.red" + rs, at::binary_cross_entropy(bcep(), bcet(), c10::nullopt, red));
    });
    run("bce.weight.red" + rs, [&, red, rs] {
      show("bce.weight.red" + rs, at::binary_cross_entropy(bcep(), bcet(), D(3) + 1, red));
    });
  }
  run("bce.default_reduction",
      [&] { show("bce.default_reduction", at::binary_cross_entropy(bcep(), bcet())); });
  run("bce.enum_mean", [&] {
    show("bce.enum_mean",
         at::binary_cross_entropy(bcep(), bcet(), c10::nullopt, at::Reduction::Mean));
  });
  run("bce.weight_full", [&] {
    show("bce.weight_full", at::binary_cross_entropy(bcep(), bcet(), D(6).reshape({2, 3}), 0));
  });
  run("bce.float", [&] {
    show("bce.float",
         at::binary_cross_entropy(bcep().to(at::kFloat), bcet().to(at::kFloat), c10::nullopt, 1));
  });
  run("bce.input_0_and_1", [&] {
    show("bce.input_0_and_1",
         at::binary_cross_entropy(D(2), IDX({1, 0}).to(at::kDouble), c10::nullopt, 0));
  });
  run("bce.transposed", [&] {
    show("bce.transposed", at::binary_cross_entropy(bcep().t(), bcet().t(), c10::nullopt, 0));
  });
  run("bce.err.input_gt1", [&] {
    show("bce.err.input_gt1", at::binary_cross_entropy(bcep() * 3, bcet(), c10::nullopt, 1));
  });
  run("bce.err.input_neg", [&] {
    show("bce.err.input_neg", at::binary_cross_entropy(bcep() - 0.5, bcet(), c10::nullopt, 1));
  });
  run("bce.target_gt1", [&] {
    show("bce.target_gt1", at::binary_cross_entropy(bcep(), bcet() * 3, c10::nullopt, 0));
  });
  run("bce.size_mismatch.target{3}", [&] {
    show("bce.size_mismatch.target{3}",
         at::binary_cross_entropy(bcep(), D(3) / 3, c10::nullopt, 0));
  });
  run("bce.size_mismatch.target{6}", [&] {
    show("bce.size_mismatch.target{6}",
         at::binary_cross_entropy(bcep(), D(6) / 6, c10::nullopt, 0));
  });
  run("bce.size_mismatch.weight{2}", [&] {
    show("bce.size_mismatch.weight{2}", at::binary_cross_entropy(bcep(), bcet(), D(2), 0));
  });
  run("bce.dtype_mismatch", [&] {
    show("bce.dtype_mismatch",
         at::binary_cross_entropy(bcep(), bcet().to(at::kFloat), c10::nullopt, 0));
  });
  run("bce.err.bad_reduction", [&] {
    show("bce.err.bad_reduction", at::binary_cross_entropy(bcep(), bcet(), c10::nullopt, 5));
  });
  run("bce.empty.mean",
      [&] { show("bce.empty.mean", at::binary_cross_entropy(D(0), D(0), c10::nullopt, 1)); });
  for (int64_t red : {0, 1, 2}) {
    std::string rs = std::to_string(red);
    run("bce.grad.red" + rs, [&, red, rs] {
      auto x = bcep().requires_grad_();
      auto y = at::binary_cross_entropy(x, bcet(), D(3) + 1, red);
      gf("bce.grad.red" + rs + ".out", y);
      bw(y);
      grad("bce.grad.red" + rs + ".x", x);
    });
  }
  run("bce.grad.target", [&] {
    auto x = bcep().requires_grad_();
    auto t = bcet().requires_grad_();
    auto y = at::binary_cross_entropy(x, t, c10::nullopt, 1);
    gf("bce.grad.target.out", y);
    bw(y);
    grad("bce.grad.target.x", x);
    grad("bce.grad.target.t", t);
  });

  std::cout << "=== 15 dropout\n";
  run("dropout.eval", [] {
    auto t = F(6);
    auto d = at::dropout(t, 0.5, false);
    show("dropout.eval", d);
    std::cout << "dropout.eval same_ptr=" << (d.data_ptr() == t.data_ptr())
              << " is_same=" << d.is_same(t) << "\n";
  });
  run("dropout.eval.p_out_of_range",
      [] { show("dropout.eval.p_out_of_range", at::dropout(F(6), 1.5, false)); });
  run("dropout.train.p_out_of_range",
      [] { show("dropout.train.p_out_of_range", at::dropout(F(6), 1.5, true)); });
  run("dropout.train.p_negative",
      [] { show("dropout.train.p_negative", at::dropout(F(6), -0.1, true)); });
  run("dropout.train.p0", [] {
    auto t = F(6);
    auto d = at::dropout(t, 0.0, true);
    show("dropout.train.p0", d);
    std::cout << "dropout.train.p0 same_ptr=" << (d.data_ptr() == t.data_ptr())
              << " is_same=" << d.is_same(t) << "\n";
  });
  run("dropout.train.p1", [] {
    auto t = F(6);
    auto d = at::dropout(t, 1.0, true);
    show("dropout.train.p1", d);
    std::cout << "dropout.train.p1 same_ptr=" << (d.data_ptr() == t.data_ptr()) << "\n";
  });
  run("dropout.train.p1.expanded", [] {
    show("dropout.train.p1.expanded", at::dropout(F(3).reshape({3, 1}).expand({3, 2}), 1.0, true));
  });
  run("dropout.train.empty", [] { show("dropout.train.empty", at::dropout(F(0), 0.5, true)); });
  run("dropout.grad.p1.train", [] {
    auto x = DL(6, {2, 3});
    auto y = at::dropout(x, 1.0, true);
    gf("dropout.grad.p1.train.out", y);
    bw(y);
    grad("dropout.grad.p1.train.x", x);
  });
  run("dropout.grad.p0.train", [] {
    auto x = DL(6, {2, 3});
    auto y = at::dropout(x, 0.0, true);
    gf("dropout.grad.p0.train.out", y);
    std::cout << "dropout.grad.p0.train is_same=" << y.is_same(x) << "\n";
  });
  run("dropout.grad.p0.train.nonleaf", [] {
    auto x = DL(6, {2, 3});
    auto y = at::dropout(x.mul(2), 0.0, true);
    gf("dropout.grad.p0.train.nonleaf.out", y);
    bw(y);
    grad("dropout.grad.p0.train.nonleaf.x", x);
  });
  run("dropout.grad.eval", [] {
    auto x = DL(6, {2, 3});
    auto y = at::dropout(x, 0.5, false);
    gf("dropout.grad.eval.out", y);
  });
  run("dropout.grad.p05.train", [] {
    auto x = DL(6, {2, 3});
    auto y = at::dropout(x, 0.5, true);
    gf("dropout.grad.p05.train.out", y);
  });

  std::cout << "=== 16 random args\n";
  run("randint.10.{3}.range", [] {
    auto r = at::randint(10, {3});
    std::cout << "randint.10.{3} sizes=" << list_str(r.sizes())
              << " dtype=" << c10::toString(r.scalar_type())
              << " in_range=" << (r.ge(0).all().item<bool>() && r.lt(10).all().item<bool>())
              << "\n";
  });
  run("randint.3.10.{2,2}", [] {
    auto r = at::randint(3, 10, {2, 2});
    std::cout << "randint.3.10.{2,2} sizes=" << list_str(r.sizes())
              << " dtype=" << c10::toString(r.scalar_type())
              << " in_range=" << (r.ge(3).all().item<bool>() && r.lt(10).all().item<bool>())
              << "\n";
  });
  run("randint.float_opt", [] {
    auto r = at::randint(10, {3}, at::kFloat);
    std::cout << "randint.float_opt dtype=" << c10::toString(r.scalar_type()) << "\n";
  });
  run("randint.err.low_eq_high", [] { show("randint.err.low_eq_high", at::randint(5, 5, {2})); });
  run("randint.err.low_gt_high", [] { show("randint.err.low_gt_high", at::randint(7, 3, {2})); });
  run("randint.err.high0", [] { show("randint.err.high0", at::randint(0, {2})); });
  run("randint.empty", [] { show("randint.empty", at::randint(10, {0})); });
  run("randperm.5", [] {
    auto r = at::randperm(5);
    std::cout << "randperm.5 sizes=" << list_str(r.sizes())
              << " dtype=" << c10::toString(r.scalar_type()) << "\n";
    show("randperm.5.sum_min_max", at::stack({r.sum(), r.min(), r.max()}));
  });
  run("randperm.0", [] { show("randperm.0", at::randperm(0)); });
  run("randperm.1", [] { show("randperm.1", at::randperm(1)); });
  run("randperm.err.neg", [] { show("randperm.err.neg", at::randperm(-1)); });
  run("randperm.float", [] {
    auto r = at::randperm(4, at::kFloat);
    std::cout << "randperm.float dtype=" << c10::toString(r.scalar_type()) << "\n";
    show("randperm.float.sum_min_max", at::stack({r.sum(), r.min(), r.max()}));
  });
  run("bernoulli.float", [] {
    auto r = at::bernoulli(F(4) / 3);
    std::cout << "bernoulli.float sizes=" << list_str(r.sizes())
              << " dtype=" << c10::toString(r.scalar_type()) << "\n";
    show("bernoulli.float.extremes", at::bernoulli(IDX({0, 1, 1, 0}).to(at::kFloat)));
  });
  run("bernoulli.double", [] {
    auto r = at::bernoulli(D(4) / 3);
    std::cout << "bernoulli.double dtype=" << c10::toString(r.scalar_type()) << "\n";
  });
  run("bernoulli.p_scalar", [] {
    auto r = at::bernoulli(F(4), 0.5);
    std::cout << "bernoulli.p_scalar sizes=" << list_str(r.sizes())
              << " dtype=" << c10::toString(r.scalar_type()) << "\n";
  });
  run("bernoulli.err.probs_gt1", [] { show("bernoulli.err.probs_gt1", at::bernoulli(F(4))); });
  run("bernoulli_.err.p1.5", [] {
    auto t = F(4);
    t.bernoulli_(1.5);
    show("bernoulli_.err.p1.5", t);
  });
  run("bernoulli_.err.p-0.5", [] {
    auto t = F(4);
    t.bernoulli_(-0.5);
    show("bernoulli_.err.p-0.5", t);
  });
  run("bernoulli_.p1", [] {
    auto t = F(4);
    t.bernoulli_(1.0);
    show("bernoulli_.p1", t);
  });
  run("bernoulli_.p0.long", [] {
    auto t = LL(4);
    t.bernoulli_(0.0);
    show("bernoulli_.p0.long", t);
  });

  run("at_tensor_scalar_is_1d",
      [] { show("at_tensor_scalar_is_1d", at::tensor(5.0).to(at::kFloat)); });
  run("flip.1elem", [] { show("flip.1elem", at::tensor(3.0).to(at::kFloat).flip({0})); });

  std::cout << "=== 17 indexing\n";
  {
    using namespace at::indexing;
    auto X = [] { return F(24).reshape({2, 3, 4}); };
    run("idx.int", [&] { show("idx.int", X().index({1})); });
    run("idx.neg_int", [&] { show("idx.neg_int", X().index({-1, 2})); });
    run("idx.slice", [&] { show("idx.slice", X().index({Slice(), Slice(1, None)})); });
    run("idx.slice_step", [&] {
      show("idx.slice_step", X().index({"...", Slice(None, None, 2)}));
    });
    run("idx.none", [&] { show("idx.none", X().index({None, 0, None})); });
    run("idx.ellipsis", [&] { show("idx.ellipsis", X().index({Ellipsis, 1})); });
    run("idx.ellipsis_only", [&] {
      auto x = X();
      auto y = x.index({Ellipsis});
      show("idx.ellipsis_only", y);
      std::cout << "idx.ellipsis_only.same=" << y.is_same(x) << "\n";
    });
    run("idx.bool_true", [&] { show("idx.bool_true", X().index({true})); });
    run("idx.bool_false", [&] { show("idx.bool_false", X().index({0, false})); });
    run("idx.tensor", [&] { show("idx.tensor", X().index({IDX({1, 0, 1})})); });
    run("idx.tensor_dim1", [&] { show("idx.tensor_dim1", X().index({Slice(), IDX({2, 0})})); });
    run("idx.two_tensors_adjacent", [&] {
      show("idx.two_tensors_adjacent", X().index({Slice(), IDX({2, 0}), IDX({3, 1})}));
    });
    run("idx.two_tensors_apart", [&] {
      show("idx.two_tensors_apart", X().index({IDX({1, 0}), Slice(), IDX({3, 1})}));
    });
    run("idx.broadcast_indices", [&] {
      show("idx.broadcast_indices", X().index({IDX({1, 0}).reshape({2, 1}), IDX({0, 1, 2})}));
    });
    run("idx.mask", [&] {
      auto x = X();
      show("idx.mask", x.index({x.gt(20)}));
    });
    run("idx.mask_2d", [&] {
      auto x = X();
      show("idx.mask_2d", x.index({Slice(), x[0].remainder(5).eq(0)}));
    });
    run("idx.0dim_long", [&] { show("idx.0dim_long", X().index({IDX({1}).reshape({})})); });
    run("idx.0dim_bool", [&] { show("idx.0dim_bool", X().index({at::ones({}, at::kBool)})); });
    run("idx.transposed", [&] {
      show("idx.transposed", X().transpose(0, 2).index({IDX({3, 0}), 1}));
    });
    run("idx.neg_tensor", [&] { show("idx.neg_tensor", X().index({IDX({-1, -2})})); });
    run("idx.at_index", [&] {
      show("idx.at_index",
           at::index(X(), {c10::optional<at::Tensor>(), c10::optional<at::Tensor>(IDX({0, 2}))}));
    });
    run("idx.err.too_many", [&] { show("idx.err.too_many", X().index({0, 0, 0, 0})); });
    run("idx.err.int_oob", [&] { show("idx.err.int_oob", X().index({5})); });
    run("idx.err.tensor_oob", [&] { show("idx.err.tensor_oob", X().index({Slice(), IDX({3})})); });
    run("idx.err.float_index", [&] { show("idx.err.float_index", X().index({F(2)})); });
    run("idx.err.bcast", [&] { show("idx.err.bcast", X().index({IDX({0, 1}), IDX({0, 1, 2})})); });
    run("idx.err.mask_shape",
        [&] { show("idx.err.mask_shape", X().index({at::ones({3}, at::kBool)})); });
    run("idx.err.step0", [&] { show("idx.err.step0", X().index({Slice(0, 2, 0)})); });
    run("idx.err.neg_step", [&] { show("idx.err.neg_step", X().index({Slice(None, None, -1)})); });
    run("idx.err.0dim", [&] { show("idx.err.0dim", S0(1).index({0})); });
    run("idx.err.empty", [&] { show("idx.err.empty", X().index(at::ArrayRef<TensorIndex>{})); });
    run("idx.err.str", [&] { show("idx.err.str", X().index({"..x"})); });
    run("put.int", [&] {
      auto x = X();
      x.index_put_({0, 1}, 7);
      show("put.int", x);
    });
    run("put.slice_tensor", [&] {
      auto x = X();
      x.index_put_({Slice(), 0}, F(4) * -1);
      show("put.slice_tensor", x);
    });
    run("put.mask", [&] {
      auto x = X();
      x.index_put_({x.gt(20)}, 0);
      show("put.mask", x);
    });
    run("put.tensor", [&] {
      auto x = X();
      x.index_put_({IDX({1, 0}), IDX({2, 2})}, F(8).reshape({2, 4}));
      show("put.tensor", x);
    });
    run("put.tensor_bcast_value", [&] {
      auto x = X();
      x.index_put_({Slice(), IDX({0, 2})}, F(4));
      show("put.tensor_bcast_value", x);
    });
    run("put.leading_ones", [&] {
      auto x = X();
      x.index_put_({0, IDX({1})}, F(4).reshape({1, 1, 4}));
      show("put.leading_ones", x);
    });
    run("put.accumulate", [&] {
      auto x = F(5);
      x.index_put_(
          c10::List<c10::optional<at::Tensor>>({c10::optional<at::Tensor>(IDX({1, 1, 3}))}),
          at::ones({3}), true);
      show("put.accumulate", x);
    });
    run("put.bool_false", [&] {
      auto x = X();
      x.index_put_({false}, 9);
      show("put.bool_false", x);
    });
    run("put.err.dtype", [&] {
      auto x = X();
      x.index_put_({IDX({0})}, D(12).reshape({3, 4}));
      show("put.err.dtype", x);
    });
    run("put.err.shape", [&] {
      auto x = X();
      x.index_put_({IDX({0, 1})}, F(5));
      show("put.err.shape", x);
    });
    run("idx.grad", [&] {
      auto x = DL(12, {3, 4});
      auto y = x.index({IDX({2, 0, 2}), Slice(1, 3)});
      gf("idx.grad.out", y);
      bw(y);
      grad("idx.grad.x", x);
    });
    run("idx.grad.view", [&] {
      auto x = DL(12, {3, 4});
      auto y = x.index({1, Slice(None, None, 2)});
      gf("idx.grad.view.out", y);
      bw(y);
      grad("idx.grad.view.x", x);
    });
    run("put.grad", [&] {
      auto x = DL(12, {3, 4});
      auto v = at::arange(4, at::kDouble).requires_grad_();
      auto y = x.clone();
      y.index_put_({IDX({0, 2})}, v);
      gf("put.grad.out", y);
      bw(y);
      grad("put.grad.x", x);
      grad("put.grad.v", v);
    });
    run("put.grad.accumulate", [&] {
      auto x = DL(4, {4});
      auto v = at::arange(3, at::kDouble).requires_grad_();
      auto y = x.index_put(
          c10::List<c10::optional<at::Tensor>>({c10::optional<at::Tensor>(IDX({1, 1, 3}))}), v,
          true);
      gf("put.grad.accumulate.out", y);
      bw(y);
      grad("put.grad.accumulate.x", x);
      grad("put.grad.accumulate.v", v);
    });
  }

  std::cout << "=== seeded random streams\n";
  run("seed.randint", [] {
    at::manual_seed(0);
    show("seed.randint(0,100,{10})", at::randint(0, 100, {10}));
  });
  run("seed.randperm10", [] {
    at::manual_seed(0);
    show("seed.randperm(10)", at::randperm(10));
  });
  run("seed.randperm40", [] {
    at::manual_seed(0);
    show("seed.randperm(40)", at::randperm(40));
  });
  run("seed.bernoulli_", [] {
    at::manual_seed(0);
    show("seed.empty8.bernoulli_(0.3)", at::empty({8}).bernoulli_(0.3));
  });
  run("seed.bernoulli", [] {
    at::manual_seed(0);
    show("seed.bernoulli(full8,0.5)", at::bernoulli(at::full({8}, 0.5)));
  });
  run("seed.dropout", [] {
    at::manual_seed(0);
    show("seed.dropout(ones12,0.5,true)", at::dropout(at::ones({12}), 0.5, true));
  });
  std::cout << "=== done\n";
  return 0;
}
