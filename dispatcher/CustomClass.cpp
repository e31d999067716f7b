#include "dispatcher/CustomClass.h"

#include <mutex>
#include <unordered_map>

namespace c10 {

namespace {
struct Registry {
  std::mutex mutex;
  std::unordered_map<std::string, TypePtr> classes;
};
Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: static registrations outlive main
  return *r;
}
}  // namespace

TypePtr registerCustomClass(const std::string& qualified_name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  TypePtr& type = r.classes[qualified_name];
  if (!type) type = SchemaType::custom_class(qualified_name);
  return type;
}

TypePtr getCustomClass(const std::string& qualified_name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.classes.find(qualified_name);
  return it == r.classes.end() ? nullptr : it->second;
}

}  // namespace c10
