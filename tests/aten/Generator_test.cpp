// at::Generator, c10::GeneratorImpl and at::CPUGeneratorImpl: the API as libtorch 1.13 has it.
//
// Expected numbers and texts were read off libtorch 1.13 by throwaway programs
// (/tmp/genref/ref2.cpp, ref3.cpp: the same calls against libtorch); none is computed by the code
// under test.

#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <stdexcept>

#include "aten/ATen.h"
#include "aten/CPUGeneratorImpl.h"
#include "aten/core/DistributionsHelper.h"
#include "dispatcher/Library.h"
#include "tests/TestUtils.h"

namespace {

// A custom operator that draws from a generator, as a libtorch extension would write one.
at::Tensor noise_kernel(const at::Tensor& self, c10::optional<at::Generator> generator) {
  auto* gen = at::get_generator_or_default<at::CPUGeneratorImpl>(
      generator, at::detail::getDefaultCPUGenerator());
  at::Tensor out = at::empty(self.sizes(), at::kLong);
  std::lock_guard<std::mutex> lock(gen->mutex_);
  for (int64_t i = 0; i < out.numel(); ++i) out.data_ptr<int64_t>()[i] = gen->random() % 1000;
  return out;
}

TORCH_LIBRARY(generator_test, m) {
  m.def("noise(Tensor self, *, Generator? generator=None) -> Tensor");
  m.def("noise_inferred", TORCH_FN(noise_kernel));
}
TORCH_LIBRARY_IMPL(generator_test, CPU, m) {
  m.impl("noise", TORCH_FN(noise_kernel));
}

using test_util::error_of;

TEST(CPUGenerator, RawDrawsAreTheEngines) {
  at::Generator gen = at::detail::createCPUGenerator(42);
  auto* impl = gen.get<at::CPUGeneratorImpl>();
  EXPECT_EQ(impl->random(), 1608637542u);
  EXPECT_EQ(impl->random(), 3421126067u);
  EXPECT_EQ(impl->random(), 4083286876u);
  // Two draws, the first one the high word.
  EXPECT_EQ(impl->random64(), 3383774585544766570u);
  EXPECT_EQ(impl->random64(), 14382760288963374780u);
}

TEST(CPUGenerator, Identity) {
  at::Generator gen = at::detail::createCPUGenerator(5);
  EXPECT_TRUE(gen.defined());
  EXPECT_EQ(gen.current_seed(), 5u);
  EXPECT_EQ(gen.device(), c10::Device(c10::DeviceType::CPU));
  EXPECT_EQ(gen.device().str(), "cpu");
  EXPECT_EQ(gen.key_set(), c10::DispatchKeySet(c10::DispatchKey::CPU));
  EXPECT_EQ(at::CPUGeneratorImpl::device_type(), c10::DeviceType::CPU);
  EXPECT_EQ(at::detail::createCPUGenerator().current_seed(), c10::default_rng_seed_val);
  EXPECT_EQ(c10::default_rng_seed_val, 67280421310721u);

  // Copies share the implementation; clone() does not.
  at::Generator copy = gen;
  EXPECT_EQ(copy, gen);
  EXPECT_EQ(copy.unsafeGetGeneratorImpl(), gen.unsafeGetGeneratorImpl());
  at::Generator cloned = gen.clone();
  EXPECT_NE(cloned, gen);
  EXPECT_EQ(cloned.current_seed(), 5u);

  const at::Generator& def = at::detail::getDefaultCPUGenerator();
  EXPECT_EQ(def, at::detail::getDefaultCPUGenerator());
  EXPECT_EQ(def.device().str(), "cpu");
}

TEST(CPUGenerator, SeedingAndCloning) {
  at::Generator gen = at::detail::createCPUGenerator(0);
  auto* impl = gen.get<at::CPUGeneratorImpl>();
  impl->random();
  at::Generator cloned = gen.clone();
  auto* cloned_impl = cloned.get<at::CPUGeneratorImpl>();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(impl->random(), cloned_impl->random());

  gen.set_current_seed(42);
  EXPECT_EQ(gen.current_seed(), 42u);
  EXPECT_EQ(impl->random(), 1608637542u);

  // seed() picks a non-deterministic seed, installs it and returns it.
  const uint64_t s = gen.seed();
  EXPECT_EQ(gen.current_seed(), s);
  EXPECT_LT(s, uint64_t{1} << 53);

  // The shared_ptr clone of the implementation.
  std::shared_ptr<at::CPUGeneratorImpl> twin = impl->clone();
  EXPECT_EQ(twin->random(), impl->random());
}

TEST(CPUGenerator, NormalCacheAccessors) {
  at::Generator gen = at::detail::createCPUGenerator(1);
  auto* impl = gen.get<at::CPUGeneratorImpl>();
  EXPECT_FALSE(impl->next_double_normal_sample().has_value());
  impl->set_next_double_normal_sample(0.5);
  impl->set_next_float_normal_sample(0.25f);
  EXPECT_EQ(*impl->next_double_normal_sample(), 0.5);
  EXPECT_EQ(*impl->next_float_normal_sample(), 0.25f);
  gen.set_current_seed(1);  // reseeding drops both
  EXPECT_FALSE(impl->next_double_normal_sample().has_value());
  EXPECT_FALSE(impl->next_float_normal_sample().has_value());
}

TEST(CPUGenerator, ManualSeedReseedsTheDefaultGenerator) {
  at::manual_seed(42);
  EXPECT_EQ(at::detail::getDefaultCPUGenerator().current_seed(), 42u);
  torch::manual_seed(7);
  EXPECT_EQ(at::detail::getDefaultCPUGenerator().current_seed(), 7u);
}

TEST(CPUGenerator, TheLockIsTheImplementationsMutex) {
  at::Generator gen = at::detail::createCPUGenerator(1);
  EXPECT_EQ(&gen.mutex(), &gen.unsafeGetGeneratorImpl()->mutex_);
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_current_seed(2);
  EXPECT_EQ(gen.current_seed(), 2u);
}

// See Note [CPU generator state layout]. The weighted byte sums (sum of byte[i] * (i % 251 + 1))
// were computed by libtorch's own get_state bytes.
uint64_t weighted_sum(const at::Tensor& state) {
  const uint8_t* p = state.data_ptr<uint8_t>();
  uint64_t sum = 0;
  for (int64_t i = 0; i < state.numel(); ++i) sum += p[i] * static_cast<uint64_t>(i % 251 + 1);
  return sum;
}

TEST(CPUGeneratorState, BytesAsLibtorchLaysThemOut) {
  at::Generator fresh = at::detail::createCPUGenerator(42);
  at::Tensor st = fresh.get_state();
  EXPECT_EQ(st.sizes(), at::IntArrayRef({5056}));
  EXPECT_EQ(st.scalar_type(), at::kByte);
  EXPECT_EQ(weighted_sum(st), 39974787u);

  at::Generator gen = at::detail::createCPUGenerator(42);
  at::randn({3}, gen, at::kDouble);  // 8 draws, and a cached double sample
  st = gen.get_state();
  EXPECT_EQ(weighted_sum(st), 40545375u);
  const uint8_t* p = st.data_ptr<uint8_t>();
  int left;
  uint64_t next;
  double normal_y;
  int normal_is_valid;
  std::memcpy(&left, p + 8, sizeof left);
  std::memcpy(&next, p + 16, sizeof next);
  std::memcpy(&normal_y, p + 24 + 624 * 8 + 8, sizeof normal_y);
  std::memcpy(&normal_is_valid, p + 24 + 624 * 8 + 24, sizeof normal_is_valid);
  EXPECT_EQ(left, 617);
  EXPECT_EQ(next, 8u);
  EXPECT_EQ(normal_y, 0.23033302791461191);
  EXPECT_EQ(normal_is_valid, 1);
}

TEST(CPUGeneratorState, SetStateContinuesTheSequence) {
  at::Generator gen = at::detail::createCPUGenerator(42);
  at::randn({3}, gen, at::kDouble);
  at::Generator other = at::detail::createCPUGenerator(0);
  other.set_state(gen.get_state());
  EXPECT_EQ(other.current_seed(), 42u);
  at::Tensor r = at::randn({4}, other, at::kDouble);
  const double expected[] = {0.23033302791461191, -1.1228563767381703, -0.18632829929177447,
                             2.2082013355893912};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r.data_ptr<double>()[i], expected[i]);

