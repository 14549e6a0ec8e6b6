//===- TensorMap.h - Tensor-map encoding and box copies ---------*- C++ -*-===//
//
// What the driver's cuTensorMapEncodeTiled checks and writes
// (TensorMapABI.h), and the copy of one box between global and shared
// memory that cp.async.bulk.tensor makes through a map.
//
// The box: a tile of BoxDims[i] elements along each dimension i, starting
// at the copy's (signed) coordinates and taking every ElementStrides[i]-th
// element (dimension 0 takes every element), so ceil(BoxDims[i] /
// ElementStrides[i]) along dimension i. In shared memory it is dense,
// dimension 0 first, and each byte at shared address A lies at
// swizzleSharedAddress(A) of the map's swizzle mode (SharedSwizzle.h; the
// pattern follows the shared-memory address, not the offset in the box).
// Elements outside the tensor are filled (zeros, or a NaN for floating-point
// types with TensorOOBFill::NaNRequestZeroFMA) when loading, and not written
// when storing; either way they count in the box's bytes.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_TENSORMAP_H
#define PTXJIT_RUNTIME_TENSORMAP_H

#include "ptxjit/ABI/TensorMapABI.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace ptxjit {
namespace runtime {

/// cuTensorMapEncodeTiled's arguments (Rank entries each; Rank - 1 strides).
struct TiledTensorMapDesc {
  unsigned DataType = 0;
  unsigned Rank = 0;
  uint64_t GlobalAddress = 0;
  const uint64_t *GlobalDims = nullptr;
  const uint64_t *GlobalStrides = nullptr;
  const uint32_t *BoxDims = nullptr;
  const uint32_t *ElementStrides = nullptr;
  unsigned Interleave = 0;
  unsigned Swizzle = 0;
  unsigned L2Promotion = 0;
  unsigned OOBFill = 0;
};

/// The map for D, or an error whose code (StringError's) is
/// std::errc::invalid_argument for arguments the CUDA driver API refuses
/// and std::errc::not_supported for what ptx-jit does not run (interleaved
/// layouts, packed types, the sm_100 swizzle modes).
llvm::Expected<TensorMapImage>
encodeTiledTensorMap(const TiledTensorMapDesc &D);

/// Whether Map (as read from memory) is a tile map ptx-jit can copy
/// through: the magic and version, and every field in range.
llvm::Error checkTensorMap(const TensorMapImage &Map);

/// tensormap.replace of field Op (a TensorMapOp; Ordinal: the dimension of
/// the per-dimension fields) of Map with Value: .rank takes the rank less
/// one (the PTX ISA's rule); .box_dim, .global_dim and .element_stride the
/// value less one too, as ptx-jit reads the ISA (its fields count from 1,
/// and .rank's rule is the only one it states); .global_stride the bytes of
/// dimension Ordinal + 1 (the ordinal counting the strides, as
/// cuTensorMapEncodeTiled's array does); the enum fields the ISA's codes.
/// An error for a value out of range or what ptx-jit does not run (the
/// 96-byte swizzle, atomicities other than 16 bytes); Map is then unchanged.
llvm::Error replaceTensorMapField(TensorMapImage &Map, TensorMapOp Op,
                                  unsigned Ordinal, uint64_t Value);

/// The bytes of a box of Map (what a copy completes on its mbarrier).
uint64_t getTensorBoxBytes(const TensorMapImage &Map);

/// Copies the box of (checked) Map at Coords (Map.Rank of them) between the
/// tensor and the shared memory of one CTA, SharedSize bytes at SharedBase,
/// the box at shared address SharedAddr (128-byte aligned). ToShared loads
/// the box, filling elements outside the tensor; otherwise the box is
/// stored to the tensor, each element by Store(To, From) when given (a
/// reduction) or copied. An error says why nothing was copied (a box that
/// does not fit in shared memory, a misaligned address).
using TensorElementStore = void (*)(void *Arg, char *To, const char *From);
llvm::Error copyTensorBox(const TensorMapImage &Map, bool ToShared,
                          char *SharedBase, uint64_t SharedSize,
                          uint64_t SharedAddr, const int32_t *Coords,
                          TensorElementStore Store = nullptr,
                          void *StoreArg = nullptr);

} // namespace runtime
} // namespace ptxjit

#endif
