//===- TensorMap.cpp - Encoding tensor maps and copying their boxes -------===//
//
// The rules are the CUDA Driver API's for cuTensorMapEncodeTiled; a map read
// back from memory (a kernel parameter, or one tensormap.replace changed) is
// checked against the same rules before a copy goes through it.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/TensorMap.h"
#include "ptxjit/ABI/SharedSwizzle.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cstring>
#include <type_traits>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {

Error invalid(const Twine &Why) {
  return createStringError(std::make_error_code(std::errc::invalid_argument),
                           Why);
}

Error unsupported(const Twine &Why) {
  return createStringError(std::make_error_code(std::errc::not_supported), Why);
}

/// The swizzle span in bytes of a mode (0 for none).
unsigned getSwizzleSpan(TensorSwizzle S) {
  switch (S) {
  case TensorSwizzle::None:
    return 0;
  case TensorSwizzle::B32:
    return 32;
  case TensorSwizzle::B64:
    return 64;
  default:
    return 128;
  }
}

/// The rules on the fields of a map, in the order the invalid values come
/// before what ptx-jit does not run.
Error checkFields(const TensorMapImage &M) {
  if (M.DataType >= NumTensorDataTypes)
    return invalid("unknown tensor data type " + Twine(M.DataType));
  auto Type = static_cast<TensorDataType>(M.DataType);
  if (M.Rank < 1 || M.Rank > MaxTensorRank)
    return invalid("the rank must be 1 to 5, not " + Twine(M.Rank));
  if (M.Interleave > uint8_t(TensorInterleave::B32))
    return invalid("unknown interleave layout " + Twine(M.Interleave));
  auto Interleave = static_cast<TensorInterleave>(M.Interleave);
  if (Interleave != TensorInterleave::None && M.Rank < 3)
    return invalid("an interleaved layout needs a rank of at least 3");
  if (M.Swizzle > uint8_t(TensorSwizzle::B128Atom64B))
    return invalid("unknown swizzle mode " + Twine(M.Swizzle));
  auto Swizzle = static_cast<TensorSwizzle>(M.Swizzle);
  if (M.L2Promotion > uint8_t(TensorL2Promotion::B256))
    return invalid("unknown L2 promotion " + Twine(M.L2Promotion));
  if (M.OOBFill > uint8_t(TensorOOBFill::NaNRequestZeroFMA))
    return invalid("unknown out-of-bounds fill " + Twine(M.OOBFill));
  if (M.OOBFill && !isFloatTensorType(Type))
    return invalid("the NaN out-of-bounds fill needs a floating-point type");
  bool Packed16B = Type == TensorDataType::Packed16U4Align16B ||
                   Type == TensorDataType::Packed16U6Align16B;
  unsigned AddressAlign =
      Interleave == TensorInterleave::B32 || Packed16B ? 32 : 16;
  if (M.GlobalAddress % AddressAlign)
    return invalid(formatv("the global address {0:x} is not {1}-byte aligned",
                           M.GlobalAddress, AddressAlign));
  for (unsigned I = 0; I != M.Rank; ++I)
    if (M.GlobalDims[I] == 0 || M.GlobalDims[I] > (uint64_t(1) << 32))
      return invalid(formatv("global dimension {0} must be 1 to 2^32, not {1}",
                             I, M.GlobalDims[I]));
  unsigned StrideAlign = AddressAlign;
  for (unsigned I = 0; I + 1 < M.Rank; ++I)
    if (M.GlobalStrides[I] % StrideAlign ||
        M.GlobalStrides[I] >= (uint64_t(1) << 40))
      return invalid(formatv("global stride {0} ({1} bytes) must be a "
                             "multiple of {2} below 2^40",
                             I, M.GlobalStrides[I], StrideAlign));
  for (unsigned I = 0; I != M.Rank; ++I) {
    if (M.BoxDims[I] < 1 || M.BoxDims[I] > 256)
      return invalid(formatv("box dimension {0} must be 1 to 256, not {1}", I,
                             M.BoxDims[I]));
    if (M.ElementStrides[I] < 1 || M.ElementStrides[I] > 8)
      return invalid(formatv("element stride {0} must be 1 to 8, not {1}", I,
                             M.ElementStrides[I]));
  }
  unsigned ElementSize = getTensorElementSize(Type);
  uint64_t InnerBytes = uint64_t(M.BoxDims[0]) * ElementSize;
  if (Interleave == TensorInterleave::None && ElementSize && InnerBytes % 16)
    return invalid(formatv("the box's inner dimension has {0} bytes, not a "
                           "multiple of 16",
                           InnerBytes));
  unsigned Span = getSwizzleSpan(Swizzle);
  if (Interleave == TensorInterleave::None && Span && InnerBytes > Span)
    return invalid(formatv("the box's inner dimension has {0} bytes, more "
                           "than the {1}-byte swizzle span",
                           InnerBytes, Span));
  if (Interleave == TensorInterleave::B32 && Swizzle != TensorSwizzle::B32)
    return invalid("the 32-byte interleave needs the 32-byte swizzle");
  // What ptx-jit does not run.
  if (!ElementSize)
    return unsupported("packed tensor data types are not supported");
  if (Interleave != TensorInterleave::None)
    return unsupported("interleaved tensor layouts are not supported");
  if (Swizzle > TensorSwizzle::B128)
    return unsupported("the 128-byte swizzle modes with 32- or 64-byte "
                       "atoms (sm_100) are not supported");
  return Error::success();
}

