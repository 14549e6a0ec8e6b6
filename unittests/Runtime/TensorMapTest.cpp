//===- TensorMapTest.cpp - Tensor-map encoding and box copies -------------===//
//
// The encoding rules are the CUDA Driver API's for cuTensorMapEncodeTiled;
// the expected boxes are computed here element by element from the
// definitions (coordinates plus index times element stride, bounds per
// dimension, zero or NaN fill, and the swizzle written as CUTLASS's
// Swizzle<B, 4, 3>: within rows of the span, the 16-byte chunk index XORs
// with the row's index among the 128-byte lines, modulo the chunks of a
// span).
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/TensorMap.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>
#include <vector>

using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {

/// The errc of an encoding error, or success's.
std::errc encodeError(const TiledTensorMapDesc &D) {
  llvm::Expected<TensorMapImage> M = encodeTiledTensorMap(D);
  if (M)
    return std::errc();
  std::error_code EC = llvm::errorToErrorCode(M.takeError());
  return static_cast<std::errc>(EC.value());
}

/// A 2-D float tensor of Dims[0] x Dims[1] with rows of Pitch floats.
struct Tensor2D {
  uint64_t Dims[2];
  uint64_t Strides[1];
  uint32_t Box[2];
  uint32_t ElementStrides[2] = {1, 1};
  std::vector<float> Data;

  Tensor2D(uint64_t W, uint64_t H, uint64_t Pitch, uint32_t BW, uint32_t BH)
      : Dims{W, H}, Strides{Pitch * 4}, Box{BW, BH}, Data(Pitch * H) {
    for (uint64_t I = 0; I != Data.size(); ++I)
      Data[I] = float(I) + 0.25f;
  }
  float at(int64_t X, int64_t Y) const {
    return Data[uint64_t(Y) * (Strides[0] / 4) + uint64_t(X)];
  }
  TiledTensorMapDesc desc(unsigned Type = 7) {
    TiledTensorMapDesc D;
    D.DataType = Type; // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
    D.Rank = 2;
    D.GlobalAddress = reinterpret_cast<uintptr_t>(Data.data());
    D.GlobalDims = Dims;
    D.GlobalStrides = Strides;
    D.BoxDims = Box;
    D.ElementStrides = ElementStrides;
    return D;
  }
};

/// Shared memory for the tests: 8 KiB at a 1024-byte aligned host address.
struct SharedMemory {
  alignas(1024) char Bytes[8192];
  SharedMemory() { std::memset(Bytes, 0x5a, sizeof Bytes); }
};

TEST(TensorMapTest, EncodesTheArguments) {
  Tensor2D T(10, 6, 12, 8, 4);
  llvm::Expected<TensorMapImage> M = encodeTiledTensorMap(T.desc());
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ(M->Magic, TensorMapMagic);
  EXPECT_EQ(M->Rank, 2);
  EXPECT_EQ(M->GlobalDims[1], 6u);
  EXPECT_EQ(M->GlobalStrides[0], 48u);
  EXPECT_EQ(M->BoxDims[0], 8);
  EXPECT_FALSE(bool(checkTensorMap(*M)));
  EXPECT_EQ(getTensorBoxBytes(*M), 8u * 4 * 4);
}

TEST(TensorMapTest, RefusesWhatTheDriverRefuses) {
  using std::errc;
  Tensor2D T(10, 6, 12, 8, 4);
  auto With = [&](auto Change) {
    Tensor2D U = T;
    TiledTensorMapDesc D = U.desc();
    Change(U, D);
    return encodeError(D);
  };
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &) {}), errc());
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &D) { D.Rank = 0; }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &D) { D.Rank = 6; }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &D) { D.DataType = 16; }),
            errc::invalid_argument);
  // The global address: 16-byte aligned.
  EXPECT_EQ(
      With([](Tensor2D &, TiledTensorMapDesc &D) { D.GlobalAddress += 8; }),
      errc::invalid_argument);
  // Dimensions 1 to 2^32.
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &) { U.Dims[1] = 0; }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &) {
              U.Dims[0] = (uint64_t(1) << 32) + 1;
            }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &) {
              U.Dims[0] = uint64_t(1) << 32;
            }),
            errc());
  // Strides: multiples of 16 below 2^40.
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &) { U.Strides[0] = 40; }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &) {
              U.Strides[0] = uint64_t(1) << 40;
            }),
            errc::invalid_argument);
  // Box: 1 to 256, the inner dimension a multiple of 16 bytes.
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &) { U.Box[1] = 0; }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &) { U.Box[1] = 257; }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &) { U.Box[1] = 256; }),
            errc());
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &) { U.Box[0] = 6; }),
            errc::invalid_argument);
  // Element strides: 1 to 8.
  EXPECT_EQ(
      With([](Tensor2D &U, TiledTensorMapDesc &) { U.ElementStrides[1] = 9; }),
      errc::invalid_argument);
  EXPECT_EQ(
      With([](Tensor2D &U, TiledTensorMapDesc &) { U.ElementStrides[0] = 0; }),
      errc::invalid_argument);
  // The swizzle span holds the box's inner dimension: 8 floats are 32
  // bytes.
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &D) { D.Swizzle = 1; }),
            errc());
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &D) {
              U.Box[0] = 12;
              D.Swizzle = 1;
            }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &U, TiledTensorMapDesc &D) {
              U.Box[0] = 36;
              D.Swizzle = 3;
            }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &D) { D.Swizzle = 7; }),
            errc::invalid_argument);
  // The NaN fill is for floating-point types.
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &D) { D.OOBFill = 1; }),
            errc());
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &D) {
              D.OOBFill = 1;
              D.DataType = 2; // UINT32
            }),
            errc::invalid_argument);
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &D) { D.L2Promotion = 4; }),
            errc::invalid_argument);
  // An interleaved layout needs a rank of at least 3.
  EXPECT_EQ(With([](Tensor2D &, TiledTensorMapDesc &D) { D.Interleave = 1; }),
            errc::invalid_argument);
}

