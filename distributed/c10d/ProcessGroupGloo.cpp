#include "distributed/c10d/ProcessGroupGloo.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include "aten/ATen.h"
#include "distributed/c10d/GlooCollectives.h"
#include "distributed/c10d/SigpipeBlocked.h"
#include "distributed/c10d/debug.h"

namespace c10d {

// Note [How ProcessGroupGloo runs a collective]
// A collective call checks its arguments (libtorch's errors, thrown at the call), takes the next
// tag and the context that tag maps to, and queues an AsyncWork; the group's worker threads
// (options->threads, 2 by default) take works off the queue in order and run them. run() hands
// the tensors' memory to a Gloo algorithm (gloo::allreduce, gloo::broadcast, ...), which does
// all of the communication; miniaten's part is the tensors: the element type, the reduction
// function, and staging. A tensor Gloo cannot use as it is (not contiguous, or not in host
// memory) is staged: the collective runs on a contiguous CPU copy, and an output is copied back
// afterwards (GlooCollectives.cpp). A failure inside Gloo (a peer that closed its connection, a
// timeout) becomes the Work's error: wait() throws it as a c10d::C10dError naming the collective
// and Gloo's reason; the group is unusable afterwards, as libtorch's is.

namespace {

// Whether some address `hostname` resolves to can be bound here (libtorch's
// doesHostnameResolveToUsableAddress).
bool resolves_to_usable_address(const std::string& hostname) {
  struct addrinfo hints {};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  struct addrinfo* result = nullptr;
  if (getaddrinfo(hostname.c_str(), nullptr, &hints, &result) != 0) return false;
  bool usable = false;
  for (struct addrinfo* rp = result; rp != nullptr && !usable; rp = rp->ai_next) {
    const int fd = socket(rp->ai_family, rp->ai_socktype, rp->ai_protocol);
    if (fd == -1) continue;
    usable = bind(fd, rp->ai_addr, rp->ai_addrlen) == 0;
    close(fd);
  }
  freeaddrinfo(result);
  return usable;
}

}  // namespace

std::shared_ptr<::gloo::transport::Device> ProcessGroupGloo::createDeviceForInterface(
    const std::string& interface) {
  ::gloo::transport::tcp::attr attr;
  attr.iface = interface;
  const SigpipeBlocked no_sigpipe;  // the device's loop thread inherits it
  return ::gloo::transport::tcp::CreateDevice(attr);
}

std::shared_ptr<::gloo::transport::Device> ProcessGroupGloo::createDeviceForHostname(
    const std::string& hostname) {
  TORCH_CHECK(resolves_to_usable_address(hostname), "Cannot resolve ", hostname,
              " to a (local) address");
  ::gloo::transport::tcp::attr attr;
  attr.hostname = hostname;
  const SigpipeBlocked no_sigpipe;  // the device's loop thread inherits it
  return ::gloo::transport::tcp::CreateDevice(attr);
}

std::shared_ptr<::gloo::transport::Device> ProcessGroupGloo::createDefaultDevice() {
  if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME")) {
    return createDeviceForInterface(iface);
  }
  char hostname[256] = {};
  if (gethostname(hostname, sizeof(hostname) - 1) == 0 && resolves_to_usable_address(hostname)) {
    return createDeviceForHostname(hostname);
  }
  TORCH_WARN_ONCE(
      "Unable to resolve hostname to a (local) address. Using the loopback address as fallback. "
      "Manually set the network interface to bind to with GLOO_SOCKET_IFNAME.");
  return createDeviceForHostname("127.0.0.1");
}

ProcessGroupGloo::Options::Options(std::chrono::milliseconds timeout)
    : ProcessGroup::Options(GLOO_BACKEND_NAME, timeout), threads(2) {}

