// The second half of the pickle_interop test: libtorch 1.13's pickle_load reads the files
// write_miniaten_pickle.cpp wrote and checks every entry. Built only where CMake finds
// libtorch. Usage: read_with_libtorch <path> (reads <path> and <path>.mem).
#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/torch.h>

#include <fstream>
#include <iostream>

#define CHECK_THAT(cond)                                     \
  if (!(cond)) {                                             \
    std::cerr << "libtorch read a different " #cond << "\n"; \
    return false;                                            \
  }

bool check(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  const c10::IValue v = torch::jit::pickle_load(bytes);
  const auto d = v.toGenericDict();
  const auto base = d.at("base").toTensor();
  CHECK_THAT(base.equal(torch::arange(24, torch::kFloat).view({2, 3, 4})));
  const auto transposed = d.at("transposed").toTensor();
  CHECK_THAT(transposed.strides() == c10::IntArrayRef({1, 4, 12}));
  CHECK_THAT(transposed.is_alias_of(base) && transposed.equal(base.transpose(0, 2)));
  const auto sliced = d.at("sliced").toTensor();
  CHECK_THAT(sliced.storage_offset() == 13 && sliced.is_alias_of(base));
  CHECK_THAT(sliced.equal(base.select(0, 1).narrow(1, 1, 2)));
  const auto cl = d.at("channels_last").toTensor();
  CHECK_THAT(cl.strides() == c10::IntArrayRef({60, 1, 15, 3}) &&
             cl.scalar_type() == torch::kDouble);
  CHECK_THAT(cl.equal(torch::arange(120, torch::kDouble).view({2, 3, 4, 5})));
  CHECK_THAT(d.at("empty").toTensor().sizes() == c10::IntArrayRef({0, 3}));
  CHECK_THAT(d.at("int0d").toTensor().dim() == 0 && d.at("int0d").toTensor().item<int>() == 7);
  for (auto t : {torch::kHalf, torch::kBFloat16, torch::kShort, torch::kChar, torch::kByte,
                 torch::kBool, torch::kComplexFloat, torch::kComplexDouble}) {
    const auto x = d.at(c10::toString(t)).toTensor();
    CHECK_THAT(x.scalar_type() == t && x.equal(torch::arange(4).to(t)));
  }
  CHECK_THAT(d.at("ints").toIntVector() == std::vector<int64_t>({1, -2, 300000, int64_t{1} << 40}));
  CHECK_THAT(d.at("doubles").toDoubleVector() == std::vector<double>({0.5, -2.0}));
  CHECK_THAT(d.at("bools").toBoolList().get(0) && !d.at("bools").toBoolList().get(1));
  const auto tensors = d.at("tensors").toTensorVector();
  CHECK_THAT(tensors[0].is_same(base) && tensors[1].scalar_type() == torch::kByte);
  CHECK_THAT(d.at("strings").toList().get(1).toStringRef() == "b");
  const auto& tuple = d.at("tuple").toTupleRef().elements();
  CHECK_THAT(tuple.size() == 5 && tuple[1].toStringRef() == "two" && tuple[4].isNone());
  CHECK_THAT(d.at("typed").toGenericDict().at("w").toTensor().is_same(base));
  CHECK_THAT(v.type()->annotation_str() == "Dict[str, Any]");
  CHECK_THAT(d.at("typed").type()->annotation_str() == "Dict[str, Tensor]");
  return true;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  for (const std::string path : {std::string(argv[1]), std::string(argv[1]) + ".mem"}) {
    if (!check(path)) return 1;
    std::cout << "libtorch read " << path << ": ok\n";
  }
  return 0;
}
