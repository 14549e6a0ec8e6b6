//===- ModuleInfo.cpp - Facts about kernels derived from the AST ----------===//

#include "ptxjit/PTX/ModuleInfo.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include <functional>

using namespace llvm;
using namespace ptxjit::ptx;

uint64_t ptxjit::ptx::getAlignment(const VariableDecl &V) {
  if (V.Align)
    return V.Align;
  return std::max<uint64_t>(1, V.getElementSize());
}

uint64_t ptxjit::ptx::getParamSize(const VariableDecl &P) {
  return P.getSizeInBytes();
}

uint64_t ptxjit::ptx::getParamAlign(const VariableDecl &P) {
  return getAlignment(P);
}

SmallVector<const Function *, 8> ptxjit::ptx::getCallees(const Module &M,
                                                         const Function &F) {
  SmallVector<const Function *, 8> Result{&F};
  SmallPtrSet<const Function *, 8> Seen{&F};
  for (unsigned I = 0; I != Result.size(); ++I) {
    for (const Statement &S : Result[I]->Body) {
      if (S.Kind != Statement::Inst)
        continue;
      // Direct calls, and functions whose address is taken (indirect calls).
      for (const Operand &Op : S.Instr.Operands) {
        if (Op.Kind != Operand::Symbol)
          continue;
        const Function *Callee = M.findFunction(Op.Name);
        if (Callee && Seen.insert(Callee).second)
          Result.push_back(Callee);
      }
    }
  }
  // Functions named in initializers (function-pointer tables).
  std::function<void(const Initializer &)> Visit = [&](const Initializer &In) {
    if (In.Kind == Initializer::List) {
      for (const Initializer &E : In.Elements)
        Visit(E);
      return;
    }
    if (In.Kind == Initializer::Symbol || In.Kind == Initializer::Generic)
      if (const Function *Callee = M.findFunction(In.Name))
        if (Seen.insert(Callee).second)
          Result.push_back(Callee);
  };
  for (const VariableDecl &G : M.Globals)
    if (G.HasInitializer)
      Visit(G.Init);
  return Result;
}

SmallVector<const VariableDecl *, 8>
ptxjit::ptx::getStaticSharedVariables(const Module &M, const Function &Kernel) {
  SmallVector<const VariableDecl *, 8> Result;
  StringSet<> Named;
  for (const Function *F : getCallees(M, Kernel)) {
    for (const VariableDecl &V : F->Locals)
      if (V.Space == StateSpace::Shared && V.Link != Linkage::Extern)
        Result.push_back(&V);
    for (const Statement &S : F->Body) {
      if (S.Kind != Statement::Inst)
        continue;
      for (const Operand &Op : S.Instr.Operands)
        if (Op.Kind == Operand::Symbol || Op.Kind == Operand::Address)
          Named.insert(Op.Name);
    }
  }
  for (const VariableDecl &G : M.Globals)
    if (G.Space == StateSpace::Shared && G.Link != Linkage::Extern &&
        !(G.Dims.size() == 1 && G.Dims[0] == 0) && Named.contains(G.Name))
      Result.push_back(&G);
  return Result;
}

uint64_t ptxjit::ptx::layoutStaticShared(
    const Module &M, const Function &Kernel,
    SmallVectorImpl<SharedVariableOffset> &Offsets) {
  uint64_t Size = 0;
  StringSet<> Placed;
  for (const VariableDecl *V : getStaticSharedVariables(M, Kernel)) {
    if (!Placed.insert(V->Name).second)
      continue;
    Size = alignTo(Size, getAlignment(*V));
    Offsets.push_back({V, Size});
    Size += V->getSizeInBytes();
  }
  return Size;
}

uint64_t ptxjit::ptx::layoutKernelParams(const Function &F,
                                         SmallVectorImpl<uint64_t> &Offsets) {
  uint64_t Offset = 0;
  for (const VariableDecl &P : F.Params) {
    Offset = alignTo(Offset, getAlignment(P));
    Offsets.push_back(Offset);
    Offset += P.getSizeInBytes();
  }
  return Offset;
}

uint64_t ptxjit::ptx::getStaticSharedSize(const Module &M,
                                          const Function &Kernel) {
  SmallVector<SharedVariableOffset, 8> Offsets;
  return layoutStaticShared(M, Kernel, Offsets);
}
