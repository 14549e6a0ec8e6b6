//===- Printer.cpp - Writing PTX text from the AST ------------------------===//
//
// The printer writes back exactly what the parser reads: every field of the
// AST has a spelling, so parse -> print -> parse gives the same tree (checked
// node by node by checkRoundTrip over the whole corpus). The layout follows
// nvcc's (tab after the opcode, labels in column 0, one statement a line) so
// printed files diff well against the compiler's own output.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/Printer.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::ptx;

static StringRef getSpelling(Linkage L) {
  switch (L) {
  case Linkage::None:
    return "";
  case Linkage::Visible:
    return ".visible";
  case Linkage::Extern:
    return ".extern";
  case Linkage::Weak:
    return ".weak";
  case Linkage::Common:
    return ".common";
  }
  return "";
}

/// Writes V in decimal. The magnitude is negated as unsigned so INT64_MIN
/// prints as "-9223372036854775808", which the parser reads back exactly.
static void printSigned(raw_ostream &OS, int64_t V) {
  if (V < 0)
    OS << '-' << (uint64_t(0) - uint64_t(V));
  else
    OS << uint64_t(V);
}

/// Writes "+N" or "-N" after a symbol; nothing for a zero offset. Inside
/// brackets nvcc writes negative offsets as "+-N", and so do we, since that
/// is the form every PTX assembler accepts.
static void printOffset(raw_ostream &OS, int64_t V, bool PlusMinus) {
  if (V == 0)
    return;
  if (V > 0) {
    OS << '+' << uint64_t(V);
    return;
  }
  OS << (PlusMinus ? "+-" : "-") << (uint64_t(0) - uint64_t(V));
}

/// FP immediates are written as their bit patterns (0f/0d), never in decimal,
/// so no value changes on the way through text.
static void printFloatBits(raw_ostream &OS, bool IsDouble, int64_t Bits) {
  if (IsDouble)
    OS << "0d" << format_hex_no_prefix(uint64_t(Bits), 16, /*Upper=*/true);
  else
    OS << "0f"
       << format_hex_no_prefix(uint64_t(Bits) & 0xffffffffu, 8,
                               /*Upper=*/true);
}

void ptxjit::ptx::printOperand(const Operand &Op, raw_ostream &OS) {
  if (Op.Negated)
    OS << '!';
  if (Op.Minus)
    OS << '-';
  switch (Op.Kind) {
  case Operand::Register:
  case Operand::Symbol:
    // A symbol may be a register without '%' (a function's parameter).
    OS << Op.Name;
    if (Op.Component)
      OS << '.' << Op.Component;
    Op.Selector.print(OS);
    printOffset(OS, Op.Value, /*PlusMinus=*/false);
    return;
  case Operand::IntImm:
    printSigned(OS, Op.Value);
    return;
  case Operand::FloatImm:
  case Operand::DoubleImm:
    printFloatBits(OS, Op.Kind == Operand::DoubleImm, Op.Value);
    return;
  case Operand::Address:
    OS << '[';
    if (Op.Name.empty()) {
      printSigned(OS, Op.Value);
    } else {
      OS << Op.Name;
      printOffset(OS, Op.Value, /*PlusMinus=*/true);
      if (StringRef Sampler = Op.getSampler(); !Sampler.empty())
        OS << ", " << Sampler;
    }
    OS << ']';
    return;
  case Operand::Vector:
    OS << '{';
    for (size_t I = 0, E = Op.Elements.size(); I != E; ++I) {
      if (I)
        OS << ", ";
      printOperand(Op.Elements[I], OS);
    }
    OS << '}';
    return;
  case Operand::PredPair:
    for (size_t I = 0, E = Op.Elements.size(); I != E; ++I) {
      if (I)
        OS << '|';
      printOperand(Op.Elements[I], OS);
    }
    return;
  case Operand::Sink:
    OS << '_';
    return;
  }
}

