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
                                 const HostBuffer &Buf, uint64_t Limit) {
  uint64_t Count = Buf.getCount();
  bool Summarize = Limit && Count > Limit;
  // As NumPy summarizes: the first ceil(Limit/2) and last floor(Limit/2).
  uint64_t Head = Summarize ? Limit - Limit / 2 : Count;
  uint64_t TailStart = Summarize ? Count - Limit / 2 : Count;
  auto PrintRange = [&](uint64_t Begin, uint64_t End, bool First) {
    for (uint64_t I = Begin; I != End; ++I) {
      if (I != Begin || !First)
        OS << ", ";
      printElement(OS, Buf.getElementType(), Buf.getBits(I));
    }
  };
  OS << Name << " = [";
  PrintRange(0, Head, /*First=*/true);
  if (Summarize) {
    OS << ", ...";
    PrintRange(TailStart, Count, /*First=*/false);
  }
  OS << "]";
  if (Summarize)
    OS << " (" << getElementTypeName(Buf.getElementType()) << '[' << Count
       << "])";
  OS << '\n';
}
