//===- ParamDesc.cpp - Kernel parameters as --arg sees them ---------------===//

#include "ptxjit/Driver/ParamDesc.h"

using namespace llvm;
using namespace ptxjit::driver;

std::string ParamDesc::getTypeName() const {
  std::string Bits = std::to_string(8 * SizeInBytes);
  switch (Kind) {
  case Int:
    return (IsSigned ? ".s" : ".u") + Bits;
  case Float:
    return ".f" + Bits;
  case Blob:
    return ".b8[" + std::to_string(SizeInBytes) + "]";
  }
  return "";
}

/// The element type a scalar of \p Param converts like, if any.
static std::optional<ElementType> getScalarType(const ParamDesc &Param) {
  if (Param.Kind == ParamDesc::Float) {
    switch (Param.SizeInBytes) {
    case 2:
      return ElementType::F16;
    case 4:
      return ElementType::F32;
    case 8:
      return ElementType::F64;
    }
    return std::nullopt;
  }
  if (Param.Kind == ParamDesc::Int) {
    switch (Param.SizeInBytes) {
    case 1:
      return Param.IsSigned ? ElementType::S8 : ElementType::U8;
    case 2:
      return Param.IsSigned ? ElementType::S16 : ElementType::U16;
    case 4:
      return Param.IsSigned ? ElementType::S32 : ElementType::U32;
    case 8:
      return Param.IsSigned ? ElementType::S64 : ElementType::U64;
    }
  }
  return std::nullopt;
}

static Error paramError(const ParamDesc &Param, const Twine &Message) {
  return createStringError("parameter '" + Param.Name + "' (" +
                           Param.getTypeName() + "): " + Message);
}

static std::vector<uint8_t> toBytes(uint64_t Bits, unsigned Size) {
  std::vector<uint8_t> Bytes(Size);
  for (unsigned I = 0; I != Size; ++I)
    Bytes[I] = static_cast<uint8_t>(Bits >> (8 * I));
  return Bytes;
}

Expected<std::vector<uint8_t>>
ptxjit::driver::encodeScalar(const ArgSpec &Arg, const ParamDesc &Param) {
  if (Arg.isBuffer())
    return paramError(Param,
                      "expected a scalar, got the buffer '" + Arg.Text + "'");
  if (Param.Kind == ParamDesc::Blob)
    return paramError(Param, "a by-value aggregate cannot be given with --arg");
  std::optional<ElementType> Ty = getScalarType(Param);
  if (!Ty)
    return paramError(Param, "unsupported parameter size");
  Expected<uint64_t> Bits = convertLiteral(Arg.Value, *Ty);
  if (!Bits)
    return paramError(Param, toString(Bits.takeError()));
  return toBytes(*Bits, Param.SizeInBytes);
}

Error ptxjit::driver::checkBufferParam(const ParamDesc &Param) {
  if (Param.Kind == ParamDesc::Int && Param.SizeInBytes == 8)
    return Error::success();
  return paramError(Param, "a buffer is passed as a 64-bit address, which "
                           "this parameter cannot hold");
}

std::vector<uint8_t> ptxjit::driver::encodePointer(uint64_t Address) {
  return toBytes(Address, 8);
}