/// The bits an out-of-bounds element of Type gets with the NaN fill: the
/// NaN with every significand bit set (the ISA names the fill, not its
/// bits).
uint64_t getNaNFill(TensorDataType Type) {
  switch (getTensorElementSize(Type)) {
  case 2:
    return 0x7fff;
  case 8:
    return 0x7fffffffffffffff;
  default:
    return 0x7fffffff;
  }
}

/// Elements along each dimension of the box (1 past the rank).
void getBoxExtent(const TensorMapImage &M, uint64_t (&N)[MaxTensorRank]) {
  for (unsigned I = 0; I != MaxTensorRank; ++I)
    N[I] = I >= M.Rank ? 1
           : I == 0    ? M.BoxDims[0]
                       : divideCeil(M.BoxDims[I], M.ElementStrides[I]);
}

} // namespace

Expected<TensorMapImage>
runtime::encodeTiledTensorMap(const TiledTensorMapDesc &D) {
  // The checks that the narrow fields of the image cannot make.
  if (D.Rank < 1 || D.Rank > MaxTensorRank)
    return invalid("the rank must be 1 to 5, not " + Twine(D.Rank));
  if (!D.GlobalDims || !D.BoxDims || !D.ElementStrides ||
      (D.Rank > 1 && !D.GlobalStrides))
    return invalid("null dimension, stride or box array");
  if (D.DataType >= NumTensorDataTypes || D.Interleave > 0xff ||
      D.Swizzle > 0xff || D.L2Promotion > 0xff || D.OOBFill > 0xff)
    return invalid("unknown data type, interleave, swizzle, L2 promotion or "
                   "out-of-bounds fill");
  TensorMapImage M;
  std::memset(&M, 0, sizeof M);
  M.Magic = TensorMapMagic;
  M.Version = TensorMapVersion;
  M.Rank = uint8_t(D.Rank);
  M.DataType = uint8_t(D.DataType);
  M.Mode = uint8_t(TensorMapMode::Tile);
  M.Interleave = uint8_t(D.Interleave);
  M.Swizzle = uint8_t(D.Swizzle);
  M.L2Promotion = uint8_t(D.L2Promotion);
  M.OOBFill = uint8_t(D.OOBFill);
  M.GlobalAddress = D.GlobalAddress;
  for (unsigned I = 0; I != D.Rank; ++I) {
    if (D.BoxDims[I] < 1 || D.BoxDims[I] > 256)
      return invalid(formatv("box dimension {0} must be 1 to 256, not {1}", I,
                             D.BoxDims[I]));
    if (D.ElementStrides[I] < 1 || D.ElementStrides[I] > 8)
      return invalid(formatv("element stride {0} must be 1 to 8, not {1}", I,
                             D.ElementStrides[I]));
    M.GlobalDims[I] = D.GlobalDims[I];
    M.BoxDims[I] = uint16_t(D.BoxDims[I]);
    M.ElementStrides[I] = uint8_t(D.ElementStrides[I]);
    if (I + 1 < D.Rank)
      M.GlobalStrides[I] = D.GlobalStrides[I];
  }
  if (Error E = checkFields(M))
    return std::move(E);
  return M;
}

