//===- MatrixABITest.cpp - Fragment layouts and ptxjit_rt_mma -------------===//
//
// Every fragment layout places each element of its matrix in exactly one
// (lane, element) slot (wmma .f16 multiplicands: the repeated registers
// repeat the same elements), and ptxjit_rt_mma computes D = A * B + C over
// those layouts. The layouts themselves are checked against the PTX ISA's
// tables by test/Run/mma-*.ptx, whose expected values come from an
// independent model.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/ABI/MatrixABI.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

using namespace ptxjit;

namespace {

struct Form {
  MatrixFamily Family;
  unsigned M, N, K;
  MatrixElement A, C;
};

/// The mma forms (one per layout pattern) and the wmma shapes.
const Form Forms[] = {
    {MF_Mma, 8, 8, 4, ME_F16, ME_F32},
    {MF_Mma, 8, 8, 4, ME_F16, ME_F16},
    {MF_Mma, 8, 8, 4, ME_F64, ME_F64},
    {MF_Mma, 16, 8, 8, ME_F16, ME_F32},
    {MF_Mma, 16, 8, 16, ME_BF16, ME_F32},
    {MF_Mma, 16, 8, 16, ME_F16, ME_F16},
    {MF_Mma, 16, 8, 4, ME_TF32, ME_F32},
    {MF_Mma, 16, 8, 8, ME_TF32, ME_F32},
    {MF_Mma, 16, 8, 4, ME_F64, ME_F64},
    {MF_Mma, 16, 8, 16, ME_F64, ME_F64},
    {MF_Mma, 8, 8, 16, ME_S8, ME_S32},
    {MF_Mma, 16, 8, 32, ME_U8, ME_S32},
    {MF_Mma, 16, 8, 32, ME_E4M3, ME_F16},
    {MF_Mma, 8, 8, 32, ME_S4, ME_S32},
    {MF_Mma, 16, 8, 64, ME_U4, ME_S32},
    {MF_Mma, 8, 8, 128, ME_B1, ME_S32},
    {MF_Mma, 16, 8, 256, ME_B1, ME_S32},
    {MF_Wmma, 16, 16, 16, ME_F16, ME_F32},
    {MF_Wmma, 32, 8, 16, ME_F16, ME_F16},
    {MF_Wmma, 8, 32, 16, ME_F16, ME_F32},
    {MF_Wmma, 16, 16, 16, ME_BF16, ME_F32},
    {MF_Wmma, 8, 32, 16, ME_S8, ME_S32},
    {MF_Wmma, 32, 8, 16, ME_U8, ME_S32},
    {MF_Wmma, 16, 16, 8, ME_TF32, ME_F32},
    {MF_Wmma, 8, 8, 4, ME_F64, ME_F64},
    {MF_Wmma, 8, 8, 32, ME_U4, ME_S32},
    {MF_Wmma, 8, 8, 128, ME_B1, ME_S32},
};

TEST(MatrixABITest, EveryElementHasOneSlot) {
  for (const Form &F : Forms)
    for (MatrixOperandRole R : {MR_A, MR_B, MR_C})
      for (bool RowMajor : {true, false}) {
        MatrixFragment Frag{F.Family, R,  R == MR_C ? F.C : F.A, RowMajor, F.M,
                            F.N,      F.K};
        SCOPED_TRACE(testing::Message()
                     << (F.Family == MF_Mma ? "mma" : "wmma") << " m" << F.M
                     << "n" << F.N << "k" << F.K << " role " << int(R)
                     << (RowMajor ? " row" : " col"));
        unsigned Batches = Frag.isQuadPair() ? 4 : 1;
        unsigned Distinct = Frag.getDistinctElements();
        EXPECT_EQ(Distinct * 32, Batches * Frag.getRows() * Frag.getCols());
        std::map<std::tuple<unsigned, unsigned, unsigned>, unsigned> Seen;
        for (unsigned L = 0; L != 32; ++L)
          for (unsigned I = 0; I != Frag.getElements(); ++I) {
            MatrixCoord C = getFragmentCoord(Frag, L, I);
            ASSERT_LT(C.Batch, Batches);
            ASSERT_LT(C.Row, Frag.getRows());
            ASSERT_LT(C.Col, Frag.getCols());
            if (I < Distinct)
              ++Seen[{C.Batch, C.Row, C.Col}];
            else // a repeated register holds what the first copy holds
              EXPECT_EQ(
                  std::make_tuple(C.Batch, C.Row, C.Col),
                  std::make_tuple(getFragmentCoord(Frag, L, I % Distinct).Batch,
                                  getFragmentCoord(Frag, L, I % Distinct).Row,
                                  getFragmentCoord(Frag, L, I % Distinct).Col));
          }
        EXPECT_EQ(Seen.size(), Batches * Frag.getRows() * Frag.getCols());
        for (const auto &S : Seen)
          EXPECT_EQ(S.second, 1u);
      }
}

TEST(MatrixABITest, EncodingRoundTrips) {
  MatrixMultiply Op;
  Op.Family = MF_Wmma;
  Op.M = 16;
  Op.N = 8;
  Op.K = 256;
  Op.A = ME_B1;
  Op.B = ME_U4;
  Op.C = ME_S32;
  Op.D = ME_E5M2;
  Op.ARowMajor = false;
  Op.BRowMajor = true;
  Op.Satfinite = true;
  Op.BitOp = MBO_And;
  Op.Rounding = 3;
  MatrixMultiply R = MatrixMultiply::decode(Op.encode());
  EXPECT_EQ(R.Family, Op.Family);
  EXPECT_EQ(R.M, Op.M);
  EXPECT_EQ(R.N, Op.N);
  EXPECT_EQ(R.K, Op.K);
  EXPECT_EQ(R.A, Op.A);
  EXPECT_EQ(R.B, Op.B);
  EXPECT_EQ(R.C, Op.C);
  EXPECT_EQ(R.D, Op.D);
  EXPECT_EQ(R.ARowMajor, Op.ARowMajor);
  EXPECT_EQ(R.BRowMajor, Op.BRowMajor);
  EXPECT_EQ(R.Satfinite, Op.Satfinite);
  EXPECT_EQ(R.BitOp, Op.BitOp);
  EXPECT_EQ(R.Rounding, Op.Rounding);
}

/// Fragments of a matrix given by Value(batch, row, col), as 32-bit
/// registers.
std::vector<uint32_t> fragmentOf(const MatrixFragment &F,
                                 uint32_t (*Value)(unsigned, unsigned,
                                                   unsigned)) {
  std::vector<uint32_t> Regs(F.getRegisters() * 32);
  unsigned Per = F.getElementsPerRegister();
  unsigned Bits = getMatrixElementBits(F.Element);
  for (unsigned L = 0; L != 32; ++L)
    for (unsigned I = 0; I != F.getElements(); ++I) {
      MatrixCoord C = getFragmentCoord(F, L, I);
      uint32_t Mask = Bits == 32 ? ~0u : (1u << Bits) - 1;
      Regs[I / Per * 32 + L] |= (Value(C.Batch, C.Row, C.Col) & Mask)
                                << (I % Per * Bits);
    }
  return Regs;
}

// Small integers: every product and sum is exact in any order.
uint32_t toHalfBits(int V) {
  // Integers up to 8 in magnitude as .f16.
  if (V == 0)
    return 0;
  uint32_t Sign = V < 0 ? 0x8000 : 0;
  unsigned A = V < 0 ? -V : V, E = 0;
  while ((A >> E) > 1)
    ++E;
  uint32_t Man = ((A << 10) >> E) & 0x3ff;
  return Sign | (E + 15) << 10 | Man;
}

int aValue(unsigned B, unsigned R, unsigned C) {
  return int((R * 7 + C * 3 + B) % 9) - 4;
}
int bValue(unsigned B, unsigned R, unsigned C) {
  return int((R * 5 + C * 11 + 2 * B) % 7) - 3;
}
int cValue(unsigned B, unsigned R, unsigned C) {
  return int(R * 16 + C + 100 * B);
}

TEST(MatrixABITest, MultiplyAccumulatesInEveryLayout) {
  for (bool ARow : {true, false})
    for (bool BRow : {true, false}) {
      // mma.m8n8k4 .f16 (four products, layouts chosen per operand) with
      // .f32 accumulators.
      MatrixMultiply Op;
      Op.M = 8;
      Op.N = 8;
      Op.K = 4;
      Op.A = Op.B = ME_F16;
      Op.C = Op.D = ME_F32;
      Op.ARowMajor = ARow;
      Op.BRowMajor = BRow;
      auto A = fragmentOf(Op.getFragment(MR_A, ME_F16),
                          [](unsigned B, unsigned R, unsigned C) {
                            return toHalfBits(aValue(B, R, C));
                          });
      auto Bf = fragmentOf(Op.getFragment(MR_B, ME_F16),
                           [](unsigned B, unsigned R, unsigned C) {
                             return toHalfBits(bValue(B, R, C));
                           });
      auto C = fragmentOf(Op.getFragment(MR_C, ME_F32),
                          [](unsigned B, unsigned R, unsigned Cl) {
                            float F = float(cValue(B, R, Cl));
                            uint32_t U;
                            std::memcpy(&U, &F, 4);
                            return U;
                          });
      std::vector<uint32_t> D(C.size());
      ptxjit_rt_mma(Op.encode(), D.data(), A.data(), Bf.data(), C.data());
      MatrixFragment FD = Op.getFragment(MR_C, ME_F32);
      for (unsigned L = 0; L != 32; ++L)
        for (unsigned I = 0; I != FD.getElements(); ++I) {
          MatrixCoord At = getFragmentCoord(FD, L, I);
          int Want = cValue(At.Batch, At.Row, At.Col);
          for (unsigned K = 0; K != 4; ++K)
            Want += aValue(At.Batch, At.Row, K) * bValue(At.Batch, K, At.Col);
          float Got;
          std::memcpy(&Got, &D[I * 32 + L], 4);
          EXPECT_EQ(Got, float(Want)) << "lane " << L << " element " << I;
        }
    }
}

} // namespace

