//===- RuntimeABITest.cpp - IRGen's and the runtime's view agree ----------===//

#include "ptxjit/IRGen/RuntimeABI.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "ptxjit/ABI/WarpABI.h"
#include "ptxjit/Runtime/WarpRuntime.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/TargetSelect.h"
#include "gtest/gtest.h"
#include <cstddef>

using namespace llvm;
using namespace ptxjit;

namespace {

DataLayout getHostDataLayout() {
  InitializeNativeTarget();
  auto JTMB = orc::JITTargetMachineBuilder::detectHost();
  EXPECT_TRUE(!!JTMB);
  auto DL = JTMB->getDefaultDataLayoutForTarget();
  EXPECT_TRUE(!!DL);
  return *DL;
}

TEST(RuntimeABITest, WarpContextTypeHasTheStructsLayout) {
  LLVMContext Ctx;
  StructType *Ty = getWarpContextType(Ctx);
  ASSERT_EQ(Ty->getNumElements(), unsigned(WCF_NumFields));
  // The layout lives in the DataLayout's cache: keep the DataLayout.
  DataLayout DL = getHostDataLayout();
  const StructLayout *SL = DL.getStructLayout(Ty);
  EXPECT_EQ(SL->getSizeInBytes(), sizeof(WarpContext));
  const uint64_t Offsets[] = {
#define PTXJIT_WARP_CONTEXT_FIELD(Name, Type) offsetof(WarpContext, Name),
#include "ptxjit/ABI/WarpContextFields.def"
  };
  for (unsigned F = 0; F != WCF_NumFields; ++F)
    EXPECT_EQ(SL->getElementOffset(F), Offsets[F]) << "field " << F;
  // Built once per context.
  EXPECT_EQ(getWarpContextType(Ctx), Ty);
}

TEST(RuntimeABITest, EntryTypesFollowTheirCPrototypes) {
  LLVMContext Ctx;
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx), *Void = Type::getVoidTy(Ctx);
  EXPECT_EQ(getRuntimeEntryType(Ctx, RuntimeEntry::BarSync),
            FunctionType::get(I32, {Ptr, I32, I32, I32, I32, I32, I32}, false));
  EXPECT_EQ(getRuntimeEntryType(Ctx, RuntimeEntry::AssertFail),
            FunctionType::get(Void, {I64, I64, I32, I64, Ptr}, false));
  EXPECT_EQ(
      getRuntimeEntryType(Ctx, RuntimeEntry::RoundedF64),
      FunctionType::get(Void, {I32, I32, Ptr, Ptr, Ptr, Ptr, I32}, false));
  EXPECT_EQ(getRuntimeEntryName(RuntimeEntry::Yield), "ptxjit_rt_yield");
}

TEST(RuntimeABITest, EveryEntryHasARuntimeDefinition) {
  auto Symbols = runtime::getRuntimeSymbols();
  auto Find = [&](StringRef Name) -> void * {
    for (auto &[N, Addr] : Symbols)
      if (N == Name)
        return Addr;
    return nullptr;
  };
#define PTXJIT_RUNTIME_ENTRY(Id, Name, Effects, Type)                          \
  EXPECT_EQ(Find(#Name), reinterpret_cast<void *>(&Name)) << #Name;
#define PTXJIT_RUNTIME_LIBCALL(Symbol, Name, Type)                             \
  EXPECT_EQ(Find(#Symbol), reinterpret_cast<void *>(&Name)) << #Symbol;
#include "ptxjit/ABI/RuntimeEntryPoints.def"
}

TEST(RuntimeABITest, BFloat16LibcallsRoundToNearestEven) {
  auto Bits = [](float F) { return bit_cast<uint32_t>(F) & 0xffff; };
  // 1 + 2^-8 is halfway between bf16 1.0 and 1 + 2^-7: ties to even (1.0).
  EXPECT_EQ(Bits(ptxjit_truncsfbf2(1.0f + 0x1p-8f)), 0x3f80u);
  // 1 + 3*2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6: up.
  EXPECT_EQ(Bits(ptxjit_truncsfbf2(1.0f + 3 * 0x1p-8f)), 0x3f82u);
  // The largest float rounds up to infinity.
  EXPECT_EQ(Bits(ptxjit_truncsfbf2(0x1.fffffep127f)), 0x7f80u);
  EXPECT_EQ(Bits(ptxjit_truncsfbf2(-0.0f)), 0x8000u);
  // From double, rounded once: 1 + 2^-8 + 2^-40 is above the tie.
  EXPECT_EQ(Bits(ptxjit_truncdfbf2(1.0 + 0x1p-8 + 0x1p-40)), 0x3f81u);
  uint32_t NaN = Bits(ptxjit_truncsfbf2(-__builtin_nanf("")));
  EXPECT_EQ(NaN & 0xff80u, 0xff80u);
  EXPECT_NE(NaN & 0x7fu, 0u);
}

} // namespace
