#pragma once
// c10::in_place: the tag that asks for construction in place (MaybeOwned<T>::owned(c10::in_place,
// args...), c10::optional<T>(c10::in_place, args...)). c10::optional is std::optional here, so
// the tags are std's, under libtorch's names.

#include <utility>

namespace c10 {
using std::in_place;
using std::in_place_index;
using std::in_place_index_t;
using std::in_place_t;
using std::in_place_type;
using std::in_place_type_t;
}  // namespace c10
