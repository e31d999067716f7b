#include <gtest/gtest.h>

#include "c10/util/Exception.h"
#include "dispatcher/SchemaType.h"

namespace {

using c10::SchemaType;
using c10::TypeKind;
using c10::TypePtr;

TypePtr leaf(TypeKind kind) {
  return SchemaType::get(kind);
}

TEST(SchemaType, LeavesAreSharedSingletons) {
  EXPECT_EQ(leaf(TypeKind::Tensor).get(), leaf(TypeKind::Tensor).get());
  EXPECT_NE(leaf(TypeKind::Int).get(), leaf(TypeKind::SymInt).get());
  EXPECT_EQ(leaf(TypeKind::Int)->kind(), TypeKind::Int);
  EXPECT_TRUE(leaf(TypeKind::Int)->containedTypes().empty());
  EXPECT_THROW(SchemaType::get(TypeKind::List), c10::Error);
}

TEST(SchemaType, PrintsAsLibtorchSpellsTypesInASchema) {
  const std::pair<TypeKind, const char*> leaves[] = {
      {TypeKind::Tensor, "Tensor"},
      {TypeKind::Int, "int"},
      {TypeKind::SymInt, "SymInt"},
      {TypeKind::Float, "float"},
      {TypeKind::Complex, "complex"},
      {TypeKind::Bool, "bool"},
      {TypeKind::Str, "str"},
      {TypeKind::Scalar, "Scalar"},
      {TypeKind::ScalarType, "ScalarType"},
      {TypeKind::Layout, "Layout"},
      {TypeKind::MemoryFormat, "MemoryFormat"},
      {TypeKind::Device, "Device"},
      {TypeKind::Generator, "Generator"},
      {TypeKind::Storage, "Storage"},
      {TypeKind::Stream, "Stream"},
      {TypeKind::QScheme, "QScheme"},
      {TypeKind::Quantizer, "Quantizer"},
      {TypeKind::Capsule, "Capsule"},
      {TypeKind::Any, "Any"},
      {TypeKind::AnyClassType, "AnyClassType"},
      {TypeKind::AnyEnumType, "AnyEnumType"},
      {TypeKind::NoneType, "NoneType"},
  };
  for (const auto& [kind, name] : leaves) EXPECT_EQ(leaf(kind)->str(), name);

  const TypePtr tensor = leaf(TypeKind::Tensor);
  EXPECT_EQ(SchemaType::list(SchemaType::optional(tensor))->str(), "Tensor?[]");
  EXPECT_EQ(SchemaType::optional(SchemaType::list(leaf(TypeKind::Int)))->str(), "int[]?");
  EXPECT_EQ(SchemaType::list(SchemaType::list(tensor))->str(), "Tensor[][]");
  EXPECT_EQ(SchemaType::dict(leaf(TypeKind::Str), SchemaType::var("t"))->str(), "Dict(str, t)");
  EXPECT_EQ(SchemaType::future(SchemaType::var("t"))->str(), "Future(t)");
  EXPECT_EQ(SchemaType::rref(tensor)->str(), "RRef(Tensor)");
  EXPECT_EQ(SchemaType::list(SchemaType::tuple({leaf(TypeKind::Str), SchemaType::var("t")}))->str(),
            "(str, t)[]");
  EXPECT_EQ(SchemaType::tuple({})->str(), "()");
  EXPECT_EQ(SchemaType::custom_class("__torch__.torch.classes.c10d.Work")->str(),
            "__torch__.torch.classes.c10d.Work");
}

TEST(SchemaType, PredicatesTheDispatcherUses) {
  const TypePtr tensor = leaf(TypeKind::Tensor);
  const TypePtr opt = SchemaType::optional(tensor);
  const TypePtr list = SchemaType::list(tensor);
  const TypePtr opt_list = SchemaType::list(opt);
  EXPECT_TRUE(tensor->isTensor());
  EXPECT_TRUE(opt->isOptionalTensor() && !opt->isTensor());
  EXPECT_TRUE(list->isTensorList() && !list->isOptionalTensorList());
  EXPECT_TRUE(opt_list->isOptionalTensorList() && !opt_list->isTensorList());
  EXPECT_FALSE(SchemaType::optional(list)->isTensorList());  // Tensor[]? is neither
  EXPECT_FALSE(SchemaType::list(leaf(TypeKind::Int))->isTensorList());
  EXPECT_TRUE(list->isList());
  EXPECT_TRUE(opt->isOptional());
  for (TypeKind k : {TypeKind::Int, TypeKind::SymInt, TypeKind::ScalarType, TypeKind::Layout,
                     TypeKind::MemoryFormat}) {
    EXPECT_TRUE(leaf(k)->isIntLike());
  }
  EXPECT_FALSE(leaf(TypeKind::Float)->isIntLike());
}

TEST(SchemaType, EqualityIsStructural) {
  const TypePtr a = SchemaType::list(SchemaType::optional(leaf(TypeKind::Tensor)));
  const TypePtr b = SchemaType::list(SchemaType::optional(leaf(TypeKind::Tensor)));
  EXPECT_NE(a.get(), b.get());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *SchemaType::list(leaf(TypeKind::Tensor)));
  EXPECT_NE(*SchemaType::var("t"), *SchemaType::var("u"));
  EXPECT_EQ(a->getElementType()->getElementType().get(), leaf(TypeKind::Tensor).get());
  EXPECT_THROW(leaf(TypeKind::Int)->getElementType(), c10::Error);
}

}  // namespace
