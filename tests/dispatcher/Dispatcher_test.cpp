// The dispatcher's rules: which kernel a call reaches (REFERENCE.md sections 5-6), registration
// order and removal, redispatch below autograd, and the error texts.

#include <gtest/gtest.h>

#include "c10/core/AutoDispatchGuards.h"
#include "tests/dispatcher/DispatcherTestUtil.h"

namespace {

using c10::DispatchKey;
using test_util::last_kernel;
using test_util::tensor_for;

constexpr char kCPU[] = "cpu";
constexpr char kMetaK[] = "meta";
constexpr char kPU1[] = "privateuse1";
constexpr char kCEA[] = "composite_explicit";
constexpr char kCIA[] = "composite_implicit";
constexpr char kAutogradCPU[] = "autograd_cpu";
using test_util::record;

using UnarySig = at::Tensor(const at::Tensor&);

// A fresh operator "test::op_N(Tensor self) -> Tensor" with the given kernels.
struct TestOp {
  std::string name = test_util::unique_op();
  torch::Library def{torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__};
  std::vector<std::unique_ptr<torch::Library>> impls;

  TestOp() { def.def(name + "(Tensor self) -> Tensor"); }

  template <class F>
  TestOp& impl(DispatchKey k, F&& f) {
    impls.push_back(std::make_unique<torch::Library>(torch::Library::IMPL, "test", k, __FILE__,
                                                     __LINE__));
    impls.back()->impl(name, std::forward<F>(f));
    return *this;
  }
  c10::OperatorHandle handle() const {
    return c10::Dispatcher::singleton().findSchemaOrThrow(("test::" + name).c_str(), "");
  }
  std::string run(DispatchKey backend) const {
    last_kernel() = "none";
    handle().typed<UnarySig>().call(tensor_for(backend));
    return last_kernel();
  }
  std::string provenance(DispatchKey k) const {
    return handle().entry().tableEntry(k).provenance;
  }
};

TEST(DispatchPrecedence, DirectKernelOnItsBackend) {
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  EXPECT_EQ(op.run(DispatchKey::CPU), "cpu");
  // The tensor's autograd key falls through (default fallback) to the CPU kernel.
  EXPECT_EQ(op.provenance(DispatchKey::AutogradCPU), std::string("fallthrough"));
  EXPECT_EQ(op.provenance(DispatchKey::CPU), std::string("kernel"));
  EXPECT_EQ(op.provenance(DispatchKey::Meta), std::string("missing"));
}

TEST(DispatchPrecedence, CompositeExplicitCoversBackendsAndUndefined) {
  TestOp op;
  op.impl(DispatchKey::CompositeExplicitAutograd, TORCH_FN(record<kCEA>));
  EXPECT_EQ(op.run(DispatchKey::CPU), "composite_explicit");
  EXPECT_EQ(op.run(DispatchKey::Meta), "composite_explicit");
  EXPECT_EQ(op.provenance(DispatchKey::CPU), std::string("CompositeExplicitAutograd kernel"));
  EXPECT_EQ(op.provenance(DispatchKey::Undefined), std::string("CompositeExplicitAutograd kernel"));
  EXPECT_EQ(op.provenance(DispatchKey::AutogradCPU), std::string("fallthrough"));
  // Not a backend key: BackendSelect keeps its fallthrough.
  EXPECT_EQ(op.provenance(DispatchKey::BackendSelect), std::string("fallthrough"));
}

TEST(DispatchPrecedence, CompositeImplicitServesAutogradKeysWithoutBackendKernels) {
  TestOp op;
  op.impl(DispatchKey::CompositeImplicitAutograd, TORCH_FN(record<kCIA>));
  EXPECT_EQ(op.run(DispatchKey::CPU), "composite_implicit");
  EXPECT_EQ(op.provenance(DispatchKey::AutogradCPU), std::string("CompositeImplicitAutograd kernel"));
  EXPECT_EQ(op.provenance(DispatchKey::CPU), std::string("CompositeImplicitAutograd kernel"));
  EXPECT_EQ(op.provenance(DispatchKey::Undefined), std::string("CompositeImplicitAutograd kernel"));
}

TEST(DispatchPrecedence, CompositeImplicitYieldsToABackendKernelOnThatBackendOnly) {
  TestOp op;
  op.impl(DispatchKey::CompositeImplicitAutograd, TORCH_FN(record<kCIA>));
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  // AutogradCPU: CPU has its own kernel, so the composite is not used there.
  EXPECT_EQ(op.provenance(DispatchKey::AutogradCPU), std::string("fallthrough"));
  EXPECT_EQ(op.run(DispatchKey::CPU), "cpu");
  // Meta has no kernel: its autograd key takes the composite.
  EXPECT_EQ(op.provenance(DispatchKey::AutogradMeta), std::string("CompositeImplicitAutograd kernel"));
  EXPECT_EQ(op.run(DispatchKey::Meta), "composite_implicit");
}

TEST(DispatchPrecedence, CompositeExplicitBeatsCompositeImplicit) {
  TestOp op;
  op.impl(DispatchKey::CompositeImplicitAutograd, TORCH_FN(record<kCIA>));
  op.impl(DispatchKey::CompositeExplicitAutograd, TORCH_FN(record<kCEA>));
  EXPECT_EQ(op.provenance(DispatchKey::CPU), std::string("CompositeExplicitAutograd kernel"));
  EXPECT_EQ(op.provenance(DispatchKey::AutogradCPU), std::string("fallthrough"));
  EXPECT_EQ(op.run(DispatchKey::CPU), "composite_explicit");
}

TEST(DispatchPrecedence, AutogradAliasCoversAutogradKeysAndRedispatches) {
  TestOp op;
  const std::string qualified = "test::" + op.name;
  static std::string trail;
  trail.clear();
  op.impl(DispatchKey::CPU, [](const at::Tensor& t) {
    trail += "cpu";
    return t;
  });
  op.impl(DispatchKey::Autograd, [qualified](c10::DispatchKeySet ks, const at::Tensor& t) {
    trail += "autograd>";
    EXPECT_TRUE(ks.has(DispatchKey::AutogradCPU));
    at::AutoDispatchBelowADInplaceOrView guard;
    return c10::Dispatcher::singleton()
        .findSchemaOrThrow(qualified.c_str(), "")
        .typed<UnarySig>()
        .redispatch(ks & c10::after_autograd_keyset, t);
  });
  EXPECT_EQ(op.provenance(DispatchKey::AutogradCPU), std::string("Autograd kernel"));
  EXPECT_EQ(op.provenance(DispatchKey::AutogradOther), std::string("Autograd kernel"));
  op.handle().typed<UnarySig>().call(tensor_for(DispatchKey::CPU));
  EXPECT_EQ(trail, "autograd>cpu");
  // Below autograd the alias kernel is skipped.
  trail.clear();
  {
    at::AutoDispatchBelowAutograd guard;
    op.handle().typed<UnarySig>().call(tensor_for(DispatchKey::CPU));
  }
  EXPECT_EQ(trail, "cpu");
}

TEST(DispatchPrecedence, DirectAutogradKeyBeatsTheAlias) {
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  op.impl(DispatchKey::Autograd, TORCH_FN(record<kCEA>));
  op.impl(DispatchKey::AutogradCPU, TORCH_FN(record<kAutogradCPU>));
  EXPECT_EQ(op.run(DispatchKey::CPU), "autograd_cpu");
  EXPECT_EQ(op.provenance(DispatchKey::AutogradCPU), std::string("kernel"));
  EXPECT_EQ(op.provenance(DispatchKey::AutogradMeta), std::string("Autograd kernel"));
}

TEST(DispatchPrecedence, CompositeImplicitBeatsTheAutogradAlias) {
  TestOp op;
  op.impl(DispatchKey::CompositeImplicitAutograd, TORCH_FN(record<kCIA>));
  op.impl(DispatchKey::Autograd, TORCH_FN(record<kAutogradCPU>));
  EXPECT_EQ(op.provenance(DispatchKey::AutogradCPU), std::string("CompositeImplicitAutograd kernel"));
  EXPECT_EQ(op.run(DispatchKey::CPU), "composite_implicit");
}

void privateuse1_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  last_kernel() = std::string("fallback:") + op.operator_name().name;
  // Leave the argument as the result, as an identity kernel would.
  (void)stack;
}

