// Node's own containers: the next edges (a std::vector<Edge> whose buffers come from per-thread
// free lists, Note [Edge lists from free lists] in Node.h) and the input metadata (input 0 kept
// in the node, the rest in a vector).

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

#include "aten/autograd/autograd.h"
#include "c10/util/FreeList.h"
#include "tests/TestUtils.h"

namespace {

using torch::autograd::Edge;
using torch::autograd::edge_list;
using torch::autograd::Node;

constexpr bool kCaching = c10::FreeList::kEnabled;  // nothing is cached under AddressSanitizer

// libtorch source names both spellings: they must stay one type.
static_assert(std::is_same<edge_list, std::vector<Edge>>::value, "edge_list is std::vector<Edge>");
static_assert(std::is_same<edge_list::allocator_type, std::allocator<Edge>>::value, "");
static_assert(std::allocator_traits<std::allocator<Edge>>::is_always_equal::value, "");
static_assert(std::is_same<std::allocator_traits<std::allocator<Edge>>::rebind_alloc<int>,
                           std::allocator<int>>::value,
              "rebinding leaves the specialization");

// A node that names itself and passes its gradient through, for edges to point at.
struct Leaf : Node {
  std::string name() const override { return "Leaf"; }
  torch::autograd::variable_list apply(torch::autograd::variable_list&& grads) override {
    return std::move(grads);
  }
};

TEST(EdgeList, HoldsAnyNumberOfEdges) {
  auto fn = std::make_shared<Leaf>();
  for (uint32_t n = 0; n <= 9; ++n) {  // the cached lengths 1-4 and the global heap beyond
    edge_list edges;
    for (uint32_t i = 0; i < n; ++i) edges.emplace_back(fn, i);
    ASSERT_EQ(edges.size(), n);
    edge_list copy = edges;
    edge_list moved = std::move(edges);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(copy[i].function, fn);
      EXPECT_EQ(copy[i].input_nr, i);
      EXPECT_EQ(moved[i], copy[i]);
    }
    copy.shrink_to_fit();
    copy.clear();
  }
  EXPECT_EQ(fn.use_count(), 1);  // every edge let go of the node
}

TEST(EdgeList, ABufferOfOneOrTwoEdgesIsReused) {
  if (!kCaching) GTEST_SKIP() << "AddressSanitizer build: the lists cache nothing";
  for (size_t n : {1, 2}) {
    const Edge* first = nullptr;
    {
      edge_list edges;
      edges.reserve(n);
      first = edges.data();
    }
    edge_list again;
    again.reserve(n);
    EXPECT_EQ(again.data(), first) << n << " edges";  // last freed, first taken
  }
}

TEST(EdgeList, ABufferFreedOnAnotherThread) {
  auto fn = std::make_shared<Leaf>();
  auto edges = std::make_unique<edge_list>();
  edges->emplace_back(fn, 0);
  std::thread([&] { edges.reset(); }).join();  // joins that thread's list, drained at its exit
  edge_list here;
  here.emplace_back(fn, 1);
  EXPECT_EQ(here[0].input_nr, 1u);
  EXPECT_EQ(fn.use_count(), 2);
}

TEST(NodeInputs, OneForEachOutputOfTheForwardCall) {
  auto x = torch::ones({2, 3}, torch::requires_grad());
  auto y = x.to(at::kDouble).clone();
  const auto& clone_fn = y.grad_fn();
  ASSERT_EQ(clone_fn->num_inputs(), 1u);
  EXPECT_EQ(clone_fn->input_metadata(0).shape(), c10::IntArrayRef({2, 3}));
  EXPECT_EQ(clone_fn->input_metadata(0).dtype(), at::kDouble);

  // unbind's node has one input per piece: the first kept in the node, the rest after it.
  std::vector<at::Tensor> columns = x.unbind(1);
  const auto& unbind_fn = columns[0].grad_fn();
  ASSERT_EQ(unbind_fn->num_inputs(), 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(unbind_fn->input_metadata(i).shape(), c10::IntArrayRef({2}));
    EXPECT_EQ(unbind_fn->input_metadata(i).dtype(), at::kFloat);
    EXPECT_EQ(columns[i].output_nr(), i);
  }
  // The pieces nobody used get zeros of their recorded shape.
  (columns[2] * 5).sum().backward();
  const at::Tensor g = x.grad().contiguous();
  EXPECT_EQ(std::vector<float>(g.data_ptr<float>(), g.data_ptr<float>() + 6),
            (std::vector<float>{0, 0, 5, 0, 0, 5}));
}

}  // namespace
