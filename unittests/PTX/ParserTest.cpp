//===- ParserTest.cpp - AST shapes the parser builds ----------------------===//

#include "PTXTestUtil.h"
#include "gtest/gtest.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

/// Parses one kernel whose body is Body and returns its statements that are
/// instructions.
class ParserTest : public ::testing::Test {
protected:
  const Function &parseKernel(StringRef Body) {
    P = parsePTX(kernelPTX(Body));
    EXPECT_TRUE(P.OK) << P.Errors;
    EXPECT_EQ(P.M->Functions.size(), 1u);
    return P.M->Functions.front();
  }
  const Instruction &parseInstruction(StringRef Text) {
    const Function &F = parseKernel(Text);
    for (const Statement &S : F.Body)
      if (S.Kind == Statement::Inst)
        return S.Instr;
    ADD_FAILURE() << "no instruction in '" << Text.str() << "'";
    static Instruction None;
    return None;
  }
  ParsedModule P;
};

uint64_t bitsOf(double D) {
  uint64_t Bits;
  std::memcpy(&Bits, &D, sizeof Bits);
  return Bits;
}

TEST_F(ParserTest, ModuleDirectives) {
  P = parsePTX(".version 8.5\n.target sm_90a, debug\n.address_size 64\n");
  ASSERT_TRUE(P.OK) << P.Errors;
  EXPECT_EQ(P.M->Version, "8.5");
  ASSERT_EQ(P.M->Targets.size(), 2u);
  EXPECT_EQ(P.M->Targets[0], "sm_90a");
  EXPECT_EQ(P.M->Targets[1], "debug");
  EXPECT_TRUE(P.M->HasAddressSize);
  EXPECT_EQ(P.M->AddressSize, 64u);
}

TEST_F(ParserTest, MissingVersion) {
  P = parsePTX(".target sm_80\n");
  EXPECT_FALSE(P.OK);
  EXPECT_NE(P.Errors.find("must begin with a .version directive"),
            std::string::npos)
      << P.Errors;
}

TEST_F(ParserTest, GlobalWithInitializers) {
  P = parsePTX(".version 8.0\n.target sm_80\n"
               ".global .align 4 .b8 gTable[8];\n"
               ".visible .global .align 8 .u64 gPtrs[3] = "
               "{generic(gTable)+8, gTable-4, -1};\n"
               ".const .f32 gF[2] = {0f3F800000, 1.5};\n");
  ASSERT_TRUE(P.OK) << P.Errors;
  ASSERT_EQ(P.M->Globals.size(), 3u);
  const VariableDecl &G = P.M->Globals[1];
  EXPECT_EQ(G.Name, "gPtrs");
  EXPECT_EQ(G.Link, Linkage::Visible);
  EXPECT_EQ(G.Space, StateSpace::Global);
  EXPECT_EQ(G.Align, 8u);
  EXPECT_EQ(G.Type, ScalarType::U64);
  ASSERT_EQ(G.Dims.size(), 1u);
  EXPECT_EQ(G.Dims[0], 3u);
  EXPECT_EQ(G.getSizeInBytes(), 24u);
  ASSERT_TRUE(G.HasInitializer);
  ASSERT_EQ(G.Init.Kind, Initializer::List);
  ASSERT_EQ(G.Init.Elements.size(), 3u);
  EXPECT_EQ(G.Init.Elements[0].Kind, Initializer::Generic);
  EXPECT_EQ(G.Init.Elements[0].Name, "gTable");
  EXPECT_EQ(G.Init.Elements[0].Value, 8);
  EXPECT_EQ(G.Init.Elements[1].Kind, Initializer::Symbol);
  EXPECT_EQ(G.Init.Elements[1].Value, -4);
  EXPECT_EQ(G.Init.Elements[2].Kind, Initializer::Int);
  EXPECT_EQ(G.Init.Elements[2].Value, -1);

  // A decimal float initializer is held as f64 bits, whatever the type.
  const Initializer &F = P.M->Globals[2].Init;
  ASSERT_EQ(F.Elements.size(), 2u);
  EXPECT_EQ(F.Elements[0].Kind, Initializer::Float);
  EXPECT_EQ(F.Elements[0].Value, 0x3F800000);
  EXPECT_EQ(F.Elements[1].Kind, Initializer::Double);
  EXPECT_EQ(uint64_t(F.Elements[1].Value), bitsOf(1.5));

  // Declarations keep their source order among the top-level items.
  ASSERT_EQ(P.M->Order.size(), 3u);
  EXPECT_EQ(P.M->Order[2].Kind, TopLevel::Variable);
  EXPECT_EQ(P.M->Order[2].Index, 2u);
}

