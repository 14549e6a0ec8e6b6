//===- BufferFile.h - Buffers from and to files -----------------*- C++ -*-===//
//
// `=@PATH` reads a buffer's initial contents from a file and `>PATH` writes
// its final contents to one. A .npy file is read when the name ends in ".npy"
// or the file starts with NumPy's magic string, and written when the name
// ends in ".npy" (see Npy.h); otherwise the file is raw little-endian data,
// exactly COUNT elements long.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_BUFFERFILE_H
#define PTXJIT_DRIVER_BUFFERFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace ptxjit {
namespace driver {

class HostBuffer;

/// Fills all of \p Buf from the file at \p Path.
llvm::Error readBufferFile(llvm::StringRef Path, HostBuffer &Buf);

/// Writes \p Buf to \p Path, as .npy version 1.0 (shape (COUNT,)) if the name
/// ends in ".npy", else raw. The file is replaced only once it is complete.
llvm::Error writeBuffer(llvm::StringRef Path, const HostBuffer &Buf);
/// Checks, before a kernel runs, that writeBuffer can write Path: it is not
/// a directory, and it (or, if it does not exist, its directory) is
/// writable. writeBuffer follows a symbolic link to its target, writes a
/// regular file atomically (beside it, then renamed over it) and writes
/// FIFOs, character devices and other non-regular files in place.
llvm::Error checkOutputPath(llvm::StringRef Path);

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_BUFFERFILE_H
