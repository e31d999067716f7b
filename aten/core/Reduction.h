#pragma once
// How a loss reduces over its elements: libtorch's at::Reduction::Reduction, an unscoped enum
// because losses take it as an int64_t argument (`int reduction=Mean` in their schemas).
//
//   at::Reduction::Mean   // 1

namespace at {
namespace Reduction {

enum Reduction {
  None,  // no reduction: one loss per element
  Mean,  // the (possibly weighted) mean
  Sum,   // the sum
  END
};

}  // namespace Reduction
}  // namespace at