static void printOperandList(raw_ostream &OS, ArrayRef<Operand> Ops) {
  for (size_t I = 0, E = Ops.size(); I != E; ++I) {
    if (I)
      OS << ", ";
    // [%rd1, {%f1, %f2}]: the coordinates go inside the address's brackets.
    if (Ops[I].Kind == Operand::Address && I + 1 != E && Ops[I + 1].InAddress) {
      std::string Address;
      raw_string_ostream AOS(Address);
      printOperand(Ops[I], AOS);
      OS << StringRef(Address).drop_back() << ", ";
      printOperand(Ops[++I], OS);
      OS << ']';
      continue;
    }
    printOperand(Ops[I], OS);
  }
}

/// Prints the dot-suffixes in the order they were written: ptxas insists on
/// an order for many opcodes (ld.global.nc.v4.f32, cvt.rn.f32.s32).
static void printSuffixes(raw_ostream &OS, const Instruction &I) {
  size_t Count[4] = {0, 0, 0, 0};
  for (Instruction::SuffixKind K : I.SuffixOrder)
    if (K <= Instruction::SKVector)
      ++Count[K];
  // A repeated state space or vector width (".global.shared.local",
  // ".v2.v4") keeps only the last one in the AST; writing that one in every
  // position gives the same AST back.
  bool FollowOrder =
      Count[Instruction::SKType] == I.Types.size() &&
      Count[Instruction::SKModifier] == I.Modifiers.size() &&
      (Count[Instruction::SKSpace] > 0) == (I.Space != StateSpace::None) &&
      (Count[Instruction::SKSpace] > 1) == (I.Space2 != StateSpace::None) &&
      (Count[Instruction::SKVector] > 0) == (I.VectorWidth != 1);
  if (!FollowOrder) {
    // Built by hand rather than parsed: use a plausible canonical order.
    for (Modifier M : I.Modifiers)
      OS << getSpelling(M);
    if (I.Space != StateSpace::None)
      OS << getSpelling(I.Space);
    if (I.Space2 != StateSpace::None)
      OS << getSpelling(I.Space2);
    if (I.VectorWidth != 1)
      OS << ".v" << unsigned(I.VectorWidth);
    for (ScalarType T : I.Types)
      OS << getSpelling(T);
    return;
  }
  size_t NextType = 0, NextModifier = 0, NextSpace = 0;
  for (Instruction::SuffixKind K : I.SuffixOrder) {
    switch (K) {
    case Instruction::SKType:
      OS << getSpelling(I.Types[NextType++]);
      break;
    case Instruction::SKModifier:
      OS << getSpelling(I.Modifiers[NextModifier++]);
      break;
    case Instruction::SKSpace:
      OS << getSpelling(NextSpace++ == 0 ? I.Space : I.Space2);
      break;
    case Instruction::SKVector:
      OS << ".v" << unsigned(I.VectorWidth);
      break;
    }
  }
}

/// call (ret, ...), callee, (arg, ...), prototype; from the flat operand
/// list [returns..., callee, args..., prototype?].
static void printCallOperands(raw_ostream &OS, const Instruction &I) {
  ArrayRef<Operand> Ops = I.Operands;
  size_t Expected = size_t(I.NumCallReturns) + 1 + I.NumCallArgs +
                    (I.HasCallPrototype ? 1 : 0);
  if (Ops.size() != Expected) {
    printOperandList(OS, Ops); // malformed; show what is there
    return;
  }
  if (I.NumCallReturns) {
    OS << '(';
    printOperandList(OS, Ops.take_front(I.NumCallReturns));
    OS << "), ";
    Ops = Ops.drop_front(I.NumCallReturns);
  }
  printOperand(Ops.front(), OS);
  Ops = Ops.drop_front();
  // An empty argument list must still be written when a prototype follows,
  // or the prototype would be read as the argument position.
  if (I.NumCallArgs || I.HasCallPrototype) {
    OS << ", (";
    printOperandList(OS, Ops.take_front(I.NumCallArgs));
    OS << ')';
    Ops = Ops.drop_front(I.NumCallArgs);
  }
  if (I.HasCallPrototype) {
    OS << ", ";
    printOperand(Ops.front(), OS);
  }
}

void ptxjit::ptx::printInstruction(const Instruction &I, raw_ostream &OS) {
  if (!I.GuardPredicate.empty())
    OS << '@' << (I.GuardNegated ? "!" : "") << I.GuardPredicate << ' ';
  OS << getSpelling(I.Op);
  printSuffixes(OS, I);
  if (I.Op == Opcode::Call) {
    OS << ' ';
    printCallOperands(OS, I);
  } else if (!I.Operands.empty()) {
    OS << " \t";
    printOperandList(OS, I.Operands);
  }
  OS << ';';
}

