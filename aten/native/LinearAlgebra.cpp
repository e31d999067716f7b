// Matrix products: mm, addmm, bmm, dot, mv on the gemm of Blas.h, and the composite matmul and
// linear. Checks and error texts are libtorch 1.13's (aten/src/ATen/native/LinearAlgebra.cpp);
// on a Meta tensor the kernels check and shape the result and compute nothing.

#include <limits>
#include <vector>

#include "aten/ATen.h"
#include "aten/MemoryOverlap.h"
#include "aten/generated/NativeFunctions.h"
#include "aten/native/Blas.h"
#include "aten/native/MetaStub.h"
#include "aten/native/Resize.h"
#include "aten/native/SameDevice.h"
#include "aten/native/TensorIterator.h"
#include "c10/core/DeviceGuard.h"
#include "c10/util/accumulate.h"

namespace at {
namespace native {

DEFINE_DISPATCH(gemm_stub);
DEFINE_DISPATCH(gemm_batched_stub);

namespace {

// libtorch's data_ptr<scalar_t>() check, which is where a second operand of another dtype is
// caught in mm, bmm and mv.
void check_scalar_type(ScalarType expected, const Tensor& t) {
  if (t.scalar_type() != expected) at::detail::throw_data_ptr_type_mismatch(expected, t.scalar_type());
}

bool is_zero(const Scalar& s) {
  return s.isComplex() ? s.toComplexDouble() == c10::complex<double>(0) : s.toDouble() == 0.0;
}

// Whether a product of `type` on `t`'s device goes to a library (BLAS on the CPU, cuBLAS on a
// GPU), which reads only the layouts of Note [Matrices as BLAS sees them].
bool uses_library(const Tensor& t) {
  return !t.device().is_cpu() || cpublas::uses_blas(t.scalar_type());
}

// The matrix of `t` as the library can read it: `t` itself, or a contiguous copy (Blas.h).
// A matrix too large for BLAS's int sizes stays as it is: the CPU's gemm takes its loop for it.
Tensor blas_readable(const Tensor& t) {
  if (!uses_library(t) || cpublas::blas_can_read(cpublas::matrix_of(t)) ||
      !cpublas::fits_blas(t.size(0), t.size(1))) {
    return t;
  }
  return t.contiguous();
}

// result = beta * result + alpha * (m1 @ m2) for 2-D tensors of one dtype; result is m x n.
// Note [Matrices as BLAS sees them]: a result BLAS cannot write is computed in a contiguous
// temporary and copied in. On a GPU the same layouts go to cuBLAS through gemm_stub.
void gemm_into(const Tensor& result, const Tensor& m1, const Tensor& m2, const Scalar& beta,
               const Scalar& alpha) {
  if (result.numel() == 0) return;
  if (result.is_meta()) {
    // Note [Meta asks the CPU kernel which dtypes it takes] (MetaStub.h): BLAS or not, and
    // which dtypes, is decided below.
    gemm_into(cpu_stand_in(result), cpu_stand_in(m1), cpu_stand_in(m2), beta, alpha);
    return;
  }
  const ScalarType type = result.scalar_type();
  const bool beta_is_zero = is_zero(beta);
  if (uses_library(result) && !cpublas::blas_can_read(cpublas::matrix_of(result)) &&
      cpublas::fits_blas(result.size(0), result.size(1))) {
    Tensor tmp = beta_is_zero ? at::empty(result.sizes(), result.options()) : result.contiguous();
    gemm_into(tmp, m1, m2, beta, alpha);
    result.copy_(tmp);
    return;
  }
  const Tensor a = blas_readable(m1), b = blas_readable(m2);
  if (result.device().is_cpu()) {
    cpublas::gemm(type, cpublas::matrix_of(a), cpublas::matrix_of(b), cpublas::matrix_of(result),
                  alpha, beta);
    return;
  }
  TORCH_CHECK(cpublas::fits_blas(result.size(0), result.size(1)) &&
                  cpublas::fits_blas(a.size(0), a.size(1)),
              "addmm: matrix sizes past 2^31 - 1 are not supported on ", result.device().type());
  // The device library's dtypes, refused before the alpha == 0 shortcut can hide the dtype.
  TORCH_CHECK(type == kFloat || type == kDouble || type == kHalf || type == kBFloat16,
              "\"addmm_cuda\" not implemented for '", type, "'");
  if (is_zero(alpha)) {
    // As the CPU's Note [alpha == 0 never reaches BLAS]: the product is not computed.
    if (beta_is_zero) {
      result.zero_();
    } else {
      result.mul_(beta);
    }
    return;
  }
  const c10::DeviceGuard guard(result.device());
  gemm_stub(result.device().type(), type, cpublas::matrix_of(a), cpublas::matrix_of(b),
            cpublas::matrix_of(result), alpha, beta);
}

void check_mm(const Tensor& self, const Tensor& mat2) {
  TORCH_CHECK(self.dim() == 2, "self must be a matrix");
  TORCH_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  TORCH_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
              self.size(0), "x", self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
}

void check_addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2) {
  TORCH_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  TORCH_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  TORCH_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
              mat1.size(0), "x", mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  TORCH_CHECK(self.scalar_type() == mat2.scalar_type(), "self and mat2 must have the same dtype");
}

// out = beta * self + alpha * (mat1 @ mat2), out already m x n: self broadcast into out first
// (not read when beta is 0, as libtorch's addmm).
void addmm_into(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                const Scalar& beta, const Scalar& alpha) {
  check_scalar_type(out.scalar_type(), mat1);
  check_scalar_type(out.scalar_type(), mat2);
  const Tensor expanded = self.expand({mat1.size(0), mat2.size(1)});
  if (!out.is_same(self)) out.copy_(expanded);
  if (mat1.size(1) == 0) {
    // No products to add: BLAS would only scale, which a k of 0 makes it skip for some libraries.
    if (is_zero(beta)) {
      out.zero_();
    } else {
      out.mul_(beta);
    }
    return;
  }
  gemm_into(out, mat1, mat2, beta, alpha);
}

void mm_into(const Tensor& out, const Tensor& self, const Tensor& mat2) {
  check_scalar_type(self.scalar_type(), mat2);
  if (self.size(1) == 0) {
    out.zero_();
    return;
  }
  gemm_into(out, self, mat2, 0, 1);
}

// bmm on a device: one batched library call (gemm_batched_stub). Each operand's matrices share
// one layout, so the first one says whether the library reads them all; one it cannot read (or
// too large for its int sizes) is copied contiguous, and a result it cannot write (or whose
// matrices overlap: batch stride 0) is computed in a contiguous temporary and copied in.
void bmm_on_device(const Tensor& out, const Tensor& batch1, const Tensor& batch2) {
  const auto readable = [](const Tensor& t) {
    const cpublas::Matrix m = cpublas::matrix_of(t.select(0, 0));
    return cpublas::blas_can_read(m) && t.stride(0) <= std::numeric_limits<int>::max();
  };
  if (!readable(out) || (out.size(0) > 1 && out.stride(0) == 0)) {
    Tensor tmp = at::empty(out.sizes(), out.options());
    bmm_on_device(tmp, batch1, batch2);
    out.copy_(tmp);
    return;
  }
  const Tensor a = readable(batch1) ? batch1 : batch1.contiguous();
  const Tensor b = readable(batch2) ? batch2 : batch2.contiguous();
  TORCH_CHECK(readable(a) && readable(b), "bmm: matrix sizes past 2^31 - 1 are not supported on ",
              out.device().type());
  const c10::DeviceGuard guard(out.device());
  gemm_batched_stub(out.device().type(), out.scalar_type(), cpublas::matrix_of(a.select(0, 0)),
                    cpublas::matrix_of(b.select(0, 0)), cpublas::matrix_of(out.select(0, 0)),
                    BatchStrides{out.size(0), a.stride(0), b.stride(0), out.stride(0)}, 1, 0);
}

void check_bmm(const Tensor& batch1, const Tensor& batch2) {
  TORCH_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor");
  TORCH_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor");
  const int64_t bs = batch1.size(0), contraction = batch1.size(2);
  TORCH_CHECK(batch2.size(0) == bs && batch2.size(1) == contraction,
              "Expected size for first two dimensions of batch2 tensor to be: [", bs, ", ",
              contraction, "] but got: [", batch2.size(0), ", ", batch2.size(1), "].");
}

void bmm_into(const Tensor& out, const Tensor& batch1, const Tensor& batch2) {
  check_scalar_type(batch1.scalar_type(), batch2);
  if (out.numel() == 0) return;
  if (batch1.size(2) == 0) {
    out.zero_();
    return;
  }
  const Tensor b1 = batch1, b2 = batch2;
  if (out.is_meta()) {  // one product asks about the dtype for all (see gemm_into)
    gemm_into(out.select(0, 0), b1.select(0, 0), b2.select(0, 0), 0, 1);
    return;
  }
  if (!out.device().is_cpu()) {
    bmm_on_device(out, b1, b2);
    return;
  }
  for (int64_t i = 0; i < out.size(0); ++i) {
    gemm_into(out.select(0, i), b1.select(0, i), b2.select(0, i), 0, 1);
  }
}

void check_dot(const Tensor& self, const Tensor& other) {
  TORCH_CHECK(self.dim() == 1 && other.dim() == 1, "1D tensors expected, but got ", self.dim(),
              "D and ", other.dim(), "D tensors");
  TORCH_CHECK(self.scalar_type() == other.scalar_type(),
              "dot : expected both vectors to have same dtype, but found ", self.scalar_type(),
              " and ", other.scalar_type());
  TORCH_CHECK(self.numel() == other.numel(), "inconsistent tensor size, expected tensor [",
              self.numel(), "] and src [", other.numel(),
              "] to have the same number of elements, but got ", self.numel(), " and ",
              other.numel(), " elements respectively");
  TORCH_CHECK(self.device() == other.device(),
              "expected all tensors to be on the same device. Found: ", self.device(), ", ",
              other.device());
  const ScalarType t = self.scalar_type();
  TORCH_CHECK(t != kHalf && t != kBool, "\"dot\" not implemented for '", t, "'");
}

// The dot product as a 1 x k by k x 1 product: a strided vector is a BLAS matrix as it is.
void dot_into(const Tensor& out, const Tensor& self, const Tensor& other) {
  if (self.numel() == 0) {
    out.zero_();
    return;
  }
  gemm_into(out.view({1, 1}), self.unsqueeze(0), other.unsqueeze(1), 0, 1);
}

void check_mv(const Tensor& result, const Tensor& self, const Tensor& vec) {
  TORCH_CHECK(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got ",
              result.dim(), ", ", self.dim(), ", ", vec.dim());
  TORCH_CHECK(self.size(1) == vec.size(0), "size mismatch, got ", result.size(0), ", ",
              self.size(0), "x", self.size(1), ",", vec.size(0));
  check_scalar_type(self.scalar_type(), vec);
}

void mv_into(const Tensor& out, const Tensor& self, const Tensor& vec) {
  if (out.numel() == 0) return;
  if (self.size(1) == 0) {
    out.zero_();
    return;
  }
  gemm_into(out.unsqueeze(1), self, vec.unsqueeze(1), 0, 1);
}

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) {
  check_same_device("mm", {{"self", self}, {"mat2", mat2}});
  check_mm(self, mat2);
  Tensor result = at::empty({self.size(0), mat2.size(1)}, self.options());
  mm_into(result, self, mat2);
  return result;
}

Tensor& mm_out(const Tensor& self, const Tensor& mat2, Tensor& out) {
  check_same_device("mm_out_out", {{"out", out}, {"self", self}, {"mat2", mat2}});
  check_mm(self, mat2);
  at::assert_no_internal_overlap(out);
  resize_out(out, {self.size(0), mat2.size(1)}, self, self.scalar_type());
  mm_into(out, self, mat2);
  return out;
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  check_same_device("addmm", {{"self", self}, {"mat1", mat1}, {"mat2", mat2}});
  check_addmm(self, mat1, mat2);
  Tensor result = at::empty({mat1.size(0), mat2.size(1)}, self.options());
  addmm_into(result, self, mat1, mat2, beta, alpha);
  return result;
}

Tensor& addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                  const Scalar& alpha, Tensor& out) {
  check_same_device("addmm_out_out",
                    {{"out", out}, {"self", self}, {"mat1", mat1}, {"mat2", mat2}});
  check_addmm(self, mat1, mat2);
  resize_out(out, {mat1.size(0), mat2.size(1)}, self, self.scalar_type());
  at::assert_no_internal_overlap(out);
  addmm_into(out, self, mat1, mat2, beta, alpha);
  return out;
}

Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
               const Scalar& alpha) {
  check_same_device("addmm_", {{"self", self}, {"mat1", mat1}, {"mat2", mat2}});
  check_addmm(self, mat1, mat2);
  const std::vector<int64_t> size = {mat1.size(0), mat2.size(1)};
  TORCH_CHECK(self.sizes().equals(size), "Bad in-place call: input tensor size ", self.sizes(),
              " and output tensor size ", c10::IntArrayRef(size), " should match");
  at::assert_no_internal_overlap(self);
  addmm_into(self, self, mat1, mat2, beta, alpha);
  return self;
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  check_same_device("bmm", {{"self", self}, {"mat2", mat2}});
  check_bmm(self, mat2);
  Tensor result = at::empty({self.size(0), self.size(1), mat2.size(2)}, self.options());
  bmm_into(result, self, mat2);
  return result;
}

