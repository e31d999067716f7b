#pragma once
// c10d::DistributedDataParallel: data-parallel training over a process group (a miniaten
// extension: libtorch's C++ API has only its building block, c10d::Reducer; Python's
// torch.nn.parallel.DistributedDataParallel is what this follows). Every rank holds the same
// parameters and computes gradients on its share of the batch; during backward the gradients
// are averaged across the ranks, in buckets, while the rest of backward still runs.
//
//   c10d::DistributedDataParallel ddp(parameters, pg);   // rank 0's parameters everywhere
//   loss.backward();           // when it returns, every .grad() is the average over the ranks
//   {
//     auto no_sync = ddp.no_sync();
//     loss2.backward();        // accumulates locally; the next synchronised backward sends the
//   }                          // accumulated gradients
//
// A model whose forward may leave some parameters out of the loss is built with
// find_unused_parameters and tells DDP each forward's outputs, as Python's DDP does for it:
//
//   c10d::DDPOptions options;
//   options.find_unused_parameters = true;
//   c10d::DistributedDataParallel ddp(parameters, pg, options);
//   at::Tensor loss = forward(x);
//   ddp.prepare_for_backward({loss});   // finds the parameters the loss does not depend on
//   loss.backward();
//
// See Note [How DistributedDataParallel averages gradients] in DistributedDataParallel.cpp.

#include <cstdint>
#include <memory>
#include <vector>

#include "aten/core/Tensor.h"
#include "distributed/c10d/ProcessGroup.h"

namespace torch {
namespace autograd {
struct Node;
}  // namespace autograd
}  // namespace torch

namespace c10d {

struct GradientReadyHook;

struct DDPOptions {
  // The first bucket's size, and every later one's: libtorch's defaults
  // (dist._DEFAULT_FIRST_BUCKET_BYTES and bucket_cap_mb=25).
  int64_t first_bucket_bytes = 1024 * 1024;
  int64_t bucket_bytes = 25 * 1024 * 1024;
  // Broadcast rank 0's parameters to every rank at construction.
  bool broadcast_parameters = true;
  // Allow a forward pass to leave parameters out of the loss; prepare_for_backward() must then
  // be called with each forward's outputs (libtorch's find_unused_parameters).
  bool find_unused_parameters = false;
};

class DistributedDataParallel {
  friend struct GradientReadyHook;

 public:
  // `parameters`: leaves that require grad, the same number, shapes and dtypes on every rank,
  // each used by every backward that synchronises.
  DistributedDataParallel(std::vector<at::Tensor> parameters,
                          c10::intrusive_ptr<ProcessGroup> process_group,
                          DDPOptions options = DDPOptions());
  ~DistributedDataParallel();
  DistributedDataParallel(const DistributedDataParallel&) = delete;
  DistributedDataParallel& operator=(const DistributedDataParallel&) = delete;

  // While the returned guard lives, backward leaves gradients local (accumulating them).
  class NoSync {
   public:
    explicit NoSync(DistributedDataParallel& ddp);
    ~NoSync();
    NoSync(const NoSync&) = delete;
    NoSync& operator=(const NoSync&) = delete;

   private:
    DistributedDataParallel& ddp_;
    bool previous_;
  };
  NoSync no_sync() { return NoSync(*this); }

  // After a forward pass, before its backward: with find_unused_parameters, walks the autograd
  // graph from `outputs` and takes the parameters it does not reach as unused in this pass
  // (libtorch's Reducer::prepare_for_backward). Without it, nothing to do.
  void prepare_for_backward(const std::vector<at::Tensor>& outputs);
  // The parameters the last prepare_for_backward() found unused, by index.
  const std::vector<size_t>& unused_parameters() const { return unused_; }

  // The parameters' indices, bucket by bucket (parameters in reverse order, as their gradients
  // tend to become ready).
  std::vector<std::vector<size_t>> bucket_indices() const;
  // How many buckets' allreduces the current (or last) backward has started.
  int64_t buckets_launched() const;
  const c10::intrusive_ptr<ProcessGroup>& process_group() const { return process_group_; }

 private:
  struct Bucket {
    std::vector<size_t> parameters;  // indices into parameters_
    std::vector<int64_t> offsets;    // each one's first element in `flat`
    at::Tensor flat;                 // the gradients, end to end, divided by the world size
    size_t pending = 0;              // parameters whose gradient has not arrived yet
    c10::intrusive_ptr<Work> work;   // its allreduce, once launched
  };

  void broadcast_parameters();
  // Where DDP's own small collectives (the model check, the used flags) run: the first
  // parameter's device, so that NCCL, which takes only CUDA tensors, can carry them.
  at::Device comm_device() const { return parameters_[0].device(); }
  void build_buckets(const DDPOptions& options);
  // A parameter's .grad() is complete (its AccumulateGrad has run).
  void gradient_ready(size_t index);
  // Copies the parameter's .grad() (zeros where it has none), over the world size, into its
  // bucket; launches what became ready.
  void mark_ready(size_t index);
  void launch_ready_buckets();
  // The bucket's slot `slot` as a view of its parameter's shape.
  at::Tensor slot_view(const Bucket& bucket, size_t slot) const;
  // At the end of backward: waits for the allreduces and writes the averages into .grad().
  void finish_backward();
  // With find_unused_parameters: for each parameter, whether any rank used it since the last
  // synchronised backward (the allreduced used_).
  std::vector<bool> globally_used();
  // A backward that threw before its end: waits for the launched allreduces, closes the round.
  void abandon_round() noexcept;
  struct RoundGuard {
    explicit RoundGuard(DistributedDataParallel* ddp) : ddp(ddp) {}
    ~RoundGuard();
    DistributedDataParallel* ddp;
    bool finished = false;
  };

  std::vector<at::Tensor> parameters_;
  c10::intrusive_ptr<ProcessGroup> process_group_;
  std::vector<Bucket> buckets_;
  std::vector<size_t> bucket_of_;  // parameter index -> bucket index
  std::vector<std::pair<std::shared_ptr<torch::autograd::Node>, uintptr_t>> hooks_;

  // Hooks and the final callback all run on the thread running backward (miniaten's engine
  // runs there), so this state needs no lock.
  bool sync_ = true;
  // find_unused_parameters: the graph's accumulators -> parameter index, the parameters the
  // current forward left out, whether prepare_for_backward() came since the last round, and
  // which parameters received a gradient since the last synchronised backward (kept through
  // no_sync(), as libtorch's local_used_map_).
  bool find_unused_ = false;
  bool prepared_ = false;
  std::vector<size_t> unused_;
  std::vector<int32_t> used_;
  bool in_backward_ = false;
  std::vector<bool> ready_;
  size_t next_bucket_ = 0;  // buckets launch in order, the same on every rank
};

}  // namespace c10d
