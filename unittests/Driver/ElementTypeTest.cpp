//===- ElementTypeTest.cpp ------------------------------------------------===//

#include "ptxjit/Driver/ElementType.h"
#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"

using namespace ptxjit::driver;

TEST(ElementTypeTest, EveryTypeParsesAndHasItsSize) {
  struct {
    const char *Name;
    ElementType Ty;
    unsigned Size;
    bool IsFloat;
    bool IsSigned;
  } Cases[] = {
      {"u8", ElementType::U8, 1, false, false},
      {"s8", ElementType::S8, 1, false, true},
      {"u16", ElementType::U16, 2, false, false},
      {"s16", ElementType::S16, 2, false, true},
      {"u32", ElementType::U32, 4, false, false},
      {"s32", ElementType::S32, 4, false, true},
      {"u64", ElementType::U64, 8, false, false},
      {"s64", ElementType::S64, 8, false, true},
      {"f16", ElementType::F16, 2, true, false},
      {"bf16", ElementType::BF16, 2, true, false},
      {"f32", ElementType::F32, 4, true, false},
      {"f64", ElementType::F64, 8, true, false},
  };
  for (const auto &C : Cases) {
    SCOPED_TRACE(C.Name);
    std::optional<ElementType> Ty = parseElementType(C.Name);
    ASSERT_TRUE(Ty.has_value());
    EXPECT_EQ(*Ty, C.Ty);
    EXPECT_EQ(getElementTypeName(C.Ty), C.Name);
    EXPECT_EQ(getElementSize(C.Ty), C.Size);
    EXPECT_EQ(getElementBits(C.Ty), 8 * C.Size);
    EXPECT_EQ(isFloatElement(C.Ty), C.IsFloat);
    EXPECT_EQ(isSignedElement(C.Ty), C.IsSigned);
  }
}

TEST(ElementTypeTest, RejectsOtherNames) {
  for (const char *Name : {"", "f8", "F32", "b32", "i32", "u128", "f32 "})
    EXPECT_FALSE(parseElementType(Name).has_value()) << Name;
}

TEST(ElementTypeTest, NameListAndSemantics) {
  EXPECT_EQ(getElementTypeNameList(),
            "u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64");
  EXPECT_EQ(&getFloatSemantics(ElementType::F16), &llvm::APFloat::IEEEhalf());
  EXPECT_EQ(&getFloatSemantics(ElementType::BF16), &llvm::APFloat::BFloat());
  EXPECT_EQ(&getFloatSemantics(ElementType::F64), &llvm::APFloat::IEEEdouble());
}

TEST(ElementTypeTest, NpyDescrs) {
  EXPECT_EQ(getNpyDescr(ElementType::U8), "|u1");
  EXPECT_EQ(getNpyDescr(ElementType::S8), "|i1");
  EXPECT_EQ(getNpyDescr(ElementType::S32), "<i4");
  EXPECT_EQ(getNpyDescr(ElementType::U64), "<u8");
  EXPECT_EQ(getNpyDescr(ElementType::F16), "<f2");
  EXPECT_EQ(getNpyDescr(ElementType::BF16), "<V2");
  EXPECT_EQ(getNpyDescr(ElementType::F64), "<f8");
}