TEST(DispatchPrecedence, BackendFallbackServesKeysWithoutKernels) {
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  {
    torch::Library fb(torch::Library::IMPL, "_", DispatchKey::PrivateUse1, __FILE__, __LINE__);
    fb.fallback(torch::CppFunction::makeFromBoxedFunction<&privateuse1_fallback>());
    EXPECT_EQ(op.provenance(DispatchKey::PrivateUse1), std::string("backend fallback"));
    EXPECT_EQ(op.run(DispatchKey::PrivateUse1), "fallback:test::" + op.name);
    // A direct kernel still wins over the fallback.
    op.impl(DispatchKey::PrivateUse1, TORCH_FN(record<kPU1>));
    EXPECT_EQ(op.run(DispatchKey::PrivateUse1), "privateuse1");
    op.impls.pop_back();
    EXPECT_EQ(op.run(DispatchKey::PrivateUse1), "fallback:test::" + op.name);
  }
  // The fallback is gone with its library.
  EXPECT_EQ(op.provenance(DispatchKey::PrivateUse1), std::string("missing"));
}

TEST(DispatchPrecedence, FallthroughFallbackPassesTheCallDown) {
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  op.impl(DispatchKey::PrivateUse1, TORCH_FN(record<kPU1>));
  torch::Library fb(torch::Library::IMPL, "_", DispatchKey::Tracer, __FILE__, __LINE__);
  fb.fallback(torch::CppFunction::makeFallthrough());
  c10::impl::IncludeDispatchKeyGuard include(DispatchKey::Tracer);
  EXPECT_EQ(op.run(DispatchKey::CPU), "cpu");
}

