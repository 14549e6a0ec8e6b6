//===- Textures.h - Texture and surface objects and their sampling -*- C++
//-*-===//
//
// A texture or surface object is a resource (the memory: a linear buffer, a
// pitched 2D buffer or an array of 1 to 3 dimensions, possibly layered) and,
// for textures, a sampler (address modes, filtering, read mode, normalized
// coordinates, border color). The object table gives each object an opaque
// nonzero 64-bit handle, which kernels hold in registers (what nvcc emits for
// cudaTextureObject_t and cudaSurfaceObject_t); the runtime entry points of
// tex, tld4, txq, suld, sust and suq look the handles up here.
//
// Sampling follows the CUDA Programming Guide's texture fetching appendix:
// nearest-point sampling takes the texel floor(x); linear filtering blends
// the texels around x - 0.5 with weights in 9-bit fixed point (8 bits of
// fraction); normalized coordinates are scaled by the size; out-of-range
// coordinates are wrapped, mirrored, clamped or read the border color.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_TEXTURES_H
#define PTXJIT_RUNTIME_TEXTURES_H

#include "ptxjit/ABI/TextureABI.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <vector>

namespace ptxjit {
namespace runtime {

enum class ChannelKind : uint8_t { Signed, Unsigned, Float };

/// One texel: NumChannels channels (1, 2 or 4) of ChannelBits bits each
/// (8, 16 or 32; floats are 16 or 32).
struct TexelFormat {
  unsigned NumChannels = 1;
  unsigned ChannelBits = 32;
  ChannelKind Kind = ChannelKind::Float;
  unsigned getTexelBytes() const { return NumChannels * ChannelBits / 8; }
};

/// The most mipmap levels a resource has (a 65536-texel axis has 17).
constexpr unsigned MaxMipLevels = 17;

/// The memory of a texture or surface. Texel (i, j, k) is at
/// Data + k * SlicePitch + j * RowPitch + i * texel size. A layered 1D
/// array keeps its layers as rows (Height), a layered 2D array as slices
/// (Depth); a cubemap is a layered 2D array of 6 faces per layer (face f of
/// layer l is slice 6 * l + f). The fields describe level 0; a mipmapped
/// resource keeps level L, tightly packed, at Data + LevelOffset[L].
struct ImageResource {
  enum KindTy : uint8_t { Linear, Pitch2D, Array };
  KindTy Kind = Array;
  char *Data = nullptr;
  TexelFormat Format;
  uint64_t Width = 0, Height = 1, Depth = 1;
  unsigned Dimensions = 1; ///< 1, 2 or 3, layers not counted
  bool Layered = false;
  uint64_t RowPitch = 0, SlicePitch = 0; ///< bytes
  bool Cubemap = false;
  unsigned NumLevels = 1;
  uint64_t LevelOffset[MaxMipLevels] = {};
  uint64_t getLayers() const {
    if (!Layered)
      return 0;
    if (Cubemap)
      return Depth / 6;
    return Dimensions == 1 ? Height : Depth;
  }
  /// Level L as a resource of its own: each dimension max(1, N >> L), the
  /// layers kept.
  ImageResource getLevel(unsigned L) const;
};

/// cudaTextureAddressMode, cudaTextureFilterMode, cudaTextureReadMode.
enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border };
enum class FilterMode : uint8_t { Point, Linear };
enum class ReadMode : uint8_t { ElementType, NormalizedFloat };

struct SamplerState {
  AddressMode Address[3] = {AddressMode::Clamp, AddressMode::Clamp,
                            AddressMode::Clamp};
  FilterMode Filter = FilterMode::Point;
  ReadMode Read = ReadMode::ElementType;
  bool NormalizedCoords = false;
  float BorderColor[4] = {0, 0, 0, 0};
  /// Mipmaps: how levels are chosen and blended, and the level of detail's
  /// bias and clamps (cudaTextureDesc's mipmap fields).
  FilterMode MipFilter = FilterMode::Point;
  float LodBias = 0, MinLodClamp = 0, MaxLodClamp = 0;
};

/// How tex chooses the mipmap level: level 0 (plain tex), an explicit level
/// of detail (tex.level), or one computed from the coordinates' gradients
/// (tex.grad; up to 3 components each, unused ones zero).
struct LevelOfDetail {
  enum KindTy : uint8_t { Base, Level, Grad };
  KindTy Kind = Base;
  float Lod = 0;
  float DPdx[3] = {0, 0, 0}, DPdy[3] = {0, 0, 0};
};

struct ImageObject {
  bool IsSurface = false;
  ImageResource Resource;
  SamplerState Sampler; ///< textures only
};

/// What a fetch returns: four 32-bit words, floats when returnsFloat says
/// so and integers (sign- or zero-extended channels) otherwise. Channels the
/// format lacks read (0, 0, 0, 1).
struct TexelValue {
  uint32_t Words[4] = {0, 0, 0, 0};
  float getFloat(unsigned K) const;
  int32_t getInt(unsigned K) const { return int32_t(Words[K]); }
};

/// Whether fetches return floats: float formats, and 8- and 16-bit integer
/// formats read as normalized floats. Only those may be filtered linearly.
bool returnsFloat(const TexelFormat &F, ReadMode M);

/// What CUDA refuses to make an object of: no memory, a format that does not
/// exist, linear filtering of integers, normalized reads of 32-bit integers.
llvm::Error validateImageObject(const ImageObject &O);

/// tex with float coordinates. X, Y and Z are used as far as the geometry
/// has dimensions (a cube's are a direction); Layer is the array index of
/// the layered geometries. Lod chooses the mipmap level or levels. Offsets
/// (tex's operand e, one per dimension) are added in texels of the level
/// sampled, after normalized coordinates are scaled (and wrapped or
/// mirrored), before the address mode picks the texels.
TexelValue sampleTexture(const ImageObject &O, abi::ImageGeometry G,
                         const float Coords[3], int32_t Layer,
                         const LevelOfDetail &Lod = LevelOfDetail(),
                         const int32_t *Offsets = nullptr);

/// The object O as the fetch sees it after a sampler word (a .samplerref
/// or a .texref's initializer) replaced some of its sampler settings.
ImageObject applySamplerWord(const ImageObject &O, abi::SamplerWord W);

/// The level of detail (lambda, before the level clamps) of a tex.grad
/// lookup: log2 of the longer of the two gradients, in level-0 texels.
float gradientLevelOfDetail(const ImageObject &O, abi::ImageGeometry G,
                            const float Coords[3], const LevelOfDetail &Lod);

/// The face (0-5: +x, -x, +y, -y, +z, -z) a cubemap direction (X, Y, Z)
/// selects, and its coordinates (U, V) in [0, 1] on that face, as the
/// Programming Guide's cubemap table says. Ties go to x, then y.
void selectCubeFace(const float Dir[3], unsigned &Face, float &U, float &V);
/// tex with integer coordinates (tex1Dfetch): texel indices, never
/// filtered. Outside a linear buffer, all four words are zero.
TexelValue fetchTexel(const ImageObject &O, abi::ImageGeometry G,
                      const int32_t Coords[3], int32_t Layer,
                      const int32_t *Offsets = nullptr);
/// tld4: channel Component (0-3) of the four texels bilinear filtering of
/// (X, Y) reads, in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j).
TexelValue gatherTexture(const ImageObject &O, const float Coords[2],
                         unsigned Component, const int32_t *Offsets = nullptr);

/// Where a surface access of Bytes bytes at Coords (x in bytes; the layer
/// first for a1d and a2d) lands. Returns false if it must trap; otherwise
/// Ptr is the memory to access, or null when an out-of-range access is
/// dropped (.zero: loads read zero, stores are ignored).
bool locateSurfaceAccess(const ImageObject &O, abi::ImageGeometry G,
                         abi::SurfaceClamp Clamp, const int32_t Coords[4],
                         unsigned Bytes, char *&Ptr);

/// sust.p: N data words of type D converted to the channels of format F
/// and stored at Ptr (a whole texel; channels past N are zero). .f32 data
/// goes to float channels rounded to nearest even and to integer channels
/// as normalized values (clamped to [0, 1], or [-1, 1] when signed, scaled
/// and rounded to nearest even); .u32 and .s32 data saturate to integer
/// channels and convert to float channels. .b32 data (the only type ptxas
/// accepts) is .f32 for float formats, .s32 for signed and .u32 for
/// unsigned integer formats, as OpenCL's write_imagef/i/ui.
void storeFormattedTexel(const TexelFormat &F, abi::SurfaceData D,
                         const uint32_t Words[4], unsigned N, char *Ptr);

/// txq and suq.
uint32_t queryImage(const ImageObject &O, abi::ImageQuery Q);

/// The objects of the process. Handles are never reused: a destroyed
/// object's handle stays invalid. Thread-safe; lookups share a lock.
class ImageObjectTable {
public:
  static ImageObjectTable &get();

  /// Validates O and returns its handle (nonzero).
  llvm::Expected<uint64_t> create(const ImageObject &O);
  /// False if Handle names no object.
  bool destroy(uint64_t Handle);
  std::optional<ImageObject> lookup(uint64_t Handle) const;

private:
  struct Slot {
    uint32_t Generation = 1;
    bool Live = false;
    ImageObject Object;
  };
  mutable std::shared_mutex Lock;
  std::vector<Slot> Slots;
  std::vector<uint32_t> FreeSlots;
};

} // namespace runtime
} // namespace ptxjit

#endif