TEST_F(ParserTest, KernelParametersAndPerformanceDirectives) {
  P = parsePTX(".version 8.0\n.target sm_80\n"
               ".visible .entry k(.param .u64 .ptr .global .align 16 p,\n"
               "  .param .align 8 .b8 s[16])\n"
               ".maxntid 256, 1, 1\n.reqntid 64\n.minnctapersm 2\n{\nret;\n}\n"
               ".func (.param .b32 r) f(.param .b32 a) .noreturn;\n");
  ASSERT_TRUE(P.OK) << P.Errors;
  ASSERT_EQ(P.M->Functions.size(), 2u);
  const Function &K = P.M->Functions[0];
  EXPECT_TRUE(K.IsEntry);
  EXPECT_EQ(K.Link, Linkage::Visible);
  ASSERT_EQ(K.Params.size(), 2u);
  const VariableDecl &Ptr = K.Params[0];
  EXPECT_EQ(Ptr.Space, StateSpace::Param);
  EXPECT_TRUE(Ptr.IsPtr);
  EXPECT_EQ(Ptr.PtrSpace, StateSpace::Global);
  EXPECT_EQ(Ptr.PtrAlign, 16u);
  EXPECT_EQ(Ptr.Align, 0u); // .align after .ptr belongs to the pointee
  EXPECT_EQ(K.Params[1].Align, 8u);
  EXPECT_EQ(K.Params[1].getSizeInBytes(), 16u);
  EXPECT_EQ(K.NumMaxNTid, 3u);
  EXPECT_EQ(K.MaxNTid[0], 256u);
  EXPECT_EQ(K.MaxNTid[1], 1u);
  EXPECT_EQ(K.NumReqNTid, 1u);
  EXPECT_EQ(K.ReqNTid[0], 64u);
  EXPECT_EQ(K.MinNCTAPerSM, 2u);
  EXPECT_TRUE(K.HasBody);

  const Function &F = P.M->Functions[1];
  EXPECT_FALSE(F.IsEntry);
  EXPECT_FALSE(F.HasBody);
  EXPECT_TRUE(F.NoReturn);
  ASSERT_EQ(F.Returns.size(), 1u);
  EXPECT_EQ(F.Returns[0].Name, "r");
}

TEST_F(ParserTest, RegisterDeclarations) {
  const Function &F = parseKernel(".reg .b32 %r<40>, %extra;\n"
                                  ".reg .v2 .f32 %v;\n");
  ASSERT_EQ(F.Locals.size(), 3u);
  EXPECT_TRUE(F.Locals[0].IsRange);
  EXPECT_EQ(F.Locals[0].RangeCount, 40u);
  EXPECT_EQ(F.Locals[0].Space, StateSpace::Reg);
  EXPECT_FALSE(F.Locals[0].ContinuesPrevious);
  EXPECT_EQ(F.Locals[1].Name, "%extra");
  EXPECT_EQ(F.Locals[1].Type, ScalarType::B32);
  EXPECT_TRUE(F.Locals[1].ContinuesPrevious);
  EXPECT_FALSE(F.Locals[2].ContinuesPrevious);
  EXPECT_EQ(F.Locals[2].VectorWidth, 2);
  EXPECT_EQ(F.Locals[2].getElementSize(), 8u);
  ASSERT_EQ(F.Body.size(), 3u);
  EXPECT_EQ(F.Body[1].Kind, Statement::Decl);
  EXPECT_EQ(F.Body[1].Index, 1u);

  P = parsePTX(kernelPTX(".reg .b32 %r<0>;"));
  EXPECT_FALSE(P.OK);
  EXPECT_NE(P.Errors.find("register range count must be positive"),
            std::string::npos);
}

