#pragma once
// OperatorName: the key every operator is registered and looked up under.
//
//   c10::OperatorName op{"aten::add", "out"};
//   c10::toString(op);                        // "aten::add.out"
//   std::unordered_map<c10::OperatorName, Entry> table;   // hashable
//
// `name` keeps its namespace ("aten::add"); an empty overload_name is the default overload.

#include <functional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>

#include "c10/util/Optional.h"
#include "c10/util/string_view.h"

namespace c10 {

struct OperatorName final {
  std::string name;
  std::string overload_name;

  OperatorName(std::string name, std::string overload_name)
      : name(std::move(name)), overload_name(std::move(overload_name)) {}

  // "aten" for "aten::add"; nullopt when the name has no namespace.
  c10::optional<c10::string_view> getNamespace() const {
    auto pos = name.find("::");
    if (pos == std::string::npos) return c10::nullopt;
    return c10::string_view(name.data(), pos);
  }
};

inline bool operator==(const OperatorName& lhs, const OperatorName& rhs) {
  return lhs.name == rhs.name && lhs.overload_name == rhs.overload_name;
}
inline bool operator!=(const OperatorName& lhs, const OperatorName& rhs) {
  return !(lhs == rhs);
}

inline std::ostream& operator<<(std::ostream& out, const OperatorName& op) {
  out << op.name;
  if (!op.overload_name.empty()) out << "." << op.overload_name;
  return out;
}

inline std::string toString(const OperatorName& op) {
  std::ostringstream ss;
  ss << op;
  return ss.str();
}

}  // namespace c10

namespace std {
template <>
struct hash<c10::OperatorName> {
  size_t operator()(const c10::OperatorName& op) const {
    // As libtorch hashes it.
    return std::hash<std::string>()(op.name) ^ (~std::hash<std::string>()(op.overload_name));
  }
};
}  // namespace std
