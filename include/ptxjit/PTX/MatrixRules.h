//===- MatrixRules.h - The forms of the warp-level matrix instructions ----===//
//
// mma, wmma.load, wmma.store, wmma.mma, ldmatrix, stmatrix and movmatrix
// take their meaning from combinations of suffixes (a shape, two layouts in
// order, up to four element types) that the modifier groups of
// Opcodes.def cannot state, and their operands are fragments: vectors of
// registers whose number and type follow from that combination. This is
// the one description of those forms (PTX ISA 9.0, "Warp Level Matrix
// Multiply-Accumulate Instructions"); the verifier checks instructions with
// it and IRGen lowers what it decodes.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_MATRIXRULES_H
#define PTXJIT_PTX_MATRIXRULES_H

#include "ptxjit/PTX/InstructionTable.h"
#include "llvm/Support/SMLoc.h"
#include <string>

namespace ptxjit {
namespace ptx {

struct Instruction;

/// The matrices of D = A * B + C.
enum class MatrixRole : uint8_t { A, B, C, D };

/// A matrix instruction decoded from its opcode and suffixes.
struct MatrixForm {
  enum KindTy : uint8_t {
    Mma,       ///< mma.sync.aligned
    WmmaLoad,  ///< wmma.load.{a,b,c}
    WmmaStore, ///< wmma.store.d
    WmmaMma,   ///< wmma.mma
    Ldmatrix,  ///< ldmatrix.sync.aligned
    Stmatrix,  ///< stmatrix.sync.aligned
    Movmatrix, ///< movmatrix.sync.aligned
    Wgmma,     ///< wgmma.mma_async.sync.aligned (one warp's 16 rows)
  };
  KindTy Kind = Mma;
  /// mma.sp and mma.sp::ordered_metadata (Kind Mma): A is structured
  /// sparse, its fragment holds M x K/2 elements, and operands e (metadata)
  /// and f (the sparsity selector, Selector) say where they belong.
  bool Sparse = false;
  bool OrderedMetadata = false; ///< mma.sp::ordered_metadata
  unsigned Selector = 0;
  /// The operation's shape (mma, wmma); the shape of one matrix (M rows, N
  /// columns) for ldmatrix, stmatrix and movmatrix.
  unsigned M = 0, N = 0, K = 0;
  /// Element types of the four matrices (wmma.load/.store: the one in Role).
  ScalarType AType = ScalarType::None, BType = ScalarType::None,
             CType = ScalarType::None, DType = ScalarType::None;
  /// .row (true) or .col: A's and B's layouts in registers (mma .m8n8k4)
  /// or memory (wmma; wmma.load/.store keep theirs in ARowMajor).
  bool ARowMajor = true, BRowMajor = false;
  MatrixRole Role = MatrixRole::D; ///< wmma.load/.store: the matrix moved
  bool Satfinite = false;
  enum BitOpTy : uint8_t { NoBitOp, Xor, And } BitOp = NoBitOp;
  /// .f64 mma and wmma.mma: .rn (the default), .rz, .rm or .rp.
  Modifier Rounding = Modifier::Rn;
  bool Trans = false;       ///< ldmatrix, stmatrix (movmatrix always)
  unsigned NumMatrices = 1; ///< ldmatrix, stmatrix: .x1, .x2, .x4
  /// wgmma: A comes from shared memory through a descriptor (operand 1),
  /// not from registers; imm-scale-a/b negate A or B when -1; imm-trans-a/b
  /// read A or B MN-major (transposed) from shared memory.
  bool ADescriptor = false;
  bool NegateA = false, NegateB = false;
  bool TransA = false, TransB = false;

  /// The element type of Role's matrix.
  ScalarType getType(MatrixRole R) const;
};

/// The registers of one fragment operand.
struct FragmentShape {
  unsigned NumRegisters = 0;
  /// .b32 (packed elements), .f32, .s32 or .f64.
  ScalarType RegisterType = ScalarType::None;
};

/// Whether Op is one of the matrix instructions described here.
bool isMatrixOpcode(Opcode Op);

/// Decodes I (a matrix opcode). On a combination the PTX ISA does not
/// define, returns false and sets Problem to a sentence saying why.
/// When the problem is one operand's (mma.sp's selector), ProblemLoc (if
/// given) is set to that operand's location.
bool decodeMatrixForm(const Instruction &I, MatrixForm &F, std::string &Problem,
                      llvm::SMLoc *ProblemLoc = nullptr);

/// The fragment of R's matrix that each lane holds in a decoded form. For
/// ldmatrix and stmatrix, Role D names the data operand.
FragmentShape getFragmentShape(const MatrixForm &F, MatrixRole R);

/// The operand index of R's fragment in an instruction of form F, or -1.
int getFragmentOperand(const MatrixForm &F, MatrixRole R);

/// wgmma: the operand of scale-d, the predicate that keeps D (else D = A *
/// B); the descriptors are operands 1 (A, when ADescriptor) and 2 (B).
constexpr unsigned WgmmaScaleDOperand = 3, WgmmaBDescriptorOperand = 2;

/// mma.sp: the operands of the metadata (e) and the sparsity selector (f).
constexpr unsigned SparseMetadataOperand = 4, SparsitySelectorOperand = 5;

/// mma.sp: how many values the sparsity selector takes (0 .. N-1): 4 when
/// one thread of each group of four consecutive lanes holds the group's
/// metadata, 2 when a pair does (T0,T1 or T2,T3), 1 when all four do.
unsigned getSparsitySelectorCount(const MatrixForm &F);

/// mma.sp: whether a 4-bit metadata field has a meaning ("Sparse matrix
/// storage"): two different 2-bit indices (increasing for
/// ::ordered_metadata), or for .tf32 0b0100 or 0b1110. If not, Why says
/// what the ISA asks for.
bool isDefinedSparseMetadataField(const MatrixForm &F, unsigned Field,
                                  const char **Why = nullptr);

} // namespace ptx
} // namespace ptxjit

#endif
