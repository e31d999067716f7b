#pragma once
// c10::List<T>: the list type libtorch's API uses for `Tensor?[]` arguments
// (`const c10::List<c10::optional<at::Tensor>>&`). miniaten's is a plain value-semantics vector
// wrapper: enough for building one from braces, iterating it, and boxing it.

#include <initializer_list>
#include <vector>

#include "c10/util/ArrayRef.h"

namespace c10 {

template <class T>
class List final {
 public:
  using value_type = T;
  using const_iterator = typename std::vector<T>::const_iterator;

  List() = default;
  List(std::initializer_list<T> init) : elements_(init) {}
  explicit List(std::vector<T> elements) : elements_(std::move(elements)) {}
  explicit List(ArrayRef<T> elements) : elements_(elements.vec()) {}

  size_t size() const { return elements_.size(); }
  bool empty() const { return elements_.empty(); }
  T get(size_t i) const { return elements_.at(i); }
  const T& operator[](size_t i) const { return elements_[i]; }
  void push_back(T value) { elements_.push_back(std::move(value)); }
  const_iterator begin() const { return elements_.begin(); }
  const_iterator end() const { return elements_.end(); }
  const std::vector<T>& vec() const { return elements_; }

 private:
  std::vector<T> elements_;
};

}  // namespace c10

namespace at {
using c10::List;
}  // namespace at
