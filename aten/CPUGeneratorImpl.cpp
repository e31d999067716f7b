#include "aten/CPUGeneratorImpl.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "aten/core/Tensor.h"
#include "aten/detail/EmptyTensor.h"

namespace at {

namespace detail {

// Note [CPU generator state layout]
// get_state writes, and set_state reads, libtorch's byte layout: the legacy TH generator struct
// (the mt19937 state widened to 64-bit words, plus three doubles of which only normal_y — the
// cached double normal sample — still means anything) followed by the cached float sample. A
// state saved by libtorch 1.13 (5056 bytes) or by the older TH (5048 bytes) loads here.
struct CPUGeneratorImplStateLegacy {
  uint64_t the_initial_seed;
  int left;
  int seeded;
  uint64_t next;
  uint64_t state[at::MERSENNE_STATE_N];
  double normal_x;
  double normal_y;
  double normal_rho;
  int normal_is_valid;
};

struct CPUGeneratorImplState {
  CPUGeneratorImplStateLegacy legacy_pod;
  float next_float_normal_sample;
  bool is_next_float_normal_sample_valid;
};

static_assert(std::is_standard_layout<CPUGeneratorImplStateLegacy>::value &&
                  std::is_standard_layout<CPUGeneratorImplState>::value,
              "the generator state structs are copied byte for byte");
static_assert(sizeof(CPUGeneratorImplStateLegacy) == 5048 && sizeof(CPUGeneratorImplState) == 5056,
              "libtorch's state sizes");

namespace {
uint64_t make64BitsFrom32Bits(uint32_t hi, uint32_t lo) {
  return (static_cast<uint64_t>(hi) << 32) | lo;
}
}  // namespace

const Generator& getDefaultCPUGenerator() {
  static Generator default_gen_cpu = createCPUGenerator(c10::detail::getNonDeterministicRandom());
  return default_gen_cpu;
}

Generator createCPUGenerator(uint64_t seed_val) {
  return make_generator<CPUGeneratorImpl>(seed_val);
}

}  // namespace detail

CPUGeneratorImpl::CPUGeneratorImpl(uint64_t seed_in)
    : c10::GeneratorImpl{c10::Device(c10::DeviceType::CPU),
                         c10::DispatchKeySet(c10::DispatchKey::CPU)},
      engine_{seed_in} {}

void CPUGeneratorImpl::set_current_seed(uint64_t seed) {
  next_float_normal_sample_.reset();
  next_double_normal_sample_.reset();
  engine_ = mt19937(seed);
}

uint64_t CPUGeneratorImpl::current_seed() const {
  return engine_.seed();
}

uint64_t CPUGeneratorImpl::seed() {
  const uint64_t random = c10::detail::getNonDeterministicRandom();
  set_current_seed(random);
  return random;
}

c10::DeviceType CPUGeneratorImpl::device_type() {
  return c10::DeviceType::CPU;
}

uint32_t CPUGeneratorImpl::random() {
  return engine_();
}

uint64_t CPUGeneratorImpl::random64() {
  const uint32_t random1 = engine_();
  const uint32_t random2 = engine_();
  return detail::make64BitsFrom32Bits(random1, random2);
}

c10::optional<float> CPUGeneratorImpl::next_float_normal_sample() {
  return next_float_normal_sample_;
}
c10::optional<double> CPUGeneratorImpl::next_double_normal_sample() {
  return next_double_normal_sample_;
}
void CPUGeneratorImpl::set_next_float_normal_sample(c10::optional<float> randn) {
  next_float_normal_sample_ = randn;
}
void CPUGeneratorImpl::set_next_double_normal_sample(c10::optional<double> randn) {
  next_double_normal_sample_ = randn;
}

at::mt19937 CPUGeneratorImpl::engine() {
  return engine_;
}
void CPUGeneratorImpl::set_engine(at::mt19937 engine) {
  engine_ = engine;
}

std::shared_ptr<CPUGeneratorImpl> CPUGeneratorImpl::clone() const {
  return std::shared_ptr<CPUGeneratorImpl>(clone_impl());
}

CPUGeneratorImpl* CPUGeneratorImpl::clone_impl() const {
  auto* gen = new CPUGeneratorImpl();
  gen->set_engine(engine_);
  gen->set_next_float_normal_sample(next_float_normal_sample_);
  gen->set_next_double_normal_sample(next_double_normal_sample_);
  return gen;
}

// See Note [CPU generator state layout].
c10::intrusive_ptr<c10::TensorImpl> CPUGeneratorImpl::get_state() const {
  using detail::CPUGeneratorImplState;
  Tensor rng_state = detail::empty_cpu({static_cast<int64_t>(sizeof(CPUGeneratorImplState))},
                                       c10::ScalarType::Byte);
  // Zeroed byte for byte, padding included, so equal states give equal tensors.
  CPUGeneratorImplState accum;
  std::memset(&accum, 0, sizeof(accum));
  const mt19937_data_pod pod = engine_.data();
  accum.legacy_pod.the_initial_seed = pod.seed_;
  accum.legacy_pod.left = pod.left_;
  accum.legacy_pod.seeded = pod.seeded_;
  accum.legacy_pod.next = pod.next_;
  std::copy(pod.state_.begin(), pod.state_.end(), std::begin(accum.legacy_pod.state));
  if (next_double_normal_sample_) {
    accum.legacy_pod.normal_is_valid = true;
    accum.legacy_pod.normal_y = *next_double_normal_sample_;
  }
  if (next_float_normal_sample_) {
    accum.is_next_float_normal_sample_valid = true;
    accum.next_float_normal_sample = *next_float_normal_sample_;
  }
  std::memcpy(rng_state.data_ptr(), &accum, sizeof(accum));
  return rng_state.getIntrusivePtr();
}

void CPUGeneratorImpl::set_state(const c10::TensorImpl& new_state) {
  using detail::CPUGeneratorImplState;
  using detail::CPUGeneratorImplStateLegacy;
  constexpr size_t size_legacy = sizeof(CPUGeneratorImplStateLegacy);
  constexpr size_t size_current = sizeof(CPUGeneratorImplState);
  detail::check_rng_state(new_state);

  c10::optional<float> float_normal_sample;
  c10::optional<double> double_normal_sample;
  CPUGeneratorImplState current;
  std::memset(&current, 0, sizeof(current));
  const auto new_state_size = static_cast<size_t>(new_state.numel());
  if (new_state_size == size_legacy) {
    std::memcpy(&current.legacy_pod, new_state.data(), size_legacy);
    // The legacy struct kept the uniforms of the pair, not the sample: rebuild its sine half.
    if (current.legacy_pod.normal_is_valid) {
      const double r = current.legacy_pod.normal_rho;
      const double theta = 2.0 * 3.14159265358979323846 * current.legacy_pod.normal_x;
      double_normal_sample = r * std::sin(theta);
    }
  } else if (new_state_size == size_current) {
    std::memcpy(&current, new_state.data(), size_current);
    if (current.is_next_float_normal_sample_valid) {
      float_normal_sample = current.next_float_normal_sample;
    }
    if (current.legacy_pod.normal_is_valid) double_normal_sample = current.legacy_pod.normal_y;
  } else {
    TORCH_CHECK(false, "Expected either a CPUGeneratorImplStateLegacy of size ", size_legacy,
                " or a CPUGeneratorImplState of size ", size_current,
                " but found the input RNG state size to be ", new_state_size);
  }

  const CPUGeneratorImplStateLegacy& legacy = current.legacy_pod;
  mt19937_data_pod rng_data;
  std::copy(std::begin(legacy.state), std::end(legacy.state), rng_data.state_.begin());
  rng_data.seed_ = legacy.the_initial_seed;
  rng_data.left_ = legacy.left;
  rng_data.seeded_ = legacy.seeded;
  rng_data.next_ = static_cast<uint32_t>(legacy.next);
  mt19937 engine;
  engine.set_data(rng_data);
  TORCH_CHECK(engine.is_valid(), "Invalid mt19937 state");
  engine_ = engine;
  next_float_normal_sample_ = float_normal_sample;
  next_double_normal_sample_ = double_normal_sample;
}

}  // namespace at
