// IValue's identity (is, isAliasOf, isPtrType), hashing, subvalues, WeakIValue, and the kinds
// beside the containers (complex, Storage, Stream, Object, Enum, Blob); expected values read off
// libtorch 1.13.
#include <gtest/gtest.h>

#include <sstream>

#include "c10/core/CPUAllocator.h"
#include "c10/core/TensorImpl.h"
#include "dispatcher/IValue.h"
#include "TestUtils.h"

namespace {

using c10::IValue;

using test_util::printed;

using test_util::error_of;

at::Tensor make_tensor() {
  c10::Storage storage(c10::Storage::use_byte_size_t(), 16, c10::GetCPUAllocator());
  return at::detail::make_tensor<c10::TensorImpl>(std::move(storage),
                                                  c10::keysetForBackend(c10::DispatchKey::CPU),
                                                  caffe2::TypeMeta::Make<float>());
}

TEST(IValueKinds, ComplexPrintsAsLibtorch) {
  EXPECT_EQ(printed(IValue(c10::complex<double>(2, -3))), "2.-3.j");
  EXPECT_EQ(printed(IValue(c10::complex<double>(2, 0))), "2.+0.j");
  EXPECT_EQ(printed(IValue(c10::complex<double>(0.5, 1e-8))), "0.5+1e-08j");
  EXPECT_EQ(printed(IValue(c10::complex<double>(-0.0, 0.1))), "0.+0.10000000000000001j");
  IValue c(c10::Scalar(c10::complex<double>(2, 3)));
  EXPECT_TRUE(c.isComplexDouble());
  EXPECT_TRUE(c.isScalar());
  EXPECT_TRUE(c.toScalar().equal(c10::complex<double>(2, 3)));
  EXPECT_EQ(c.tagKind(), "ComplexDouble");
  EXPECT_EQ(error_of([] { IValue(1).toComplexDouble(); }), "Expected ComplexDouble but got Int");
}

TEST(IValueKinds, StorageStreamDeviceBlob) {
  EXPECT_EQ(printed(IValue(c10::Storage())), "0");
  EXPECT_EQ(IValue(c10::Storage()).tagKind(), "Storage");
  const c10::Stream s(c10::Stream::DEFAULT, c10::Device(c10::DeviceType::CUDA, 1));
  EXPECT_EQ(printed(IValue(s)), "stream 0 on device cuda:1");
  EXPECT_EQ(IValue(s).toStream(), s);
  EXPECT_TRUE(IValue(s).equals(s).toBool());
  EXPECT_EQ(printed(IValue(c10::Device(c10::DeviceType::CUDA, 2))), "cuda:2");
  auto blob = c10::make_intrusive<caffe2::Blob>();
  EXPECT_EQ(printed(IValue(blob)), "Blob[nullptr (uninitialized)]");
  *blob->GetMutable<int>() = 3;
  EXPECT_EQ(printed(IValue(blob)), "Blob[int]");
  EXPECT_EQ(blob->Get<int>(), 3);
}

TEST(IValueIdentity, IsAndIsAliasOf) {
  at::Tensor t = make_tensor();
  IValue a(t), b(t), other(make_tensor());
  EXPECT_TRUE(a.is(b));
  EXPECT_FALSE(a.is(other));
  EXPECT_TRUE(IValue().is(IValue(at::Tensor())));  // an undefined tensor is None
  IValue s("a");
  EXPECT_TRUE(s.is(s));
  EXPECT_FALSE(IValue("a").is(IValue("a")));  // two strings
  EXPECT_TRUE(IValue(1).is(IValue(1)));       // numbers by value
  EXPECT_TRUE(a.isAliasOf(b));
  EXPECT_FALSE(a.isAliasOf(other));
  EXPECT_FALSE(IValue(1).isAliasOf(IValue(1)));
  EXPECT_TRUE(a.isPtrType());
  EXPECT_FALSE(IValue(at::Tensor()).isPtrType());
  EXPECT_FALSE(IValue(c10::Storage()).isPtrType());
  EXPECT_EQ(a.internalToPointer(), t.unsafeGetTensorImpl());
  EXPECT_EQ(IValue(1).use_count(), 1u);
  EXPECT_EQ(IValue("s").use_count(), 1u);
}

TEST(IValueHash, AsLibtorch) {
  EXPECT_EQ(IValue().hash().toInt(), 0);
  EXPECT_EQ(IValue(1).hash().toInt(), 1);
  EXPECT_EQ(IValue(true).hash().toInt(), 1);
  EXPECT_EQ(IValue(1.5).hash().toInt(), 4982507072649106663);
  EXPECT_EQ(IValue("ab").hash().toInt(), 5498234120169091963);
  EXPECT_EQ(IValue(c10::Device(c10::DeviceType::CUDA, 2)).hash().toInt(), 65538);
  EXPECT_NE(IValue(at::Tensor()).hash().toInt(), IValue().hash().toInt());
  at::Tensor t = make_tensor();
  EXPECT_EQ(IValue(t).hash().toInt(), IValue(t).hash().toInt());
  EXPECT_NE(IValue(t).hash().toInt(), IValue(make_tensor()).hash().toInt());
  EXPECT_EQ(error_of([] { IValue(std::vector<int64_t>{1}).hash(); }),
            "unhashable type: 'List[int]'");
  EXPECT_EQ(error_of([] { IValue(std::vector<std::string>{"a"}).hash(); }),
            "unhashable type: 'List[str]'");
  EXPECT_EQ(error_of([] { IValue(c10::complex<double>(1, 2)).hash(); }),
            "unhashable type: 'complex'");
  EXPECT_EQ(
      error_of([] {
        IValue(c10::Stream(c10::Stream::DEFAULT, c10::Device(c10::DeviceType::CPU, 0))).hash();
      }),
      "unhashable type: 'Stream'");
  EXPECT_EQ(error_of([] { IValue(c10::make_intrusive<caffe2::Blob>()).hash(); }),
            "unhashable type: 'Any'");
}

TEST(IValueIdentity, SubValuesOfContainers) {
  at::Tensor t1 = make_tensor(), t2 = make_tensor();
  IValue list(std::vector<at::Tensor>{t1, t2});
  IValue::HashAliasedIValues sub;
  list.getSubValues(sub);
  EXPECT_EQ(sub.size(), 3u);
  EXPECT_EQ(sub.count(IValue(t1)), 1u);
  sub.clear();
  IValue(42).getSubValues(sub);
  EXPECT_TRUE(sub.empty());
}

TEST(WeakIValue, LocksWhileHeldNoneAfter) {
  IValue s = std::string("abc");
  c10::WeakIValue weak(s);
  EXPECT_EQ(weak.use_count(), 1u);
  EXPECT_EQ(printed(weak.lock()), "abc");
  s = IValue();
  EXPECT_TRUE(weak.lock().isNone());
  at::Tensor t = make_tensor();
  c10::WeakIValue weak_tensor{IValue(t)};
  EXPECT_TRUE(weak_tensor.lock().toTensor().is_same(t));
  t.reset();
  EXPECT_TRUE(weak_tensor.lock().isNone());
  EXPECT_EQ(c10::WeakIValue(IValue(5)).lock().toInt(), 5);
  EXPECT_EQ(c10::WeakIValue(IValue(5)).use_count(), 1u);
}

TEST(IValueObjects, ClassesObjectsAndEnums) {
  auto cu = std::make_shared<c10::CompilationUnit>();
  auto cls = c10::ClassType::create("foo.Bar", cu);
  EXPECT_EQ(cls->addAttribute("w", c10::TensorType::get()), 0u);
  EXPECT_EQ(cls->addAttribute("b", c10::IntType::get()), 1u);
  auto obj = c10::ivalue::Object::create(c10::StrongTypePtr(cu, cls), 2);
  obj->setAttr("b", 3);
  EXPECT_EQ(obj->getAttr("b").toInt(), 3);
  EXPECT_EQ(obj->name(), "foo.Bar");
  IValue o(obj);
  EXPECT_TRUE(o.isPtrType());
  EXPECT_EQ(printed(o).rfind("<foo.Bar object at 0x", 0), 0u);
  obj->unsafeRemoveAttr("w");
  EXPECT_EQ(obj->slots().size(), 1u);
  EXPECT_TRUE(cls->hasAttribute("w"));

  auto color = c10::EnumType::create("a.b.Color", c10::IntType::get(), {{"RED", 1}}, cu);
  auto red = c10::make_intrusive<c10::ivalue::EnumHolder>(color, "RED", 1);
  EXPECT_EQ(printed(IValue(red)), "Enum<Color.RED>");
  EXPECT_EQ(red->qualifiedClassName(), "a.b.Color");
  EXPECT_EQ(IValue(red), IValue(c10::make_intrusive<c10::ivalue::EnumHolder>(color, "RED", 1)));
  EXPECT_EQ(error_of([] { c10::EnumType::create("E", c10::TensorType::get(), {}, {}); }),
            "Cannot create Enum with value type 'Tensor', only int, float and string are "
            "supported");
}

}  // namespace
