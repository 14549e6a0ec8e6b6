//===- TextureABI.h - How generated code calls the texture table -*- C++
//-*-===//
//
// tex, tld4, txq, suld, sust and suq become one runtime call per warp
// (RuntimeEntryPoints.def) that takes a word describing the instruction,
// the lanes to run, each lane's handle and coordinates, and fills each
// lane's four components. Arrays are component-major: Coords[K * 32 + Lane].
// The calls return the lanes that must trap (an invalid handle, an
// out-of-range surface access in .trap mode); inactive lanes are never read.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_TEXTUREABI_H
#define PTXJIT_ABI_TEXTUREABI_H

#include <cstdint>

namespace ptxjit {
namespace abi {

/// The .1d/.2d/... of an instruction.
enum class ImageGeometry : uint32_t { D1, D2, D3, A1D, A2D, Cube, ACube };

/// What a texture fetch returns in each 32-bit component.
enum class TexResultKind : uint32_t { F32, S32, U32 };

/// The instruction word of ptxjit_rt_tex.
struct TexOp {
  ImageGeometry Geometry;
  bool FloatCoords;
  TexResultKind Result;
  /// tld4: 1 + the component gathered (r, g, b, a); 0 for tex.
  uint32_t Gather;

  uint32_t encode() const {
    return uint32_t(Geometry) | uint32_t(FloatCoords) << 3 |
           uint32_t(Result) << 4 | Gather << 6;
  }
  static TexOp decode(uint32_t W) {
    return {ImageGeometry(W & 7), bool(W >> 3 & 1), TexResultKind(W >> 4 & 3),
            W >> 6 & 7};
  }
};

/// .trap, .clamp, .zero.
enum class SurfaceClamp : uint32_t { Trap, Clamp, Zero };

/// The instruction word of ptxjit_rt_suld and ptxjit_rt_sust.
struct SurfaceOp {
  ImageGeometry Geometry;
  SurfaceClamp Clamp;
  uint32_t ElementBytes; ///< 1, 2, 4 or 8
  uint32_t VectorWidth;  ///< 1, 2 or 4

  uint32_t encode() const {
    return uint32_t(Geometry) | uint32_t(Clamp) << 3 | ElementBytes << 5 |
           VectorWidth << 9;
  }
  static SurfaceOp decode(uint32_t W) {
    return {ImageGeometry(W & 7), SurfaceClamp(W >> 3 & 3), W >> 5 & 15,
            W >> 9 & 7};
  }
};

/// The attribute txq or suq reads (the Query argument of ptxjit_rt_txq).
enum class ImageQuery : uint32_t {
  Width,
  Height,
  Depth,
  ChannelDataType,
  ChannelOrder,
  NormalizedCoords,
  ForceUnnormalizedCoords,
  FilterMode,
  AddrMode0,
  AddrMode1,
  AddrMode2,
  ArraySize,
  NumMipmapLevels,
  NumSamples,
  MemoryLayout,
};

} // namespace abi
} // namespace ptxjit

#endif
