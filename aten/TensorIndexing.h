#pragma once
// libtorch's C++ indexing API (ATen/TensorIndexing.h): Python's t[1:, None, ..., idx] written
// as t.index({Slice(1, None), None, Ellipsis, idx}), and t[mask] = 0 as
// t.index_put_({mask}, 0).
//
//   using namespace at::indexing;
//   t.index({Slice(), 0});                     // t[:, 0]: a view (select)
//   t.index({"...", Slice(None, None, 2)});    // t[..., ::2]: a view (slice)
//   t.index({idx_tensor});                     // t[idx]: a copy (at::index)
//   t.index_put_({t > 0}, 1.0);                // t[t > 0] = 1
//
// Note [Indexing is views first, then one advanced index]
// Integers select, slices slice, None unsqueezes, an Ellipsis skips the dims the other entries
// do not name, a bool is None plus a mask of one element (or none): all views, applied left to
// right (libtorch's applySlicing). Tensor entries are kept, each at the dim it reached, and
// applied at the end in one at::index / index_put_ (advanced indexing, IndexingAdvanced.cpp). A
// 0-dim integer tensor is an integer. With no tensor entries the result is a view of self.

#include <cstdint>
#include <iosfwd>
#include <limits>

#include "aten/core/Tensor.h"
#include "c10/util/Optional.h"

namespace at {
namespace indexing {

constexpr int64_t INDEX_MIN = std::numeric_limits<int64_t>::min();
constexpr int64_t INDEX_MAX = -(INDEX_MIN + 1);

enum class TensorIndexType { None, Ellipsis, Integer, Boolean, Slice, Tensor };

constexpr c10::nullopt_t None = c10::nullopt;

struct TORCH_API EllipsisIndexType final {
  EllipsisIndexType() = default;
};
TORCH_API extern const EllipsisIndexType Ellipsis;

// start:stop:step, Python's defaults where absent (a negative step counts down from the end).
struct TORCH_API Slice final {
 public:
  Slice(c10::optional<int64_t> start_index = c10::nullopt,
        c10::optional<int64_t> stop_index = c10::nullopt,
        c10::optional<int64_t> step_index = c10::nullopt);

  int64_t start() const { return start_; }
  int64_t stop() const { return stop_; }
  int64_t step() const { return step_; }

 private:
  int64_t start_, stop_, step_;
};

TORCH_API std::ostream& operator<<(std::ostream& stream, const Slice& slice);

// One entry of an index list: None, Ellipsis (or "..."), an integer, a bool, a Slice or a
// Tensor.
struct TORCH_API TensorIndex final {
  TensorIndex(c10::nullopt_t) : type_(TensorIndexType::None) {}                       // NOLINT
  TensorIndex(at::indexing::EllipsisIndexType) : type_(TensorIndexType::Ellipsis) {}  // NOLINT
  TensorIndex(const char* str);  // NOLINT: "..." only
  TensorIndex(int64_t integer) : integer_(integer), type_(TensorIndexType::Integer) {}  // NOLINT
  TensorIndex(int integer) : TensorIndex(static_cast<int64_t>(integer)) {}              // NOLINT
  // Only a bool itself (an int must not become one).
  template <class T, class = typename std::enable_if<std::is_same<bool, T>::value>::type>
  TensorIndex(T boolean) : boolean_(boolean), type_(TensorIndexType::Boolean) {}  // NOLINT
  TensorIndex(Slice slice) : slice_(slice), type_(TensorIndexType::Slice) {}      // NOLINT
  TensorIndex(Tensor tensor)
      : tensor_(std::move(tensor)), type_(TensorIndexType::Tensor) {}  // NOLINT

  bool is_none() const { return type_ == TensorIndexType::None; }
  bool is_ellipsis() const { return type_ == TensorIndexType::Ellipsis; }
  bool is_integer() const { return type_ == TensorIndexType::Integer; }
  int64_t integer() const { return integer_; }
  bool is_boolean() const { return type_ == TensorIndexType::Boolean; }
  bool boolean() const { return boolean_; }
  bool is_slice() const { return type_ == TensorIndexType::Slice; }
  const Slice& slice() const { return slice_; }
  bool is_tensor() const { return type_ == TensorIndexType::Tensor; }
  const Tensor& tensor() const { return tensor_; }

 private:
  int64_t integer_ = 0;
  bool boolean_ = false;
  Slice slice_;
  Tensor tensor_;
  TensorIndexType type_;
};

TORCH_API std::ostream& operator<<(std::ostream& stream, const TensorIndex& tensor_index);

// t[indices] and t[indices] = value (Note [Indexing is views first, then one advanced index]).
TORCH_API Tensor get_item(const Tensor& self, ArrayRef<TensorIndex> indices);
TORCH_API void set_item(const Tensor& self, ArrayRef<TensorIndex> indices, const Tensor& value);

}  // namespace indexing
}  // namespace at
