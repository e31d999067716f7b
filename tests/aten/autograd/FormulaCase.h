#pragma once
// One backward formula checked two ways: the output's node name against libtorch 1.13's (printed
// by a libtorch program: t.grad_fn()->name()) and the gradients against finite differences
// (GradCheck.h). The tables are in Formulas_test.cpp and FormulasReductions_test.cpp.
//
//   const FormulaCase kCases[] = {
//       {"exp_", "ExpBackward0", [] { return one({4}); },
//        [](const TensorList& in) { return in[0].clone().exp_(); }}};

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "GradCheck.h"

namespace miniaten_test {

struct FormulaCase {
  std::string label;
  std::string node;  // libtorch's grad_fn()->name() of the output
  std::function<TensorList()> inputs;
  Fn fn;
};

inline std::ostream& operator<<(std::ostream& os, const FormulaCase& c) {
  return os << c.label;
}

inline void check_formula(const FormulaCase& c) {
  const TensorList inputs = c.inputs();
  EXPECT_EQ(c.fn(inputs).grad_fn()->name(), c.node);
  EXPECT_TRUE(gradcheck(c.fn, inputs));
}

inline TensorList one(std::vector<int64_t> sizes, double offset = 0.5) {
  return {leaf(sizes, offset)};
}
inline TensorList two(std::vector<int64_t> a, std::vector<int64_t> b) {
  return {leaf(a), leaf(b, 1.0)};
}

// A transposed (non-contiguous) double leaf.
inline TensorList transposed(std::vector<int64_t> sizes) {
  at::Tensor t = leaf(sizes).detach().t();
  t.set_requires_grad(true);
  return {t};
}

}  // namespace miniaten_test
