//===- FatBinary.h - Reading the device code nvcc embeds --------*- C++ -*-===//
//
// nvcc puts a program's device code in a fat binary: a container (magic
// 0xBA55ED50) of entries, each PTX text or an ELF (SASS) for one
// architecture, each possibly compressed (zstd by default in CUDA 13, LZ4
// with --compress-mode=speed). The CUDA runtime library reads the one a
// program registers and loads its PTX.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_CUDA_FATBINARY_H
#define PTXJIT_CUDA_FATBINARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace ptxjit {
namespace cuda {

constexpr uint32_t FatBinaryMagic = 0xBA55ED50;
/// The magic of the wrapper __cudaRegisterFatBinary is given.
constexpr uint32_t FatBinaryWrapperMagic = 0x466243B1;

enum class FatBinaryEntryKind : uint16_t { PTX = 1, ELF = 2 };

/// Entry flags (as nvcc 13 writes them).
enum FatBinaryEntryFlags : uint64_t {
  FBF_CompressedLZ4 = 0x2000,
  FBF_CompressedZstd = 0x8000,
};

struct FatBinaryEntry {
  FatBinaryEntryKind Kind;
  /// The architecture number: 80 for sm_80 and compute_80.
  unsigned Arch = 0;
  /// The PTX ISA version of a PTX entry (9.0: 9 and 0).
  unsigned Major = 0, Minor = 0;
  uint64_t Flags = 0;
  /// The entry's bytes, decompressed; a PTX entry's text without the
  /// padding after it.
  std::string Payload;
};

/// Reads the fat binary at Data, at most MaxSize bytes (the container's
/// header says how long it is). A damaged container, an unknown
/// compression or a payload that does not decompress is an error.
llvm::Expected<std::vector<FatBinaryEntry>> readFatBinary(const void *Data,
                                                          uint64_t MaxSize);

/// The PTX entry to load: the one of the highest architecture not above
/// MaxArch (then the highest PTX version). An error if there is none, which
/// says how to rebuild with PTX embedded.
llvm::Expected<const FatBinaryEntry *>
selectPTXEntry(llvm::ArrayRef<FatBinaryEntry> Entries, unsigned MaxArch);

} // namespace cuda
} // namespace ptxjit

#endif
