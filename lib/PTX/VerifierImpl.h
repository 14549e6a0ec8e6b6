//===- VerifierImpl.h - Internals of the PTX verifier -----------*- C++ -*-===//
//
// The verifier walks a module once: module-scope names first (Verifier.cpp),
// then each function body in source order with a stack of block scopes
// (FunctionVerifier.cpp), checking each instruction's operands against the
// shapes in Opcodes.def and the type rules in TypeRules.h
// (InstructionVerifier.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_PTX_VERIFIERIMPL_H
#define PTXJIT_LIB_PTX_VERIFIERIMPL_H

#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/MatrixRules.h"
#include "ptxjit/PTX/ScopeStack.h"
#include "ptxjit/PTX/TypeRules.h"
#include "llvm/ADT/StringMap.h"
#include <vector>

namespace ptxjit {
namespace ptx {

/// Module-scope names: variables and functions share one namespace.
struct ModuleSymbols {
  /// The definition where there is one, else the first declaration.
  llvm::StringMap<const VariableDecl *> Variables;
  llvm::StringMap<const Function *> Functions;

  const VariableDecl *findVariable(llvm::StringRef Name) const {
    auto It = Variables.find(Name);
    return It == Variables.end() ? nullptr : It->second;
  }
  const Function *findFunction(llvm::StringRef Name) const {
    auto It = Functions.find(Name);
    return It == Functions.end() ? nullptr : It->second;
  }
};

/// What a name in an instruction refers to.
struct NameRef {
  enum KindTy : uint8_t {
    None,
    Register,   ///< a .reg variable (Type, VectorWidth)
    SpecialReg, ///< %tid, %laneid, ... (Type; VectorWidth 4 for %tid etc.)
    Variable,   ///< a variable in memory, whose address the name is
    Function,
    WarpSize, ///< the predefined constant WARP_SZ
  };
  KindTy Kind = None;
  ScalarType Type = ScalarType::None;
  uint8_t VectorWidth = 1;
  const VariableDecl *Decl = nullptr; ///< Register, Variable
  const ptx::Function *Func = nullptr;
};

/// Checks one function body.
class FunctionVerifier {
public:
  FunctionVerifier(const Module &M, const ModuleSymbols &Syms,
                   const Function &F, DiagnosticEngine &Diags)
      : M(M), Syms(Syms), F(F), Diags(Diags), Source(M.getSourceText()) {}
  void run();

private:
  // FunctionVerifier.cpp: names.
  void collectLabels();
  void checkBranchTargets(llvm::ArrayRef<llvm::StringRef> Targets);
  void declareLocal(const VariableDecl &D);
  void checkInitializer(const Initializer &Init);
  NameRef resolve(llvm::StringRef Name) const;
  const Statement *findLabel(llvm::StringRef Name) const;
  void reportUndefined(llvm::SMLoc Loc, llvm::StringRef Name);
  void reportUndefined(const Operand &Op) { reportUndefined(Op.Loc, Op.Name); }
  /// The type of the register Op names (with Special, also of a special
  /// register); None for literals and other operands.
  ScalarType getRegisterType(const Operand &Op, bool Special = false) const;
  /// An instruction Text breaking a rule of its family, at Loc.
  void reportRule(llvm::SMLoc Loc, llvm::StringRef Text,
                  const llvm::Twine &What) {
    Diags.report(Loc, DiagID::err_instruction_rule, Text, What.str());
  }
  /// Operand Idx of I (Text) is not What.
  void reportOperandKind(const Instruction &I, unsigned Idx,
                         llvm::StringRef Text, const llvm::Twine &What) {
    Diags.report(I.Operands[Idx].Loc, DiagID::err_operand_kind, Idx + 1, Text,
                 What.str());
  }
  void checkGuard(const Instruction &I);

  // InstructionVerifier.cpp: operands and types.
  struct InstCtx {
    const Instruction &I;
    llvm::StringRef Text; ///< the opcode as written: "ld.global.v2.f32"

