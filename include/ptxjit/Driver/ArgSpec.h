//===- ArgSpec.h - The --arg SPEC grammar of `ptx-jit run` ------*- C++ -*-===//
//
// One `--arg SPEC` per kernel parameter, in order. A SPEC is either
//
//   scalar  := LITERAL                       (see ScalarLiteral.h)
//   buffer  := [NAME '='] TYPE '[' COUNT ']' ['=' INIT] ['>' OUT]
//   NAME    := identifier               what `>-` prints the buffer as
//                                       (default: the parameter's name)
//   TYPE    := u8 | s8 | u16 | s16 | u32 | s32 | u64 | s64
//            | f16 | bf16 | f32 | f64
//   INIT    := zero                 all bits zero (the default)
//            | uninit               all bits zero, but never written for
//                                   --check's initcheck
//            | iota                 0, 1, 2, ... in the element type (integers
//                                   wrap modulo 2^bits, floats round to
//                                   nearest even)
//            | rand | rand:SEED     see HostBuffer.h
//            | fill:LITERAL         every element
//            | '[' LITERAL {',' LITERAL} ']'   exactly COUNT values
//            | '@' PATH             a .npy file or raw little-endian data
//   OUT     := '-'                  print "NAME = [v0, v1, ...]" on stdout
//            | PATH                 .npy if it ends in ".npy", else raw
//
// or a texture or surface object (its .u64 handle is passed):
//
//   image   := [NAME '='] KIND ':' TYPE '[' W [',' H [',' D]] ']' ['=' INIT]
//              {',' OPTION} ['>' OUT]
//   KIND    := tex1d | tex2d | tex3d | surf1d | surf2d | surf3d
//   TYPE    := u8 | s8 | u16 | s16 | u32 | s32 | f16 | f32   (one channel)
//   OPTION  := filter=point|linear  address=clamp|wrap|mirror|border
//            | normalized           (normalized coordinates)
//            | read=element|normalized  (read mode)         textures only
//
// INIT (not a '[...]' list) fills the W*H*D texels, row after row; OUT
// prints or writes them after the kernel (a surface the kernel stored to).
//
// The first '>' after COUNT starts OUT, so an @PATH cannot contain '>'; an
// OUT path may. Whitespace around the SPEC and around list values is ignored.
// Parsing checks syntax only; whether a value fits its type is checked when
// the buffer is built (HostBuffer) or the scalar is encoded (ParamDesc.h).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_ARGSPEC_H
#define PTXJIT_DRIVER_ARGSPEC_H

#include "ptxjit/Driver/ElementType.h"
#include "ptxjit/Driver/ScalarLiteral.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxjit {
namespace driver {

/// How a buffer's elements are first set.
struct BufferInit {
  enum KindTy : uint8_t { Zero, Iota, Rand, Fill, List, File, Uninit };

  KindTy Kind = Zero;
  /// Rand: the seed, if one was given.
  std::optional<uint64_t> Seed;
  /// Fill: one value; List: COUNT values.
  std::vector<ScalarLiteral> Values;
  /// File: the path after '@'.
  std::string Path;
};

/// Where a buffer goes after the kernel.
struct BufferOutput {
  enum KindTy : uint8_t { None, Print, File };

  KindTy Kind = None;
  /// File: the path after '>'.
  std::string Path;
};

struct BufferSpec {
  /// The NAME the SPEC gives, or empty.
  std::string Name;
  ElementType Type = ElementType::U8;
  uint64_t Count = 0;
  BufferInit Init;
  BufferOutput Output;
};

/// A texture or surface: its texels (Buf) and how it is sampled.
struct ImageSpec {
  bool IsSurface = false;
  /// 1, 2 or 3, layers and cube faces not counted (a cubemap is 2).
  unsigned Dimensions = 1;
  bool Layered = false, Cubemap = false;
  /// Channels per texel: 1, 2 or 4 (TYPE, TYPEx2, TYPEx4).
  unsigned Channels = 1;
  /// The sizes as the KIND takes them: W[,H[,D]], then the layers.
  uint64_t Extent[3] = {1, 1, 1};
  bool LinearFilter = false, NormalizedCoords = false, NormalizedRead = false;
  /// clamp, wrap, mirror or border, as cudaTextureAddressMode numbers them.
  unsigned Address = 1;
};

/// One parsed --arg.
struct ArgSpec {
  enum KindTy : uint8_t { Scalar, Buffer, Image };

  KindTy Kind = Scalar;
  ScalarLiteral Value; ///< Scalar
  BufferSpec Buf;      ///< Buffer, and an Image's texels
  ImageSpec Img;       ///< Image
  /// The SPEC as given, for messages.
  std::string Text;

  bool isBuffer() const { return Kind == Buffer; }
  bool isImage() const { return Kind == Image; }
};

llvm::Expected<ArgSpec> parseArgSpec(llvm::StringRef Spec);

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_ARGSPEC_H
