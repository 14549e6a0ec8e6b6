//===- PrinterTest.cpp - Writing the AST back as PTX ----------------------===//

#include "ptxjit/PTX/Printer.h"
#include "PTXTestUtil.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

std::string print(const Operand &Op) {
  std::string S;
  raw_string_ostream OS(S);
  printOperand(Op, OS);
  return S;
}

std::string print(const Instruction &I) {
  std::string S;
  raw_string_ostream OS(S);
  printInstruction(I, OS);
  return S;
}

Operand imm(Operand::KindTy K, int64_t V) {
  Operand Op;
  Op.Kind = K;
  Op.Value = V;
  return Op;
}

Operand named(Operand::KindTy K, StringRef Name, int64_t V = 0) {
  Operand Op = imm(K, V);
  Op.Name = Name;
  Op.BaseIsRegister = Name.starts_with("%");
  return Op;
}

TEST(PrinterTest, Immediates) {
  EXPECT_EQ(print(imm(Operand::IntImm, 42)), "42");
  EXPECT_EQ(print(imm(Operand::IntImm, -16)), "-16");
  EXPECT_EQ(print(imm(Operand::IntImm, INT64_MIN)), "-9223372036854775808");
  EXPECT_EQ(print(imm(Operand::FloatImm, 0x3F800000)), "0f3F800000");
  // Only the low 32 bits are an f32.
  EXPECT_EQ(print(imm(Operand::FloatImm, 0xBF800000)), "0fBF800000");
  EXPECT_EQ(print(imm(Operand::DoubleImm, 0x3FF8000000000000)),
            "0d3FF8000000000000");
  EXPECT_EQ(print(imm(Operand::DoubleImm, int64_t(0xBFF0000000000000))),
            "0dBFF0000000000000");
}

TEST(PrinterTest, RegistersSymbolsAndAddresses) {
  Operand Tid = named(Operand::Register, "%tid");
  Tid.Component = 'y';
  EXPECT_EQ(print(Tid), "%tid.y");
  Operand NotP = named(Operand::Register, "%p1");
  NotP.Negated = true;
  EXPECT_EQ(print(NotP), "!%p1");
  EXPECT_EQ(print(named(Operand::Symbol, "gTable", 8)), "gTable+8");
  EXPECT_EQ(print(named(Operand::Symbol, "gTable", -8)), "gTable-8");
  EXPECT_EQ(print(named(Operand::Address, "%rd1")), "[%rd1]");
  // Negative register offsets are written "+-", as nvcc does and ptxas
  // requires.
  EXPECT_EQ(print(named(Operand::Address, "%rd1", -8)), "[%rd1+-8]");
  EXPECT_EQ(print(named(Operand::Address, "gTable", 4)), "[gTable+4]");
  EXPECT_EQ(print(imm(Operand::Address, 4096)), "[4096]");
  EXPECT_EQ(print(imm(Operand::Sink, 0)), "_");
}

TEST(PrinterTest, VectorsAndPairs) {
  Operand Elements[] = {named(Operand::Register, "%f1"), imm(Operand::Sink, 0),
                        named(Operand::Register, "%f2")};
  BumpPtrAllocator Alloc;
  Operand Vec = imm(Operand::Vector, 0);
  Vec.Elements = OperandList::create(Alloc, Elements);
  EXPECT_EQ(print(Vec), "{%f1, _, %f2}");

  Operand Pair[] = {named(Operand::Register, "%r1"),
                    named(Operand::Register, "%p1")};
  Operand PP = imm(Operand::PredPair, 0);
  PP.Elements = OperandList::create(Alloc, Pair);
  EXPECT_EQ(print(PP), "%r1|%p1");
}

TEST(PrinterTest, InstructionsFromText) {
  ParsedModule P = parsePTX(
      kernelPTX("@!%p1 ld.global.nc.v4.f32 {%f1, _, %f2, _}, [%rd1-8];\n"
                "cvt.rn.f32.s32 %f1, %r1;\n"
                "call (retval0), %rd1, (param0), proto;\n"
                "call (r), %rd1, proto;\n"
                "call.uni foo;\n"
                "ret;"));
  ASSERT_TRUE(P.OK) << P.Errors;
  const std::vector<Statement> &Body = P.M->Functions[0].Body;
  ASSERT_EQ(Body.size(), 6u);
  EXPECT_EQ(print(Body[0].Instr),
            "@!%p1 ld.global.nc.v4.f32 \t{%f1, _, %f2, _}, [%rd1+-8];");
  EXPECT_EQ(print(Body[1].Instr), "cvt.rn.f32.s32 \t%f1, %r1;");
  EXPECT_EQ(print(Body[2].Instr), "call (retval0), %rd1, (param0), proto;");
  // Without the empty argument list the prototype would be read as the
  // argument position.
  EXPECT_EQ(print(Body[3].Instr), "call (r), %rd1, (), proto;");
  EXPECT_EQ(print(Body[4].Instr), "call.uni foo;");
  EXPECT_EQ(print(Body[5].Instr), "ret;");
}

// An instruction built by hand, without SuffixOrder, still prints every
// suffix.
TEST(PrinterTest, HandBuiltInstruction) {
  ScalarType Types[] = {ScalarType::U32};
  Modifier Mods[] = {Modifier::Relaxed, Modifier::Gpu};
  Operand Ops[] = {named(Operand::Register, "%r1"),
                   named(Operand::Address, "%rd1", 4)};
  BumpPtrAllocator Alloc;
  Instruction I;
  I.Op = Opcode::Ld;
  I.Space = StateSpace::Global;
  I.Types = PackedArrayRef<ScalarType>::create(Alloc, Types);
  I.Modifiers = PackedArrayRef<Modifier>::create(Alloc, Mods);
  I.Operands = Ops;
  EXPECT_EQ(print(I), "ld.relaxed.gpu.global.u32 \t%r1, [%rd1+4];");
}

TEST(PrinterTest, ModuleLayout) {
  ParsedModule P =
      parsePTX(".version 8.0\n.target sm_80\n.address_size 64\n"
               ".global .s32 a = -5, b;\n"
               ".visible .entry k(.param .u64 .ptr .global .align 16 p)\n"
               ".maxntid 128, 1, 1\n"
               "{\n.reg .b32 %r<3>, %x;\n{\n$L1:\nret;\n}\n}\n");
  ASSERT_TRUE(P.OK) << P.Errors;
  std::string S;
  raw_string_ostream OS(S);
  printModule(*P.M, OS);
  EXPECT_EQ(S, ".version 8.0\n"
               ".target sm_80\n"
               ".address_size 64\n"
               "\n"
               ".global .s32 a = -5, b;\n"
               "\n"
               ".visible .entry k(\n"
               "\t.param .u64 .ptr .global .align 16 p\n"
               ")\n"
               ".maxntid 128, 1, 1\n"
               "{\n"
               "\t.reg .b32 \t%r<3>, %x;\n"
               "\t{\n"
               "$L1:\n"
               "\t\tret;\n"
               "\t}\n"
               "}\n");
}

} // namespace
