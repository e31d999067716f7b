// at::rand, at::randn, uniform_ and normal_ against libtorch 1.13's numbers.
//
// Every expected number below was read off libtorch 1.13 by a throwaway program
// (/tmp/genref/ref2.cpp: the same calls against libtorch, values printed with %.17g); none is
// computed by the code under test. Values compare exactly: a float prints exactly in 17 digits.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "aten/ATen.h"
#include "aten/CPUGeneratorImpl.h"
#include "tests/TestUtils.h"
#include "tests/aten/DistributionsTestValues.h"

namespace {

using distributions_test::Expected;
using distributions_test::factory_cases;
using distributions_test::FactoryCase;
using test_util::error_of;

// The elements of t (in row-major order of its sizes) at the given flat indices, as doubles.
void expect_values(const at::Tensor& t, const Expected& expected) {
  const at::Tensor flat = t.contiguous().to(at::kDouble);
  const double* p = flat.data_ptr<double>();
  for (const auto& e : expected) {
    ASSERT_LT(e.first, flat.numel());
    EXPECT_EQ(p[e.first], e.second) << "element " << e.first;
  }
}

// Same sizes and the same values, element for element (Tensor::equal is another issue's).
bool same_values(const at::Tensor& a, const at::Tensor& b) {
  if (a.sizes() != b.sizes()) return false;
  const at::Tensor x = a.contiguous().to(at::kDouble);
  const at::Tensor y = b.contiguous().to(at::kDouble);
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (x.data_ptr<double>()[i] != y.data_ptr<double>()[i]) return false;
  }
  return true;
}

class RandFactory : public ::testing::TestWithParam<FactoryCase> {};

TEST_P(RandFactory, GivesLibtorchsNumbers) {
  const FactoryCase& c = GetParam();
  const bool normal = std::string(c.op) == "randn";
  at::Tensor t;
  if (c.dtype == at::kFloat || c.dtype == at::kDouble) {
    at::manual_seed(c.seed);
    t = normal ? at::randn({c.n}, c.dtype) : at::rand({c.n}, c.dtype);
  } else {
    at::Generator gen = at::detail::createCPUGenerator(c.seed);
    t = normal ? at::randn({c.n}, gen, c.dtype) : at::rand({c.n}, gen, c.dtype);
  }
  EXPECT_EQ(t.sizes(), at::IntArrayRef({c.n}));
  EXPECT_EQ(t.strides(), at::IntArrayRef({1}));
  EXPECT_EQ(t.scalar_type(), c.dtype);
  EXPECT_FALSE(t.requires_grad());
  EXPECT_TRUE(t.is_leaf());
  expect_values(t, c.expected);
}

INSTANTIATE_TEST_SUITE_P(SeedsSizesDtypes, RandFactory, ::testing::ValuesIn(factory_cases()));

TEST(RandFactory, MultiDimensionalSizesDrawInRowMajorOrder) {
  at::manual_seed(0);
  at::Tensor r = at::rand({3, 4});
  EXPECT_EQ(r.sizes(), at::IntArrayRef({3, 4}));
  EXPECT_EQ(r.strides(), at::IntArrayRef({4, 1}));
  EXPECT_EQ(r.scalar_type(), at::kFloat);
  expect_values(r, {{0, 0.49625658988952637}, {3, 0.13203048706054688}, {11, 0.40171730518341064}});
  at::manual_seed(0);
  expect_values(at::randn({2, 3}), {{0, 1.5409960746765137}, {5, -1.3985954523086548}});
}

// ---- Arguments -------------------------------------------------------------------------------

