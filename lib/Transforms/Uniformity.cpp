//===- Uniformity.cpp - Which PTX registers are uniform or affine ---------===//

#include "ptxjit/Transforms/Uniformity.h"
#include "ptxjit/ABI/KernelShape.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/SpecialRegisters.h"
#include "ptxjit/Transforms/CFG.h"
#include "ptxjit/Transforms/LockstepLoops.h"
#include "ptxjit/Transforms/SplitBlocks.h"
#include "ptxjit/Transforms/VectorRegisters.h"
#include "llvm/ADT/StringSwitch.h"
#include <functional>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Opcode;
using ptx::Operand;
using ptx::Statement;

// Strides wrap as the registers' values do (modulo 2^64, and so modulo any
// narrower width too): computed unsigned, as signed overflow and shifting a
// negative stride are undefined in C++.
static int64_t wrapAdd(int64_t A, int64_t B) {
  return int64_t(uint64_t(A) + uint64_t(B));
}
static int64_t wrapSub(int64_t A, int64_t B) {
  return int64_t(uint64_t(A) - uint64_t(B));
}
static int64_t wrapMul(int64_t A, int64_t B) {
  return int64_t(uint64_t(A) * uint64_t(B));
}
static int64_t wrapShl(int64_t A, unsigned K) {
  return int64_t(uint64_t(A) << K);
}

bool Shape::widensExactly() const {
  return Kind != Affine || Stride == 0 ||
         (AlignedBase && Stride > 0 && Stride * int64_t(segment() - 1) < 32);
}

Shape Shape::join(Shape O) const {
  if (Kind == Varying || O.Kind == Varying)
    return varying();
  if (Kind == Uniform && O.Kind == Uniform)
    return uniform(AlignedBase && O.AlignedBase);
  // A uniform value is affine with stride 0 in 32-lane runs (any base).
  int64_t S1 = Kind == Uniform ? 0 : Stride,
          S2 = O.Kind == Uniform ? 0 : O.Stride;
  if (S1 != S2)
    return varying();
  // Affine in runs of 16 lanes holds for a value affine in runs of 32.
  return affine(S1, std::min(segment(), O.segment()),
                AlignedBase && O.AlignedBase);
}

UniformityInfo::UniformityInfo(const ptx::Function &F, const PTXCFG &CFG,
                               const KernelShape &KS, UniformityScope Scope)
    : F(F), CFG(CFG), KS(KS), Scope(Scope), Divergent(CFG.Blocks.size()) {
  run();
}

Shape UniformityInfo::getRegister(StringRef Name) const {
  auto It = Registers.find(Name);
  return It == Registers.end() ? Shape::uniform() : It->second;
}

Shape UniformityInfo::getSpecial(StringRef Name, char Component) const {
  const uint32_t *D = KS.BlockDim;
  if (Scope == UniformityScope::CTA) {
    // Only what every thread of the CTA sees alike: not the thread index
    // (unless its dimension is 1), the lane or the warp.
    if (Name == "%tid") {
      unsigned Dim = Component == 'y' ? 1 : Component == 'z' ? 2 : 0;
      return D[Dim] == 1 ? Shape::uniform() : Shape::varying();
    }
    if (Name == "%laneid" || Name == "%warpid")
      return Shape::varying();
  }
  if (Name == "%tid") {
    // Lane L of warp W is thread W*32+L in x-major order. A block narrower
    // than a warp puts several rows in one warp: each run of D[0] lanes is
    // one row.
    bool OneDim = D[1] == 1 && D[2] == 1;
    bool Rows = D[0] < 32 && 32 % D[0] == 0;
    switch (Component) {
    case 'x':
      // Warp W starts at x = 32 * W (one row) or at a row's start.
      if (OneDim || D[0] % 32 == 0)
        return Shape::affine(1, 32, /*Aligned=*/true);
      return Rows ? Shape::affine(1, D[0]) : Shape::varying();
    case 'y':
      if (D[1] == 1 || D[0] % 32 == 0)
        return Shape::uniform();
      return Rows ? Shape::affine(0, D[0]) : Shape::varying();
    default:
      if (D[2] == 1 || (D[0] * D[1]) % 32 == 0)
        return Shape::uniform();
      return Rows ? Shape::affine(0, D[0]) : Shape::varying();
    }
  }
  if (Name == "%laneid")
    return Shape::affine(1, 32, /*Aligned=*/true);
  return StringSwitch<Shape>(Name)
      .Case("%ntid", Shape::uniform(D[Component == 'y'   ? 1
                                      : Component == 'z' ? 2
                                                         : 0] %
                                        32 ==
                                    0))
      .Cases({"%ctaid", "%nctaid", "%warpid", "%nwarpid", "%smid", "%nsmid",
              "%gridid"},
             Shape::uniform())
      .Cases({"%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size"},
             Shape::uniform())
      .StartsWith("%reserved_smem_offset_", Shape::uniform())
      .Cases({"%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid",
              "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster"},
             Shape::uniform())
      .Default(Shape::varying());
}

