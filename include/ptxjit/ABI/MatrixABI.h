//===- MatrixABI.h - Fragment layouts of the matrix instructions -*- C++
//-*-===//
//
// Which lane holds which element of a matrix fragment, for the code IRGen
// emits (wmma.load and wmma.store address each element) and for the
// runtime's matrix multiply-accumulate (ptxjit_rt_mma), which both must
// agree on.
//
// mma fragments follow the PTX ISA's tables ("Matrix Fragments for
// mma.m16n8k16", ...). wmma fragments are unspecified by the ISA; ptx-jit
// builds them from the mma layouts of sm_80: a wmma operand is a row of mma
// tiles (16 or 8 rows by 8 columns for accumulators, 16 rows by K columns
// for A, K rows by 8 columns for B), and the eight .f16x2 registers that
// hold a .f16 multiplicand repeat the registers the tiles need.
//
// A fragment operand is passed as its registers one after another, each as
// 32 lanes of 4 bytes (8 for .f64): lane L of register R is element R*32+L.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_MATRIXABI_H
#define PTXJIT_ABI_MATRIXABI_H

#include <cstdint>

namespace ptxjit {

/// Element formats of fragments.
enum MatrixElement : uint8_t {
  ME_F16,
  ME_BF16,
  ME_TF32, ///< an .f32 pattern of which the 13 low mantissa bits are ignored
  ME_F32,
  ME_F64,
  ME_S8,
  ME_U8,
  ME_S4,
  ME_U4,
  ME_B1,
  ME_S32,
  ME_E4M3,
  ME_E5M2,
};

inline unsigned getMatrixElementBits(MatrixElement E) {
  switch (E) {
  case ME_B1:
    return 1;
  case ME_S4:
  case ME_U4:
    return 4;
  case ME_S8:
  case ME_U8:
  case ME_E4M3:
  case ME_E5M2:
    return 8;
  case ME_F16:
  case ME_BF16:
    return 16;
  case ME_F64:
    return 64;
  default:
    return 32;
  }
}

/// The layout family of a fragment.
enum MatrixFamily : uint8_t { MF_Mma, MF_Wmma };

/// The matrix a fragment holds part of; D is laid out as C.
enum MatrixOperandRole : uint8_t { MR_A, MR_B, MR_C };

/// One fragment operand of an operation of shape MxNxK.
struct MatrixFragment {
  MatrixFamily Family;
  MatrixOperandRole Role;
  MatrixElement Element;
  bool RowMajor; ///< mma .m8n8k4 .f16 multiplicands: .row (else .col)
  unsigned M, N, K;