TEST_F(ParserTest, LoadWithEverySuffixKind) {
  const Instruction &I =
      parseInstruction("@!%p1 ld.global.nc.v4.f32 {%f1, _, %f2, _}, "
                       "[%rd1+-8];");
  EXPECT_EQ(I.Op, Opcode::Ld);
  EXPECT_EQ(I.GuardPredicate, "%p1");
  EXPECT_TRUE(I.GuardNegated);
  EXPECT_EQ(I.Space, StateSpace::Global);
  ASSERT_EQ(I.Modifiers.size(), 1u);
  EXPECT_EQ(I.Modifiers[0], Modifier::Nc);
  EXPECT_EQ(I.VectorWidth, 4);
  ASSERT_EQ(I.Types.size(), 1u);
  EXPECT_EQ(I.Types[0], ScalarType::F32);
  ASSERT_EQ(I.SuffixOrder.size(), 4u);
  EXPECT_EQ(I.SuffixOrder[0], Instruction::SKSpace);
  EXPECT_EQ(I.SuffixOrder[1], Instruction::SKModifier);
  EXPECT_EQ(I.SuffixOrder[2], Instruction::SKVector);
  EXPECT_EQ(I.SuffixOrder[3], Instruction::SKType);

  ASSERT_EQ(I.Operands.size(), 2u);
  const Operand &V = I.Operands[0];
  EXPECT_EQ(V.Kind, Operand::Vector);
  ASSERT_EQ(V.Elements.size(), 4u);
  EXPECT_EQ(V.Elements[0].Kind, Operand::Register);
  EXPECT_EQ(V.Elements[0].Name, "%f1");
  EXPECT_EQ(V.Elements[1].Kind, Operand::Sink);
  EXPECT_EQ(V.Elements[3].Kind, Operand::Sink);

  const Operand &A = I.Operands[1];
  EXPECT_EQ(A.Kind, Operand::Address);
  EXPECT_EQ(A.Name, "%rd1");
  EXPECT_TRUE(A.BaseIsRegister);
  EXPECT_EQ(A.Value, -8);
}

TEST_F(ParserTest, AddressForms) {
  const Function &F = parseKernel("ld.global.u32 %r1, [%rd1-8];\n"
                                  "ld.global.u32 %r1, [gTable+4];\n"
                                  "ld.local.u32 %r1, [4096];\n"
                                  "ld.local.u32 %r1, [-9223372036854775808];");
  ASSERT_EQ(F.Body.size(), 4u);
  const Operand &Minus = F.Body[0].Instr.Operands[1];
  EXPECT_EQ(Minus.Value, -8); // [%r-8] is [%r+-8]
  const Operand &Sym = F.Body[1].Instr.Operands[1];
  EXPECT_EQ(Sym.Name, "gTable");
  EXPECT_FALSE(Sym.BaseIsRegister);
  EXPECT_EQ(Sym.Value, 4);
  const Operand &Abs = F.Body[2].Instr.Operands[1];
  EXPECT_TRUE(Abs.Name.empty());
  EXPECT_EQ(Abs.Value, 4096);
  EXPECT_EQ(F.Body[3].Instr.Operands[1].Value, INT64_MIN);
}

TEST_F(ParserTest, PredicatesAndImmediates) {
  const Instruction &I =
      parseInstruction("setp.lt.and.s32 %p1|%p2, %r1, -0x10, !%p3;");
  EXPECT_EQ(I.Op, Opcode::Setp);
  ASSERT_EQ(I.Modifiers.size(), 2u);
  EXPECT_EQ(I.Modifiers[0], Modifier::Lt);
  EXPECT_EQ(I.Modifiers[1], Modifier::And);
  ASSERT_EQ(I.Operands.size(), 4u);
  const Operand &Pair = I.Operands[0];
  EXPECT_EQ(Pair.Kind, Operand::PredPair);
  ASSERT_EQ(Pair.Elements.size(), 2u);
  EXPECT_EQ(Pair.Elements[0].Name, "%p1");
  EXPECT_EQ(Pair.Elements[1].Name, "%p2");
  EXPECT_EQ(I.Operands[2].Kind, Operand::IntImm);
  EXPECT_EQ(I.Operands[2].Value, -16);
  EXPECT_EQ(I.Operands[3].Kind, Operand::Register);
  EXPECT_TRUE(I.Operands[3].Negated);
  EXPECT_EQ(I.Operands[3].Name, "%p3");
}