  // The 5048-byte legacy layout loads too; its cached sample is rebuilt from normal_x/normal_rho
  // (zeros here, so 0).
  at::Generator legacy_gen = at::detail::createCPUGenerator(0);
  legacy_gen.set_state(gen.get_state().slice(0, 0, 5048).clone());
  at::Tensor l = at::randn({2}, legacy_gen, at::kDouble);
  EXPECT_EQ(l.data_ptr<double>()[0], 0.0);
  EXPECT_EQ(l.data_ptr<double>()[1], -1.1228563767381703);
}

TEST(CPUGeneratorState, Errors) {
  at::Generator gen = at::detail::createCPUGenerator(1);
  EXPECT_EQ(error_of([&] { gen.set_state(at::zeros({10}, at::kByte)); }),
            "Expected either a CPUGeneratorImplStateLegacy of size 5048 or a "
            "CPUGeneratorImplState of size 5056 but found the input RNG state size to be 10");
  EXPECT_EQ(error_of([&] { gen.set_state(at::zeros({5056}, at::kFloat)); }),
            "RNG state must be a torch.ByteTensor");
  EXPECT_EQ(error_of([&] {
              gen.set_state(at::zeros({5056, 2}, at::kByte).t());
            }),
            "RNG state must be contiguous");
  EXPECT_EQ(error_of([&] { gen.set_state(at::zeros({5056}, at::kByte)); }),
            "Invalid mt19937 state");
  EXPECT_EQ(error_of([&] { gen.set_state(at::Tensor()); }), "Undefined tensor is not allowed");
}