TEST(TensorMapTest, RefusesWhatItDoesNotRun) {
  uint64_t Dims[3] = {16, 4, 4}, Strides[2] = {64, 256};
  uint32_t Box[3] = {16, 4, 4}, ES[3] = {1, 1, 1};
  alignas(32) static float Data[16 * 4 * 4];
  TiledTensorMapDesc D;
  D.DataType = 7;
  D.Rank = 3;
  D.GlobalAddress = reinterpret_cast<uintptr_t>(Data);
  D.GlobalDims = Dims;
  D.GlobalStrides = Strides;
  D.BoxDims = Box;
  D.ElementStrides = ES;
  EXPECT_EQ(encodeError(D), std::errc());
  D.Interleave = 1; // 16B
  EXPECT_EQ(encodeError(D), std::errc::not_supported);
  D.Interleave = 0;
  D.Swizzle = 4; // 128B_ATOM_32B
  Box[0] = 32;
  EXPECT_EQ(encodeError(D), std::errc::not_supported);
  D.Swizzle = 0;
  Box[0] = 16;
  D.DataType = 13; // 16U4_ALIGN8B
  EXPECT_EQ(encodeError(D), std::errc::not_supported);
}

TEST(TensorMapTest, DetectsWhatIsNotAMap) {
  Tensor2D T(10, 6, 12, 8, 4);
  TensorMapImage M = *encodeTiledTensorMap(T.desc());
  TensorMapImage Bad = M;
  Bad.Magic = 0;
  llvm::Error E = checkTensorMap(Bad);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("not a tensor map"), std::string::npos);
  Bad = M;
  Bad.Rank = 7;
  llvm::Error E2 = checkTensorMap(Bad);
  EXPECT_TRUE(bool(E2));
  llvm::consumeError(std::move(E2));
}