  /// mma.m8n8k4 with .f16 multiplicands: four products, one per quad pair
  /// (lanes 4q..4q+3 and 16+4q..16+4q+3 compute product q).
  bool isQuadPair() const {
    return Family == MF_Mma && M == 8 && K == 4 && Element != ME_F64;
  }
  unsigned getRows() const { return Role == MR_B ? K : M; }
  unsigned getCols() const { return Role == MR_A ? K : N; }
  /// Bits of one register: 64 for .f64, else 32.
  unsigned getRegisterBits() const { return Element == ME_F64 ? 64 : 32; }
  unsigned getElementsPerRegister() const {
    return getRegisterBits() / getMatrixElementBits(Element);
  }
  /// The elements each lane holds without repetitions.
  unsigned getDistinctElements() const {
    return getRows() * getCols() * (isQuadPair() ? 4 : 1) / 32;
  }
  /// The elements each lane holds (wmma .f16 multiplicands: eight
  /// registers, whatever the shape needs).
  unsigned getElements() const {
    if (Family == MF_Wmma && Role != MR_C && Element == ME_F16)
      return 16;
    return getDistinctElements();
  }
  unsigned getRegisters() const {
    unsigned Per = getElementsPerRegister();
    return (getElements() + Per - 1) / Per;
  }
};

/// Where an element of a fragment is: the product it belongs to (only
/// mma.m8n8k4 .f16 has four), its row and its column.
struct MatrixCoord {
  unsigned Batch, Row, Col;
};

namespace detail {

/// The mma layout of A (16 or 8 rows): register R holds consecutive
/// columns of one row; rows alternate g and g+8 between registers, and each
/// pair of registers covers the next 4*Per columns.
inline MatrixCoord mmaA(unsigned Lane, unsigned I, unsigned Per,
                        unsigned Rows) {
  unsigned G = Lane >> 2, T = Lane & 3, R = I / Per, J = I % Per;
  if (Rows == 8)
    return {0, G, (R * 4 + T) * Per + J};
  return {0, G + 8 * (R & 1), ((R >> 1) * 4 + T) * Per + J};
}

/// The mma layout of B (8 columns): register R holds consecutive rows of
/// column g, each register the next 4*Per rows.
inline MatrixCoord mmaB(unsigned Lane, unsigned I, unsigned Per) {
  unsigned G = Lane >> 2, T = Lane & 3, R = I / Per, J = I % Per;
  return {0, (R * 4 + T) * Per + J, G};
}

/// The mma layout of C and D (16 or 8 rows by 8 columns).
inline MatrixCoord mmaC(unsigned Lane, unsigned I, unsigned Rows) {
  unsigned G = Lane >> 2, T = Lane & 3;
  return {0, G + (Rows == 16 ? 8 * (I >> 1) : 0), T * 2 + (I & 1)};
}

inline MatrixCoord quadPair(const MatrixFragment &F, unsigned Lane,
                            unsigned I) {
  unsigned Q = (Lane >> 2) & 3, Hi = (Lane >> 4) * 4, L = Lane & 3;
  switch (F.Role) {
  case MR_A:
    return F.RowMajor ? MatrixCoord{Q, L + Hi, I} : MatrixCoord{Q, I + Hi, L};
  case MR_B:
    return F.RowMajor ? MatrixCoord{Q, L, I + Hi} : MatrixCoord{Q, I, L + Hi};
  case MR_C:
    if (F.Element == ME_F16)
      return {Q, L + Hi, I};
    return {Q, (Lane & 1) + (I & 2) + Hi, (I & 4) + (Lane & 2) + (I & 1)};
  }
  return {0, 0, 0};
}

} // namespace detail

/// Where element I (counted from the low bits of the first register) of
/// lane Lane's fragment is.
inline MatrixCoord getFragmentCoord(const MatrixFragment &F, unsigned Lane,
                                    unsigned I) {
  if (F.isQuadPair())
    return detail::quadPair(F, Lane, I);
  I %= F.getDistinctElements();
  unsigned Per = F.getElementsPerRegister();
  bool Small = F.M == 8 && F.N == 8; // m8n8kK: the mma layouts in wmma too
  if (F.Family == MF_Mma || Small) {
    switch (F.Role) {
    case MR_A:
      return detail::mmaA(Lane, I, Per, F.M);
    case MR_B:
      return detail::mmaB(Lane, I, Per);
    case MR_C:
      return detail::mmaC(Lane, I, F.M);
    }
  }
  // wmma: rows of mma tiles.
  switch (F.Role) {
  case MR_A: {
    // 16 rows by K: one mma A tile; 32 rows: two, one above the other; 8
    // rows: the tile's rows g only.
    if (F.M == 8)
      return detail::mmaA(Lane, I, Per, 8);
    unsigned PerTile = 16 * F.K / 32;
    MatrixCoord C = detail::mmaA(Lane, I % PerTile, Per, 16);
    C.Row += 16 * (I / PerTile);
    return C;
  }
  case MR_B: {
    // K by 8*T: T mma B tiles side by side.
    unsigned PerTile = F.K * 8 / 32;
    MatrixCoord C = detail::mmaB(Lane, I % PerTile, Per);
    C.Col += 8 * (I / PerTile);
    return C;
  }
  case MR_C: {
    // 16x8 tiles (8x8 when M is 8), along N first.
    unsigned TileRows = F.M < 16 ? F.M : 16;
    unsigned PerTile = TileRows * 8 / 32, TilesN = F.N / 8;
    unsigned Tile = I / PerTile;
    MatrixCoord C = detail::mmaC(Lane, I % PerTile, TileRows);
    C.Row += TileRows * (Tile / TilesN);
    C.Col += 8 * (Tile % TilesN);
    return C;
  }
  }
  return {0, 0, 0};
}

/// .b1 multiplications: popc(A row op B column).
enum MatrixBitOp : uint8_t { MBO_None, MBO_Xor, MBO_And };

/// D = A * B + C as ptxjit_rt_mma computes it, encoded in a uint64_t.
struct MatrixMultiply {
  MatrixFamily Family = MF_Mma;
  unsigned M = 0, N = 0, K = 0;
  MatrixElement A = ME_F16, B = ME_F16, C = ME_F32, D = ME_F32;
  bool ARowMajor = true, BRowMajor = false;
  bool Satfinite = false;
  MatrixBitOp BitOp = MBO_None;
  uint8_t Rounding = 0; ///< a RoundingHelperMode (.f64)
  /// mma.sp: A's fragment holds the kept half of each row (M x K/2, laid
  /// out as a dense A of that width) and a metadata register says where
  /// each kept element belongs (getSparseMetadata).
  bool Sparse = false;
  uint8_t Selector = 0; ///< mma.sp: the sparsity selector

