//===- CacheKeyTest.cpp - Every input of a key changes it -----------------===//

#include "ptxjit/Cache/CacheKey.h"
#include "ptxjit/JIT/KernelJIT.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <set>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cache;

namespace {

BuildFacts facts() {
  BuildFacts F;
  F.PtxJitVersion = "0.4.0";
  F.BuildId = "build-id:0123";
  F.LLVMVersion = "22.1.0";
  F.HostCPU = "znver4";
  F.HostFeatures = "+avx2,+avx512f";
  return F;
}

CacheDigest keyOf(const BuildFacts &F, StringRef Purpose = "kernel",
                  StringRef Field = "ptx", StringRef Value = "text") {
  return CacheKeyBuilder(Purpose, F).add(Field, Value).final();
}

TEST(CacheKeyTest, SameInputsSameKey) {
  EXPECT_EQ(keyOf(facts()), keyOf(facts()));
  EXPECT_EQ(toHex(keyOf(facts())).size(), 64u);
}

TEST(CacheKeyTest, EveryBuildFactChangesTheKey) {
  CacheDigest Base = keyOf(facts());
  std::set<CacheDigest> Seen{Base};
  for (std::string BuildFacts::*Field :
       {&BuildFacts::PtxJitVersion, &BuildFacts::BuildId,
        &BuildFacts::LLVMVersion, &BuildFacts::HostCPU,
        &BuildFacts::HostFeatures}) {
    BuildFacts F = facts();
    F.*Field += "x";
    EXPECT_TRUE(Seen.insert(keyOf(F)).second);
  }
  // AVX2 against AVX-512 machines.
  BuildFacts F = facts();
  F.HostFeatures = "+avx2,-avx512f";
  EXPECT_TRUE(Seen.insert(keyOf(F)).second);
}

TEST(CacheKeyTest, PurposeFieldAndValueChangeTheKey) {
  std::set<CacheDigest> Seen{keyOf(facts())};
  EXPECT_TRUE(Seen.insert(keyOf(facts(), "cuda-ptx")).second);
  EXPECT_TRUE(Seen.insert(keyOf(facts(), "kernel", "src")).second);
  EXPECT_TRUE(Seen.insert(keyOf(facts(), "kernel", "ptx", "texT")).second);
}

TEST(CacheKeyTest, FieldBoundariesCount) {
  // The same bytes split differently are different keys.
  CacheDigest A = CacheKeyBuilder("k", facts()).add("a", "bc").final();
  CacheDigest B = CacheKeyBuilder("k", facts()).add("ab", "c").final();
  CacheDigest C =
      CacheKeyBuilder("k", facts()).add("a", "b").add("", "c").final();
  EXPECT_NE(A, B);
  EXPECT_NE(A, C);
  EXPECT_NE(B, C);
  EXPECT_NE(CacheKeyBuilder("k", facts()).add("n", uint64_t(1)).final(),
            CacheKeyBuilder("k", facts()).add("n", uint64_t(256)).final());
}

TEST(CacheKeyTest, HostFactsAreThisMachines) {
  const BuildFacts &F = BuildFacts::get();
  EXPECT_FALSE(F.HostCPU.empty());
  EXPECT_FALSE(F.BuildId.empty());
  EXPECT_FALSE(F.LLVMVersion.empty());
  EXPECT_EQ(F.PtxJitVersion, PTXJIT_VERSION);
}

const char *const KernelsPTX = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry first(.param .u64 p)
{
  .reg .u64 %a;
  ld.param.u64 %a, [p];
  st.global.u32 [%a], 1;
  ret;
}
.visible .entry second(.param .u64 p)
{
  .reg .u64 %a;
  ld.param.u64 %a, [p];
  st.global.u32 [%a], 2;
  ret;
}
)";

