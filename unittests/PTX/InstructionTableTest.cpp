//===- InstructionTableTest.cpp - Look-ups over the .def tables -----------===//

#include "ptxjit/PTX/InstructionTable.h"
#include "gtest/gtest.h"

using namespace ptxjit::ptx;

namespace {

TEST(InstructionTableTest, Opcodes) {
  EXPECT_EQ(lookupOpcode("add"), Opcode::Add);
  EXPECT_EQ(lookupOpcode("brx.idx"), Opcode::BrxIdx);
  EXPECT_EQ(lookupOpcode("cp.async"), Opcode::CpAsync);
  EXPECT_EQ(lookupOpcode("brx"), std::nullopt); // only as brx.idx
  EXPECT_EQ(lookupOpcode("ADD"), std::nullopt); // PTX is case-sensitive
  EXPECT_EQ(getSpelling(Opcode::Setp), "setp");

  // Every spelling looks up its own opcode: none is listed twice.
  for (unsigned I = 0, E = getNumOpcodes(); I != E; ++I) {
    Opcode Op = static_cast<Opcode>(I);
    EXPECT_EQ(lookupOpcode(getSpelling(Op)), Op) << getSpelling(Op).str();
  }
}

TEST(InstructionTableTest, OpcodeFacts) {
  const OpcodeInfo &Cvt = getOpcodeInfo(Opcode::Cvt);
  EXPECT_EQ(Cvt.MinTypes, 2); // cvt.dst.src
  EXPECT_EQ(Cvt.MaxTypes, 2);
  const OpcodeInfo &Bar = getOpcodeInfo(Opcode::Bar);
  EXPECT_EQ(Bar.MinTypes, 0); // bar.sync 0 and bar.red.popc.u32 both exist
  EXPECT_EQ(Bar.MaxTypes, 1);
  EXPECT_TRUE(Bar.Flags & OpCTABarrier);
  EXPECT_TRUE(getOpcodeInfo(Opcode::Bra).Flags & OpBranch);
  EXPECT_TRUE(getOpcodeInfo(Opcode::Bra).Flags & OpTerminator);
  EXPECT_TRUE(getOpcodeInfo(Opcode::Ld).Flags & OpMemRead);
  EXPECT_FALSE(getOpcodeInfo(Opcode::Ld).Flags & OpMemWrite);
  EXPECT_TRUE(getOpcodeInfo(Opcode::Atom).Flags & OpMemWrite);
  EXPECT_EQ(getOpcodeInfo(Opcode::Add).Shapes, "d,a,a");
}

TEST(InstructionTableTest, Types) {
  EXPECT_EQ(lookupScalarType(".u32"), ScalarType::U32);
  EXPECT_EQ(lookupScalarType("u32"), std::nullopt); // spellings keep the dot
  EXPECT_EQ(getSpelling(ScalarType::F16x2), ".f16x2");
  EXPECT_EQ(getBitWidth(ScalarType::F16x2), 32u);
  EXPECT_EQ(getBitWidth(ScalarType::B128), 128u);
  EXPECT_EQ(getBitWidth(ScalarType::Pred), 1u);
  EXPECT_EQ(getTypeKind(ScalarType::S32), TypeKind::Signed);
  EXPECT_EQ(getTypeKind(ScalarType::BF16), TypeKind::Float);
  EXPECT_EQ(getTypeKind(ScalarType::B32), TypeKind::Bit);
  EXPECT_TRUE(isInteger(ScalarType::B64));
  EXPECT_FALSE(isInteger(ScalarType::F64));
  EXPECT_TRUE(isSigned(ScalarType::S8));
  EXPECT_TRUE(isFloat(ScalarType::TF32));
}

TEST(InstructionTableTest, StateSpacesAndModifiers) {
  EXPECT_EQ(lookupStateSpace(".shared::cta"), StateSpace::SharedCTA);
  EXPECT_EQ(lookupStateSpace(".global"), StateSpace::Global);
  EXPECT_EQ(lookupStateSpace(".u32"), std::nullopt);
  EXPECT_EQ(getSpelling(StateSpace::Param), ".param");
  EXPECT_EQ(getSpelling(StateSpace::None), "");

  EXPECT_EQ(lookupModifier(".L1::evict_last"), Modifier::L1EvictLast);
  EXPECT_EQ(lookupModifier(".rn"), Modifier::Rn);
  EXPECT_EQ(lookupModifier(".global"), std::nullopt);
  for (unsigned I = 0, E = getNumModifiers(); I != E; ++I) {
    Modifier M = static_cast<Modifier>(I);
    EXPECT_EQ(lookupModifier(getSpelling(M)), M) << getSpelling(M).str();
    // A modifier is never also a type or a state space, or the parser
    // could not tell which it is.
    EXPECT_EQ(lookupScalarType(getSpelling(M)), std::nullopt);
    EXPECT_EQ(lookupStateSpace(getSpelling(M)), std::nullopt);
  }
}

} // namespace
