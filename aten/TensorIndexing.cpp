// libtorch's C++ indexing (TensorIndexing.h): get_item and set_item as libtorch 1.13 applies an
// index list (ATen/TensorIndexing.h, applySlicing), and the Tensor methods that reach them. See
// Note [Indexing is views first, then one advanced index].

#include "aten/TensorIndexing.h"

#include <cstring>
#include <ostream>
#include <utility>
#include <vector>

#include "aten/ATen.h"
#include "c10/core/AutoDispatchGuards.h"

namespace at {
namespace indexing {

const EllipsisIndexType Ellipsis = EllipsisIndexType();

Slice::Slice(c10::optional<int64_t> start_index, c10::optional<int64_t> stop_index,
             c10::optional<int64_t> step_index) {
  step_ = step_index.value_or(1);
  TORCH_CHECK_VALUE(step_ != 0, "slice step cannot be zero");
  if (step_ < -INDEX_MAX) step_ = -INDEX_MAX;  // so that -step cannot overflow
  start_ = start_index.value_or(step_ < 0 ? INDEX_MAX : 0);
  stop_ = stop_index.value_or(step_ < 0 ? INDEX_MIN : INDEX_MAX);
}

std::ostream& operator<<(std::ostream& stream, const Slice& slice) {
  return stream << slice.start() << ":" << slice.stop() << ":" << slice.step();
}

TensorIndex::TensorIndex(const char* str) : TensorIndex(at::indexing::Ellipsis) {
  TORCH_CHECK_VALUE(std::strcmp(str, "...") == 0,
                    "Expected \"...\" to represent an ellipsis index, but got \"", str, "\"");
}

std::ostream& operator<<(std::ostream& stream, const TensorIndex& tensor_index) {
  if (tensor_index.is_none()) return stream << "None";
  if (tensor_index.is_ellipsis()) return stream << "...";
  if (tensor_index.is_integer()) return stream << tensor_index.integer();
  if (tensor_index.is_boolean()) return stream << std::boolalpha << tensor_index.boolean();
  if (tensor_index.is_slice()) return stream << tensor_index.slice();
  return stream << tensor_index.tensor();
}

namespace {

// The dims the list names: an Ellipsis stands for the rest. A mask names one dim per its dims;
// None and bools name none.
int64_t count_specified_dimensions(ArrayRef<TensorIndex> indices) {
  int64_t count = 0;
  for (const TensorIndex& obj : indices) {
    if (obj.is_tensor()) {
      const ScalarType type = obj.tensor().scalar_type();
      count += type == kByte || type == kBool ? obj.tensor().dim() : 1;
    } else if (!obj.is_none() && !obj.is_ellipsis() && !obj.is_boolean()) {
      ++count;
    }
  }
  return count;
}

Tensor apply_select(const Tensor& self, int64_t dim, int64_t index, int64_t real_dim) {
  TORCH_CHECK_INDEX(!(index == 0 && dim == 0 && self.dim() == 0),
                    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                    "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  const int64_t size = self.size(dim);
  TORCH_CHECK_INDEX(size >= -index && size > index, "index ", index,
                    " is out of bounds for dimension ", real_dim, " with size ", size);
  return self.select(dim, index);
}

Tensor apply_slice(const Tensor& self, int64_t dim, const Slice& s, bool disable_optimization) {
  TORCH_CHECK_VALUE(s.step() > 0, "step must be greater than zero");
  const bool whole = s.start() == 0 && s.stop() == self.size(dim) && s.step() == 1;
  if (!disable_optimization && whole) return self;
  return self.slice(dim, s.start(), s.stop(), s.step());
}

// A bool indexes a new dim of size 1: one element (true) or none (false).
Tensor bool_to_index(const Tensor& self, bool value) {
  return value ? at::zeros({1}, self.options().dtype(kLong))
               : at::empty({0}, self.options().dtype(kLong));
}

void record_tensor_index(const Tensor& tensor, std::vector<Tensor>& out, int64_t& dim) {
  out.resize(static_cast<size_t>(dim + 1));
  out[static_cast<size_t>(dim)] = tensor;
  ++dim;
}

// libtorch's applySlicing: every entry but the tensors applied as a view, the tensors kept in
// out_indices at the dims they reached.
Tensor apply_slicing(const Tensor& self, ArrayRef<TensorIndex> indices,
                     std::vector<Tensor>& out_indices, bool disable_slice_optimization) {
  int64_t dim = 0;
  const int64_t specified = count_specified_dimensions(indices);
  TORCH_CHECK_INDEX(specified <= self.dim(), "too many indices for tensor of dimension ",
                    self.dim());
  Tensor result = self;
  for (size_t i = 0; i < indices.size(); ++i) {
    const TensorIndex& obj = indices[i];
    const auto real_dim = static_cast<int64_t>(i);
    if (obj.is_integer()) {
      result = apply_select(result, dim, obj.integer(), real_dim);
    } else if (obj.is_slice()) {
      result = apply_slice(result, dim, obj.slice(), disable_slice_optimization);
      ++dim;
    } else if (obj.is_ellipsis()) {
      dim += self.dim() - specified;
    } else if (obj.is_none()) {
      result = result.unsqueeze(dim);
      ++dim;
    } else if (obj.is_boolean()) {
      result = result.unsqueeze(dim);
      record_tensor_index(bool_to_index(result, obj.boolean()), out_indices, dim);
    } else {
      const Tensor& tensor = obj.tensor();
      const ScalarType type = tensor.scalar_type();
      if (tensor.dim() == 0 && isIntegralType(type, /*includeBool=*/true)) {
        if (type != kByte && type != kBool) {
          result = apply_select(result, dim, tensor.item<int64_t>(), real_dim);
        } else {
          result = result.unsqueeze(dim);
          record_tensor_index(bool_to_index(result, tensor.item<int64_t>() != 0), out_indices, dim);
        }
      } else {
        record_tensor_index(tensor, out_indices, dim);
      }
    }
  }
  return result;
}

c10::List<c10::optional<Tensor>> as_index_list(const Tensor& self, std::vector<Tensor> indices) {
  c10::List<c10::optional<Tensor>> list;
  for (Tensor& index : indices) {
    if (index.defined() && index.device() != self.device()) index = index.to(self.device());
    list.push_back(index.defined() ? c10::optional<Tensor>(std::move(index)) : c10::nullopt);
  }
  return list;
}

// A value's leading 1s are dropped before it is broadcast (libtorch's slicePrefix1sSize).
IntArrayRef without_leading_ones(IntArrayRef sizes) {
  size_t first = 0;
  while (first < sizes.size() && sizes[first] == 1) ++first;
  return sizes.slice(first);
}

void copy_to(const Tensor& dst, const Tensor& src) {
  if (dst.sizes().equals(src.sizes())) {
    dst.copy_(src);
  } else if (src.dim() == 0 && src.device().is_cpu()) {
    dst.fill_(src);
  } else {
    dst.copy_(src.view(without_leading_ones(src.sizes())).expand_as(dst));
  }
}

}  // namespace

Tensor get_item(const Tensor& self, ArrayRef<TensorIndex> indices) {
  if (indices.size() == 1) {
    const TensorIndex& index = indices[0];
    if (index.is_integer()) return apply_select(self, 0, index.integer(), 0);
    if (index.is_slice()) return apply_slice(self, 0, index.slice(), /*disable=*/true);
    if (index.is_none()) return self.unsqueeze(0);
    if (index.is_ellipsis()) return at::alias(self);
    if (index.is_boolean()) {
      const Tensor result = self.unsqueeze(0);
      return at::index(result, as_index_list(result, {bool_to_index(result, index.boolean())}));
    }
  }
  std::vector<Tensor> tensor_indices;
  Tensor sliced = apply_slicing(self, indices, tensor_indices, /*disable=*/false);
  if (tensor_indices.empty()) return sliced.is_same(self) ? at::alias(sliced) : sliced;
  return at::index(sliced, as_index_list(sliced, std::move(tensor_indices)));
}

void set_item(const Tensor& self, ArrayRef<TensorIndex> indices, const Tensor& value) {
  if (indices.size() == 1) {
    const TensorIndex& index = indices[0];
    if (index.is_boolean() && !index.boolean()) return;
    if (index.is_ellipsis()) return copy_to(self, value);
    if (index.is_none() || index.is_boolean()) return copy_to(self.unsqueeze(0), value);
    if (index.is_integer()) return copy_to(apply_select(self, 0, index.integer(), 0), value);
    if (index.is_slice()) return copy_to(apply_slice(self, 0, index.slice(), false), value);
  }
  std::vector<Tensor> tensor_indices;
  Tensor sliced = apply_slicing(self, indices, tensor_indices, /*disable=*/false);
  if (tensor_indices.empty()) return copy_to(sliced, value);
  const IntArrayRef trimmed = without_leading_ones(value.sizes());
  const Tensor values = value.sizes().equals(trimmed) ? value : value.view(trimmed);
  sliced.index_put_(as_index_list(sliced, std::move(tensor_indices)), values);
}

}  // namespace indexing

Tensor Tensor::index(ArrayRef<indexing::TensorIndex> indices) const {
  TORCH_CHECK(!indices.empty(),
              "Passing an empty index list to Tensor::index() is not valid syntax");
  return indexing::get_item(*this, indices);
}

Tensor Tensor::index(std::initializer_list<indexing::TensorIndex> indices) const {
  return index(ArrayRef<indexing::TensorIndex>(indices));
}

Tensor& Tensor::index_put_(ArrayRef<indexing::TensorIndex> indices, const Tensor& rhs) {
  TORCH_CHECK(!indices.empty(),
              "Passing an empty index list to Tensor::index_put_() is not valid syntax");
  indexing::set_item(*this, indices, rhs);
  return *this;
}

// The value becomes a 0-dim tensor of self's dtype (libtorch's scalarToTensor).
Tensor& Tensor::index_put_(ArrayRef<indexing::TensorIndex> indices, const c10::Scalar& v) {
  Tensor value;
  {
    at::AutoDispatchBelowADInplaceOrView guard;
    value = at::full({}, v, options());
  }
  return index_put_(indices, value);
}

Tensor& Tensor::index_put_(std::initializer_list<indexing::TensorIndex> indices,
                           const Tensor& rhs) {
  return index_put_(ArrayRef<indexing::TensorIndex>(indices), rhs);
}

Tensor& Tensor::index_put_(std::initializer_list<indexing::TensorIndex> indices,
                           const c10::Scalar& v) {
  return index_put_(ArrayRef<indexing::TensorIndex>(indices), v);
}

}  // namespace at