namespace {

class ModulePrinter {
public:
  ModulePrinter(const Module &M, raw_ostream &OS) : M(M), OS(OS) {}
  void print();

private:
  void printHeader();
  void printGlobals(size_t &OrderIndex);
  void printFile(const FileDirective &F);
  void printFunction(const Function &F);
  void printPerformanceDirectives(const Function &F);
  void printParamList(ArrayRef<VariableDecl> Params, bool OnePerLine);
  void printBody(const Function &F);
  void printStatement(const Function &F, ArrayRef<Statement> Body, size_t &I,
                      unsigned Depth);
  void printPrototype(const CallPrototype &P);
  void printDeclSpecifiers(const VariableDecl &D);
  void printDeclarator(const VariableDecl &D);
  void printInitializer(const Initializer &Init);
  void printVerbatimTail(StringRef Text);
  void indent(unsigned Depth) {
    for (unsigned I = 0; I != Depth; ++I)
      OS << '\t';
  }

  const Module &M;
  raw_ostream &OS;
};

} // namespace

void ModulePrinter::print() {
  printHeader();
  const std::vector<TopLevel> &Order = M.Order;
  for (size_t I = 0, E = Order.size(); I != E; ++I) {
    const TopLevel &Item = Order[I];
    switch (Item.Kind) {
    case TopLevel::Variable:
      printGlobals(I);
      break;
    case TopLevel::Func:
      OS << '\n';
      printFunction(M.Functions[Item.Index]);
      break;
    case TopLevel::File:
      printFile(M.Files[Item.Index]);
      break;
    case TopLevel::Section:
      OS << M.Sections[Item.Index] << '\n';
      break;
    }
  }
}

void ModulePrinter::printHeader() {
  if (!M.Version.empty())
    OS << ".version " << M.Version << '\n';
  if (!M.Targets.empty()) {
    OS << ".target ";
    for (size_t I = 0, E = M.Targets.size(); I != E; ++I)
      OS << (I ? ", " : "") << M.Targets[I];
    OS << '\n';
  }
  if (M.HasAddressSize)
    OS << ".address_size " << M.AddressSize << '\n';
  OS << '\n';
}

/// Prints the declaration at Order[OrderIndex] and the names declared with
/// it (".global .u32 a, b;"), leaving OrderIndex at the last one.
void ModulePrinter::printGlobals(size_t &OrderIndex) {
  const VariableDecl &First = M.Globals[M.Order[OrderIndex].Index];
  printDeclSpecifiers(First);
  OS << ' ';
  printDeclarator(First);
  while (OrderIndex + 1 < M.Order.size() &&
         M.Order[OrderIndex + 1].Kind == TopLevel::Variable &&
         M.Globals[M.Order[OrderIndex + 1].Index].ContinuesPrevious) {
    ++OrderIndex;
    OS << ", ";
    printDeclarator(M.Globals[M.Order[OrderIndex].Index]);
  }
  OS << ";\n";
}

void ModulePrinter::printFile(const FileDirective &F) {
  OS << "\t.file\t" << F.Index << " \"" << F.Name << '"';
  printVerbatimTail(F.Rest);
  OS << '\n';
}

/// Text the parser kept verbatim up to the end of a line (.file's
/// timestamp and size, .loc's inlining attributes). It is trimmed and
/// usually starts with ','; anything else needs a space to stay separate.
void ModulePrinter::printVerbatimTail(StringRef Text) {
  if (Text.empty())
    return;
  if (!Text.starts_with(","))
    OS << ' ';
  OS << Text;
}

