// TensorIteratorDimVector: the inline rows of a TensorIterator (Note [Why TensorIterator has its
// own dim vector]). Values on the object up to kInlineDims, on the heap beyond; copies never
// share storage; assignment from a view of the same row.

#include <gtest/gtest.h>

#include <vector>

#include "aten/native/TensorIteratorDimVector.h"
#include "c10/util/SmallVector.h"

namespace {

using at::TensorIteratorDimVector;

std::vector<int64_t> values_of(const TensorIteratorDimVector& v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

TEST(TensorIteratorDimVector, PushBackPastTheInlineDimsMovesToTheHeapKeepingValues) {
  TensorIteratorDimVector v;
  EXPECT_TRUE(v.empty());
  const int64_t* inline_data = v.data();
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 3 * static_cast<int64_t>(TensorIteratorDimVector::kInlineDims); ++i) {
    v.push_back(i * 10);
    expected.push_back(i * 10);
    if (v.size() <= TensorIteratorDimVector::kInlineDims) {
      EXPECT_EQ(v.data(), inline_data);
    }
  }
  EXPECT_NE(v.data(), inline_data);
  EXPECT_EQ(values_of(v), expected);
}

TEST(TensorIteratorDimVector, CopiesOwnTheirValues) {
  for (size_t n : {size_t{2}, TensorIteratorDimVector::kInlineDims + 3}) {
    TensorIteratorDimVector a;
    for (size_t i = 0; i < n; ++i) a.push_back(static_cast<int64_t>(i));
    TensorIteratorDimVector b(a);
    TensorIteratorDimVector c;
    c = a;
    EXPECT_NE(b.data(), a.data());
    EXPECT_NE(c.data(), a.data());
    a[0] = 99;
    EXPECT_EQ(b[0], 0);
    EXPECT_EQ(c[0], 0);
    EXPECT_EQ(b.size(), n);
    EXPECT_EQ(c.size(), n);
  }
}

TEST(TensorIteratorDimVector, AssignsFromAnyRowIncludingAViewOfItself) {
  TensorIteratorDimVector v;
  const c10::DimVector dims{4, 3, 2, 1, 5, 6, 7};  // more than kInlineDims
  v = dims;
  EXPECT_EQ(values_of(v), std::vector<int64_t>(dims.begin(), dims.end()));
  v = c10::IntArrayRef(v).slice(2, 3);  // [2, 1, 5], from inside itself
  EXPECT_EQ(values_of(v), (std::vector<int64_t>{2, 1, 5}));
  const at::TensorIteratorDimVector& itself = v;  // self-assignment, without clang's warning
  v = itself;
  EXPECT_EQ(values_of(v), (std::vector<int64_t>{2, 1, 5}));
}

TEST(TensorIteratorDimVector, ResizeForOverwriteShrinksAndGrowsAsAnIntArrayRef) {
  TensorIteratorDimVector v;
  v.resize_for_overwrite(4);
  for (size_t i = 0; i < 4; ++i) v[i] = static_cast<int64_t>(i + 1);
  v.resize_for_overwrite(2);
  const c10::IntArrayRef view = v;
  EXPECT_EQ(view, c10::IntArrayRef({1, 2}));
  v.resize_for_overwrite(TensorIteratorDimVector::kInlineDims + 1);
  EXPECT_EQ(v[0], 1);  // growing keeps what was there
  EXPECT_EQ(v[1], 2);
  EXPECT_EQ(v.size(), TensorIteratorDimVector::kInlineDims + 1);
}

}  // namespace