    void kind(DiagnosticEngine &Diags, const Operand &Op, unsigned OpNo,
              const llvm::Twine &What) const {
      Diags.report(Op.Loc, DiagID::err_operand_kind, OpNo, Text, What.str());
    }
  };
  void verifyInstruction(const Instruction &I);
  void checkTypesAndModifiers(const InstCtx &C, bool CheckTypes);
  /// The carry-flag and .wide type rules; whether one reported.
  bool checkModifierTypes(const InstCtx &C);
  void verifyOperand(const InstCtx &C, unsigned Idx, char Letter);
  void checkScalar(const InstCtx &C, unsigned OpNo, const Operand &Op,
                   ScalarType Ty, bool IsDest, bool Relaxed,
                   bool AllowAddressOf);
  void checkVector(const InstCtx &C, unsigned OpNo, const Operand &Op,
                   ScalarType Ty, bool IsDest, bool Relaxed);
  /// The {x, y, ...} of a texture or surface address: as many as the
  /// geometry takes, of the coordinate type.
  void checkCoordinates(const InstCtx &C, unsigned OpNo, const Operand &Op);
  void checkPredPair(const InstCtx &C, unsigned OpNo, const Operand &Op,
                     ScalarType Ty);
  void checkAddress(const InstCtx &C, unsigned OpNo, const Operand &Op);
  void checkOpaqueAddress(const InstCtx &C, const Operand &Op,
                          const VariableDecl *Base);
  /// mma, wmma, ldmatrix, stmatrix and movmatrix (MatrixRules.h): the form
  /// of the suffixes, then the fragments and the other operands.
  void verifyMatrix(const InstCtx &C, llvm::StringRef Shape);
  /// mma.sp with a constant metadata: warns of a field the ISA leaves
  /// undefined.
  void checkSparseMetadata(const InstCtx &C, const MatrixForm &F);
  void checkLabelOperand(const InstCtx &C, unsigned OpNo, const Operand &Op);
  void checkNames(const Operand &Op);
  void verifyCall(const InstCtx &C);

  // VideoVerifier.cpp: selectors (%r1.b0, %r2.h10, %r3.b7654), vmad's
  // negated sources, and the forms of cvt.pack.
  /// Whether a shape has the video letters (v e h q k).
  static bool isVideoShape(llvm::StringRef Shape);
  /// The selector and '-' of operand Idx with shape letter Letter.
  void checkVideoOperand(const InstCtx &C, unsigned Idx, char Letter);
  /// Rules across the operands and modifiers of a video instruction.
  void checkVideoInstruction(const InstCtx &C);
  void checkCvtPack(const InstCtx &C);
  void checkCallParam(const InstCtx &C, unsigned OpNo, const Operand &Op,
                      bool IsReturn);
  void checkCallArity(const Operand &Callee, llvm::StringRef Name,
                      unsigned NumReturns, unsigned NumArgs,
                      const std::vector<VariableDecl> &Returns,
                      const std::vector<VariableDecl> &Params,
                      llvm::SMLoc DeclLoc);
  /// Return values and arguments have the sizes of what the callee
  /// declares (ptxas rejects others); the arity already matches.
  void checkCallSizes(llvm::ArrayRef<Operand> Ops, unsigned NumReturns,
                      llvm::StringRef Name,
                      const std::vector<VariableDecl> &Returns,
                      const std::vector<VariableDecl> &Params);

  // AsyncVerifier.cpp: what the operand shapes of the asynchronous copy,
  // mbarrier and cluster instructions cannot say (sizes that must be
  // literals, state spaces, operands whose type depends on a modifier).
  void checkAsyncRules(const Instruction &I, llvm::StringRef Text);
  // CacheVerifier.cpp: createpolicy, applypriority, discard,
  // prefetch.tensormap and the tensormap instructions.
  void checkCacheRules(const Instruction &I, llvm::StringRef Text);
  // MemoryVerifier.cpp: multimem and alloca.
  void checkMemoryRules(const Instruction &I, llvm::StringRef Text);

  const Module &M;
  const ModuleSymbols &Syms;
  const Function &F;
  DiagnosticEngine &Diags;
  /// M's text, where the opcodes as written are.
  llvm::StringRef Source;
  ScopeStack Scopes;
  /// Labels, .branchtargets and .callprototype names: function-wide.
  llvm::StringMap<const Statement *> Labels;
};

/// The index of I's cache policy operand (the last one, of a
/// .L2::cache_hint ld, st, red, atom or cp.async that has it;
/// CacheVerifier.cpp), or ~0u.
unsigned getCachePolicyOperand(const Instruction &I);

/// The location of a name that points into the source buffer.
inline llvm::SMLoc locOf(llvm::StringRef Name) {
  return llvm::SMLoc::getFromPointer(Name.data());
}

} // namespace ptx
} // namespace ptxjit

#endif
