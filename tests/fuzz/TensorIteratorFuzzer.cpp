// TensorIterator on random shapes, broadcasts, layouts, dtypes and overlaps: add/sub/mul
// (functional, out= and in-place) and copy_. Each call either raises c10::Error or writes, at
// every element of its output, what a naive loop over the broadcast indices computes from the
// operands' values as they were before the call (so an undetected overlap shows as a mismatch).
//
// Values are small integers and halves, so every sum and product is exact in each dtype and the
// reference, computed in double, needs no tolerance.

#include <vector>

#include "aten/ATen.h"
#include "tests/fuzz/FuzzInput.h"

namespace {

using at::ScalarType;
using at::Tensor;
using fuzz::FuzzInput;

const ScalarType kTypes[] = {at::kBool, at::kInt, at::kLong, at::kFloat, at::kDouble};

// A value as a tensor of dtype t stores it (C++'s conversions, as the kernels make them).
double cast_to(ScalarType t, double v) {
  switch (t) {
    case at::kBool: return v != 0;
    case at::kInt: return static_cast<int32_t>(v);
    case at::kLong: return static_cast<double>(static_cast<int64_t>(v));
    case at::kFloat: return static_cast<float>(v);
    default: return v;
  }
}

double read(const Tensor& t, int64_t offset) {
  const char* p = static_cast<const char*>(t.data_ptr()) + offset * static_cast<int64_t>(t.itemsize());
  switch (t.scalar_type()) {
    case at::kBool: return *reinterpret_cast<const bool*>(p);
    case at::kInt: return *reinterpret_cast<const int32_t*>(p);
    case at::kLong: return static_cast<double>(*reinterpret_cast<const int64_t*>(p));
    case at::kFloat: return *reinterpret_cast<const float*>(p);
    default: return *reinterpret_cast<const double*>(p);
  }
}

void fill(FuzzInput& in, const Tensor& contiguous) {
  const ScalarType t = contiguous.scalar_type();
  for (int64_t i = 0; i < contiguous.numel(); ++i) {
    double v = t == at::kBool ? in.in_range(0, 1) : in.in_range(-8, 8);
    if (at::isFloatingType(t) && in.boolean()) v += 0.5;
    char* p = static_cast<char*>(contiguous.data_ptr()) + i * static_cast<int64_t>(contiguous.itemsize());
    switch (t) {
      case at::kBool: *reinterpret_cast<bool*>(p) = v != 0; break;
      case at::kInt: *reinterpret_cast<int32_t*>(p) = static_cast<int32_t>(v); break;
      case at::kLong: *reinterpret_cast<int64_t*>(p) = static_cast<int64_t>(v); break;
      case at::kFloat: *reinterpret_cast<float*>(p) = static_cast<float>(v); break;
      default: *reinterpret_cast<double*>(p) = v;
    }
  }
}

// A tensor of `sizes` with random values, laid out contiguously, permuted, every other element
// of a wider tensor, or broadcast along its size-1 dims to `expand_to` (stride 0).
Tensor make_tensor(FuzzInput& in, std::vector<int64_t> sizes, ScalarType dtype,
                   c10::IntArrayRef expand_to) {
  const int64_t dim = static_cast<int64_t>(sizes.size());
  switch (in.byte() % 4) {
    case 1: {  // permuted: contiguous in the reversed order of dims
      std::vector<int64_t> reversed(sizes.rbegin(), sizes.rend()), perm;
      Tensor t = at::empty(reversed, at::TensorOptions().dtype(dtype));
      fill(in, t);
      for (int64_t d = dim - 1; d >= 0; --d) perm.push_back(d);
      return t.permute(perm);
    }
    case 2: {  // strided: every other element along the last dim
      if (dim == 0) break;
      std::vector<int64_t> wide = sizes;
      wide.back() *= 2;
      Tensor t = at::empty(wide, at::TensorOptions().dtype(dtype));
      fill(in, t);
      return t.slice(dim - 1, 0, c10::nullopt, 2);
    }
    case 3: {  // broadcast in memory: stride 0 where the size is 1 and expand_to is not
      if (static_cast<int64_t>(expand_to.size()) != dim) break;
      // Only sizes that broadcast (a mismatching operand, made on purpose, stays as it is: its
      // error belongs to the op under test, not to this setup).
      bool expandable = true;
      for (int64_t d = 0; d < dim; ++d) {
        expandable &= sizes[d] == expand_to[d] || sizes[d] == 1;
      }
      if (!expandable) break;
      Tensor t = at::empty(sizes, at::TensorOptions().dtype(dtype));
      fill(in, t);
      return t.expand(expand_to);
    }
    default: break;
  }
  Tensor t = at::empty(sizes, at::TensorOptions().dtype(dtype));
  fill(in, t);
  return t;
}

// The operand's sizes: the output's last dims, some of them 1, rarely one that mismatches.
std::vector<int64_t> operand_sizes(FuzzInput& in, const std::vector<int64_t>& out) {
  const size_t drop = static_cast<size_t>(in.in_range(0, static_cast<int64_t>(out.size())));
  std::vector<int64_t> sizes(out.begin() + static_cast<std::ptrdiff_t>(drop), out.end());
  for (auto& s : sizes) {
    const uint8_t b = in.byte();
    if (b < 64) s = 1;
    else if (b < 72) s = in.in_range(0, 4);
  }
  return sizes;
}

// Broadcast shape of a and b, or false when they do not broadcast.
bool broadcast(c10::IntArrayRef a, c10::IntArrayRef b, std::vector<int64_t>& out) {
  const size_t n = std::max(a.size(), b.size());
  out.assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t sa = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t sb = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (sa != sb && sa != 1 && sb != 1) return false;
    out[n - 1 - i] = sa == 1 ? sb : sa;
  }
  return true;
}