Tensor& bmm_out(const Tensor& self, const Tensor& mat2, Tensor& out) {
  check_same_device("bmm_out_out", {{"out", out}, {"self", self}, {"mat2", mat2}});
  check_bmm(self, mat2);
  at::assert_no_internal_overlap(out);
  resize_out(out, {self.size(0), self.size(1), mat2.size(2)}, self, self.scalar_type());
  bmm_into(out, self, mat2);
  return out;
}

Tensor dot(const Tensor& self, const Tensor& tensor) {
  check_dot(self, tensor);
  Tensor result = at::empty({}, self.options());
  dot_into(result, self, tensor);
  return result;
}

Tensor& dot_out(const Tensor& self, const Tensor& tensor, Tensor& out) {
  check_same_device("out_dot_out", {{"out", out}, {"self", self}, {"tensor", tensor}});
  check_dot(self, tensor);
  resize_out(out, {}, self, self.scalar_type());
  dot_into(out, self, tensor);
  return out;
}

Tensor mv(const Tensor& self, const Tensor& vec) {
  check_same_device("mv", {{"self", self}, {"vec", vec}});
  Tensor result = at::empty({self.dim() == 2 ? self.size(0) : 0}, self.options());
  check_mv(result, self, vec);
  mv_into(result, self, vec);
  return result;
}

