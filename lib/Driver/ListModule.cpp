//===- ListModule.cpp - The `ptx-jit list` command ------------------------===//

#include "ptxjit/Driver/ListModule.h"
#include "ptxjit/Driver/KernelNames.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/ModuleInfo.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::ptx;

static void printParam(const VariableDecl &P, raw_ostream &OS) {
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

void ptxjit::driver::printModuleList(const Module &M, raw_ostream &OS) {
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
    OS << "  params:" << (F.Params.empty() ? " none" : "") << '\n';
    for (const VariableDecl &P : F.Params)
      printParam(P, OS);
    if (F.IsEntry)
      OS << "  static shared memory: " << getStaticSharedSize(M, F)
         << " bytes\n";
    printDims(".reqntid", F.ReqNTid, F.NumReqNTid, OS);
    printDims(".maxntid", F.MaxNTid, F.NumMaxNTid, OS);
    if (F.MinNCTAPerSM)
      OS << "  .minnctapersm " << F.MinNCTAPerSM << '\n';
    if (F.MaxNCTAPerSM)
      OS << "  .maxnctapersm " << F.MaxNCTAPerSM << '\n';
    if (F.MaxNReg)
      OS << "  .maxnreg " << F.MaxNReg << '\n';
  }
}
