//===- ListModule.cpp - The `ptx-jit list` command ------------------------===//

#include "ptxjit/Driver/ListModule.h"
#include "ptxjit/Driver/KernelNames.h"
#include "ptxjit/Driver/ParamUsage.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/ModuleInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::ptx;

static void printParam(const VariableDecl &P, raw_ostream &OS,
                       const driver::ParamUsage *Usage = nullptr) {
  OS << "    " << P.Name << ": ";
  if (P.VectorWidth > 1)
    OS << ".v" << unsigned(P.VectorWidth) << ' ';
  OS << getSpelling(P.Type);
  for (uint64_t D : P.Dims)
    OS << '[' << D << ']';
  OS << ", size " << getParamSize(P) << ", align " << getParamAlign(P);
  if (P.IsPtr) {
    OS << ", .ptr";
    if (P.PtrSpace != StateSpace::None)
      OS << ' ' << getSpelling(P.PtrSpace);
    if (P.PtrAlign)
      OS << " .align " << P.PtrAlign;
  }
  if (Usage && Usage->IsPointer) {
    OS << ", pointer";
    if (Usage->ElementType != ScalarType::None) {
      OS << " to";
      if (Usage->Space != StateSpace::None)
        OS << ' ' << getSpelling(Usage->Space);
      OS << ' ' << getSpelling(Usage->ElementType) << " ("
         << (Usage->Read ? "read" : "")
         << (Usage->Read && Usage->Written ? ", " : "")
         << (Usage->Written ? "written" : "") << ')';
    }
  }
  OS << '\n';
}

/// The extern (dynamic) .shared arrays a kernel or its callees name.
static SmallVector<StringRef, 2> getDynamicSharedNames(const Module &M,
                                                       const Function &K) {
  SmallVector<StringRef, 2> Names;
  for (const Function *F : getCallees(M, K))
    for (const Statement &S : F->Body) {
      if (S.Kind != Statement::Inst)
        continue;
      for (const Operand &Op : S.Instr.Operands) {
        if (Op.Kind != Operand::Symbol && Op.Kind != Operand::Address)
          continue;
        const VariableDecl *G = M.findGlobal(Op.Name);
        if (G && G->Space == StateSpace::Shared && G->Link == Linkage::Extern &&
            !is_contained(Names, G->Name))
          Names.push_back(G->Name);
      }
    }
  return Names;
}

/// The `--arg` buffer element type for a PTX access type.
static StringRef getBufferTypeName(ScalarType T) {
  if (T == ScalarType::None || getTypeKind(T) == TypeKind::Pred ||
      getTypeKind(T) == TypeKind::Packed)
    return "u32";
  StringRef Name = getSpelling(T).drop_front(); // ".f32" -> "f32"
  if (getTypeKind(T) == TypeKind::Bit)
    return StringSwitch<StringRef>(Name)
        .Case("b8", "u8")
        .Case("b16", "u16")
        .Case("b64", "u64")
        .Default("u32");
  return Name;
}