TEST(DispatchPrecedence, TlsIncludedKeysJoinTheCall) {
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  op.impl(DispatchKey::PrivateUse1, TORCH_FN(record<kPU1>));
  EXPECT_EQ(op.run(DispatchKey::CPU), "cpu");
  {
    c10::impl::IncludeDispatchKeyGuard include(DispatchKey::PrivateUse1);
    EXPECT_EQ(op.run(DispatchKey::CPU), "privateuse1");
    // Excluding PrivateUse1 excludes its functionality, Dense, for every backend (as in
    // libtorch 1.13: Note [Key set representation]), so no backend kernel is left to run.
    c10::impl::ExcludeDispatchKeyGuard exclude(DispatchKey::PrivateUse1);
    EXPECT_THROW(op.run(DispatchKey::CPU), c10::Error);
  }
  EXPECT_EQ(op.run(DispatchKey::CPU), "cpu");
}

// A fallthrough on one backend's autograd key must not skip another backend's autograd
// kernel, though both keys share the AutogradFunctionality bit.
// See Note [Fallthrough masks are per backend].
TEST(DispatchPrecedence, FallthroughIsPerBackend) {
  constexpr static char kAutograd[] = "autograd";
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  op.impl(DispatchKey::Meta, TORCH_FN(record<kMetaK>));
  op.impl(DispatchKey::Autograd, TORCH_FN(record<kAutograd>));
  EXPECT_EQ(op.run(DispatchKey::CPU), "autograd");
  EXPECT_EQ(op.run(DispatchKey::Meta), "autograd");
  op.impl(DispatchKey::AutogradMeta, torch::CppFunction::makeFallthrough());
  EXPECT_EQ(op.provenance(DispatchKey::AutogradMeta), std::string("fallthrough"));
  EXPECT_EQ(op.run(DispatchKey::Meta), "meta");
  EXPECT_EQ(op.run(DispatchKey::CPU), "autograd");
  // Redispatching with an unmasked set applies the same per-backend mask.
  const auto typed = op.handle().typed<UnarySig>();
  last_kernel() = "none";
  typed.redispatch(c10::keysetForBackend(DispatchKey::Meta), tensor_for(DispatchKey::Meta));
  EXPECT_EQ(last_kernel(), "meta");
  last_kernel() = "none";
  typed.redispatch(c10::keysetForBackend(DispatchKey::CPU), tensor_for(DispatchKey::CPU));
  EXPECT_EQ(last_kernel(), "autograd");
  // Dropping the fallthrough makes the masks agree again.
  op.impls.pop_back();
  EXPECT_EQ(op.run(DispatchKey::Meta), "autograd");
}

