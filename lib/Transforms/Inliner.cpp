//===- Inliner.cpp - Inlining PTX device-function calls -------------------===//
//
// An inlined call `@%g call (%res), f, (%r1);` becomes
//
//   {                               // a block scope of its own
//     .reg .b32 f.3.%ret;           // f's .reg parameters and returns, and
//     .param .b32 f.3.x;            // .param ones that need storage
//     @!%g bra f.3:skip;            // a guarded call
//     st.param.b32 [f.3.x], %r1;    // arguments that are not .param variables
//     <f's body, renamed; ret becomes bra f.3:return>
//   f.3:return:
//     mov.b32 %res, f.3.%ret;       // .reg returns, and returns into registers
//   f.3:skip:
//   }
//
// A .param parameter or return whose argument is a .param variable of the
// caller is that variable inside the body: a callee sees its caller's
// storage, writes included.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Transforms/Inliner.h"
#include "Operands.h"
#include "RegisterDecls.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include <optional>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Opcode;
using ptx::Operand;
using ptx::ScalarType;
using ptx::Statement;
using ptx::StateSpace;
using ptx::VariableDecl;

/// Instructions a function may grow to by inlining; calls beyond stay calls.
static constexpr uint64_t MaxInstructions = 20000;

/// Variables that are .local or .param (the ones FunctionLowering scopes).
static bool isScoped(StateSpace S) {
  return S == StateSpace::Local || S == StateSpace::Param;
}

/// Storage an instance gets its own copy of; other declarations in a body
/// (.shared) name module-level storage, found by name.
static bool isPerInstance(StateSpace S) {
  return S == StateSpace::Reg || isScoped(S);
}

template <typename Fn> static void forEachName(const Operand &Op, Fn F) {
  switch (Op.Kind) {
  case Operand::Register:
  case Operand::Symbol:
  case Operand::Address:
    if (!Op.Name.empty())
      F(Op.Name);
    break;
  default:
    break;
  }
  for (const Operand &E : Op.Elements)
    forEachName(E, F);
}

static bool isScalarDecl(const VariableDecl &V) {
  return V.VectorWidth == 1 && V.Dims.empty() && !V.IsRange;
}

namespace {

/// Registers, variables and labels a function declares: what each inlined
/// instance of it renames. %r<N> declares every %r followed by digits.
class DeclaredNames {
public:
  void add(StringRef Name) { Plain.insert(Name); }
  void addRange(StringRef Prefix) { RangePrefixes.insert(Prefix); }
  bool contains(StringRef Name) const {
    // A range's own name counts: it is renamed with its registers.
    if (Plain.contains(Name) || RangePrefixes.contains(Name))
      return true;
    for (size_t K = Name.size(); K && isDigit(Name[K - 1]); --K)
      if (RangePrefixes.contains(Name.take_front(K - 1)))
        return true;
    return false;
  }

private:
  StringSet<> Plain, RangePrefixes;
};

/// Facts about a function body the inliner needs at every call of it.
struct FunctionSummary {
  DeclaredNames Locals;
  /// Names the body uses but does not declare (globals, functions, .shared
  /// variables, special registers): they must mean the same in the caller.
  StringSet<> Free;
  /// Functions it calls directly.
  SmallVector<const ptx::Function *, 4> Callees;
};

/// How one parameter or return of an inlined callee is bound to the
/// caller's operand.
struct Binding {
  const VariableDecl *Decl; ///< the callee's parameter or return
  const Operand *Arg;       ///< the caller's operand
  bool IsReturn = false;
  /// The caller's .param variable is the parameter: no storage, no copy.
  bool Alias = false;
  /// The copy in (parameters) or out (returns): mov, ld.param or st.param.
  Opcode CopyOp = Opcode::Mov;
  ScalarType CopyType = ScalarType::None;
  /// A .reg .v2/.v4 parameter or return: a mov of the whole vector.
  uint8_t CopyWidth = 1;
};

class Inliner {
public:
  Inliner(const ptx::Module &M, const ptx::Function &F, BumpPtrAllocator &Alloc)
      : M(M), F(F), Alloc(Alloc) {}

