//===- RegisterWebs.cpp - Splitting reused PTX registers ------------------===//

#include "ptxjit/Transforms/RegisterWebs.h"
#include "Operands.h"
#include "RegisterDecls.h"
#include "ptxjit/Transforms/CFG.h"
#include "ptxjit/Transforms/VectorRegisters.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include <functional>
#include <optional>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Opcode;
using ptx::Operand;
using ptx::Statement;

namespace {

/// Instructions whose register roles are not modelled here: registers they
/// name are left alone.
bool hasUnmodelledRoles(const ptx::Instruction &I) {
  return ptx::hasFlag(I.Op, ptx::OpOpaqueRoles);
}

/// Calls F(Operand, IsDef) for every register operand of I, uses first.
template <typename Fn>
void forEachRegister(const ptx::Instruction &I, const RegisterDecls &Decls,
                     Fn F) {
  std::function<void(const Operand &, bool)> Visit = [&](const Operand &Op,
                                                         bool IsDef) {
    switch (Op.Kind) {
    case Operand::Register:
    case Operand::Symbol:
      if (Decls.lookup(Op.Name))
        F(Op, IsDef);
      break;
    case Operand::Address:
      if (!Op.Name.empty() && Decls.lookup(Op.Name))
        F(Op, false);
      break;
    case Operand::Vector:
    case Operand::PredPair:
      for (const Operand &E : Op.Elements)
        Visit(E, IsDef);
      break;
    default:
      break;
    }
  };
  bool Dest = I.writesFirstOperand();
  for (unsigned N = Dest && !I.readsFirstOperand() ? 1 : 0;
       N < I.Operands.size(); ++N)
    Visit(I.Operands[N], false);
  if (Dest)
    Visit(I.Operands[0], true);
}

struct Def {
  unsigned Stmt;
  bool Guarded;
};

} // namespace