TEST(UniformNormal, FromToAndMeanStd) {
  at::Generator gen = at::detail::createCPUGenerator(42);
  at::Tensor u = at::empty({100});
  at::Tensor& same = u.uniform_(-3, 7.3, gen);
  EXPECT_TRUE(same.is_same(u));
  // uniform_(-3, 7.3) float, seed 42
  expect_values(u, {{0, 6.0873737335205078},
                    {1, 6.4245409965515137},
                    {2, 0.94349682331085205},
                    {15, 1.4228663444519043},
                    {16, 6.1200623512268066},
                    {17, 2.9112160205841064},
                    {50, -2.948028564453125},
                    {97, 0.41222268342971802},
                    {98, 0.32424065470695496},
                    {99, -2.8331122398376465}});
  gen = at::detail::createCPUGenerator(42);
  u = at::empty({100}, at::kDouble);
  u.uniform_(-3, 7.3, gen);
  expect_values(u, {{0, -2.4010087945972742},
                    {1, -2.3520252755268509},
                    {2, -1.7270634504235869},
                    {15, 3.3080968666360504},
                    {16, -2.0924692153799187},
                    {17, 4.2221734870829479},
                    {50, 4.3059910180726817},
                    {97, 3.2213095389249387},
                    {98, -2.3987954973382828},
                    {99, 6.9049457920588617}});

  gen = at::detail::createCPUGenerator(42);
  at::Tensor n = at::empty({100});
  n.normal_(0.3, 2.7, gen);
  expect_values(n, {{0, 5.5026712417602539},
                    {1, 4.3156671524047852},
                    {2, 2.7319364547729492},
                    {15, 2.3586025238037109},
                    {16, 4.7342557907104492},
                    {17, -0.13091316819190979},
                    {50, 0.51066446304321289},
                    {97, 0.63290762901306152},
                    {98, 1.244642972946167},
                    {99, 1.9666579961776733}});
  gen = at::detail::createCPUGenerator(42);
  n = at::empty({100}, at::kDouble);
  n.normal_(0.3, 2.7, gen);
  expect_values(n, {{0, 1.108801976925712},
                    {1, 0.95442003518414087},
                    {2, 1.0646599649284738},
                    {15, -3.7285963665461734},
                    {16, 1.4372426857080303},
                    {17, 4.3623451443327497},
                    {50, -2.6920113641412047},
                    {97, 0.95114040033489089},
                    {98, 3.2258161285827702},
                    {99, -2.2897411632764086}});

  // Fewer than 16 elements: one normal_distribution<double> draw per element.
  gen = at::detail::createCPUGenerator(42);
  n = at::empty({5});
  n.normal_(0.3, 2.7, gen);
  expect_values(n, {{0, 1.2090640068054199},
                    {1, 0.64778536558151245},
                    {2, 0.93304836750030518},
                    {3, 0.92189919948577881},
                    {4, -2.7317121028900146}});
  gen = at::detail::createCPUGenerator(42);
  n = at::empty({5}, at::kDouble);
  n.normal_(0.3, 2.7, gen);
  expect_values(n, {{0, 1.209063956836419},
                    {1, 0.64778539386879219},
                    {2, 0.93304838107613575},
                    {3, 0.92189917536945221},
                    {4, -2.7317122171930599}});
}

TEST(UniformNormal, DefaultsAreZeroOneAndTheDefaultGenerator) {
  at::manual_seed(0);
  at::Tensor u = at::empty({7});
  u.uniform_();
  at::manual_seed(0);
  EXPECT_TRUE(same_values(u, at::rand({7})));
  at::manual_seed(0);
  at::Tensor n = at::empty({20});
  n.normal_();
  at::manual_seed(0);
  EXPECT_TRUE(same_values(n, at::randn({20})));
}

// ---- Layouts: values go to elements in TensorIterator order (memory order) -------------------