  ptx::Function run();

private:
  /// How names of the function whose statements are emitted map to names
  /// of the result. The function being inlined into keeps its names.
  struct Renaming {
    const ptx::Function *Src = nullptr;
    const FunctionSummary *Summary = nullptr; ///< null: keep names
    std::string Tag;                          ///< "f.3."
    StringMap<StringRef> Names;               ///< renamed, or aliases
    std::vector<unsigned> LocalIndex;         ///< Src Locals -> result's
    StringRef ReturnLabel;

    bool keepsNames() const { return !Summary; }
  };

  struct Variable {
    StateSpace Space;
    bool HasStorage; ///< lane-major storage a call can pass on
  };

  const FunctionSummary &getSummary(const ptx::Function &G);
  const ptx::Function *getDirectCallee(const ptx::Instruction &I,
                                       const DeclaredNames &Locals) const;
  bool reachesItself(const ptx::Function &G);
  bool isInlinable(const ptx::Function &G);
  uint64_t getInlinedSize(const ptx::Function &G);

  StringRef save(const Twine &T);
  template <typename T> ArrayRef<T> copyArray(ArrayRef<T> A);
  StringRef rename(Renaming &R, StringRef Name);
  Operand renameOperand(Renaming &R, const Operand &Op);

  const Variable *findVariable(StringRef Name) const;
  std::optional<Binding> bind(const VariableDecl &P, const Operand &A,
                              bool IsReturn) const;

  void emit(Statement S) { Result.Body.push_back(std::move(S)); }
  void emitInst(ptx::Instruction I);
  void emitLabel(StringRef Name, SMLoc Loc);
  void emitStatement(Renaming &R, const Statement &S, unsigned Depth);
  void emitCopy(const Binding &B, StringRef Local, SMLoc Loc);
  bool tryInline(const ptx::Instruction &Call, unsigned Depth);
  void emitInstance(const ptx::Instruction &Call, const ptx::Function &G,
                    ArrayRef<Binding> Bindings, unsigned Depth);

  const ptx::Module &M;
  const ptx::Function &F;
  BumpPtrAllocator &Alloc;
  ptx::Function Result;

  DenseMap<const ptx::Function *, std::unique_ptr<FunctionSummary>> Summaries;
  DenseMap<const ptx::Function *, bool> Recursive;
  DenseMap<const ptx::Function *, uint64_t> InlinedSizes;

  /// Names F declares: a callee's free names must not be among them.
  const FunctionSummary *TopSummary = nullptr;
  RegisterDecls Registers;
  /// .local and .param variables by block scope, as FunctionLowering sees
  /// them: [0] the parameters, [1] the body, then nested blocks.
  std::vector<StringMap<Variable>> Scopes;
  uint64_t Budget = 0;
  unsigned NextInstance = 0;
};

} // namespace

const FunctionSummary &Inliner::getSummary(const ptx::Function &G) {
  std::unique_ptr<FunctionSummary> &Slot = Summaries[&G];
  if (Slot)
    return *Slot;
  auto S = std::make_unique<FunctionSummary>();
  for (const VariableDecl &V : G.Locals) {
    if (!isPerInstance(V.Space))
      S->Free.insert(V.Name);
    else if (V.IsRange)
      S->Locals.addRange(V.Name);
    else
      S->Locals.add(V.Name);
  }
  for (const VariableDecl &V : G.Params)
    S->Locals.add(V.Name);
  for (const VariableDecl &V : G.Returns)
    S->Locals.add(V.Name);
  for (const Statement &St : G.Body)
    if (St.Kind == Statement::Label || St.Kind == Statement::BranchTargets ||
        St.Kind == Statement::Prototype)
      S->Locals.add(St.Dir.Name);
  for (const Statement &St : G.Body) {
    if (St.Kind != Statement::Inst)
      continue;
    const ptx::Instruction &I = St.Instr;
    auto AddFree = [&](StringRef Name) {
      if (!S->Locals.contains(Name))
        S->Free.insert(Name);
    };
    if (!I.GuardPredicate.empty())
      AddFree(I.GuardPredicate);
    for (const Operand &Op : I.Operands)
      forEachName(Op, AddFree);
    if (const ptx::Function *Callee = getDirectCallee(I, S->Locals))
      if (!is_contained(S->Callees, Callee))
        S->Callees.push_back(Callee);
  }
  Slot = std::move(S);
  return *Slot;
}