TEST_F(ParserTest, FloatImmediates) {
  const Function &F = parseKernel("mov.f32 %f1, 0f3F800000;\n"
                                  "mov.f32 %f1, -0f3F800000;\n"
                                  "mov.f64 %fd1, 1.5;\n"
                                  "mov.f64 %fd1, -1.5;\n"
                                  "mov.f64 %fd1, 0d3FF0000000000000;");
  ASSERT_EQ(F.Body.size(), 5u);
  auto Imm = [&](unsigned I) { return F.Body[I].Instr.Operands[1]; };
  EXPECT_EQ(Imm(0).Kind, Operand::FloatImm);
  EXPECT_EQ(Imm(0).Value, 0x3F800000);
  EXPECT_EQ(Imm(1).Value, 0xBF800000); // minus flips the f32 sign bit
  EXPECT_EQ(Imm(2).Kind, Operand::DoubleImm);
  EXPECT_EQ(uint64_t(Imm(2).Value), bitsOf(1.5));
  EXPECT_EQ(uint64_t(Imm(3).Value), bitsOf(-1.5));
  EXPECT_EQ(uint64_t(Imm(4).Value), bitsOf(1.0));
}

TEST_F(ParserTest, SpecialRegisterComponentAndTypes) {
  const Function &F = parseKernel("mov.u32 %r1, %tid.x;\n"
                                  "cvt.rn.f32.s32 %f1, %r1;");
  const Operand &Tid = F.Body[0].Instr.Operands[1];
  EXPECT_EQ(Tid.Name, "%tid");
  EXPECT_EQ(Tid.Component, 'x');
  const Instruction &Cvt = F.Body[1].Instr;
  ASSERT_EQ(Cvt.Types.size(), 2u);
  EXPECT_EQ(Cvt.Types[0], ScalarType::F32); // destination type first
  EXPECT_EQ(Cvt.Types[1], ScalarType::S32);
  EXPECT_EQ(Cvt.getType(1), ScalarType::S32);
  EXPECT_EQ(Cvt.getType(2), ScalarType::None);
}

TEST_F(ParserTest, TwoWordOpcodes) {
  const Function &F =
      parseKernel("cp.async.ca.shared.global [%r1], [%rd1], 4;\n"
                  "$L_brx_0: .branchtargets $L1, $L2;\n"
                  "brx.idx %r1, $L_brx_0;\n$L1:\n$L2:\nret;");
  const Instruction &Cp = F.Body[0].Instr;
  EXPECT_EQ(Cp.Op, Opcode::CpAsync);
  EXPECT_EQ(Cp.Space, StateSpace::Shared);
  EXPECT_EQ(Cp.Space2, StateSpace::Global);
  ASSERT_EQ(Cp.Modifiers.size(), 1u);
  EXPECT_EQ(Cp.Modifiers[0], Modifier::Ca);

  EXPECT_EQ(F.Body[1].Kind, Statement::BranchTargets);
  EXPECT_EQ(F.Body[1].Dir.Name, "$L_brx_0");
  ASSERT_EQ(F.TargetLists.size(), 1u);
  ASSERT_EQ(F.TargetLists[0].size(), 2u);
  EXPECT_EQ(F.TargetLists[0][1], "$L2");
  EXPECT_EQ(F.Body[2].Instr.Op, Opcode::BrxIdx);
  EXPECT_EQ(F.Body[3].Kind, Statement::Label);
  EXPECT_EQ(F.Body[3].Dir.Name, "$L1");
}

TEST_F(ParserTest, CallOperandLayout) {
  const Function &F =
      parseKernel("call.uni (retval0), foo, (param0, param1);\n"
                  "proto: .callprototype (.param .b32 _) _ (.param .b32 _, "
                  ".param .b64 _) .noreturn;\n"
                  "call (retval0), %rd1, (param0), proto;\n"
                  "call bar;");
  const Instruction &Direct = F.Body[0].Instr;
  EXPECT_EQ(Direct.Op, Opcode::Call);
  EXPECT_TRUE(Direct.hasModifier(Modifier::Uni));
  EXPECT_EQ(Direct.NumCallReturns, 1);
  EXPECT_EQ(Direct.NumCallArgs, 2);
  EXPECT_FALSE(Direct.HasCallPrototype);
  ASSERT_EQ(Direct.Operands.size(), 4u); // [retval0, foo, param0, param1]
  EXPECT_EQ(Direct.Operands[0].Name, "retval0");
  EXPECT_EQ(Direct.Operands[1].Name, "foo");
  EXPECT_EQ(Direct.Operands[3].Name, "param1");

  EXPECT_EQ(F.Body[1].Kind, Statement::Prototype);
  EXPECT_EQ(F.Body[1].Dir.Name, "proto");
  ASSERT_EQ(F.Prototypes.size(), 1u);
  EXPECT_EQ(F.Prototypes[0].Returns.size(), 1u);
  ASSERT_EQ(F.Prototypes[0].Params.size(), 2u);
  EXPECT_EQ(F.Prototypes[0].Params[1].Type, ScalarType::B64);
  EXPECT_TRUE(F.Prototypes[0].NoReturn);

  const Instruction &Indirect = F.Body[2].Instr;
  EXPECT_EQ(Indirect.NumCallReturns, 1);
  EXPECT_EQ(Indirect.NumCallArgs, 1);
  EXPECT_TRUE(Indirect.HasCallPrototype);
  ASSERT_EQ(Indirect.Operands.size(), 4u); // [retval0, %rd1, param0, proto]
  EXPECT_EQ(Indirect.Operands[1].Kind, Operand::Register);
  EXPECT_EQ(Indirect.Operands[3].Name, "proto");

  const Instruction &Bare = F.Body[3].Instr;
  EXPECT_EQ(Bare.NumCallReturns, 0);
  EXPECT_EQ(Bare.NumCallArgs, 0);
  ASSERT_EQ(Bare.Operands.size(), 1u);
}

