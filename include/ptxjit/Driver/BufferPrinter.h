//===- BufferPrinter.h - Printing buffers for `>-` --------------*- C++ -*-===//
//
// After the kernel, a buffer whose SPEC ends in `>-` is printed as one line
//   NAME = [v0, v1, ...]
// where NAME is the name the SPEC gives (`y=f32[8]>-`), else the PTX
// parameter name. Integers print in decimal (signed
// types signed); floats print as ShortestFloat.h says.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_BUFFERPRINTER_H
#define PTXJIT_DRIVER_BUFFERPRINTER_H

#include "ptxjit/Driver/ElementType.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace driver {

class HostBuffer;

/// Prints one element given as its bit pattern (low getElementBits() bits).
void printElement(llvm::raw_ostream &OS, ElementType Ty, uint64_t Bits);

/// Prints "NAME = [v0, v1, ...]" and a newline. With a Limit (0: none)
/// below the element count, only the first and last Limit/2 elements are
/// printed, and the shape: "NAME = [v0, v1, ..., vN-1] (f32[N])".
void printBuffer(llvm::raw_ostream &OS, llvm::StringRef Name,
                 const HostBuffer &Buf, uint64_t Limit = 0);

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_BUFFERPRINTER_H
