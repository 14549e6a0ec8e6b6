//===- LinkerTest.cpp - Linking PTX modules -------------------------------===//

#include "ptxjit/PTX/Linker.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

std::unique_ptr<Module> load(StringRef Text, StringRef Name) {
  std::string Diags;
  raw_string_ostream OS(Diags);
  auto M = loadModule(MemoryBuffer::getMemBufferCopy(Text, Name), OS);
  if (!M) {
    ADD_FAILURE() << toString(M.takeError()) << "\n" << Diags;
    return nullptr;
  }
  return std::move(*M);
}

/// Links the texts; on success the result is loaded (parsed and verified)
/// again, as a driver would.
struct Linked {
  std::vector<std::unique_ptr<Module>> Inputs;
  std::string Text;
  std::string Error;
  std::unique_ptr<Module> Result;
};

Linked link(std::vector<StringRef> Texts) {
  Linked L;
  std::vector<LinkInput> Inputs;
  std::vector<std::string> Names;
  for (size_t I = 0; I != Texts.size(); ++I)
    Names.push_back("m" + std::to_string(I) + ".ptx");
  for (size_t I = 0; I != Texts.size(); ++I) {
    L.Inputs.push_back(load(Texts[I], Names[I]));
    if (!L.Inputs.back())
      return L;
    Inputs.push_back({L.Inputs.back().get(), Names[I]});
  }
  Expected<std::string> Text = linkModules(Inputs);
  if (!Text) {
    L.Error = toString(Text.takeError());
    return L;
  }
  L.Text = *Text;
  L.Result = load(L.Text, "linked.ptx");
  return L;
}

const char *Header = ".version 8.0\n.target sm_80\n.address_size 64\n";

// The kernel uses a function and a variable that the other module
// defines; both modules have an internal variable and an internal function
// of the same names, which must stay two symbols.
std::string KernelModule = std::string(Header) + R"(
.extern .func (.param .b32 r) twice(.param .b32 x);
.extern .global .u32 bias;
.global .u32 tag = 1;
.func (.param .b32 r) helper(.param .b32 x)
{
  .reg .b32 %r<2>;
  ld.param.u32 %r0, [x];
  add.u32 %r1, %r0, 100;
  st.param.u32 [r], %r1;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd0, [out];
  ld.global.u32 %r0, [tag];
  ld.global.u32 %r1, [bias];
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r0;
    call (b), twice, (a);
    ld.param.b32 %r2, [b];
  }
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call (b), helper, (a);
    ld.param.b32 %r3, [b];
  }
  add.u32 %r4, %r2, %r3;
  st.global.u32 [%rd0], %r4;
  ret;
}
)";

std::string LibraryModule = std::string(Header) + R"(
.global .u32 tag = 2;
.visible .global .u32 bias = 7;
.func (.param .b32 r) helper(.param .b32 x)
{
  .reg .b32 %r<2>;
  ld.param.u32 %r0, [x];
  ld.global.u32 %r1, [tag];
  mul.lo.u32 %r1, %r0, %r1;
  st.param.u32 [r], %r1;
  ret;
}
.visible .func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<2>;
  .param .b32 a;
  .param .b32 b;
  ld.param.u32 %r0, [x];
  st.param.b32 [a], %r0;
  call (b), helper, (a);
  ld.param.b32 %r1, [b];
  st.param.u32 [r], %r1;
  ret;
}
)";

const Function *findDefinition(const Module &M, StringRef Name) {
  const Function *F = M.findFunction(Name);
  return F && F->HasBody ? F : nullptr;
}

/// The names of the symbols the instructions of F use, in order.
std::vector<std::string> symbolsUsed(const Function &F) {
  std::vector<std::string> Names;
  for (const Statement &S : F.Body)
    if (S.Kind == Statement::Inst)
      for (const Operand &Op : S.Instr.Operands)
        if ((Op.Kind == Operand::Symbol ||
             (Op.Kind == Operand::Address && !Op.BaseIsRegister)) &&
            !Op.Name.empty())
          Names.push_back(Op.Name.str());
  return Names;
}

TEST(LinkerTest, DefinitionsSatisfyExternsAndInternalNamesStayApart) {
  Linked L = link({KernelModule, LibraryModule});
  ASSERT_TRUE(L.Error.empty()) << L.Error;
  ASSERT_TRUE(L.Result) << L.Text;
  const Module &M = *L.Result;

  // One definition each of k and twice; two helpers and two tags.
  ASSERT_TRUE(findDefinition(M, "k"));
  ASSERT_TRUE(findDefinition(M, "twice"));
  unsigned Helpers = 0, Tags = 0;
  std::string OtherHelper, OtherTag;
  for (const Function &F : M.Functions)
    if (F.HasBody && F.Name.starts_with("helper")) {
      ++Helpers;
      if (F.Name != "helper")
        OtherHelper = F.Name.str();
    }
  for (const VariableDecl &V : M.Globals) {
    EXPECT_NE(V.Link, Linkage::Extern) << V.Name.str();
    if (V.Name.starts_with("tag")) {
      ++Tags;
      // The first module keeps its names; the second's are renamed.
      EXPECT_EQ(V.Init.Value, V.Name == "tag" ? 1 : 2) << V.Name.str();
      if (V.Name != "tag")
        OtherTag = V.Name.str();
    }
  }
  EXPECT_EQ(Helpers, 2u) << L.Text;
  EXPECT_EQ(Tags, 2u) << L.Text;

  // The kernel uses its own tag and helper; twice uses the library's
  // helper, which reads the library's tag.
  std::vector<std::string> KernelUses = symbolsUsed(*findDefinition(M, "k"));
  EXPECT_NE(std::find(KernelUses.begin(), KernelUses.end(), "tag"),
            KernelUses.end());
  EXPECT_NE(std::find(KernelUses.begin(), KernelUses.end(), "helper"),
            KernelUses.end());
  std::vector<std::string> TwiceUses = symbolsUsed(*findDefinition(M, "twice"));
  EXPECT_NE(std::find(TwiceUses.begin(), TwiceUses.end(), OtherHelper),
            TwiceUses.end());
  std::vector<std::string> HelperUses =
      symbolsUsed(*findDefinition(M, OtherHelper));
  EXPECT_NE(std::find(HelperUses.begin(), HelperUses.end(), OtherTag),
            HelperUses.end());
}

