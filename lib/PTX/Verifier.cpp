//===- Verifier.cpp - Semantic checks of a PTX module ---------------------===//
//
// Module-scope names first: variables and functions share one namespace; a
// function may be declared any number of times and defined once, with one
// signature; an .extern variable may be declared before its definition.
// Module-scope names are visible everywhere in the module, in any order.
// Then each function body (FunctionVerifier.cpp); in a large module, on all
// cores, and again on one thread where anything was reported, so that the
// diagnostics come out in order.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/Verifier.h"
#include "VerifierImpl.h"
#include "ptxjit/PTX/Parser.h"
#include "ptxjit/PTX/TextureRefs.h"
#include "llvm/Support/Parallel.h"
#include <atomic>

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

class ModuleVerifier {
public:
  ModuleVerifier(const Module &M, DiagnosticEngine &Diags)
      : M(M), Diags(Diags) {}
  void run();

private:
  void declareVariable(const VariableDecl &V);
  void declareFunction(const Function &F);
  void checkInitializer(const Initializer &Init);
  /// Verifies the bodies on all cores; false where any reported anything.
  bool verifyBodiesInParallel();

  const Module &M;
  DiagnosticEngine &Diags;
  ModuleSymbols Syms;
};

} // namespace

/// Whether two declarations of a parameter (or variable) describe the same
/// storage; names and alignment may differ.
static bool sameShape(const VariableDecl &A, const VariableDecl &B) {
  return A.Space == B.Space && A.VectorWidth == B.VectorWidth &&
         A.Dims == B.Dims && typesAgree(A.Type, B.Type);
}

static bool sameSignature(const Function &A, const Function &B) {
  auto SameList = [](const std::vector<VariableDecl> &X,
                     const std::vector<VariableDecl> &Y) {
    if (X.size() != Y.size())
      return false;
    for (size_t I = 0; I != X.size(); ++I)
      if (!sameShape(X[I], Y[I]))
        return false;
    return true;
  };
  return A.IsEntry == B.IsEntry && SameList(A.Returns, B.Returns) &&
         SameList(A.Params, B.Params);
}

void ModuleVerifier::run() {
  for (const TopLevel &T : M.Order) {
    if (T.Kind == TopLevel::Variable)
      declareVariable(M.Globals[T.Index]);
    else if (T.Kind == TopLevel::Func)
      declareFunction(M.Functions[T.Index]);
  }
  for (const VariableDecl &V : M.Globals) {
    checkOpaqueDeclaration(V, /*AtModuleScope=*/true, false, Diags);
    if (V.HasInitializer && V.Opaque == OpaqueKind::None)
      checkInitializer(V.Init);
  }
  if (isParallelFrontEnd(M.getSourceText().size()) && verifyBodiesInParallel())
    return;
  for (const Function &F : M.Functions)
    if (F.HasBody)
      FunctionVerifier(M, Syms, F, Diags).run();
}

bool ModuleVerifier::verifyBodiesInParallel() {
  std::atomic<bool> Reported{false};
  parallelFor(0, M.Functions.size(), [&](size_t I) {
    const Function &F = M.Functions[I];
    if (!F.HasBody || Reported.load(std::memory_order_relaxed))
      return;
    DiagnosticEngine Quiet = DiagnosticEngine::counting(M.getSourceMgr());
    FunctionVerifier(M, Syms, F, Quiet).run();
    if (Quiet.getNumReported())
      Reported.store(true, std::memory_order_relaxed);
  });
  return !Reported;
}

void ModuleVerifier::declareVariable(const VariableDecl &V) {
  if (const Function *F = Syms.findFunction(V.Name)) {
    Diags.report(V.Loc, DiagID::err_redefinition, V.Name);
    Diags.report(locOf(F->Name), DiagID::note_previous_definition);
    return;
  }
  auto [It, Inserted] = Syms.Variables.try_emplace(V.Name, &V);
  if (Inserted)
    return;
  const VariableDecl &Prev = *It->second;
  bool PrevExtern = Prev.Link == Linkage::Extern;
  bool ThisExtern = V.Link == Linkage::Extern;
  if (!PrevExtern && !ThisExtern) {
    Diags.report(V.Loc, DiagID::err_redefinition, V.Name);
    Diags.report(Prev.Loc, DiagID::note_previous_definition);
    return;
  }
  // An array declared unsized ("[]") may be given its size later.
  bool Compatible = Prev.Space == V.Space && Prev.Type == V.Type &&
                    Prev.VectorWidth == V.VectorWidth &&
                    Prev.Dims.size() == V.Dims.size();
  for (size_t I = 0; Compatible && I != V.Dims.size(); ++I)
    Compatible = Prev.Dims[I] == V.Dims[I] || !Prev.Dims[I] || !V.Dims[I];
  if (!Compatible) {
    Diags.report(V.Loc, DiagID::err_conflicting_declaration, V.Name);
    Diags.report(Prev.Loc, PrevExtern ? DiagID::note_previous_declaration
                                      : DiagID::note_previous_definition);
    return;
  }
  if (PrevExtern && !ThisExtern)
    It->second = &V; // the definition stands for the name
}

void ModuleVerifier::declareFunction(const Function &F) {
  SMLoc Loc = locOf(F.Name);
  if (const VariableDecl *V = Syms.findVariable(F.Name)) {
    Diags.report(Loc, DiagID::err_redefinition, F.Name);
    Diags.report(V->Loc, DiagID::note_previous_definition);
    return;
  }
  auto [It, Inserted] = Syms.Functions.try_emplace(F.Name, &F);
  if (Inserted)
    return;
  const Function &Prev = *It->second;
  if (Prev.HasBody && F.HasBody) {
    Diags.report(Loc, DiagID::err_redefinition, F.Name);
    Diags.report(locOf(Prev.Name), DiagID::note_previous_definition);
    return;
  }
  if (!sameSignature(Prev, F)) {
    Diags.report(Loc, DiagID::err_conflicting_declaration, F.Name);
    Diags.report(locOf(Prev.Name), Prev.HasBody
                                       ? DiagID::note_previous_definition
                                       : DiagID::note_previous_declaration);
    return;
  }
  if (F.HasBody)
    It->second = &F;
}

void ModuleVerifier::checkInitializer(const Initializer &Init) {
  if (Init.Kind == Initializer::List) {
    for (const Initializer &E : Init.Elements)
      checkInitializer(E);
    return;
  }
  if ((Init.Kind == Initializer::Symbol || Init.Kind == Initializer::Generic) &&
      !Syms.findVariable(Init.Name) && !Syms.findFunction(Init.Name))
    Diags.report(Init.Loc, DiagID::err_undefined_symbol, Init.Name);
}

bool ptxjit::ptx::verifyModule(const Module &M, DiagnosticEngine &Diags) {
  unsigned Before = Diags.getNumErrors();
  ModuleVerifier(M, Diags).run();
  return Diags.getNumErrors() == Before;
}