void ModulePrinter::printDeclSpecifiers(const VariableDecl &D) {
  // The order is the PTX grammar's: linkage, space, alignment, vector, type,
  // then the kernel-parameter pointer attributes.
  bool First = true;
  auto Word = [&]() -> raw_ostream & {
    if (!First)
      OS << ' ';
    First = false;
    return OS;
  };
  if (D.Link != Linkage::None)
    Word() << getSpelling(D.Link);
  if (D.Space != StateSpace::None)
    Word() << getSpelling(D.Space);
  if (D.IsManaged)
    Word() << ".attribute(.managed)";
  if (D.Align)
    Word() << ".align " << D.Align;
  if (D.VectorWidth != 1)
    Word() << ".v" << unsigned(D.VectorWidth);
  switch (D.Opaque) {
  case OpaqueKind::None:
    Word() << getSpelling(D.Type);
    break;
  case OpaqueKind::TexRef:
    Word() << ".texref";
    break;
  case OpaqueKind::SamplerRef:
    Word() << ".samplerref";
    break;
  case OpaqueKind::SurfRef:
    Word() << ".surfref";
    break;
  }
  if (D.IsPtr) {
    Word() << ".ptr";
    if (D.PtrSpace != StateSpace::None)
      Word() << getSpelling(D.PtrSpace);
    if (D.PtrAlign)
      Word() << ".align " << D.PtrAlign;
  }
}

void ModulePrinter::printDeclarator(const VariableDecl &D) {
  OS << D.Name;
  if (D.IsRange)
    OS << '<' << D.RangeCount << '>';
  for (uint64_t Dim : D.Dims) {
    OS << '[';
    if (Dim)
      OS << Dim;
    OS << ']';
  }
  if (D.HasInitializer && D.Opaque != OpaqueKind::None) {
    OS << " = {";
    for (size_t I = 0, E = D.SamplerFields.size(); I != E; ++I)
      OS << (I ? ", " : " ") << D.SamplerFields[I].Name << " = "
         << D.SamplerFields[I].Value << (I + 1 == E ? " " : "");
    OS << '}';
  } else if (D.HasInitializer) {
    OS << " = ";
    printInitializer(D.Init);
  }
}

void ModulePrinter::printInitializer(const Initializer &Init) {
  switch (Init.Kind) {
  case Initializer::Int:
    printSigned(OS, Init.Value);
    return;
  case Initializer::Float:
  case Initializer::Double:
    printFloatBits(OS, Init.Kind == Initializer::Double, Init.Value);
    return;
  case Initializer::Symbol:
    OS << Init.Name;
    printOffset(OS, Init.Value, /*PlusMinus=*/false);
    return;
  case Initializer::Generic:
    OS << "generic(" << Init.Name << ')';
    printOffset(OS, Init.Value, /*PlusMinus=*/false);
    return;
  case Initializer::List:
    OS << '{';
    for (size_t I = 0, E = Init.Elements.size(); I != E; ++I) {
      if (I)
        OS << ", ";
      printInitializer(Init.Elements[I]);
    }
    OS << '}';
    return;
  }
}

void ModulePrinter::printParamList(ArrayRef<VariableDecl> Params,
                                   bool OnePerLine) {
  OS << '(';
  for (size_t I = 0, E = Params.size(); I != E; ++I) {
    if (I)
      OS << ',';
    if (OnePerLine)
      OS << "\n\t";
    else if (I)
      OS << ' ';
    printDeclSpecifiers(Params[I]);
    OS << ' ';
    printDeclarator(Params[I]);
  }
  if (OnePerLine && !Params.empty())
    OS << '\n';
  OS << ')';
}

void ModulePrinter::printFunction(const Function &F) {
  StringRef Link = getSpelling(F.Link);
  if (!Link.empty())
    OS << Link << ' ';
  OS << (F.IsEntry ? ".entry " : ".func ");
  if (!F.Returns.empty()) {
    printParamList(F.Returns, /*OnePerLine=*/false);
    OS << ' ';
  }
  OS << F.Name;
  printParamList(F.Params, /*OnePerLine=*/true);
  OS << '\n';
  printPerformanceDirectives(F);
  if (!F.HasBody) {
    OS << ";\n";
    return;
  }
  printBody(F);
}

