//===- DebugLocations.cpp - PTX lines as LLVM debug locations -------------===//

#include "DebugLocations.h"
#include "ptxjit/IRGen/IRGen.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;

/// The name the PTX came under ("<stdin>" or a path), split for DIFile.
static std::pair<std::string, std::string>
splitSourceName(const ptx::Module &PM) {
  const SourceMgr &SM = PM.getSourceMgr();
  StringRef Name =
      SM.getMemoryBuffer(SM.getMainFileID())->getBufferIdentifier();
  if (Name.empty())
    Name = "<ptx>";
  StringRef Dir = sys::path::parent_path(Name);
  return {sys::path::filename(Name).str(), Dir.str()};
}

DebugLocations::DebugLocations(const ptx::Module &PM, Module &LM,
                               bool Enabled)
    : PM(PM), DIB(LM) {
  if (!Enabled)
    return;
  auto [Name, Dir] = splitSourceName(PM);
  File = DIB.createFile(Name, Dir);
  // Line tables only: what gdb and fault reports need, and cheap.
  CU = DIB.createCompileUnit(DISourceLanguageName(dwarf::DW_LANG_C), File,
                             "ptx-jit", /*isOptimized=*/false, "", 0, "",
                             DICompileUnit::LineTablesOnly);
  if (!LM.getModuleFlag("Debug Info Version"))
    LM.addModuleFlag(Module::Warning, "Debug Info Version",
                     DEBUG_METADATA_VERSION);
  if (!LM.getModuleFlag("Dwarf Version"))
    LM.addModuleFlag(Module::Warning, "Dwarf Version", 5);
}

void DebugLocations::beginFunction(const ptx::Function &F, Function *Fn) {
  if (!CU)
    return;
  unsigned Line = PM.getLine(F.Loc);
  DISubroutineType *Ty = DIB.createSubroutineType(DIB.getOrCreateTypeArray({}));
  DISubprogram *SP =
      DIB.createFunction(File, F.Name, Fn->getName(), File, Line, Ty, Line,
                         DINode::FlagZero, DISubprogram::SPFlagDefinition);
  Fn->setSubprogram(SP);
}

DILocation *DebugLocations::get(Function *Fn, SMLoc Loc) {
  DISubprogram *SP = Fn->getSubprogram();
  if (!SP)
    return nullptr;
  unsigned Line = 0, Column = 0;
  if (Loc.isValid())
    std::tie(Line, Column) = PM.getSourceMgr().getLineAndColumn(Loc);
  if (!Line)
    Line = SP->getLine();
  return DILocation::get(Fn->getContext(), Line, Column, SP);
}

void DebugLocations::finalize() {
  if (CU)
    DIB.finalize();
}

/// The location an instruction without one (or at line 0, as passes give
/// merged instructions) should have: its nearest located neighbour's in the
/// block, else the subprogram's line.
static DebugLoc neighbourLocation(Instruction &I, DISubprogram *SP) {
  auto Located = [](const Instruction &J) {
    return J.getDebugLoc() && J.getDebugLoc().getLine() != 0;
  };
  for (Instruction *J = I.getPrevNode(); J; J = J->getPrevNode())
    if (Located(*J))
      return J->getDebugLoc();
  for (Instruction *J = I.getNextNode(); J; J = J->getNextNode())
    if (Located(*J))
      return J->getDebugLoc();
  return DILocation::get(I.getContext(), SP->getLine(), 0, SP);
}

void ptxjit::attachMissingDebugLocations(Module &M) {
  for (Function &F : M) {
    DISubprogram *SP = F.getSubprogram();
    if (!SP)
      continue;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (!I.getDebugLoc() || I.getDebugLoc().getLine() == 0)
          I.setDebugLoc(neighbourLocation(I, SP));
  }
}
