//===- AST.cpp - PTX syntax tree helpers ----------------------------------===//

#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::ptx;

std::optional<VideoSelector> VideoSelector::parse(StringRef Text) {
  if (Text.size() < 3 || Text.size() > 6 || Text[0] != '.' ||
      (Text[1] != 'b' && Text[1] != 'h'))
    return std::nullopt;
  VideoSelector S;
  StringRef Digits = Text.drop_front(2);
  for (unsigned I = 0; I != Digits.size(); ++I) {
    if (Digits[I] < '0' || Digits[I] > '7')
      return std::nullopt;
    S.Bits |= uint16_t(Digits[I] - '0') << (3 * I);
  }
  S.Bits |= uint16_t(Digits.size() - 1) << 12;
  S.Bits |= uint16_t(Text[1] == 'b' ? 1 : 2) << 14;
  return S;
}

void VideoSelector::print(raw_ostream &OS) const {
  if (empty())
    return;
  OS << '.' << getKind();
  for (unsigned I = 0; I != size(); ++I)
    OS << getDigit(I);
}

OperandList OperandList::create(BumpPtrAllocator &Alloc,
                                ArrayRef<Operand> Elements, StringRef Sampler) {
  OperandList L;
  if (Elements.empty() && Sampler.empty())
    return L;
  static_assert(sizeof(Block) % alignof(Operand) == 0,
                "the elements follow the block's header");
  void *Mem = Alloc.Allocate(sizeof(Block) + Elements.size() * sizeof(Operand),
                             alignof(Block));
  Block *B = new (Mem) Block{Sampler, Elements.size()};
  std::uninitialized_copy(Elements.begin(), Elements.end(),
                          reinterpret_cast<Operand *>(B + 1));
  L.B = B;
  return L;
}

bool Instruction::hasModifier(Modifier M) const {
  return is_contained(Modifiers, M);
}

Modifier Instruction::getComparison() const {
  for (Modifier M : Modifiers)
    if (M >= Modifier::Eq && M <= Modifier::Nan)
      return M;
  return Modifier::Eq;
}

unsigned Instruction::getNumDestinations() const {
  if (Op == Opcode::Call)
    return NumCallReturns;
  return writesFirstOperand() ? 1 : 0;
}

bool Instruction::writesFirstOperand() const {
  if (Operands.empty())
    return false;
  // The shape alternative with as many operands says: a destination letter
  // (d, r, w, e, h, q, or p first) is written. The instructions only parsed
  // (their operands are all `x`) write their first operand too, as far as the
  // analyses are concerned.
  const OpcodeInfo &Info = getOpcodeInfo(Op);
  if (Info.Flags & OpUnsupported)
    return true;
  SmallVector<StringRef, 4> Alternatives;
  Info.Shapes.split(Alternatives, '|');
  for (StringRef A : Alternatives)
    if (!A.empty() && A.count(',') + 1 == Operands.size())
      return StringRef("drwpehq").contains(A.front());
  return false;
}

bool Instruction::readsFirstOperand() const {
  return !Operands.empty() && hasFlag(Op, OpReadsDestination);
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

size_t Module::getAllocatorBytes() const {
  size_t Bytes = Alloc.getTotalMemory();
  for (const std::unique_ptr<BumpPtrAllocator> &A : MoreAllocators)
    Bytes += A->getTotalMemory();
  return Bytes;
}

void Module::clearContents() {
  Version.clear();
  Targets.clear();
  AddressSize = 64;
  HasAddressSize = false;
  Globals.clear();
  Functions.clear();
  Files.clear();
  Sections.clear();
  Order.clear();
  MoreAllocators.clear();
  Alloc.Reset();
}

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