const ptx::Function *
Inliner::getDirectCallee(const ptx::Instruction &I,
                         const DeclaredNames &Locals) const {
  if (I.Op != Opcode::Call || I.Operands.size() <= I.NumCallReturns)
    return nullptr;
  const Operand &Callee = I.Operands[I.NumCallReturns];
  // A name the function declares is a register holding an address.
  if (Callee.Kind != Operand::Symbol || Locals.contains(Callee.Name))
    return nullptr;
  return M.findFunction(Callee.Name);
}

bool Inliner::reachesItself(const ptx::Function &G) {
  auto It = Recursive.find(&G);
  if (It != Recursive.end())
    return It->second;
  bool Reaches = false;
  SmallPtrSet<const ptx::Function *, 16> Seen;
  SmallVector<const ptx::Function *, 16> Work(
      ArrayRef<const ptx::Function *>(getSummary(G).Callees));
  while (!Work.empty() && !Reaches) {
    const ptx::Function *H = Work.pop_back_val();
    Reaches = H == &G;
    if (Seen.insert(H).second)
      append_range(Work, getSummary(*H).Callees);
  }
  Recursive[&G] = Reaches;
  return Reaches;
}

bool Inliner::isInlinable(const ptx::Function &G) {
  return G.HasBody && !G.IsEntry && !reachesItself(G);
}

uint64_t Inliner::getInlinedSize(const ptx::Function &G) {
  auto It = InlinedSizes.find(&G);
  if (It != InlinedSizes.end())
    return It->second;
  // Inlinable callees cannot reach G, so this recursion ends.
  const FunctionSummary &S = getSummary(G);
  uint64_t Size = 0;
  for (const Statement &St : G.Body) {
    if (St.Kind != Statement::Inst)
      continue;
    ++Size;
    const ptx::Function *H = getDirectCallee(St.Instr, S.Locals);
    if (H && isInlinable(*H))
      Size += getInlinedSize(*H) + H->Params.size() + H->Returns.size() + 2;
    // Enough to refuse; no overflow however deep the nesting.
    Size = std::min(Size, 2 * MaxInstructions);
  }
  InlinedSizes[&G] = Size;
  return Size;
}

StringRef Inliner::save(const Twine &T) { return saveName(Alloc, T); }

template <typename T> ArrayRef<T> Inliner::copyArray(ArrayRef<T> A) {
  return ptx::copyArray(Alloc, A);
}

StringRef Inliner::rename(Renaming &R, StringRef Name) {
  if (R.keepsNames())
    return Name;
  auto It = R.Names.find(Name);
  if (It != R.Names.end())
    return It->second;
  if (!R.Summary->Locals.contains(Name))
    return Name;
  StringRef New = save(R.Tag + Name);
  R.Names[Name] = New;
  return New;
}

Operand Inliner::renameOperand(Renaming &R, const Operand &Op) {
  Operand New = Op;
  if (!Op.Elements.empty()) {
    SmallVector<Operand, 4> Elements;
    for (const Operand &E : Op.Elements)
      Elements.push_back(renameOperand(R, E));
    New.Elements = ptx::OperandList::create(Alloc, Elements);
  }
  if ((Op.Kind == Operand::Register || Op.Kind == Operand::Symbol ||
       Op.Kind == Operand::Address) &&
      !Op.Name.empty())
    New.Name = rename(R, Op.Name);
  return New;
}