ProcessGroupGloo::ProcessGroupGloo(const c10::intrusive_ptr<Store>& store, int rank, int size,
                                   c10::intrusive_ptr<Options> options)
    : ProcessGroup(rank, size),
      store_(std::make_unique<GlooStore>(store)),
      options_(std::move(options)),
      stop_(false),
      collectiveCounter_(0) {
  TORCH_CHECK(store, "ProcessGroupGloo: no store");
  TORCH_CHECK(options_, "ProcessGroupGloo: no options");
  TORCH_CHECK(size > 0, "ProcessGroupGloo: the world size must be positive, got ", size);
  TORCH_CHECK(rank >= 0 && rank < size, "ProcessGroupGloo: rank ", rank,
              " is out of range for a world of size ", size, " (expected 0 <= rank < ", size, ")");
  TORCH_CHECK(!options_->devices.empty(), "No device(s) specified");
  TORCH_CHECK(options_->threads > 0, "ProcessGroupGloo: options->threads must be positive, got ",
              options_->threads);
  TORCH_CHECK(options_->timeout.count() >= 0,
              "ProcessGroupGloo: options->timeout must not be negative, got ",
              options_->timeout.count(), "ms");
  for (size_t i = 0; i < options_->devices.size(); ++i) {
    TORCH_CHECK(options_->devices[i], "ProcessGroupGloo: options->devices[", i, "] is null");
  }
  contexts_.reserve(options_->devices.size());
  // Note [A peer's death must not end this process]: over the connect, and the workers started
  // below inherit it from their first instruction.
  const SigpipeBlocked no_sigpipe;
  for (size_t i = 0; i < options_->devices.size(); ++i) {
    auto context = std::make_shared<::gloo::rendezvous::Context>(rank_, size_);
    ::gloo::rendezvous::PrefixStore prefixed(std::to_string(i), *store_);
    context->setTimeout(options_->timeout);
    try {
      context->connectFullMesh(prefixed, options_->devices[i]);
    } catch (const c10::Error&) {
      throw;  // the store's own error (its timeout, an unreachable server)
    } catch (const std::exception& e) {
      TORCH_CHECK(false, "ProcessGroupGloo: rank ", rank_, " could not connect to the other ",
                  size_ - 1, " rank(s): ", e.what());
    }
    contexts_.push_back(std::move(context));
  }
  checkCollectives_ = debug_level() == DebugLevel::Detail;
  workInProgress_.resize(options_->threads);
  threads_.resize(options_->threads);
  for (size_t i = 0; i < threads_.size(); ++i) {
    threads_[i] = std::thread(&ProcessGroupGloo::runLoop, this, static_cast<int>(i));
  }
}

ProcessGroupGloo::~ProcessGroupGloo() {
  std::unique_lock<std::mutex> lock(workMutex_);
  workConsumeCV_.wait(lock, [&] { return workQueue_.empty(); });
  stop_ = true;
  lock.unlock();
  workProduceCV_.notify_all();
  for (auto& thread : threads_) thread.join();
}

// Ranks must issue their collectives in the same order (from one thread, or threads that
// agree on the order), as with libtorch; the lock only keeps the counter itself sound.
uint32_t ProcessGroupGloo::nextTag() {
  std::lock_guard<std::mutex> lock(workMutex_);
  return collectiveCounter_++ &
         ~(1u << 31);  // the top bit is the fingerprints' (GlooCollectives.cpp)
}

std::shared_ptr<::gloo::Context> ProcessGroupGloo::getContext(uint32_t tag) {
  return contexts_[tag % contexts_.size()];
}

void ProcessGroupGloo::runLoop(int workerIndex) {
  std::unique_lock<std::mutex> lock(workMutex_);
  while (!stop_) {
    if (workQueue_.empty()) {
      workProduceCV_.wait(lock);
      continue;
    }
    auto work = std::move(workQueue_.front());
    workQueue_.pop_front();
    workInProgress_[workerIndex] = work;
    lock.unlock();
    workConsumeCV_.notify_one();  // after unlocking, so the waiter does not block at once
    AsyncWork::execute(std::move(work));
    lock.lock();
    workInProgress_[workerIndex].reset();
  }
}

void ProcessGroupGloo::enqueue(c10::intrusive_ptr<AsyncWork> work) {
  std::unique_lock<std::mutex> lock(workMutex_);
  countCollective();
  workQueue_.push_back(std::move(work));
  lock.unlock();
  workProduceCV_.notify_one();
}

