//===- HostBuffer.h - The memory behind a buffer SPEC -----------*- C++ -*-===//
//
// A HostBuffer owns COUNT elements of one ElementType in memory aligned to
// 256 bytes, as cudaMalloc's is. The emulator's global addresses are host
// addresses, so data() can be passed to a kernel as is.
//
// Initialization (the INIT of a SPEC):
//  * zero: all bits zero.
//  * iota: element I is I in the element type; integers wrap modulo 2^bits,
//    floats round to nearest even (f16 reaches inf at 65520).
//  * rand, rand:SEED: one SplitMix64 draw X per element, in order, from the
//    given seed (without one, from the default seed the caller passes; the
//    tool passes the parameter's position, so unseeded buffers differ from
//    each other but not from run to run). Integers take the low bits of X,
//    covering their full range. Floats are uniform in [0, 1) on a grid that
//    the type holds exactly: f64 (X >> 11) * 2^-53, f32 (X >> 40) * 2^-24,
//    f16 (X >> 53) * 2^-11, bf16 (X >> 56) * 2^-8.
//  * fill:VALUE, [v0,...]: literals converted as ScalarLiteral.h says; a list
//    must have exactly COUNT values.
//  * @PATH: a NumPy .npy file (one whose name ends in ".npy" or which starts
//    with NumPy's magic string) whose dtype matches and whose shape has COUNT
//    elements (see Npy.h); any other file is raw little-endian data of exactly
//    COUNT elements.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_HOSTBUFFER_H
#define PTXJIT_DRIVER_HOSTBUFFER_H

#include "ptxjit/Driver/ArgSpec.h"
#include "ptxjit/Driver/ElementType.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <cstdint>

namespace ptxjit {
namespace driver {

class HostBuffer {
public:
  static constexpr size_t Alignment = 256;

  /// A zeroed buffer. Fails only if memory runs out.
  static llvm::Expected<HostBuffer> create(ElementType Ty, uint64_t Count);
  /// A buffer initialized as \p Spec says; \p DefaultSeed is the seed of a
  /// `rand` without one.
  static llvm::Expected<HostBuffer> create(const BufferSpec &Spec,
                                           uint64_t DefaultSeed = 0);

  HostBuffer(HostBuffer &&Other);
  HostBuffer &operator=(HostBuffer &&Other);
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;
  ~HostBuffer();

  ElementType getElementType() const { return Ty; }
  uint64_t getCount() const { return Count; }
  size_t getSizeInBytes() const { return Count * getElementSize(Ty); }

  uint8_t *data() { return Data; }
  const uint8_t *data() const { return Data; }
  llvm::MutableArrayRef<uint8_t> bytes() { return {Data, getSizeInBytes()}; }
  llvm::ArrayRef<uint8_t> bytes() const { return {Data, getSizeInBytes()}; }

  /// Element \p I as a bit pattern in the low getElementBits() bits.
  uint64_t getBits(uint64_t I) const;
  /// Stores the low getElementBits() bits of \p Bits as element \p I.
  void setBits(uint64_t I, uint64_t Bits);

private:
  HostBuffer(ElementType Ty, uint64_t Count, uint8_t *Data)
      : Ty(Ty), Count(Count), Data(Data) {}

  ElementType Ty;
  uint64_t Count;
  uint8_t *Data;
};

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_HOSTBUFFER_H
