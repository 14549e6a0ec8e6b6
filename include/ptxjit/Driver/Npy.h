//===- Npy.h - NumPy .npy headers -------------------------------*- C++ -*-===//
//
// The parts of the .npy format (numpy.lib.format) a buffer needs: reading the
// header of versions 1.0, 2.0 and 3.0, and writing a version 1.0 header for a
// one-dimensional array.
//
// A buffer of element type T accepts a file whose descr is T's (Npy descrs
// are in ElementTypes.def) in either byte order ('<', '>', '=' or '|'), and
// whose shape has COUNT elements in all (so (2, 3) fills a [6] buffer). Data
// in Fortran order is accepted only when that order is the same as C order
// (at most one dimension). NumPy has no bfloat16: a bf16 buffer accepts
// 2-byte void data ('V2', what ml_dtypes' bfloat16 saves as) or uint16 bit
// patterns ('u2'), and is written as '<V2'.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_NPY_H
#define PTXJIT_DRIVER_NPY_H

#include "ptxjit/Driver/ElementType.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace driver {

struct NpyHeader {
  unsigned MajorVersion = 1;
  std::string Descr;
  bool FortranOrder = false;
  llvm::SmallVector<uint64_t, 4> Shape;
  /// Offset of the first data byte in the file.
  size_t DataOffset = 0;

  /// The product of Shape; 1 for a 0-d array.
  uint64_t getElementCount() const;
};

/// Whether \p File starts with the .npy magic string "\x93NUMPY".
bool hasNpyMagic(llvm::ArrayRef<uint8_t> File);

/// Parses the header of the .npy file held in \p File.
llvm::Expected<NpyHeader> parseNpyHeader(llvm::ArrayRef<uint8_t> File);

/// Succeeds if data described by \p Descr can fill a buffer of \p Ty, and
/// says whether its bytes must be swapped to little-endian.
llvm::Expected<bool> checkNpyDescr(llvm::StringRef Descr, ElementType Ty);

/// Writes a version 1.0 header for \p Count elements of \p Ty, shape
/// (Count,), padded so that the data starts at a multiple of 64 bytes.
void writeNpyHeader(llvm::raw_ostream &OS, ElementType Ty, uint64_t Count);

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_NPY_H
