// dump_libtorch_schemas: prints every operator schema libtorch registers, one per line, sorted,
// as libtorch itself prints them. Built only when libtorch is found; it never links miniaten.
//
//   dump_libtorch_schemas > /tmp/libtorch_schemas.txt          # JIT registry + dispatcher
//   dump_libtorch_schemas --dispatcher > /tmp/dispatcher.txt   # c10 dispatcher only
//   MINIATEN_LIBTORCH_SCHEMAS=/tmp/libtorch_schemas.txt ctest -R SchemaRoundTrip
//
// The JIT operator registry holds the dispatcher's operators plus the interpreter's own (prim::,
// list and dict ops), which use the widest range of types (Dict, Future, tuples, type variables).

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/jit/runtime/operator.h>

#include <cstring>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

namespace {

template <typename T>
std::string to_text(const T& x) {
  std::ostringstream ss;
  ss << x;
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  const bool dispatcher_only = argc > 1 && std::strcmp(argv[1], "--dispatcher") == 0;
  if (argc > 2 || (argc == 2 && !dispatcher_only)) {
    std::cerr << "usage: " << argv[0] << " [--dispatcher]\n";
    return 2;
  }
  std::set<std::string> lines;
  auto& dispatcher = c10::Dispatcher::singleton();
  for (const auto& name : dispatcher.getAllOpNames()) {
    auto op = dispatcher.findSchema(name);
    if (op && op->hasSchema()) lines.insert(to_text(op->schema()));
  }
  if (!dispatcher_only) {
    for (const auto& op : torch::jit::getAllOperators()) lines.insert(to_text(op->schema()));
  }
  for (const auto& line : lines) std::cout << line << "\n";
  return 0;
}
