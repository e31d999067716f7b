#pragma once
// Types as TorchScript annotates them in a pickle's type tags
// (torch.jit._pickle.restore_type_tag(container, "Dict[str, List[int]]")): written by the
// Pickler, read back by the Unpickler.
//
//   torch::jit::type_annotation(*c10::SchemaType::list(c10::IntType::get()));   // "List[int]"
//   torch::jit::parse_type_annotation("Dict[str, Tensor]");   // SchemaType::dict(str, Tensor)
//
// The names read: int, float, bool, str, Tensor, complex, NoneType, Any, Device, and List[T],
// Optional[T], Dict[K, V], Tuple[T, ...] (Tuple[()] when empty) of them, nested at most 32
// deep; anything else is "Unpickler cannot read the type tag '...'".
#include <string>

#include "dispatcher/SchemaType.h"

namespace torch::jit {

std::string type_annotation(const c10::SchemaType& type);
c10::TypePtr parse_type_annotation(const std::string& text);

}  // namespace torch::jit