const Inliner::Variable *Inliner::findVariable(StringRef Name) const {
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    auto V = It->find(Name);
    if (V != It->end())
      return &V->second;
  }
  return nullptr;
}

std::optional<Binding> Inliner::bind(const VariableDecl &P, const Operand &A,
                                     bool IsReturn) const {
  Binding B;
  B.Decl = &P;
  B.Arg = &A;
  B.IsReturn = IsReturn;
  // What the caller passes, as FunctionLowering::getCallSlots sees it.
  enum { ParamVariable, Register, Value } Kind;
  std::optional<ScalarType> RegType;
  unsigned RegWidth = 1;
  switch (A.Kind) {
  case Operand::IntImm:
  case Operand::FloatImm:
  case Operand::DoubleImm:
    Kind = Value;
    break;
  case Operand::Register:
  case Operand::Symbol:
    if (A.Negated)
      return std::nullopt;
    if (const Variable *V = findVariable(A.Name)) {
      // Kernel parameters and .local variables cannot be passed.
      if (V->Space != StateSpace::Param || !V->HasStorage || A.Value)
        return std::nullopt;
      Kind = ParamVariable;
    } else if (std::optional<RegisterDecls::Found> R = Registers.find(A.Name)) {
      if (A.Component)
        return std::nullopt;
      RegType = R->Type;
      RegWidth = R->VectorWidth;
      Kind = Register;
    } else {
      // A special register, or the address of a global, .shared variable
      // or function.
      Kind = Value;
    }
    break;
  default:
    return std::nullopt;
  }
  if (IsReturn && Kind == Value)
    return std::nullopt;
  bool Pred = P.Type == ScalarType::Pred;

  if (P.Space == StateSpace::Param) {
    if (Kind == ParamVariable) {
      B.Alias = true;
      return B;
    }
    // A fresh .param variable, stored before the body or loaded after it.
    // Values are typed as the parameter when it is a scalar, else as the
    // register passed (a .b64 register for a .b8 p[8]).
    B.CopyOp = IsReturn ? Opcode::Ld : Opcode::St;
    if (isScalarDecl(P) && !Pred)
      B.CopyType = P.Type;
    else if (Kind == Register && *RegType != ScalarType::Pred &&
             ptx::getBitWidth(*RegType) / 8 <= P.getSizeInBytes())
      B.CopyType = *RegType;
    else
      return std::nullopt;
    return B;
  }
  if (P.Space != StateSpace::Reg)
    return std::nullopt;
  // A .reg .v2/.v4 parameter or return: a vector register of the instance,
  // copied from or to a vector register of the same shape.
  if (P.VectorWidth > 1 && P.Dims.empty() && !P.IsRange) {
    if (Kind != Register || RegWidth != P.VectorWidth || Pred)
      return std::nullopt;
    B.CopyType = P.Type;
    B.CopyWidth = P.VectorWidth;
    return B;
  }
  if (!isScalarDecl(P))
    return std::nullopt;
  // A .reg parameter or return: a register of the instance, copied in or
  // out; from or to a .param variable through its storage.
  B.CopyType = P.Type;
  if (Kind == ParamVariable) {
    if (Pred)
      return std::nullopt;
    B.CopyOp = IsReturn ? Opcode::St : Opcode::Ld;
  }
  return B;
}

void Inliner::emitInst(ptx::Instruction I) {
  Statement S;
  S.Instr = I;
  emit(std::move(S));
}

void Inliner::emitLabel(StringRef Name, SMLoc Loc) {
  Statement S(Statement::Label);
  S.setLoc(Loc);
  S.Dir.Name = Name;
  emit(std::move(S));
}

