#pragma once
// The backward nodes, one per differentiable operator overload, named as libtorch's generated
// ones are (torch/csrc/autograd/generated/Functions.h): CloneBackward0 is clone's, AddBackward0
// add.Tensor's, AddBackward1 add.Scalar's, and so on. Each holds what its formula needs (the
// saved tensors as SavedVariable, sizes and dims as plain values), set by the operator's
// autograd kernel (VariableType*.cpp). Formulas are in FunctionsMath.cpp and FunctionsViews.cpp.
//
//   auto y = x * w;                               // MulBackward0 saves x and w
//   y.grad_fn()->name();                          // "MulBackward0"
//
// A formula may return a gradient of a broadcast shape or another dtype: the engine reduces it
// to the input's shape and casts it (Note [Engine ordering] in Engine.h, validate_outputs).

#include <string>
#include <vector>

#include "aten/autograd/FunctionsManual.h"
#include "aten/autograd/Node.h"
#include "aten/autograd/SavedVariable.h"
#include "c10/core/Scalar.h"

namespace torch {
namespace autograd {
namespace generated {

// The members every node has: its name and its formula. Saved values follow in the class.
#define MINIATEN_NODE(Name)                            \
  std::string name() const override {                  \
    return #Name;                                      \
  }                                                    \
                                                       \
 protected:                                            \
  variable_list apply(variable_list&& grads) override; \
                                                       \
 public:

// ---- Copies ----------------------------------------------------------------------------------
struct TORCH_API CloneBackward0 final : public Node {
  MINIATEN_NODE(CloneBackward0)
};
struct TORCH_API ToCopyBackward0 final : public Node {
  MINIATEN_NODE(ToCopyBackward0)
  at::TensorOptions self_options;
};
struct TORCH_API AliasBackward0 final : public Node {
  MINIATEN_NODE(AliasBackward0)
};

// ---- Arithmetic (FunctionsMath.cpp) ----------------------------------------------------------
struct TORCH_API AddBackward0 final : public Node {  // add.Tensor
  MINIATEN_NODE(AddBackward0)
  c10::Scalar alpha;
};
struct TORCH_API AddBackward1 final : public Node {  // add.Scalar
  MINIATEN_NODE(AddBackward1)
};
struct TORCH_API SubBackward0 final : public Node {  // sub.Tensor
  MINIATEN_NODE(SubBackward0)
  c10::Scalar alpha;
};
struct TORCH_API SubBackward1 final : public Node {  // sub.Scalar
  MINIATEN_NODE(SubBackward1)
};
struct TORCH_API MulBackward0 final : public Node {  // mul.Tensor
  MINIATEN_NODE(MulBackward0)
  SavedVariable self_, other_;
  void release_variables() override {
    self_.reset_data();
    other_.reset_data();
  }
};
struct TORCH_API MulBackward1 final : public Node {  // mul.Scalar
  MINIATEN_NODE(MulBackward1)
  c10::Scalar other;
};
struct TORCH_API DivBackward0 final : public Node {  // div.Tensor
  MINIATEN_NODE(DivBackward0)
  SavedVariable self_, other_;
  void release_variables() override {
    self_.reset_data();
    other_.reset_data();
  }
};
struct TORCH_API DivBackward1 final : public Node {  // div.Scalar
  MINIATEN_NODE(DivBackward1)
  c10::Scalar other;
};
// div with rounding_mode: a rounded quotient is piecewise constant, so its gradient is
// grad * 0 (libtorch's formula: NaN where grad is not finite); without a mode, div's.
struct TORCH_API DivBackward2 final : public Node {  // div.Tensor_mode
  MINIATEN_NODE(DivBackward2)
  SavedVariable self_, other_;
  c10::optional<std::string> rounding_mode;
  void release_variables() override {
    self_.reset_data();
    other_.reset_data();
  }
};
struct TORCH_API DivBackward3 final : public Node {  // div.Scalar_mode
  MINIATEN_NODE(DivBackward3)
  c10::Scalar other;
  c10::optional<std::string> rounding_mode;
};
// The in-place comparisons (eq_ ...): the result is piecewise constant, so every gradient is
// zero; Backward0 is the Scalar overload, Backward1 the Tensor one (libtorch's names).
#define MINIATEN_COMPARISON_NODES(Op)                          \
  struct TORCH_API Op##Backward0 final : public Node {         \
    MINIATEN_NODE(Op##Backward0)                               \
    std::vector<int64_t> self_sizes;                           \
    at::TensorOptions self_options;                            \
  };                                                           \
  struct TORCH_API Op##Backward1 final : public Node {         \
    MINIATEN_NODE(Op##Backward1)                               \
    std::vector<int64_t> self_sizes, other_sizes;              \
    at::TensorOptions self_options, other_options;             \
  };
MINIATEN_COMPARISON_NODES(Eq)
MINIATEN_COMPARISON_NODES(Ne)
MINIATEN_COMPARISON_NODES(Lt)
MINIATEN_COMPARISON_NODES(Le)
MINIATEN_COMPARISON_NODES(Gt)
MINIATEN_COMPARISON_NODES(Ge)
#undef MINIATEN_COMPARISON_NODES
struct TORCH_API NegBackward0 final : public Node {
  MINIATEN_NODE(NegBackward0)
};
struct TORCH_API AbsBackward0 final : public Node {
  MINIATEN_NODE(AbsBackward0)
  SavedVariable self_;
  void release_variables() override { self_.reset_data(); }
};
struct TORCH_API ExpBackward0 final : public Node {
  MINIATEN_NODE(ExpBackward0)
  SavedVariable result_;
  void release_variables() override { result_.reset_data(); }
};
struct TORCH_API LogBackward0 final : public Node {
  MINIATEN_NODE(LogBackward0)
  SavedVariable self_;
  void release_variables() override { self_.reset_data(); }
};
struct TORCH_API SqrtBackward0 final : public Node {
  MINIATEN_NODE(SqrtBackward0)
  SavedVariable result_;
  void release_variables() override { result_.reset_data(); }
};
struct TORCH_API WhereBackward0 final : public Node {
  MINIATEN_NODE(WhereBackward0)
  SavedVariable condition_;
  void release_variables() override { condition_.reset_data(); }
};
struct TORCH_API FillBackward2 final : public Node {  // fill_.Scalar
  MINIATEN_NODE(FillBackward2)
};
struct TORCH_API FillBackward3 final : public Node {  // fill_.Tensor
  MINIATEN_NODE(FillBackward3)
};
struct TORCH_API ZeroBackward0 final : public Node {
  MINIATEN_NODE(ZeroBackward0)
};
struct TORCH_API NormalBackward0 final : public Node {  // normal_
  MINIATEN_NODE(NormalBackward0)
};
struct TORCH_API UniformBackward0 final : public Node {  // uniform_
  MINIATEN_NODE(UniformBackward0)
};
// bernoulli (self: the probabilities), bernoulli_.Tensor (self, p), bernoulli_.float,
// random_.from, random_.to: every gradient is zero (derivatives.yaml: zeros_like).
struct TORCH_API BernoulliBackward0 final : public Node {
  MINIATEN_NODE(BernoulliBackward0)
};
struct TORCH_API BernoulliBackward1 final : public Node {
  MINIATEN_NODE(BernoulliBackward1)
};
struct TORCH_API BernoulliBackward2 final : public Node {
  MINIATEN_NODE(BernoulliBackward2)
};
struct TORCH_API RandomBackward0 final : public Node {
  MINIATEN_NODE(RandomBackward0)
};
struct TORCH_API RandomBackward1 final : public Node {
  MINIATEN_NODE(RandomBackward1)
};

// ---- Reductions ------------------------------------------------------------------------------
struct TORCH_API SumBackward0 final : public Node {  // sum
  MINIATEN_NODE(SumBackward0)
  std::vector<int64_t> self_sizes;
};
struct TORCH_API SumBackward1 final : public Node {  // sum.dim_IntList
  MINIATEN_NODE(SumBackward1)
  std::vector<int64_t> self_sizes;
  std::vector<int64_t> dim;
  bool keepdim = false;
};
struct TORCH_API MeanBackward0 final : public Node {  // mean
  MINIATEN_NODE(MeanBackward0)
  std::vector<int64_t> self_sizes;
  int64_t self_numel = 0;
};
struct TORCH_API MeanBackward1 final : public Node {  // mean.dim
  MINIATEN_NODE(MeanBackward1)
  std::vector<int64_t> self_sizes;
  std::vector<int64_t> dim;
  bool keepdim = false;
};
struct TORCH_API CumsumBackward0 final : public Node {
  MINIATEN_NODE(CumsumBackward0)
  int64_t dim = 0;
};

// ---- Folds and statistics (FunctionsReductions.cpp) -------------------------------------------
// A node that saves its input and its result, and the reduction's dims (empty: every dim).
#define MINIATEN_REDUCTION_NODE(Name, ...)    \
  struct TORCH_API Name final : public Node { \
    MINIATEN_NODE(Name)                       \
    SavedVariable self_, result_;             \
    std::vector<int64_t> dim;                 \
    bool keepdim = false;                     \
    __VA_ARGS__                               \
    void release_variables() override {       \
      self_.reset_data();                     \
      result_.reset_data();                   \
    }                                         \
  };
MINIATEN_REDUCTION_NODE(MaxBackward1)   // max(): the result shared among the equal maxima
MINIATEN_REDUCTION_NODE(MinBackward1)   // min()
MINIATEN_REDUCTION_NODE(AmaxBackward0)  // amax
MINIATEN_REDUCTION_NODE(AminBackward0)  // amin
MINIATEN_REDUCTION_NODE(ProdBackward0)  // prod()
MINIATEN_REDUCTION_NODE(ProdBackward1)  // prod.dim_int
MINIATEN_REDUCTION_NODE(VarBackward0, int64_t correction = 1;)  // var.correction
MINIATEN_REDUCTION_NODE(StdBackward0, int64_t correction = 1;)  // std.correction
MINIATEN_REDUCTION_NODE(LogsumexpBackward0)
MINIATEN_REDUCTION_NODE(NormBackward0, c10::Scalar p;)                 // norm.Scalar
MINIATEN_REDUCTION_NODE(NormBackward1, c10::optional<c10::Scalar> p;)  // norm.ScalarOpt_dim
#undef MINIATEN_REDUCTION_NODE
// max.dim / min.dim: the gradient goes to the selected index.
struct TORCH_API MaxBackward0 final : public Node {
  MINIATEN_NODE(MaxBackward0)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0;
  bool keepdim = false;
  SavedVariable indices_;
  void release_variables() override { indices_.reset_data(); }
};
struct TORCH_API MinBackward0 final : public Node {
  MINIATEN_NODE(MinBackward0)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0;
  bool keepdim = false;
  SavedVariable indices_;
  void release_variables() override { indices_.reset_data(); }
};

// ---- Pointwise ops of three tensors (FunctionsReductions.cpp) ---------------------------------
struct TORCH_API LerpBackward0 final : public Node {  // lerp.Scalar
  MINIATEN_NODE(LerpBackward0)
  c10::Scalar weight;
};
struct TORCH_API LerpBackward1 final : public Node {  // lerp.Tensor
  MINIATEN_NODE(LerpBackward1)
  SavedVariable self_, end_, weight_;
  void release_variables() override {
    self_.reset_data();
    end_.reset_data();
    weight_.reset_data();
  }
};
#define MINIATEN_ADDC_NODE(Name)              \
  struct TORCH_API Name final : public Node { \
    MINIATEN_NODE(Name)                       \
    SavedVariable tensor1_, tensor2_;         \
    c10::Scalar value;                        \
    void release_variables() override {       \
      tensor1_.reset_data();                  \
      tensor2_.reset_data();                  \
    }                                         \
  };
MINIATEN_ADDC_NODE(AddcmulBackward0)
MINIATEN_ADDC_NODE(AddcdivBackward0)
#undef MINIATEN_ADDC_NODE

// ---- Matrix products, activations, softmax, losses (FunctionsNN.cpp) ---------------------------
struct TORCH_API MmBackward0 final : public Node {
  MINIATEN_NODE(MmBackward0)
  SavedVariable self_, mat2_;
  void release_variables() override {
    self_.reset_data();
    mat2_.reset_data();
  }
};
struct TORCH_API AddmmBackward0 final : public Node {
  MINIATEN_NODE(AddmmBackward0)
  SavedVariable mat1_, mat2_;
  c10::Scalar alpha, beta;
  void release_variables() override {
    mat1_.reset_data();
    mat2_.reset_data();
  }
};
struct TORCH_API BmmBackward0 final : public Node {
  MINIATEN_NODE(BmmBackward0)
  SavedVariable self_, mat2_;
  void release_variables() override {
    self_.reset_data();
    mat2_.reset_data();
  }
};
struct TORCH_API DotBackward0 final : public Node {
  MINIATEN_NODE(DotBackward0)
  SavedVariable self_, tensor_;
  void release_variables() override {
    self_.reset_data();
    tensor_.reset_data();
  }
};
struct TORCH_API MvBackward0 final : public Node {
  MINIATEN_NODE(MvBackward0)
  SavedVariable self_, vec_;
  void release_variables() override {
    self_.reset_data();
    vec_.reset_data();
  }
};
struct TORCH_API ReluBackward0 final : public Node {  // relu and relu_
  MINIATEN_NODE(ReluBackward0)
  SavedVariable result_;
  void release_variables() override { result_.reset_data(); }
};
struct TORCH_API ThresholdBackwardBackward0 final : public Node {  // grad_output, self
  MINIATEN_NODE(ThresholdBackwardBackward0)
  SavedVariable self_;
  c10::Scalar threshold;
  void release_variables() override { self_.reset_data(); }
};
struct TORCH_API SoftmaxBackward0 final : public Node {  // _softmax
  MINIATEN_NODE(SoftmaxBackward0)
  SavedVariable result_;
  int64_t dim = 0;
  at::ScalarType self_scalar_type = at::kFloat;
  void release_variables() override { result_.reset_data(); }
};
struct TORCH_API LogSoftmaxBackward0 final : public Node {  // _log_softmax
  MINIATEN_NODE(LogSoftmaxBackward0)
  SavedVariable result_;
  int64_t dim = 0;
  at::ScalarType self_scalar_type = at::kFloat;
  void release_variables() override { result_.reset_data(); }
};
struct TORCH_API NllLossBackward0 final : public Node {  // nll_loss_forward
  MINIATEN_NODE(NllLossBackward0)
  SavedVariable self_, target_, weight_, total_weight_;
  int64_t reduction = 1, ignore_index = -100;
  void release_variables() override {
    self_.reset_data();
    target_.reset_data();
    weight_.reset_data();
    total_weight_.reset_data();
  }
};
struct TORCH_API BinaryCrossEntropyBackward0 final : public Node {  // self, target
  MINIATEN_NODE(BinaryCrossEntropyBackward0)
  SavedVariable self_, target_, weight_;
  int64_t reduction = 1;
  void release_variables() override {
    self_.reset_data();
    target_.reset_data();
    weight_.reset_data();
  }
};
struct TORCH_API EmbeddingBackward0 final : public Node {  // weight
  MINIATEN_NODE(EmbeddingBackward0)
  SavedVariable indices_;
  int64_t weight_size0 = 0, padding_idx = -1;
  bool scale_grad_by_freq = false;
  void release_variables() override { indices_.reset_data(); }
};
struct TORCH_API NativeLayerNormBackward0 final : public Node {  // input, weight, bias
  MINIATEN_NODE(NativeLayerNormBackward0)
  SavedVariable input_, weight_, bias_, result1_, result2_;  // result1/2: mean, rstd
  std::vector<int64_t> normalized_shape;
  void release_variables() override {
    input_.reset_data();
    weight_.reset_data();
    bias_.reset_data();
    result1_.reset_data();
    result2_.reset_data();
  }
};
struct TORCH_API MseLossBackward0 final : public Node {
  MINIATEN_NODE(MseLossBackward0)
  SavedVariable self_, target_;
  int64_t reduction = 1;
  void release_variables() override {
    self_.reset_data();
    target_.reset_data();
  }
};

// ---- The math functions (FunctionsUnaryMath.cpp) ------------------------------------------------
// One saved tensor: self's value (the formula reads the input) or the result (it reads the
// output, as exp's does); the rounding functions save nothing (their gradient is zero).
#define MINIATEN_SELF_NODE(Name)                              \
  struct TORCH_API Name final : public Node {                 \
    MINIATEN_NODE(Name)                                       \
    SavedVariable self_;                                      \
    void release_variables() override { self_.reset_data(); } \
  };
#define MINIATEN_RESULT_NODE(Name)                              \
  struct TORCH_API Name final : public Node {                   \
    MINIATEN_NODE(Name)                                         \
    SavedVariable result_;                                      \
    void release_variables() override { result_.reset_data(); } \
  };
#define MINIATEN_ZERO_NODE(Name)              \
  struct TORCH_API Name final : public Node { \
    MINIATEN_NODE(Name)                       \
  };
MINIATEN_SELF_NODE(Log2Backward0)
MINIATEN_SELF_NODE(Log10Backward0)
MINIATEN_SELF_NODE(Log1PBackward0)
MINIATEN_SELF_NODE(SinBackward0)
MINIATEN_SELF_NODE(CosBackward0)
MINIATEN_SELF_NODE(AsinBackward0)
MINIATEN_SELF_NODE(AcosBackward0)
MINIATEN_SELF_NODE(AtanBackward0)
MINIATEN_SELF_NODE(SinhBackward0)
MINIATEN_SELF_NODE(CoshBackward0)
MINIATEN_SELF_NODE(ErfBackward0)
MINIATEN_SELF_NODE(ErfcBackward0)
MINIATEN_SELF_NODE(SiluBackward0)
MINIATEN_RESULT_NODE(Expm1Backward0)
MINIATEN_RESULT_NODE(Exp2Backward0)
MINIATEN_RESULT_NODE(TanBackward0)
MINIATEN_RESULT_NODE(TanhBackward0)
MINIATEN_RESULT_NODE(RsqrtBackward0)
MINIATEN_RESULT_NODE(ReciprocalBackward0)
MINIATEN_RESULT_NODE(SigmoidBackward0)
MINIATEN_ZERO_NODE(FloorBackward0)
MINIATEN_ZERO_NODE(CeilBackward0)
MINIATEN_ZERO_NODE(TruncBackward0)
MINIATEN_ZERO_NODE(RoundBackward0)
MINIATEN_ZERO_NODE(SignBackward0)
#undef MINIATEN_SELF_NODE
#undef MINIATEN_RESULT_NODE
#undef MINIATEN_ZERO_NODE
struct TORCH_API GeluBackward0 final : public Node {
  MINIATEN_NODE(GeluBackward0)
  SavedVariable self_;
  std::string approximate;
  void release_variables() override { self_.reset_data(); }
};
struct TORCH_API ClampBackward1 final : public Node {  // clamp(Scalar? min, Scalar? max)
  MINIATEN_NODE(ClampBackward1)
  SavedVariable self_;
  c10::optional<c10::Scalar> min, max;
  void release_variables() override { self_.reset_data(); }
};
struct TORCH_API ClampMinBackward0 final : public Node {  // clamp_min(Scalar)
  MINIATEN_NODE(ClampMinBackward0)
  SavedVariable self_;
  c10::Scalar min;
  void release_variables() override { self_.reset_data(); }
};
struct TORCH_API ClampMaxBackward0 final : public Node {  // clamp_max(Scalar)
  MINIATEN_NODE(ClampMaxBackward0)
  SavedVariable self_;
  c10::Scalar max;
  void release_variables() override { self_.reset_data(); }
};
struct TORCH_API PowBackward0 final : public Node {  // pow.Tensor_Scalar
  MINIATEN_NODE(PowBackward0)
  SavedVariable self_;
  c10::Scalar exponent;
  void release_variables() override { self_.reset_data(); }
};
struct TORCH_API RemainderBackward0 final : public Node {  // remainder.Scalar: grad passes
  MINIATEN_NODE(RemainderBackward0)
};
// The binary math functions: both inputs saved (pow.Tensor_Tensor and hypot also the result).
#define MINIATEN_BINARY_NODE(Name)            \
  struct TORCH_API Name final : public Node { \
    MINIATEN_NODE(Name)                       \
    SavedVariable self_, other_, result_;     \
    void release_variables() override {       \
      self_.reset_data();                     \
      other_.reset_data();                    \
      result_.reset_data();                   \
    }                                         \
  };
MINIATEN_BINARY_NODE(PowBackward1)  // pow.Tensor_Tensor (other_ is the exponent)
MINIATEN_BINARY_NODE(Atan2Backward0)
MINIATEN_BINARY_NODE(HypotBackward0)
MINIATEN_BINARY_NODE(FmodBackward1)  // fmod.Tensor
MINIATEN_BINARY_NODE(RemainderBackward1)  // remainder.Tensor
MINIATEN_BINARY_NODE(MaximumBackward0)
MINIATEN_BINARY_NODE(MinimumBackward0)
#undef MINIATEN_BINARY_NODE

// ---- Joining and indexing (FunctionsIndexing.cpp) ---------------------------------------------
struct TORCH_API CatBackward0 final : public Node {  // one edge per input tensor
  MINIATEN_NODE(CatBackward0)
  std::vector<std::vector<int64_t>> tensors_args_sizes;
  int64_t dim = 0;
};
struct TORCH_API StackBackward0 final : public Node {
  MINIATEN_NODE(StackBackward0)
  int64_t dim = 0;
};
struct TORCH_API IndexSelectBackward0 final : public Node {
  MINIATEN_NODE(IndexSelectBackward0)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0;
  SavedVariable index_;
  void release_variables() override { index_.reset_data(); }
};
struct TORCH_API IndexAddBackward0 final : public Node {  // edges: self, source
  MINIATEN_NODE(IndexAddBackward0)
  int64_t dim = 0, source_dim = 0;
  c10::Scalar alpha;
  SavedVariable index_;
  void release_variables() override { index_.reset_data(); }
};
struct TORCH_API MaskedFillBackward0 final : public Node {  // masked_fill.Scalar
  MINIATEN_NODE(MaskedFillBackward0)
  SavedVariable mask_;
  void release_variables() override { mask_.reset_data(); }
};
struct TORCH_API MaskedFillBackward1 final : public Node {  // masked_fill.Tensor: self, value
  MINIATEN_NODE(MaskedFillBackward1)
  SavedVariable mask_;
  void release_variables() override { mask_.reset_data(); }
};

// ---- Views (FunctionsViews.cpp) --------------------------------------------------------------
struct TORCH_API AsStridedBackward0 final : public Node {
  MINIATEN_NODE(AsStridedBackward0)
  TensorGeometry self_geometry;
  std::vector<int64_t> size, stride;
  int64_t storage_offset = 0;
};
struct TORCH_API ViewBackward0 final : public Node {
  MINIATEN_NODE(ViewBackward0)
  std::vector<int64_t> self_sizes;
};
struct TORCH_API ReshapeAliasBackward0 final : public Node {
  MINIATEN_NODE(ReshapeAliasBackward0)
  std::vector<int64_t> self_sizes;
};
struct TORCH_API UnsafeViewBackward0 final : public Node {
  MINIATEN_NODE(UnsafeViewBackward0)
  std::vector<int64_t> self_sizes;
};
struct TORCH_API ExpandBackward0 final : public Node {
  MINIATEN_NODE(ExpandBackward0)
  std::vector<int64_t> self_sizes;
};
struct TORCH_API PermuteBackward0 final : public Node {
  MINIATEN_NODE(PermuteBackward0)
  std::vector<int64_t> dims;
};
struct TORCH_API TransposeBackward0 final : public Node {
  MINIATEN_NODE(TransposeBackward0)
  int64_t dim0 = 0, dim1 = 0;
};
struct TORCH_API TBackward0 final : public Node {
  MINIATEN_NODE(TBackward0)
};
struct TORCH_API SqueezeBackward0 final : public Node {  // squeeze
  MINIATEN_NODE(SqueezeBackward0)
  std::vector<int64_t> self_sizes;
};
struct TORCH_API SqueezeBackward1 final : public Node {  // squeeze.dim
  MINIATEN_NODE(SqueezeBackward1)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0;
};
struct TORCH_API UnsqueezeBackward0 final : public Node {
  MINIATEN_NODE(UnsqueezeBackward0)
  int64_t dim = 0;
};
// The in-place views (transpose_, t_, squeeze_, unsqueeze_, as_strided_): libtorch's names, the
// formulas of their out-of-place views.
struct TORCH_API TransposeBackward1 final : public Node {
  MINIATEN_NODE(TransposeBackward1)
  int64_t dim0 = 0, dim1 = 0;
};
struct TORCH_API TBackward1 final : public Node {
  MINIATEN_NODE(TBackward1)
};
struct TORCH_API SqueezeBackward2 final : public Node {  // squeeze_
  MINIATEN_NODE(SqueezeBackward2)
  std::vector<int64_t> self_sizes;
};
struct TORCH_API SqueezeBackward3 final : public Node {  // squeeze_.dim
  MINIATEN_NODE(SqueezeBackward3)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0;
};
struct TORCH_API UnsqueezeBackward1 final : public Node {
  MINIATEN_NODE(UnsqueezeBackward1)
  int64_t dim = 0;
};
struct TORCH_API AsStridedBackward1 final : public Node {
  MINIATEN_NODE(AsStridedBackward1)
  TensorGeometry self_geometry;
  std::vector<int64_t> size, stride;
  int64_t storage_offset = 0;
};
struct TORCH_API SliceBackward0 final : public Node {
  MINIATEN_NODE(SliceBackward0)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0;
  c10::optional<int64_t> start, end;
  int64_t step = 1;
};
// The multi-output views: one node for all the pieces (output i is piece i). A piece whose
// gradient never arrives contributes zeros.
struct TORCH_API SplitBackward0 final : public Node {
  MINIATEN_NODE(SplitBackward0)
  std::vector<int64_t> self_sizes;
  int64_t split_size = 0, dim = 0;
  at::TensorOptions self_options;
};
struct TORCH_API SplitWithSizesBackward0 final : public Node {
  MINIATEN_NODE(SplitWithSizesBackward0)
  std::vector<int64_t> self_sizes, split_sizes;
  int64_t dim = 0;
  at::TensorOptions self_options;
};
struct TORCH_API UnbindBackward0 final : public Node {
  MINIATEN_NODE(UnbindBackward0)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0;
  at::TensorOptions self_options;
};
struct TORCH_API SelectBackward0 final : public Node {
  MINIATEN_NODE(SelectBackward0)
  std::vector<int64_t> self_sizes;
  int64_t dim = 0, index = 0;
};
struct TORCH_API DiagonalBackward0 final : public Node {
  MINIATEN_NODE(DiagonalBackward0)
  std::vector<int64_t> self_sizes;
  int64_t offset = 0, dim1 = 0, dim2 = 1;
};
struct TORCH_API UnfoldBackward0 final : public Node {
  MINIATEN_NODE(UnfoldBackward0)
  std::vector<int64_t> self_sizes;
  int64_t dimension = 0, size = 0, step = 0;
};

// MINIATEN_NODE stays defined: the node headers split from this one by concept
// (FunctionsShapeIndexing.h) declare their nodes with it too.

}  // namespace generated

// copy_'s node keeps libtorch's hand-written name.
struct TORCH_API CopyBackwards final : public Node {
  std::string name() const override { return "torch::autograd::CopyBackwards"; }
  at::TensorOptions src_options;

 protected:
  variable_list apply(variable_list&& grads) override;
};

using namespace generated;  // torch::autograd::CloneBackward0, as libtorch's users write it

}  // namespace autograd
}  // namespace torch