TEST(LinkerTest, OrderOfInputsDoesNotMatter) {
  Linked L = link({LibraryModule, KernelModule});
  ASSERT_TRUE(L.Error.empty()) << L.Error;
  ASSERT_TRUE(L.Result) << L.Text;
  EXPECT_TRUE(findDefinition(*L.Result, "k"));
  EXPECT_TRUE(findDefinition(*L.Result, "twice"));
}

TEST(LinkerTest, TwoVisibleDefinitionsAreAnError) {
  Linked L = link({LibraryModule, LibraryModule});
  EXPECT_EQ(L.Error, "multiple definition of 'bias': in 'm0.ptx' and "
                     "'m1.ptx'");
}

TEST(LinkerTest, AnUndefinedVariableIsAnError) {
  Linked L = link({KernelModule});
  EXPECT_EQ(L.Error,
            "undefined reference to 'bias' (declared .extern in 'm0.ptx')");
}

TEST(LinkerTest, AnUndefinedCalledFunctionIsAnError) {
  std::string Caller = std::string(Header) + R"(
.extern .func missing();
.extern .func unused();
.visible .entry k()
{
  call missing, ();
  ret;
}
)";
  Linked L = link({Caller});
  EXPECT_EQ(L.Error, "undefined reference to function 'missing' (called by "
                     "'k' in 'm0.ptx')");
}

TEST(LinkerTest, AnUncalledUndefinedFunctionIsNotAnError) {
  std::string M = std::string(Header) + R"(
.extern .func unused();
.visible .entry k()
{
  ret;
}
)";
  Linked L = link({M});
  EXPECT_TRUE(L.Error.empty()) << L.Error;
  EXPECT_TRUE(L.Result) << L.Text;
}

TEST(LinkerTest, AStrongDefinitionReplacesAWeakOne) {
  auto Define = [](StringRef Link, unsigned Value) {
    return (Twine(Header) + Link + " .func (.param .b32 r) f()\n{\n" +
            "  st.param.u32 [r], " + Twine(Value) + ";\n  ret;\n}\n")
        .str();
  };
  std::string Weak = Define(".weak", 1), Strong = Define(".visible", 2);
  Linked L = link({Weak, Strong});
  ASSERT_TRUE(L.Error.empty()) << L.Error;
  ASSERT_TRUE(L.Result) << L.Text;
  const Function *F = findDefinition(*L.Result, "f");
  ASSERT_TRUE(F);
  unsigned Bodies = 0;
  for (const Function &G : L.Result->Functions)
    Bodies += G.Name == "f" && G.HasBody;
  EXPECT_EQ(Bodies, 1u);
  EXPECT_EQ(F->Link, Linkage::Visible);
}

TEST(LinkerTest, DynamicSharedMemoryStaysExtern) {
  std::string M = std::string(Header) + R"(
.extern .shared .align 16 .b8 smem[];
.visible .entry k()
{
  .reg .b32 %r<1>;
  st.shared.u32 [smem], 1;
  ret;
}
)";
  Linked L = link({M, LibraryModule});
  ASSERT_TRUE(L.Error.empty()) << L.Error;
  ASSERT_TRUE(L.Result) << L.Text;
  const VariableDecl *Smem = L.Result->findGlobal("smem");
  ASSERT_TRUE(Smem);
  EXPECT_EQ(Smem->Link, Linkage::Extern);
}

TEST(LinkerTest, DifferentAddressSizesDoNotLink) {
  std::string M32 = ".version 8.0\n.target sm_80\n.address_size 32\n";
  Linked L = link({LibraryModule, M32});
  EXPECT_EQ(L.Error, "cannot link 'm1.ptx' (.address_size 32) with 'm0.ptx' "
                     "(.address_size 64)");
}

TEST(LinkerTest, TheNewestVersionAndTargetWin) {
  std::string Old = ".version 7.0\n.target sm_70\n.address_size 64\n";
  std::string New = ".version 8.5\n.target sm_86\n.address_size 64\n";
  Linked L = link({New, Old});
  ASSERT_TRUE(L.Result) << L.Error;
  EXPECT_EQ(L.Result->Version, "8.5");
  ASSERT_FALSE(L.Result->Targets.empty());
  EXPECT_EQ(L.Result->Targets.front(), "sm_86");
}

} // namespace
