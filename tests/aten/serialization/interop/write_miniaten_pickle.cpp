// The first half of the pickle_interop test: miniaten writes a file for libtorch 1.13 to read
// (read_with_libtorch.cpp checks it). Usage: write_miniaten_pickle <path>; it writes <path>
// through pickle_save_file and <path>.mem through pickle_save.
#include <fstream>

#include "aten/ATen.h"
#include "aten/serialization/Pickle.h"
#include "dispatcher/Dict.h"
#include "dispatcher/List.h"
#include "dispatcher/Tuple.h"

// The value both halves agree on; read_with_libtorch.cpp checks each entry.
c10::IValue interop_value() {
  const at::Tensor base = at::arange(0, 24, 1).to(at::kFloat).view({2, 3, 4});
  c10::impl::GenericDict d(c10::StringType::get(), c10::AnyType::get());
  d.insert("base", base);
  d.insert("transposed", base.transpose(0, 2));
  d.insert("sliced", base.select(0, 1).narrow(1, 1, 2));
  d.insert("channels_last", at::arange(0, 120, 1)
                                .to(at::kDouble)
                                .view({2, 3, 4, 5})
                                .contiguous(at::MemoryFormat::ChannelsLast));
  d.insert("empty", at::empty({0, 3}, at::kLong));
  d.insert("int0d", at::arange(7, 8, 1).to(at::kInt).view({}));
  const c10::ScalarType dtypes[] = {at::kHalf,         at::kBFloat16,     at::kShort,
                                    at::kChar,         at::kByte,         at::kBool,
                                    at::kComplexFloat, at::kComplexDouble};
  for (c10::ScalarType t : dtypes) {
    d.insert(c10::toString(t), at::arange(0, 4, 1).to(t));
  }
  d.insert("ints", std::vector<int64_t>{1, -2, 300000, int64_t{1} << 40});
  d.insert("doubles", std::vector<double>{0.5, -2.0});
  d.insert("bools", std::vector<bool>{true, false});
  d.insert("tensors", std::vector<at::Tensor>{base, at::ones({2}, at::kByte)});
  d.insert("strings", c10::List<std::string>({"a", "b"}));
  d.insert("tuple", c10::ivalue::Tuple::create({1, "two", 3.0, true, c10::IValue()}));
  c10::Dict<std::string, at::Tensor> typed;
  typed.insert("w", base);
  d.insert("typed", typed);
  return d;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  torch::jit::pickle_save_file(interop_value(), path);
  const std::vector<char> bytes = torch::jit::pickle_save(interop_value());
  std::ofstream(path + ".mem", std::ios::binary).write(bytes.data(), bytes.size());
  return 0;
}
