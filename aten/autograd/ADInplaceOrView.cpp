// The ADInplaceOrView kernels of the view operators: below autograd, above the backend, they
// record each result as a view of its input (root base, creation mode); see Note [Views and
// in-place] in AutogradMeta.h. The view kernels themselves already share the base's version
// counter. In-place and out= ops get generated kernels here that bump the versions of what they
// write (RegisterADInplaceOrView.cpp; Note [Who bumps the version counter] in codegen/Emit.cpp).

#include "aten/ATen.h"
#include "aten/autograd/AutogradMeta.h"
#include "c10/core/AutoDispatchGuards.h"
#include "dispatcher/Library.h"

namespace torch {
namespace autograd {
namespace ADInplaceOrView {

namespace {

constexpr c10::DispatchKeySet kAfterADInplaceOrView = c10::after_ADInplaceOrView_keyset;

template <typename F>
at::Tensor as_view(const at::Tensor& base, F&& redispatch) {
  at::Tensor result = [&] {
    at::AutoDispatchBelowADInplaceOrView guard;
    return redispatch();
  }();
  if (!result.is_same(base)) impl::set_view_of(base, result);
  return result;
}

}  // namespace

at::Tensor as_strided(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef size,
                      at::IntArrayRef stride, c10::optional<int64_t> storage_offset) {
  return as_view(self, [&] {
    return at::_ops::as_strided::redispatch(ks & kAfterADInplaceOrView, self, size, stride,
                                            storage_offset);
  });
}

at::Tensor alias(c10::DispatchKeySet ks, const at::Tensor& self) {
  return as_view(self,
                 [&] { return at::_ops::alias::redispatch(ks & kAfterADInplaceOrView, self); });
}

at::Tensor view(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef size) {
  return as_view(
      self, [&] { return at::_ops::view::redispatch(ks & kAfterADInplaceOrView, self, size); });
}

at::Tensor _reshape_alias(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef size,
                          at::IntArrayRef stride) {
  return as_view(self, [&] {
    return at::_ops::_reshape_alias::redispatch(ks & kAfterADInplaceOrView, self, size, stride);
  });
}

at::Tensor expand(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef size,
                  bool implicit) {
  return as_view(self, [&] {
    return at::_ops::expand::redispatch(ks & kAfterADInplaceOrView, self, size, implicit);
  });
}

at::Tensor permute(c10::DispatchKeySet ks, const at::Tensor& self, at::IntArrayRef dims) {
  return as_view(
      self, [&] { return at::_ops::permute::redispatch(ks & kAfterADInplaceOrView, self, dims); });
}

at::Tensor transpose_int(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim0,
                         int64_t dim1) {
  return as_view(self, [&] {
    return at::_ops::transpose_int::redispatch(ks & kAfterADInplaceOrView, self, dim0, dim1);
  });
}

at::Tensor t(c10::DispatchKeySet ks, const at::Tensor& self) {
  return as_view(self, [&] { return at::_ops::t::redispatch(ks & kAfterADInplaceOrView, self); });
}

at::Tensor squeeze(c10::DispatchKeySet ks, const at::Tensor& self) {
  return as_view(self,
                 [&] { return at::_ops::squeeze::redispatch(ks & kAfterADInplaceOrView, self); });
}

at::Tensor squeeze_dim(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim) {
  return as_view(self, [&] {
    return at::_ops::squeeze_dim::redispatch(ks & kAfterADInplaceOrView, self, dim);
  });
}

at::Tensor unsqueeze(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim) {
  return as_view(
      self, [&] { return at::_ops::unsqueeze::redispatch(ks & kAfterADInplaceOrView, self, dim); });
}

at::Tensor slice_Tensor(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim,
                        c10::optional<int64_t> start, c10::optional<int64_t> end, int64_t step) {
  return as_view(self, [&] {
    return at::_ops::slice_Tensor::redispatch(ks & kAfterADInplaceOrView, self, dim, start, end,
                                              step);
  });
}

// split, split_with_sizes, unbind: every piece is a view of self, made as the output of one
// multi-output node (CreationMeta::MULTI_OUTPUT_NODE: libtorch forbids writing into them in
// place while they are tracked).
template <typename F>
std::vector<at::Tensor> as_multi_output_views(const at::Tensor& base, F&& redispatch) {
  std::vector<at::Tensor> pieces;
  {
    at::AutoDispatchBelowADInplaceOrView guard;
    pieces = redispatch();
  }
  for (const at::Tensor& piece : pieces) {
    impl::set_view_of(base, piece, CreationMeta::MULTI_OUTPUT_NODE);
  }
  return pieces;
}

std::vector<at::Tensor> split_Tensor(c10::DispatchKeySet ks, const at::Tensor& self,
                                     int64_t split_size, int64_t dim) {
  return as_multi_output_views(self, [&] {
    return at::_ops::split_Tensor::redispatch(ks & kAfterADInplaceOrView, self, split_size, dim);
  });
}

std::vector<at::Tensor> split_with_sizes(c10::DispatchKeySet ks, const at::Tensor& self,
                                         at::IntArrayRef split_sizes, int64_t dim) {
  return as_multi_output_views(self, [&] {
    return at::_ops::split_with_sizes::redispatch(ks & kAfterADInplaceOrView, self, split_sizes,
                                                  dim);
  });
}

std::vector<at::Tensor> unbind_int(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim) {
  return as_multi_output_views(self, [&] {
    return at::_ops::unbind_int::redispatch(ks & kAfterADInplaceOrView, self, dim);
  });
}

at::Tensor select_int(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dim, int64_t index) {
  return as_view(self, [&] {
    return at::_ops::select_int::redispatch(ks & kAfterADInplaceOrView, self, dim, index);
  });
}

at::Tensor diagonal(c10::DispatchKeySet ks, const at::Tensor& self, int64_t offset, int64_t dim1,
                    int64_t dim2) {
  return as_view(self, [&] {
    return at::_ops::diagonal::redispatch(ks & kAfterADInplaceOrView, self, offset, dim1, dim2);
  });
}

at::Tensor unfold(c10::DispatchKeySet ks, const at::Tensor& self, int64_t dimension, int64_t size,
                  int64_t step) {
  return as_view(self, [&] {
    return at::_ops::unfold::redispatch(ks & kAfterADInplaceOrView, self, dimension, size, step);
  });
}

}  // namespace ADInplaceOrView

TORCH_LIBRARY_IMPL(aten, ADInplaceOrView, m) {
  m.impl("as_strided", TORCH_FN(ADInplaceOrView::as_strided));
  m.impl("alias", TORCH_FN(ADInplaceOrView::alias));
  m.impl("view", TORCH_FN(ADInplaceOrView::view));
  m.impl("_reshape_alias", TORCH_FN(ADInplaceOrView::_reshape_alias));
  m.impl("expand", TORCH_FN(ADInplaceOrView::expand));
  m.impl("permute", TORCH_FN(ADInplaceOrView::permute));
  m.impl("transpose.int", TORCH_FN(ADInplaceOrView::transpose_int));
  m.impl("t", TORCH_FN(ADInplaceOrView::t));
  m.impl("squeeze", TORCH_FN(ADInplaceOrView::squeeze));
  m.impl("squeeze.dim", TORCH_FN(ADInplaceOrView::squeeze_dim));
  m.impl("unsqueeze", TORCH_FN(ADInplaceOrView::unsqueeze));
  m.impl("slice.Tensor", TORCH_FN(ADInplaceOrView::slice_Tensor));
  m.impl("select.int", TORCH_FN(ADInplaceOrView::select_int));
  m.impl("split.Tensor", TORCH_FN(ADInplaceOrView::split_Tensor));
  m.impl("split_with_sizes", TORCH_FN(ADInplaceOrView::split_with_sizes));
  m.impl("unbind.int", TORCH_FN(ADInplaceOrView::unbind_int));
  m.impl("diagonal", TORCH_FN(ADInplaceOrView::diagonal));
  m.impl("unfold", TORCH_FN(ADInplaceOrView::unfold));
}

}  // namespace autograd
}  // namespace torch
