#include "distributed/c10d/DistributedDataParallel.h"

#include <map>
#include <sstream>
#include <unordered_set>

#include "aten/ATen.h"
#include "aten/autograd/AutogradMeta.h"
#include "aten/autograd/Engine.h"
#include "aten/autograd/GradMode.h"
#include "distributed/c10d/Ops.h"

namespace c10d {

// Note [How DistributedDataParallel averages gradients]
// As libtorch's Reducer does:
//  * At construction the parameters are checked to agree across ranks (count and total size,
//    through an allgather) and rank 0's values are broadcast, so every replica starts equal.
//  * The parameters are grouped into buckets of one dtype and device, taken in reverse order
//    (the order backward tends to complete their gradients); the first bucket holds up to
//    first_bucket_bytes (1 MB), so that communication starts early, the others bucket_bytes
//    (25 MB), so that there are few collectives.
//  * A post hook on each parameter's AccumulateGrad learns when its .grad() is complete and
//    copies it, times 1/world_size, into its bucket's flat buffer. A bucket whose gradients have
//    all arrived is all-reduced at once (asynchronously, through the c10d::allreduce_ operator)
//    while backward goes on. Buckets are launched in index order, so every rank issues the same
//    collectives in the same order even if its hooks fire in another.
//  * A final callback queued on the autograd engine runs when the backward pass is over: it waits
//    for the allreduces and copies each bucket's averages back into the .grad()s.
//  * Under no_sync() the hooks do nothing, so gradients accumulate in .grad() locally; the next
//    synchronised backward copies the accumulated .grad() into the buckets, so what is averaged
//    is the sum over all the steps taken.
// A parameter that receives no gradient in a synchronised backward leaves its bucket unlaunched;
// the final callback says which. With find_unused_parameters such parameters are expected:
// Note [Parameters a forward pass leaves out].

// Note [Parameters a forward pass leaves out]
// With find_unused_parameters, as libtorch's Reducer:
//  * prepare_for_backward(outputs) walks the autograd graph from the outputs' grad_fns; a
//    parameter whose AccumulateGrad node it does not meet will get no gradient in this backward,
//    so its hook will never fire.
//  * When the first gradient of the backward arrives, those parameters are marked ready at once:
//    each puts its current .grad() (zeros where it has none) into its bucket, so the buckets
//    fill and launch, in the same order on every rank, whichever parameters each rank used.
//  * A parameter is "used" when its hook fired with a gradient since the last synchronised
//    backward (no_sync() steps count, and so does a backward that failed midway: the gradient
//    is in .grad() either way). At the end of backward the ranks sum their used flags;
//    a parameter no rank used keeps its .grad() untouched (undefined stays undefined), one that
//    some rank used gets the average, even on a rank where it had no gradient.
// A rank whose loss depends on no parameter at all runs no hook and so joins no round: the other
// ranks wait in their allreduces until the group's timeout, as with libtorch's Reducer.

struct GradientReadyHook final : torch::autograd::FunctionPostHook {
  GradientReadyHook(DistributedDataParallel* ddp, size_t index) : ddp(ddp), index(index) {}
  torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
                                            const torch::autograd::variable_list&) override {
    ddp->gradient_ready(index);
    return outputs;
  }
  DistributedDataParallel* ddp;
  size_t index;
};

DistributedDataParallel::DistributedDataParallel(std::vector<at::Tensor> parameters,
                                                 c10::intrusive_ptr<ProcessGroup> process_group,
                                                 DDPOptions options)
    : parameters_(std::move(parameters)), process_group_(std::move(process_group)) {
  TORCH_CHECK(process_group_, "DistributedDataParallel: no process group");
  TORCH_CHECK(!parameters_.empty(),
              "DistributedDataParallel is not needed when a module doesn't have any parameter "
              "that requires a gradient.");
  for (size_t i = 0; i < parameters_.size(); ++i) {
    const at::Tensor& p = parameters_[i];
    TORCH_CHECK(p.defined() && p.requires_grad() && p.is_leaf(),
                "DistributedDataParallel: "
                "parameter ",
                i, " must be a leaf tensor that requires grad");
  }
  TORCH_CHECK(options.first_bucket_bytes > 0 && options.bucket_bytes > 0,
              "DistributedDataParallel: bucket sizes must be positive");
  if (options.broadcast_parameters) broadcast_parameters();
  build_buckets(options);
  ready_.assign(parameters_.size(), false);
  find_unused_ = options.find_unused_parameters;
  used_.assign(parameters_.size(), 0);
  for (size_t i = 0; i < parameters_.size(); ++i) {
    auto accumulator = torch::autograd::impl::grad_accumulator(parameters_[i]);
    const uintptr_t key = accumulator->add_post_hook(std::make_unique<GradientReadyHook>(this, i));
    hooks_.emplace_back(std::move(accumulator), key);
  }
}

