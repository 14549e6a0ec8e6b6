//===- VectorRegisters.cpp - Splitting .v2/.v4/.v8 registers --------------===//

#include "ptxjit/Transforms/VectorRegisters.h"
#include "Operands.h"
#include "RegisterDecls.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Operand;
using ptx::VariableDecl;

namespace {

class VectorSplitter {
public:
  VectorSplitter(const ptx::Function &F, BumpPtrAllocator &Alloc)
      : F(F), Alloc(Alloc) {}
  ptx::Function run();

private:
  /// The scalar register of component K of vector register R.
  StringRef getComponent(const RegisterDecls::Found &R, unsigned K);
  /// A register operand of a vector register as scalar registers.
  Operand rewriteLeaf(const Operand &Op, bool &Changed);

  const ptx::Function &F;
  BumpPtrAllocator &Alloc;
  RegisterDecls Registers; ///< F's, when it has vector registers
};

} // namespace

/// ".x" ... ".w", then ".e4" ...: '.' is in no PTX identifier, so these
/// names meet no other register's.
static std::string getSuffix(unsigned K) {
  if (K < 4)
    return std::string(".") + "xyzw"[K];
  return (".e" + Twine(K)).str();
}

StringRef VectorSplitter::getComponent(const RegisterDecls::Found &R,
                                       unsigned K) {
  if (R.Index.empty())
    return saveName(Alloc, R.DeclName + getSuffix(K));
  return saveName(Alloc, R.DeclName + getSuffix(K) + "." + R.Index);
}

Operand VectorSplitter::rewriteLeaf(const Operand &Op, bool &Changed) {
  std::optional<RegisterDecls::Found> R;
  if (Op.Kind == Operand::Register || Op.Kind == Operand::Symbol)
    R = Registers.find(Op.Name);
  if (!R || R->VectorWidth == 1)
    return Op;
  Changed = true;
  Operand New = Op;
  if (Op.Component) {
    // %v.x, %v.a (the parser writes .r .g .b .a as .x .y .z .w).
    New.Kind = Operand::Register;
    New.Name = getComponent(*R, StringRef("xyzw").find(Op.Component));
    New.Component = 0;
    return New;
  }
  // The whole vector, where an instruction's vector data stands.
  SmallVector<Operand, 8> Elts;
  for (unsigned K = 0; K != R->VectorWidth; ++K) {
    Operand E;
    E.Loc = Op.Loc;
    E.Kind = Operand::Register;
    E.Name = getComponent(*R, K);
    Elts.push_back(E);
  }
  New = Operand();
  New.Loc = Op.Loc;
  New.Kind = Operand::Vector;
  New.Elements = ptx::OperandList::create(Alloc, Elts);
  return New;
}

ptx::Function VectorSplitter::run() {
  ptx::Function Result = F;
  // Each vector declaration becomes its first component's; the other
  // components' go at the end of Locals, their statements after its.
  DenseMap<unsigned, SmallVector<unsigned, 7>> Others;
  for (size_t Idx = 0, E = Result.Locals.size(); Idx != E; ++Idx) {
    const VariableDecl D = Result.Locals[Idx];
    if (D.Space != ptx::StateSpace::Reg || D.VectorWidth == 1)
      continue;
    VariableDecl Scalar = D;
    Scalar.VectorWidth = 1;
    Scalar.ContinuesPrevious = false;
    for (unsigned K = 0; K != D.VectorWidth; ++K) {
      Scalar.Name =
          saveName(Alloc, D.Name + getSuffix(K) + (D.IsRange ? "." : ""));
      if (K == 0) {
        Result.Locals[Idx] = Scalar;
      } else {
        Others[Idx].push_back(Result.Locals.size());
        Result.Locals.push_back(Scalar);
      }
    }
  }
  // Uses of a vector .reg parameter or return become its components' too.
  auto IsVectorReg = [](const VariableDecl &D) {
    return D.Space == ptx::StateSpace::Reg && D.VectorWidth != 1;
  };
  if (Others.empty() && none_of(F.Params, IsVectorReg) &&
      none_of(F.Returns, IsVectorReg))
    return Result; // no vector registers
  Registers = RegisterDecls(F);
  std::vector<ptx::Statement> Body;
  Body.reserve(Result.Body.size() + Result.Locals.size() - F.Locals.size());
  for (ptx::Statement &S : Result.Body) {
    Body.push_back(std::move(S));
    if (Body.back().Kind != ptx::Statement::Decl)
      continue;
    auto It = Others.find(Body.back().Index);
    if (It == Others.end())
      continue;
    ptx::Statement Decl = Body.back();
    for (unsigned Idx : It->second) {
      Decl.Index = Idx;
      Body.push_back(Decl);
    }
  }
  Result.Body = std::move(Body);
  for (ptx::Statement &S : Result.Body)
    if (S.Kind == ptx::Statement::Inst)
      rewriteOperands(S.Instr, Alloc, [this](const Operand &Op, bool &Changed) {
        return rewriteLeaf(Op, Changed);
      });
  return Result;
}

ptx::Function transforms::splitVectorRegisters(const ptx::Function &F,
                                               BumpPtrAllocator &Alloc) {
  if (!F.HasBody)
    return F;
  return VectorSplitter(F, Alloc).run();
}

SmallVector<std::string, 4>
transforms::getParamRegisters(const ptx::VariableDecl &P) {
  if (P.VectorWidth == 1)
    return {P.Name.str()};
  SmallVector<std::string, 4> Names;
  for (unsigned K = 0; K != P.VectorWidth; ++K)
    Names.push_back((P.Name + getSuffix(K)).str());
  return Names;
}
