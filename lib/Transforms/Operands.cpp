//===- Operands.cpp - Rewriting and reading PTX operands ------------------===//

#include "Operands.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Operand;

Operand transforms::rewriteOperand(const Operand &Op, BumpPtrAllocator &Alloc,
                                   bool &Changed, LeafRewriter Leaf) {
  if (Op.Kind != Operand::Vector && Op.Kind != Operand::PredPair)
    return Leaf(Op, Changed);
  Operand New = Op;
  SmallVector<Operand, 4> Elements;
  bool ElementChanged = false;
  for (const Operand &E : Op.Elements)
    Elements.push_back(rewriteOperand(E, Alloc, ElementChanged, Leaf));
  if (ElementChanged)
    New.Elements = ptx::OperandList::create(Alloc, Elements);
  Changed |= ElementChanged;
  return New;
}

void transforms::rewriteOperands(ptx::Instruction &I, BumpPtrAllocator &Alloc,
                                 LeafRewriter Leaf) {
  bool Changed = false;
  SmallVector<Operand, 8> Ops;
  for (const Operand &Op : I.Operands)
    Ops.push_back(rewriteOperand(Op, Alloc, Changed, Leaf));
  if (!Changed)
    return;
  Operand *Mem = Alloc.Allocate<Operand>(Ops.size());
  std::uninitialized_copy(Ops.begin(), Ops.end(), Mem);
  I.Operands = ArrayRef<Operand>(Mem, Ops.size());
}

StringRef transforms::saveName(BumpPtrAllocator &Alloc, const Twine &T) {
  SmallString<64> Buf;
  StringRef S = T.toStringRef(Buf);
  char *Mem = Alloc.Allocate<char>(S.size());
  std::copy(S.begin(), S.end(), Mem);
  return StringRef(Mem, S.size());
}

void transforms::collectNames(const Operand &Op, StringSet<> &Out) {
  if (!Op.Name.empty())
    Out.insert(Op.Name);
  for (const Operand &E : Op.Elements)
    collectNames(E, Out);
}