void ProcessGroupGloo::setSequenceNumberForGroup() {
  agreeOnSequenceNumber(static_cast<GlooStore&>(*store_).c10dStore(), options_->timeout);
}

uint64_t ProcessGroupGloo::getSequenceNumberForGroup() {
  return currentSequenceNumber();
}

// ---- AsyncWork --------------------------------------------------------------------------------

namespace {

// The Future's type: the output tensors as one list, or a list of lists.
c10::TypePtr future_type(const std::vector<std::vector<at::Tensor>>& outputTensors) {
  auto list = c10::SchemaType::list(c10::TensorType::get());
  return outputTensors.size() > 1 ? c10::SchemaType::list(list) : list;
}

}  // namespace

ProcessGroupGloo::AsyncWork::AsyncWork(std::vector<std::vector<at::Tensor>> outputTensors,
                                       const char* profilingTitle,
                                       const c10::optional<std::vector<at::Tensor>>& inputTensors)
    : Work(-1, OpType::UNKNOWN, profilingTitle, inputTensors),
      outputTensors_(std::move(outputTensors)),
      future_(c10::make_intrusive<c10::ivalue::Future>(future_type(outputTensors_))) {}

void ProcessGroupGloo::AsyncWork::execute(c10::intrusive_ptr<AsyncWork> work) {
  try {
    work->run();
  } catch (...) {
    work->finishWorkGlooError(gloo_detail::as_c10d_error(std::current_exception()));
    return;
  }
  work->synchronize();
  work->finishWorkGloo();
}

std::vector<at::Tensor> ProcessGroupGloo::AsyncWork::result() {
  TORCH_CHECK(isCompleted(),
              "Work needs to be completed before calling result(). Should call wait() before "
              "result().");
  TORCH_CHECK(outputTensors_.size() <= 1,
              "work result does not support list of lists, use .getFuture() and value()");
  return outputTensors_.empty() ? std::vector<at::Tensor>() : outputTensors_.at(0);
}

c10::intrusive_ptr<c10::ivalue::Future> ProcessGroupGloo::AsyncWork::getFuture() {
  return future_;
}

void ProcessGroupGloo::AsyncWork::finishWorkGloo() {
  if (outputTensors_.empty()) {
    future_->markCompleted(c10::IValue(std::vector<at::Tensor>()));
  } else if (outputTensors_.size() == 1) {
    future_->markCompleted(c10::IValue(outputTensors_[0]));
  } else {
    future_->markCompleted(c10::IValue(outputTensors_));
  }
  finish();
}

void ProcessGroupGloo::AsyncWork::finishWorkGlooError(std::exception_ptr eptr) {
  future_->setError(eptr);
  finish(eptr);
}

// ---- send and recv ----------------------------------------------------------------------------

ProcessGroupGloo::SendWork::SendWork(at::Tensor& tensor,
                                     std::unique_ptr<::gloo::transport::UnboundBuffer> buffer)
    : Work(-1, OpType::SEND, "gloo:send", c10::optional<std::vector<at::Tensor>>({tensor})),
      tensor_(tensor),
      buffer_(std::move(buffer)) {}

// Gloo's waitSend/waitRecv report a completion once: a second wait() answers from the Work.
bool ProcessGroupGloo::SendWork::wait(std::chrono::milliseconds timeout) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (completed_) {
      if (exception_) std::rethrow_exception(exception_);
      return true;
    }
  }
  bool sendCompleted = false;
  std::exception_ptr exception{nullptr};
  try {
    sendCompleted = timeout == kNoTimeout ? buffer_->waitSend() : buffer_->waitSend(timeout);
  } catch (...) {
    exception = gloo_detail::as_c10d_error(std::current_exception());
  }
  finishAndThrow(exception);
  return sendCompleted;
}

void ProcessGroupGloo::SendWork::abort() {
  buffer_->abortWaitSend();
}

ProcessGroupGloo::RecvWork::RecvWork(at::Tensor& tensor,
                                     std::unique_ptr<::gloo::transport::UnboundBuffer> buffer,
                                     const char* profilingTitle)
    : Work(-1, OpType::UNKNOWN, profilingTitle, c10::optional<std::vector<at::Tensor>>({tensor})),
      tensor_(tensor),
      buffer_(std::move(buffer)),
      srcRank_(-1) {}

