//===- Printer.h - Writing a PTX AST back as PTX text -----------*- C++ -*-===//
//
// The printer is the parser's inverse: parse -> print -> parse gives the same
// AST (see ASTEquivalence.h), and the text is valid PTX for ptxas.
//
//===----------------------------------------------------------------------===//

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
/// Prints one instruction ("@!%p1 ld.global.v2.f32 \t{%f1, %f2}, [%rd1+8];"),
/// without indentation or a newline.
void printInstruction(const Instruction &I, llvm::raw_ostream &OS);
/// Prints one operand as it is written inside an instruction.
void printOperand(const Operand &Op, llvm::raw_ostream &OS);

} // namespace ptx
} // namespace ptxjit

#endif
