#pragma once
// caffe2::Blob: a refcounted box holding one value of any C++ type, the one Caffe2 relic an
// IValue can still hold (libtorch's ATen/core/blob.h).
//
//   auto blob = c10::make_intrusive<caffe2::Blob>();
//   blob->IsEmpty();                 // true; prints as Blob[nullptr (uninitialized)]
//   *blob->GetMutable<int>() = 3;    // now holds an int
//   blob->Get<int>();                // 3; Get<float>() throws

#include <any>
#include <string>

#include "c10/util/Exception.h"
#include "c10/util/intrusive_ptr.h"

namespace caffe2 {

class C10_API Blob final : public c10::intrusive_ptr_target {
 public:
  Blob() noexcept = default;

  bool IsEmpty() const noexcept { return !value_.has_value(); }
  template <class T>
  bool IsType() const noexcept {
    return value_.type() == typeid(T);
  }
  // "nullptr (uninitialized)" when empty, else the held type's name.
  std::string TypeName() const;

  template <class T>
  const T& Get() const {
    TORCH_CHECK(IsType<T>(), "wrong type for the Blob instance. Blob contains ", TypeName(),
                " while caller expects ", typeid(T).name());
    return *std::any_cast<T>(&value_);
  }
  // The held T, replacing what was there with a default-constructed T if it is not a T.
  template <class T>
  T* GetMutable() {
    if (!IsType<T>()) value_ = T();
    return std::any_cast<T>(&value_);
  }
  void Reset() noexcept { value_.reset(); }

 private:
  std::any value_;
};

}  // namespace caffe2
