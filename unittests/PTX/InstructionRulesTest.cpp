//===- InstructionRulesTest.cpp - Facts derived from Opcodes.def ----------===//

#include "ptxjit/PTX/InstructionRules.h"
#include "ptxjit/PTX/AST.h"
#include "gtest/gtest.h"

using namespace ptxjit::ptx;

namespace {

TEST(InstructionRulesTest, TableIsWellFormed) {
  EXPECT_EQ(validateInstructionRules(), "");
}

TEST(InstructionRulesTest, LegalTypes) {
  // PTX ISA 9.0: shl takes .b16/.b32/.b64; popc .b32/.b64; bfe
  // .u32/.u64/.s32/.s64; sqrt .f32/.f64.
  EXPECT_TRUE(isLegalType(Opcode::Shl, 0, ScalarType::B32));
  EXPECT_FALSE(isLegalType(Opcode::Shl, 0, ScalarType::F32));
  EXPECT_FALSE(isLegalType(Opcode::Shl, 0, ScalarType::U32));
  EXPECT_FALSE(isLegalType(Opcode::Popc, 0, ScalarType::F32));
  EXPECT_FALSE(isLegalType(Opcode::Bfe, 0, ScalarType::F32));
  EXPECT_TRUE(isLegalType(Opcode::Bfe, 0, ScalarType::S64));
  EXPECT_FALSE(isLegalType(Opcode::Sqrt, 0, ScalarType::U32));
  EXPECT_TRUE(isLegalType(Opcode::Sqrt, 0, ScalarType::F64));
  // Second suffixes: slct's comparand is .s32 or .f32.
  EXPECT_TRUE(isLegalType(Opcode::Slct, 1, ScalarType::S32));
  EXPECT_FALSE(isLegalType(Opcode::Slct, 1, ScalarType::U32));
  EXPECT_EQ(describeLegalTypes(Opcode::Popc, 0), ".b32 or .b64");
}

Instruction make(Opcode Op, llvm::ArrayRef<ScalarType> Types,
                 llvm::ArrayRef<Modifier> Mods) {
  static llvm::BumpPtrAllocator Alloc;
  Instruction I;
  I.Op = Op;
  I.Types = PackedArrayRef<ScalarType>::create(Alloc, Types);
  I.Modifiers = PackedArrayRef<Modifier>::create(Alloc, Mods);
  return I;
}

TEST(InstructionRulesTest, Modifiers) {
  llvm::SmallVector<ModifierIssue, 4> Issues;
  ScalarType B32[] = {ScalarType::B32};
  Modifier SyncOnly[] = {Modifier::Sync};
  checkModifiers(make(Opcode::Vote, B32, SyncOnly), Issues);
  ASSERT_EQ(Issues.size(), 1u);
  EXPECT_EQ(Issues[0].Kind, ModifierIssue::Missing);

  Issues.clear();
  Modifier Ballot[] = {Modifier::Sync, Modifier::Ballot};
  checkModifiers(make(Opcode::Vote, B32, Ballot), Issues);
  EXPECT_TRUE(Issues.empty());

  Issues.clear();
  ScalarType U32[] = {ScalarType::U32};
  Modifier AddBallot[] = {Modifier::Ballot};
  checkModifiers(make(Opcode::Add, U32, AddBallot), Issues);
  ASSERT_EQ(Issues.size(), 1u);
  EXPECT_EQ(Issues[0].Kind, ModifierIssue::Illegal);

  // bar.red needs an operator; bar.sync does not.
  Issues.clear();
  Modifier Red[] = {Modifier::Red};
  checkModifiers(make(Opcode::Bar, U32, Red), Issues);
  ASSERT_EQ(Issues.size(), 1u);
  EXPECT_EQ(Issues[0].Kind, ModifierIssue::Missing);
  Issues.clear();
  checkModifiers(make(Opcode::Bar, {}, SyncOnly), Issues);
  EXPECT_TRUE(Issues.empty());
}

TEST(InstructionRulesTest, DerivedPredicates) {
  EXPECT_TRUE(endsBlock(Opcode::Bra));
  EXPECT_TRUE(endsBlock(Opcode::Trap));
  EXPECT_FALSE(endsBlock(Opcode::Call));
  EXPECT_TRUE(hasFlag(Opcode::Shfl, OpSyncPoint));
  EXPECT_FALSE(hasFlag(Opcode::Activemask, OpSyncPoint));
  EXPECT_TRUE(hasFlag(Opcode::Call, OpOpaqueRoles));
  EXPECT_EQ(getResultUniformity(Opcode::AddC), ResultUniformity::Varying);
  EXPECT_EQ(getResultUniformity(Opcode::Add), ResultUniformity::Sources);

  // writesFirstOperand follows the shape with as many operands.
  Operand Ops[3];
  Instruction St = make(Opcode::St, {}, {});
  St.Operands = llvm::ArrayRef(Ops, 2);
  EXPECT_FALSE(St.writesFirstOperand());
  Instruction BarRed = make(Opcode::Bar, {}, {});
  BarRed.Operands = llvm::ArrayRef(Ops, 3); // bar.red d, a, p
  EXPECT_TRUE(BarRed.writesFirstOperand());
  Instruction BarSync = make(Opcode::Bar, {}, {});
  BarSync.Operands = llvm::ArrayRef(Ops, 2); // bar.sync a, b
  EXPECT_FALSE(BarSync.writesFirstOperand());
}

} // namespace