Shape UniformityInfo::getOperand(const Operand &Op) const {
  switch (Op.Kind) {
  case Operand::Register:
  case Operand::Symbol:
    if (ptx::lookupSpecialRegister(Op.Name))
      return getSpecial(Op.Name, Op.Component);
    // Registers may be named without '%' (.reg .f16 low;); a name that is
    // not a register is a variable or function address: uniform, except
    // .local variables, whose address is each lane's own copy.
    if (Op.Kind == Operand::Symbol && LocalNames.contains(Op.Name))
      return Shape::varying();
    return getRegister(Op.Name);
  case Operand::Vector: {
    Shape S = Shape::uniform();
    for (const Operand &E : Op.Elements)
      S = S.join(getOperand(E).isUniform() ? Shape::uniform()
                                           : Shape::varying());
    return S;
  }
  case Operand::Address:
    if (!Op.BaseIsRegister)
      return Shape::uniform();
    return getRegister(Op.Name);
  default:
    return Shape::uniform();
  }
}

static std::optional<int64_t> immediate(const Operand &Op) {
  if (Op.Kind == Operand::IntImm)
    return Op.Value;
  return std::nullopt;
}

/// Whether an operand of shape S is an immediate multiple of 32, a uniform
/// multiple of 32, or affine with its bases multiples of 32
/// (Shape::AlignedBase).
static bool isAlignedOperand(const Operand &Op, Shape S) {
  if (S.Kind != Shape::Varying && S.AlignedBase)
    return true;
  if (S.Kind == Shape::Affine)
    return false;
  std::optional<int64_t> K = immediate(Op);
  return K && uint64_t(*K) % 32 == 0;
}

/// Whether `X Cmp K` is the same for all 32 integers of an aligned run
/// (32m ... 32m + 31): the run never straddles the boundary K sets. The
/// run also never straddles a signed or unsigned wrap-around point, as
/// those are multiples of 32, so signedness does not matter.
static bool isUniformOverAlignedRun(ptx::Modifier Cmp, int64_t K) {
  unsigned R = unsigned(uint64_t(K) % 32);
  switch (Cmp) {
  case ptx::Modifier::Lt: // boundary between K - 1 and K
  case ptx::Modifier::Lo:
  case ptx::Modifier::Ge:
  case ptx::Modifier::Hs:
    return R == 0;
  case ptx::Modifier::Le: // boundary between K and K + 1
  case ptx::Modifier::Ls:
  case ptx::Modifier::Gt:
  case ptx::Modifier::Hi:
    return R == 31;
  default:
    return false;
  }
}

/// The comparison with its operands swapped (K < X is X > K).
static ptx::Modifier mirror(ptx::Modifier Cmp) {
  using ptx::Modifier;
  switch (Cmp) {
  case Modifier::Lt:
    return Modifier::Gt;
  case Modifier::Gt:
    return Modifier::Lt;
  case Modifier::Le:
    return Modifier::Ge;
  case Modifier::Ge:
    return Modifier::Le;
  case Modifier::Lo:
    return Modifier::Hi;
  case Modifier::Hi:
    return Modifier::Lo;
  case Modifier::Ls:
    return Modifier::Hs;
  case Modifier::Hs:
    return Modifier::Ls;
  default:
    return Cmp;
  }
}

