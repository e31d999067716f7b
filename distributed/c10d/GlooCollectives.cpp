// ProcessGroupGloo's collectives: argument checks with libtorch 1.13's texts, then a queued
// work whose run() hands the tensors to one of Gloo's algorithms.
#include "distributed/c10d/GlooCollectives.h"
#include "distributed/c10d/GlooChecks.h"
#include "distributed/c10d/Utils.h"

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/alltoallv.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/gather.h>
#include <gloo/reduce.h>
#include <gloo/scatter.h>

#include <cstring>
#include <sstream>

#include "aten/ATen.h"
#include "distributed/c10d/ProcessGroupGloo.h"

namespace c10d {

namespace {

using namespace gloo_detail;  // the checks, staging and reduce functions

// ---- Gloo's typed buffers ------------------------------------------------------------------

// Gloo's option setters take T* and use only sizeof(T): an element of the tensor's size is
// all they need, whatever its type.
template <size_t N>
struct Element {
  unsigned char bytes[N];
};

template <class Fn>
void with_element_size(size_t size, Fn&& fn) {
  switch (size) {
    case 1:
      return fn(static_cast<Element<1>*>(nullptr));
    case 2:
      return fn(static_cast<Element<2>*>(nullptr));
    case 4:
      return fn(static_cast<Element<4>*>(nullptr));
    case 8:
      return fn(static_cast<Element<8>*>(nullptr));
    case 16:
      return fn(static_cast<Element<16>*>(nullptr));
  }
  TORCH_CHECK(false, "Invalid scalar type");
}

// The flat contiguous CPU buffer for a list of same-sized tensors, and its copies in and out.
at::Tensor flat_buffer(int64_t count, const at::Tensor& like) {
  std::vector<int64_t> sizes{count};
  for (auto s : like.sizes()) sizes.push_back(s);
  return at::empty(sizes, like.options().device(at::kCPU));
}

// A collective's work: its outputs, and the body run() executes on a worker thread.
class GlooWork final : public ProcessGroupGloo::AsyncWork {
 public:
  GlooWork(std::vector<std::vector<at::Tensor>> outputs, const char* title,
           std::function<void()> body)
      : AsyncWork(std::move(outputs), title), body_(std::move(body)) {}
  void run() override { body_(); }

