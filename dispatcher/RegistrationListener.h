#pragma once
// OpRegistrationListener: told whenever an operator gains or loses its schema, e.g. to keep an
// index of the operators (TorchScript's operator registry is one).
//
//   struct Counter : c10::OpRegistrationListener {
//     void onOperatorRegistered(const c10::OperatorHandle& op) override { ++n; }
//     void onOperatorDeregistered(const c10::OperatorHandle& op) override { --n; }
//     int n = 0;
//   };
//   auto& dispatcher = c10::Dispatcher::singleton();
//   auto handle = dispatcher.addRegistrationListener(std::make_unique<Counter>());
//
// A new listener is first told of every operator that already has a schema. Kernels registered
// without a schema (a TORCH_LIBRARY_IMPL before its TORCH_LIBRARY) are not operators yet: the
// listener hears of them when the schema arrives. The calls happen under the dispatcher's lock,
// so a listener must not register operators itself.

#include <list>
#include <memory>

#include "c10/util/Macros.h"

namespace c10 {

class OperatorHandle;

class C10_API OpRegistrationListener {
 public:
  virtual ~OpRegistrationListener() = default;
  virtual void onOperatorRegistered(const OperatorHandle& op) = 0;
  virtual void onOperatorDeregistered(const OperatorHandle& op) = 0;
};

namespace detail {

// The dispatcher's listeners, in the order they were added.
class RegistrationListenerList final {
 public:
  using Iterator = std::list<std::unique_ptr<OpRegistrationListener>>::iterator;

  Iterator add(std::unique_ptr<OpRegistrationListener> listener) {
    listeners_.push_back(std::move(listener));
    return std::prev(listeners_.end());
  }
  void remove(Iterator it) { listeners_.erase(it); }

  void callOnOperatorRegistered(const OperatorHandle& op) {
    for (auto& listener : listeners_) listener->onOperatorRegistered(op);
  }
  void callOnOperatorDeregistered(const OperatorHandle& op) {
    for (auto& listener : listeners_) listener->onOperatorDeregistered(op);
  }

 private:
  std::list<std::unique_ptr<OpRegistrationListener>> listeners_;
};

}  // namespace detail
}  // namespace c10
