//===- SharedSwizzle.h - Swizzled layouts of shared memory ------*- C++ -*-===//
//
// The swizzle modes that tensor-map copies (cp.async.bulk.tensor) and the
// shared-memory matrix descriptors of wgmma share: within each span of
// 8 x Span bytes, the 16-byte chunk index of an address (bits 4 and up)
// is XORed with its row of Span bytes (bits 7 and up), one bit for 32-byte
// spans, two for 64, three for 128. The pattern is a function of the
// shared-memory address itself, so a swizzled tile behaves the same at any
// address aligned to its repeat (256, 512 or 1024 bytes).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_SHAREDSWIZZLE_H
#define PTXJIT_ABI_SHAREDSWIZZLE_H

#include <cstdint>

namespace ptxjit {

enum class SharedSwizzle : uint8_t { None, B32, B64, B128 };

/// How many chunk-index bits the mode XORs (0 to 3).
inline unsigned getSwizzleBits(SharedSwizzle Mode) {
  return static_cast<unsigned>(Mode);
}

/// The address at which the swizzled layout keeps the byte that an
/// unswizzled layout keeps at Addr. The mapping is its own inverse.
inline uint32_t swizzleSharedAddress(uint32_t Addr, SharedSwizzle Mode) {
  unsigned Bits = getSwizzleBits(Mode);
  uint32_t Mask = (1u << Bits) - 1;
  return Addr ^ ((Addr >> 7 & Mask) << 4);
}

} // namespace ptxjit

#endif
