//===- DriverTextures.cpp - The driver API's texel formats ----------------===//

#include "DriverTextures.h"
#include "ptxjit/Device/DeviceError.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

std::optional<TexelFormat> driver::toTexelFormat(unsigned Format,
                                                 unsigned Channels) {
  if (Channels != 1 && Channels != 2 && Channels != 4)
    return std::nullopt;
  TexelFormat F;
  F.NumChannels = Channels;
  switch (Format) {
  case FormatU8:
  case FormatU16:
  case FormatU32:
    F.Kind = ChannelKind::Unsigned;
    break;
  case FormatS8:
  case FormatS16:
  case FormatS32:
    F.Kind = ChannelKind::Signed;
    break;
  case FormatHalf:
  case FormatFloat:
    F.Kind = ChannelKind::Float;
    break;
  default:
    return std::nullopt;
  }
  F.ChannelBits =
      Format == FormatU8 || Format == FormatS8                             ? 8
      : Format == FormatU16 || Format == FormatS16 || Format == FormatHalf ? 16
                                                                           : 32;
  return F;
}

Expected<TexelFormat> driver::getTexelFormat(unsigned Format,
                                             unsigned Channels) {
  std::optional<TexelFormat> F = toTexelFormat(Format, Channels);
  if (!F)
    return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                   "array format " + Twine(Format) + " with " +
                                       Twine(Channels) + " channels");
  return *F;
}

unsigned driver::toArrayFormat(const TexelFormat &F) {
  switch (F.Kind) {
  case ChannelKind::Float:
    return F.ChannelBits == 16 ? FormatHalf : FormatFloat;
  case ChannelKind::Signed:
    return F.ChannelBits == 8    ? FormatS8
           : F.ChannelBits == 16 ? FormatS16
                                 : FormatS32;
  case ChannelKind::Unsigned:
    break;
  }
  return F.ChannelBits == 8    ? FormatU8
         : F.ChannelBits == 16 ? FormatU16
                               : FormatU32;
}

ReadMode driver::getReadMode(const TexelFormat &F, unsigned Flags) {
  bool ShortInteger = F.Kind != ChannelKind::Float && F.ChannelBits < 32;
  return ShortInteger && !(Flags & FlagReadAsInteger)
             ? ReadMode::NormalizedFloat
             : ReadMode::ElementType;
}
