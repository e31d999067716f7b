// Schema inference from C++ signatures, against libtorch 1.13's
// c10::inferFunctionSchemaFlattenedReturns for the same function types.

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "dispatcher/FunctionSchema.h"
#include "dispatcher/InferSchema.h"
#include "dispatcher/SchemaParser.h"

namespace {

using c10::InferredSignature;

TEST(InferSchema, ListsWhateverHoldsThem) {
  using F = std::vector<int64_t>(c10::ArrayRef<double>, std::array<bool, 2>,
                                 c10::List<c10::optional<int64_t>>, std::vector<std::string>);
  EXPECT_EQ(InferredSignature::make<F>().str(),
            "(float[] _0, bool[] _1, int?[] _2, str[] _3) -> int[] _0");
  using G = std::tuple<std::array<at::Tensor, 3>, c10::optional<std::vector<double>>>(
      c10::ArrayRef<std::string>, c10::List<at::Tensor>, c10::optional<c10::List<int64_t>>);
  EXPECT_EQ(InferredSignature::make<G>().str(),
            "(str[] _0, Tensor[] _1, int[]? _2) -> (Tensor[] _0, float[]? _1)");
}

TEST(InferSchema, DictsAndTheUnorderedMapsThatStandForThem) {
  using F = c10::Dict<std::string, at::Tensor>(
      std::unordered_map<int64_t, std::string>,
      c10::Dict<int64_t, c10::List<c10::optional<c10::Dict<int64_t, std::string>>>>);
  EXPECT_EQ(InferredSignature::make<F>().str(),
            "(Dict(int, str) _0, Dict(int, Dict(int, str)?[]) _1) -> Dict(str, Tensor) _0");
  auto schema = torch::jit::parseSchema("f(Dict(str, Tensor) a) -> Dict(int, str)");
  using G = std::unordered_map<int64_t, std::string>(c10::Dict<std::string, at::Tensor>);
  EXPECT_EQ(InferredSignature::make<G>().mismatch_reason(schema), "");
}

TEST(InferSchema, AFixedSizeListTakesAnyListOfItsType) {
  auto schema = torch::jit::parseSchema("f(bool[3] a, int[2] b) -> ()");
  EXPECT_EQ(InferredSignature::make<void(std::array<bool, 3>, c10::IntArrayRef)>().mismatch_reason(
                schema),
            "");
  EXPECT_EQ(InferredSignature::make<void(std::vector<bool>, double)>().mismatch_reason(schema),
            "Type mismatch in argument 2: int[] vs float");
}

TEST(InferSchema, ASchemaTextForAName) {
  EXPECT_EQ(
      InferredSignature::make<at::Tensor(const at::Tensor&, c10::optional<int64_t>)>().schema_text(
          "ns::op.overload"),
      "ns::op.overload(Tensor _0, int? _1) -> Tensor _0");
}

}  // namespace