ptx::Function transforms::splitRegisterWebs(const ptx::Function &F,
                                            const PTXCFG &CFG,
                                            BumpPtrAllocator &Alloc) {
  ptx::Function Result = F;
  RegisterDecls Decls(F);
  const auto &Body = F.Body;

  // Definitions of each register, and registers not to touch.
  StringMap<SmallVector<Def, 4>> Defs;
  StringSet<> Excluded;
  for (unsigned S = 0; S != Body.size(); ++S) {
    if (Body[S].Kind != Statement::Inst)
      continue;
    const ptx::Instruction &I = Body[S].Instr;
    // A destination that is also read names one operand for a use and a
    // definition, which renaming cannot tell apart: one web.
    bool Unmodelled = hasUnmodelledRoles(I) || I.readsFirstOperand();
    if (!I.GuardPredicate.empty() && Decls.lookup(I.GuardPredicate) &&
        Unmodelled)
      Excluded.insert(I.GuardPredicate);
    forEachRegister(I, Decls, [&](const Operand &Op, bool IsDef) {
      if (Unmodelled)
        Excluded.insert(Op.Name);
      else if (IsDef)
        Defs[Op.Name].push_back({S, !I.GuardPredicate.empty()});
    });
  }

  // A .reg return is read when the function returns, wherever it was set.
  for (const ptx::VariableDecl &R : F.Returns)
    for (const std::string &Name : getParamRegisters(R))
      Excluded.insert(Name);

  // Which block each statement is in; unreachable blocks are left alone.
  std::vector<unsigned> BlockOf(Body.size(), ~0u);
  for (unsigned B = 0; B != CFG.Blocks.size(); ++B)
    for (unsigned S = CFG.Blocks[B].Begin; S != CFG.Blocks[B].End; ++S)
      BlockOf[S] = B;

  // Per split register: the web of each use and each definition.
  DenseMap<std::pair<unsigned, StringRef>, unsigned> UseWeb, DefWeb;
  StringMap<unsigned> NumWebs;
  for (auto &Entry : Defs) {
    StringRef Reg = Entry.getKey();
    ArrayRef<Def> RegDefs = Entry.getValue();
    if (RegDefs.size() < 2 || Excluded.contains(Reg))
      continue;
    // Definition K is bit K + 1; bit 0 is "undefined at entry".
    unsigned NBits = RegDefs.size() + 1;
    DenseMap<unsigned, unsigned> DefIndex;
    for (unsigned K = 0; K != RegDefs.size(); ++K)
      DefIndex[RegDefs[K].Stmt] = K + 1;
    auto Transfer = [&](unsigned B, BitVector Cur,
                        function_ref<void(unsigned, const BitVector &)> AtUse) {
      for (unsigned S = CFG.Blocks[B].Begin; S != CFG.Blocks[B].End; ++S) {
        if (Body[S].Kind != Statement::Inst)
          continue;
        const ptx::Instruction &I = Body[S].Instr;
        bool Uses = I.GuardPredicate == Reg;
        forEachRegister(I, Decls, [&](const Operand &Op, bool IsDef) {
          Uses |= !IsDef && Op.Name == Reg;
        });
        if (Uses && AtUse)
          AtUse(S, Cur);
        auto It = DefIndex.find(S);
        if (It != DefIndex.end()) {
          if (!RegDefs[It->second - 1].Guarded)
            Cur.reset();
          Cur.set(It->second);
        }
      }
      return Cur;
    };
    std::vector<BitVector> In(CFG.Blocks.size(), BitVector(NBits));
    In[0].set(0);
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (unsigned B : CFG.RPO) {
        BitVector Out = Transfer(B, In[B], nullptr);
        for (unsigned Succ : CFG.Blocks[B].Succs) {
          BitVector Merged = In[Succ];
          Merged |= Out;
          if (Merged != In[Succ]) {
            In[Succ] = std::move(Merged);
            Changed = true;
          }
        }
      }
    }
    // Definitions that reach a common use are one web.
    EquivalenceClasses<unsigned> Webs;
    for (unsigned K = 0; K != NBits; ++K)
      Webs.insert(K);
    SmallVector<std::pair<unsigned, unsigned>, 8> Uses; // (stmt, a def bit)
    for (unsigned B : CFG.RPO)
      Transfer(B, In[B], [&](unsigned S, const BitVector &Reaching) {
        int First = Reaching.find_first();
        if (First < 0)
          return;
        for (unsigned K : Reaching.set_bits())
          Webs.unionSets(First, K);
        Uses.push_back({S, unsigned(First)});
      });
    // Number the webs.
    DenseMap<unsigned, unsigned> WebNumber;
    auto NumberOf = [&](unsigned Bit) {
      unsigned Leader = Webs.getLeaderValue(Bit);
      auto [It, New] = WebNumber.try_emplace(Leader, WebNumber.size());
      return It->second;
    };
    // The register's own name goes to the web of its first definition, or
    // for a .reg parameter to the web live at entry, which holds its value.
    bool IsParam = any_of(F.Params, [&](const ptx::VariableDecl &P) {
      return P.Space == ptx::StateSpace::Reg &&
             is_contained(getParamRegisters(P), Reg);
    });
    NumberOf(IsParam ? 0 : 1);
    for (unsigned K = 1; K != NBits; ++K)
      DefWeb[{RegDefs[K - 1].Stmt, Reg}] = NumberOf(K);
    for (auto [S, Bit] : Uses)
      UseWeb[{S, Reg}] = NumberOf(Bit);
    NumWebs[Reg] = WebNumber.size();
  }

  // Rename: web 0 keeps the name, web N becomes "Reg.wN".
  auto WebName = [&](StringRef Reg, unsigned N) -> StringRef {
    if (N == 0)
      return Reg;
    return saveName(Alloc, Reg + ".w" + Twine(N));
  };
  bool AnySplit = false;
  for (auto &E : NumWebs)
    if (E.getValue() > 1) {
      AnySplit = true;
      std::optional<ptx::ScalarType> Ty = Decls.lookup(E.getKey());
      for (unsigned N = 1; N != E.getValue(); ++N) {
        ptx::VariableDecl V;
        V.Space = ptx::StateSpace::Reg;
        V.Type = *Ty;
        V.Name = WebName(E.getKey(), N);
        Result.Locals.push_back(std::move(V));
      }
    }
  if (!AnySplit)
    return Result;

  std::function<Operand(const Operand &, unsigned, bool)> Rename =
      [&](const Operand &Op, unsigned S, bool IsDef) {
        Operand New = Op;
        if (!Op.Elements.empty()) {
          SmallVector<Operand, 4> Elements;
          for (const Operand &E : Op.Elements)
            Elements.push_back(Rename(E, S, IsDef));
          New.Elements = ptx::OperandList::create(Alloc, Elements);
          return New;
        }
        if (Op.Name.empty())
          return New;
        auto &Map = IsDef ? DefWeb : UseWeb;
        auto It = Map.find({S, Op.Name});
        if (It != Map.end())
          New.Name = WebName(Op.Name, It->second);
        return New;
      };
  for (unsigned S = 0; S != Body.size(); ++S) {
    if (Body[S].Kind != Statement::Inst || BlockOf[S] == ~0u)
      continue;
    ptx::Instruction &I = Result.Body[S].Instr;
    bool Dest = I.writesFirstOperand();
    Operand *Mem = Alloc.Allocate<Operand>(I.Operands.size());
    for (unsigned N = 0; N != I.Operands.size(); ++N)
      new (&Mem[N]) Operand(Rename(I.Operands[N], S, Dest && N == 0));
    I.Operands = ArrayRef<Operand>(Mem, I.Operands.size());
    if (!I.GuardPredicate.empty()) {
      auto It = UseWeb.find({S, I.GuardPredicate});
      if (It != UseWeb.end())
        I.GuardPredicate = WebName(I.GuardPredicate, It->second);
    }
  }
  return Result;
}