void UniformityInfo::run() {
  // Count static definitions of each register.
  for (const Statement &S : F.Body) {
    if (S.Kind != Statement::Inst || S.Instr.Operands.empty())
      continue;
    const ptx::Instruction &I = S.Instr;
    auto Count = [&](const Operand &R) {
      if (R.Kind == Operand::Register || R.Kind == Operand::Symbol)
        ++DefCount[R.Name];
    };
    if (I.Op == Opcode::Call) {
      // Registers a call returns into are written per lane by the callee.
      for (unsigned K = 0; K != I.NumCallReturns; ++K) {
        // A vector register result is its components'.
        const Operand &R = I.Operands[K];
        ArrayRef<Operand> Regs =
            R.Kind == Operand::Vector ? R.Elements : ArrayRef(R);
        for (const Operand &E : Regs) {
          Count(E);
          if (E.Kind == Operand::Register || E.Kind == Operand::Symbol)
            Registers[E.Name] = Shape::varying();
        }
      }
      continue;
    }
    if (!I.writesFirstOperand())
      continue;
    const Operand &D = I.Operands[0];
    if (D.Kind == Operand::Vector || D.Kind == Operand::PredPair)
      for (const Operand &E : D.Elements)
        Count(E);
    else
      Count(D);
  }
  for (const ptx::VariableDecl &V : F.Locals)
    if (V.Space == ptx::StateSpace::Local)
      LocalNames.insert(V.Name);
  // Where each register is defined and read.
  std::vector<unsigned> StmtBlock(F.Body.size(), 0);
  for (unsigned Blk = 0; Blk != CFG.Blocks.size(); ++Blk)
    for (unsigned I = CFG.Blocks[Blk].Begin; I != CFG.Blocks[Blk].End; ++I)
      StmtBlock[I] = Blk;
  StringMap<unsigned> DefAt; // single-definition registers: statement index
  StringSet<> NotLocal;
  for (unsigned Idx = 0; Idx != F.Body.size(); ++Idx) {
    const Statement &S = F.Body[Idx];
    if (S.Kind != Statement::Inst)
      continue;
    const ptx::Instruction &I = S.Instr;
    bool HasDest = I.writesFirstOperand();
    auto Use = [&](StringRef Name) {
      auto It = DefAt.find(Name);
      if (It == DefAt.end() || StmtBlock[It->second] != StmtBlock[Idx] ||
          It->second >= Idx)
        NotLocal.insert(Name);
    };
    std::function<void(const Operand &)> Visit = [&](const Operand &Op) {
      if (Op.Kind == Operand::Register || Op.Kind == Operand::Symbol ||
          (Op.Kind == Operand::Address && Op.BaseIsRegister))
        Use(Op.Name);
      for (const Operand &E : Op.Elements)
        Visit(E);
    };
    if (!I.GuardPredicate.empty())
      Use(I.GuardPredicate);
    for (unsigned N = HasDest && !I.readsFirstOperand() ? 1 : 0;
         N < I.Operands.size(); ++N)
      Visit(I.Operands[N]);
    if (HasDest && !I.Operands.empty()) {
      auto Def = [&](const Operand &R) {
        if (R.Kind != Operand::Register && R.Kind != Operand::Symbol)
          return;
        DefBlocks[R.Name].push_back(StmtBlock[Idx]);
        if (DefCount.lookup(R.Name) == 1)
          DefAt[R.Name] = Idx;
      };
      const Operand &D = I.Operands[0];
      if (D.Kind == Operand::Vector || D.Kind == Operand::PredPair)
        for (const Operand &E : D.Elements)
          Def(E);
      else
        Def(D);
    }
  }
  // A device function's .reg returns are read when lanes return.
  for (const ptx::VariableDecl &R : F.Returns)
    for (const std::string &Name : getParamRegisters(R))
      NotLocal.insert(Name);
  for (const auto &E : DefAt)
    if (!NotLocal.contains(E.getKey()))
      BlockLocal.insert(E.getKey());

  // Parameters of device functions differ per lane.
  if (!F.IsEntry)
    for (const ptx::VariableDecl &P : F.Params)
      if (P.Space == ptx::StateSpace::Reg)
        for (const std::string &Name : getParamRegisters(P))
          Registers[Name] = Shape::varying();

  StringSet<> Reads = collectReadRegisters(F);
  bool Changed = true;
  while (Changed) {
    Changed = visitInstructions();
    Changed |= updateDivergence(Reads);
  }
}