Error runtime::checkTensorMap(const TensorMapImage &M) {
  if (M.Magic != TensorMapMagic || M.Version != TensorMapVersion)
    return createStringError(
        formatv("not a tensor map (its first word is {0:x8}, not {1:x8}; "
                "tensor maps come from cuTensorMapEncodeTiled)",
                M.Magic, TensorMapMagic)
            .str());
  if (M.Mode != uint8_t(TensorMapMode::Tile))
    return createStringError("im2col tensor maps are not supported");
  if (Error E = checkFields(M))
    return createStringError("invalid tensor map: " + toString(std::move(E)));
  return Error::success();
}

Error runtime::replaceTensorMapField(TensorMapImage &M, TensorMapOp Op,
                                     unsigned Ordinal, uint64_t Value) {
  auto OutOfRange = [&](uint64_t V) {
    return createStringError(formatv("the value {0} is out of range", V).str());
  };
  auto Dimension = [&](unsigned Count) -> Error {
    if (Ordinal >= Count)
      return createStringError(
          formatv("ordinal {0} is not below {1}", Ordinal, Count).str());
    return Error::success();
  };
  // A field of Max at most gets V.
  auto Narrow = [&](uint64_t V, uint64_t Max, auto &Field) -> Error {
    if (V > Max)
      return OutOfRange(V);
    Field = static_cast<std::remove_reference_t<decltype(Field)>>(V);
    return Error::success();
  };
  uint32_t V32 = uint32_t(Value);
  switch (Op) {
  case TensorMapOp::GlobalAddress:
    M.GlobalAddress = Value;
    return Error::success();
  case TensorMapOp::Rank:
    return Narrow(uint64_t(V32) + 1, MaxTensorRank, M.Rank);
  case TensorMapOp::BoxDim:
    if (Error E = Dimension(MaxTensorRank))
      return E;
    return Narrow(uint64_t(V32) + 1, 256, M.BoxDims[Ordinal]);
  case TensorMapOp::GlobalDim:
    if (Error E = Dimension(MaxTensorRank))
      return E;
    M.GlobalDims[Ordinal] = uint64_t(V32) + 1;
    return Error::success();
  case TensorMapOp::GlobalStride:
    if (Error E = Dimension(MaxTensorRank - 1))
      return E;
    M.GlobalStrides[Ordinal] = Value;
    return Error::success();
  case TensorMapOp::ElementStride:
    if (Error E = Dimension(MaxTensorRank))
      return E;
    return Narrow(uint64_t(V32) + 1, 8, M.ElementStrides[Ordinal]);
  case TensorMapOp::ElemType: {
    TensorDataType T;
    if (!getTensorDataTypeOfElemtype(V32, T))
      return OutOfRange(V32);
    M.DataType = uint8_t(T);
    return Error::success();
  }
  case TensorMapOp::InterleaveLayout:
    return Narrow(V32, uint8_t(TensorInterleave::B32), M.Interleave);
  case TensorMapOp::SwizzleMode:
    // 0-3 as CUtensorMapSwizzle; the 128-byte mode keeps the atomicity a
    // map encoded with one of the sm_100 modes has.
    if (V32 == 4)
      return createStringError("the 96-byte swizzle mode is not supported");
    if (V32 > 4)
      return OutOfRange(V32);
    if (V32 != uint8_t(TensorSwizzle::B128) ||
        M.Swizzle < uint8_t(TensorSwizzle::B128))
      M.Swizzle = uint8_t(V32);
    return Error::success();
  case TensorMapOp::SwizzleAtomicity:
    if (V32 > 3)
      return OutOfRange(V32);
    if (V32 != 0)
      return createStringError("swizzle atomicities other than 16 bytes "
                               "are not supported");
    if (M.Swizzle > uint8_t(TensorSwizzle::B128))
      M.Swizzle = uint8_t(TensorSwizzle::B128);
    return Error::success();
  case TensorMapOp::FillMode:
    return Narrow(V32, uint8_t(TensorOOBFill::NaNRequestZeroFMA), M.OOBFill);
  case TensorMapOp::CopyFenceProxy:
    break;
  }
  return Error::success();
}

