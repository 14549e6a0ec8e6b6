//===- AST.cpp - PTX syntax tree helpers ----------------------------------===//

#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace ptxjit::ptx;

bool Instruction::hasModifier(Modifier M) const {
  return is_contained(Modifiers, M);
}

bool Instruction::writesFirstOperand() const {
  switch (Op) {
  case Opcode::St:
  case Opcode::Red:
  case Opcode::Bra:
  case Opcode::BrxIdx:
  case Opcode::Call:
  case Opcode::Prefetch:
  case Opcode::Prefetchu:
  case Opcode::Membar:
  case Opcode::Fence:
  case Opcode::Ret:
  case Opcode::Exit:
  case Opcode::Trap:
  case Opcode::Brkpt:
  case Opcode::Nanosleep:
  case Opcode::Pmevent:
    return false;
  case Opcode::Bar:
  case Opcode::Barrier:
    return hasModifier(Modifier::Red);
  default:
    return !Operands.empty();
  }
}

uint64_t VariableDecl::getElementSize() const {
  unsigned Bits = getBitWidth(Type);
  uint64_t Bytes = Type == ScalarType::Pred ? 1 : (Bits + 7) / 8;
  return Bytes * VectorWidth;
}

uint64_t VariableDecl::getSizeInBytes() const {
  uint64_t Size = getElementSize();
  for (uint64_t D : Dims)
    Size *= D;
  return Size;
}

Module::Module(std::unique_ptr<MemoryBuffer> Source)
    : SrcMgr(std::make_unique<SourceMgr>()) {
  SrcMgr->AddNewSourceBuffer(std::move(Source), SMLoc());
}

Module::~Module() = default;

const Function *Module::findFunction(StringRef Name) const {
  // A forward declaration and the definition may both be present.
  const Function *Found = nullptr;
  for (const Function &F : Functions)
    if (F.Name == Name && (!Found || F.HasBody))
      Found = &F;
  return Found;
}

const VariableDecl *Module::findGlobal(StringRef Name) const {
  for (const VariableDecl &V : Globals)
    if (V.Name == Name)
      return &V;
  return nullptr;
}

StringRef Module::copyString(StringRef S) {
  char *Mem = Alloc.Allocate<char>(S.size() + 1);
  std::memcpy(Mem, S.data(), S.size());
  Mem[S.size()] = 0;
  return StringRef(Mem, S.size());
}

unsigned Module::getLine(SMLoc Loc) const {
  if (!Loc.isValid())
    return 0;
  return SrcMgr->getLineAndColumn(Loc).first;
}

StringRef Module::getSourceText() const {
  return SrcMgr->getMemoryBuffer(SrcMgr->getMainFileID())->getBuffer();
}
