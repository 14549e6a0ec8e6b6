//===- TensorMapABI.h - ptx-jit's layout of a CUtensorMap -------*- C++ -*-===//
//
// A CUtensorMap is an opaque object of 128 bytes, aligned to 64, that the
// driver encodes (cuTensorMapEncodeTiled) and cp.async.bulk.tensor,
// tensormap.replace and tensormap.cp_fenceproxy read or write. Its layout is
// the implementation's; this is ptx-jit's. The first word is a magic number
// and a version, so that a copy through 128 bytes that are not a tensor map
// is reported instead of followed.
//
// The enumerations keep the numbers of cuda.h's CUtensorMap* enums.
// tensormap.replace numbers .interleave_layout, .fill_mode and the first
// four .swizzle_mode values the same way, but its .elemtype codes order the
// types differently (getTensorDataTypeOfElemtype).
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

/// The type of tensormap.replace's .elemtype code (the PTX ISA's table:
/// .u8, .u16, .u32, .s32, .u64, .s64, .f16, .f32, .f32.ftz, .f64, .bf16,
/// .tf32, .tf32.ftz, .b4x16, .b4x16_p64, .b6x16_p32); false past them.
inline bool getTensorDataTypeOfElemtype(unsigned Code, TensorDataType &T) {
  static const TensorDataType Types[] = {
      TensorDataType::U8,
      TensorDataType::U16,
      TensorDataType::U32,
      TensorDataType::S32,
      TensorDataType::U64,
      TensorDataType::S64,
      TensorDataType::F16,
      TensorDataType::F32,
      TensorDataType::F32Ftz,
      TensorDataType::F64,
      TensorDataType::BF16,
      TensorDataType::TF32,
      TensorDataType::TF32Ftz,
      TensorDataType::Packed16U4Align8B,
      TensorDataType::Packed16U4Align16B,
      TensorDataType::Packed16U6Align16B,
  };
  if (Code >= sizeof Types / sizeof Types[0])
    return false;
  T = Types[Code];
  return true;
}

/// The PTX spelling of a type's elements (".f32").
inline const char *getTensorDataTypeName(TensorDataType T) {
  static const char *const Names[] = {
      ".u8",       ".u16",   ".u32",       ".s32",      ".u64",     ".s64",
      ".f16",      ".f32",   ".f64",       ".bf16",     ".f32.ftz", ".tf32",
      ".tf32.ftz", ".b4x16", ".b4x16_p64", ".b6x16_p32"};
  return unsigned(T) < NumTensorDataTypes ? Names[unsigned(T)] : "?";
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
/// dimension field in bits 8-15 (replaceTensorMapField, Runtime/TensorMap.h,
/// says what the values mean).
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
