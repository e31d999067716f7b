// c10d probe: a program written against libtorch 1.13's c10d API (stores, ProcessGroupGloo,
// Work, the c10d::ops:: operators), built unchanged against miniaten; its output must match
// what it printed against libtorch (c10d_probe.libtorch.txt), but for the lines listed in
// c10d_probe.differences.txt. Two ranks are threads meeting in a HashStore; each rank's lines
// are printed after both finish, rank 0's first.
// Built against libtorch with: g++ -std=c++17 -DUSE_C10D_GLOO c10d_probe.cpp
//   -I/usr/include/torch/csrc/api/include -ltorch -ltorch_cpu -lc10 -lgloo -lpthread
#include <ATen/ATen.h>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/Ops.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

std::string first_line(const std::string& s) {
  const auto p = s.find('\n');
  return p == std::string::npos ? s : s.substr(0, p);
}

std::string vals(const at::Tensor& t) {
  std::ostringstream os;
  at::Tensor c = t.contiguous().reshape({-1}).to(at::kDouble).contiguous();
  os << "[";
  for (int64_t i = 0; i < c.numel(); ++i) os << (i ? " " : "") << c.data_ptr<double>()[i];
  os << "]";
  return os.str();
}

// The first line of what f throws, or "ok".
std::string outcome(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return "error: " + first_line(e.msg());
  } catch (const std::exception& e) {
    return "error: " + first_line(e.what());
  }
  return "ok";
}

