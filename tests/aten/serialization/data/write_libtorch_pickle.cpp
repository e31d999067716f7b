// Writes libtorch_pickle_save.pt, the file Pickle_test.cpp reads: torch::jit::pickle_save of the
// dict below, as libtorch 1.13 writes it. Regenerate (from this folder) with
//   g++ -std=c++17 write_libtorch_pickle.cpp -I/usr/include/torch/csrc/api/include \
//       -ltorch -ltorch_cpu -lc10 -o /tmp/write_libtorch_pickle && /tmp/write_libtorch_pickle
#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/torch.h>

#include <fstream>

int main() {
  auto base = torch::arange(24, torch::kFloat).view({2, 3, 4});
  c10::impl::GenericDict d(c10::StringType::get(), c10::AnyType::get());
  d.insert("base", base);
  d.insert("transposed", base.transpose(0, 2));           // strides (1, 4, 12)
  d.insert("sliced", base.select(0, 1).narrow(1, 1, 2));  // offset 13, base's storage
  d.insert("double", torch::linspace(0, 1, 5, torch::kDouble));
  d.insert("long", torch::arange(-3, 3, torch::kLong).view({2, 3}).t());
  d.insert("half", torch::full({2}, 1.5, torch::kHalf));
  d.insert("bool", torch::tensor({true, false, true}));
  d.insert("int0d", torch::tensor(7, torch::kInt));
  d.insert("ints", std::vector<int64_t>{1, -2, 300000, int64_t{1} << 40});
  d.insert("doubles", std::vector<double>{0.5, -2.0});
  d.insert("tensors", std::vector<at::Tensor>{base, torch::ones({2}, torch::kByte)});
  d.insert("tuple", c10::ivalue::Tuple::create({1, "two", 3.0, true, c10::IValue()}));
  c10::Dict<std::string, at::Tensor> typed;
  typed.insert("w", base);
  d.insert("typed", typed);
  auto bytes = torch::jit::pickle_save(d);
  std::ofstream("libtorch_pickle_save.pt", std::ios::binary).write(bytes.data(), bytes.size());
}
