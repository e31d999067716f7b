#pragma once
// SavedVariable: a tensor a node keeps for its backward formula (MulBackward0 keeps both
// factors), with the version it had when saved. Unpacking checks that nothing wrote to it in
// place since, and that the graph was not already freed by an earlier backward.
//
//   struct MulBackward0 : Node {
//     SavedVariable self_, other_;   // set by the mul kernel: self_ = SavedVariable(self, false)
//     variable_list apply(variable_list&& grads) override {
//       at::Tensor other = other_.unpack(shared_from_this());   // may throw, see below
//       ...
//     }
//     void release_variables() override { self_.reset_data(); other_.reset_data(); }
//   };
//
// Errors, in libtorch's words: "one of the variables needed for gradient computation has been
// modified by an inplace operation: [CPUFloatType [2, 3]], which is output 0 of MulBackward1,
// is at version 1; expected version 0 instead. Hint: ...", and "Trying to backward through the
// graph a second time ...".

#include <memory>

#include "aten/autograd/Node.h"

namespace torch {
namespace autograd {

class TORCH_API SavedVariable {
 public:
  SavedVariable() = default;
  // is_output: the tensor is an output of the node that saves it. Holding it (and so its
  // grad_fn, that node) would make a cycle, so only its data is kept.
  SavedVariable(const at::Tensor& variable, bool is_output);
  SavedVariable(SavedVariable&&) = default;
  SavedVariable& operator=(SavedVariable&&) = default;

  // The saved tensor, after the version and freed checks: without autograd history, or with it
  // when grad mode is on (a create_graph pass: Note [Saved variables under create_graph] in
  // SavedVariable.cpp). An undefined tensor saved stays undefined.
  at::Tensor unpack() const;

  // Frees the tensor (after a backward without retain_graph).
  void reset_data();

 private:
  at::Tensor data_;
  // For the error message, the history it had when saved (outputs) or the tensor itself (others:
  // libtorch names its grad_fn at the time of the error, after the in-place op that bumped it).
  std::weak_ptr<Node> grad_fn_;
  at::Tensor original_;
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
  bool was_defined_ = false;
  bool data_freed_ = false;
};

// libtorch's ERR_BACKWARD_TWICE.
TORCH_API extern const char* const ERR_BACKWARD_TWICE;

}  // namespace autograd
}  // namespace torch
