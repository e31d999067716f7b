// Operators called on many threads while other threads register and drop kernels, fallbacks and
// whole libraries. Calls take no lock (Note [Lock-free dispatch table]): every call must run a
// kernel that its key had at some moment during the call, or raise the error a missing kernel
// raises, and once the registrations are gone every dispatch table is as it was.
// tests/dispatcher/Concurrency_test.cpp overrides one key of one test operator; here the
// registrations touch other keys, other libraries and every operator's table (fallbacks),
// while aten operators and a TORCH_LIBRARY operator are called.

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "aten/ATen.h"
#include "c10/core/LocalDispatchKeySet.h"
#include "dispatcher/Library.h"
#include "tests/concurrency/StressTestUtil.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::DispatchKey;

// Which conc:: kernel ran last on this thread (the kernels below set it).
thread_local std::string tls_last_kernel;

// conc::tag adds its kernel's number, so a result names the kernel that made it.
at::Tensor tag_cpu(const at::Tensor& self) {
  tls_last_kernel = "cpu";
  return at::add(self, 1);
}
at::Tensor tag_autograd_override(const at::Tensor& self) {
  tls_last_kernel = "autograd_override";
  return at::add(self, 10);
}
// conc::stable's kernels are all identities that call no operator: with Tracer or FPGA included
// on the calling thread, any operator they called would fail for want of a kernel there.
at::Tensor stable_cpu(const at::Tensor& self) {
  tls_last_kernel = "cpu";
  return self;
}

}  // namespace

// The operators under test, registered for the whole program as a user's would be.
TORCH_LIBRARY(conc, m) {
  m.def("tag(Tensor self) -> Tensor");     // its AutogradCPU kernel comes and goes
  m.def("stable(Tensor self) -> Tensor");  // its other keys' kernels come and go
}
TORCH_LIBRARY_IMPL(conc, CPU, m) {
  m.impl("tag", TORCH_FN(tag_cpu));
  m.impl("stable", TORCH_FN(stable_cpu));
}

namespace {

constexpr char kMeta[] = "meta";
constexpr char kPrivateUse1[] = "privateuse1";
constexpr char kCompositeExplicit[] = "composite_explicit";
constexpr char kCompositeImplicit[] = "composite_implicit";

template <const char* Name>
at::Tensor record_identity(const at::Tensor& self) {
  tls_last_kernel = Name;
  return self;
}

// A PrivateUse1 kernel for aten::add: never called (no caller uses PrivateUse1 tensors with
// aten ops), but its registration rewrites aten::add's table while aten::add is called.
at::Tensor add_privateuse1(const at::Tensor& self, const at::Tensor&, const at::Scalar&) {
  return self;
}

// Identity for the one-tensor operators it serves (only conc::stable is called on PrivateUse1).
void privateuse1_fallback(const c10::OperatorHandle&, torch::jit::Stack*) {
  tls_last_kernel = "privateuse1_fallback";
}

at::Tensor twice_cpu(const at::Tensor& self) {
  return at::add(self, self);
}

c10::TypedOperatorHandle<at::Tensor(const at::Tensor&)> conc_op(const char* name) {
  return c10::Dispatcher::singleton()
      .findSchemaOrThrow(name, "")
      .typed<at::Tensor(const at::Tensor&)>();
}

// The registrations of both tests, on threads of their own until every loop has run its rounds
// or the budget is spent (Note [Stress tests are bounded by rounds and by time]):
//  * two threads: conc::tag's AutogradCPU kernel, which beats its CPU kernel while alive, and a
//    whole library (a TORCH_LIBRARY namespace and a conc fragment) defined, called and dropped;
//  * one thread: conc::stable's kernels for Meta, PrivateUse1 and the composite keys, and a
//    PrivateUse1 kernel for aten::add (no CPU call may notice them);
//  * one thread: fallbacks, which rewrite every operator's table: a boxed one for PrivateUse1,
//    then a fallthrough for PrivateUse1 (it makes the fallthrough masks differ per backend, so
//    every CPU call takes the per-backend mask path), and a fallthrough for Tracer.
class RegistrationChurn {
 public:
  explicit RegistrationChurn(std::chrono::milliseconds budget) : deadline_(budget) {
    for (int t = 0; t < 2; ++t) threads_.emplace_back([this, t] { libraries(t); });
    threads_.emplace_back([this] { other_keys(); });
    threads_.emplace_back([this] { fallbacks(); });
  }
  ~RegistrationChurn() { join(); }

  bool done() const { return running_.load() == 0; }
  void join() {
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
  }
  int64_t rounds() const { return rounds_.load(); }
  int64_t failures() const { return failures_.load(); }