DistributedDataParallel::~DistributedDataParallel() {
  for (auto& hook : hooks_) hook.first->del_post_hook(hook.second);
}

void DistributedDataParallel::broadcast_parameters() {
  at::NoGradGuard no_grad;
  // Every rank's parameter count and total size, so that a mismatch is an error rather than a
  // broadcast of the wrong sizes.
  int64_t total = 0;
  for (const auto& p : parameters_) total += p.numel();
  const int world = process_group_->getSize();
  at::Tensor mine = at::empty({2}, at::TensorOptions(at::kLong).device(comm_device()));
  mine[0].fill_(static_cast<int64_t>(parameters_.size()));
  mine[1].fill_(total);
  std::vector<std::vector<at::Tensor>> all(1);
  for (int r = 0; r < world; ++r) all[0].push_back(at::empty_like(mine));
  ops::allgather(process_group_, all, {mine})->wait();
  for (int r = 0; r < world; ++r) {
    const int64_t count = all[0][r][0].item<int64_t>();
    TORCH_CHECK(count == static_cast<int64_t>(parameters_.size()),
                "DDP expects same model across all ranks, but Rank ", process_group_->getRank(),
                " has ", parameters_.size(), " params, while rank ", r, " has inconsistent ", count,
                " params.");
    TORCH_CHECK(all[0][r][1].item<int64_t>() == total,
                "DDP expects same model across all ranks, "
                "but Rank ",
                process_group_->getRank(), " has ", total, " parameter elements, while rank ", r,
                " has ", all[0][r][1].item<int64_t>(), ".");
  }
  // One broadcast per dtype and device, of the parameters end to end.
  std::map<std::pair<int, std::string>, std::vector<at::Tensor>> groups;
  for (const auto& p : parameters_) {
    groups[{static_cast<int>(p.scalar_type()), p.device().str()}].push_back(p.detach());
  }
  for (auto& group : groups) {
    std::vector<at::Tensor> flat;
    for (const auto& p : group.second) flat.push_back(p.reshape({-1}));
    at::Tensor buffer = at::cat(flat);
    ops::broadcast(process_group_, {buffer})->wait();
    int64_t offset = 0;
    for (auto& p : group.second) {
      p.copy_(buffer.narrow(0, offset, p.numel()).view(p.sizes()));
      offset += p.numel();
    }
  }
}

void DistributedDataParallel::build_buckets(const DDPOptions& options) {
  bucket_of_.assign(parameters_.size(), 0);
  // The open bucket of each dtype and device, and how many of its buckets it has closed.
  // -> (bucket index, closed)
  std::map<std::pair<int, std::string>, std::pair<int64_t, size_t>> open;
  for (size_t k = parameters_.size(); k-- > 0;) {
    const at::Tensor& p = parameters_[k];
    const std::pair<int, std::string> key{static_cast<int>(p.scalar_type()), p.device().str()};
    auto it = open.find(key);
    if (it == open.end() || it->second.first < 0) {
      const size_t closed = it == open.end() ? 0 : it->second.second;
      buckets_.emplace_back();
      it = open.insert_or_assign(key,
                                 std::make_pair(static_cast<int64_t>(buckets_.size() - 1), closed))
               .first;
    }
    Bucket& bucket = buckets_[it->second.first];
    bucket.parameters.push_back(k);
    bucket_of_[k] = static_cast<size_t>(it->second.first);
    int64_t bytes = 0;
    for (size_t j : bucket.parameters) bytes += parameters_[j].nbytes();
    const int64_t cap = it->second.second == 0 ? options.first_bucket_bytes : options.bucket_bytes;
    if (bytes >= cap) {
      it->second.first = -1;  // closed: the next parameter of this key opens a new one
      ++it->second.second;
    }
  }
  for (Bucket& bucket : buckets_) {
    int64_t numel = 0;
    for (size_t j : bucket.parameters) {
      bucket.offsets.push_back(numel);
      numel += parameters_[j].numel();
    }
    const at::Tensor& first = parameters_[bucket.parameters[0]];
    bucket.flat = at::empty({numel}, first.options().requires_grad(false));
  }
}