/// A `ptx-jit run` command line for K that runs as it stands: one thread
/// per element of 1024-element buffers; inputs random, outputs printed.
static void printRunCommand(const Module &M, const Function &K,
                            ArrayRef<driver::ParamUsage> Usage,
                            bool UsesDynamicShared, StringRef Path,
                            raw_ostream &OS) {
  constexpr unsigned Elements = 1024;
  uint32_t Block[3] = {256, 1, 1};
  if (K.NumReqNTid)
    std::copy(K.ReqNTid, K.ReqNTid + 3, Block);
  else if (K.NumMaxNTid)
    Block[0] = std::min<uint32_t>(K.MaxNTid[0], 256);
  for (uint32_t &D : Block)
    D = std::max<uint32_t>(D, 1);
  uint32_t Threads = Block[0] * Block[1] * Block[2];
  uint32_t Grid = std::max<uint32_t>(1, (Elements + Threads - 1) / Threads);

  driver::DemangledName D;
  std::string Name = K.Name.str();
  if (driver::demangleKernelName(K.Name, D)) {
    unsigned SameBase = count_if(M.Functions, [&](const Function &F) {
      return F.IsEntry && driver::kernelNameMatches(F.Name, D.BaseName);
    });
    if (SameBase == 1)
      Name = D.BaseName;
  }
  OS << "  run: ptx-jit run " << Path << " -k '" << Name << "' -g " << Grid
     << " -b " << Block[0];
  if (Block[1] != 1 || Block[2] != 1)
    OS << ',' << Block[1] << ',' << Block[2];
  if (UsesDynamicShared)
    OS << " --shared 1024";
  for (auto [P, U] : zip(K.Params, Usage)) {
    OS << " --arg ";
    if (U.IsPointer) {
      OS << '\'' << getBufferTypeName(U.ElementType) << '[' << Elements << ']'
         << (U.Read ? "=rand" : "") << (U.Written ? ">-" : "") << '\'';
      continue;
    }
    if (!P.Dims.empty() || P.VectorWidth != 1)
      OS << "'{" << getParamSize(P) << " bytes}'"; // --arg cannot set these
    else if (isFloat(P.Type))
      OS << "1.0";
    else if (getBitWidth(P.Type) == 8)
      OS << 1;
    else
      OS << Elements;
  }
  OS << '\n';
}

static void printDims(StringRef Name, const uint32_t *Dims, unsigned N,
                      raw_ostream &OS) {
  if (!N)
    return;
  OS << "  " << Name << ' ';
  for (unsigned I = 0; I != N; ++I)
    OS << (I ? ", " : "") << Dims[I];
  OS << '\n';
}

void ptxjit::driver::printModuleList(const Module &M, raw_ostream &OS,
                                     StringRef Path) {
  for (const Function &F : M.Functions) {
    if (M.findFunction(F.Name) != &F)
      continue; // a forward declaration of a function defined later
    OS << (F.IsEntry ? "kernel " : "function ") << F.Name;
    DemangledName D;
    if (demangleKernelName(F.Name, D))
      OS << ": " << D.Full;
    if (!F.HasBody)
      OS << " (declaration)";
    OS << '\n';
    if (!F.Returns.empty()) {
      OS << "  returns:\n";
      for (const VariableDecl &P : F.Returns)
        printParam(P, OS);
    }
    SmallVector<driver::ParamUsage, 8> Usage;
    if (F.IsEntry)
      Usage = analyzeParamUsage(F);
    OS << "  params:" << (F.Params.empty() ? " none" : "") << '\n';
    for (auto [I, P] : enumerate(F.Params))
      printParam(P, OS, F.IsEntry ? &Usage[I] : nullptr);
    SmallVector<StringRef, 2> Dynamic;
    if (F.IsEntry) {
      OS << "  static shared memory: " << getStaticSharedSize(M, F)
         << " bytes\n";
      Dynamic = getDynamicSharedNames(M, F);
      OS << "  dynamic shared memory: ";
      if (Dynamic.empty())
        OS << "none\n";
      else
        OS << "extern .shared " << join(Dynamic, ", ")
           << " (run needs its size: --shared BYTES)\n";
    }
    printDims(".reqntid", F.ReqNTid, F.NumReqNTid, OS);
    printDims(".maxntid", F.MaxNTid, F.NumMaxNTid, OS);
    if (F.MinNCTAPerSM)
      OS << "  .minnctapersm " << F.MinNCTAPerSM << '\n';
    if (F.MaxNCTAPerSM)
      OS << "  .maxnctapersm " << F.MaxNCTAPerSM << '\n';
    if (F.MaxNReg)
      OS << "  .maxnreg " << F.MaxNReg << '\n';
    if (F.IsEntry && F.HasBody)
      printRunCommand(M, F, Usage, !Dynamic.empty(), Path, OS);
  }
}