TEST(TensorMapTest, ReplacesFields) {
  Tensor2D T(10, 6, 12, 8, 4);
  TensorMapImage M = *encodeTiledTensorMap(T.desc());
  auto Replace = [&](TensorMapOp Op, unsigned Ordinal, uint64_t V) {
    llvm::Error E = replaceTensorMapField(M, Op, Ordinal, V);
    bool Done = !E;
    llvm::consumeError(std::move(E));
    return Done;
  };
  // .rank takes the rank less one, as do the counts of dimensions.
  EXPECT_TRUE(Replace(TensorMapOp::Rank, 0, 2));
  EXPECT_EQ(M.Rank, 3);
  EXPECT_TRUE(Replace(TensorMapOp::BoxDim, 1, 7));
  EXPECT_EQ(M.BoxDims[1], 8);
  EXPECT_TRUE(Replace(TensorMapOp::GlobalDim, 2, 2));
  EXPECT_EQ(M.GlobalDims[2], 3u);
  EXPECT_TRUE(Replace(TensorMapOp::ElementStride, 2, 1));
  EXPECT_EQ(M.ElementStrides[2], 2);
  EXPECT_TRUE(Replace(TensorMapOp::GlobalStride, 1, 288));
  EXPECT_EQ(M.GlobalStrides[1], 288u);
  // .elemtype codes are the ISA's: 9 is .f64, 10 .bf16, 8 .f32.ftz.
  EXPECT_TRUE(Replace(TensorMapOp::ElemType, 0, 9));
  EXPECT_EQ(M.DataType, uint8_t(TensorDataType::F64));
  EXPECT_TRUE(Replace(TensorMapOp::ElemType, 0, 10));
  EXPECT_EQ(M.DataType, uint8_t(TensorDataType::BF16));
  EXPECT_TRUE(Replace(TensorMapOp::ElemType, 0, 8));
  EXPECT_EQ(M.DataType, uint8_t(TensorDataType::F32Ftz));
  EXPECT_TRUE(Replace(TensorMapOp::SwizzleMode, 0, 2));
  EXPECT_EQ(M.Swizzle, uint8_t(TensorSwizzle::B64));
  EXPECT_TRUE(Replace(TensorMapOp::FillMode, 0, 1));
  EXPECT_EQ(M.OOBFill, 1);
  // Out of range, or not run: the map keeps its fields.
  TensorMapImage Before = M;
  EXPECT_FALSE(Replace(TensorMapOp::Rank, 0, 5));
  EXPECT_FALSE(Replace(TensorMapOp::BoxDim, 0, 256));
  EXPECT_FALSE(Replace(TensorMapOp::BoxDim, 5, 1));
  EXPECT_FALSE(Replace(TensorMapOp::ElementStride, 0, 8));
  EXPECT_FALSE(Replace(TensorMapOp::GlobalStride, 4, 16));
  EXPECT_FALSE(Replace(TensorMapOp::ElemType, 0, 16));
  EXPECT_FALSE(Replace(TensorMapOp::SwizzleMode, 0, 4));
  EXPECT_FALSE(Replace(TensorMapOp::SwizzleAtomicity, 0, 1));
  EXPECT_FALSE(Replace(TensorMapOp::FillMode, 0, 2));
  EXPECT_EQ(0, std::memcmp(&Before, &M, sizeof M));
}

/// Loads the box at (X, Y) and compares each element with its definition.
void expectLoad(Tensor2D &T, int32_t X, int32_t Y, unsigned Fill) {
  TiledTensorMapDesc D = T.desc();
  D.OOBFill = Fill;
  TensorMapImage M = *encodeTiledTensorMap(D);
  SharedMemory S;
  int32_t Coords[2] = {X, Y};
  ASSERT_FALSE(
      bool(copyTensorBox(M, true, S.Bytes, sizeof S.Bytes, 1024, Coords)));
  uint32_t Rows = (T.Box[1] + T.ElementStrides[1] - 1) / T.ElementStrides[1];
  const float *Box = reinterpret_cast<const float *>(S.Bytes + 1024);
  for (uint32_t R = 0; R != Rows; ++R)
    for (uint32_t C = 0; C != T.Box[0]; ++C) {
      int64_t GX = int64_t(X) + C, GY = int64_t(Y) + R * T.ElementStrides[1];
      float V = Box[R * T.Box[0] + C];
      bool In = GX >= 0 && GX < int64_t(T.Dims[0]) && GY >= 0 &&
                GY < int64_t(T.Dims[1]);
      if (In)
        EXPECT_EQ(V, T.at(GX, GY)) << R << ", " << C;
      else if (Fill)
        EXPECT_TRUE(std::isnan(V)) << R << ", " << C;
      else
        EXPECT_EQ(0, std::memcmp(&V, "\0\0\0\0", 4)) << R << ", " << C;
    }
  // Nothing past the box.
  EXPECT_EQ(S.Bytes[1024 + Rows * T.Box[0] * 4], 0x5a);
}

TEST(TensorMapTest, LoadsInBounds) {
  Tensor2D T(10, 6, 12, 8, 4);
  expectLoad(T, 1, 2, 0);
}

TEST(TensorMapTest, FillsOutOfBoundsWithZeros) {
  Tensor2D T(10, 6, 12, 8, 4);
  expectLoad(T, -3, -1, 0);
  expectLoad(T, 6, 4, 0);
  expectLoad(T, 40, 40, 0);
}

TEST(TensorMapTest, FillsOutOfBoundsWithNaN) {
  Tensor2D T(10, 6, 12, 8, 4);
  expectLoad(T, 5, -2, 1);
}

TEST(TensorMapTest, TakesEveryNthRow) {
  // 6 rows with an element stride of 2: 3 rows of the box, and the stride
  // of dimension 0 is ignored.
  Tensor2D T(10, 9, 12, 8, 6);
  T.ElementStrides[0] = 3;
  T.ElementStrides[1] = 2;
  TensorMapImage M = *encodeTiledTensorMap(T.desc());
  EXPECT_EQ(getTensorBoxBytes(M), 8u * 3 * 4);
  expectLoad(T, 0, 0, 0);
  expectLoad(T, 1, 5, 0);
  T.Box[1] = 5; // ceil(5 / 2) = 3 rows
  expectLoad(T, 0, 1, 0);
}

