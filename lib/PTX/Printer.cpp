//===- Printer.cpp - Writing PTX text from the AST ------------------------===//

#include "ptxjit/PTX/Printer.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::ptx;

void ptxjit::ptx::printModule(const Module &M, raw_ostream &OS) {}
void ptxjit::ptx::printInstruction(const Instruction &I, raw_ostream &OS) {}
void ptxjit::ptx::printOperand(const Operand &Op, raw_ostream &OS) {}
