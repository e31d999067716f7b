#include "dispatcher/Future.h"

namespace c10 {
namespace ivalue {

void Future::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  finished_cv_.wait(lock, [&] { return completed_; });
}

void Future::waitAndThrow() {
  wait();
  std::unique_lock<std::mutex> lock(mutex_);
  if (eptr_) std::rethrow_exception(eptr_);
}

void Future::markCompleted(IValue value) {
  std::unique_lock<std::mutex> lock(mutex_);
  TORCH_CHECK(!completed_,
              "Attempting to mark a completed Future as complete again. Note that a Future can "
              "only be marked completed once.");
  value_ = std::move(value);
  finish(lock);
}

void Future::setError(std::exception_ptr eptr) {
  std::unique_lock<std::mutex> lock(mutex_);
  TORCH_CHECK(!eptr_, "Error already set on this Future: ", error_message(eptr_),
              ", trying to set error: ", error_message(eptr));
  TORCH_INTERNAL_ASSERT(!completed_, "Future is already marked completed");
  eptr_ = std::move(eptr);
  finish(lock);
}

void Future::setErrorIfNeeded(std::exception_ptr eptr) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (completed_) return;
  }
  setError(std::move(eptr));
}

// Wakes the waiters and runs the callbacks outside the lock (a callback may read this Future).
void Future::finish(std::unique_lock<std::mutex>& lock) {
  completed_ = true;
  std::vector<std::function<void(Future&)>> callbacks = std::move(callbacks_);
  callbacks_.clear();
  lock.unlock();
  finished_cv_.notify_all();
  for (auto& callback : callbacks) callback(*this);
}

IValue Future::value() {
  std::unique_lock<std::mutex> lock(mutex_);
  TORCH_INTERNAL_ASSERT(completed_, "value() of a Future that is not completed");
  if (eptr_) std::rethrow_exception(eptr_);
  return value_;
}

const IValue& Future::constValue() const {
  std::unique_lock<std::mutex> lock(mutex_);
  TORCH_INTERNAL_ASSERT(completed_, "constValue() of a Future that is not completed");
  TORCH_INTERNAL_ASSERT(!eptr_,
                        "value() accessor should only be used when future is not completed with "
                        "an error, but future had the following error: ",
                        error_message(eptr_));
  return value_;
}

bool Future::completed() const {
  std::unique_lock<std::mutex> lock(mutex_);
  return completed_;
}

bool Future::hasValue() const {
  std::unique_lock<std::mutex> lock(mutex_);
  return completed_ && !eptr_;
}

bool Future::hasError() const {
  std::unique_lock<std::mutex> lock(mutex_);
  return eptr_ != nullptr;
}

std::exception_ptr Future::exception_ptr() const {
  std::unique_lock<std::mutex> lock(mutex_);
  return eptr_;
}

std::string Future::tryRetrieveErrorMessage() const {
  TORCH_CHECK(hasError(), "No error present on the future.");
  return error_message(exception_ptr());
}

std::string Future::error_message(const std::exception_ptr& eptr) {
  try {
    std::rethrow_exception(eptr);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "Unknown Exception Type";
  }
}

void Future::addCallback(std::function<void(Future&)> callback) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!completed_) {
    callbacks_.push_back(std::move(callback));
    return;
  }
  lock.unlock();
  callback(*this);
}

intrusive_ptr<Future> Future::then(std::function<IValue(Future&)> callback, TypePtr type) {
  auto child = make_intrusive<Future>(std::move(type), devices_);
  addCallback([child, callback = std::move(callback)](Future& parent) {
    if (parent.hasError()) {
      child->setError(parent.exception_ptr());
      return;
    }
    IValue result;
    try {
      result = callback(parent);
    } catch (...) {
      child->setError(std::current_exception());
      return;
    }
    child->markCompleted(std::move(result));
  });
  return child;
}

}  // namespace ivalue
}  // namespace c10