 private:
  std::function<void()> body_;
};

}  // namespace

c10::intrusive_ptr<ProcessGroupGloo::AsyncWork> ProcessGroupGloo::makeWork(
    std::vector<std::vector<at::Tensor>> outputs, const char* title, OpType op,
    const std::vector<at::Tensor>& fingerprinted, bool withShapes, uint32_t tag,
    const std::shared_ptr<::gloo::Context>& context, std::function<void()> body) {
  if (checkCollectives_) {
    body = [fingerprint = gloo_detail::Fingerprint(op, fingerprinted, withShapes), context, tag,
            body = std::move(body)] {
      gloo_detail::verify_same_collective(fingerprint, context, tag);
      body();
    };
  }
  return c10::make_intrusive<GlooWork>(std::move(outputs), title, std::move(body));
}

namespace {

std::chrono::milliseconds effective(std::chrono::milliseconds timeout,
                                    const std::shared_ptr<::gloo::Context>& context) {
  return timeout == kUnsetTimeout ? context->getTimeout() : timeout;
}

}  // namespace

// ---- the collectives -------------------------------------------------------------------------

c10::intrusive_ptr<Work> ProcessGroupGloo::broadcast(std::vector<at::Tensor>& inputs,
                                                     const BroadcastOptions& opts) {
  const Fail fail = failing("broadcast");
  assertRootRank(fail, opts.rootRank, size_);
  assertRootTensor(fail, opts.rootTensor, static_cast<int64_t>(inputs.size()));
  assertDense(fail, inputs);
  assertTypeAndSizesMatch(fail, inputs);
  assertHostOrCuda(fail, inputs[0]);
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work =
      makeWork(std::vector<std::vector<at::Tensor>>{inputs}, "gloo:broadcast", OpType::BROADCAST,
               inputs, true, tag, context, [inputs, opts, tag, context, timeout] {
                 gloo_detail::check_gloo_type(inputs[0].scalar_type());
                 const Staged root = stage(inputs[opts.rootTensor]);
                 const auto& buffer = root.buffer;
                 ::gloo::BroadcastOptions o(context);
                 o.setRoot(static_cast<int>(opts.rootRank));
                 o.setTag(tag);
                 o.setTimeout(timeout);
                 with_element_size(buffer.element_size(), [&](auto* e) {
                   using E = std::remove_pointer_t<decltype(e)>;
                   auto* ptr = static_cast<E*>(buffer.data_ptr());
                   if (context->rank == opts.rootRank) o.setInput(ptr, buffer.numel());
                   o.setOutput(ptr, buffer.numel());
                 });
                 ::gloo::broadcast(o);
                 root.copy_back();
                 for (size_t i = 0; i < inputs.size(); ++i) {
                   if (static_cast<int64_t>(i) != opts.rootTensor) inputs[i].copy_(root.user);
                 }
               });
  enqueue(work);
  return work;
}

namespace {

// Reduces `tensors` (this rank's, all the same size) with every other rank's, in place.
void allreduce_in_place(const std::vector<at::Tensor>& tensors, const ReduceOp& op, uint32_t tag,
                        const std::shared_ptr<::gloo::Context>& context,
                        std::chrono::milliseconds timeout) {
  auto fn = reduce_function(tensors[0].scalar_type(), op);
  const auto staged = stage(tensors);
  ::gloo::AllreduceOptions o(context);
  o.setReduceFunction(fn);
  o.setTag(tag);
  o.setTimeout(timeout);
  with_element_size(tensors[0].element_size(), [&](auto* e) {
    using E = std::remove_pointer_t<decltype(e)>;
    std::vector<E*> ptrs;
    for (const auto& s : staged) ptrs.push_back(static_cast<E*>(s.buffer.data_ptr()));
    o.setOutputs(ptrs, static_cast<size_t>(tensors[0].numel()));
  });
  ::gloo::allreduce(o);
  for (const auto& s : staged) s.copy_back();
}

}  // namespace

c10::intrusive_ptr<Work> ProcessGroupGloo::allreduce(std::vector<at::Tensor>& inputs,
                                                     const AllreduceOptions& opts) {
  const Fail fail = failing("allreduce");
  assertNonEmpty(fail, inputs);
  assertLayoutMatch(fail, inputs);
  assertTypeAndSizesMatch(fail, inputs);
  assertHostOrCuda(fail, inputs[0]);
  if (inputs[0].layout() != at::kStrided) fail("unsupported layout");
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work =
      makeWork(std::vector<std::vector<at::Tensor>>{inputs}, "gloo:all_reduce", OpType::ALLREDUCE,
               inputs, true, tag, context, [inputs, op = opts.reduceOp, tag, context, timeout] {
                 allreduce_in_place(inputs, op, tag, context, timeout);
               });
  enqueue(work);
  return work;
}

c10::intrusive_ptr<Work> ProcessGroupGloo::allreduce_coalesced(
    std::vector<at::Tensor>& tensors, const AllreduceCoalescedOptions& opts) {
  const Fail fail = failing("allreduce_coalesced");
  if (tensors.empty()) fail("requires non-empty tensor list");
  assertLayoutMatch(fail, tensors);
  for (const auto& t : tensors) {
    if (t.options().dtype() != tensors[0].options().dtype() || t.device() != tensors[0].device()) {
      fail("tensors must all have the same type");
    }
  }
  assertHostOrCuda(fail, tensors[0]);
  if (tensors[0].layout() != at::kStrided) fail("unsupported layout");
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work = makeWork(std::vector<std::vector<at::Tensor>>{tensors}, "gloo:all_reduce",
                       OpType::ALLREDUCE_COALESCED, tensors, true, tag, context,
                       [tensors, op = opts.reduceOp, tag, context, timeout] {
                         // One allreduce over the tensors laid end to end.
                         std::vector<at::Tensor> flat;
                         for (const auto& t : tensors) flat.push_back(t.reshape({-1}).to(at::kCPU));
                         at::Tensor buffer = at::cat(flat);
                         allreduce_in_place({buffer}, op, tag, context, timeout);
                         int64_t offset = 0;
                         for (const auto& t : tensors) {
                           t.copy_(buffer.narrow(0, offset, t.numel()).view(t.sizes()));
                           offset += t.numel();
                         }
                       });
  enqueue(work);
  return work;
}

c10::intrusive_ptr<Work> ProcessGroupGloo::reduce(std::vector<at::Tensor>& inputs,
                                                  const ReduceOptions& opts) {
  const Fail fail = failing("reduce");
  assertRootRank(fail, opts.rootRank, size_);
  assertRootTensor(fail, opts.rootTensor, static_cast<int64_t>(inputs.size()));
  if (inputs.size() != 1) fail("requires a single-element tensor list");
  assertDense(fail, inputs);
  assertHostOrCuda(fail, inputs[0]);
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work = makeWork(
      std::vector<std::vector<at::Tensor>>{inputs}, "gloo:reduce", OpType::REDUCE, inputs, true,
      tag, context, [inputs, opts, tag, context, timeout] {
        auto fn = reduce_function(inputs[0].scalar_type(), opts.reduceOp);
        const Staged s = stage(inputs[0]);
        ::gloo::ReduceOptions o(context);
        o.setRoot(static_cast<int>(opts.rootRank));
        o.setTag(tag);
        o.setTimeout(timeout);
        o.setReduceFunction(fn);
        with_element_size(s.buffer.element_size(), [&](auto* e) {
          using E = std::remove_pointer_t<decltype(e)>;
          o.setOutput(static_cast<E*>(s.buffer.data_ptr()), s.buffer.numel());
        });
        ::gloo::reduce(o);
        s.copy_back();
      });
  enqueue(work);
  return work;
}

c10::intrusive_ptr<Work> ProcessGroupGloo::allgather(std::vector<std::vector<at::Tensor>>& outputs,
                                                     std::vector<at::Tensor>& inputs,
                                                     const AllgatherOptions& opts) {
  const Fail fail = failing("allgather");
  if (inputs.empty()) fail("requires non-empty input tensor list");
  if (inputs.size() != outputs.size()) {
    fail("requires input/output tensor lists to have the same length");
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const size_t expected = inputs.size() * size_;
    if (outputs[i].size() != expected) {
      fail("invalid output tensor list at index " + std::to_string(i) + " (expected length " +
           std::to_string(expected) + ", got " + std::to_string(outputs[i].size()) + ")");
    }
  }
  assertDense(fail, inputs);
  const auto options = inputs[0].options();
  const auto sizes = inputs[0].sizes();
  assertTypeAndSizesMatch(fail, inputs, options, sizes);
  for (const auto& output : outputs) assertTypeAndSizesMatch(fail, output, options, sizes);
  assertHostOrCuda(fail, inputs[0]);
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work = makeWork(
      outputs, "gloo:all_gather", OpType::ALLGATHER, inputs, true, tag, context,
      [outputs, inputs, tag, context, timeout] {
        gloo_detail::check_gloo_type(inputs[0].scalar_type());
        // This rank's inputs end to end, and every rank's after one another.
        at::Tensor flat_in = flat_buffer(static_cast<int64_t>(inputs.size()), inputs[0]);
        for (size_t i = 0; i < inputs.size(); ++i) flat_in[i].copy_(inputs[i]);
        at::Tensor flat_out =
            flat_buffer(static_cast<int64_t>(inputs.size()) * context->size, inputs[0]);
        ::gloo::AllgatherOptions o(context);
        o.setTag(tag);
        o.setTimeout(timeout);
        with_element_size(flat_in.element_size(), [&](auto* e) {
          using E = std::remove_pointer_t<decltype(e)>;
          o.setInput(static_cast<E*>(flat_in.data_ptr()), flat_in.numel());
          o.setOutput(static_cast<E*>(flat_out.data_ptr()), flat_out.numel());
        });
        ::gloo::allgather(o);
        for (const auto& output : outputs) {
          for (size_t j = 0; j < output.size(); ++j) output[j].copy_(flat_out[j]);
        }
      });
  enqueue(work);
  return work;
}

c10::intrusive_ptr<Work> ProcessGroupGloo::_allgather_base(at::Tensor&, at::Tensor&,
                                                           const AllgatherOptions&) {
  TORCH_CHECK(false, "no support for _allgather_base in Gloo process group");
}

c10::intrusive_ptr<Work> ProcessGroupGloo::allgather_coalesced(
    std::vector<std::vector<at::Tensor>>& output_lists, std::vector<at::Tensor>& input_list,
    const AllgatherOptions& opts) {
  const Fail fail = failing("allgather_coalesced");
  if (input_list.empty()) fail("requires non-empty input tensor list");
  if (output_lists.size() != static_cast<size_t>(getSize())) {
    fail("output lists should be equal to world size");
  }
  const auto device = input_list[0].device();
  for (const auto& t : input_list) {
    if (t.device() != device) fail("tensors should be on the same device");
  }
  for (const auto& output_list : output_lists) {
    if (output_list.size() != input_list.size()) {
      fail("invalid output size: (expected length " + std::to_string(input_list.size()) + ", got " +
           std::to_string(output_list.size()) + ")");
    }
    for (size_t i = 0; i < output_list.size(); ++i) {
      const auto& expected = input_list[i];
      const auto& actual = output_list[i];
      if (!actual.sizes().equals(expected.sizes())) {
        fail("invalid size of output tensor at index " + std::to_string(i) + " (expected length " +
             sizes_str(expected.sizes()) + ", got " + sizes_str(actual.sizes()) + ")");
      }
      if (actual.scalar_type() != expected.scalar_type() || actual.device() != expected.device()) {
        std::ostringstream ss;
        ss << "invalid tensor type at index " << i << " (expected "
           << at::toString(expected.scalar_type()) << ", got " << at::toString(actual.scalar_type())
           << ")";
        fail(ss.str());
      }
    }
  }
  assertDense(fail, input_list);
  if (device.type() != at::kCPU) fail("unsupported device type " + device.str());
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work = makeWork(
      output_lists, "gloo:all_gather", OpType::ALLGATHER_COALESCED, input_list, true, tag, context,
      [output_lists, input_list, tag, context, timeout] {
        // The inputs end to end, as bytes (their types may differ).
        const auto ins = stage(input_list);
        int64_t total = 0;
        for (const auto& s : ins) total += s.buffer.nbytes();
        at::Tensor flat_in = at::empty({total}, at::TensorOptions().dtype(at::kByte));
        int64_t at_byte = 0;
        for (const auto& s : ins) {
          std::memcpy(static_cast<uint8_t*>(flat_in.data_ptr()) + at_byte, s.buffer.data_ptr(),
                      s.buffer.nbytes());
          at_byte += s.buffer.nbytes();
        }
        at::Tensor flat_out = at::empty({total * context->size}, flat_in.options());
        ::gloo::AllgatherOptions o(context);
        o.setTag(tag);
        o.setTimeout(timeout);
        o.setInput(static_cast<uint8_t*>(flat_in.data_ptr()), flat_in.numel());
        o.setOutput(static_cast<uint8_t*>(flat_out.data_ptr()), flat_out.numel());
        ::gloo::allgather(o);
        for (size_t r = 0; r < output_lists.size(); ++r) {
          const auto* from = static_cast<const uint8_t*>(flat_out.data_ptr()) + r * total;
          for (const auto& out : output_lists[r]) {
            const Staged s = stage(out);
            std::memcpy(s.buffer.data_ptr(), from, s.buffer.nbytes());
            from += s.buffer.nbytes();
            s.copy_back();
          }
        }
      });
  enqueue(work);
  return work;
}

c10::intrusive_ptr<Work> ProcessGroupGloo::gather(std::vector<std::vector<at::Tensor>>& outputs,
                                                  std::vector<at::Tensor>& inputs,
                                                  const GatherOptions& opts) {
  const Fail fail = failing("gather");
  assertRootRank(fail, opts.rootRank, size_);
  if (inputs.size() != 1) fail("requires a single-element input tensor list");
  assertDense(fail, inputs);
  if (getRank() == opts.rootRank) {
    if (outputs.size() != 1) {
      fail("requires a single-element output list containing a list with " +
           std::to_string(getSize()) + " tensors.");
    } else if (outputs[0].size() != static_cast<size_t>(getSize())) {
      fail("Incorrect output list size " + std::to_string(outputs[0].size()) +
           ". Output list size should be " + std::to_string(getSize()) +
           ", same as size of the process group.");
    }
    assertTypeAndSizesMatch(fail, outputs[0], inputs[0].options(), inputs[0].sizes());
  } else if (!outputs.empty()) {
    fail("requires empty output on non-root");
  }
  assertHostOrCuda(fail, inputs[0]);
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work = makeWork(
      outputs, "gloo:gather", OpType::GATHER, inputs, true, tag, context,
      [outputs, inputs, root = opts.rootRank, tag, context, timeout] {
        gloo_detail::check_gloo_type(inputs[0].scalar_type());
        const Staged in = stage(inputs[0]);
        const bool is_root = context->rank == root;
        at::Tensor flat_out;
        ::gloo::GatherOptions o(context);
        o.setRoot(static_cast<int>(root));
        o.setTag(tag);
        o.setTimeout(timeout);
        with_element_size(in.buffer.element_size(), [&](auto* e) {
          using E = std::remove_pointer_t<decltype(e)>;
          o.setInput(static_cast<E*>(in.buffer.data_ptr()), in.buffer.numel());
          if (is_root) {
            flat_out = flat_buffer(context->size, in.buffer);
            o.setOutput(static_cast<E*>(flat_out.data_ptr()), flat_out.numel());
          }
        });
        ::gloo::gather(o);
        if (is_root) {
          for (size_t i = 0; i < outputs[0].size(); ++i) outputs[0][i].copy_(flat_out[i]);
        }
      });
  enqueue(work);
  return work;
}

c10::intrusive_ptr<Work> ProcessGroupGloo::scatter(std::vector<at::Tensor>& outputs,
                                                   std::vector<std::vector<at::Tensor>>& inputs,
                                                   const ScatterOptions& opts) {
  const Fail fail = failing("scatter");
  assertRootRank(fail, opts.rootRank, size_);
  if (outputs.size() != 1) fail("requires a single-element output tensor list");
  assertDense(fail, outputs);
  if (getRank() == opts.rootRank) {
    if (inputs.size() != 1) {
      fail("requires a single-element input list containing a list with " +
           std::to_string(getSize()) + " tensors");
    } else if (inputs[0].size() != static_cast<size_t>(getSize())) {
      fail("Incorrect input list size " + std::to_string(inputs[0].size()) +
           ". Input list size should be " + std::to_string(getSize()) +
           ", same as size of the process group.");
    }
    assertTypeAndSizesMatch(fail, inputs[0], outputs[0].options(), outputs[0].sizes());
  } else if (!inputs.empty()) {
    fail("requires empty input on non-root");
  }
  assertHostOrCuda(fail, outputs[0]);
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work = makeWork(
      std::vector<std::vector<at::Tensor>>{outputs}, "gloo:scatter", OpType::SCATTER, outputs, true,
      tag, context, [outputs, inputs, root = opts.rootRank, tag, context, timeout] {
        gloo_detail::check_gloo_type(outputs[0].scalar_type());
        const Staged out = stage(outputs[0]);
        std::vector<Staged> ins;
        if (context->rank == root) ins = stage(inputs[0]);
        ::gloo::ScatterOptions o(context);
        o.setRoot(static_cast<int>(root));
        o.setTag(tag);
        o.setTimeout(timeout);
        with_element_size(out.buffer.element_size(), [&](auto* e) {
          using E = std::remove_pointer_t<decltype(e)>;
          if (!ins.empty()) {
            std::vector<E*> ptrs;
            for (const auto& s : ins) ptrs.push_back(static_cast<E*>(s.buffer.data_ptr()));
            o.setInputs(ptrs, out.buffer.numel());
          }
          o.setOutput(static_cast<E*>(out.buffer.data_ptr()), out.buffer.numel());
        });
        ::gloo::scatter(o);
        out.copy_back();
      });
  enqueue(work);
  return work;
}

c10::intrusive_ptr<Work> ProcessGroupGloo::reduce_scatter(std::vector<at::Tensor>&,
                                                          std::vector<std::vector<at::Tensor>>&,
                                                          const ReduceScatterOptions&) {
  TORCH_CHECK(false, "ProcessGroupGloo does not support reduce_scatter");
}

c10::intrusive_ptr<Work> ProcessGroupGloo::alltoall_base(at::Tensor& outputTensor,
                                                         at::Tensor& inputTensor,
                                                         std::vector<int64_t>& outputCounts,
                                                         std::vector<int64_t>& inputCounts,
                                                         const AllToAllOptions& opts) {
  const Fail fail = failing("alltoall_base");
  TORCH_CHECK(outputTensor.device() == inputTensor.device(),
              "output tensor and input tensor must be on the same type of device");
  assertDense(fail, {outputTensor});
  assertDense(fail, {inputTensor});
  assertHostOrCuda(fail, outputTensor);
  // Note [alltoall_base checks at the call]
  // libtorch 1.13 checks the split sizes on the worker thread (its errors come from wait()),
  // not at all when both are empty (a dim 0 that does not divide hangs every rank until the
  // timeout), and never compares the two dtypes (it reinterprets the input's bytes). miniaten
  // checks all three here, with the texts libtorch uses for the first two.
  TORCH_CHECK(outputTensor.scalar_type() == inputTensor.scalar_type(),
              "Tensors are not equal in data type");
  checkSplitSizes(inputCounts, inputTensor, size_);
  checkSplitSizes(outputCounts, outputTensor, size_);
  checkRowElements("ProcessGroupGloo::alltoall_base", inputTensor, outputTensor);
  const int64_t world = size_;
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work = makeWork(
      std::vector<std::vector<at::Tensor>>{{outputTensor}}, "gloo:all_to_all",
      OpType::ALLTOALL_BASE, {inputTensor}, false, tag, context,
      [outputTensor, inputTensor, outputCounts, inputCounts, world, tag, context, timeout] {
        gloo_detail::check_gloo_type(inputTensor.scalar_type());
        const Staged out = stage(outputTensor);
        const Staged in = stage(inputTensor);
        // Elements per rank: its rows times the elements of one row.
        auto per_rank = [&](const std::vector<int64_t>& splits, const at::Tensor& t) {
          const int64_t rows = t.dim() ? t.size(0) : 1;
          const int64_t row = rows ? t.numel() / rows : 0;
          std::vector<int64_t> counts;
          for (int64_t r = 0; r < world; ++r) {
            counts.push_back((splits.empty() ? rows / world : splits[r]) * row);
          }
          return counts;
        };
        const auto out_counts = per_rank(outputCounts, out.buffer);
        const auto in_counts = per_rank(inputCounts, in.buffer);
        ::gloo::AlltoallvOptions o(context);
        o.setTag(tag);
        o.setTimeout(timeout);
        with_element_size(in.buffer.element_size(), [&](auto* e) {
          using E = std::remove_pointer_t<decltype(e)>;
          o.setInput(static_cast<E*>(in.buffer.data_ptr()), in_counts);
          o.setOutput(static_cast<E*>(out.buffer.data_ptr()), out_counts);
        });
        ::gloo::alltoallv(o);
        out.copy_back();
      });
  enqueue(work);
  return work;
}

c10::intrusive_ptr<Work> ProcessGroupGloo::barrier(const BarrierOptions& opts) {
  // The barrier is also one for this rank's earlier collectives: it waits for the works queued
  // or running when it was called (libtorch's Gloo barrier does the same).
  std::vector<c10::weak_intrusive_ptr<AsyncWork>> priorWork;
  {
    std::lock_guard<std::mutex> lock(workMutex_);
    for (const auto& w : workInProgress_) {
      if (w) priorWork.emplace_back(w);
    }
    for (const auto& w : workQueue_) priorWork.emplace_back(w);
  }
  const auto tag = nextTag();
  auto context = getContext(tag);
  const auto timeout = effective(opts.timeout, context);
  auto work = makeWork(std::vector<std::vector<at::Tensor>>{}, "gloo:barrier", OpType::BARRIER, {},
                       true, tag, context, [priorWork, tag, context, timeout] {
                         for (const auto& weak : priorWork) {
                           if (auto w = weak.lock()) w->wait();
                         }
                         ::gloo::BarrierOptions o(context);
                         o.setTag(tag);
                         o.setTimeout(timeout);
                         ::gloo::barrier(o);
                       });
  enqueue(work);
  return work;
}

}  // namespace c10d