void rank_body(int rank, const c10::intrusive_ptr<c10d::Store>& store, std::ostream& out) {
  auto opts = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(20));
  opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(
      c10::make_intrusive<c10d::PrefixStore>("probe", store), rank, 2, opts);
  const std::string r = "r" + std::to_string(rank) + ".";
  out << r << "backend " << pg->getBackendName() << " rank " << pg->getRank() << " size "
      << pg->getSize() << " threads " << pg->getNumThreads() << "\n";

  for (auto op :
       {c10d::ReduceOp::SUM, c10d::ReduceOp::PRODUCT, c10d::ReduceOp::MIN, c10d::ReduceOp::MAX,
        c10d::ReduceOp::BAND, c10d::ReduceOp::BOR, c10d::ReduceOp::BXOR}) {
    std::vector<at::Tensor> t{at::full({3}, rank == 0 ? 6 : 3, at::kLong)};
    c10d::AllreduceOptions o;
    o.reduceOp = op;
    auto work = pg->allreduce(t, o);
    work->wait();
    out << r << "allreduce.op" << static_cast<int>(op) << " " << vals(t[0])
        << " completed=" << work->isCompleted() << " success=" << work->isSuccess()
        << " result=" << work->result().size() << "\n";
  }
  for (auto type : {at::kFloat, at::kDouble, at::kHalf, at::kChar, at::kByte, at::kInt}) {
    std::vector<at::Tensor> t{at::full({2}, rank + 1, at::TensorOptions().dtype(type))};
    pg->allreduce(t)->wait();
    out << r << "allreduce.sum." << c10::toString(type) << " " << vals(t[0]) << "\n";
  }
  {
    std::vector<at::Tensor> two{at::full({2}, rank + 1.0), at::full({2}, 10.0 * (rank + 1))};
    pg->allreduce(two)->wait();
    out << r << "allreduce.two_tensors " << vals(two[0]) << " " << vals(two[1]) << "\n";
  }
  {
    std::vector<at::Tensor> t{at::full({4}, rank * 10.0)};
    c10d::BroadcastOptions o;
    o.rootRank = 1;
    pg->broadcast(t, o)->wait();
    out << r << "broadcast.root1 " << vals(t[0]) << "\n";
  }
  {
    std::vector<at::Tensor> t{at::full({2}, rank == 0 ? 5.0 : 3.0)};
    c10d::ReduceOptions o;
    o.reduceOp = c10d::ReduceOp::MAX;
    o.rootRank = 1;
    pg->reduce(t, o)->wait();
    out << r << "reduce.max.root1 " << vals(t[0]) << "\n";
  }
  {
    std::vector<std::vector<at::Tensor>> outs{{at::zeros({2}), at::zeros({2})}};
    std::vector<at::Tensor> in{at::full({2}, rank + 1.0)};
    auto work = pg->allgather(outs, in);
    work->wait();
    out << r << "allgather " << vals(outs[0][0]) << " " << vals(outs[0][1])
        << " result=" << work->result().size() << "\n";
  }
  {
    std::vector<std::vector<at::Tensor>> outs;
    if (rank == 0) outs = {{at::zeros({1}), at::zeros({1})}};
    std::vector<at::Tensor> in{at::full({1}, rank + 7.0)};
    auto work = pg->gather(outs, in);
    work->wait();
    out << r << "gather.root0 " << (rank == 0 ? vals(outs[0][0]) + " " + vals(outs[0][1]) : "-")
        << " result=" << work->result().size() << "\n";
  }
  {
    std::vector<at::Tensor> mine{at::zeros({2})};
    std::vector<std::vector<at::Tensor>> all;
    if (rank == 0) all = {{at::full({2}, 1.0), at::full({2}, 2.0)}};
    pg->scatter(mine, all)->wait();
    out << r << "scatter.root0 " << vals(mine[0]) << "\n";
  }
  {
    at::Tensor in = at::arange(4, at::TensorOptions().dtype(at::kFloat)) + 10 * rank;
    at::Tensor o = at::zeros({4});
    std::vector<int64_t> none;
    pg->alltoall_base(o, in, none, none)->wait();
    out << r << "alltoall_base " << vals(o) << "\n";
  }
  pg->barrier()->wait();
  out << r << "barrier ok\n";
  if (rank == 0) {
    std::vector<at::Tensor> t{at::full({3}, 42.0)};
    auto work = pg->send(t, 1, 5);
    work->wait();
    out << r << "send " << outcome([&] { work->sourceRank(); }) << "\n";
  } else {
    std::vector<at::Tensor> t{at::zeros({3})};
    auto work = pg->recv(t, 0, 5);
    work->wait();
    out << r << "recv " << vals(t[0]) << " source=" << work->sourceRank() << "\n";
  }
  {
    at::Tensor t = at::full({2}, rank + 1.0);
    c10d::ops::allreduce(pg, {t})->wait();
    out << r << "ops.allreduce " << vals(t) << "\n";
    c10d::ops::barrier(pg)->wait();
    out << r << "ops.barrier ok\n";
  }

  // Refusals, at the call (rank 0 only: nothing reaches the other rank).
  if (rank == 0) {
    std::vector<at::Tensor> none;
    std::vector<at::Tensor> one{at::ones({4})};
    std::vector<at::Tensor> mixed{at::ones({4}), at::ones({4}, at::kDouble)};
    std::vector<at::Tensor> sized{at::ones({4}), at::ones({2, 2})};
    std::vector<std::vector<at::Tensor>> no_lists;
    c10d::BroadcastOptions bad_root;
    bad_root.rootRank = 2;
    out << r << "err.broadcast.root " << outcome([&] { pg->broadcast(one, bad_root); }) << "\n";
    out << r << "err.allreduce.empty " << outcome([&] { pg->allreduce(none); }) << "\n";
    out << r << "err.allreduce.mixed_types " << outcome([&] { pg->allreduce(mixed); }) << "\n";
    out << r << "err.allreduce.mixed_sizes " << outcome([&] { pg->allreduce(sized); }) << "\n";
    out << r << "err.reduce.two " << outcome([&] { pg->reduce(sized); }) << "\n";
    out << r << "err.allgather.lengths " << outcome([&] { pg->allgather(no_lists, one); }) << "\n";
    out << r << "err.gather.outputs " << outcome([&] { pg->gather(no_lists, one); }) << "\n";
    out << r << "err.scatter.inputs " << outcome([&] { pg->scatter(one, no_lists); }) << "\n";
    out << r << "err.reduce_scatter " << outcome([&] { pg->reduce_scatter(one, no_lists); })
        << "\n";
    at::Tensor a = at::ones({4});
    out << r << "err._allgather_base " << outcome([&] { pg->_allgather_base(a, a); }) << "\n";
    out << r << "err.alltoall " << outcome([&] { pg->alltoall(one, one); }) << "\n";
    out << r << "err.send.tag " << outcome([&] { pg->send(one, 1, -1); }) << "\n";
    out << r << "err.send.two " << outcome([&] { pg->send(sized, 1, 0); }) << "\n";
  }
  // Refusals from wait(), on both ranks (the work fails the same way everywhere).
  for (auto op : {c10d::ReduceOp::AVG, c10d::ReduceOp::BAND}) {
    std::vector<at::Tensor> t{at::ones({2})};
    c10d::AllreduceOptions o;
    o.reduceOp = op;
    auto work = pg->allreduce(t, o);
    out << r << "wait_err.op" << static_cast<int>(op) << " " << outcome([&] { work->wait(); })
        << " completed=" << work->isCompleted() << " success=" << work->isSuccess() << "\n";
  }
  {
    std::vector<at::Tensor> t{at::ones({2}, at::kShort)};
    auto work = pg->allreduce(t);
    out << r << "wait_err.short " << outcome([&] { work->wait(); }) << "\n";
  }
  // These failed before any communication, on each rank alike: no rank waits for another here.
}

}  // namespace

int main() {
  auto store = c10::make_intrusive<c10d::HashStore>();
  std::ostringstream outs[2];
  std::vector<std::thread> threads;
  for (int rank = 0; rank < 2; ++rank) {
    threads.emplace_back([&, rank] {
      try {
        rank_body(rank, store, outs[rank]);
      } catch (const std::exception& e) {
        outs[rank] << "r" << rank << ".failed " << first_line(e.what()) << "\n";
      }
    });
  }
  for (auto& t : threads) t.join();
  std::cout << outs[0].str() << outs[1].str();
  return 0;
}
