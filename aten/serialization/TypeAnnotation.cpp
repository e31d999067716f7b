#include "aten/serialization/TypeAnnotation.h"

#include <cctype>
#include <utility>
#include <vector>

#include "c10/util/Exception.h"

namespace torch::jit {

namespace {

using c10::SchemaType;
using c10::TypeKind;
using c10::TypePtr;

// A type tag's annotation ("Dict[str, List[int]]") as a SchemaType.
class AnnotationParser {
 public:
  explicit AnnotationParser(const std::string& text) : text_(text) {}

  TypePtr parse() {
    TypePtr t = parse_type(0);
    skip_spaces();
    check(pos_ == text_.size());
    return t;
  }

 private:
  static constexpr int kMaxDepth = 32;

  void check(bool ok) const { TORCH_CHECK(ok, "Unpickler cannot read the type tag '", text_, "'"); }
  void skip_spaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool eat(char c) {
    skip_spaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::string name() {
    skip_spaces();
    const size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                   text_[pos_] == '_' || text_[pos_] == '.')) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }
  TypePtr parse_type(int depth) {
    check(depth < kMaxDepth);
    const std::string n = name();
    if (n == "List" || n == "Optional") {
      check(eat('['));
      TypePtr element = parse_type(depth + 1);
      check(eat(']'));
      return n == "List" ? SchemaType::list(element) : SchemaType::optional(element);
    }
    if (n == "Dict") {
      check(eat('['));
      TypePtr key = parse_type(depth + 1);
      check(eat(','));
      TypePtr value = parse_type(depth + 1);
      check(eat(']'));
      return SchemaType::dict(key, value);
    }
    if (n == "Tuple") {
      check(eat('['));
      std::vector<TypePtr> elements;
      if (eat('(')) {
        check(eat(')'));
      } else {
        do {
          elements.push_back(parse_type(depth + 1));
        } while (eat(','));
      }
      check(eat(']'));
      return SchemaType::tuple(std::move(elements));
    }
    static const std::pair<const char*, TypeKind> kLeaves[] = {
        {"int", TypeKind::Int},           {"float", TypeKind::Float},
        {"bool", TypeKind::Bool},         {"str", TypeKind::Str},
        {"Tensor", TypeKind::Tensor},     {"complex", TypeKind::Complex},
        {"NoneType", TypeKind::NoneType}, {"Any", TypeKind::Any},
        {"Device", TypeKind::Device},
    };
    for (const auto& leaf : kLeaves) {
      if (n == leaf.first) return SchemaType::get(leaf.second);
    }
    check(false);
    return nullptr;
  }

  const std::string& text_;
  size_t pos_ = 0;
};

}  // namespace

std::string type_annotation(const c10::SchemaType& type) {
  auto joined = [&](const char* name) {
    std::string s = std::string(name) + "[";
    const auto& contained = type.containedTypes();
    if (type.kind() == c10::TypeKind::Tuple && contained.empty()) return s + "()]";
    for (size_t i = 0; i < contained.size(); ++i) {
      s += (i ? ", " : "") + type_annotation(*contained[i]);
    }
    return s + "]";
  };
  switch (type.kind()) {
    case c10::TypeKind::List:
      return joined("List");
    case c10::TypeKind::Optional:
      return joined("Optional");
    case c10::TypeKind::Tuple:
      return joined("Tuple");
    case c10::TypeKind::Dict:
      return joined("Dict");
    case c10::TypeKind::Device:
      return "Device";
    // Enum-like kinds are ints to TorchScript, as they are in an IValue.
    case c10::TypeKind::ScalarType:
    case c10::TypeKind::Layout:
    case c10::TypeKind::MemoryFormat:
    case c10::TypeKind::SymInt:
      return "int";
    default:
      return type.str();  // int, float, complex, bool, str, Tensor, NoneType, Any
  }
}

TypePtr parse_type_annotation(const std::string& text) {
  return AnnotationParser(text).parse();
}

}  // namespace torch::jit