TEST(Generator, UndefinedAndChecks) {
  at::Generator none;
  EXPECT_FALSE(none.defined());
  EXPECT_EQ(error_of([] { at::Generator(c10::intrusive_ptr<c10::GeneratorImpl>()); }),
            "GeneratorImpl with nullptr is not supported");
  EXPECT_THROW(at::Generator(c10::intrusive_ptr<c10::GeneratorImpl>()), std::runtime_error);
  EXPECT_EQ(error_of([] { at::check_generator<at::CPUGeneratorImpl>(c10::nullopt); }),
            "Expected Generator but received nullopt");
  EXPECT_EQ(error_of([&] { at::check_generator<at::CPUGeneratorImpl>(none); }),
            "Generator with undefined implementation is not allowed");

  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(3);
  EXPECT_EQ(at::check_generator<at::CPUGeneratorImpl>(gen), gen.get<at::CPUGeneratorImpl>());
  const at::Generator& def = at::detail::getDefaultCPUGenerator();
  EXPECT_EQ(at::get_generator_or_default<at::CPUGeneratorImpl>(gen, def),
            gen.get<at::CPUGeneratorImpl>());
  EXPECT_EQ(at::get_generator_or_default<at::CPUGeneratorImpl>(c10::nullopt, def),
            def.get<at::CPUGeneratorImpl>());
  EXPECT_EQ(at::get_generator_or_default<at::CPUGeneratorImpl>(none, def),
            def.get<at::CPUGeneratorImpl>());
}

TEST(Generator, InAnIValue) {
  at::Generator gen = at::detail::createCPUGenerator(3);
  c10::IValue v(gen);
  EXPECT_TRUE(v.isGenerator());
  EXPECT_EQ(v.tagKind(), "Generator");
  EXPECT_EQ(v.toGenerator(), gen);
  EXPECT_EQ(v.to<at::Generator>(), gen);
  c10::IValue copy = v;
  EXPECT_EQ(copy, v);
  EXPECT_NE(c10::IValue(gen.clone()), v);
  c10::IValue none(c10::optional<at::Generator>{});
  EXPECT_TRUE(none.isNone());
  EXPECT_FALSE(none.to<c10::optional<at::Generator>>().has_value());
  EXPECT_EQ(error_of([] { c10::IValue(1).toGenerator(); }), "Expected Generator but got Int");
}

TEST(Distributions, HelpersDrawAsTheKernelsDo) {
  at::Generator gen = at::detail::createCPUGenerator(0);
  auto* impl = gen.get<at::CPUGeneratorImpl>();
  at::uniform_real_distribution<float> uniform(0, 1);
  EXPECT_EQ(uniform(impl), 0.49625658988952637f);  // at::rand({1}) for seed 0
  at::normal_distribution<double> normal(0, 1);
  gen.set_current_seed(42);
  EXPECT_EQ(normal(impl), 0.33669035438385886);  // at::randn({1}, kDouble) for seed 42
  EXPECT_TRUE(impl->next_double_normal_sample().has_value());
  EXPECT_EQ(error_of([] { at::uniform_real_distribution<float>(2, 1); }),
            "Expected from <= to to be true, but got false.  (Could this error message be "
            "improved?  If so, please report an enhancement request to PyTorch.)");
  EXPECT_EQ(error_of([] { at::normal_distribution<double>(0, -1); }),
            "stdv_in must be positive: -1");
}

TEST(Generator, ThroughACustomOperator) {
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("generator_test::noise", "");
  auto typed = op.typed<at::Tensor(const at::Tensor&, c10::optional<at::Generator>)>();
  // mt19937(42)'s first draws, modulo 1000.
  at::Tensor a = typed.call(at::empty({2}), at::detail::createCPUGenerator(42));
  EXPECT_EQ(a.data_ptr<int64_t>()[0], 542);
  EXPECT_EQ(a.data_ptr<int64_t>()[1], 67);

  torch::jit::Stack stack{c10::IValue(at::empty({1})),
                          c10::IValue(at::detail::createCPUGenerator(42))};
  op.callBoxed(&stack);
  EXPECT_EQ(stack[0].toTensor().data_ptr<int64_t>()[0], 542);

  auto inferred =
      c10::Dispatcher::singleton().findSchemaOrThrow("generator_test::noise_inferred", "");
  EXPECT_EQ(c10::toString(inferred.schema()),
            "generator_test::noise_inferred(Tensor _0, Generator? _1) -> Tensor _0");
}

}  // namespace
