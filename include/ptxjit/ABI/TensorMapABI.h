//===- TensorMapABI.h - ptx-jit's layout of a CUtensorMap -------*- C++ -*-===//
//
// A CUtensorMap is an opaque object of 128 bytes, aligned to 64, that the
// driver encodes (cuTensorMapEncodeTiled) and cp.async.bulk.tensor,
// tensormap.replace and tensormap.cp_fenceproxy read or write. Its layout is
// the implementation's; this is ptx-jit's. The first word is a magic number
// and a version, so that a copy through 128 bytes that are not a tensor map
// is reported instead of followed.
//
// The enumerations keep the numbers of cuda.h's CUtensorMap* enums (which
// are also the values tensormap.replace writes into .elemtype,
// .interleave_layout, .swizzle_mode and .fill_mode).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_TENSORMAPABI_H
#define PTXJIT_ABI_TENSORMAPABI_H

#include <cstddef>
#include <cstdint>

namespace ptxjit {

/// CUtensorMapDataType.
enum class TensorDataType : uint8_t {
  U8,
  U16,
  U32,
  S32,
  U64,
  S64,
  F16,
  F32,
  F64,
  BF16,
  F32Ftz,
  TF32,
  TF32Ftz,
  Packed16U4Align8B,
  Packed16U4Align16B,
  Packed16U6Align16B,
};
constexpr unsigned NumTensorDataTypes = 16;

/// CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion and
/// CUtensorMapFloatOOBfill.
enum class TensorInterleave : uint8_t { None, B16, B32 };
enum class TensorSwizzle : uint8_t {
  None,
  B32,
  B64,
  B128,
  B128Atom32B,
  B128Atom32BFlip8B,
  B128Atom64B,
};
enum class TensorL2Promotion : uint8_t { None, B64, B128, B256 };
enum class TensorOOBFill : uint8_t { Zero, NaNRequestZeroFMA };

/// How the map traverses the tensor.
enum class TensorMapMode : uint8_t { Tile, Im2col };

constexpr unsigned MaxTensorRank = 5;
constexpr uint32_t TensorMapMagic = 0x4d544a50; // "PJTM"
constexpr uint8_t TensorMapVersion = 1;

/// The 128 bytes. Dimension 0 is the innermost (contiguous) one.
struct alignas(64) TensorMapImage {
  uint32_t Magic;      ///< TensorMapMagic
  uint8_t Version;     ///< TensorMapVersion
  uint8_t Rank;        ///< 1 to 5
  uint8_t DataType;    ///< a TensorDataType
  uint8_t Mode;        ///< a TensorMapMode
  uint8_t Interleave;  ///< a TensorInterleave
  uint8_t Swizzle;     ///< a TensorSwizzle
  uint8_t L2Promotion; ///< a TensorL2Promotion (no effect here)
  uint8_t OOBFill;     ///< a TensorOOBFill
  uint8_t ElementStrides[MaxTensorRank]; ///< 1 to 8
  uint8_t Reserved0[3];
  uint16_t BoxDims[MaxTensorRank]; ///< elements traversed, 1 to 256
  uint16_t Reserved1;
  uint64_t GlobalAddress;
  uint64_t GlobalDims[MaxTensorRank]; ///< 1 to 2^32 elements
  /// Bytes between consecutive indices of dimensions 1 to Rank - 1
  /// (GlobalStrides[0] is dimension 1's).
  uint64_t GlobalStrides[MaxTensorRank - 1];
  // im2col (not run yet): the bounding box's corners and its extent.
  int16_t Im2colLower[3];
  int16_t Im2colUpper[3];
  uint16_t ChannelsPerPixel;
  uint16_t PixelsPerColumn;
};
static_assert(sizeof(TensorMapImage) == 128, "a CUtensorMap has 128 bytes");
static_assert(offsetof(TensorMapImage, GlobalAddress) == 32, "layout");
static_assert(offsetof(TensorMapImage, Im2colLower) == 112, "layout");

/// The bytes of one element (0 for the packed types, which have none).
inline unsigned getTensorElementSize(TensorDataType T) {
  switch (T) {
  case TensorDataType::U8:
    return 1;
  case TensorDataType::U16:
  case TensorDataType::F16:
  case TensorDataType::BF16:
    return 2;
  case TensorDataType::U64:
  case TensorDataType::S64:
  case TensorDataType::F64:
    return 8;
  case TensorDataType::Packed16U4Align8B:
  case TensorDataType::Packed16U4Align16B:
  case TensorDataType::Packed16U6Align16B:
    return 0;
  default:
    return 4;
  }
}

inline bool isFloatTensorType(TensorDataType T) {
  switch (T) {
  case TensorDataType::F16:
  case TensorDataType::F32:
  case TensorDataType::F64:
  case TensorDataType::BF16:
  case TensorDataType::F32Ftz:
  case TensorDataType::TF32:
  case TensorDataType::TF32Ftz:
    return true;
  default:
    return false;
  }
}

/// The operation of ptxjit_rt_tensor_copy (bits 0-7); the rank of the
/// coordinates is in bits 8-15, and for cp.reduce.async.bulk.tensor (to
/// global) the reduction, a BulkReduction (AsyncABI.h), in bits 16-23.
enum class TensorCopyOp : uint32_t {
  ToShared, ///< global to .shared::cluster, complete-tx on the mbarrier
  ToGlobal, ///< .shared::cta to global, bulk-group completion
};

/// The operation of ptxjit_rt_tensormap (bits 0-7); the ordinal of a
/// dimension field in bits 8-15. tensormap.replace writes the values the
/// PTX ISA gives its fields: .rank, .box_dim, .global_dim and
/// .element_stride one less than the value, .global_stride in bytes (the
/// ordinal counting the strides, as cuTensorMapEncodeTiled's array does),
/// the others the numbers of the enums above.
enum class TensorMapOp : uint32_t {
  GlobalAddress,
  Rank,
  BoxDim,
  GlobalDim,
  GlobalStride,
  ElementStride,
  ElemType,
  InterleaveLayout,
  SwizzleMode,
  SwizzleAtomicity,
  FillMode,
  CopyFenceProxy, ///< tensormap.cp_fenceproxy: Values[L] is the source
};

} // namespace ptxjit

#endif
