//===- DriverTextures.h - The driver API's texel formats --------*- C++ -*-===//
//
// cuda.h's CUarray_format numbers and CU_TRSF_* flags, shared by
// libcuda.so.1's arrays, texture objects and texture references.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_DRIVERTEXTURES_H
#define PTXJIT_LIB_CUDA_DRIVERTEXTURES_H

#include "ptxjit/Runtime/Textures.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace ptxjit {
namespace cuda {
namespace driver {

/// CUarray_format.
enum : unsigned {
  FormatU8 = 0x01,
  FormatU16 = 0x02,
  FormatU32 = 0x03,
  FormatS8 = 0x08,
  FormatS16 = 0x09,
  FormatS32 = 0x0a,
  FormatHalf = 0x10,
  FormatFloat = 0x20,
};

/// CU_TRSF_*: a texture reference's or texture descriptor's flags.
enum : unsigned {
  FlagReadAsInteger = 0x01,
  FlagNormalizedCoordinates = 0x02,
  FlagSRGB = 0x10,
  FlagDisableTrilinearOptimization = 0x20,
  FlagSeamlessCubemap = 0x40,
};

/// The texel format of Channels channels of a CUarray_format (1, 2 or 4
/// channels); none for the formats this library does not have.
std::optional<runtime::TexelFormat> toTexelFormat(unsigned Format,
                                                  unsigned Channels);
/// toTexelFormat, or InvalidValue naming what does not exist.
llvm::Expected<runtime::TexelFormat> getTexelFormat(unsigned Format,
                                                    unsigned Channels);
/// The CUarray_format of F's channels.
unsigned toArrayFormat(const runtime::TexelFormat &F);

/// How fetches read F under CU_TRSF_* Flags: 8- and 16-bit integers as
/// normalized floats unless CU_TRSF_READ_AS_INTEGER; the rest as they are.
runtime::ReadMode getReadMode(const runtime::TexelFormat &F, unsigned Flags);

} // namespace driver
} // namespace cuda
} // namespace ptxjit

#endif
