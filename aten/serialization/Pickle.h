#pragma once
// torch::jit::pickle_save / pickle_load: an IValue to and from the bytes of PyTorch's file
// format, as libtorch 1.13's torch/csrc/jit/serialization/pickle.h has them. libtorch 1.13 reads
// what these write, and these read what it writes (tests/aten/serialization/data).
//
//   c10::Dict<std::string, at::Tensor> weights;
//   weights.insert("w", at::ones({2, 3}));
//   std::vector<char> bytes = torch::jit::pickle_save(weights);
//   c10::IValue back = torch::jit::pickle_load(bytes);
//   back.toGenericDict().at("w").toTensor();           // sizes [2, 3], a copy of the bytes
//
//   torch::jit::pickle_save_file(weights, "w.pt");      // miniaten's extension
//   c10::IValue mapped = torch::jit::pickle_load_file("w.pt");   // tensors point into the file
//
// The file is a zip archive (see Note [PyTorch's archive layout]) of archive/data.pkl, the
// pickle program (see Note [What our Pickler writes] and Note [The pickle subset we read]),
// archive/data/<key>, each storage's bytes, little endian, whole, and archive/version ("3\n",
// as libtorch 1.13 writes). A view is saved with its whole storage and comes back as the same
// view; tensors that shared a storage share one again.
//
// Note [What a loaded value lacks]
// miniaten's generic lists carry an element type only when made from a C++ type, so a list the
// file tags as "List[List[int]]" comes back as a list of Any (its elements are right; saving it
// again tags it "List[Any]"). int, float, bool, complex, str, Tensor and Tensor? lists come back
// typed; dicts keep their key and value types.
#include <string>
#include <vector>

#include "dispatcher/IValue.h"

namespace torch::jit {

// A pickle program inside a PyTorch zip archive, as libtorch's pickle_save.
TORCH_API std::vector<char> pickle_save(const c10::IValue& ivalue);
// Reads what pickle_save (or libtorch's) wrote; tensors get copies of the bytes.
TORCH_API c10::IValue pickle_load(const std::vector<char>& data);

// miniaten's extension: the same format, through a file. Loading memory-maps the file, and a
// storage stored uncompressed and aligned (as every one PyTorch writes) is used in place,
// copy-on-write (see Note [Loaded tensors keep their file mapped]); others are copied once.
TORCH_API void pickle_save_file(const c10::IValue& ivalue, const std::string& path);
TORCH_API c10::IValue pickle_load_file(const std::string& path);

}  // namespace torch::jit

// libtorch's torch/serialize.h spells them torch::pickle_save and torch::pickle_load too.
namespace torch {
using jit::pickle_load;
using jit::pickle_save;
}  // namespace torch
