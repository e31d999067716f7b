// npu_demo: the npu backend at work, as its user sees it. Each step checks what it shows and
// the program exits non-zero at the first surprise; "npu backend ok" ends a good run.

#include <ATen/ATen.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "dispatcher/DispatchTrace.h"  // miniaten's dispatch trace (no libtorch equivalent)
#include "npu_backend.h"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "FAILED: " << what << "\n";
    ++failures;
  }
}

template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "(no error)";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The dispatch trace lines of one call.
template <typename F>
std::vector<std::string> trace_of(F f) {
  std::vector<std::string> lines;
  c10::DispatchTrace::set_listener([&](const std::string& l) { lines.push_back(l); });
  {
    c10::DispatchTraceGuard guard;
    f();
  }
  c10::DispatchTrace::set_listener(nullptr);
  return lines;
}

}  // namespace

int main() {
  const at::TensorOptions npu = at::TensorOptions().device("npu");

  // 1. The device has a name.
  const c10::Device npu1("npu:1");
  expect(npu1.type() == c10::DeviceType::PrivateUse1 && npu1.index() == 1, "npu:1 parses");
  expect(npu1.str() == "npu:1", "npu:1 prints as " + npu1.str());

  // 2. Factories allocate from the npu allocator, on the current npu or the one named.
  const size_t bytes_before = npu::allocated_bytes();
  at::Tensor e = at::empty({2, 3}, npu);
  expect(e.device() == c10::Device("npu:0"), "empty is on npu:0");
  expect(npu::allocated_bytes() == bytes_before + 24, "the allocator holds 24 more bytes");
  expect(e.key_set().has(c10::DispatchKey::PrivateUse1) &&
             e.key_set().has(c10::DispatchKey::AutogradPrivateUse1),
         "an npu tensor carries PrivateUse1 and AutogradPrivateUse1");
  at::Tensor ones1 = at::ones({2, 3}, at::TensorOptions().device(npu1));
  expect(ones1.device() == npu1, "ones on npu:1 is on npu:1");
  expect(npu::last_kernel_device() == 1, "its kernels ran with npu:1 current");
  expect(at::equal(ones1.cpu(), at::ones({2, 3})), "ones on npu:1 holds ones");
  {
    c10::DeviceGuard guard(npu1);
    expect(at::empty({1}, npu).device() == npu1, "inside a DeviceGuard, npu means npu:1");
  }
  expect(at::empty({1}, npu).device() == c10::Device("npu:0"), "the guard restored npu:0");
  expect(contains(error_of([] { c10::DeviceGuard g(c10::Device("npu:5")); }),
                  "npu guard: there is no device npu:5"),
         "npu:5 is the backend's error");

  // 3. Copies both ways, any strides; add and sum as on the CPU.
  const at::Tensor a_cpu = at::arange(12, at::kFloat).view({3, 4});
  const at::Tensor b_cpu = at::arange(4, at::kLong);
  at::Tensor a = a_cpu.t().to(c10::Device("npu"));  // a transposed source: sizes [4, 3]
  at::Tensor b = b_cpu.to(c10::Device("npu"));
  expect(a.device().is_privateuseone() && a.sizes() == c10::IntArrayRef({4, 3}),
         "a moved to the npu");
  expect(at::equal(a.cpu(), a_cpu.t()), "a's values came back");
  at::Tensor c = at::add(a.t(), b, 2);  // [3, 4] + [4] * 2, Float + Long -> Float
  expect(c.device().is_privateuseone(), "add's result is on the npu");
  expect(c.scalar_type() == at::kFloat, "add promotes Float + Long to Float");
  expect(c.sizes() == a_cpu.sizes() && c.strides() == at::add(a_cpu, b_cpu, 2).strides(),
         "add's result has the CPU result's sizes and strides");
  expect(at::equal(c.cpu(), at::add(a_cpu, b_cpu, 2)), "add's values are the CPU's");
  at::Tensor s = c.sum(1, /*keepdim=*/true);
  expect(s.sizes() == c10::IntArrayRef({3, 1}) && at::equal(s.cpu(), c.cpu().sum(1, true)),
         "sum over dim 1 matches the CPU");
  expect(c.sum().item<float>() == at::add(a_cpu, b_cpu, 2).sum().item<float>(),
         "sum() through the composite sum, then item()");
  at::Tensor f = at::empty({2, 2}, npu).fill_(7);
  expect(at::equal(f.cpu(), at::full({2, 2}, 7.0f)), "fill_");
  std::ostringstream printed;
  printed << at::ones({2}, npu);
  expect(printed.str() == " 1\n 1\n[ PrivateUse1FloatType{2} ]",
         "an npu tensor prints its values: " + printed.str());

  // 4. Whatever the backend lacks reaches its fallback, which names the operator.
  const std::string missing = error_of([&] { at::exp(a); });
  expect(contains(missing, "The npu backend has no kernel for 'aten::exp'"),
         "exp reaches the fallback: " + missing);
  // Composite operators need no kernel of the backend's: ones is empty + fill_ (above),
  // and clone is empty_like + copy_ (below).

  // 5. Autograd on npu tensors, through AutogradPrivateUse1.
  at::Tensor x = at::ones({2, 3}, at::TensorOptions().device(npu1)).requires_grad_();
  at::Tensor y = x.clone();
  at::Tensor loss = y.sum();
  expect(y.grad_fn() && y.grad_fn()->name() == "CloneBackward0", "clone records CloneBackward0");
  expect(loss.grad_fn() && loss.grad_fn()->name() == "SumBackward0", "sum records SumBackward0");
  expect(npu::last_kernel_device() == 1, "the forward ran on npu:1");
  // A hook runs inside the backward node: it sees the device the engine made current.
  int hook_device = -1;
  y.register_hook([&](const at::Tensor&) {
    hook_device = c10::impl::getDeviceGuardImpl(c10::DeviceType::PrivateUse1)->getDevice().index();
  });
  {
    c10::DeviceGuard guard(c10::Device("npu:0"));  // the caller's device is npu:0 ...
    loss.backward();
    // ... the engine made npu:1 current for each backward node (Note [Each node runs with its
    // inputs' device current]) and then restored npu:0.
    expect(hook_device == 1, "backward ran with npu:1 current");
    expect(c10::impl::getDeviceGuardImpl(c10::DeviceType::PrivateUse1)->getDevice().index() == 0,
           "npu:0 is current again");
  }
  expect(x.grad().defined() && x.grad().device() == npu1, "x.grad is on npu:1");
  expect(at::equal(x.grad().cpu(), at::ones({2, 3})), "x.grad is all ones");

  // 6. The dispatcher shows the npu and Meta kernels and why they were chosen.
  const std::vector<std::string> add_trace = trace_of([&] { at::add(a, a); });
  bool npu_chosen = false;
  for (const std::string& l : add_trace) npu_chosen |= contains(l, "-> PrivateUse1: ");
  expect(npu_chosen, "the trace of add shows the PrivateUse1 kernel");
  const at::Tensor m = at::empty({2, 1, 3}, at::TensorOptions().device(at::kMeta));
  const at::Tensor m_sum = at::add(m, at::empty({4, 1}, at::TensorOptions().device(at::kMeta)));
  expect(m_sum.sizes() == c10::IntArrayRef({2, 4, 3}) && m_sum.is_meta(),
         "Meta add broadcasts [2,1,3] + [4,1] to [2,4,3]");
  bool meta_chosen = false;
  for (const std::string& l : trace_of([&] { at::add(m, m); })) {
    meta_chosen |= contains(l, "-> Meta: ");
  }
  expect(meta_chosen, "the trace of a Meta add shows the Meta kernel");
  const std::string table =
      c10::Dispatcher::singleton().findSchemaOrThrow("aten::add", "Tensor").dumpComputedTable();
  expect(contains(table, "PrivateUse1: ") && contains(table, "Meta: "),
         "add's computed table has PrivateUse1 and Meta entries");
  const std::string exp_table =
      c10::Dispatcher::singleton().findSchemaOrThrow("aten::exp", "").dumpComputedTable();
  expect(contains(exp_table, "PrivateUse1: ") && contains(exp_table, "backend fallback"),
         "exp's PrivateUse1 entry is the backend fallback");

  if (failures != 0) return 1;
  std::cout << "trace of at::add on npu tensors:\n";
  for (const std::string& l : add_trace) std::cout << "  " << l << "\n";
  std::cout << "aten::add.Tensor's PrivateUse1 and Meta entries:\n";
  std::istringstream rows(table);
  for (std::string row; std::getline(rows, row);) {
    if (row.rfind("PrivateUse1:", 0) == 0 || row.rfind("Meta:", 0) == 0 ||
        row.rfind("AutogradPrivateUse1:", 0) == 0) {
      std::cout << "  " << row << "\n";
    }
  }
  std::cout << "npu allocator: " << npu::allocation_count() << " allocations, "
            << npu::allocated_bytes() << " bytes held\n";
  std::cout << "npu backend ok\n";
  return 0;
}
