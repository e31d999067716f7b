// ivalue::Future: completion, callbacks, then, errors; texts read off libtorch 1.13.
#include <gtest/gtest.h>

#include <thread>

#include "dispatcher/Future.h"

namespace {

using c10::IValue;
using c10::ivalue::Future;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.msg();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Future, CompletesOnceAndRunsCallbacks) {
  auto f = c10::make_intrusive<Future>(c10::IntType::get());
  EXPECT_FALSE(f->completed());
  int calls = 0;
  f->addCallback([&](Future& done) {
    EXPECT_EQ(done.value().toInt(), 42);
    ++calls;
  });
  f->markCompleted(42);
  EXPECT_EQ(calls, 1);
  f->addCallback([&](Future&) { ++calls; });  // already completed: runs now
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(f->hasValue());
  EXPECT_FALSE(f->hasError());
  EXPECT_EQ(IValue(f).toFuture()->value().toInt(), 42);
  EXPECT_EQ(f->elementType()->str(), "int");
  EXPECT_EQ(error_of([&] { f->markCompleted(43); }),
            "Attempting to mark a completed Future as complete again. Note that a Future can "
            "only be marked completed once.");
  EXPECT_EQ(error_of([&] { f->tryRetrieveErrorMessage(); }), "No error present on the future.");
}

TEST(Future, ErrorsRethrowAndName) {
  auto f = c10::make_intrusive<Future>(c10::IntType::get());
  f->setError(std::make_exception_ptr(Future::FutureError("bad")));
  EXPECT_TRUE(f->completed());
  EXPECT_FALSE(f->hasValue());
  EXPECT_EQ(f->tryRetrieveErrorMessage(), "bad");
  EXPECT_EQ(error_of([&] { f->value(); }), "bad");
  EXPECT_EQ(error_of([&] { f->waitAndThrow(); }), "bad");
  EXPECT_EQ(error_of([&] { f->setError(std::make_exception_ptr(std::runtime_error("bar"))); }),
            "Error already set on this Future: bad, trying to set error: bar");
  f->setErrorIfNeeded(std::make_exception_ptr(std::runtime_error("again")));  // dropped
  EXPECT_EQ(f->tryRetrieveErrorMessage(), "bad");
}

TEST(Future, ThenChainsValuesAndErrors) {
  auto f = c10::make_intrusive<Future>(c10::IntType::get());
  auto doubled =
      f->then([](Future& p) { return IValue(p.value().toInt() * 2); }, c10::IntType::get());
  f->markCompleted(21);
  EXPECT_EQ(doubled->value().toInt(), 42);

  auto g = c10::make_intrusive<Future>(c10::IntType::get());
  auto child = g->then([](Future& p) { return p.value(); }, c10::IntType::get());
  g->setError(std::make_exception_ptr(std::runtime_error("boom")));
  EXPECT_EQ(child->tryRetrieveErrorMessage(), "boom");

  auto h = c10::make_intrusive<Future>(c10::IntType::get());
  auto throwing =
      h->then([](Future&) -> IValue { throw std::runtime_error("in then"); }, c10::IntType::get());
  h->markCompleted(1);
  EXPECT_EQ(throwing->tryRetrieveErrorMessage(), "in then");
}

TEST(Future, WaitBlocksUntilAnotherThreadCompletes) {
  auto f = c10::make_intrusive<Future>(c10::IntType::get());
  std::thread producer([f] { f->markCompleted(7); });
  f->wait();
  EXPECT_EQ(f->value().toInt(), 7);
  producer.join();
}

}  // namespace