void DistributedDataParallel::prepare_for_backward(const std::vector<at::Tensor>& outputs) {
  TORCH_CHECK(!in_backward_,
              "DistributedDataParallel: prepare_for_backward() called while a backward pass "
              "is running");
  unused_.clear();
  if (!find_unused_) return;
  prepared_ = true;
  // Note [Parameters a forward pass leaves out]
  std::unordered_set<const torch::autograd::Node*> seen;
  std::vector<torch::autograd::Node*> queue;
  for (const at::Tensor& output : outputs) {
    if (!output.defined()) continue;
    if (torch::autograd::Node* fn = output.grad_fn().get()) {
      queue.push_back(fn);
    } else if (output.requires_grad()) {
      // A parameter given as an output: backward accumulates into it directly.
      seen.insert(torch::autograd::impl::grad_accumulator(output).get());
    }
  }
  while (!queue.empty()) {
    torch::autograd::Node* fn = queue.back();
    queue.pop_back();
    for (const auto& edge : fn->next_edges()) {
      torch::autograd::Node* next = edge.function.get();
      if (next != nullptr && seen.insert(next).second) queue.push_back(next);
    }
  }
  for (size_t i = 0; i < hooks_.size(); ++i) {
    if (seen.count(hooks_[i].first.get()) == 0) unused_.push_back(i);
  }
  if (unused_.empty()) {
    TORCH_WARN_ONCE(
        "find_unused_parameters=True was specified in DDP constructor, but did not find any "
        "unused parameters in the forward pass. This flag results in an extra traversal of the "
        "autograd graph every iteration,  which can adversely affect performance. If your model "
        "indeed never has any unused parameters in the forward pass, consider turning this flag "
        "off. Note that this warning may be a false positive if your model has flow control "
        "causing later iterations to have unused parameters.");
  }
}

void DistributedDataParallel::gradient_ready(size_t index) {
  if (find_unused_ && parameters_[index].grad().defined()) used_[index] = 1;
  if (!sync_) return;
  if (!in_backward_) {
    // The first gradient of a backward pass: start the round.
    TORCH_CHECK(!find_unused_ || prepared_,
                "DistributedDataParallel: find_unused_parameters is set, so "
                "prepare_for_backward(outputs) must be called after each forward pass, before "
                "its backward.");
    prepared_ = false;
    in_backward_ = true;
    next_bucket_ = 0;
    ready_.assign(parameters_.size(), false);
    for (Bucket& bucket : buckets_) {
      bucket.pending = bucket.parameters.size();
      bucket.work.reset();
    }
    // The round ends in finish_backward(); a backward that throws first drops its callbacks
    // unrun, and then the guard abandons the round (Note [A backward that fails midway]).
    auto guard = std::make_shared<RoundGuard>(this);
    torch::autograd::Engine::get_default_engine().queue_callback([guard] {
      guard->ddp->finish_backward();
      guard->finished = true;  // only now: a finish_backward() that throws abandons the round
    });
    for (size_t unused : unused_) mark_ready(unused);
  }
  mark_ready(index);
}

void DistributedDataParallel::mark_ready(size_t index) {
  TORCH_CHECK(!ready_[index], "Expected to mark a variable ready only once. Parameter ", index,
              " received a gradient twice in one backward pass (it is shared, or used in a "
              "reentrant backward",
              find_unused_ ? ", or prepare_for_backward() was not given the outputs the loss "
                             "is computed from"
                           : "",
              ").");
  ready_[index] = true;
  Bucket& bucket = buckets_[bucket_of_[index]];
  const at::Tensor& p = parameters_[index];
  const at::Tensor& grad = p.grad();
  size_t slot = 0;
  while (bucket.parameters[slot] != index) ++slot;
  at::Tensor view = slot_view(bucket, slot);
  if (grad.defined()) {
    const double scale = 1.0 / process_group_->getSize();
    at::mul_out(view, grad, at::scalar_tensor(scale, view.options()));
  } else {
    view.zero_();
  }
  if (--bucket.pending == 0) launch_ready_buckets();
}

void DistributedDataParallel::launch_ready_buckets() {
  while (next_bucket_ < buckets_.size() && buckets_[next_bucket_].pending == 0) {
    Bucket& bucket = buckets_[next_bucket_++];
    bucket.work = ops::allreduce(process_group_, {bucket.flat});
  }
}

