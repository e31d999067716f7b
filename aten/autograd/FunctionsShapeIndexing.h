#pragma once
// The backward nodes of the shaping copies (repeat, flip, roll, tril/triu, diag,
// constant_pad_nd) and of gather, scatter, scatter_add, masked_select, index and index_put_, named
// as libtorch 1.13's. Formulas in FunctionsShapeIndexing.cpp (derivatives.yaml's), kernels in
// VariableTypeShapeIndexing.cpp. Split from Functions.h by concept; the conventions are its.

#include <vector>

#include "aten/autograd/Functions.h"
#include "dispatcher/List.h"

namespace torch {
namespace autograd {
namespace generated {

struct TORCH_API RepeatBackward0 final : public Node {
  MINIATEN_NODE(RepeatBackward0)
  std::vector<int64_t> self_sizes, repeats;
};
struct TORCH_API FlipBackward0 final : public Node {
  MINIATEN_NODE(FlipBackward0)
  std::vector<int64_t> dims;
};
struct TORCH_API RollBackward0 final : public Node {
  MINIATEN_NODE(RollBackward0)
  std::vector<int64_t> shifts, dims;
};
struct TORCH_API TrilBackward0 final : public Node {  // tril and tril_
  MINIATEN_NODE(TrilBackward0)
  int64_t diagonal = 0;
};
struct TORCH_API TriuBackward0 final : public Node {  // triu and triu_
  MINIATEN_NODE(TriuBackward0)
  int64_t diagonal = 0;
};
struct TORCH_API DiagBackward0 final : public Node {
  MINIATEN_NODE(DiagBackward0)
  std::vector<int64_t> self_sizes;
  int64_t diagonal = 0;
};
struct TORCH_API ConstantPadNdBackward0 final : public Node {
  MINIATEN_NODE(ConstantPadNdBackward0)
  std::vector<int64_t> pad;
};

// The nodes that keep the index tensor.
struct TORCH_API IndexedNode : public Node {
  int64_t dim = 0;
  SavedVariable index_;
  void release_variables() override { index_.reset_data(); }
};
struct TORCH_API GatherBackward0 final : public IndexedNode {
  MINIATEN_NODE(GatherBackward0)
  std::vector<int64_t> self_sizes;
};
struct TORCH_API ScatterBackward0 final : public IndexedNode {  // scatter.src: self, src
  MINIATEN_NODE(ScatterBackward0)
  std::vector<int64_t> src_sizes;
};
struct TORCH_API ScatterBackward1 final : public IndexedNode {  // scatter.value: self
  MINIATEN_NODE(ScatterBackward1)
};
struct TORCH_API ScatterAddBackward0 final : public IndexedNode {  // self, src
  MINIATEN_NODE(ScatterAddBackward0)
  std::vector<int64_t> src_sizes;
};

struct TORCH_API MaskedSelectBackward0 final : public Node {
  MINIATEN_NODE(MaskedSelectBackward0)
  std::vector<int64_t> self_sizes;
  SavedVariable mask_;
  void release_variables() override { mask_.reset_data(); }
};

// Advanced indexing: the index list as saved tensors (an undefined one where the list had
// None).
struct TORCH_API IndexListNode : public Node {
  std::vector<SavedVariable> indices_;
  c10::List<c10::optional<at::Tensor>> unpack_indices() const;
  void release_variables() override {
    for (SavedVariable& v : indices_) v.reset_data();
  }
};
struct TORCH_API IndexBackward0 final : public IndexListNode {  // index.Tensor
  MINIATEN_NODE(IndexBackward0)
  std::vector<int64_t> self_sizes;
  at::TensorOptions self_options;
};
struct TORCH_API IndexPutBackward0 final : public IndexListNode {  // index_put_: self, values
  MINIATEN_NODE(IndexPutBackward0)
  bool accumulate = false;
  SavedVariable values_;
  void release_variables() override {
    IndexListNode::release_variables();
    values_.reset_data();
  }
};

}  // namespace generated
}  // namespace autograd
}  // namespace torch
