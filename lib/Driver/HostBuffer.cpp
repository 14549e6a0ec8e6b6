//===- HostBuffer.cpp - The memory behind a buffer SPEC -------------------===//

#include "ptxjit/Driver/HostBuffer.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "llvm/Support/Endian.h"
#include <algorithm>
#include <cstring>
#include <new>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::driver;

Expected<HostBuffer> HostBuffer::create(ElementType Ty, uint64_t Count) {
  // Never allocate zero bytes, so an empty buffer still has a unique address.
  size_t Size = std::max<size_t>(Count * getElementSize(Ty), 1);
  // Device memory: a kernel running past its buffer faults (and is
  // reported) instead of reaching another buffer or the host's heap.
  void *Data = runtime::allocateDevice(Size, Alignment);
  if (!Data)
    return createStringError("cannot allocate %zu bytes for %s[%llu]", Size,
                             getElementTypeName(Ty).data(),
                             static_cast<unsigned long long>(Count));
  // allocateDevice's memory is zeroed (fresh pages): a memset would only
  // touch every page twice.
  return HostBuffer(Ty, Count, static_cast<uint8_t *>(Data));
}

HostBuffer::HostBuffer(HostBuffer &&Other)
    : Ty(Other.Ty), Count(Other.Count), Data(Other.Data) {
  Other.Count = 0;
  Other.Data = nullptr;
}

HostBuffer &HostBuffer::operator=(HostBuffer &&Other) {
  // Other frees what this held.
  std::swap(Ty, Other.Ty);
  std::swap(Count, Other.Count);
  std::swap(Data, Other.Data);
  return *this;
}

HostBuffer::~HostBuffer() {
  if (Data)
    runtime::freeDevice(Data);
}

uint64_t HostBuffer::getBits(uint64_t I) const {
  const uint8_t *P = Data + I * getElementSize(Ty);
  switch (getElementSize(Ty)) {
  case 1:
    return *P;
  case 2:
    return support::endian::read16le(P);
  case 4:
    return support::endian::read32le(P);
  default:
    return support::endian::read64le(P);
  }
}

void HostBuffer::setBits(uint64_t I, uint64_t Bits) {
  uint8_t *P = Data + I * getElementSize(Ty);
  switch (getElementSize(Ty)) {
  case 1:
    *P = static_cast<uint8_t>(Bits);
    break;
  case 2:
    support::endian::write16le(P, static_cast<uint16_t>(Bits));
    break;
  case 4:
    support::endian::write32le(P, static_cast<uint32_t>(Bits));
    break;
  default:
    support::endian::write64le(P, Bits);
    break;
  }
}