TEST(TensorMapTest, StoresOnlyInBounds) {
  Tensor2D T(10, 6, 12, 8, 4);
  std::vector<float> Before = T.Data;
  TensorMapImage M = *encodeTiledTensorMap(T.desc());
  SharedMemory S;
  float *Box = reinterpret_cast<float *>(S.Bytes + 128);
  for (int I = 0; I != 32; ++I)
    Box[I] = -1.0f - float(I);
  int32_t Coords[2] = {5, 3}; // columns 5-12, rows 3-6: 5 x 3 inside
  ASSERT_FALSE(
      bool(copyTensorBox(M, false, S.Bytes, sizeof S.Bytes, 128, Coords)));
  for (int64_t Y = 0; Y != 6; ++Y)
    for (int64_t X = 0; X != 12; ++X) {
      bool InBox = X >= 5 && X < 13 && Y >= 3 && Y < 7;
      bool InTensor = X < 10;
      float Want =
          InBox && InTensor ? Box[(Y - 3) * 8 + (X - 5)] : Before[Y * 12 + X];
      EXPECT_EQ(T.at(X, Y), Want) << X << ", " << Y;
    }
}

/// For each swizzle span (32, 64, 128 bytes) a box of bytes whose rows are
/// one span wide, loaded at SharedAddr: byte B of box row R lands at chunk
/// (B / 16) ^ ((R * Span / 128) % (Span / 16)) of its row.
TEST(TensorMapTest, SwizzlesEachMode) {
  for (unsigned Mode = 1; Mode <= 3; ++Mode) {
    unsigned Span = 16u << Mode;
    SCOPED_TRACE(Span);
    const unsigned Rows = 24;
    alignas(16) static uint8_t Data[256 * Rows];
    for (unsigned I = 0; I != sizeof Data; ++I)
      Data[I] = uint8_t(I * 7 + I / 256);
    uint64_t Dims[2] = {256, Rows}, Strides[1] = {256};
    uint32_t Box[2] = {Span, Rows}, ES[2] = {1, 1};
    TiledTensorMapDesc D;
    D.DataType = 0; // UINT8
    D.Rank = 2;
    D.GlobalAddress = reinterpret_cast<uintptr_t>(Data);
    D.GlobalDims = Dims;
    D.GlobalStrides = Strides;
    D.BoxDims = Box;
    D.ElementStrides = ES;
    D.Swizzle = Mode;
    llvm::Expected<TensorMapImage> M = encodeTiledTensorMap(D);
    ASSERT_TRUE(bool(M)) << toString(M.takeError());
    for (uint64_t SharedAddr : {0u, 2048u}) {
      SharedMemory S;
      int32_t Coords[2] = {16, 0};
      ASSERT_FALSE(bool(copyTensorBox(*M, true, S.Bytes, sizeof S.Bytes,
                                      SharedAddr, Coords)));
      for (unsigned R = 0; R != Rows; ++R)
        for (unsigned B = 0; B != Span; ++B) {
          unsigned Chunk = (B / 16) ^ ((R * Span / 128) % (Span / 16));
          unsigned At = R * Span + Chunk * 16 + B % 16;
          EXPECT_EQ(uint8_t(S.Bytes[SharedAddr + At]), Data[R * 256 + 16 + B])
              << R << ", " << B;
        }
      // And back: the store undoes the swizzle.
      std::vector<uint8_t> Copy(Data, Data + sizeof Data);
      std::memset(Data, 0, sizeof Data);
      ASSERT_FALSE(bool(copyTensorBox(*M, false, S.Bytes, sizeof S.Bytes,
                                      SharedAddr, Coords)));
      for (unsigned R = 0; R != Rows; ++R)
        for (unsigned B = 0; B != Span; ++B)
          EXPECT_EQ(Data[R * 256 + 16 + B], Copy[R * 256 + 16 + B]);
      std::memcpy(Data, Copy.data(), sizeof Data);
    }
  }
}

TEST(TensorMapTest, KeepsTheBoxInSharedMemory) {
  Tensor2D T(10, 6, 12, 8, 4);
  TensorMapImage M = *encodeTiledTensorMap(T.desc());
  SharedMemory S;
  int32_t Coords[2] = {0, 0};
  // 128 bytes of box: the last 128 bytes fit, the next line does not.
  EXPECT_FALSE(bool(copyTensorBox(M, true, S.Bytes, 1024, 896, Coords)));
  llvm::Error E = copyTensorBox(M, true, S.Bytes, 1024, 1024, Coords);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("does not fit"), std::string::npos);
  E = copyTensorBox(M, true, S.Bytes, 1024, 64, Coords);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("128-byte aligned"), std::string::npos);
}

} // namespace