// The values of t broadcast to `shape`, row-major.
std::vector<double> values(const Tensor& t, c10::IntArrayRef shape) {
  int64_t numel = 1;
  for (const int64_t s : shape) numel *= s;
  std::vector<double> out(static_cast<size_t>(numel));
  const int64_t lead = static_cast<int64_t>(shape.size()) - t.dim();
  for (int64_t i = 0; i < numel; ++i) {
    int64_t rest = i, offset = 0;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      const int64_t idx = rest % shape[d];
      rest /= shape[d];
      if (d >= lead && t.size(d - lead) != 1) offset += idx * t.stride(d - lead);
    }
    out[static_cast<size_t>(i)] = read(t, offset);
  }
  return out;
}

int category(ScalarType t) { return t == at::kBool ? 0 : at::isFloatingType(t) ? 2 : 1; }

// libtorch's result type: tensors with dims decide; a zero-dim tensor only when its category
// (bool < integral < floating) is higher.
ScalarType result_type(const Tensor& a, const Tensor& b) {
  const bool a0 = a.dim() == 0, b0 = b.dim() == 0;
  if (a0 == b0) return c10::promoteTypes(a.scalar_type(), b.scalar_type());
  const ScalarType dims = a0 ? b.scalar_type() : a.scalar_type();
  const ScalarType zero = a0 ? a.scalar_type() : b.scalar_type();
  return category(zero) > category(dims) ? c10::promoteTypes(dims, zero) : dims;
}

enum class Op { Add, Sub, Mul };

double compute(Op op, double a, double b, double alpha) {
  switch (op) {
    case Op::Add: return a + alpha * b;
    case Op::Sub: return a - alpha * b;
    default: return a * b;
  }
}

void expect_output(const Tensor& out, c10::IntArrayRef shape, const std::vector<double>& expected) {
  FUZZ_CHECK(out.sizes() == shape,
             c10::str("the output has sizes ", out.sizes(), ", expected ", shape));
  const std::vector<double> got = values(out, shape);
  for (size_t i = 0; i < got.size(); ++i)
    FUZZ_CHECK(got[i] == expected[i], "element " + std::to_string(i) + " is " +
                                          std::to_string(got[i]) + ", expected " +
                                          std::to_string(expected[i]));
}