TEST(DispatchPrecedence, MixedBackendsPickTheHigherOne) {
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  op.impl(DispatchKey::Meta, TORCH_FN(record<kMetaK>));
  torch::Library lib(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
  const std::string bin = test_util::unique_op("bin");
  lib.def(bin + "(Tensor a, Tensor b) -> Tensor");
  torch::Library impl(torch::Library::IMPL, "test", c10::nullopt, __FILE__, __LINE__);
  impl.impl(bin, DispatchKey::CPU, [](const at::Tensor& a, const at::Tensor&) {
    last_kernel() = "cpu";
    return a;
  });
  impl.impl(bin, DispatchKey::Meta, [](const at::Tensor& a, const at::Tensor&) {
    last_kernel() = "meta";
    return a;
  });
  auto h = c10::Dispatcher::singleton()
               .findSchemaOrThrow(("test::" + bin).c_str(), "")
               .typed<at::Tensor(const at::Tensor&, const at::Tensor&)>();
  h.call(tensor_for(DispatchKey::CPU), tensor_for(DispatchKey::Meta));
  EXPECT_EQ(last_kernel(), "meta");
  h.call(tensor_for(DispatchKey::CPU), at::Tensor());  // undefined tensors add no keys
  EXPECT_EQ(last_kernel(), "cpu");
}

// ---- Registration order and removal -----------------------------------------------------------

struct CapturingWarnings : c10::WarningHandler {
  std::vector<std::string> seen;
  void process(const c10::SourceLocation&, const std::string& msg, bool) override {
    seen.push_back(msg);
  }
};

TEST(Registration, NewestKernelWinsAndRemovalRestoresTheOlder) {
  TestOp op;
  static const char kFirst[] = "first";
  static const char kSecond[] = "second";
  op.impl(DispatchKey::CPU, TORCH_FN(record<kFirst>));
  CapturingWarnings warnings;
  {
    c10::WarningUtils::WarningHandlerGuard guard(&warnings);
    op.impl(DispatchKey::CPU, TORCH_FN(record<kSecond>));
  }
  ASSERT_EQ(warnings.seen.size(), 1u);
  EXPECT_EQ(warnings.seen[0].rfind("Overriding a previously registered kernel for the same "
                                   "operator and the same dispatch key\n  operator: test::" +
                                       op.name + "(Tensor self) -> Tensor",
                                   0),
            0u)
      << warnings.seen[0];
  EXPECT_NE(warnings.seen[0].find("dispatch key: CPU"), std::string::npos);
  EXPECT_EQ(op.run(DispatchKey::CPU), "second");
  op.impls.pop_back();  // drop the newer registration
  EXPECT_EQ(op.run(DispatchKey::CPU), "first");
  // Dropping the older one while a newer exists removes exactly that one.
  op.impl(DispatchKey::CPU, TORCH_FN(record<kSecond>));
  op.impls.erase(op.impls.begin());
  EXPECT_EQ(op.run(DispatchKey::CPU), "second");
  op.impls.clear();
  EXPECT_EQ(op.provenance(DispatchKey::CPU), std::string("missing"));
}

TEST(Registration, MissingKernelErrorNamesTheBackendAndTheAvailableKeys) {
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  try {
    op.run(DispatchKey::Meta);
    FAIL();
  } catch (const c10::NotImplementedError& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_EQ(msg.rfind("Could not run 'test::" + op.name +
                            "' with arguments from the 'Meta' backend. This could be because the "
                            "operator doesn't exist for this backend",
                        0),
              0u)
        << msg;
    EXPECT_NE(msg.find("'test::" + op.name +
                       "' is only available for these backends: [CPU, BackendSelect, "
                       "ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, AutogradHIP, "
                       "AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, "
                       "AutogradVE, AutogradLazy, AutogradMeta, AutogradPrivateUse1, "
                       "AutogradPrivateUse2, AutogradPrivateUse3, AutogradNestedTensor]."),
              std::string::npos)
        << msg;
    // The computed table follows, one line per key that can run something (as libtorch).
    EXPECT_NE(msg.find("\nCPU: record<kCPU>"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("\nMeta:"), std::string::npos) << msg;
  }
}

TEST(Registration, NoTensorArgumentsNeedsAFallbackOrComposite) {
  torch::Library lib(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
  const std::string name = test_util::unique_op("noargs");
  lib.def(name + "() -> int");
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow(("test::" + name).c_str(), "");
  try {
    op.typed<int64_t()>().call();
    FAIL();
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_EQ(msg.rfind("There were no tensor arguments to this function (e.g., you passed an empty "
                        "list of Tensors), but no fallback function is registered for schema test::" +
                            name +
                            ".  This usually means that this function requires a non-empty list "
                            "of Tensors, or that you (the operator writer) forgot to register a "
                            "fallback function.  Available functions are [",
                        0),
              0u)
        << msg;
  }
  torch::Library impl(torch::Library::IMPL, "test", DispatchKey::CompositeExplicitAutograd,
                      __FILE__, __LINE__);
  impl.impl(name, []() -> int64_t { return 42; });
  EXPECT_EQ(op.typed<int64_t()>().call(), 42);
}

TEST(Registration, DumpsShowKernelsAndTheirProvenance) {
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  const std::string state = op.handle().dumpState();
  EXPECT_EQ(state.rfind("name: test::" + op.name + "\nschema: test::" + op.name +
                            "(Tensor self) -> Tensor\ndebug: registered at ",
                        0),
            0u)
      << state;
  EXPECT_NE(state.find("CPU: record<kCPU> (registered at "), std::string::npos) << state;
  EXPECT_NE(state.find("[ boxed unboxed ]"), std::string::npos) << state;
  const std::string table = op.handle().dumpComputedTable();
  EXPECT_EQ(table.rfind("CPU: record<kCPU> (registered at ", 0), 0u) << table;
  EXPECT_EQ(table.find("Undefined:"), std::string::npos) << table;
  EXPECT_EQ(table.find("\nMeta:"), std::string::npos) << table;
  EXPECT_NE(table.find("\nAutogradCPU: autograd_fallthrough (registered at "), std::string::npos)
      << table;
  EXPECT_NE(table.find(") [fallthrough]\n"), std::string::npos) << table;
  EXPECT_TRUE(op.handle().hasKernelForDispatchKey(DispatchKey::CPU));
  EXPECT_FALSE(op.handle().hasKernelForDispatchKey(DispatchKey::Meta));
}

TEST(Registration, LookupErrors) {
  try {
    c10::Dispatcher::singleton().findSchemaOrThrow("test::does_not_exist", "");
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(), "Could not find schema for test::does_not_exist.");
  }
  TestOp op;
  try {
    c10::Dispatcher::singleton().findSchemaOrThrow(("test::" + op.name).c_str(), "ov");
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Could not find schema for test::" + op.name + ".ov");
  }
  EXPECT_FALSE(c10::Dispatcher::singleton().findSchema({"test::nope", ""}).has_value());
  const auto names = c10::Dispatcher::singleton().getAllOpNames();
  EXPECT_NE(std::find(names.begin(), names.end(), c10::OperatorName("test::" + op.name, "")),
            names.end());
}

TEST(Registration, WrongTypedSignatureIsAClearError) {
  TestOp op;
  op.impl(DispatchKey::CPU, TORCH_FN(record<kCPU>));
  try {
    op.handle().typed<at::Tensor(at::Tensor)>();
    FAIL();
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_EQ(msg.rfind("\nTried to access or call an operator with a wrong signature.\n  operator: "
                        "test::" + op.name + "(Tensor self) -> Tensor\n",
                        0),
              0u)
        << msg;
    EXPECT_NE(msg.find("  correct signature:  at::Tensor (at::Tensor const&)\n"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("  accessed/called as: at::Tensor (at::Tensor)\n"), std::string::npos) << msg;
  }
  // Without unboxed kernels the schema itself is checked.
  TestOp bare;
  EXPECT_THROW(bare.handle().typed<at::Tensor(const at::Tensor&, int64_t)>(), c10::Error);
  EXPECT_NO_THROW(bare.handle().typed<UnarySig>());
}

TEST(Registration, KernelWhoseTypesDisagreeWithTheSchemaIsRejected) {
  TestOp op;
  try {
    op.impl(DispatchKey::CPU, [](const at::Tensor& t, int64_t) { return t; });
    FAIL();
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_EQ(msg.rfind("Inferred operator schema for a C++ kernel function doesn't match the "
                        "expected function schema.\n  operator: test::" + op.name,
                        0),
              0u)
        << msg;
    EXPECT_NE(msg.find("  inferred schema: (Tensor _0, int _1) -> Tensor _0\n"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("  reason: The number of arguments is different. 1 vs 2."),
              std::string::npos)
        << msg;
  }
  try {
    op.impl(DispatchKey::CPU, [](int64_t) { return at::Tensor(); });
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what_without_backtrace())
                  .find("  reason: Type mismatch in argument 1: Tensor vs int"),
              std::string::npos);
  }
}

TEST(Registration, MismatchedKernelSignaturesForOneOperator) {
  torch::Library lib(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
  const std::string name = test_util::unique_op("sig");
  lib.def(name + "(Tensor self, int n) -> Tensor");
  torch::Library impl(torch::Library::IMPL, "test", c10::nullopt, __FILE__, __LINE__);
  impl.impl(name, DispatchKey::CPU, [](const at::Tensor& t, int64_t) { return t; });
  try {
    impl.impl(name, DispatchKey::Meta, [](const at::Tensor& t, int32_t) { return t; });
    FAIL();
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_EQ(msg.rfind("\nMismatch in kernel C++ signatures\n  operator: test::" + name, 0), 0u)
        << msg;
    EXPECT_NE(msg.find("  kernel 1: at::Tensor (at::Tensor const&, long)\n    dispatch key: CPU\n"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("  kernel 2: at::Tensor (at::Tensor const&, int)\n    dispatch key: Meta\n"),
              std::string::npos)
        << msg;
  }
}

TEST(Registration, OneTorchLibraryPerNamespace) {
  torch::Library first(torch::Library::DEF, "onlyonce", c10::nullopt, "first.cpp", 1);
  try {
    torch::Library second(torch::Library::DEF, "onlyonce", c10::nullopt, "second.cpp", 2);
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_STREQ(e.what_without_backtrace(),
                 "Only a single TORCH_LIBRARY can be used to register the namespace onlyonce; "
                 "please put all of your definitions in a single TORCH_LIBRARY block.  If you were "
                 "trying to specify implementations, consider using TORCH_LIBRARY_IMPL (which can "
                 "be duplicated).  If you really intended to define operators for a single "
                 "namespace in a distributed way, you can use TORCH_LIBRARY_FRAGMENT to explicitly "
                 "indicate this.  Previous registration of TORCH_LIBRARY was registered at "
                 "first.cpp:1; latest registration was registered at second.cpp:2");
  }
  // Fragments may add to it.
  torch::Library fragment(torch::Library::FRAGMENT, "onlyonce", c10::nullopt, "f.cpp", 3);
  fragment.def("extra(Tensor x) -> Tensor");
}

TEST(Registration, NamespaceMismatchAndDuplicateDefs) {
  torch::Library lib(torch::Library::FRAGMENT, "test", c10::nullopt, "lib.cpp", 7);
  const std::string name = test_util::unique_op("dup");
  lib.def(name + "(Tensor x) -> Tensor");
  try {
    lib.def(name + "(Tensor x) -> Tensor");
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()),
              "Tried to register an operator (test::" + name + "(Tensor x) -> Tensor) with the "
              "same name and overload name multiple times. Each overload's schema should only be "
              "registered with a single call to def(). Duplicate registration: registered at "
              "lib.cpp:7. Original registration: registered at lib.cpp:7");
  }
  torch::Library impl(torch::Library::IMPL, "test", DispatchKey::CPU, "impl.cpp", 9);
  try {
    impl.impl("other::" + name, TORCH_FN(record<kCPU>));
    FAIL();
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace())
                  .rfind("Explicitly provided namespace (other) in operator name does not match "
                         "namespace of enclosing TORCH_LIBRARY_IMPL block (test).",
                         0),
              0u);
  }
  EXPECT_THROW(impl.def("x(Tensor a) -> Tensor"), c10::Error);
}

TEST(Registration, DefInfersTheSchemaFromAFunction) {
  torch::Library lib(torch::Library::FRAGMENT, "test", c10::nullopt, __FILE__, __LINE__);
  const std::string name = test_util::unique_op("inferred");
  lib.def(name, [](const at::Tensor& a, int64_t, double, bool, at::IntArrayRef,
                   const c10::optional<at::Tensor>&, const at::Scalar&, c10::string_view) {
    return std::make_tuple(a, a);
  });
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow(("test::" + name).c_str(), "");
  EXPECT_EQ(c10::toString(op.schema()),
            "test::" + name +
                "(Tensor _0, int _1, float _2, bool _3, int[] _4, Tensor? _5, Scalar _6, str _7) "
                "-> (Tensor _0, Tensor _1)");
  EXPECT_TRUE(op.hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd));
}

}  // namespace