namespace {

/// .f16 results are the .f32 sums rounded once to nearest even: with A and B
/// zero, D is C rounded. Checked against APFloat on values around every
/// .f16 binade, the subnormals, the overflow threshold and ties.
TEST(MatrixABITest, HalfResultsRoundToNearestEven) {
  std::vector<float> Values;
  for (int E = -27; E <= 16; ++E)
    for (uint32_t M = 0; M != 64; ++M) {
      // Patterns near the .f16 rounding boundary of this binade: the 13
      // bits below a .f16 mantissa take values around half an ulp.
      uint32_t Low[] = {0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x0800, 0x1800};
      for (uint32_t L : Low) {
        int32_t Exp = E + 127;
        if (Exp <= 0)
          continue;
        uint32_t Bits = uint32_t(Exp) << 23 | (M * 0x1e000 & 0x7fe000) | L;
        float F;
        std::memcpy(&F, &Bits, 4);
        Values.push_back(F);
        Values.push_back(-F);
      }
    }
  Values.push_back(65504.0f);
  Values.push_back(65519.99f);
  Values.push_back(65520.0f);
  Values.push_back(0.0f);
  Values.push_back(-0.0f);
  MatrixMultiply Op;
  Op.M = 16;
  Op.N = 8;
  Op.K = 8;
  Op.A = Op.B = ME_F16;
  Op.C = ME_F32;
  Op.D = ME_F16;
  MatrixFragment FC = Op.getFragment(MR_C, ME_F32);
  MatrixFragment FD = Op.getFragment(MR_C, ME_F16);
  std::vector<uint32_t> A(2 * 32), B(32), C(4 * 32), D(2 * 32);
  for (size_t First = 0; First < Values.size(); First += 128) {
    for (unsigned S = 0; S != 128; ++S) {
      float F = Values[(First + S) % Values.size()];
      std::memcpy(&C[S], &F, 4);
    }
    ptxjit_rt_mma(Op.encode(), D.data(), A.data(), B.data(), C.data());
    for (unsigned L = 0; L != 32; ++L)
      for (unsigned I = 0; I != 4; ++I) {
        // The C slot and the D element at the same position.
        MatrixCoord At = getFragmentCoord(FC, L, I);
        ASSERT_EQ(getFragmentCoord(FD, L, I).Row, At.Row);
        float F;
        std::memcpy(&F, &C[I * 32 + L], 4);
        llvm::APFloat Want(F + 0.0f); // the zero products make -0 +0
        bool Lost;
        Want.convert(llvm::APFloat::IEEEhalf(),
                     llvm::APFloat::rmNearestTiesToEven, &Lost);
        uint32_t Got = D[I / 2 * 32 + L] >> (16 * (I % 2)) & 0xffff;
        EXPECT_EQ(Got, Want.bitcastToAPInt().getZExtValue()) << "for " << F;
      }
  }
}

} // namespace