void ModulePrinter::printPerformanceDirectives(const Function &F) {
  auto Dims = [&](StringRef Name, const uint32_t *D, unsigned N) {
    if (!N)
      return;
    OS << Name;
    for (unsigned I = 0; I != N && I != 3; ++I)
      OS << (I ? ", " : " ") << D[I];
    OS << '\n';
  };
  Dims(".maxntid", F.MaxNTid, F.NumMaxNTid);
  Dims(".reqntid", F.ReqNTid, F.NumReqNTid);
  if (F.MinNCTAPerSM)
    OS << ".minnctapersm " << F.MinNCTAPerSM << '\n';
  if (F.MaxNCTAPerSM)
    OS << ".maxnctapersm " << F.MaxNCTAPerSM << '\n';
  if (F.MaxNReg)
    OS << ".maxnreg " << F.MaxNReg << '\n';
  if (F.ExplicitCluster)
    OS << ".explicitcluster\n";
  Dims(".reqnctapercluster", F.ReqNCTAPerCluster, F.NumReqNCTAPerCluster);
  if (F.MaxClusterRank)
    OS << ".maxclusterrank " << F.MaxClusterRank << '\n';
  if (F.AbiPreserve >= 0)
    OS << ".abi_preserve " << F.AbiPreserve << '\n';
  if (F.AbiPreserveControl >= 0)
    OS << ".abi_preserve_control " << F.AbiPreserveControl << '\n';
  if (F.NoReturn)
    OS << ".noreturn\n";
  for (const std::string &P : F.Pragmas)
    OS << ".pragma \"" << P << "\";\n";
}

void ModulePrinter::printBody(const Function &F) {
  OS << "{\n";
  ArrayRef<Statement> Body = F.Body;
  unsigned Depth = 1;
  for (size_t I = 0, E = Body.size(); I != E; ++I) {
    if (Body[I].Kind == Statement::ScopeEnd && Depth > 1)
      --Depth;
    printStatement(F, Body, I, Depth);
    if (Body[I].Kind == Statement::ScopeBegin)
      ++Depth;
  }
  OS << "}\n";
}

/// Prints Body[I]; a declaration also takes the names declared with it, so
/// I is left at the last statement printed.
void ModulePrinter::printStatement(const Function &F, ArrayRef<Statement> Body,
                                   size_t &I, unsigned Depth) {
  const Statement &S = Body[I];
  if (S.Kind == Statement::Label) {
    OS << S.Dir.Name << ":\n";
    return;
  }
  indent(Depth);
  switch (S.Kind) {
  case Statement::Inst:
    printInstruction(S.Instr, OS);
    break;
  case Statement::Label:
    break;
  case Statement::Decl: {
    const VariableDecl &D = F.Locals[S.Index];
    printDeclSpecifiers(D);
    OS << " \t";
    printDeclarator(D);
    while (I + 1 < Body.size() && Body[I + 1].Kind == Statement::Decl &&
           F.Locals[Body[I + 1].Index].ContinuesPrevious) {
      ++I;
      OS << ", ";
      printDeclarator(F.Locals[Body[I].Index]);
    }
    OS << ';';
    break;
  }
  case Statement::ScopeBegin:
    OS << '{';
    break;
  case Statement::ScopeEnd:
    OS << '}';
    break;
  case Statement::Pragma:
    OS << ".pragma \"" << S.Dir.Text << "\";";
    break;
  case Statement::Loc:
    OS << ".loc\t" << S.Dir.LocFile << ' ' << S.Dir.LocLine << ' '
       << S.Dir.LocColumn;
    printVerbatimTail(S.Dir.Text);
    break;
  case Statement::BranchTargets: {
    OS << S.Dir.Name << ": .branchtargets ";
    const auto &Targets = F.TargetLists[S.Index];
    for (size_t T = 0, E = Targets.size(); T != E; ++T)
      OS << (T ? ", " : "") << Targets[T];
    OS << ';';
    break;
  }
  case Statement::Prototype:
    OS << S.Dir.Name << ": .callprototype ";
    printPrototype(F.Prototypes[S.Index]);
    OS << ';';
    break;
  }
  OS << '\n';
}

void ModulePrinter::printPrototype(const CallPrototype &P) {
  if (!P.Returns.empty()) {
    printParamList(P.Returns, /*OnePerLine=*/false);
    OS << ' ';
  }
  OS << "_ ";
  printParamList(P.Params, /*OnePerLine=*/false);
  if (P.NoReturn)
    OS << " .noreturn";
}

void ptxjit::ptx::printModule(const Module &M, raw_ostream &OS) {
  ModulePrinter(M, OS).print();
}
