#include "c10/core/Device.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>
#include <ostream>

namespace c10 {

namespace {
// Indexed by DeviceType: {upper-case name, lower-case name}, libtorch's spellings.
constexpr const char* kDeviceTypeNames[][2] = {
    {"CPU", "cpu"},       {"CUDA", "cuda"},     {"MKLDNN", "mkldnn"}, {"OPENGL", "opengl"},
    {"OPENCL", "opencl"}, {"IDEEP", "ideep"},   {"HIP", "hip"},       {"FPGA", "fpga"},
    {"ORT", "ort"},       {"XLA", "xla"},       {"VULKAN", "vulkan"}, {"METAL", "metal"},
    {"XPU", "xpu"},       {"MPS", "mps"},       {"META", "meta"},     {"HPU", "hpu"},
    {"VE", "ve"},         {"LAZY", "lazy"},     {"IPU", "ipu"},       {"PRIVATEUSEONE", "privateuseone"},
};
static_assert(sizeof(kDeviceTypeNames) / sizeof(kDeviceTypeNames[0]) ==
                  static_cast<size_t>(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES),
              "a name for every device type");
}  // namespace

std::string DeviceTypeName(DeviceType d, bool lower_case) {
  TORCH_CHECK(isValidDeviceType(d), "Unknown device: ", static_cast<int16_t>(d),
              ". If you have recently updated the caffe2.proto file to add a new device "
              "type, did you forget to update the DeviceTypeName() function to reflect "
              "such recent changes?");
  if (d == DeviceType::PrivateUse1) return get_privateuse1_backend(lower_case);
  return kDeviceTypeNames[static_cast<int>(d)][lower_case ? 1 : 0];
}

// Note [The PrivateUse1 name is written once]
// The name is read on every print of a PrivateUse1 device, from any thread, and written once,
// when the backend loads. So a writer takes the mutex (to check and set without a race between
// two registrations) and publishes with a release store of the flag; readers load the flag with
// acquire and, once it is set, read a string that is never written again.
namespace {
std::atomic<bool> privateuse1_name_set{false};
std::string privateuse1_name;  // written once, before privateuse1_name_set
std::mutex privateuse1_name_mutex;
}  // namespace

void register_privateuse1_backend(const std::string& backend_name) {
  std::lock_guard<std::mutex> lock(privateuse1_name_mutex);
  TORCH_CHECK(!privateuse1_name_set.load() || privateuse1_name == backend_name,
              "torch.register_privateuse1_backend() has already been set! Current backend: ",
              privateuse1_name);
  // Recent PyTorch refuses six names ("cpu", "cuda", "hip", "mps", "xpu", "mtia"); any other
  // device type's name ("meta", "xla") would be parsed as that device type first, so the
  // backend's own devices could not be named: miniaten refuses every one of them.
  bool in_tree = backend_name == "mtia";
  for (int i = 0; i < static_cast<int>(DeviceType::PrivateUse1); ++i) {
    in_tree = in_tree || backend_name == kDeviceTypeNames[i][1];
  }
  TORCH_CHECK(!in_tree,
              "Cannot register privateuse1 backend with in-tree device name: ", backend_name);
  // Device strings are parsed as [a-zA-Z_]+ before the colon; a name outside that could never
  // be parsed back.
  TORCH_CHECK(!backend_name.empty() &&
                  std::all_of(backend_name.begin(), backend_name.end(),
                              [](unsigned char c) { return std::isalpha(c) || c == '_'; }),
              "Invalid privateuse1 backend name: '", backend_name,
              "' (a device type name is letters and '_')");
  privateuse1_name = backend_name;
  privateuse1_name_set.store(true, std::memory_order_release);
}

std::string get_privateuse1_backend(bool lower_case) {
  std::string name =
      privateuse1_name_set.load(std::memory_order_acquire) ? privateuse1_name : "privateuseone";
  std::transform(name.begin(), name.end(), name.begin(), [lower_case](unsigned char c) {
    return static_cast<char>(lower_case ? std::tolower(c) : std::toupper(c));
  });
  return name;
}

bool is_privateuse1_backend_registered() {
  return privateuse1_name_set.load(std::memory_order_acquire);
}

bool isValidDeviceType(DeviceType d) {
  return static_cast<int>(d) >= 0 &&
         static_cast<int>(d) < static_cast<int>(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES);
}

std::ostream& operator<<(std::ostream& stream, DeviceType type) {
  return stream << DeviceTypeName(type, /*lower_case=*/true);
}

namespace {
DeviceType parse_type(const std::string& name) {
  for (int i = 0; i < static_cast<int>(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES); ++i) {
    if (name == kDeviceTypeNames[i][1]) return static_cast<DeviceType>(i);
  }
  if (is_privateuse1_backend_registered() && name == get_privateuse1_backend()) {
    return DeviceType::PrivateUse1;
  }
  TORCH_CHECK(false,
              "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
              "fpga, ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start "
              "of device string: ",
              name);
}
}  // namespace

Device::Device(const std::string& device_string) : Device(DeviceType::CPU) {
  TORCH_CHECK(!device_string.empty(), "Device string must not be empty");
  const auto colon = device_string.find(':');
  type_ = parse_type(device_string.substr(0, colon));
  index_ = -1;
  if (colon != std::string::npos) {
    const std::string index_str = device_string.substr(colon + 1);
    bool digits = !index_str.empty() && index_str.size() <= 3;
    for (char c : index_str) digits = digits && c >= '0' && c <= '9';
    TORCH_CHECK(digits, "Invalid device string: '", device_string, "'");
    const int index = std::stoi(index_str);
    TORCH_CHECK(index <= 127, "Invalid device string: '", device_string, "'");
    index_ = static_cast<DeviceIndex>(index);
  }
  validate();
}

std::string Device::str() const {
  std::string s = DeviceTypeName(type_, /*lower_case=*/true);
  if (has_index()) {
    s += ":";
    s += std::to_string(index_);
  }
  return s;
}

std::ostream& operator<<(std::ostream& stream, const Device& device) {
  return stream << device.str();
}

}  // namespace c10