uint64_t runtime::getTensorBoxBytes(const TensorMapImage &M) {
  uint64_t N[MaxTensorRank];
  getBoxExtent(M, N);
  uint64_t Bytes = getTensorElementSize(TensorDataType(M.DataType));
  for (uint64_t E : N)
    Bytes *= E;
  return Bytes;
}

Error runtime::copyTensorBox(const TensorMapImage &M, bool ToShared,
                             char *SharedBase, uint64_t SharedSize,
                             uint64_t SharedAddr, const int32_t *Coords,
                             TensorElementStore Store, void *StoreArg) {
  auto Type = static_cast<TensorDataType>(M.DataType);
  unsigned Size = getTensorElementSize(Type);
  auto Swizzle = static_cast<SharedSwizzle>(M.Swizzle);
  uint64_t Bytes = getTensorBoxBytes(M);
  if (SharedAddr % 128)
    return createStringError(formatv(
        "the shared-memory address {0:x} is not 128-byte aligned", SharedAddr));
  // Swizzling moves 16-byte chunks within their 128-byte row, which may
  // reach past the box's last byte.
  uint64_t End = SharedAddr + Bytes;
  for (uint64_t C = alignDown(End - 1, 128), E = End; C < E; C += 16)
    End = std::max<uint64_t>(End, swizzleSharedAddress(C, Swizzle) + 16);
  if (SharedAddr > SharedSize || End > SharedSize || End > UINT32_MAX)
    return createStringError(
        formatv("the box of {0} bytes at shared address {1:x} does not fit in "
                "the CTA's {2} bytes of shared memory",
                Bytes, SharedAddr, SharedSize));
  uint64_t N[MaxTensorRank];
  getBoxExtent(M, N);
  uint64_t Fill = M.OOBFill ? getNaNFill(Type) : 0;
  uint64_t Rows = N[1] * N[2] * N[3] * N[4];
  char *Global = reinterpret_cast<char *>(M.GlobalAddress);
  for (uint64_t Row = 0; Row != Rows; ++Row) {
    // The row's coordinates along dimensions 1 and up, and its offset.
    bool RowIn = true;
    uint64_t RowOffset = 0;
    uint64_t R = Row;
    for (unsigned I = 1; I < M.Rank; R /= N[I], ++I) {
      int64_t G = int64_t(Coords[I]) + int64_t(R % N[I]) * M.ElementStrides[I];
      RowIn &= G >= 0 && uint64_t(G) < M.GlobalDims[I];
      RowOffset += uint64_t(G) * M.GlobalStrides[I - 1];
    }
    for (uint64_t K = 0; K != N[0]; ++K) {
      int64_t G = int64_t(Coords[0]) + int64_t(K);
      bool In = RowIn && G >= 0 && uint64_t(G) < M.GlobalDims[0];
      uint64_t Dense = SharedAddr + (Row * N[0] + K) * Size;
      char *S = SharedBase + swizzleSharedAddress(uint32_t(Dense), Swizzle);
      if (In) {
        char *T = Global + RowOffset + uint64_t(G) * Size;
        if (ToShared)
          std::memcpy(S, T, Size);
        else if (Store)
          Store(StoreArg, T, S);
        else
          std::memcpy(T, S, Size);
      } else if (ToShared) {
        std::memcpy(S, &Fill, Size); // little-endian: the low bytes
      }
    }
  }
  return Error::success();
}