int ProcessGroupGloo::RecvWork::sourceRank() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return srcRank_;
}

bool ProcessGroupGloo::RecvWork::wait(std::chrono::milliseconds timeout) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (completed_) {
      if (exception_) std::rethrow_exception(exception_);
      return true;
    }
  }
  bool recvCompleted = false;
  int source = -1;
  std::exception_ptr exception{nullptr};
  try {
    recvCompleted =
        timeout == kNoTimeout ? buffer_->waitRecv(&source) : buffer_->waitRecv(&source, timeout);
  } catch (...) {
    exception = gloo_detail::as_c10d_error(std::current_exception());
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    srcRank_ = source;
  }
  finishAndThrow(exception);
  return recvCompleted;
}

void ProcessGroupGloo::RecvWork::abort() {
  buffer_->abortWaitRecv();
}

namespace {

// The one tensor send/recv take, which Gloo reads or writes in place.
at::Tensor& checkSingleTensor(std::vector<at::Tensor>& tensors, const char* not_cpu) {
  TORCH_CHECK(tensors.size() == 1, "ProcessGroupGloo::send takes a single tensor");
  auto& tensor = tensors[0];
  TORCH_CHECK(tensor.is_contiguous(), "input tensor has to be contiguous");
  TORCH_CHECK(tensor.layout() == at::kStrided, "input tensor has to be dense");
  TORCH_CHECK(tensor.is_cpu(), not_cpu);
  return tensor;
}

// libtorch 1.13 checks neither: Gloo throws std::out_of_range for a rank past the end, and
// crashes on a send to itself.
void checkPeer(const char* op, const char* role, const char* itself, int peer, int rank, int size) {
  TORCH_CHECK(peer >= 0 && peer < size, "ProcessGroupGloo::", op, ": invalid ", role, " rank ",
              peer, " (the world size is ", size, ")");
  TORCH_CHECK(peer != rank, "ProcessGroupGloo::", op, ": rank ", rank, " cannot ", itself);
}

uint32_t checkTag(int32_t tag) {
  TORCH_CHECK(tag >= 0, "Tag must be nonnegative");
  return static_cast<uint32_t>(tag);
}

std::unique_ptr<::gloo::transport::UnboundBuffer> bufferOf(
    const std::shared_ptr<::gloo::Context>& context, at::Tensor& tensor) {
  return context->createUnboundBuffer(tensor.data_ptr(), tensor.nbytes());
}

}  // namespace

c10::intrusive_ptr<Work> ProcessGroupGloo::send(std::vector<at::Tensor>& tensors, int dstRank,
                                                int tag) {
  auto& tensor = checkSingleTensor(tensors, "ProcessGroupGloo::send: only CPU tensors can be sent");
  checkPeer("send", "destination", "send to itself", dstRank, rank_, size_);
  const auto utag = checkTag(tag);
  const SigpipeBlocked no_sigpipe;  // the post may write to the socket
  auto buf = bufferOf(getContext(utag), tensor);
  buf->send(dstRank, utag);
  return c10::make_intrusive<SendWork>(tensor, std::move(buf));
}

c10::intrusive_ptr<Work> ProcessGroupGloo::recv(std::vector<at::Tensor>& tensors, int srcRank,
                                                int tag) {
  auto& tensor =
      checkSingleTensor(tensors, "ProcessGroupGloo::recv: only CPU tensors can be received");
  checkPeer("recv", "source", "receive from itself", srcRank, rank_, size_);
  const auto utag = checkTag(tag);
  const SigpipeBlocked no_sigpipe;  // the post may write to the socket
  auto buf = bufferOf(getContext(utag), tensor);
  buf->recv(srcRank, utag);
  return c10::make_intrusive<RecvWork>(tensor, std::move(buf), "gloo:recv");
}

