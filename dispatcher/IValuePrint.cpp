// operator<< of IValue: libtorch's informal form, character for character (see the examples in
// dispatcher/IValue.h).
#include <cxxabi.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <ostream>
#include <sstream>

#include "dispatcher/IValue.h"

namespace caffe2 {

std::string Blob::TypeName() const {
  if (IsEmpty()) return "nullptr (uninitialized)";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(value_.type().name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? name.get() : value_.type().name();
}

}  // namespace caffe2

namespace c10 {
namespace {

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

// "2.-3.j", "0.5+1e-08j": the real part, the imaginary part's sign, its magnitude, "j".
void print_complex(std::ostream& out, c10::complex<double> z) {
  print_double(out, z.real());
  out << (z.imag() >= 0 ? "+" : "-");
  print_double(out, std::abs(z.imag()));
  out << "j";
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

template <class Vector>
void print_list(std::ostream& out, const Vector& v) {
  out << "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out << ", ";
    // Copy to the element type: std::vector<bool> hands out proxies.
    out << IValue(typename Vector::value_type(v[i]));
  }
  out << "]";
}

}  // namespace

std::ostream& operator<<(std::ostream& out, const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::None:
      return out << "None";
    case IValue::Tag::Tensor:
      print_tensor(out, v.toTensor());
      return out;
    case IValue::Tag::Storage:
      return out << static_cast<const void*>(v.toStorage().unsafeGetStorageImpl());
    case IValue::Tag::Double:
      print_double(out, v.toDouble());
      return out;
    case IValue::Tag::ComplexDouble:
      print_complex(out, v.toComplexDouble());
      return out;
    case IValue::Tag::Int:
      return out << v.toInt();
    case IValue::Tag::Bool:
      return out << (v.toBool() ? "True" : "False");
    case IValue::Tag::Device:
      return out << v.toDevice().str();
    case IValue::Tag::Stream:
      return out << v.toStream();
    case IValue::Tag::String:
      return out << v.toStringRef();
    case IValue::Tag::IntList:
      print_list(out, v.toIntListRef());
      return out;
    case IValue::Tag::DoubleList:
      print_list(out, v.toDoubleListRef());
      return out;
    case IValue::Tag::BoolList:
      print_list(out, v.toBoolListRef());
      return out;
    case IValue::Tag::ComplexDoubleList:
      print_list(out, v.toComplexDoubleVector());
      return out;
    case IValue::Tag::TensorList:
      print_list(out, v.toTensorList());
      return out;
    case IValue::Tag::OptionalTensorList:
      print_list(out, v.toOptionalTensorList());
      return out;
    case IValue::Tag::GenericList:
      print_list(out, v.toListRef());
      return out;
    case IValue::Tag::Tuple: {
      const auto& elements = v.toTupleRef().elements();
      out << "(";
      for (size_t i = 0; i < elements.size(); ++i) out << (i > 0 ? ", " : "") << elements[i];
      // A one-element tuple prints as Python writes it.
      return out << (elements.size() == 1 ? ",)" : ")");
    }
    case IValue::Tag::GenericDict: {
      out << "{";
      bool first = true;
      for (const auto& entry : v.toGenericDict()) {
        out << (first ? "" : ", ") << entry.key() << ": " << entry.value();
        first = false;
      }
      return out << "}";
    }
    case IValue::Tag::Future:
      return out << "Future";
    case IValue::Tag::Object: {
      const auto& object = v.toObjectRef();
      return out << "<" << object.name() << " object at " << static_cast<const void*>(&object)
                 << ">";
    }
    case IValue::Tag::Enum: {
      const auto e = v.toEnumHolder();
      return out << "Enum<" << e->unqualifiedClassName() << "." << e->name() << ">";
    }
    case IValue::Tag::Generator:
      return out << "Generator";
    case IValue::Tag::Blob:
      return out << "Blob[" << v.toBlob()->TypeName() << "]";
    case IValue::Tag::Capsule:
      return out << "Capsule";
  }
  return out;
}

}  // namespace c10
