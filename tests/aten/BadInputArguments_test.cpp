// Outputs that overlap themselves or their inputs, and other bad arguments, each with
// libtorch 1.13's error.
// Part of the bad-input inventory: see tests/aten/BadInput.h.

#include <gtest/gtest.h>

#include <string>
#include <vector>
#include "dispatcher/Dispatcher.h"

#include "aten/ATen.h"
#include "tests/aten/BadInput.h"

namespace {

using namespace bad_input;

// Outputs that overlap themselves (expanded, zero strides) or their inputs.
std::vector<ErrorCase> overlap_cases() {
  using K = Kind;
  return {
      {"overlap_add_inplace_expanded", [] { expanded().add_(1); }, K::Error, kInternalOverlap},
      {"overlap_add_inplace_expanded_tensor", [] { expanded().add_(f4()); }, K::Error,
       kInternalOverlap},
      {"overlap_mul_inplace_expanded", [] { expanded().mul_(f4()); }, K::Error, kInternalOverlap},
      {"overlap_div_inplace_expanded", [] { expanded().div_(2); }, K::Error, kInternalOverlap},
      {"overlap_neg_inplace_expanded", [] { expanded().neg_(); }, K::Error, kInternalOverlap},
      {"overlap_exp_inplace_expanded", [] { expanded().exp_(); }, K::Error, kInternalOverlap},
      {"overlap_eq_inplace_expanded", [] { expanded().eq_(f4()); }, K::Error, kInternalOverlap},
      {"overlap_bitwise_and_inplace_expanded",
       [] { at::zeros({1}, at::kLong).expand({4}).bitwise_and_(l4()); }, K::Error,
       kInternalOverlap},
      {"overlap_uniform_expanded", [] { expanded().uniform_(); }, K::Error, kInternalOverlap},
      {"overlap_copy_into_expanded", [] { expanded().copy_(f4()); }, K::Error, kInternalOverlap},
      {"overlap_add_out_expanded",
       [] {
         auto o = expanded();
         at::add_out(o, f4(), f4());
       },
       K::Error, kInternalOverlap},
      {"overlap_neg_out_expanded",
       [] {
         auto o = expanded();
         at::neg_out(o, f4());
       },
       K::Error, kInternalOverlap},
      {"overlap_copy_partial_view",
       [] {
         auto a = at::arange(8, at::kFloat);
         a.narrow(0, 1, 4).copy_(a.narrow(0, 0, 4));
       },
       K::Error, kPartialOverlap},
      {"overlap_copy_transposed_self",
       [] {
         auto a = at::arange(4, at::kFloat).view({2, 2});
         a.copy_(a.t());
       },
       K::Error, kPartialOverlap},
      {"overlap_add_out_partial",
       [] {
         auto a = at::arange(8, at::kFloat);
         auto o = a.narrow(0, 1, 4);
         at::add_out(o, a.narrow(0, 0, 4), f4());
       },
       K::Error, kPartialOverlap},
      {"overlap_add_inplace_partial_other",
       [] {
         auto a = at::arange(8, at::kFloat);
         a.narrow(0, 1, 4).add_(a.narrow(0, 0, 4));
       },
       K::Error, kPartialOverlap},
      {"overlap_neg_out_partial",
       [] {
         auto a = at::arange(8, at::kFloat);
         auto o = a.narrow(0, 0, 4);
         at::neg_out(o, a.narrow(0, 2, 4));
       },
       K::Error, kPartialOverlap},
      {"overlap_where_out_partial",
       [] {
         auto a = at::arange(8, at::kFloat);
         auto o = a.narrow(0, 0, 4);
         at::where_out(o, at::ones({4}, at::kBool), a.narrow(0, 1, 4), f4());
       },
       K::Error, kPartialOverlap},
      {"overlap_eq_out_partial",
       [] {
         auto a = at::zeros({8}, at::kBool);
         auto o = a.narrow(0, 0, 4);
         at::eq_out(o, a.narrow(0, 1, 4), a.narrow(0, 1, 4));
       },
       K::Error, kPartialOverlap},
      {"overlap_cumsum_out_partial",
       [] {
         auto a = at::arange(8, at::kFloat);
         auto o = a.narrow(0, 1, 4);
         at::cumsum_out(o, a.narrow(0, 0, 4), 0);
       },
       K::Error, kPartialOverlap},
  };
}

// Other bad arguments: memory formats, ranges of random ops, broadcasting, complex views, autograd
// misuse, device strings, schema lookups.
std::vector<ErrorCase> argument_cases() {
  using K = Kind;
  return {
      {"arg_item_many", [] { f23().item(); }, K::Error,
       "a Tensor with 6 elements cannot be converted to Scalar"},
      {"arg_item_empty", [] { at::empty({0}).item(); }, K::Error,
       "a Tensor with 0 elements cannot be converted to Scalar"},
      {"arg_contiguous_preserve_transposed",
       [] { f23().t().contiguous(at::MemoryFormat::Preserve); }, K::Error,
       "preserve memory format is unsupported by the contiguous operator"},
      {"arg_contiguous_channels_last_2d", [] { f23().contiguous(at::MemoryFormat::ChannelsLast); },
       K::Error, "required rank 4 tensor to use channels_last format"},
      {"arg_empty_channels_last_3d",
       [] {
         at::empty({2, 3, 4}, at::TensorOptions().memory_format(at::MemoryFormat::ChannelsLast3d));
       },
       K::Error, "required rank 5 tensor to use channels_last_3d format"},
      {"arg_empty_like_channels_last",
       [] { at::empty_like(f23(), at::TensorOptions(), at::MemoryFormat::ChannelsLast); }, K::Error,
       "required rank 4 tensor to use channels_last format"},
      {"arg_empty_memory_format_twice",
       [] {
         at::empty({2, 3, 4, 5}, at::TensorOptions().memory_format(at::MemoryFormat::ChannelsLast),
                   at::MemoryFormat::Contiguous);
       },
       K::Error,
       "Cannot set memory_format both in TensorOptions and explicit argument; please delete the "
       "redundant setter."},
      {"arg_empty_strided_rank",
       [] {
         at::empty_strided({2, 3}, {1});
       },
       K::Error, "dimensionality of sizes (2) must match dimensionality of strides (1)"},
      {"arg_clone_channels_last_rank", [] { f23().clone(at::MemoryFormat::ChannelsLast); },
       K::Error, "required rank 4 tensor to use channels_last format"},
      {"arg_to_channels_last_rank",
       [] { f23().to(at::kFloat, false, false, at::MemoryFormat::ChannelsLast); }, K::Error,
       "required rank 4 tensor to use channels_last format"},
      {"arg_uniform_from_gt_to", [] { f23().uniform_(1, 0); }, K::Error,
       "uniform_ expects to return a [from, to) range, but found from=1 > to=0"},
      {"arg_uniform_inf", [] { f23().uniform_(0, std::numeric_limits<double>::infinity()); },
       K::Error, "to is out of bounds for float"},
      {"arg_normal_negative_std", [] { f23().normal_(0, -1); }, K::Error,
       "normal expects std >= 0.0, but found std -1"},
      {"arg_isclose_negative_rtol", [] { at::isclose(f23(), f23(), -1); }, K::Error,
       "rtol must be greater than or equal to zero, but got -1"},
      {"arg_isclose_negative_atol", [] { at::isclose(f23(), f23(), 1e-5, -1); }, K::Error,
       "atol must be greater than or equal to zero, but got -1"},
      {"arg_broadcast_add", [] { at::add(f23(), at::zeros({4})); }, K::Error,
       "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"},
      {"arg_broadcast_add_inplace", [] { f4().add_(f23()); }, K::Error,
       "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1"},
      {"arg_broadcast_inplace_self_smaller", [] { at::zeros({3}).mul_(f23()); }, K::Error,
       "output with shape [3] doesn't match the broadcast shape [2, 3]"},
      {"arg_broadcast_where", [] { at::where(at::ones({5}, at::kBool), f23(), f23()); }, K::Error,
       "The size of tensor a (5) must match the size of tensor b (3) at non-singleton dimension 1"},
      {"arg_copy_broadcast", [] { f23().copy_(at::zeros({4})); }, K::Error,
       "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"},
      {"arg_view_as_complex_last_stride",
       [] {
         at::view_as_complex(at::zeros({2, 2}).t());
       },
       K::Error, "Tensor must have a last dimension with stride 1"},
      {"arg_view_as_complex_odd_stride",
       [] {
         at::view_as_complex(at::zeros({6}).as_strided({2, 2}, {3, 1}));
       },
       K::Error, "Tensor must have a stride divisible by 2 for all but last dimension"},
      {"arg_view_as_complex_odd_offset",
       [] {
         at::view_as_complex(at::zeros({7}).narrow(0, 1, 6).view({3, 2}));
       },
       K::Error, "Tensor must have a storage_offset divisible by 2"},
      {"arg_view_as_complex_scalar", [] { at::view_as_complex(at::scalar_tensor(1.0)); }, K::Error,
       "Input tensor must have one or more dimensions"},
      {"arg_resize_view_of_non_resizable",
       [] { at::from_blob(std::vector<float>(4).data(), {4}).resize_({8}); }, K::Error,
       "Trying to resize storage that is not resizable"},
      {"arg_batch_norm_running_mean_size",
       [] {
         at::batch_norm(at::zeros({2, 3}), {}, {}, at::zeros({4}), at::zeros({3}), false, 0.1, 1e-5,
                        false);
       },
       K::Error, "running_mean should contain 3 elements not 4"},
      {"arg_batch_norm_weight_size",
       [] {
         at::batch_norm(at::zeros({2, 3}), at::ones({2}), {}, {}, {}, true, 0.1, 1e-5, false);
       },
       K::Error, "weight should contain 3 elements not 2"},
      {"arg_accessor_rank",
       [] {
         auto t = f23();
         t.accessor<float, 3>();
       },
       K::Error, "TensorAccessor expected 3 dims but tensor has 2"},
      {"arg_index_out_of_range", [] { f23()[2]; }, K::IndexError,
       "select(): index 2 out of range for tensor of size [2, 3] at dimension 0"},
      {"arg_backward_non_scalar",
       [] {
         auto x = f23().requires_grad_();
         (x * 2).backward();
       },
       K::Error, "grad can be implicitly created only for scalar outputs"},
      {"arg_backward_no_grad", [] { f23().sum().backward(); }, K::Error,
       "element 0 of tensors does not require grad and does not have a grad_fn"},
      {"arg_inplace_on_leaf",
       [] {
         auto x = f23().requires_grad_();
         x.add_(1);
       },
       K::Error,
       "a view of a leaf Variable that requires grad is being used in an in-place operation."},
      {"arg_inplace_on_view_of_leaf",
       [] {
         auto x = f23().requires_grad_();
         x.select(0, 0).mul_(2);
       },
       K::Error,
       "a view of a leaf Variable that requires grad is being used in an in-place operation."},
      {"arg_saved_tensor_modified",
       [] {
         auto x = f23().requires_grad_();
         auto y = x.exp();
         y.add_(1);
         y.sum().backward();
       },
       K::Error,
       "one of the variables needed for gradient computation has been modified by an inplace "
       "operation: [CPUFloatType [2, 3]], which is output 0 of ExpBackward0, is at version 1; "
       "expected version 0 instead. Hint: enable anomaly detection to find the operation that "
       "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True)."},
      {"arg_backward_twice",
       [] {
         auto x = f23().requires_grad_();
         auto y = x.exp().sum();
         y.backward();
         y.backward();
       },
       K::Error,
       "Trying to backward through the graph a second time (or directly access saved tensors after "
       "they have already been freed). Saved intermediate values of the graph are freed when you "
       "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
       "through the graph a second time or if you need to access saved tensors after calling "
       "backward."},
      {"arg_grad_shape_mismatch",
       [] {
         auto x = f23().requires_grad_();
         (x * 2).backward(at::ones({3}));
       },
       K::Error, "invalid gradient at index 0 - got [3] but expected shape compatible with [2, 3]"},
      {"arg_device_string", [] { at::Device("gpu:0"); }, K::Error,
       "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, "
       "xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of device string: "
       "gpu"},
      {"arg_device_string_index", [] { at::Device("cpu:x"); }, K::Error,
       "Invalid device string: 'cpu:x'"},
      {"arg_device_negative_index", [] { at::Device("cpu:-1"); }, K::Error,
       "Invalid device string: 'cpu:-1'"},
      {"arg_inplace_on_plain_leaf",
       [] {
         auto x = at::ones({2, 3}).requires_grad_();
         x.add_(1);
       },
       K::Error, "a leaf Variable that requires grad is being used in an in-place operation."},
      {"arg_out_requires_grad",
       [] {
         auto x = at::ones({2, 3}).requires_grad_();
         auto o = at::empty({2, 3});
         at::add_out(o, x, x);
       },
       K::Error,
       "add(): functions with out=... arguments don't support automatic differentiation, but one "
       "of the arguments requires grad."},
      {"arg_detach_inplace_view",
       [] {
         auto x = at::ones({2, 3}).requires_grad_();
         auto v = x.select(0, 0);
         v.detach_();
       },
       K::Error,
       "Can't detach views in-place. Use detach() instead. If you are using "
       "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
       "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
       "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
       "torch/optim/optimizer.py as the solution."},
      {"arg_retain_grad_no_grad", [] { at::ones({2}).retain_grad(); }, K::Error,
       "can't retain_grad on Tensor that has requires_grad=False"},
      {"arg_requires_grad_false_non_leaf",
       [] {
         auto x = at::ones({2, 3}).requires_grad_();
         (x * 2).requires_grad_(false);
       },
       K::Error,
       "you can only change requires_grad flags of leaf variables. If you want to use a computed "
       "variable in a subgraph that doesn't require differentiation use var_no_grad = "
       "var.detach()."},
      {"arg_backward_grad_device",
       [] {
         auto x = at::ones({2}).requires_grad_();
         (x * 2).backward(at::ones({2}, at::TensorOptions().device(at::kMeta)));
       },
       K::Error, "invalid gradient at index 0 - expected device cpu but got meta"},
      {"arg_index_bool_scalar", [] { f23()[at::Scalar(true)]; }, K::IndexError,
       "Can only index tensors with integral scalars"},
      {"arg_index_1d_tensor", [] { f23()[at::ones({2}, at::kLong)]; }, K::IndexError,
       "Can only index with tensors that are scalars (zero-dim)"},
      {"arg_narrow_tensor_start_1d", [] { f23().narrow(1, at::ones({2}, at::kLong), 1); }, K::Error,
       "start must be an 0-dim integral Tensor."},
      {"arg_narrow_tensor_start_float", [] { f23().narrow(1, at::scalar_tensor(1.0), 1); },
       K::Error, "start must be an 0-dim integral Tensor."},
      {"arg_uniform_from_inf", [] { f23().uniform_(-std::numeric_limits<double>::infinity(), 0); },
       K::Error, "from is out of bounds for float"},
      {"arg_allclose_shapes", [] { at::allclose(f23(), at::zeros({4})); }, K::Error,
       "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"},
      {"arg_expand_as_shapes", [] { f23().expand_as(at::zeros({4})); }, K::Error,
       "expand(CPUFloatType{[2, 3]}, size=[4]): the number of sizes provided (1) must be greater "
       "or equal to the number of dimensions in the tensor (2)"},
      {"arg_view_as_numel", [] { f23().view_as(at::zeros({4})); }, K::Error,
       "shape '[4]' is invalid for input of size 6"},
      {"arg_empty_preserve",
       [] { at::empty({2}, at::TensorOptions().memory_format(at::MemoryFormat::Preserve)); },
       K::Error, "unsupported memory format Preserve"},
      {"arg_resize_preserve",
       [] {
         f23().resize_({2, 3}, at::MemoryFormat::Preserve);
       },
       K::Error, "Unsupported memory formatPreserve"},
      {"arg_resize_channels_last_rank",
       [] {
         f23().resize_({2, 3}, at::MemoryFormat::ChannelsLast);
       },
       K::Error, "required rank 4 tensor to use channels_last format"},
      {"arg_fill_non_scalar_tensor", [] { f23().fill_(at::ones({2})); }, K::Error,
       "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions."},
      {"arg_find_schema_missing",
       [] { c10::Dispatcher::singleton().findSchemaOrThrow("aten::nope", ""); }, K::Error,
       "Could not find schema for aten::nope."},
      {"arg_find_schema_overload",
       [] { c10::Dispatcher::singleton().findSchemaOrThrow("aten::add", "nope"); }, K::Error,
       "Could not find schema for aten::add.nope"},
      {"arg_to_options_twice_memory_format",
       [] {
         f23().to(at::TensorOptions().memory_format(at::MemoryFormat::Contiguous), false, false,
                  at::MemoryFormat::Contiguous);
       },
       K::Error,
       "Cannot set memory_format both in TensorOptions and explicit argument; please delete the "
       "redundant setter."},
  };
}

class BadInputArguments : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(BadInputArguments, ExactTextAndType) {
  test_util::expect_error_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Inventory, BadInputArguments,
                         ::testing::ValuesIn(test_util::joined({overlap_cases(),
                                                                argument_cases()})),
                         test_util::case_name<ErrorCase>);

}  // namespace