c10::intrusive_ptr<Work> ProcessGroupGloo::recvAnysource(std::vector<at::Tensor>& tensors,
                                                         int tag) {
  auto& tensor =
      checkSingleTensor(tensors, "ProcessGroupGloo::recv: only CPU tensors can be received");
  TORCH_CHECK(size_ > 1,
              "ProcessGroupGloo::recvAnysource: no other rank to receive from in a "
              "world of size 1");
  const auto utag = checkTag(tag);
  const SigpipeBlocked no_sigpipe;  // the post may write to the socket
  auto buf = bufferOf(getContext(utag), tensor);
  std::vector<int> srcRanks;  // any rank but this one
  for (int i = 0; i < size_; ++i) {
    if (i != rank_) srcRanks.push_back(i);
  }
  buf->recv(srcRanks, utag);
  return c10::make_intrusive<RecvWork>(tensor, std::move(buf), "gloo:recvAnySource");
}

// libtorch 1.13's monitoredBarrier, step for step: only rank 0 enforces the timeout, so that
// no other rank times out first and ends the job without saying which rank was missing.
void ProcessGroupGloo::monitoredBarrier(const BarrierOptions& opts, bool waitAllRanks) {
  const auto timeout = opts.timeout == kUnsetTimeout ? options_->timeout : opts.timeout;
  const int rank = getRank();
  const int t1 = static_cast<int>(nextTag());
  const int t2 = static_cast<int>(nextTag());
  std::vector<at::Tensor> token = {at::zeros({1}, at::kInt)};
  if (rank != 0) {
    auto sendWork = send(token, 0, t1);
    auto recvWork = recv(token, 0, t2);
    try {
      sendWork->wait();
      recvWork->wait();
    } catch (const std::exception& e) {
      TORCH_CHECK(false, "Rank ", rank,
                  " successfully reached monitoredBarrier, but received errors while waiting for "
                  "send/recv from rank 0. Please check rank 0 logs for faulty rank.\n Original "
                  "exception: \n",
                  e.what());
    }
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  // Waits for each rank's work in turn; what is left of the timeout, unless waiting for all.
  auto waitLoop = [&](const std::map<int, c10::intrusive_ptr<Work>>& works) {
    std::vector<int> responded;
    for (const auto& work : works) {
      auto remaining = timeout;
      if (!waitAllRanks) {
        remaining = timeout - std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now() - start);
        if (remaining.count() <= 0) {
          std::ostringstream done;
          for (size_t i = 0; i < responded.size(); ++i) done << (i ? ", " : "") << responded[i];
          TORCH_CHECK(false, "Rank ", rank, " timed out in monitoredBarrier after ",
                      timeout.count(), " ms.\n",
                      responded.empty() ? std::string("No ranks successfully processed in "
                                                      "monitoredBarrier.")
                                        : "Successfully processed ranks: " + done.str());
        }
      }
      try {
        work.second->wait(remaining);
        responded.push_back(work.first);
      } catch (const std::exception& e) {
        TORCH_CHECK(waitAllRanks, "[Rank 0]: Rank ", work.first,
                    " failed to pass monitoredBarrier in ", timeout.count(),
                    " ms\n Original "
                    "exception: \n",
                    e.what());
      }
    }
    if (waitAllRanks && static_cast<int>(responded.size()) != size_ - 1) {
      std::ostringstream failed;
      bool first = true;
      for (int r = 1; r < size_; ++r) {
        if (std::find(responded.begin(), responded.end(), r) != responded.end()) continue;
        failed << (first ? "" : ", ") << r;
        first = false;
      }
      TORCH_CHECK(false, "[Rank 0]: Ranks ", failed.str(), " failed to pass monitoredBarrier in ",
                  timeout.count(), " ms");
    }
  };
  std::map<int, c10::intrusive_ptr<Work>> recvWorks;
  for (int r = 1; r < size_; ++r) recvWorks.emplace(r, recv(token, r, t1));
  waitLoop(recvWorks);
  // Every rank arrived: release them.
  std::map<int, c10::intrusive_ptr<Work>> sendWorks;
  for (int r = 1; r < size_; ++r) sendWorks.emplace(r, send(token, r, t2));
  waitLoop(sendWorks);
}

}  // namespace c10d
