#include "distributed/c10d/ProcessGroup.h"

#include <climits>
#include <random>

#include "distributed/c10d/Store.h"

namespace c10d {

ProcessGroup::ProcessGroup(int rank, int size) : rank_(rank), size_(size) {}

ProcessGroup::~ProcessGroup() = default;

const std::string ProcessGroup::getBackendName() const {
  TORCH_INTERNAL_ASSERT(false, "getBackendName is not implemented.");
}

void ProcessGroup::unsupported(const char* what) const {
  TORCH_CHECK(false, "ProcessGroup ", getBackendName(), " does not support ", what);
}

c10::intrusive_ptr<Work> ProcessGroup::broadcast(std::vector<at::Tensor>&,
                                                 const BroadcastOptions&) {
  unsupported("broadcast");
}
c10::intrusive_ptr<Work> ProcessGroup::allreduce(std::vector<at::Tensor>&,
                                                 const AllreduceOptions&) {
  unsupported("allreduce");
}
c10::intrusive_ptr<Work> ProcessGroup::allreduce_coalesced(std::vector<at::Tensor>&,
                                                           const AllreduceCoalescedOptions&) {
  unsupported("allreduce_coalesced");
}
c10::intrusive_ptr<Work> ProcessGroup::reduce(std::vector<at::Tensor>&, const ReduceOptions&) {
  // libtorch 1.13's text lacks the space before "does".
  TORCH_CHECK(false, "ProcessGroup ", getBackendName(), "does not support reduce");
}
c10::intrusive_ptr<Work> ProcessGroup::allgather(std::vector<std::vector<at::Tensor>>&,
                                                 std::vector<at::Tensor>&,
                                                 const AllgatherOptions&) {
  unsupported("allgather");
}
c10::intrusive_ptr<Work> ProcessGroup::_allgather_base(at::Tensor&, at::Tensor&,
                                                       const AllgatherOptions&) {
  unsupported("_allgather_base");
}
c10::intrusive_ptr<Work> ProcessGroup::allgather_coalesced(std::vector<std::vector<at::Tensor>>&,
                                                           std::vector<at::Tensor>&,
                                                           const AllgatherOptions&) {
  unsupported("allgather_coalesced");
}
c10::intrusive_ptr<Work> ProcessGroup::gather(std::vector<std::vector<at::Tensor>>&,
                                              std::vector<at::Tensor>&, const GatherOptions&) {
  unsupported("gather");
}
c10::intrusive_ptr<Work> ProcessGroup::scatter(std::vector<at::Tensor>&,
                                               std::vector<std::vector<at::Tensor>>&,
                                               const ScatterOptions&) {
  unsupported("scatter");
}
c10::intrusive_ptr<Work> ProcessGroup::reduce_scatter(std::vector<at::Tensor>&,
                                                      std::vector<std::vector<at::Tensor>>&,
                                                      const ReduceScatterOptions&) {
  unsupported("reduce_scatter");
}
c10::intrusive_ptr<Work> ProcessGroup::_reduce_scatter_base(at::Tensor&, at::Tensor&,
                                                            const ReduceScatterOptions&) {
  unsupported("_reduce_scatter_base");
}
c10::intrusive_ptr<Work> ProcessGroup::alltoall_base(at::Tensor&, at::Tensor&,
                                                     std::vector<int64_t>&, std::vector<int64_t>&,
                                                     const AllToAllOptions&) {
  unsupported("alltoall_base");
}
c10::intrusive_ptr<Work> ProcessGroup::alltoall(std::vector<at::Tensor>&, std::vector<at::Tensor>&,
                                                const AllToAllOptions&) {
  unsupported("alltoall");
}
void ProcessGroup::monitoredBarrier(const BarrierOptions&, bool) {
  TORCH_CHECK(false, "ProcessGroup ", getBackendName(),
              " does not support monitoredBarrier, only GLOO supports monitored barrier.");
}
void ProcessGroup::setSequenceNumberForGroup() {
  TORCH_CHECK(false, "ProcessGroup ", getBackendName(), " does not yet support sequence numbers.");
}
uint64_t ProcessGroup::getSequenceNumberForGroup() {
  TORCH_CHECK(false, "ProcessGroup ", getBackendName(), " does not yet support sequence numbers.");
}

void ProcessGroup::agreeOnSequenceNumber(Store& store, std::chrono::milliseconds timeout) {
  constexpr int kBytes = 8;
  const std::string key = "SEQ_NUM_STORE_KEY";
  if (rank_ == 0) {
    // Any start will do, as long as all ranks share it; libtorch's is 1 + rand().
    std::mt19937_64 engine{std::random_device{}()};
    const uint64_t seq = 1 + std::uniform_int_distribution<uint64_t>(0, INT32_MAX - 1)(engine);
    sequenceNum_ = SequenceNum(seq);
    store.set(key, toVec<uint8_t>(seq, kBytes));
  } else {
    sequenceNum_ = SequenceNum();
    store.wait({key}, timeout);
    sequenceNum_->set(fromVec(store.get(key)));
  }
}

uint64_t ProcessGroup::currentSequenceNumber() const {
  return sequenceNum_ ? sequenceNum_->get() : kUnsetSeqNum;
}

void ProcessGroup::countCollective() {
  if (sequenceNum_) sequenceNum_->increment();
}
c10::intrusive_ptr<Work> ProcessGroup::send(std::vector<at::Tensor>&, int, int) {
  unsupported("send");
}
c10::intrusive_ptr<Work> ProcessGroup::recv(std::vector<at::Tensor>&, int, int) {
  unsupported("recv");
}
c10::intrusive_ptr<Work> ProcessGroup::recvAnysource(std::vector<at::Tensor>&, int) {
  unsupported("recvAnysource");
}
c10::intrusive_ptr<Work> ProcessGroup::barrier(const BarrierOptions&) {
  unsupported("barrier");
}

}  // namespace c10d
