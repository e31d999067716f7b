#pragma once
// A test fixture for tests that change the process-wide thread count: it restores the count
// each test found, so the tests after it run with the machine's default again.
//
//   using ParallelTest = test_util::ThreadCountTest;
//   TEST_F(ParallelTest, Something) { at::set_num_threads(4); ... }

#include <gtest/gtest.h>

#include "aten/Parallel.h"

namespace test_util {

class ThreadCountTest : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = at::get_num_threads(); }
  void TearDown() override { at::set_num_threads(saved_); }
  int saved_ = 1;  // the count the test found
};

}  // namespace test_util
