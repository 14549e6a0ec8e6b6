//===- Predication.cpp - Short divergent branches without the dispatcher --===//
//
// A branch that splits a converged warp around a short block and meets
// again right after it (`if (t < 16) s[t] += s[t + 16];`: the block Then,
// entered only from the branch, goes only to Join, the branch's other
// target) runs Then at once with the lanes that take it and goes on
// converged at Join. The dispatcher would do the same, in two rounds: the
// lanes that skip Then wait at Join, later in block order, so Then runs
// first and the warp meets again at Join. Without it, a tree reduction's
// last steps, which split the first warp at every step, each cost two
// dispatches, and the barrier after them its fast path.
//
// Then is lowered as its divergent version is (Converged false): the lanes
// that skip it are alive, so its register writes keep their values. Only
// blocks with a divergent version qualify, where the uniformity analysis
// and the liveness that phase sites save already count on the block
// running with some lanes only, and only straight-line code that neither
// waits nor leaves: no sync point, barrier, call, exit or warp-wide
// instruction.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Opcode;
using ptx::Operand;
using ptx::Statement;

/// Longer blocks keep the dispatcher: a predicated block is a third copy of
/// its code.
constexpr unsigned MaxPredicatedInstructions = 32;

/// Instructions a predicated block may not hold: they wait for other lanes
/// or warps, leave, call, or act for the whole warp.
constexpr uint32_t NotPredicable = ptx::OpTerminator | ptx::OpCall |
                                   ptx::OpCTABarrier | ptx::OpWarpSync |
                                   ptx::OpSyncPoint | ptx::OpOpaqueRoles |
                                   ptx::OpParksLanes | ptx::OpUnsupported;

bool FunctionLowering::canPredicate(unsigned Then, unsigned Join) {
  if (!ML.Options.PredicatedBlocks || !Converged || Then == Join ||
      Then >= CFG.Blocks.size() || Join >= CFG.Blocks.size() ||
      !SplitBlocks.test(Then))
    return false;
  const PTXBlock &T = CFG.Blocks[Then];
  unsigned From = CFG.Blocks[CurBlock].RPONumber, At = T.RPONumber,
           To = CFG.Blocks[Join].RPONumber;
  // Forward only: Then after the branch, Join after Then.
  if (At == ~0u || To == ~0u || At <= From || To <= At)
    return false;
  if (T.Succs.size() != 1 || T.Succs[0] != Join)
    return false;
  for (unsigned P : CFG.RPO)
    if (P != CurBlock && is_contained(CFG.Blocks[P].Succs, Then))
      return false;
  // Each register it writes holds a value per lane (a uniform or affine
  // one is written whole; see FunctionLowering::write).
  std::function<bool(const Operand &)> Varying = [&](const Operand &Op) {
    if (Op.Kind == Operand::Register || Op.Kind == Operand::Symbol) {
      Register *R = findRegister(Op.Name);
      if (!R || !R->Sh.isVarying())
        return false;
    }
    return all_of(Op.Elements, Varying);
  };
  unsigned Count = 0;
  for (unsigned I = T.Begin; I != T.End; ++I) {
    const Statement &S = F.Body[I];
    if (S.Kind != Statement::Inst)
      continue;
    const ptx::Instruction &Inst = S.Instr;
    // An unguarded branch to Join (T.Succs says where it goes).
    if (Inst.Op == Opcode::Bra && Inst.GuardPredicate.empty())
      continue;
    if (++Count > MaxPredicatedInstructions || isSyncPoint(F, I) ||
        (ptx::getOpcodeInfo(Inst.Op).Flags & NotPredicable))
      return false;
    if (Inst.writesFirstOperand() && !Inst.Operands.empty() &&
        !Varying(Inst.Operands[0]))
      return false;
  }
  return true;
}

Error FunctionLowering::lowerPredicated(unsigned Then, Value *ThenMask,
                                        unsigned Join, Value *Mask) {
  unsigned Branch = CurBlock;
  const PTXBlock &T = CFG.Blocks[Then];
  BasicBlock *Run = BasicBlock::Create(ML.Ctx, "predicated" + Twine(Then), Fn);
  B.CreateBr(Run);
  B.SetInsertPoint(Run);
  CurBlock = Then;
  Converged = false;
  Warp.setRunning(ThenMask);
  for (unsigned I = T.Begin; I != T.End; ++I) {
    const Statement &S = F.Body[I];
    if (S.Kind != Statement::Inst || ptx::endsBlock(S.Instr.Op))
      continue;
    CurScope = StatementScope[I];
    B.SetCurrentDebugLocation(ML.DebugLocs.get(Fn, S.Instr.Loc));
    if (Error E = lowerInstruction(S.Instr))
      return E;
  }
  Converged = true;
  CurBlock = Branch;
  Warp.setRunning(Mask);
  transition(Join, Mask);
  return Error::success();
}