TEST(UniformNormal, TransposedSelfFillsInMemoryOrder) {
  at::Generator gen = at::detail::createCPUGenerator(7);
  at::Tensor base = at::zeros({5, 4});
  at::Tensor t = base.t();
  t.uniform_(0, 1, gen);
  expect_values(base,
                {{0, 0.53492254018783569},  {1, 0.19880318641662598},  {2, 0.65921169519424438},
                 {3, 0.65689027309417725},  {4, 0.23276156187057495},  {5, 0.42506140470504761},
                 {6, 0.20708602666854858},  {7, 0.62973636388778687},  {8, 0.36531615257263184},
                 {9, 0.85126835107803345},  {10, 0.85494315624237061}, {11, 0.55093520879745483},
                 {12, 0.28683900833129883}, {13, 0.20631939172744751}, {14, 0.44509017467498779},
                 {15, 0.35928595066070557}, {16, 0.72038042545318604}, {17, 0.073051929473876953},
                 {18, 0.96991962194442749}, {19, 0.10778653621673584}});

  // 20 elements but not contiguous: per-element draws, not the 16-wide fill.
  gen = at::detail::createCPUGenerator(7);
  base = at::zeros({5, 4});
  base.t().normal_(0, 1, gen);
  expect_values(base,
                {{0, -0.14679509401321411}, {1, 0.78614127635955811},  {2, 0.94682163000106812},
                 {3, -1.1143440008163452},  {4, 1.6907901763916016},   {5, -0.89482790231704712},
                 {6, -0.35562503337860107}, {7, 1.2323857545852661},   {8, 0.13817265629768372},
                 {9, -1.6821985244750977},  {10, 0.317678302526474},   {11, 0.13280697166919708},
                 {12, 0.13732409477233887}, {13, 0.24054612219333649}, {14, 1.3954508304595947},
                 {15, 1.3470226526260376},  {16, 2.4382081031799316},  {17, 0.20275828242301941},
                 {18, 2.4505412578582764},  {19, 2.025601863861084}});

  gen = at::detail::createCPUGenerator(7);
  base = at::zeros({8, 4});
  base.t().normal_(0, 1, gen);
  expect_values(base,
                {{0, -0.14679509401321411},  {1, 0.78614127635955811},   {2, 0.94682163000106812},
                 {3, -1.1143440008163452},   {4, 1.6907901763916016},    {5, -0.89482790231704712},
                 {6, -0.35562503337860107},  {7, 1.2323857545852661},    {8, 0.13817265629768372},
                 {9, -1.6821985244750977},   {10, 0.317678302526474},    {11, 0.13280697166919708},
                 {12, 0.13732409477233887},  {13, 0.24054612219333649},  {14, 1.3954508304595947},
                 {15, 1.3470226526260376},   {16, 2.4382081031799316},   {17, 0.20275828242301941},
                 {18, 2.4505412578582764},   {19, 2.025601863861084},    {20, 1.7791550159454346},
                 {21, -0.9179307222366333},  {22, -0.4578188955783844},  {23, -0.72447329759597778},
                 {24, 1.2798781394958496},   {25, -0.99406623840332031}, {26, 1.8149727582931519},
                 {27, -0.60284829139709473}, {28, 1.6148147583007812},   {29, 1.9301981925964355},
                 {30, -0.42250147461891174}, {31, -0.083186380565166473}});
}

