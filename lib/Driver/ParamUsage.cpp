//===- ParamUsage.cpp - How a kernel uses its parameters ------------------===//

#include "ptxjit/Driver/ParamUsage.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::ptx;

/// The address operand of a memory instruction, if it has one.
static const Operand *findAddress(const Instruction &I) {
  for (const Operand &Op : I.Operands)
    if (Op.Kind == Operand::Address)
      return &Op;
  return nullptr;
}

static bool isMemoryAccess(Opcode Op) {
  switch (Op) {
  case Opcode::Ld:
  case Opcode::Ldu:
  case Opcode::St:
  case Opcode::Atom:
  case Opcode::Red:
    return true;
  default:
    return false;
  }
}

/// Instructions whose result points where a source points: moves, address
/// conversions and 64-bit additions of an offset.
static bool propagatesPointer(const Instruction &I) {
  switch (I.Op) {
  case Opcode::Mov:
  case Opcode::Cvta:
    return true;
  case Opcode::Add:
  case Opcode::Sub:
    return getBitWidth(I.getType(0)) == 64;
  default:
    return false;
  }
}

SmallVector<driver::ParamUsage, 8>
driver::analyzeParamUsage(const Function &F) {
  SmallVector<ParamUsage, 8> Usage(F.Params.size());
  StringMap<unsigned> ParamIndex;
  for (auto [I, P] : enumerate(F.Params)) {
    ParamIndex[P.Name] = I;
    Usage[I].IsPointer = P.IsPtr;
    Usage[I].Space = P.PtrSpace;
  }
  // Register -> parameter whose address it holds. Two passes reach the
  // uses in loops whose address registers are set after the loop body.
  StringMap<unsigned> PointsInto;
  for (unsigned Pass = 0; Pass != 2; ++Pass) {
    for (const Statement &S : F.Body) {
      if (S.Kind != Statement::Inst)
        continue;
      const Instruction &I = S.Instr;
      if (I.Operands.empty())
        continue;
      const Operand &Dest = I.Operands.front();
      if ((I.Op == Opcode::Ld) && I.Space == StateSpace::Param &&
          getBitWidth(I.getType(0)) == 64 && Dest.isRegister()) {
        const Operand *Addr = findAddress(I);
        if (Addr && !Addr->BaseIsRegister) {
          auto It = ParamIndex.find(Addr->Name);
          if (It != ParamIndex.end())
            PointsInto[Dest.Name] = It->second;
        }
        continue;
      }
      if (propagatesPointer(I) && Dest.isRegister()) {
        for (const Operand &Src : I.Operands.drop_front()) {
          auto It =
              Src.isRegister() ? PointsInto.find(Src.Name) : PointsInto.end();
          if (It != PointsInto.end()) {
            PointsInto[Dest.Name] = It->second;
            break;
          }
        }
        continue;
      }
      if (Pass == 0 || !isMemoryAccess(I.Op))
        continue;
      const Operand *Addr = findAddress(I);
      if (!Addr || !Addr->BaseIsRegister)
        continue;
      auto It = PointsInto.find(Addr->Name);
      if (It == PointsInto.end())
        continue;
      ParamUsage &U = Usage[It->second];
      U.IsPointer = true;
      if (U.ElementType == ScalarType::None) {
        U.ElementType = I.getType(0);
        U.Space = I.Space;
      }
      bool Stores = I.Op == Opcode::St || I.Op == Opcode::Red;
      bool Loads = I.Op != Opcode::St && I.Op != Opcode::Red;
      U.Read |= Loads || I.Op == Opcode::Red;
      U.Written |= Stores || I.Op == Opcode::Atom;
    }
  }
  return Usage;
}
