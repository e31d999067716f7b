#include "aten/core/DeprecatedTypeProperties.h"

#include <array>
#include <memory>

#include "aten/ATen.h"

namespace at {

DeprecatedTypeProperties& getDeprecatedTypeProperties(Backend backend, ScalarType s) {
  constexpr size_t kBackends = static_cast<size_t>(Backend::NumOptions);
  constexpr size_t kScalarTypes = static_cast<size_t>(ScalarType::NumOptions);
  // Built once; handed out by reference, as libtorch's registry does.
  static const auto table = [] {
    auto t = std::make_unique<std::array<std::unique_ptr<DeprecatedTypeProperties>,
                                         kBackends * kScalarTypes>>();
    for (size_t b = 0; b < kBackends; ++b) {
      for (size_t st = 0; st < kScalarTypes; ++st) {
        (*t)[b * kScalarTypes + st] = std::make_unique<DeprecatedTypeProperties>(
            static_cast<Backend>(b), static_cast<ScalarType>(st));
      }
    }
    return t;
  }();
  const auto b = static_cast<size_t>(backend);
  const auto st = static_cast<size_t>(s);
  TORCH_CHECK(b < kBackends && st < kScalarTypes, "Unknown backend or scalar type");
  return *(*table)[b * kScalarTypes + st];
}

Tensor DeprecatedTypeProperties::copy(const Tensor& src, bool non_blocking,
                                      c10::optional<Device> to_device) const {
  TensorOptions options = src.options().dtype(scalarType());
  if (to_device) options = options.device(*to_device);
  return src.to(options, non_blocking, /*copy=*/true);
}

}  // namespace at