void Inliner::emitCopy(const Binding &B, StringRef Local, SMLoc Loc) {
  using SK = ptx::Instruction::SuffixKind;
  ptx::Instruction I;
  I.Op = B.CopyOp;
  I.Loc = Loc;
  I.Types = ptx::PackedArrayRef<ScalarType>::create(Alloc, B.CopyType);
  Operand Caller = *B.Arg;
  Operand Mine = Operand::named(
      B.Decl->Space == StateSpace::Param ? Operand::Address : Operand::Register,
      Local, Loc);
  if (B.CopyOp == Opcode::Mov && B.CopyWidth > 1) {
    I.VectorWidth = B.CopyWidth;
    I.SuffixOrder = ptx::PackedArrayRef<SK>::create(
        Alloc, {ptx::Instruction::SKVector, ptx::Instruction::SKType});
    Operand Ops[2] = {B.IsReturn ? Caller : Mine, B.IsReturn ? Mine : Caller};
    I.Operands = copyArray(ArrayRef<Operand>(Ops));
  } else if (B.CopyOp == Opcode::Mov) {
    I.SuffixOrder =
        ptx::PackedArrayRef<SK>::create(Alloc, ptx::Instruction::SKType);
    Operand Ops[2] = {B.IsReturn ? Caller : Mine, B.IsReturn ? Mine : Caller};
    I.Operands = copyArray(ArrayRef<Operand>(Ops));
  } else {
    // Whichever side is a .param variable is the address.
    if (B.Decl->Space == StateSpace::Reg)
      Caller = Operand::named(Operand::Address, B.Arg->Name, B.Arg->Loc);
    I.Space = StateSpace::Param;
    I.SuffixOrder = ptx::PackedArrayRef<SK>::create(
        Alloc, {ptx::Instruction::SKSpace, ptx::Instruction::SKType});
    bool ToCaller = B.IsReturn;
    const Operand &Dst = ToCaller ? Caller : Mine;
    const Operand &Src = ToCaller ? Mine : Caller;
    // ld: destination register, address; st: address, value.
    I.Operands = copyArray(ArrayRef<Operand>({Dst, Src}));
  }
  emitInst(std::move(I));
}

bool Inliner::tryInline(const ptx::Instruction &Call, unsigned Depth) {
  unsigned NRet = Call.NumCallReturns, NArg = Call.NumCallArgs;
  if (Call.Operands.size() < NRet + 1 + NArg)
    return false;
  // Direct as FunctionLowering::lowerCall decides it.
  const Operand &CalleeOp = Call.Operands[NRet];
  if (CalleeOp.Kind != Operand::Symbol || Registers.lookup(CalleeOp.Name))
    return false;
  const ptx::Function *G = M.findFunction(CalleeOp.Name);
  if (!G || !isInlinable(*G) || G->Returns.size() != NRet ||
      G->Params.size() != NArg)
    return false;
  // Names the callee does not declare resolve in the caller's scopes after
  // inlining, so they must not be names the caller declares.
  for (const auto &Name : getSummary(*G).Free)
    if (TopSummary->Locals.contains(Name.getKey()))
      return false;
  SmallVector<Binding, 8> Bindings;
  for (unsigned K = 0; K != NRet + NArg; ++K) {
    bool IsReturn = K < NRet;
    std::optional<Binding> B =
        bind(IsReturn ? G->Returns[K] : G->Params[K - NRet],
             Call.Operands[IsReturn ? K : K + 1], IsReturn);
    if (!B)
      return false;
    Bindings.push_back(*B);
  }
  // Callees of an inlined body were counted with it.
  if (Depth == 0) {
    uint64_t Size = getInlinedSize(*G) + NRet + NArg + 2;
    if (Size > Budget)
      return false;
    Budget -= Size;
  }
  emitInstance(Call, *G, Bindings, Depth);
  return true;
}