TEST(UniformNormal, SlicedSelfLeavesTheOtherElements) {
  at::Generator gen = at::detail::createCPUGenerator(7);
  at::Tensor base = at::zeros({4, 8});
  base.slice(1, 0, 8, 2).uniform_(0, 1, gen);
  expect_values(base, {{0, 0.53492254018783569},  {1, 0},  {2, 0.19880318641662598},  {3, 0},
                       {4, 0.65921169519424438},  {5, 0},  {6, 0.65689027309417725},  {7, 0},
                       {8, 0.23276156187057495},  {9, 0},  {10, 0.42506140470504761}, {11, 0},
                       {12, 0.20708602666854858}, {13, 0}, {14, 0.62973636388778687}, {15, 0},
                       {16, 0.36531615257263184}, {17, 0}, {18, 0.85126835107803345}, {19, 0},
                       {20, 0.85494315624237061}, {21, 0}, {22, 0.55093520879745483}, {23, 0},
                       {24, 0.28683900833129883}, {25, 0}, {26, 0.20631939172744751}, {27, 0},
                       {28, 0.44509017467498779}, {29, 0}, {30, 0.35928595066070557}, {31, 0}});

  gen = at::detail::createCPUGenerator(7);
  base = at::zeros({4, 8});
  base.slice(1, 0, 8, 2).normal_(0, 1, gen);
  expect_values(base, {{0, -0.14679509401321411},  {1, 0},  {2, 0.78614127635955811},   {3, 0},
                       {4, 0.94682163000106812},   {5, 0},  {6, -1.1143440008163452},   {7, 0},
                       {8, 1.6907901763916016},    {9, 0},  {10, -0.89482790231704712}, {11, 0},
                       {12, -0.35562503337860107}, {13, 0}, {14, 1.2323857545852661},   {15, 0},
                       {16, 0.13817265629768372},  {17, 0}, {18, -1.6821985244750977},  {19, 0},
                       {20, 0.317678302526474},    {21, 0}, {22, 0.13280697166919708},  {23, 0},
                       {24, 0.13732409477233887},  {25, 0}, {26, 0.24054612219333649},  {27, 0},
                       {28, 1.3954508304595947},   {29, 0}, {30, 1.3470226526260376},   {31, 0}});

  gen = at::detail::createCPUGenerator(7);
  base = at::zeros({4, 8}, at::kDouble);
  base.slice(1, 0, 8, 2).normal_(0, 1, gen);
  expect_values(base, {{0, -0.1467950974849952},   {1, 0},  {2, 0.78614129872353578},   {3, 0},
                       {4, 0.9468216090039564},    {5, 0},  {6, -1.1143440212610307},   {7, 0},
                       {8, 1.6907901257942333},    {9, 0},  {10, -0.89482787917263862}, {11, 0},
                       {12, -0.35562502700621362}, {13, 0}, {14, 1.2323857451651945},   {15, 0},
                       {16, 0.13817266368739245},  {17, 0}, {18, -1.6821984860536687},  {19, 0},
                       {20, 0.31767831539796804},  {21, 0}, {22, 0.13280696453151092},  {23, 0},
                       {24, 0.13732409647332361},  {25, 0}, {26, 0.24054612860502139},  {27, 0},
                       {28, 1.3954507962006726},   {29, 0}, {30, 1.3470226203485132},   {31, 0}});
}

// ---- Generators ------------------------------------------------------------------------------

TEST(UniformNormal, ExplicitGeneratorLeavesTheDefaultOneAlone) {
  at::manual_seed(0);
  at::Generator gen = at::detail::createCPUGenerator(42);
  expect_values(at::rand({1}, gen), {{0, 0.88226926326751709}});
  // The default generator has not moved: its first draw for seed 0.
  expect_values(at::rand({1}), {{0, 0.49625658988952637}});
  // And the explicit one continued: seed 42's second value.
  expect_values(at::rand({1}, gen), {{0, 0.91500395536422729}});
}

TEST(UniformNormal, AnUndefinedGeneratorMeansTheDefaultOne) {
  at::manual_seed(0);
  expect_values(at::rand({1}, at::Generator()), {{0, 0.49625658988952637}});
  at::manual_seed(0);
  expect_values(at::rand({1}, c10::nullopt), {{0, 0.49625658988952637}});
}

