//===- MatrixArithmetic.h - The element arithmetic of mma and wgmma -*- C++
//-*-===//
//
// What ptxjit_rt_mma computes with, for the warpgroup multiply
// (WarpgroupMultiply.cpp) to compute the same way: the unpacking and
// packing of fragments, element decoding, the rounding of results, and
// dense float products (MatrixMultiply.cpp says which model each form
// follows).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_RUNTIME_MATRIXARITHMETIC_H
#define PTXJIT_LIB_RUNTIME_MATRIXARITHMETIC_H

#include "ptxjit/ABI/MatrixABI.h"
#include <cstring>
#include <vector>

namespace ptxjit {
namespace runtime {

/// Where the elements of a fragment go: slot S = (R * 32 + L) * Per + J
/// (element J of register R in lane L) holds the element's index in its
/// matrix array (batch-major, then row-major), or NoElement for a repeat.
struct FragmentPlan {
  static constexpr uint16_t NoElement = 0xffff;
  unsigned Registers = 0, Per = 1, Bits = 32;
  std::vector<uint16_t> Index;

  explicit FragmentPlan(const MatrixFragment &F)
      : Registers(F.getRegisters()), Per(F.getElementsPerRegister()),
        Bits(getMatrixElementBits(F.Element)),
        Index(Registers * 32 * Per, NoElement) {
    unsigned Rows = F.getRows(), Cols = F.getCols();
    for (unsigned L = 0; L != 32; ++L)
      for (unsigned I = 0, E = F.getDistinctElements(); I != E; ++I) {
        MatrixCoord At = getFragmentCoord(F, L, I);
        Index[((I / Per) * 32 + L) * Per + I % Per] =
            uint16_t((At.Batch * Rows + At.Row) * Cols + At.Col);
      }
  }

  /// Out[index] = ToValue(element bits) for each element of Frag.
  template <typename T, typename Convert>
  void unpack(const void *Frag, T *Out, Convert ToValue) const {
    const char *Base = static_cast<const char *>(Frag);
    uint32_t Mask = Bits >= 32 ? ~0u : (1u << Bits) - 1;
    for (unsigned S = 0, E = Registers * 32; S != E; ++S) {
      const uint16_t *Idx = &Index[S * Per];
      if (Bits == 64) {
        uint64_t Reg;
        std::memcpy(&Reg, Base + S * 8, 8);
        Out[Idx[0]] = ToValue(Reg);
        continue;
      }
      uint32_t Reg;
      std::memcpy(&Reg, Base + S * 4, 4);
      for (unsigned J = 0; J != Per; ++J)
        if (Idx[J] != NoElement)
          Out[Idx[J]] = ToValue(Reg >> (J * Bits) & Mask);
    }
  }

  /// The registers of Frag from In[index], each element ToBits(value).
  template <typename T, typename Convert>
  void pack(void *Frag, const T *In, Convert ToBits) const {
    char *Base = static_cast<char *>(Frag);
    for (unsigned S = 0, E = Registers * 32; S != E; ++S) {
      const uint16_t *Idx = &Index[S * Per];
      if (Bits == 64) {
        uint64_t Reg = ToBits(In[Idx[0]]);
        std::memcpy(Base + S * 8, &Reg, 8);
        continue;
      }
      uint32_t Reg = 0;
      for (unsigned J = 0; J != Per; ++J)
        Reg |= uint32_t(ToBits(In[Idx[J]])) << (J * Bits);
      std::memcpy(Base + S * 4, &Reg, 4);
    }
  }
};

/// The value of a float element's bits (.f16, .bf16, .tf32, .f32, .e4m3,
/// .e5m2).
float decodeMatrixFloat(MatrixElement E, uint64_t Bits);

/// The bits of a result element: .f16 rounded to nearest even, or .f32
/// with NaN made canonical.
uint32_t encodeMatrixFloat(MatrixElement D, float V);

/// C = A * B + C for row-major A (M x K), B (K x N) and C (M x N), N at
/// most 32, as mma of these element types sums them.
void multiplyFloatMatrices(MatrixElement AType, MatrixElement CType,
                           MatrixElement DType, const float *A, const float *B,
                           float *C, unsigned M, unsigned N, unsigned K);

} // namespace runtime
} // namespace ptxjit

#endif