void Inliner::emitInstance(const ptx::Instruction &Call, const ptx::Function &G,
                           ArrayRef<Binding> Bindings, unsigned Depth) {
  Renaming R;
  R.Src = &G;
  R.Summary = &getSummary(G);
  unsigned N = NextInstance++;
  R.Tag = (G.Name + "." + Twine(N) + ".").str();
  // ':' is in no PTX identifier, so these cannot meet a renamed label.
  R.ReturnLabel = save(G.Name + "." + Twine(N) + ":return");
  StringRef SkipLabel;
  if (!Call.GuardPredicate.empty())
    SkipLabel = save(G.Name + "." + Twine(N) + ":skip");
  for (const Binding &B : Bindings)
    if (B.Alias)
      R.Names[B.Decl->Name] = B.Arg->Name;
  SMLoc Loc = Call.Loc;

  Statement Begin(Statement::ScopeBegin);
  Begin.setLoc(Loc);
  emit(Begin);
  Scopes.emplace_back();

  // The callee's declarations, all of them (registers are function-wide).
  R.LocalIndex.assign(G.Locals.size(), ~0u);
  for (size_t K = 0; K != G.Locals.size(); ++K) {
    const VariableDecl &V = G.Locals[K];
    if (!isPerInstance(V.Space))
      continue;
    VariableDecl New = V;
    New.Name = rename(R, V.Name);
    Registers.add(New);
    R.LocalIndex[K] = Result.Locals.size();
    Result.Locals.push_back(std::move(New));
  }
  SmallVector<StringRef, 8> Locals;
  for (const Binding &B : Bindings) {
    Locals.push_back(rename(R, B.Decl->Name));
    if (B.Alias)
      continue;
    VariableDecl V = *B.Decl;
    V.Name = Locals.back();
    V.Link = ptx::Linkage::None;
    V.IsPtr = false;
    V.ContinuesPrevious = false;
    Registers.add(V);
    if (isScoped(V.Space))
      Scopes.back()[V.Name] = {V.Space, true};
    Statement D(Statement::Decl);
    D.setLoc(Loc);
    D.Index = Result.Locals.size();
    Result.Locals.push_back(std::move(V));
    emit(std::move(D));
  }

  if (!SkipLabel.empty()) {
    ptx::Instruction Skip;
    Skip.Op = Opcode::Bra;
    Skip.Loc = Loc;
    Skip.GuardPredicate = Call.GuardPredicate;
    Skip.GuardNegated = !Call.GuardNegated;
    Skip.Operands = copyArray(
        ArrayRef<Operand>(Operand::named(Operand::Symbol, SkipLabel, Loc)));
    emitInst(std::move(Skip));
  }
  for (size_t K = 0; K != Bindings.size(); ++K)
    if (!Bindings[K].IsReturn && !Bindings[K].Alias)
      emitCopy(Bindings[K], Locals[K], Loc);
  for (const Statement &S : G.Body)
    emitStatement(R, S, Depth + 1);
  emitLabel(R.ReturnLabel, Loc);
  for (size_t K = 0; K != Bindings.size(); ++K)
    if (Bindings[K].IsReturn && !Bindings[K].Alias)
      emitCopy(Bindings[K], Locals[K], Loc);
  if (!SkipLabel.empty())
    emitLabel(SkipLabel, Loc);

  Scopes.pop_back();
  Statement End(Statement::ScopeEnd);
  End.setLoc(Loc);
  emit(End);
}

