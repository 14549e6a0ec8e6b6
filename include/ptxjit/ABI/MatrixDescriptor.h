//===- MatrixDescriptor.h - wgmma's shared-memory matrix descriptors -*- C++
//-*-===//
//
// A wgmma operand in shared memory is named by a 64-bit descriptor (PTX
// ISA, "Matrix Descriptor Format"): bits 0-13 the start address, 16-29 the
// leading dimension byte offset (LBO), 32-45 the stride dimension byte
// offset (SBO), each in units of 16 bytes; bits 49-51 the base offset;
// bits 62-63 the swizzle mode (0 none, 1 128B, 2 64B, 3 32B).
//
// The matrix is made of core matrices of 8 rows of 16 bytes ("Shared
// Memory Matrix Layout"). K-major (imm-trans 0): a row holds consecutive K
// elements of one M (or N) index; without swizzling, a core matrix is 128
// contiguous bytes, the next along K is LBO bytes on and the next 8 rows
// SBO bytes on; swizzled with span W (32, 64, 128), row r of each 8 is
// r * W bytes on, K runs on within the row, and the next 8 rows are SBO
// bytes on. MN-major (imm-trans 1, 16-bit elements only): a row holds
// consecutive M (or N) elements of one K index; without swizzling a core
// matrix holds 8 of them in each of 8 K rows, the next 8 M elements are SBO
// bytes on and the next 8 K rows LBO bytes on; swizzled, each K row holds W
// bytes of M elements, the next W bytes of M are LBO bytes on, and the next
// 8 K rows SBO bytes on. Addresses are then swizzled (SharedSwizzle.h).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_MATRIXDESCRIPTOR_H
#define PTXJIT_ABI_MATRIXDESCRIPTOR_H

#include "ptxjit/ABI/SharedSwizzle.h"
#include <cstdint>

namespace ptxjit {

struct MatrixDescriptor {
  uint32_t Start = 0, LeadingOffset = 0, StrideOffset = 0; ///< bytes
  unsigned BaseOffset = 0;
  SharedSwizzle Swizzle = SharedSwizzle::None;

  static MatrixDescriptor decode(uint64_t D) {
    static constexpr SharedSwizzle Modes[] = {
        SharedSwizzle::None, SharedSwizzle::B128, SharedSwizzle::B64,
        SharedSwizzle::B32};
    MatrixDescriptor M;
    M.Start = uint32_t(D & 0x3fff) << 4;
    M.LeadingOffset = uint32_t(D >> 16 & 0x3fff) << 4;
    M.StrideOffset = uint32_t(D >> 32 & 0x3fff) << 4;
    M.BaseOffset = unsigned(D >> 49 & 7);
    M.Swizzle = Modes[D >> 62];
    return M;
  }

  /// The span of a swizzled row in bytes (16 unswizzled: one core-matrix
  /// row).
  unsigned getRowBytes() const { return 16u << getSwizzleBits(Swizzle); }

  /// The shared-memory bit address of element (MN, K) of a matrix of
  /// ElementBits-bit elements, K-major unless MNMajor.
  uint64_t getBitAddress(unsigned MN, unsigned K, unsigned ElementBits,
                         bool MNMajor) const {
    unsigned W = getRowBytes();
    uint64_t Byte, Bit;
    if (!MNMajor) {
      unsigned PerChunk = 128 / ElementBits; // elements in 16 bytes
      unsigned Chunk = K / PerChunk;
      Bit = uint64_t(K % PerChunk) * ElementBits;
      Byte = uint64_t(Start) + MN / 8 * uint64_t(StrideOffset);
      if (Swizzle == SharedSwizzle::None)
        Byte += MN % 8 * 16 + Chunk * uint64_t(LeadingOffset);
      else
        Byte += MN % 8 * W + Chunk * 16;
    } else {
      unsigned PerRow = W * 8 / ElementBits; // M elements in a row
      Bit = uint64_t(MN % PerRow) * ElementBits;
      Byte = uint64_t(Start) + K % 8 * W;
      if (Swizzle == SharedSwizzle::None)
        Byte += MN / PerRow * uint64_t(StrideOffset) +
                K / 8 * uint64_t(LeadingOffset);
      else
        Byte += MN / PerRow * uint64_t(LeadingOffset) +
                K / 8 * uint64_t(StrideOffset);
    }
    Byte += Bit / 8;
    return uint64_t(swizzleSharedAddress(uint32_t(Byte), Swizzle)) * 8 +
           Bit % 8;
  }
};

} // namespace ptxjit

#endif
