//===- FunctionVerifier.cpp - Names in a PTX function body ----------------===//
//
// Labels are function-wide and may be used before they appear; registers and
// other local variables are visible from their declaration to the end of
// their `{ }` block.
//
//===----------------------------------------------------------------------===//

#include "VerifierImpl.h"
#include "ptxjit/PTX/SpecialRegisters.h"
#include "ptxjit/PTX/TextureRefs.h"

using namespace llvm;
using namespace ptxjit::ptx;

void FunctionVerifier::run() {
  collectLabels();

  // Parameters live in a scope of their own around the body.
  Scopes.push();
  for (const VariableDecl &P : F.Returns) {
    checkOpaqueDeclaration(P, false, false, Diags);
    declareLocal(P);
  }
  for (const VariableDecl &P : F.Params) {
    checkOpaqueDeclaration(P, false, F.IsEntry, Diags);
    declareLocal(P);
  }
  Scopes.push();
  for (const Statement &S : F.Body) {
    switch (S.Kind) {
    case Statement::ScopeBegin:
      Scopes.push();
      break;
    case Statement::ScopeEnd:
      Scopes.pop();
      break;
    case Statement::Decl:
      checkOpaqueDeclaration(F.Locals[S.Index], false, false, Diags);
      declareLocal(F.Locals[S.Index]);
      break;
    case Statement::Inst:
      verifyInstruction(S.Instr);
      break;
    case Statement::BranchTargets:
      checkBranchTargets(F.TargetLists[S.Index]);
      break;
    default:
      break;
    }
  }
}

void FunctionVerifier::collectLabels() {
  for (const Statement &S : F.Body) {
    if (S.Kind != Statement::Label && S.Kind != Statement::BranchTargets &&
        S.Kind != Statement::Prototype)
      continue;
    auto [It, Inserted] = Labels.try_emplace(S.Dir.Name, &S);
    if (!Inserted) {
      Diags.report(S.getLoc(), DiagID::err_redefinition, S.Dir.Name);
      Diags.report(It->second->getLoc(), DiagID::note_previous_definition);
    }
  }
}

void FunctionVerifier::checkBranchTargets(ArrayRef<StringRef> Targets) {
  for (StringRef Target : Targets) {
    const Statement *L = findLabel(Target);
    if (!L)
      Diags.report(locOf(Target), DiagID::err_undefined_label, Target);
    else if (L->Kind != Statement::Label)
      Diags.report(locOf(Target), DiagID::err_not_a_label, Target);
  }
}

void FunctionVerifier::declareLocal(const VariableDecl &D) {
  if (const VariableDecl *Prev = Scopes.declare(D)) {
    std::string Name = D.Name.str();
    if (D.IsRange)
      Name += "<" + std::to_string(D.RangeCount) + ">";
    Diags.report(D.Loc, DiagID::err_redefinition, Name);
    Diags.report(Prev->Loc, DiagID::note_previous_definition);
  }
  if (D.HasInitializer)
    checkInitializer(D.Init);
}

void FunctionVerifier::checkInitializer(const Initializer &Init) {
  if (Init.Kind == Initializer::List) {
    for (const Initializer &E : Init.Elements)
      checkInitializer(E);
    return;
  }
  if (Init.Kind != Initializer::Symbol && Init.Kind != Initializer::Generic)
    return;
  NameRef R = resolve(Init.Name);
  if (R.Kind != NameRef::Variable && R.Kind != NameRef::Function)
    Diags.report(Init.Loc, DiagID::err_undefined_symbol, Init.Name);
}

ScalarType FunctionVerifier::getRegisterType(const Operand &Op,
                                             bool Special) const {
  if (Op.Kind != Operand::Register && Op.Kind != Operand::Symbol)
    return ScalarType::None;
  NameRef R = resolve(Op.Name);
  return R.Kind == NameRef::Register ||
                 (Special && R.Kind == NameRef::SpecialReg)
             ? R.Type
             : ScalarType::None;
}

NameRef FunctionVerifier::resolve(StringRef Name) const {
  NameRef R;
  if (const VariableDecl *D = Scopes.lookup(Name)) {
    R.Decl = D;
    if (D->Space == StateSpace::Reg) {
      R.Kind = NameRef::Register;
      R.Type = D->Type;
      R.VectorWidth = D->VectorWidth;
    } else {
      R.Kind = NameRef::Variable;
    }
    return R;
  }
  if (Name.starts_with("%")) {
    if (auto S = lookupSpecialRegister(Name)) {
      R.Kind = NameRef::SpecialReg;
      R.Type = getSpecialRegisterType(S->Reg);
      R.VectorWidth = isVectorSpecialRegister(S->Reg) ? 4 : 1;
      return R;
    }
  }
  if (const VariableDecl *V = Syms.findVariable(Name)) {
    R.Kind = NameRef::Variable;
    R.Decl = V;
    return R;
  }
  if (const Function *Fn = Syms.findFunction(Name)) {
    R.Kind = NameRef::Function;
    R.Func = Fn;
    return R;
  }
  if (Name == "WARP_SZ")
    R.Kind = NameRef::WarpSize;
  return R;
}

const Statement *FunctionVerifier::findLabel(StringRef Name) const {
  auto It = Labels.find(Name);
  return It == Labels.end() ? nullptr : It->second;
}

void FunctionVerifier::reportUndefined(SMLoc Loc, StringRef Name) {
  Diags.report(Loc,
               Name.starts_with("%") ? DiagID::err_undefined_register
                                     : DiagID::err_undefined_symbol,
               Name);
}

void FunctionVerifier::checkGuard(const Instruction &I) {
  SMLoc Loc = locOf(I.GuardPredicate);
  NameRef R = resolve(I.GuardPredicate);
  if (R.Kind == NameRef::None) {
    Diags.report(Loc, DiagID::err_undefined_register, I.GuardPredicate);
    return;
  }
  if ((R.Kind == NameRef::Register || R.Kind == NameRef::SpecialReg) &&
      R.Type == ScalarType::Pred && R.VectorWidth == 1)
    return;
  Diags.report(Loc, DiagID::err_not_a_predicate, I.GuardPredicate);
  if (R.Decl)
    Diags.report(R.Decl->Loc, DiagID::note_declared_here);
}