bool UniformityInfo::visitInstructions() {
  bool Changed = false;
  for (unsigned B = 0; B != CFG.Blocks.size(); ++B) {
    const PTXBlock &Blk = CFG.Blocks[B];
    for (unsigned Idx = Blk.Begin; Idx != Blk.End; ++Idx) {
      const Statement &S = F.Body[Idx];
      if (S.Kind != Statement::Inst)
        continue;
      const ptx::Instruction &I = S.Instr;
      if (I.Operands.empty())
        continue;
      Shape Result = Shape::uniform();
      auto Src = [&](unsigned N) { return getOperand(I.Operands[N]); };
      // Any operation on values that are uniform (or uniform within each
      // segment of lanes) gives such a value.
      auto JoinAllSources = [&] {
        Shape R = Shape::uniform();
        for (unsigned N = 1; N < I.Operands.size(); ++N) {
          Shape S = Src(N);
          if (S.isVarying() || (S.Kind == Shape::Affine && S.Stride != 0))
            return Shape::varying();
          R = R.join(S);
        }
        // Only the operations below keep multiples of 32 (not, for one,
        // does not).
        R.AlignedBase = false;
        return R;
      };
      bool IsInt = ptx::isInteger(I.getType());
      if (!I.writesFirstOperand())
        continue;
      switch (I.Op) {
      case Opcode::Mov:
        Result = I.Operands.size() == 2 ? Src(1) : Shape::varying();
        if (!IsInt && !Result.isUniform())
          Result = Shape::varying();
        if (!IsInt)
          Result.AlignedBase = false;
        break;
      case Opcode::Add:
      case Opcode::Sub: {
        if (I.Operands.size() != 3 || !IsInt) {
          Result = JoinAllSources();
          break;
        }
        Shape A = Src(1), C = Src(2);
        if (A.isVarying() || C.isVarying())
          Result = Shape::varying();
        else
          Result =
              Shape::affine(I.Op == Opcode::Add ? wrapAdd(A.Stride, C.Stride)
                                                : wrapSub(A.Stride, C.Stride),
                            std::min(A.segment(), C.segment()),
                            isAlignedOperand(I.Operands[1], A) &&
                                isAlignedOperand(I.Operands[2], C));
        break;
      }
      case Opcode::Mul:
      case Opcode::Mad:
      case Opcode::Shl: {
        if (I.Operands.size() < 3 || !IsInt ||
            I.hasModifier(ptx::Modifier::Hi)) {
          Result = JoinAllSources();
          break;
        }
        Shape A = Src(1), C = Src(2);
        std::optional<int64_t> K =
            I.Op == Opcode::Shl ? immediate(I.Operands[2])
                                : (A.isUniform() ? immediate(I.Operands[1])
                                                 : immediate(I.Operands[2]));
        Shape Other = A.isUniform() && I.Op != Opcode::Shl ? C : A;
        if (A.isUniform() && C.isUniform())
          // A multiple of 32 times anything, or shifted left by 5 or more.
          Result = Shape::uniform(
              I.Op == Opcode::Shl ? A.AlignedBase || (K && *K >= 5 && *K < 64)
                                  : isAlignedOperand(I.Operands[1], A) ||
                                        isAlignedOperand(I.Operands[2], C));
        else if (I.Op != Opcode::Shl && !A.isVarying() && !C.isVarying() &&
                 ((A.isUniform() && C.Stride == 0) ||
                  (C.isUniform() && A.Stride == 0)))
          // Uniform within each segment, times uniform: still so.
          Result = A.isUniform() ? C : A;
        else if (K && Other.Kind == Shape::Affine && *K >= 0 && *K < 64)
          // A multiple of 32, times or shifted by anything, stays one.
          Result = Shape::affine(
              I.Op == Opcode::Shl ? wrapShl(Other.Stride, unsigned(*K))
                                  : wrapMul(Other.Stride, *K),
              Other.Segment,
              Other.AlignedBase ||
                  (I.Op == Opcode::Shl ? *K >= 5 : uint64_t(*K) % 32 == 0));
        else
          Result = Shape::varying();
        if (I.Op == Opcode::Mad && I.Operands.size() == 4) {
          Shape Addend = Src(3);
          Result =
              Result.isVarying() || Addend.isVarying()
                  ? Shape::varying()
                  : Shape::affine(wrapAdd(Result.Stride, Addend.Stride),
                                  std::min(Result.segment(), Addend.segment()),
                                  Result.AlignedBase &&
                                      isAlignedOperand(I.Operands[3], Addend));
        }
        break;
      }
      case Opcode::Cvt:
        // Packing forms (cvt.rn.f16x2.f32 d, a, b) read more than one.
        Result = I.Operands.size() > 2 ? JoinAllSources() : Src(1);
        if (!(IsInt && ptx::isInteger(I.getType(1))) && !Result.isUniform())
          Result = Shape::varying();
        if (!(IsInt && ptx::isInteger(I.getType(1))))
          Result.AlignedBase = false;
        break;
      case Opcode::Setp: {
        // `%tid.x < 128` is the same in every lane of a warp whose lanes
        // hold one aligned run of 32 integers.
        Result = JoinAllSources();
        if (!Result.isVarying() || I.Operands.size() < 3 || !IsInt)
          break;
        ptx::Modifier Cmp = I.getComparison();
        std::optional<int64_t> K;
        if (Src(1).isAlignedRun())
          K = immediate(I.Operands[2]);
        else if (Src(2).isAlignedRun() && (K = immediate(I.Operands[1])))
          Cmp = mirror(Cmp);
        if (!K || !isUniformOverAlignedRun(Cmp, *K))
          break;
        // setp.lt.and: combined with a predicate, uniform only if it is.
        Result = I.Operands.size() > 3 && !Src(3).isUniform()
                     ? Shape::varying()
                     : Shape::uniform();
        break;
      }
      case Opcode::Cvta:
        Result = Src(1);
        if (I.Space == ptx::StateSpace::Local && !Result.isVarying())
          Result = Shape::varying();
        break;
      case Opcode::Ld:
      case Opcode::Ldu: {
        Shape Addr = Src(1);
        if (I.Operands[1].Kind == Operand::Address &&
            !I.Operands[1].BaseIsRegister &&
            LocalNames.contains(I.Operands[1].Name))
          Addr = Shape::varying();
        bool PerLaneMemory = I.Space == ptx::StateSpace::Local ||
                             (I.Space == ptx::StateSpace::Param && !F.IsEntry);
        Result = Addr.isUniform() && !PerLaneMemory &&
                         !I.hasModifier(ptx::Modifier::Volatile)
                     ? Shape::uniform()
                     : Shape::varying();
        // A parameter of the kernel itself is uniform; a call's return
        // value (.param declared in the body) is not.
        if (I.Space == ptx::StateSpace::Param && F.IsEntry &&
            I.Operands[1].Kind == Operand::Address &&
            !I.Operands[1].BaseIsRegister) {
          bool IsKernelParam = false;
          for (const ptx::VariableDecl &P : F.Params)
            IsKernelParam |= P.Name == I.Operands[1].Name;
          if (!IsKernelParam)
            Result = Shape::varying();
        }
        break;
      }
      default:
        // The table says which results may differ per lane whatever the
        // sources (the carry flag, atomics, warp-synchronous results).
        Result =
            ptx::getResultUniformity(I.Op) == ptx::ResultUniformity::Sources
                ? JoinAllSources()
                : Shape::varying();
        break;
      }
      if (!I.GuardPredicate.empty() &&
          !getRegister(I.GuardPredicate).isUniform())
        Result = Shape::varying();

      auto Update = [&](const Operand &R) {
        if (R.Kind != Operand::Register && R.Kind != Operand::Symbol)
          return;
        Shape New = Result;
        if (CFG.Blocks.size() > B && Divergent.test(B) &&
            !BlockLocal.contains(R.Name) && !keepsShapeInLoop(R.Name, B))
          New = Shape::varying();
        // The first definition seen sets the shape; later ones join it.
        auto [It, Inserted] = Registers.try_emplace(R.Name, New);
        Shape Joined = It->second.join(New);
        if (Inserted || Joined != It->second) {
          It->second = Joined;
          Changed = true;
        }
      };
      const Operand &D = I.Operands[0];
      if (D.Kind == Operand::Vector || D.Kind == Operand::PredPair) {
        // Unpacking or a vector load: elements are not affine.
        if (Result.Kind == Shape::Affine)
          Result = Shape::varying();
        for (const Operand &E : D.Elements)
          Update(E);
      } else {
        Update(D);
      }
    }
  }
  return Changed;
}