TEST_F(ParserTest, LocPragmaAndScopes) {
  const Function &F =
      parseKernel(".loc 1 10 29, function_name $L__info_string1, inlined_at "
                  "1 20 5 // comment\n"
                  ".pragma \"nounroll\";\n{\n.reg .b32 %t;\n}");
  ASSERT_EQ(F.Body.size(), 5u);
  const Statement &Loc = F.Body[0];
  EXPECT_EQ(Loc.Kind, Statement::Loc);
  EXPECT_EQ(Loc.Dir.LocFile, 1u);
  EXPECT_EQ(Loc.Dir.LocLine, 10u);
  EXPECT_EQ(Loc.Dir.LocColumn, 29u);
  EXPECT_EQ(Loc.Dir.Text,
            ", function_name $L__info_string1, inlined_at 1 20 5");
  EXPECT_EQ(F.Body[1].Kind, Statement::Pragma);
  EXPECT_EQ(F.Body[1].Dir.Text, "nounroll");
  EXPECT_EQ(F.Body[2].Kind, Statement::ScopeBegin);
  EXPECT_EQ(F.Body[3].Kind, Statement::Decl);
  EXPECT_EQ(F.Body[4].Kind, Statement::ScopeEnd);
}

TEST_F(ParserTest, FileAndSectionAreKeptVerbatim) {
  P = parsePTX(".version 8.0\n.target sm_80\n"
               "\t.file\t1 \"a.cu\", 1700000000, 1234\n"
               ".section .debug_str { $L: .b8 65,0 }\n");
  ASSERT_TRUE(P.OK) << P.Errors;
  ASSERT_EQ(P.M->Files.size(), 1u);
  EXPECT_EQ(P.M->Files[0].Index, 1u);
  EXPECT_EQ(P.M->Files[0].Name, "a.cu");
  EXPECT_EQ(P.M->Files[0].Rest, ", 1700000000, 1234");
  ASSERT_EQ(P.M->Sections.size(), 1u);
  EXPECT_EQ(P.M->Sections[0], ".section .debug_str { $L: .b8 65,0 }");
}

TEST_F(ParserTest, ReportsSeveralErrorsAndRecovers) {
  P = parsePTX(kernelPTX("frobnicate %r1;\nadd.s32 %r1, %r2, %r3;\n"
                         "ld.global.bogus %r1, [%rd1];"));
  EXPECT_FALSE(P.OK);
  EXPECT_NE(P.Errors.find("unknown instruction 'frobnicate'"),
            std::string::npos)
      << P.Errors;
  EXPECT_NE(P.Errors.find("unknown modifier '.bogus' on 'ld'"),
            std::string::npos)
      << P.Errors;
  // The good instruction between them was still parsed.
  ASSERT_EQ(P.M->Functions.size(), 1u);
  bool SawAdd = false;
  for (const Statement &S : P.M->Functions[0].Body)
    SawAdd |= S.Kind == Statement::Inst && S.Instr.Op == Opcode::Add;
  EXPECT_TRUE(SawAdd);
}

TEST_F(ParserTest, NestingIsBounded) {
  std::string Deep(1000, '{');
  P = parsePTX(kernelPTX(Deep));
  EXPECT_FALSE(P.OK);
  EXPECT_NE(P.Errors.find("nesting too deep"), std::string::npos);
}

} // namespace
