#pragma once
// The reduction operator and the option structs of c10d's collectives, as libtorch 1.13 spells
// them (torch/csrc/distributed/c10d/Types.hpp).
//
//   c10d::AllreduceOptions opts;
//   opts.reduceOp = c10d::ReduceOp::MAX;
//   opts.timeout = std::chrono::seconds(10);   // kUnsetTimeout: the process group's own
//   pg->allreduce(tensors, opts)->wait();

#include <chrono>
#include <cstdint>
#include <vector>

#include "aten/core/Tensor.h"
#include "c10/util/Exception.h"
#include "c10/util/intrusive_ptr.h"
#include "distributed/c10d/Store.h"

namespace c10d {

// What a ReduceOp may carry besides its kind (NCCL's PREMUL_SUM factor).
struct _SupplementBase : torch::CustomClassHolder {
  ~_SupplementBase() override = default;
};

struct NCCLPreMulSumSupplement : _SupplementBase {
  double double_factor{0.0};
  std::vector<at::Tensor> tensor_factors;
  NCCLPreMulSumSupplement(double f) : double_factor{f} {}                               // NOLINT
  NCCLPreMulSumSupplement(std::vector<at::Tensor> f) : tensor_factors{std::move(f)} {}  // NOLINT
};

struct ReduceOp : torch::CustomClassHolder {
  enum RedOpType : uint8_t {
    SUM = 0,
    AVG = 1,
    PRODUCT = 2,
    MIN = 3,
    MAX = 4,
    BAND = 5,        // bitwise and
    BOR = 6,         // bitwise or
    BXOR = 7,        // bitwise xor
    PREMUL_SUM = 8,  // multiply by a user-supplied constant before summing (NCCL)
    UNUSED = 9
  };

  ReduceOp() = default;
  ReduceOp(RedOpType op) : op_(op) {  // NOLINT
    TORCH_INTERNAL_ASSERT(op_ != PREMUL_SUM,
                          "Use `torch.distributed._make_nccl_premul_sum` to create an instance "
                          "of ReduceOp with PREMUL_SUM");
  }
  ReduceOp(RedOpType op, c10::intrusive_ptr<_SupplementBase> supplement)
      : op_(op), supplement_(std::move(supplement)) {}
  ReduceOp(const ReduceOp& other) : op_(other.op_), supplement_(other.supplement_) {}
  ReduceOp& operator=(const ReduceOp& other) {
    op_ = other.op_;
    supplement_ = other.supplement_;
    return *this;
  }

  operator RedOpType() const { return op_; }  // NOLINT
  bool operator==(const std::uint8_t other) const { return other == op_; }
  bool operator==(const RedOpType other) const { return op_ == other; }
  bool operator==(const ReduceOp& other) const { return op_ == other.op_; }

  RedOpType op_ = SUM;
  c10::intrusive_ptr<_SupplementBase> supplement_;
};

template <typename T>
ReduceOp makeNCCLPreMulSum(const T& factor) {
  ReduceOp rop;
  rop.op_ = ReduceOp::PREMUL_SUM;
  rop.supplement_ = c10::make_intrusive<NCCLPreMulSumSupplement>(factor);
  return rop;
}

// An option's timeout left unset: the process group's own applies.
constexpr auto kUnsetTimeout = std::chrono::milliseconds(-1);

struct BroadcastOptions {
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllreduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllreduceCoalescedOptions : AllreduceOptions {};

struct ReduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllgatherOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct GatherOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct ScatterOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct ReduceScatterOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllToAllOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct BarrierOptions {
  std::vector<int64_t> device_ids;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

}  // namespace c10d