BitVector UniformityInfo::computeDivergence(const StringSet<> &Reads,
                                            const BitVector *Ignore) const {
  unsigned N = CFG.Blocks.size();
  BitVector Result(N);
  for (unsigned B = 0; B != N; ++B) {
    const PTXBlock &Blk = CFG.Blocks[B];
    if ((Ignore && Ignore->test(B)) || Blk.Succs.size() < 2 ||
        Blk.End == Blk.Begin)
      continue;
    const Statement &Last = F.Body[Blk.End - 1];
    if (Last.Kind != Statement::Inst)
      continue;
    const ptx::Instruction &I = Last.Instr;
    bool Diverges = false;
    if (I.Op == Opcode::Bra)
      Diverges = !getRegister(I.GuardPredicate).isUniform();
    else if (I.Op == Opcode::BrxIdx)
      Diverges = !getOperand(I.Operands[0]).isUniform() ||
                 (!I.GuardPredicate.empty() &&
                  !getRegister(I.GuardPredicate).isUniform());
    if (!Diverges)
      continue;
    // Lanes that take a branch only to leave the warp do not split it.
    if (I.Op == Opcode::Bra &&
        any_of(Blk.Succs, [&](unsigned S) { return CFG.onlyExits(F, S); }))
      continue;
    // Every block between the branch and its reconvergence point.
    unsigned Join = CFG.getImmediatePostDominator(B);
    SmallVector<unsigned, 16> Work(Blk.Succs.begin(), Blk.Succs.end());
    BitVector Seen(N);
    while (!Work.empty()) {
      unsigned S = Work.pop_back_val();
      if (S == Join || S >= N || Seen.test(S))
        continue;
      Seen.set(S);
      Result.set(S);
      for (unsigned T : CFG.Blocks[S].Succs)
        Work.push_back(T);
    }
  }
  // In a warp, a block also runs split wherever IRGen gives it a divergent
  // version (SplitBlocks.h): past the post-dominator when that comes first
  // in block order (a loop header reached by a back edge), or when lanes
  // are held or take turns. Each group then runs it with its own values.
  // (At CTA scope every thread still reaches the post-dominator.)
  if (Scope == UniformityScope::Warp)
    Result |= findSplitBlocks(F, CFG, *this, Reads, Ignore);
  return Result;
}

