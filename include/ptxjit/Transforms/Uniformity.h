//===- Uniformity.h - Which PTX registers are uniform or affine -*- C++ -*-===//
//
// A register is Uniform when every lane of a warp holds the same value
// (it stays a scalar), Affine when lane L holds Base + L * Stride (it is a
// vector, but memory accesses through it are contiguous), and Varying
// otherwise. The analysis is optimistic and iterates to a fixed point.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_UNIFORMITY_H
#define PTXJIT_TRANSFORMS_UNIFORMITY_H

#include "ptxjit/Transforms/LockstepLoops.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <cstdint>

namespace ptxjit {
struct KernelShape;
namespace ptx {
struct Function;
struct Operand;
} // namespace ptx

namespace transforms {

class PTXCFG;

struct Shape {
  enum KindTy : uint8_t { Uniform, Affine, Varying };
  KindTy Kind = Uniform;
  int64_t Stride = 0; ///< Affine only, in units of the register's value
  /// Affine only: the value is Base_k + L * Stride within each run of
  /// Segment lanes (k = L / Segment), with unrelated bases. A 2-D block
  /// 16 threads wide makes %tid.x affine in segments of 16 lanes. Segment
  /// 32 is plain affine; stride 0 with a smaller segment is uniform within
  /// each segment.
  uint8_t Segment = 32;
  /// Affine: every segment's base is a multiple of 32. Lanes 0-31 of a
  /// stride-1 value then hold one aligned run of 32 integers (%tid.x of a
  /// block whose rows are whole warps), so comparing it with a multiple of
  /// 32 gives the same answer in every lane, and widening it wraps no lane.
  /// Uniform: the integer is a multiple of 32 (%ntid.x of such a block, a
  /// product with it), so adding it to an aligned run keeps the run aligned.
  bool AlignedBase = false;

  static Shape uniform(bool Aligned = false) {
    return {Uniform, 0, 32, Aligned};
  }
  static Shape affine(int64_t S, unsigned Seg = 32, bool Aligned = false) {
    return S == 0 && Seg == 32 ? uniform(Aligned)
                               : Shape{Affine, S, uint8_t(Seg), Aligned};
  }
  static Shape varying() { return {Varying, 0, 32, false}; }
  bool isUniform() const { return Kind == Uniform; }
  bool isVarying() const { return Kind == Varying; }
  /// Stride and segment of an Affine or Uniform shape.
  unsigned segment() const { return Kind == Uniform ? 32 : Segment; }
  /// Lanes 0-31 hold 32 consecutive integers starting at a multiple of 32.
  bool isAlignedRun() const {
    return Kind == Affine && Stride == 1 && Segment == 32 && AlignedBase;
  }
  bool operator==(const Shape &O) const {
    return Kind == O.Kind && Stride == O.Stride && Segment == O.Segment &&
           AlignedBase == O.AlignedBase;
  }
  bool operator!=(const Shape &O) const { return !(*this == O); }
  /// Whether extending the integer to more bits (zero or sign) gives the
  /// affine value of the wide type: no lane wraps around where the narrow
  /// type does. Affine values are modular, so lanes past a wrap point hold
  /// small values again. Runs that rise by less than 32 from a multiple of
  /// 32 cross no wrap point (signed or unsigned: both are multiples of 32);
  /// for others IRGen checks each warp (FunctionLowering::write).
  bool widensExactly() const;
  /// Least upper bound: the shape of a register that holds either value
  /// (all lanes of a warp the same one). A uniform value and an affine one
  /// with a nonzero stride join to Varying.
  Shape join(Shape O) const;
};

/// Whose threads a value is the same for: a warp's (the lowering's
/// scalars) or a whole CTA's (barriers in CTA-uniform control flow).
enum class UniformityScope { Warp, CTA };

class UniformityInfo {
public:
  UniformityInfo(const ptx::Function &F, const PTXCFG &CFG,
                 const KernelShape &KS,
                 UniformityScope Scope = UniformityScope::Warp);

  /// The shape of a register, by name ("%r1"). Unknown names are Varying.
  Shape getRegister(llvm::StringRef Name) const;
  /// The shape of a special register such as %tid.x.
  Shape getSpecial(llvm::StringRef Name, char Component) const;
  /// The shape of an operand as read.
  Shape getOperand(const ptx::Operand &Op) const;
  /// True if Name is read only in the block of its single definition,
  /// after it: no lane ever reads a value of it that another execution of
  /// the block left, so a write need not keep other lanes' values.
  bool isBlockLocal(llvm::StringRef Name) const {
    return BlockLocal.contains(Name);
  }
  /// True if block B may run with only some of the warp's live lanes (at
  /// CTA scope: some of the CTA's live threads).
  bool isDivergentBlock(unsigned B) const { return Divergent.test(B); }

private:
  void run();
  bool visitInstructions();
  bool updateDivergence(const llvm::StringSet<> &Reads);
  /// The blocks that may run split, the branches ending the blocks in
  /// Ignore (if given) taken as uniform.
  llvm::BitVector computeDivergence(const llvm::StringSet<> &Reads,
                                    const llvm::BitVector *Ignore) const;
  /// Whether register Name, defined in block B, keeps its shape there
  /// although B runs split: B is in a lockstep loop (LockstepLoops.h) that
  /// the register is private to.
  bool keepsShapeInLoop(llvm::StringRef Name, unsigned B) const;

  const ptx::Function &F;
  const PTXCFG &CFG;
  const KernelShape &KS;
  UniformityScope Scope;
  llvm::StringMap<Shape> Registers;
  llvm::StringMap<unsigned> DefCount;
  /// Registers read only in the block of their single definition, after it.
  /// Only these may stay uniform when defined under divergence: a lane that
  /// skipped the definition this time cannot read another lane's value.
  llvm::StringSet<> BlockLocal;
  llvm::StringSet<> LocalNames; ///< .local variables of the function
  llvm::BitVector Divergent;
  /// Warp scope: loops whose lanes run in step, and each block's (-1: none).
  std::vector<LockstepLoop> Lockstep;
  std::vector<int> LockstepOf;
  /// The blocks where each register is written.
  llvm::StringMap<llvm::SmallVector<unsigned, 2>> DefBlocks;
};

} // namespace transforms
} // namespace ptxjit

#endif