// Note [A backward that fails midway]
// When something throws during backward after the first gradient arrived (a later node, a
// hook, an error here), the engine drops the final callbacks without running them, so
// finish_backward() never comes. The round must not stay open: the next backward would take it
// for its own, and the launched allreduces may still be writing the buckets. RoundGuard is held
// only by the queued callback; destroyed unrun (or after a finish_backward() that threw, say on
// a failed allreduce), it waits for the launched allreduces (ignoring their errors: the first
// error is the one reported) and closes the round.
DistributedDataParallel::RoundGuard::~RoundGuard() {
  if (!finished) ddp->abandon_round();
}

void DistributedDataParallel::abandon_round() noexcept {
  for (Bucket& bucket : buckets_) {
    if (bucket.work) {
      try {
        bucket.work->wait();
      } catch (...) {  // NOLINT(bugprone-empty-catch): see the Note above
      }
      bucket.work.reset();
    }
  }
  in_backward_ = false;
}

void DistributedDataParallel::finish_backward() {
  in_backward_ = false;
  if (next_bucket_ != buckets_.size()) {
    std::ostringstream missing;
    for (size_t i = 0; i < parameters_.size(); ++i) {
      if (!ready_[i]) missing << (missing.tellp() > 0 ? ", " : "") << i;
    }
    // Let the launched allreduces finish before reporting (the others' ranks wait on them).
    for (Bucket& bucket : buckets_) {
      if (bucket.work) bucket.work->wait();
    }
    used_.assign(parameters_.size(), 0);
    TORCH_CHECK(false, "DistributedDataParallel: parameters ", missing.str(),
                " received no gradient in this backward pass. ",
                find_unused_
                    ? "prepare_for_backward() found them in the graph of the outputs it was "
                      "given, but backward did not reach them: give it the outputs the loss is "
                      "computed from."
                    : "Every parameter must take part in producing the loss on every rank, or "
                      "DDPOptions::find_unused_parameters must be set (with "
                      "prepare_for_backward(outputs) after each forward pass).");
  }
  const std::vector<bool> used = find_unused_ ? globally_used() : std::vector<bool>();
  at::NoGradGuard no_grad;
  for (Bucket& bucket : buckets_) {
    bucket.work->wait();
    for (size_t slot = 0; slot < bucket.parameters.size(); ++slot) {
      const size_t index = bucket.parameters[slot];
      if (find_unused_ && !used[index]) continue;  // no rank used it: .grad() stays as it is
      const at::Tensor& p = parameters_[index];
      const at::Tensor average = slot_view(bucket, slot);
      at::Tensor& grad = p.mutable_grad();
      if (grad.defined()) {
        grad.copy_(average);
      } else {
        // Used by another rank only: a new gradient with the parameter's strides (libtorch's
        // layout contract for .grad()).
        grad = at::empty_like(p);
        grad.copy_(average);
      }
    }
  }
}

std::vector<bool> DistributedDataParallel::globally_used() {
  // On the parameters' device: NCCL takes only CUDA tensors.
  at::Tensor flags = at::tensor(used_, at::kInt).to(comm_device());
  used_.assign(parameters_.size(), 0);
  ops::allreduce(process_group_, {flags})->wait();
  flags = flags.cpu();
  std::vector<bool> used(parameters_.size());
  const int32_t* sums = flags.data_ptr<int32_t>();
  for (size_t i = 0; i < used.size(); ++i) used[i] = sums[i] > 0;
  return used;
}

at::Tensor DistributedDataParallel::slot_view(const Bucket& bucket, size_t slot) const {
  const at::Tensor& p = parameters_[bucket.parameters[slot]];
  return bucket.flat.narrow(0, bucket.offsets[slot], p.numel()).view(p.sizes());
}

std::vector<std::vector<size_t>> DistributedDataParallel::bucket_indices() const {
  std::vector<std::vector<size_t>> indices;
  for (const Bucket& bucket : buckets_) indices.push_back(bucket.parameters);
  return indices;
}

int64_t DistributedDataParallel::buckets_launched() const {
  return static_cast<int64_t>(next_bucket_);
}

DistributedDataParallel::NoSync::NoSync(DistributedDataParallel& ddp)
    : ddp_(ddp), previous_(ddp.sync_) {
  ddp_.sync_ = false;
}

DistributedDataParallel::NoSync::~NoSync() {
  ddp_.sync_ = previous_;
}

}  // namespace c10d
