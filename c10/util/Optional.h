#pragma once
// c10::optional: std::optional, with one difference in how some of them are passed.
// libtorch 1.13 code spells it c10::optional / c10::nullopt / c10::make_optional.

#include <optional>
#include <type_traits>
#include <utility>

namespace c10 {
using std::nullopt;
using std::nullopt_t;

// Note [Optionals that travel in memory]
// std::optional<int64_t> (and <double>) is 16 trivially copyable bytes, so the x86-64 ABI
// passes it by value in two registers. Operators take such optionals by value at every layer
// (slice's start and end), and at each layer GCC spills the two registers as two 8-byte stores
// and later copies the 16 bytes onward with one 16-byte load. A load that spans two pending
// stores cannot be forwarded from them: the CPU waits for both to reach the cache, at each of
// the hops of a view like narrow. perf annotate put about a quarter of narrow's time on the
// instructions after such loads; passing the optionals as below took narrow from about 100 to
// 86 ns.
//
// So for a trivially copyable optional of more than 8 bytes, c10::optional has a user-provided
// copy constructor that copies the flag and the value one by one. That makes it non-trivial
// for the ABI: it is passed by reference to a copy in the caller's frame, and nothing copies
// it as one 16-byte block. Optionals of 8 bytes or less (dtype, device, memory format, bool)
// fit one register and keep trivial copies; optionals of non-trivial types (Tensor) are
// passed by reference anyway. Everything else is std::optional's: c10::optional<T> derives
// from it, converts to and from it, and compares with it.
namespace detail {
template <class T>
constexpr bool optional_travels_in_memory = std::is_trivially_copyable<std::optional<T>>::value &&
                                            sizeof(std::optional<T>) > 8;

template <class T, bool = optional_travels_in_memory<T>>
struct optional_copies : std::optional<T> {
  using std::optional<T>::optional;
};

template <class T>
struct optional_copies<T, true> : std::optional<T> {
  using std::optional<T>::optional;
  optional_copies() = default;
  optional_copies(const optional_copies& other) noexcept : std::optional<T>() {
    if (other.has_value()) this->emplace(*other);
  }
  optional_copies& operator=(const optional_copies& other) noexcept {
    if (other.has_value()) {
      this->emplace(*other);
    } else {
      this->reset();
    }
    return *this;
  }
};
}  // namespace detail

template <class T>
class optional : public detail::optional_copies<T> {
  using base = detail::optional_copies<T>;

 public:
  using base::base;

  constexpr optional() noexcept = default;
  optional(const optional&) = default;
  optional(optional&&) = default;
  optional& operator=(const optional&) = default;
  optional& operator=(optional&&) = default;
  // From the std::optional that std::make_optional and other standard code return.
  optional(const std::optional<T>& other) : base() {  // NOLINT(google-explicit-constructor)
    if (other.has_value()) this->emplace(*other);
  }
  optional(std::optional<T>&& other) : base() {  // NOLINT(google-explicit-constructor)
    if (other.has_value()) this->emplace(std::move(*other));
  }

  // std::optional's assignments, spelled out: bringing them in with a using-declaration would
  // make `opt = value` ambiguous between converting to std::optional and to c10::optional.
  optional& operator=(nullopt_t) noexcept {
    this->reset();
    return *this;
  }
  // Like std::optional, `opt = {}` for a scalar T empties opt (through the copy assignment)
  // rather than storing T{}.
  template <class U = T,
            typename = std::enable_if_t<
                !std::is_base_of<std::optional<T>, std::decay_t<U>>::value &&
                !std::is_same<std::decay_t<U>, nullopt_t>::value &&
                std::is_constructible<T, U>::value && std::is_assignable<T&, U>::value &&
                !(std::is_scalar<T>::value && std::is_same<T, std::decay_t<U>>::value)>>
  optional& operator=(U&& value) {
    if (this->has_value()) {
      **this = std::forward<U>(value);
    } else {
      this->emplace(std::forward<U>(value));
    }
    return *this;
  }
};

// Comparisons between two c10::optionals: std's would be ambiguous, since std::optional<T>
// compares with any U, c10::optional<T> included. Comparisons with values and nullopt are
// std's.
#define C10_OPTIONAL_COMPARISON(op)                                                          \
  template <class T, class U>                                                                \
  constexpr bool operator op(const optional<T>& lhs, const optional<U>& rhs) {              \
    return static_cast<const std::optional<T>&>(lhs) op static_cast<const std::optional<U>&>( \
        rhs);                                                                                \
  }
C10_OPTIONAL_COMPARISON(==)
C10_OPTIONAL_COMPARISON(!=)
C10_OPTIONAL_COMPARISON(<)
C10_OPTIONAL_COMPARISON(<=)
C10_OPTIONAL_COMPARISON(>)
C10_OPTIONAL_COMPARISON(>=)
#undef C10_OPTIONAL_COMPARISON

template <class T>
optional(T) -> optional<T>;

template <class T>
constexpr optional<std::decay_t<T>> make_optional(T&& value) {
  return optional<std::decay_t<T>>(std::forward<T>(value));
}
template <class T, class... Args>
constexpr optional<T> make_optional(Args&&... args) {
  return optional<T>(std::in_place, std::forward<Args>(args)...);
}
}  // namespace c10