  MatrixFragment getFragment(MatrixOperandRole R, MatrixElement E) const {
    bool Row = R == MR_A ? ARowMajor : BRowMajor;
    return {Family, R, E, Row, M, N, Sparse && R == MR_A ? K / 2 : K};
  }

  uint64_t encode() const {
    return uint64_t(M) | uint64_t(N) << 8 | uint64_t(K) << 16 |
           uint64_t(A) << 28 | uint64_t(B) << 32 | uint64_t(C) << 36 |
           uint64_t(D) << 40 | uint64_t(Family) << 44 |
           uint64_t(ARowMajor) << 45 | uint64_t(BRowMajor) << 46 |
           uint64_t(Satfinite) << 47 | uint64_t(BitOp) << 48 |
           uint64_t(Rounding) << 50 | uint64_t(Sparse) << 52 |
           uint64_t(Selector) << 53;
  }
  static MatrixMultiply decode(uint64_t V) {
    MatrixMultiply Op;
    Op.M = V & 0xff;
    Op.N = V >> 8 & 0xff;
    Op.K = V >> 16 & 0xfff;
    Op.A = MatrixElement(V >> 28 & 0xf);
    Op.B = MatrixElement(V >> 32 & 0xf);
    Op.C = MatrixElement(V >> 36 & 0xf);
    Op.D = MatrixElement(V >> 40 & 0xf);
    Op.Family = MatrixFamily(V >> 44 & 1);
    Op.ARowMajor = V >> 45 & 1;
    Op.BRowMajor = V >> 46 & 1;
    Op.Satfinite = V >> 47 & 1;
    Op.BitOp = MatrixBitOp(V >> 48 & 3);
    Op.Rounding = V >> 50 & 3;
    Op.Sparse = V >> 52 & 1;
    Op.Selector = V >> 53 & 3;
    return Op;
  }
};

/// mma.sp: the elements of a chunk of a row of A (the span one 4-bit
/// metadata field describes): four (two kept) for 16- and 8-bit types, two
/// (one kept) for .tf32, eight (two pairs kept) for .s4 and .u4.
inline unsigned getSparseChunk(MatrixElement A) {
  return A == ME_TF32 ? 2 : (A == ME_S4 || A == ME_U4) ? 8 : 4;
}

/// mma.sp: where the 4-bit metadata field of chunk Chunk of row Row is:
/// the lane whose metadata register holds it and its lowest bit. The PTX
/// ISA's figures ("Sparse MMA metadata layout", section "Matrix fragments
/// for multiply-accumulate operation with sparse matrix A"): a lane's
/// register holds four consecutive chunks of row g in bits 0-15 and the
/// same chunks of row g+8 in bits 16-31; a row of 4, 8 or 16 chunks is
/// held by lane Ti of each group of four (i the selector), by T2i and
/// T2i+1, or by T0-T3.
struct SparseMetadataBits {
  unsigned Lane, Bit;
};
inline SparseMetadataBits getSparseMetadata(const MatrixMultiply &Op,
                                            unsigned Row, unsigned Chunk) {
  unsigned Chunks = Op.K / getSparseChunk(Op.A);
  unsigned PerGroup = Chunks / 4; // lanes of a group that hold metadata
  unsigned Lane = 4 * (Row % 8) + Op.Selector * PerGroup + Chunk / 4;
  return {Lane, 4 * (Chunk % 4) + 16 * (Row / 8)};
}

/// wgmma.mma_async as ptxjit_rt_wgmma computes it for one warp of the
/// warpgroup: rows 16w..16w+15 of D = A * B + D (w the warp's rank in the
/// warpgroup), B (K x N) and, with ADescriptor, A (64 x K) read from
/// shared memory through matrix descriptors.
struct WarpgroupMultiply {
  unsigned N = 0, K = 0;
  MatrixElement A = ME_F16, B = ME_F16, D = ME_F32;
  bool ADescriptor = false;
  bool NegateA = false, NegateB = false; ///< imm-scale-a/b of -1
  bool TransA = false, TransB = false;   ///< MN-major A or B
  bool Satfinite = false;
  bool BitAnd = false; ///< .b1: popc(a & b)