std::unique_ptr<ptx::Module> parse(StringRef Text,
                                   StringRef FileName = "test.ptx") {
  std::string Diags;
  raw_string_ostream OS(Diags);
  Expected<std::unique_ptr<ptx::Module>> M =
      ptx::loadModule(MemoryBuffer::getMemBufferCopy(Text, FileName), OS);
  EXPECT_TRUE(bool(M)) << Diags;
  if (!M) {
    consumeError(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}

std::unique_ptr<KernelJIT> makeJIT(unsigned OptLevel, bool LineTables = false) {
  JITOptions Opts;
  Opts.OptLevel = OptLevel;
  Opts.LineTables = LineTables;
  Expected<std::unique_ptr<KernelJIT>> J = KernelJIT::create(Opts);
  EXPECT_TRUE(bool(J));
  if (!J) {
    consumeError(J.takeError());
    return nullptr;
  }
  return std::move(*J);
}

TEST(CacheKeyTest, EveryKernelInputChangesTheKey) {
  std::unique_ptr<ptx::Module> M = parse(KernelsPTX);
  // One character of the text differs (a comment).
  std::unique_ptr<ptx::Module> Edited =
      parse(std::string(KernelsPTX) + "// edited\n");
  // The same text under another name: fault reports name the file.
  std::unique_ptr<ptx::Module> Renamed = parse(KernelsPTX, "other.ptx");
  std::unique_ptr<KernelJIT> O2 = makeJIT(2), O3 = makeJIT(3);
  ASSERT_TRUE(M && Edited && Renamed && O2 && O3);
  KernelShape Shape;
  Shape.BlockDim[0] = 32;
  CacheDigest Base = O2->getCacheKey(*M, "first", Shape, true);
  EXPECT_EQ(Base, O2->getCacheKey(*M, "first", Shape, true));
  EXPECT_EQ(Base, makeJIT(2)->getCacheKey(*M, "first", Shape, true));

  std::set<CacheDigest> Seen{Base};
  EXPECT_TRUE(
      Seen.insert(O2->getCacheKey(*Edited, "first", Shape, true)).second);
  EXPECT_TRUE(
      Seen.insert(O2->getCacheKey(*Renamed, "first", Shape, true)).second);
  EXPECT_TRUE(Seen.insert(O2->getCacheKey(*M, "second", Shape, true)).second);
  EXPECT_TRUE(Seen.insert(O3->getCacheKey(*M, "first", Shape, true)).second);
  EXPECT_TRUE(Seen.insert(O2->getCacheKey(*M, "first", Shape, false)).second);
  // Objects made for a debugger carry line tables; others must not stand in.
  EXPECT_TRUE(Seen.insert(makeJIT(2, /*LineTables=*/true)
                              ->getCacheKey(*M, "first", Shape, true))
                  .second);
  // A checked kernel calls the checks; an unchecked one must not be reused.
  EXPECT_TRUE(
      Seen.insert(O2->getCacheKey(*M, "first", Shape, true, /*CheckKinds=*/1))
          .second);
  for (unsigned D = 0; D != 3; ++D) {
    KernelShape Other = Shape;
    Other.BlockDim[D] += 1;
    EXPECT_TRUE(Seen.insert(O2->getCacheKey(*M, "first", Other, true)).second)
        << "dimension " << D;
  }
}

/// Whether Object has a DWARF line table section.
bool hasLineTable(const MemoryBuffer &Object) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object.getMemBufferRef());
  EXPECT_TRUE(bool(Obj));
  if (!Obj) {
    consumeError(Obj.takeError());
    return false;
  }
  for (const object::SectionRef &S : (*Obj)->sections()) {
    Expected<StringRef> Name = S.getName();
    if (Name && *Name == ".debug_line")
      return true;
    if (!Name)
      consumeError(Name.takeError());
  }
  return false;
}

TEST(CacheKeyTest, LineTablesOnlyWhenAsked) {
  std::unique_ptr<ptx::Module> M = parse(KernelsPTX);
  std::unique_ptr<KernelJIT> Plain = makeJIT(2),
                             ForDebugger = makeJIT(2, /*LineTables=*/true);
  ASSERT_TRUE(M && Plain && ForDebugger);
  KernelShape Shape;
  Shape.BlockDim[0] = 32;
  for (KernelJIT *J : {Plain.get(), ForDebugger.get()}) {
    Expected<KernelObject> K = J->compileToObject(*M, "first", Shape, true);
    ASSERT_TRUE(bool(K)) << toString(K.takeError());
    EXPECT_EQ(hasLineTable(*K->Object), J == ForDebugger.get());
  }
}

} // namespace