bool UniformityInfo::updateDivergence(const StringSet<> &Reads) {
  BitVector New = computeDivergence(Reads, nullptr);
  New |= Divergent;
  bool Changed = New != Divergent;
  Divergent = std::move(New);
  if (Scope != UniformityScope::Warp)
    return Changed;
  // Loops that lanes only leave keep their registers' shapes (Update in
  // visitInstructions); fewer of them as divergence grows.
  std::vector<LockstepLoop> Loops = findLockstepLoops(
      F, CFG, Reads, Divergent, [&](const BitVector &Exiting) {
        return computeDivergence(Reads, &Exiting);
      });
  std::vector<int> Of(CFG.Blocks.size(), -1);
  for (unsigned L = 0; L != Loops.size(); ++L)
    for (unsigned B : Loops[L].Blocks.set_bits())
      Of[B] = L;
  if (Of != LockstepOf)
    Changed = true;
  Lockstep = std::move(Loops);
  LockstepOf = std::move(Of);
  return Changed;
}

bool UniformityInfo::keepsShapeInLoop(StringRef Name, unsigned B) const {
  if (B >= LockstepOf.size() || LockstepOf[B] < 0)
    return false;
  const LockstepLoop &L = Lockstep[LockstepOf[B]];
  if (L.ReadAfter.contains(Name))
    return false;
  auto It = DefBlocks.find(Name);
  return It != DefBlocks.end() && all_of(It->second, [&](unsigned D) {
           return L.Blocks.test(D) || !Divergent.test(D);
         });
}