 private:
  void libraries(int t) {
    const std::string ns = "conc_scratch" + std::to_string(t);
    const at::Tensor x = at::arange(4, at::kFloat);
    for (int i = 0; i < 300 && !deadline_.passed(); ++i) {
      torch::Library autograd(torch::Library::IMPL, "conc", DispatchKey::AutogradCPU, __FILE__,
                              __LINE__);
      autograd.impl("tag", TORCH_FN(tag_autograd_override));
      torch::Library def(torch::Library::DEF, ns, c10::nullopt, __FILE__, __LINE__);
      def.def("twice(Tensor self) -> Tensor");
      torch::Library impl(torch::Library::IMPL, ns, DispatchKey::CPU, __FILE__, __LINE__);
      impl.impl("twice", TORCH_FN(twice_cpu));
      torch::Library fragment(torch::Library::FRAGMENT, "conc", c10::nullopt, __FILE__, __LINE__);
      fragment.def("scratch" + std::to_string(t) + "(Tensor self) -> Tensor",
                   [](const at::Tensor& self) { return at::add(self, 3); });
      // The new operators work at once, on this thread.
      at::Tensor twice = conc_op((ns + "::twice").c_str()).call(x);
      at::Tensor scratch = conc_op(("conc::scratch" + std::to_string(t)).c_str()).call(x);
      if (!at::equal(twice, at::mul(x, 2)) || !at::equal(scratch, at::add(x, 3))) failures_++;
      rounds_++;
    }
    running_--;
  }

  void other_keys() {
    for (int i = 0; i < 300 && !deadline_.passed(); ++i) {
      torch::Library m(torch::Library::IMPL, "conc", c10::nullopt, __FILE__, __LINE__);
      // A different subset each round; dropped newest first when m goes.
      m.impl("stable", DispatchKey::Meta, TORCH_FN(record_identity<kMeta>));
      if (i % 4 >= 1)
        m.impl("stable", DispatchKey::PrivateUse1, TORCH_FN(record_identity<kPrivateUse1>));
      if (i % 4 >= 2) {
        m.impl("stable", DispatchKey::CompositeExplicitAutograd,
               TORCH_FN(record_identity<kCompositeExplicit>));
      }
      if (i % 4 >= 3) m.impl("stable", TORCH_FN(record_identity<kCompositeImplicit>));
      torch::Library aten(torch::Library::IMPL, "aten", DispatchKey::PrivateUse1, __FILE__,
                          __LINE__);
      aten.impl("add.Tensor", TORCH_FN(add_privateuse1));
      rounds_++;
    }
    running_--;
  }

  void fallbacks() {
    for (int i = 0; i < 40 && !deadline_.passed(); ++i) {
      {
        torch::Library m(torch::Library::IMPL, "_", DispatchKey::PrivateUse1, __FILE__, __LINE__);
        m.fallback(torch::CppFunction::makeFromBoxedFunction<&privateuse1_fallback>());
      }
      {
        torch::Library m(torch::Library::IMPL, "_", DispatchKey::PrivateUse1, __FILE__, __LINE__);
        m.fallback(torch::CppFunction::makeFallthrough());
        torch::Library tracer(torch::Library::IMPL, "_", DispatchKey::Tracer, __FILE__, __LINE__);
        tracer.fallback(torch::CppFunction::makeFallthrough());
      }
      rounds_++;
    }
    running_--;
  }

  stress::Deadline deadline_;
  std::atomic<int> running_{4};
  std::atomic<int64_t> rounds_{0}, failures_{0};
  std::vector<std::thread> threads_;
};

// Every dispatch table the churn touches, and how many operators exist: all must be back to
// this once the churn is over.
struct DispatcherSnapshot {
  std::vector<std::string> tables;
  size_t num_ops;

