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

/// How tex chooses the mipmap level: plain tex (and tex.base) level 0,
/// tex.level an explicit level of detail, tex.grad gradients.
enum class TexLod : uint32_t { Base, Level, Grad };

/// The coordinate arrays of ptxjit_rt_tex hold 16 components: the
/// coordinates (0-3), then tex.level's level of detail (4), or tex.grad's
/// dPdx (4-7) and dPdy (8-11); the texel offsets (12-14, .s32, zero when
/// the instruction has none); and the sampler word (15, below).
constexpr unsigned TexLodArgs = 4, TexOffsetArgs = 12, TexSamplerArg = 15,
                   TexArgComponents = 16;

/// A sampler word: the sampler settings that replace those of the texture
/// object for one fetch. Independent texturing mode's .samplerref variables
/// hold one (its fields given by the initializer), and a .texref's
/// initializer makes one. Zero replaces nothing.
struct SamplerWord {
  /// As the runtime's AddressMode: wrap, clamp (to edge), mirror, border.
  enum AddressMode : uint32_t { Wrap, Clamp, Mirror, Border };
  bool HasFilter = false, Linear = false;
  bool HasAddress[3] = {false, false, false};
  AddressMode Address[3] = {Clamp, Clamp, Clamp};
  bool HasNormalized = false, Normalized = false;

  uint32_t encode() const {
    uint32_t W = uint32_t(HasFilter) | uint32_t(Linear) << 1;
    for (unsigned K = 0; K != 3; ++K)
      W |= uint32_t(HasAddress[K]) << (2 + K) | uint32_t(Address[K])
                                                    << (5 + 2 * K);
    return W | uint32_t(HasNormalized) << 11 | uint32_t(Normalized) << 12;
  }
  static SamplerWord decode(uint32_t W) {
    SamplerWord S;
    S.HasFilter = W & 1;
    S.Linear = W >> 1 & 1;
    for (unsigned K = 0; K != 3; ++K) {
      S.HasAddress[K] = W >> (2 + K) & 1;
      S.Address[K] = AddressMode(W >> (5 + 2 * K) & 3);
    }
    S.HasNormalized = W >> 11 & 1;
    S.Normalized = W >> 12 & 1;
    return S;
  }
};

/// The instruction word of ptxjit_rt_tex.
struct TexOp {
  ImageGeometry Geometry;
  bool FloatCoords;
  TexResultKind Result;
  /// tld4: 1 + the component gathered (r, g, b, a); 0 for tex.
  uint32_t Gather;
  TexLod Lod = TexLod::Base;
  /// The instruction has texel offsets (components TexOffsetArgs...).
  bool Offsets = false;

  uint32_t encode() const {
    return uint32_t(Geometry) | uint32_t(FloatCoords) << 3 |
           uint32_t(Result) << 4 | Gather << 6 | uint32_t(Lod) << 9 |
           uint32_t(Offsets) << 11;
  }
  static TexOp decode(uint32_t W) {
    return {ImageGeometry(W & 7), bool(W >> 3 & 1),   TexResultKind(W >> 4 & 3),
            W >> 6 & 7,           TexLod(W >> 9 & 3), bool(W >> 11 & 1)};
  }
};

/// .trap, .clamp, .zero.
enum class SurfaceClamp : uint32_t { Trap, Clamp, Zero };

/// sured's operation; None for suld and sust.
enum class SurfaceReduction : uint32_t { None, Add, Min, Max, And, Or };

/// The data type of sust.p (and of a signed sured.min/max): how the data is
/// converted to the surface's format.
enum class SurfaceData : uint32_t { B, U32, S32, F32 };

/// The instruction word of ptxjit_rt_suld and ptxjit_rt_sust.
struct SurfaceOp {
  ImageGeometry Geometry;
  SurfaceClamp Clamp;
  uint32_t ElementBytes; ///< 1, 2, 4 or 8
  uint32_t VectorWidth;  ///< 1, 2 or 4
  SurfaceReduction Reduction = SurfaceReduction::None;
  /// .p: x counts elements of the surface's format, and sust.p converts.
  bool Formatted = false;
  SurfaceData Data = SurfaceData::B;

  uint32_t encode() const {
    return uint32_t(Geometry) | uint32_t(Clamp) << 3 | ElementBytes << 5 |
           VectorWidth << 9 | uint32_t(Reduction) << 12 |
           uint32_t(Formatted) << 15 | uint32_t(Data) << 16;
  }
  static SurfaceOp decode(uint32_t W) {
    return {ImageGeometry(W & 7),
            SurfaceClamp(W >> 3 & 3),
            W >> 5 & 15,
            W >> 9 & 7,
            SurfaceReduction(W >> 12 & 7),
            bool(W >> 15 & 1),
            SurfaceData(W >> 16 & 3)};
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
  /// istypep: 1 if the handle names a live texture (a surface when the
  /// call's IsSurface is set), else 0; never traps.
  IsObject,
};

/// The values txq and suq return for formats, channel orders, address and
/// filter modes: OpenCL's.
enum ImageQueryValue : uint32_t {
  CL_SNORM_INT8 = 0x10D0,
  CL_SNORM_INT16 = 0x10D1,
  CL_UNORM_INT8 = 0x10D2,
  CL_UNORM_INT16 = 0x10D3,
  CL_SIGNED_INT8 = 0x10D7,
  CL_SIGNED_INT16 = 0x10D8,
  CL_SIGNED_INT32 = 0x10D9,
  CL_UNSIGNED_INT8 = 0x10DA,
  CL_UNSIGNED_INT16 = 0x10DB,
  CL_UNSIGNED_INT32 = 0x10DC,
  CL_HALF_FLOAT = 0x10DD,
  CL_FLOAT = 0x10DE,
  CL_R = 0x10B0,
  CL_RG = 0x10B2,
  CL_RGBA = 0x10B5,
  CL_ADDRESS_CLAMP_TO_EDGE = 0x1131,
  CL_ADDRESS_CLAMP = 0x1132,
  CL_ADDRESS_REPEAT = 0x1133,
  CL_ADDRESS_MIRRORED_REPEAT = 0x1134,
  CL_FILTER_NEAREST = 0x1140,
  CL_FILTER_LINEAR = 0x1141,
};

/// What txq of a sampler word returns for one of its address modes.
constexpr uint32_t getAddressModeValue(SamplerWord::AddressMode M) {
  return M == SamplerWord::Wrap     ? CL_ADDRESS_REPEAT
         : M == SamplerWord::Mirror ? CL_ADDRESS_MIRRORED_REPEAT
         : M == SamplerWord::Border ? CL_ADDRESS_CLAMP
                                    : CL_ADDRESS_CLAMP_TO_EDGE;
}

/// Or'ed into a width, height or depth query (txq.level): each lane's
/// Result holds the mipmap level on entry.
constexpr uint32_t ImageQueryAtLevel = 0x100;

} // namespace abi
} // namespace ptxjit

#endif
