//===- Printer.h - Writing a PTX AST back as PTX text -----------*- C++ -*-===//

#ifndef PTXJIT_PTX_PRINTER_H
#define PTXJIT_PTX_PRINTER_H

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace ptx {

class Module;
struct Instruction;
struct Operand;

/// Prints M as PTX that parses back to the same AST.
void printModule(const Module &M, llvm::raw_ostream &OS);
void printInstruction(const Instruction &I, llvm::raw_ostream &OS);
void printOperand(const Operand &Op, llvm::raw_ostream &OS);

} // namespace ptx
} // namespace ptxjit

#endif