  static DispatcherSnapshot take() {
    auto& d = c10::Dispatcher::singleton();
    DispatcherSnapshot s;
    for (const auto& name :
         {std::make_pair("aten::add", "Tensor"), std::make_pair("aten::contiguous", ""),
          std::make_pair("aten::empty", "memory_format"), std::make_pair("conc::tag", ""),
          std::make_pair("conc::stable", "")}) {
      s.tables.push_back(name.first + std::string(": ") +
                         d.findSchemaOrThrow(name.first, name.second).dumpComputedTable());
    }
    s.num_ops = d.getAllOpNames().size();
    return s;
  }
};

void expect_unchanged(const DispatcherSnapshot& before) {
  const DispatcherSnapshot after = DispatcherSnapshot::take();
  ASSERT_EQ(after.tables.size(), before.tables.size());
  for (size_t i = 0; i < before.tables.size(); ++i) EXPECT_EQ(after.tables[i], before.tables[i]);
  EXPECT_EQ(after.num_ops, before.num_ops);
  EXPECT_FALSE(c10::Dispatcher::singleton().findSchema({"conc_scratch0::twice", ""}).has_value());
}

bool same_floats(const at::Tensor& t, const std::vector<float>& expected) {
  if (t.scalar_type() != at::kFloat || t.numel() != static_cast<int64_t>(expected.size())) {
    return false;
  }
  at::Tensor c = t.contiguous();
  const float* p = c.data_ptr<float>();
  for (size_t i = 0; i < expected.size(); ++i) {
    if (p[i] != expected[i]) return false;
  }
  return true;
}

// One round of aten calls; each checks sizes, strides and values. Returns what was wrong, or "".
std::string call_aten_ops(const at::Tensor& a, const at::Tensor& b, int round) {
  // add: a = 0..5 as [2, 3], b = round everywhere.
  at::Tensor sum = at::add(a, b, 2);
  std::vector<float> expected(6);
  for (int i = 0; i < 6; ++i) expected[i] = static_cast<float>(i + 2 * round);
  if (sum.sizes() != at::IntArrayRef({2, 3}) || !same_floats(sum, expected)) return "add";
  // contiguous of a transpose: a fresh [3, 2] tensor with a's values transposed.
  at::Tensor t = at::contiguous(a.t());
  if (t.sizes() != at::IntArrayRef({3, 2}) || t.strides() != at::IntArrayRef({2, 1}) ||
      t.is_alias_of(a) || !same_floats(t, {0, 3, 1, 4, 2, 5})) {
    return "contiguous";
  }
  // contiguous of a contiguous tensor is the tensor itself.
  if (!at::contiguous(a).is_same(a)) return "contiguous (no copy)";
  at::Tensor e = at::empty({4, 5});
  if (e.sizes() != at::IntArrayRef({4, 5}) || e.strides() != at::IntArrayRef({5, 1}) ||
      e.scalar_type() != at::kFloat || !e.is_cpu()) {
    return "empty";
  }
  return "";
}

TEST(CallsDuringRegistration, AtenOpsKeepTheirKernels) {
  stress::QuietWarnings quiet;
  const DispatcherSnapshot before = DispatcherSnapshot::take();
  const at::Tensor a = at::arange(6, at::kFloat).view({2, 3});
  std::atomic<int64_t> calls{0};
  stress::Outcomes wrong;
  {
    RegistrationChurn churn(std::chrono::milliseconds(700));
    stress::run_threads(3, [&](int t) {
      for (int round = 0; round < 20 || !churn.done(); ++round) {
        const at::Tensor b = at::full({2, 3}, static_cast<double>(round));
        const std::string what = call_aten_ops(a, b, round);
        if (!what.empty()) wrong.add(what);
        // Lookups take the registration lock; the handle stays valid while others register.
        if (round % 16 == t) {
          auto add =
              c10::Dispatcher::singleton()
                  .findSchemaOrThrow("aten::add", "Tensor")
                  .typed<at::Tensor(const at::Tensor&, const at::Tensor&, const at::Scalar&)>();
          if (!at::equal(add.call(a, a, 1), at::mul(a, 2))) wrong.add("add through a handle");
        }
        calls++;
      }
    });
    churn.join();
    EXPECT_EQ(churn.failures(), 0) << "a library registered during the calls did not work";
    EXPECT_GT(churn.rounds(), 0);
  }
  EXPECT_EQ(wrong.total(), 0) << wrong.summary();
  EXPECT_GE(calls.load(), 60);
  expect_unchanged(before);
}

// What one call of conc::stable (or tag) did: the kernel that ran, or the error it raised.
std::string outcome_of(const std::function<void()>& call) {
  tls_last_kernel = "none";
  try {
    call();
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    for (const char* key : {"PrivateUse1", "Tracer", "FPGA"}) {
      if (msg.rfind(std::string("Could not run 'conc::stable' with arguments from the '") + key +
                        "' backend.",
                    0) == 0) {
        return std::string("missing:") + key;
      }
    }
    if (msg.rfind("There were no tensor arguments to this function", 0) == 0) return "missing:none";
    return "error: " + msg.substr(0, msg.find('\n'));
  }
  return tls_last_kernel;
}

TEST(CallsDuringRegistration, CustomOpSeesOldOrNewKernel) {
  stress::QuietWarnings quiet;
  const DispatcherSnapshot before = DispatcherSnapshot::take();
  const auto tag = conc_op("conc::tag");
  const auto stable = conc_op("conc::stable");
  const at::Tensor zeros = at::zeros({3});
  const at::Tensor pu1 = test_util::tensor_for(DispatchKey::PrivateUse1);
  stress::Outcomes tag_seen, stable_cpu_seen, stable_pu1_seen, stable_tracer_seen;
  std::atomic<int64_t> wrong_values{0};
  {
    RegistrationChurn churn(std::chrono::milliseconds(700));
    stress::run_threads(4, [&](int t) {
      for (int round = 0; round < 20 || !churn.done(); ++round) {
        if (t <= 1) {
          // CPU calls: tag's result must match the kernel that says it ran.
          tag_seen.add(outcome_of([&] {
            at::Tensor r;
            if (t == 0) {
              r = tag.call(zeros);
            } else {
              torch::jit::Stack stack{zeros};
              tag.callBoxed(&stack);
              r = stack.at(0).toTensor();
            }
            const float want = tls_last_kernel == "cpu" ? 1.f : 10.f;
            if (!same_floats(r, {want, want, want})) wrong_values++;
          }));
          // Only other keys of stable change: its CPU calls always run the CPU kernel.
          stable_cpu_seen.add(outcome_of([&] {
            if (!stable.call(zeros).is_same(zeros)) wrong_values++;
          }));
        } else if (t == 2) {
          // Every kernel and fallback that can serve a PrivateUse1 call is the identity.
          stable_pu1_seen.add(outcome_of([&] {
            if (!stable.call(pu1).is_same(pu1)) wrong_values++;
          }));
        } else {
          // Tracer included: it falls through to CPU while its fallthrough fallback is alive.
          c10::impl::IncludeDispatchKeyGuard include(DispatchKey::Tracer);
          stable_tracer_seen.add(outcome_of([&] {
            if (!stable.call(zeros).is_same(zeros)) wrong_values++;
          }));
        }
      }
    });
    churn.join();
  }
  EXPECT_EQ(wrong_values.load(), 0);
  EXPECT_EQ(tag_seen.count("cpu") + tag_seen.count("autograd_override"), tag_seen.total())
      << tag_seen.summary();
  EXPECT_EQ(stable_cpu_seen.count("cpu"), stable_cpu_seen.total()) << stable_cpu_seen.summary();
  // PrivateUse1: whichever of its kernels, the fallback or the composites was there, or the
  // missing-kernel error; with PrivateUse1 falling through, no key is left (Undefined), where
  // only the composites or the no-tensor error can serve.
  int64_t allowed_pu1 = 0;
  for (const char* o : {"privateuse1", "privateuse1_fallback", "composite_explicit",
                        "composite_implicit", "missing:PrivateUse1", "missing:none"}) {
    allowed_pu1 += stable_pu1_seen.count(o);
  }
  EXPECT_EQ(allowed_pu1, stable_pu1_seen.total()) << stable_pu1_seen.summary();
  EXPECT_EQ(stable_tracer_seen.count("cpu") + stable_tracer_seen.count("missing:Tracer"),
            stable_tracer_seen.total())
      << stable_tracer_seen.summary();
  expect_unchanged(before);
  // And the CPU kernel is the one left.
  EXPECT_EQ(outcome_of([&] { tag.call(zeros); }), "cpu");
}

// A per-operator fallthrough for a key the callers include, registered and dropped as fast as
// possible: registration publishes the table slot before the key's fallthrough mask, so a call
// can read the mask from before and the slot from after (Note [A racing call can reach a
// fallthrough kernel]). It must then skip the key, as with the new mask, and never fail. FPGA's
// slot comes early in the table, so the window between the two stores is the widest.
TEST(CallsDuringRegistration, FallthroughRegisteredMidCallIsSkipped) {
  const auto stable = conc_op("conc::stable");
  const at::Tensor zeros = at::zeros({3});
  std::atomic<int> callers_left{3};
  std::atomic<int64_t> toggles{0}, wrong_values{0};
  stress::Outcomes seen;
  stress::Deadline deadline(std::chrono::milliseconds(300));
  stress::run_threads(3, [&](int t) {
    if (t == 0) {
      do {  // at least once, however late the scheduler runs this thread
        torch::Library m(torch::Library::IMPL, "conc", DispatchKey::FPGA, __FILE__, __LINE__);
        m.impl("stable", torch::CppFunction::makeFallthrough());
        toggles++;
      } while (callers_left.load() > 1);
      return;
    }
    c10::impl::IncludeDispatchKeyGuard include(DispatchKey::FPGA);
    for (int round = 0; round < 100 || !deadline.passed(); ++round) {
      seen.add(outcome_of([&] {
        if (!stable.call(zeros).is_same(zeros)) wrong_values++;
      }));
    }
    callers_left--;
  });
  EXPECT_EQ(wrong_values.load(), 0);
  EXPECT_GT(toggles.load(), 0);
  EXPECT_EQ(seen.count("cpu") + seen.count("missing:FPGA"), seen.total()) << seen.summary();
  EXPECT_EQ(c10::Dispatcher::singleton()
                .findSchemaOrThrow("conc::stable", "")
                .entry()
                .tableEntry(DispatchKey::FPGA)
                .provenance,
            std::string("missing"));
}

}  // namespace