  uint64_t encode() const {
    return uint64_t(N) | uint64_t(K) << 9 | uint64_t(A) << 18 |
           uint64_t(B) << 22 | uint64_t(D) << 26 | uint64_t(ADescriptor) << 30 |
           uint64_t(NegateA) << 31 | uint64_t(NegateB) << 32 |
           uint64_t(TransA) << 33 | uint64_t(TransB) << 34 |
           uint64_t(Satfinite) << 35 | uint64_t(BitAnd) << 36;
  }
  static WarpgroupMultiply decode(uint64_t V) {
    WarpgroupMultiply Op;
    Op.N = V & 0x1ff;
    Op.K = V >> 9 & 0x1ff;
    Op.A = MatrixElement(V >> 18 & 0xf);
    Op.B = MatrixElement(V >> 22 & 0xf);
    Op.D = MatrixElement(V >> 26 & 0xf);
    Op.ADescriptor = V >> 30 & 1;
    Op.NegateA = V >> 31 & 1;
    Op.NegateB = V >> 32 & 1;
    Op.TransA = V >> 33 & 1;
    Op.TransB = V >> 34 & 1;
    Op.Satfinite = V >> 35 & 1;
    Op.BitAnd = V >> 36 & 1;
    return Op;
  }
};

/// wgmma's accumulators within a warp's 16 rows (PTX ISA, "Register
/// Fragments for wgmma"): each 8 columns hold the four elements of an mma
/// .m16n8 accumulator tile, which is the layout of wmma's 16 x N
/// accumulators.
inline MatrixFragment getWarpgroupAccumulators(const WarpgroupMultiply &Op) {
  return {MF_Wmma, MR_C, Op.D, true, 16, Op.N, Op.K};
}

/// The warp's 16 rows of A in registers: mma's A layout.
inline MatrixFragment getWarpgroupA(const WarpgroupMultiply &Op) {
  return {MF_Mma, MR_A, Op.A, true, 16, 8, Op.K};
}

} // namespace ptxjit

#endif
