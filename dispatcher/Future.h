#pragma once
// ivalue::Future: a value that becomes available later, or an error, as libtorch's async APIs
// hand them out. Callbacks run once it completes (at once when it already has).
//
//   auto f = c10::make_intrusive<c10::ivalue::Future>(c10::IntType::get());
//   auto g = f->then([](c10::ivalue::Future& f) { return c10::IValue(f.value().toInt() * 2); },
//                    c10::IntType::get());
//   f->markCompleted(21);          // runs the callback: g->value().toInt() == 42
//   f->setError(...);              // instead: g gets the same error; value() rethrows it
//
// miniaten runs everything on the CPU: no device events or streams are recorded.

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "dispatcher/IValue.h"

namespace c10 {
namespace ivalue {

struct C10_API Future final : intrusive_ptr_target {
  // The error type libtorch's futures throw from value() when setError was given a message.
  struct C10_API FutureError final : public std::exception {
    explicit FutureError(std::string&& error_msg) : error_msg(std::move(error_msg)) {}
    FutureError() = default;
    const char* what() const noexcept override { return error_msg.c_str(); }
    std::string error_msg;
  };

  explicit Future(TypePtr type, std::vector<c10::Device> devices = {})
      : type_(std::move(type)), devices_(std::move(devices)) {}

  // Blocks until completed (with a value or an error).
  void wait();
  // wait(), then rethrows the error if there is one.
  void waitAndThrow();

  // Sets the value and runs the callbacks; a Future completes once only.
  void markCompleted(IValue value);
  void markCompleted() { markCompleted(IValue()); }
  // Completes with an error; setting a second error throws (naming both).
  void setError(std::exception_ptr eptr);
  // setError, unless already completed (then the error is dropped).
  void setErrorIfNeeded(std::exception_ptr eptr);

  // The value; rethrows the error. Must be completed.
  IValue value();
  const IValue& constValue() const;

  bool completed() const;
  bool hasValue() const;
  bool hasError() const;
  std::exception_ptr exception_ptr() const;
  // The error's what(), or "Unknown Exception Type".
  std::string tryRetrieveErrorMessage() const;

  // Runs callback(*this) once completed: now if it already is, else from markCompleted/setError
  // (on that thread).
  void addCallback(std::function<void(Future&)> callback);
  // A Future of `type` completed with callback(*this) once this completes; an error here, or
  // one the callback throws, becomes its error.
  intrusive_ptr<Future> then(std::function<IValue(Future&)> callback, TypePtr type);

  const TypePtr& elementType() const { return type_; }
  const std::vector<c10::Device>& devices() const { return devices_; }

 private:
  void finish(std::unique_lock<std::mutex>& lock);
  static std::string error_message(const std::exception_ptr& eptr);

  mutable std::mutex mutex_;
  std::condition_variable finished_cv_;
  bool completed_ = false;
  IValue value_;
  std::exception_ptr eptr_;
  std::vector<std::function<void(Future&)>> callbacks_;
  TypePtr type_;
  std::vector<c10::Device> devices_;
};

}  // namespace ivalue

inline IValue::IValue(c10::intrusive_ptr<ivalue::Future> f) : IValue(Tag::Future, std::move(f)) {}
inline c10::intrusive_ptr<ivalue::Future> IValue::toFuture() const {
  if (!isFuture()) report_type_error("Future");
  return toIntrusivePtr<ivalue::Future>();
}

}  // namespace c10