Tensor& mv_out(const Tensor& self, const Tensor& vec, Tensor& out) {
  check_same_device("out_mv_out", {{"out", out}, {"self", self}, {"vec", vec}});
  check_mv(out, self, vec);
  at::assert_no_internal_overlap(out);
  resize_out(out, {self.size(0)}, self, self.scalar_type());
  mv_into(out, self, vec);
  return out;
}

// libtorch 1.13's _matmul_impl: dot, mv, mm by rank; a batch times a matrix or vector folds the
// batch into the rows of one mm; anything else broadcasts the batch dims and runs bmm.
Tensor matmul(const Tensor& tensor1, const Tensor& tensor2) {
  const int64_t dim1 = tensor1.dim(), dim2 = tensor2.dim();
  TORCH_CHECK(dim1 != 0 && dim2 != 0,
              "both arguments to matmul need to be at least 1D, but they are ", dim1, "D and ",
              dim2, "D");
  if (dim1 == 1 && dim2 == 1) return tensor1.dot(tensor2);
  if (dim1 == 2 && dim2 == 1) return tensor1.mv(tensor2);
  if (dim1 == 1 && dim2 == 2) return tensor1.unsqueeze(0).mm(tensor2).squeeze(0);
  if (dim1 == 2 && dim2 == 2) return tensor1.mm(tensor2);
  if (dim1 >= 3 && (dim2 == 1 || dim2 == 2)) {
    const Tensor t2 = dim2 == 1 ? tensor2.unsqueeze(-1) : tensor2;
    const IntArrayRef size1 = tensor1.sizes();
    std::vector<int64_t> output_size(size1.begin(), size1.end() - 1);
    if (dim2 > 1) output_size.push_back(t2.size(-1));
    // The row count as a product, not -1: with k == 0 a -1 would be ambiguous.
    const Tensor t1 =
        tensor1.reshape({c10::multiply_integers(size1.begin(), size1.end() - 1), size1.back()});
    return at::_unsafe_view(t1.mm(t2), output_size);
  }
  // b1 x n x m1 times b2 x m2 x p, the batch dims broadcast.
  const int64_t n = dim1 > 1 ? tensor1.size(-2) : 1;
  const int64_t m1 = tensor1.size(-1);
  const IntArrayRef batch1(tensor1.sizes().data(), std::max<int64_t>(dim1 - 2, 0));
  const int64_t m2 = dim2 > 1 ? tensor2.size(-2) : tensor2.size(-1);
  const int64_t p = dim2 > 1 ? tensor2.size(-1) : 1;
  const IntArrayRef batch2(tensor2.sizes().data(), std::max<int64_t>(dim2 - 2, 0));
  const c10::DimVector batch = infer_size_dimvector(batch1, batch2);
  const int64_t batch_product = c10::multiply_integers(batch);

  std::vector<int64_t> expand1(batch.begin(), batch.end()), expand2(batch.begin(), batch.end());
  expand1.insert(expand1.end(), {n, m1});
  expand2.insert(expand2.end(), {m2, p});
  const Tensor t1 =
      (dim1 == 1 ? tensor1.unsqueeze(0) : tensor1).expand(expand1).reshape({batch_product, n, m1});
  const Tensor t2 =
      (dim2 == 1 ? tensor2.unsqueeze(-1) : tensor2).expand(expand2).reshape({batch_product, m2, p});
  std::vector<int64_t> output_shape(batch.begin(), batch.end());
  if (dim1 > 1) output_shape.push_back(n);
  if (dim2 > 1) output_shape.push_back(p);
  return at::_unsafe_view(at::bmm(t1, t2), output_shape);
}

// libtorch's linear: addmm when it can fuse the bias (2-D input, or contiguous 3-D input seen as
// 2-D), else matmul and an in-place add.
Tensor linear(const Tensor& input, const Tensor& weight, const c10::optional<Tensor>& bias_opt) {
  const bool has_bias = bias_opt.has_value() && bias_opt->defined();
  if (has_bias && input.dim() == 2) return at::addmm(*bias_opt, input, weight.t());
  if (has_bias && input.dim() == 3 && input.is_contiguous()) {
    const Tensor result = at::addmm(
        *bias_opt, input.view({input.size(0) * input.size(1), input.size(2)}), weight.t());
    return result.view({input.size(0), input.size(1), result.size(1)});
  }
  Tensor output = at::matmul(input, weight.t());
  if (has_bias) output.add_(*bias_opt);
  return output;
}

}  // namespace native
}  // namespace at
