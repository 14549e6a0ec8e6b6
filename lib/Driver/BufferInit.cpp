//===- BufferInit.cpp - The INIT forms of a buffer SPEC -------------------===//
//
// What each form stores is documented in HostBuffer.h.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Driver/BufferFile.h"
#include "ptxjit/Driver/FloatFormats.h"
#include "ptxjit/Driver/HostBuffer.h"
#include "ptxjit/Driver/SplitMix64.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;
using namespace ptxjit::driver;

/// Stores Bits(I) as element I of Buf for every I, with the element size
/// chosen once outside the loop (setBits' switch per element ran at a tenth
/// of memory speed).
template <typename BitsFn>
static void fillElements(HostBuffer &Buf, BitsFn Bits) {
  auto Fill = [&](auto Zero) {
    using T = decltype(Zero);
    uint8_t *P = Buf.data();
    for (uint64_t I = 0, E = Buf.getCount(); I != E; ++I)
      support::endian::write<T, endianness::little>(P + I * sizeof(T),
                                                    static_cast<T>(Bits(I)));
  };
  switch (getElementSize(Buf.getElementType())) {
  case 1:
    return Fill(uint8_t());
  case 2:
    return Fill(uint16_t());
  case 4:
    return Fill(uint32_t());
  default:
    return Fill(uint64_t());
  }
}

/// \p I in a floating-point element type, rounded to nearest even.
static uint64_t indexToFloatBits(uint64_t I, ElementType Ty) {
  switch (Ty) {
  case ElementType::F16:
    return doubleToHalfBits(static_cast<double>(I));
  case ElementType::BF16:
    return doubleToBFloatBits(static_cast<double>(I));
  case ElementType::F32:
    return bit_cast<uint32_t>(static_cast<float>(I));
  default:
    return bit_cast<uint64_t>(static_cast<double>(I));
  }
}

static void fillIota(HostBuffer &Buf) {
  ElementType Ty = Buf.getElementType();
  bool IsFloat = isFloatElement(Ty);
  if (IsFloat)
    fillElements(Buf, [&](uint64_t I) { return indexToFloatBits(I, Ty); });
  else
    fillElements(Buf, [](uint64_t I) { return I; });
}

/// A float in [0, 1) from one 64-bit draw, on a grid exact in \p Ty.
static uint64_t drawToUnitFloatBits(uint64_t X, ElementType Ty) {
  switch (Ty) {
  case ElementType::F16:
    return doubleToHalfBits(static_cast<double>(X >> 53) * 0x1p-11);
  case ElementType::BF16:
    return doubleToBFloatBits(static_cast<double>(X >> 56) * 0x1p-8);
  case ElementType::F32:
    return bit_cast<uint32_t>(static_cast<float>(X >> 40) * 0x1p-24f);
  default:
    return bit_cast<uint64_t>(static_cast<double>(X >> 11) * 0x1p-53);
  }
}

static void fillRandom(HostBuffer &Buf, uint64_t Seed) {
  ElementType Ty = Buf.getElementType();
  bool IsFloat = isFloatElement(Ty);
  SplitMix64 Gen(Seed);
  // An integer element keeps the low bits of its draw.
  if (IsFloat)
    fillElements(Buf,
                 [&](uint64_t) { return drawToUnitFloatBits(Gen.next(), Ty); });
  else
    fillElements(Buf, [&](uint64_t) { return Gen.next(); });
}

static Error fillValue(HostBuffer &Buf, const ScalarLiteral &Value) {
  Expected<uint64_t> Bits = convertLiteral(Value, Buf.getElementType());
  if (!Bits)
    return Bits.takeError();
  fillElements(Buf, [&](uint64_t) { return *Bits; });
  return Error::success();
}

static Error fillList(HostBuffer &Buf, ArrayRef<ScalarLiteral> Values) {
  if (Values.size() != Buf.getCount())
    return createStringError("the list has %zu value%s, but %s[%llu] needs "
                             "exactly %llu",
                             Values.size(), Values.size() == 1 ? "" : "s",
                             getElementTypeName(Buf.getElementType()).data(),
                             static_cast<unsigned long long>(Buf.getCount()),
                             static_cast<unsigned long long>(Buf.getCount()));
  for (auto [I, Value] : enumerate(Values)) {
    Expected<uint64_t> Bits = convertLiteral(Value, Buf.getElementType());
    if (!Bits)
      return createStringError("element %zu of the list: %s", I,
                               toString(Bits.takeError()).c_str());
    Buf.setBits(I, *Bits);
  }
  return Error::success();
}

static Error initialize(HostBuffer &Buf, const BufferInit &Init,
                        uint64_t DefaultSeed) {
  switch (Init.Kind) {
  case BufferInit::Zero:
  case BufferInit::Uninit:
    return Error::success();
  case BufferInit::Iota:
    fillIota(Buf);
    return Error::success();
  case BufferInit::Rand:
    fillRandom(Buf, Init.Seed.value_or(DefaultSeed));
    return Error::success();
  case BufferInit::Fill:
    return fillValue(Buf, Init.Values.front());
  case BufferInit::List:
    return fillList(Buf, Init.Values);
  case BufferInit::File:
    return readBufferFile(Init.Path, Buf);
  }
  llvm_unreachable("unknown BufferInit kind");
}

Expected<HostBuffer> HostBuffer::create(const BufferSpec &Spec,
                                        uint64_t DefaultSeed) {
  Expected<HostBuffer> Buf = create(Spec.Type, Spec.Count);
  if (!Buf)
    return Buf.takeError();
  if (Error E = initialize(*Buf, Spec.Init, DefaultSeed))
    return std::move(E);
  return Buf;
}
