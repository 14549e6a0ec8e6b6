//===- BufferPrinter.cpp - Printing buffers for `>-` ----------------------===//

#include "ptxjit/Driver/BufferPrinter.h"
#include "ptxjit/Driver/HostBuffer.h"
#include "ptxjit/Driver/ShortestFloat.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::driver;

void ptxjit::driver::printElement(raw_ostream &OS, ElementType Ty,
                                  uint64_t Bits) {
  switch (Ty) {
  case ElementType::F16:
    OS << formatShortestHalf(static_cast<uint16_t>(Bits));
    return;
  case ElementType::BF16:
    OS << formatShortestBFloat(static_cast<uint16_t>(Bits));
    return;
  case ElementType::F32:
    OS << formatShortestFloat(bit_cast<float>(static_cast<uint32_t>(Bits)));
    return;
  case ElementType::F64:
    OS << formatShortestDouble(bit_cast<double>(Bits));
    return;
  default:
    break;
  }
  unsigned Width = getElementBits(Ty);
  if (isSignedElement(Ty))
    OS << SignExtend64(Bits, Width);
  else
    OS << Bits;
}

void ptxjit::driver::printBuffer(raw_ostream &OS, StringRef Name,
                                 const HostBuffer &Buf) {
  OS << Name << " = [";
  for (uint64_t I = 0, E = Buf.getCount(); I != E; ++I) {
    if (I)
      OS << ", ";
    printElement(OS, Buf.getElementType(), Buf.getBits(I));
  }
  OS << "]\n";
}