TEST(UniformNormal, NormalSamplesComeInCachedPairs) {
  at::Generator gen = at::detail::createCPUGenerator(3);
  at::Tensor a = at::randn({3}, gen, at::kDouble);
  expect_values(a, {{0, 0.8032760780963506}, {1, 0.17483339327910355}, {2, 0.088978095025878931}});
  // The third draw cached its pair's sine half; the next call starts with it.
  at::Tensor b = at::randn({3}, gen, at::kDouble);
  expect_values(b, {{0, -0.61371800772935781}, {1, 0.04618245168476013}, {2, -1.3682591776659838}});
  // A float tensor below 16 elements draws from the same (double) cache.
  expect_values(at::randn({1}, gen), {{0, 0.33749508857727051}});

  // Reseeding drops the cache.
  gen = at::detail::createCPUGenerator(3);
  at::randn({3}, gen, at::kDouble);
  gen.set_current_seed(3);
  expect_values(at::randn({3}, gen, at::kDouble),
                {{0, 0.8032760780963506}, {1, 0.17483339327910355}, {2, 0.088978095025878931}});
}

TEST(UniformNormal, ACloneContinuesTheSameSequenceCacheIncluded) {
  at::Generator gen = at::detail::createCPUGenerator(3);
  at::randn({3}, gen, at::kDouble);  // leaves a cached sample
  at::Generator copy = gen.clone();
  EXPECT_NE(copy, gen);
  const Expected next{
      {0, -0.61371800772935781}, {1, 0.04618245168476013}, {2, -1.3682591776659838}};
  expect_values(at::randn({3}, gen, at::kDouble), next);
  expect_values(at::randn({3}, copy, at::kDouble), next);
}

// A generator for another device, to see the CPU kernels refuse it.
struct FakeCUDAGeneratorImpl : c10::GeneratorImpl {
  FakeCUDAGeneratorImpl()
      : GeneratorImpl(c10::Device(c10::DeviceType::CUDA, 0), c10::DispatchKeySet()) {}
  void set_current_seed(uint64_t) override {}
  uint64_t current_seed() const override { return 0; }
  uint64_t seed() override { return 0; }
  void set_state(const c10::TensorImpl&) override {}
  c10::intrusive_ptr<c10::TensorImpl> get_state() const override { return {}; }
  FakeCUDAGeneratorImpl* clone_impl() const override { return new FakeCUDAGeneratorImpl(); }
};

TEST(UniformNormal, ErrorsAsLibtorchWordsThem) {
  EXPECT_EQ(error_of([] { at::empty({3}).uniform_(2, 1); }),
            "uniform_ expects to return a [from, to) range, but found from=2 > to=1");
  EXPECT_EQ(error_of([] { at::empty({3}).normal_(0, -1); }),
            "normal expects std >= 0.0, but found std -1");
  EXPECT_EQ(error_of([] { at::empty({0}).normal_(0, -1); }),
            "normal expects std >= 0.0, but found std -1");
  EXPECT_EQ(error_of([] { at::empty({3}).normal_(0, std::nan("")); }),
            "normal expects std >= 0.0, but found std nan");
  EXPECT_EQ(error_of([] { at::empty({3}, at::kLong).uniform_(0, 1); }),
            "\"check_uniform_bounds\" not implemented for 'Long'");
  EXPECT_EQ(error_of([] { at::empty({3}, at::kBool).uniform_(0, 1); }),
            "\"check_uniform_bounds\" not implemented for 'Bool'");
  EXPECT_EQ(error_of([] { at::empty({3}, at::kLong).normal_(0, 1); }),
            "\"normal_kernel_cpu\" not implemented for 'Long'");
  EXPECT_EQ(error_of([] { at::rand({3}, at::kLong); }),
            "\"check_uniform_bounds\" not implemented for 'Long'");
  EXPECT_EQ(error_of([] { at::randn({3}, at::kInt); }),
            "\"normal_kernel_cpu\" not implemented for 'Int'");
  EXPECT_EQ(error_of([] { at::empty({3}, at::kHalf).uniform_(0, 1e6); }),
            "to is out of bounds for c10::Half");
  EXPECT_EQ(error_of([] { at::empty({3}).uniform_(0, 1e39); }), "to is out of bounds for float");
  EXPECT_EQ(error_of([] { at::empty({3}).uniform_(-3e38, 3e38); }),
            "uniform_ expects to-from <= std::numeric_limits<Float>::max(), but found to=3e+38 "
            "and from=-3e+38 which result in to-from to exceed the limit");
  at::Generator cuda = at::make_generator<FakeCUDAGeneratorImpl>();
  EXPECT_EQ(error_of([&] { at::rand({2}, cuda); }),
            "Expected a 'cpu' device type for generator but found 'cuda'");
  EXPECT_EQ(error_of([&] { at::empty({2}).normal_(0, 1, cuda); }),
            "Expected a 'cpu' device type for generator but found 'cuda'");
}

