#include "dispatcher/IValue.h"

#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>

namespace c10 {

IValue::IValue(const Scalar& s) : IValue() {
  if (s.isFloatingPoint()) {
    *this = IValue(s.toDouble());
  } else if (s.isBoolean()) {
    *this = IValue(s.toBool());
  } else {
    *this = IValue(s.toLong());
  }
}

Scalar IValue::toScalar() const {
  if (isDouble()) return toDouble();
  if (isInt()) return toInt();
  if (isBool()) return toBool();
  TORCH_CHECK(false, "IValue is not a Scalar");
}

const char* IValue::tag_name(Tag tag) {
  switch (tag) {
    case Tag::None:
      return "None";
    case Tag::Tensor:
      return "Tensor";
    case Tag::Double:
      return "Double";
    case Tag::Int:
      return "Int";
    case Tag::Bool:
      return "Bool";
    case Tag::Device:
      return "Device";
    case Tag::String:
      return "String";
    case Tag::IntList:
      return "IntList";
    case Tag::DoubleList:
      return "DoubleList";
    case Tag::BoolList:
      return "BoolList";
    case Tag::TensorList:
      return "TensorList";
    case Tag::OptionalTensorList:
      return "OptionalTensorList";
    case Tag::Tuple:
      return "Tuple";
    case Tag::Generator:
      return "Generator";
  }
  return "InvalidTag";
}

std::string IValue::tagKind() const {
  // libtorch keeps every list in one GenericList tag; report it the same way.
  return isList() ? "GenericList" : tag_name(tag_);
}

void IValue::report_type_error(const char* expected) const {
  TORCH_CHECK(false, "Expected ", expected, " but got ", tagKind());
}

namespace {

template <typename T>
bool lists_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a == b;
}
bool lists_equal(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_same(b[i])) return false;
  }
  return true;
}
bool lists_equal(const std::vector<c10::optional<at::Tensor>>& a,
                 const std::vector<c10::optional<at::Tensor>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].has_value() != b[i].has_value()) return false;
    if (a[i].has_value() && !a[i]->is_same(*b[i])) return false;
  }
  return true;
}

// libtorch's rule: integral doubles print as "<int>." ("1.", "-5.", "0." for -0.0 too); others
// with 17 significant digits ("0.10000000000000001", "1e-08", "1.0000000000000001e-05").
void print_double(std::ostream& out, double d) {
  const int c = std::fpclassify(d);
  // The range test stands in for libtorch's int64 cast, which is undefined outside it.
  if ((c == FP_NORMAL || c == FP_ZERO) && d >= -9223372036854775808.0 &&
      d < 9223372036854775808.0) {
    const auto i = static_cast<int64_t>(d);
    if (static_cast<double>(i) == d) {
      out << i << ".";
      return;
    }
  }
  std::ostringstream ss;
  ss.precision(std::numeric_limits<double>::max_digits10);
  ss << d;
  out << ss.str();
}

void print_tensor(std::ostream& out, const at::Tensor& t) {
  // libtorch prints the values too; the dispatcher layer prints only the footer it ends with.
  if (!t.defined()) {
    out << "[ Tensor (undefined) ]";
    return;
  }
  out << "[ " << t.toString() << "{";
  const auto sizes = t.sizes();
  for (size_t i = 0; i < sizes.size(); ++i) out << (i > 0 ? "," : "") << sizes[i];
  out << "} ]";
}

template <typename T>
void print_list(std::ostream& out, const std::vector<T>& v) {
  out << "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out << ", ";
    out << IValue(v[i]);
  }
  out << "]";
}

}  // namespace

bool operator==(const IValue& lhs, const IValue& rhs) {
  if (lhs.tag() != rhs.tag()) return false;
  switch (lhs.tag()) {
    case IValue::Tag::None:
      return true;
    case IValue::Tag::Tensor:
      return lhs.toTensor().is_same(rhs.toTensor());
    case IValue::Tag::Double:
      return lhs.toDouble() == rhs.toDouble();
    case IValue::Tag::Int:
      return lhs.toInt() == rhs.toInt();
    case IValue::Tag::Bool:
      return lhs.toBool() == rhs.toBool();
    case IValue::Tag::Device:
      return lhs.toDevice() == rhs.toDevice();
    case IValue::Tag::String:
      return lhs.toStringRef() == rhs.toStringRef();
    case IValue::Tag::IntList:
      return lists_equal(lhs.toIntList(), rhs.toIntList());
    case IValue::Tag::DoubleList:
      return lists_equal(lhs.toDoubleList(), rhs.toDoubleList());
    case IValue::Tag::BoolList:
      return lists_equal(lhs.toBoolList(), rhs.toBoolList());
    case IValue::Tag::TensorList:
      return lists_equal(lhs.toTensorList(), rhs.toTensorList());
    case IValue::Tag::OptionalTensorList:
      return lists_equal(lhs.toOptionalTensorList(), rhs.toOptionalTensorList());
    case IValue::Tag::Tuple:
      return lhs.toTupleRef().elements() == rhs.toTupleRef().elements();
    case IValue::Tag::Generator:
      return lhs.toGenerator() == rhs.toGenerator();
  }
  return false;
}

std::ostream& operator<<(std::ostream& out, const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::None:
      return out << "None";
    case IValue::Tag::Tensor:
      print_tensor(out, v.toTensor());
      return out;
    case IValue::Tag::Double:
      print_double(out, v.toDouble());
      return out;
    case IValue::Tag::Int:
      return out << v.toInt();
    case IValue::Tag::Bool:
      return out << (v.toBool() ? "True" : "False");
    case IValue::Tag::Device:
      return out << v.toDevice().str();
    case IValue::Tag::String:
      return out << v.toStringRef();
    case IValue::Tag::IntList:
      print_list(out, v.toIntList());
      return out;
    case IValue::Tag::DoubleList:
      print_list(out, v.toDoubleList());
      return out;
    case IValue::Tag::BoolList: {
      // std::vector<bool> hands out proxies; copy each element to a real bool.
      out << "[";
      const auto& list = v.toBoolList();
      for (size_t i = 0; i < list.size(); ++i) out << (i > 0 ? ", " : "") << IValue(bool(list[i]));
      return out << "]";
    }
    case IValue::Tag::TensorList:
      print_list(out, v.toTensorList());
      return out;
    case IValue::Tag::OptionalTensorList:
      print_list(out, v.toOptionalTensorList());
      return out;
    case IValue::Tag::Tuple: {
      const auto& elements = v.toTupleRef().elements();
      out << "(";
      for (size_t i = 0; i < elements.size(); ++i) out << (i > 0 ? ", " : "") << elements[i];
      // A one-element tuple prints as Python writes it.
      return out << (elements.size() == 1 ? ",)" : ")");
    }
    case IValue::Tag::Generator:
      return out << "Generator";
  }
  return out;
}

}  // namespace c10
