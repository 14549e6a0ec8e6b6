//===- ImageArrays.h - CUDA arrays, shared by both CUDA libraries -*- C++
//-*-===//
//
// A CUDA array (cudaArray_t, CUarray: the same objects) and a mipmapped
// array (cudaMipmappedArray_t, CUmipmappedArray) are device memory laid out
// row after row (no tiling) with a texel format and an extent. They live in
// libcuda.so.1, so an array made by one library is a valid handle in the
// other, as with NVIDIA's. Each library turns its own descriptors into a
// TexelFormat and an ArrayExtent and checks its handles here. Texture
// resources of plain device memory are checked here too.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_IMAGEARRAYS_H
#define PTXJIT_LIB_CUDA_IMAGEARRAYS_H

#include "ptxjit/Runtime/Textures.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <vector>

namespace ptxjit {
namespace device {
class Context;
class Stream;
} // namespace device

namespace cuda {

/// An extent as both APIs give it: 0 for the dimensions an array lacks
/// (Height of a 1D array, Depth of a 2D one); the layers of a layered
/// array, and a cubemap's faces, are counted in Depth.
struct ArrayExtent {
  size_t Width = 0, Height = 0, Depth = 0;
};

/// Array flags: cudaArrayLayered... and CUDA_ARRAY3D_LAYERED... share
/// their numbers.
enum : unsigned {
  ArrayLayered = 0x01,
  ArraySurfaceLoadStore = 0x02,
  ArrayCubemap = 0x04,
  ArrayTextureGather = 0x08,
};

struct ImageArray {
  runtime::ImageResource Resource; ///< memory, format and layout
  ArrayExtent Extent;              ///< as created
  unsigned Flags = 0;
  bool IsLevel = false; ///< a level of a mipmapped array, freed with it
};

struct MipmappedImageArray {
  runtime::ImageResource Resource; ///< level 0, NumLevels and LevelOffset
  ArrayExtent Extent;
  unsigned Flags = 0;
  std::vector<ImageArray *> Levels;
};

llvm::Expected<ImageArray *> createImageArray(device::Context &C,
                                              runtime::TexelFormat F,
                                              ArrayExtent E, unsigned Flags);
/// NumLevels 0 asks for every level down to 1x1x1.
llvm::Expected<MipmappedImageArray *>
createMipmappedImageArray(device::Context &C, runtime::TexelFormat F,
                          ArrayExtent E, unsigned NumLevels, unsigned Flags);
/// Frees a live array (not a level of a mipmapped one).
llvm::Error destroyImageArray(device::Context &C, const void *Handle);
llvm::Error destroyMipmappedImageArray(device::Context &C, const void *Handle);

/// The live array Handle names, or InvalidResourceHandle.
llvm::Expected<ImageArray *> lookupImageArray(const void *Handle);
llvm::Expected<MipmappedImageArray *>
lookupMipmappedImageArray(const void *Handle);

/// One side of a block copy: pitched memory, or an array (whose extent
/// bounds the block). Positions are in bytes along rows.
struct CopyEnd {
  char *Base = nullptr;
  size_t Pitch = 0, SlicePitch = 0;
  const ImageArray *Array = nullptr;
  size_t XBytes = 0, Y = 0, Z = 0;

  static CopyEnd ofArray(const ImageArray &A, size_t XBytes, size_t Y,
                         size_t Z);
  /// Memory of rows Pitch bytes apart, slices RowsPerSlice rows apart.
  static CopyEnd ofMemory(const void *Base, size_t Pitch, size_t RowsPerSlice,
                          size_t XBytes, size_t Y, size_t Z);
};

/// Copies Depth slices of Height rows of WidthBytes from Src to Dst in
/// stream S (null: the legacy default stream), and waits for it when Wait.
/// Refuses a block that runs past an array, or rows wider than a pitch.
llvm::Error copyImageBlock(device::Context &C, const CopyEnd &Dst,
                           const CopyEnd &Src, size_t WidthBytes, size_t Height,
                           size_t Depth, device::Stream *S, bool Wait);

/// Whether [Ptr, Ptr + Bytes) lies in one device allocation of C.
bool isDeviceRange(device::Context &C, const void *Ptr, uint64_t Bytes);
/// A resource of the texels of F in Bytes of device memory from Ptr.
llvm::Expected<runtime::ImageResource>
makeLinearResource(device::Context &C, void *Ptr, runtime::TexelFormat F,
                   uint64_t Bytes);
/// A resource of Height rows of Width texels of F, Pitch bytes apart, in
/// device memory from Ptr.
llvm::Expected<runtime::ImageResource>
makePitch2DResource(device::Context &C, void *Ptr, runtime::TexelFormat F,
                    uint64_t Width, uint64_t Height, uint64_t Pitch);

} // namespace cuda
} // namespace ptxjit

#endif