void run(FuzzInput& in) {
  std::vector<int64_t> shape(static_cast<size_t>(in.in_range(0, 4)));
  for (auto& s : shape) s = in.in_range(0, 4);
  const uint8_t kind = in.byte() % 8;
  if (std::getenv("FUZZ_DEBUG")) std::fprintf(stderr, "kind %d\n", kind);
  const ScalarType ta = in.pick(kTypes), tb = in.pick(kTypes);
  const Tensor a = make_tensor(in, operand_sizes(in, shape), ta, shape);
  const Tensor b = make_tensor(in, operand_sizes(in, shape), tb, shape);
  const Op op = static_cast<Op>(in.byte() % 3);
  const int64_t alpha = in.in_range(1, 3);

  std::vector<int64_t> out_shape;
  const bool broadcasts = broadcast(a.sizes(), b.sizes(), out_shape);
  const std::vector<double> va = broadcasts ? values(a, out_shape) : std::vector<double>();
  const std::vector<double> vb = broadcasts ? values(b, out_shape) : std::vector<double>();
  auto expected_in = [&](ScalarType common, ScalarType out) {
    std::vector<double> e(va.size());
    for (size_t i = 0; i < e.size(); ++i)
      e[i] = cast_to(out, cast_to(common, compute(op, cast_to(common, va[i]), cast_to(common, vb[i]),
                                                  op == Op::Mul ? 1 : alpha)));
    return e;
  };

  try {
    switch (kind) {
      case 0:
      case 1: {  // functional
        const Tensor r = op == Op::Add ? at::add(a, b, alpha)
                         : op == Op::Sub ? at::sub(a, b, alpha)
                                         : at::mul(a, b);
        FUZZ_CHECK(broadcasts, "shapes that do not broadcast were accepted");
        const ScalarType common = result_type(a, b);
        FUZZ_CHECK(r.scalar_type() == common, "the result has the wrong dtype");
        FUZZ_CHECK(r.is_non_overlapping_and_dense(), "a new output overlaps or has gaps");
        expect_output(r, out_shape, expected_in(common, common));
        break;
      }
      case 2:
      case 3:
      case 4: {  // out=: a fresh tensor, an empty one to resize, or one sharing a's memory
        Tensor out;
        const uint8_t which = in.byte() % 4;
        if (which == 0) out = at::empty({0}, at::TensorOptions().dtype(in.pick(kTypes)));
        else if (which == 1) out = a;
        else if (which == 2 && a.numel() > 1) out = a.as_strided(a.sizes(), a.strides(), a.storage_offset() + 1).slice(0, 0, a.size(0) > 1 ? a.size(0) - 1 : 1);
        else out = make_tensor(in, out_shape, in.pick(kTypes), {});
        if (op == Op::Add) at::add_out(out, a, b, alpha);
        else if (op == Op::Sub) at::sub_out(out, a, b, alpha);
        else at::mul_out(out, a, b);
        FUZZ_CHECK(broadcasts, "shapes that do not broadcast were accepted");
        expect_output(out, out_shape, expected_in(result_type(a, b), out.scalar_type()));
        break;
      }
      case 5:
      case 6: {  // in-place: a is the output, b broadcasts to it
        Tensor self = a;
        if (op == Op::Add) self.add_(b, alpha);
        else if (op == Op::Sub) self.sub_(b, alpha);
        else self.mul_(b);
        FUZZ_CHECK(broadcasts && out_shape == a.sizes().vec(), "an in-place op changed a's shape");
        expect_output(self, out_shape, expected_in(result_type(a, b), a.scalar_type()));
        break;
      }
      default: {  // copy_: b into a
        Tensor dst = a;
        const std::vector<double> before_b = broadcast(a.sizes(), b.sizes(), out_shape)
                                                 ? values(b, out_shape) : std::vector<double>();
        dst.copy_(b);
        FUZZ_CHECK(out_shape == a.sizes().vec(), "copy_ accepted a source that does not broadcast to self");
        std::vector<double> e(before_b.size());
        for (size_t i = 0; i < e.size(); ++i) e[i] = cast_to(a.scalar_type(), before_b[i]);
        expect_output(dst, out_shape, e);
      }
    }
  } catch (const c10::Error&) {
    // rejected with a message: fine
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  run(in);
  return 0;
}