// ---- Autograd --------------------------------------------------------------------------------

TEST(UniformNormal, RandIgnoresRequiresGradInTheAtApi) {
  // libtorch's at:: factories drop requires_grad from the options (torch:: ones honour it).
  at::Tensor t = at::rand({2}, at::TensorOptions().requires_grad(true));
  EXPECT_FALSE(t.requires_grad());
  EXPECT_TRUE(t.is_leaf());
}

TEST(UniformNormal, TorchRandHonoursRequiresGrad) {
  // libtorch 1.13: torch::rand / torch::randn give leaves that require grad.
  at::manual_seed(0);
  at::Tensor t = torch::rand({2}, at::requires_grad());
  EXPECT_TRUE(t.requires_grad());
  EXPECT_TRUE(t.is_leaf());
  expect_values(t, {{0, 0.49625658988952637}, {1, 0.76822179555892944}});
  at::Tensor n = torch::randn({1}, at::detail::createCPUGenerator(42), at::kDouble);
  EXPECT_FALSE(n.requires_grad());
  expect_values(n, {{0, 0.33669035438385886}});
}

TEST(UniformNormal, InPlaceOnALeafThatRequiresGradIsAnError) {
  at::Tensor leaf = at::zeros({3}).requires_grad_();
  const std::string text =
      "a leaf Variable that requires grad is being used in an in-place operation.";
  EXPECT_EQ(error_of([&] { leaf.uniform_(); }), text);
  EXPECT_EQ(error_of([&] { leaf.normal_(); }), text);
  at::NoGradGuard no_grad;
  EXPECT_EQ(error_of([&] { leaf.uniform_(); }), "no error");
}

TEST(UniformNormal, OnANonLeafTheGradientIsZero) {
  at::Tensor leaf = at::ones({3}).requires_grad_();
  at::Tensor y = leaf * 2;
  y.normal_();
  ASSERT_TRUE(y.grad_fn());
  EXPECT_EQ(y.grad_fn()->name(), "NormalBackward0");
  at::Tensor z = leaf * 2;
  z.uniform_();
  EXPECT_EQ(z.grad_fn()->name(), "UniformBackward0");
  (y.sum() + z.sum()).backward();
  EXPECT_TRUE(same_values(leaf.grad(), at::zeros({3})));
}

TEST(UniformNormal, BumpsTheVersion) {
  at::Tensor t = at::empty({4});
  const auto v = t._version();
  t.uniform_();
  t.normal_();
  EXPECT_EQ(t._version(), v + 2);
}

// ---- Boxed: the Generator travels in an IValue -----------------------------------------------

TEST(UniformNormal, BoxedCallCarriesTheGenerator) {
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("aten::rand", "generator");
  EXPECT_EQ(op.schema().arguments()[1].type()->str(), "Generator?");
  torch::jit::Stack stack;
  stack.emplace_back(std::vector<int64_t>{2});
  stack.emplace_back(at::detail::createCPUGenerator(42));
  for (int i = 0; i < 4; ++i) stack.emplace_back();  // dtype, layout, device, pin_memory
  op.callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  expect_values(stack[0].toTensor(), {{0, 0.88226926326751709}, {1, 0.91500395536422729}});
}

}  // namespace