void Inliner::emitStatement(Renaming &R, const Statement &S, unsigned Depth) {
  Statement Out = S;
  switch (S.Kind) {
  case Statement::Inst: {
    ptx::Instruction &I = Out.Instr;
    if (!R.keepsNames()) {
      Operand *Mem = Alloc.Allocate<Operand>(I.Operands.size());
      for (size_t K = 0; K != I.Operands.size(); ++K)
        new (&Mem[K]) Operand(renameOperand(R, I.Operands[K]));
      I.Operands = ArrayRef<Operand>(Mem, I.Operands.size());
      if (!I.GuardPredicate.empty())
        I.GuardPredicate = rename(R, I.GuardPredicate);
      if (I.Op == Opcode::Ret) {
        // Returning is leaving the inlined body; the guard stays.
        I.Op = Opcode::Bra;
        I.Modifiers = {};
        I.Types = {};
        I.SuffixOrder = {};
        I.Operands = copyArray(ArrayRef<Operand>(
            Operand::named(Operand::Symbol, R.ReturnLabel, I.Loc)));
      }
    }
    if (I.Op == Opcode::Call && tryInline(I, Depth))
      return;
    break;
  }
  case Statement::Label:
    Out.Dir.Name = rename(R, S.Dir.Name);
    break;
  case Statement::Decl: {
    unsigned Index = R.keepsNames() ? S.Index : R.LocalIndex[S.Index];
    if (Index == ~0u)
      return; // .shared: module-level storage, found by its name
    Out.Index = Index;
    const VariableDecl &V = Result.Locals[Index];
    if (isScoped(V.Space))
      Scopes.back()[V.Name] = {V.Space, true};
    break;
  }
  case Statement::ScopeBegin:
    Scopes.emplace_back();
    break;
  case Statement::ScopeEnd:
    if (Scopes.size() > 2)
      Scopes.pop_back();
    break;
  case Statement::BranchTargets:
    Out.Dir.Name = rename(R, S.Dir.Name);
    if (!R.keepsNames()) {
      SmallVector<StringRef, 4> Targets;
      for (StringRef L : R.Src->TargetLists[S.Index])
        Targets.push_back(rename(R, L));
      Out.Index = Result.TargetLists.size();
      Result.TargetLists.push_back(std::move(Targets));
    }
    break;
  case Statement::Prototype:
    Out.Dir.Name = rename(R, S.Dir.Name);
    if (!R.keepsNames()) {
      Out.Index = Result.Prototypes.size();
      Result.Prototypes.push_back(R.Src->Prototypes[S.Index]);
    }
    break;
  case Statement::Pragma:
  case Statement::Loc:
    break;
  }
  emit(std::move(Out));
}

ptx::Function Inliner::run() {
  Result = F;
  if (!F.HasBody || none_of(F.Body, [](const Statement &S) {
        return S.Kind == Statement::Inst && S.Instr.Op == Opcode::Call;
      }))
    return std::move(Result);
  Result.Body.clear();
  Result.Body.reserve(F.Body.size());
  TopSummary = &getSummary(F);

  uint64_t Size = count_if(
      F.Body, [](const Statement &S) { return S.Kind == Statement::Inst; });
  Budget = MaxInstructions > Size ? MaxInstructions - Size : 0;
  for (const VariableDecl &V : F.Locals)
    Registers.add(V);
  for (const VariableDecl &V : F.Params)
    Registers.add(V);
  for (const VariableDecl &V : F.Returns)
    Registers.add(V);
  // A device function's .param parameters are its caller's storage, which
  // it can pass on; a kernel's are not.
  Scopes.resize(2);
  for (const VariableDecl &V : F.Params)
    if (V.Space == StateSpace::Param)
      Scopes[0][V.Name] = {StateSpace::Param, !F.IsEntry};
  for (const VariableDecl &V : F.Returns)
    if (V.Space == StateSpace::Param)
      Scopes[0][V.Name] = {StateSpace::Param, true};

  Renaming Top;
  Top.Src = &F;
  for (const Statement &S : F.Body)
    emitStatement(Top, S, 0);
  return std::move(Result);
}

ptx::Function transforms::inlineCalls(const ptx::Module &M,
                                      const ptx::Function &F,
                                      BumpPtrAllocator &Alloc) {
  return Inliner(M, F, Alloc).run();
}
