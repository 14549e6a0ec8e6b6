//===- ASTEquivalence.cpp - Comparing PTX syntax trees --------------------===//
//
// Every comparison returns false on the first difference and leaves a
// message; each enclosing level prefixes where it was, so the final message
// reads as a path from the module down to the field.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/ASTEquivalence.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/Parser.h"
#include "ptxjit/PTX/Printer.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <type_traits>

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

template <typename T> std::string show(const T &V) {
  if constexpr (std::is_enum_v<T>)
    return std::to_string(static_cast<uint64_t>(V));
  else if constexpr (std::is_same_v<T, bool>)
    return V ? "true" : "false";
  else if constexpr (std::is_integral_v<T>)
    return std::to_string(V);
  else if constexpr (std::is_same_v<T, VideoSelector>) {
    std::string S;
    raw_string_ostream OS(S);
    V.print(OS);
    return "'" + S + "'";
  } else
    return ("'" + Twine(StringRef(V)) + "'").str();
}

class Comparer {
public:
  explicit Comparer(const Module &A) : ModuleA(&A) {}
  std::string Diff;

  bool compare(const Module &A, const Module &B);

private:
  const Module *ModuleA;

  bool fail(const Twine &What) {
    Diff = What.str();
    return false;
  }
  /// Prefixes the message of a failed comparison with where it happened.
  bool within(const Twine &Where, bool OK) {
    if (!OK)
      Diff = (Where + ": " + Diff).str();
    return OK;
  }
  template <typename T> bool field(const char *Name, const T &A, const T &B) {
    if (A == B)
      return true;
    return fail(Twine(Name) + ": " + show(A) + " vs " + show(B));
  }
  template <typename T, typename Fn>
  bool list(const char *Name, ArrayRef<T> A, ArrayRef<T> B, Fn Cmp) {
    if (A.size() != B.size())
      return fail(Twine(Name ? Name : "size") + ": " + Twine(A.size()) +
                  " vs " + Twine(B.size()) + " entries");
    for (size_t I = 0, E = A.size(); I != E; ++I) {
      if (Cmp(A[I], B[I]))
        continue;
      // Functions and declarations name themselves; others get an index.
      if (Name)
        within(Twine(Name) + "[" + Twine(I) + "]", false);
      return false;
    }
    return true;
  }
  template <typename T>
  bool values(const char *Name, ArrayRef<T> A, ArrayRef<T> B) {
    return list(Name, A, B,
                [&](const T &X, const T &Y) { return field("value", X, Y); });
  }

  bool compare(const Operand &A, const Operand &B);
  bool compare(const Instruction &A, const Instruction &B);
  bool compare(const Initializer &A, const Initializer &B);
  bool compare(const VariableDecl &A, const VariableDecl &B);
  bool compare(const CallPrototype &A, const CallPrototype &B);
  bool compare(const Statement &A, const Statement &B);
  bool compare(const Function &A, const Function &B);
  bool compare(const FileDirective &A, const FileDirective &B);
  bool compare(const TopLevel &A, const TopLevel &B);
  bool compareBodies(ArrayRef<Statement> A, ArrayRef<Statement> B);

  template <typename T> auto cmp() {
    return [this](const T &X, const T &Y) { return compare(X, Y); };
  }
};

} // namespace

bool Comparer::compare(const Operand &A, const Operand &B) {
  return field("Kind", A.Kind, B.Kind) &&
         field("Negated", A.Negated, B.Negated) &&
         field("BaseIsRegister", A.BaseIsRegister, B.BaseIsRegister) &&
         field("Component", A.Component, B.Component) &&
         field("InAddress", A.InAddress, B.InAddress) &&
         field("Minus", A.Minus, B.Minus) &&
         field("Selector", A.Selector, B.Selector) &&
         field("Name", A.Name, B.Name) &&
         field("Sampler", A.getSampler(), B.getSampler()) &&
         field("Value", A.Value, B.Value) &&
         list("Elements", ArrayRef<Operand>(A.Elements),
              ArrayRef<Operand>(B.Elements), cmp<Operand>());
}

bool Comparer::compare(const Instruction &A, const Instruction &B) {
  return field("Op", A.Op, B.Op) &&
         field("GuardPredicate", A.GuardPredicate, B.GuardPredicate) &&
         field("GuardNegated", A.GuardNegated, B.GuardNegated) &&
         field("VectorWidth", A.VectorWidth, B.VectorWidth) &&
         field("Space", A.Space, B.Space) &&
         field("Space2", A.Space2, B.Space2) &&
         values<ScalarType>("Types", A.Types, B.Types) &&
         values<Modifier>("Modifiers", A.Modifiers, B.Modifiers) &&
         values<Instruction::SuffixKind>("SuffixOrder", A.SuffixOrder,
                                         B.SuffixOrder) &&
         field("NumCallReturns", A.NumCallReturns, B.NumCallReturns) &&
         field("NumCallArgs", A.NumCallArgs, B.NumCallArgs) &&
         field("HasCallPrototype", A.HasCallPrototype, B.HasCallPrototype) &&
         list("operand", A.Operands, B.Operands, cmp<Operand>());
}

bool Comparer::compare(const Initializer &A, const Initializer &B) {
  return field("Kind", A.Kind, B.Kind) && field("Value", A.Value, B.Value) &&
         field("Name", A.Name, B.Name) &&
         list("Elements", ArrayRef(A.Elements), ArrayRef(B.Elements),
              cmp<Initializer>());
}

bool Comparer::compare(const VariableDecl &A, const VariableDecl &B) {
  return within(
      "declaration of " + show(A.Name),
      field("Name", A.Name, B.Name) && field("Space", A.Space, B.Space) &&
          field("Link", A.Link, B.Link) && field("Type", A.Type, B.Type) &&
          field("VectorWidth", A.VectorWidth, B.VectorWidth) &&
          field("Align", A.Align, B.Align) &&
          values("Dims", ArrayRef(A.Dims), ArrayRef(B.Dims)) &&
          field("IsRange", A.IsRange, B.IsRange) &&
          field("RangeCount", A.RangeCount, B.RangeCount) &&
          field("IsPtr", A.IsPtr, B.IsPtr) &&
          field("PtrSpace", A.PtrSpace, B.PtrSpace) &&
          field("PtrAlign", A.PtrAlign, B.PtrAlign) &&
          field("IsManaged", A.IsManaged, B.IsManaged) &&
          field("Opaque", A.Opaque, B.Opaque) &&
          list("sampler field", ArrayRef(A.SamplerFields),
               ArrayRef(B.SamplerFields),
               [&](const SamplerField &X, const SamplerField &Y) {
                 return field("Name", X.Name, Y.Name) &&
                        field("Value", X.Value, Y.Value);
               }) &&
          field("HasInitializer", A.HasInitializer, B.HasInitializer) &&
          within("initializer", compare(A.Init, B.Init)) &&
          field("ContinuesPrevious", A.ContinuesPrevious, B.ContinuesPrevious));
}

bool Comparer::compare(const CallPrototype &A, const CallPrototype &B) {
  return list("return", ArrayRef(A.Returns), ArrayRef(B.Returns),
              cmp<VariableDecl>()) &&
         list("param", ArrayRef(A.Params), ArrayRef(B.Params),
              cmp<VariableDecl>()) &&
         field("NoReturn", A.NoReturn, B.NoReturn);
}

bool Comparer::compare(const Statement &A, const Statement &B) {
  if (!field("Kind", A.Kind, B.Kind) || !field("Index", A.Index, B.Index))
    return false;
  // Instr is only meaningful in instructions, Dir in the other statements.
  if (A.Kind == Statement::Inst)
    return compare(A.Instr, B.Instr);
  return field("Name", A.Dir.Name, B.Dir.Name) &&
         field("Text", A.Dir.Text, B.Dir.Text) &&
         field("LocFile", A.Dir.LocFile, B.Dir.LocFile) &&
         field("LocLine", A.Dir.LocLine, B.Dir.LocLine) &&
         field("LocColumn", A.Dir.LocColumn, B.Dir.LocColumn);
}

bool Comparer::compare(const Function &A, const Function &B) {
  auto TargetList = [&](const SmallVector<StringRef, 4> &X,
                        const SmallVector<StringRef, 4> &Y) {
    return values("label", ArrayRef(X), ArrayRef(Y));
  };
  auto String = [&](const std::string &X, const std::string &Y) {
    return field("value", X, Y);
  };
  return within(
      "function " + show(A.Name),
      field("Name", A.Name, B.Name) && field("IsEntry", A.IsEntry, B.IsEntry) &&
          field("Link", A.Link, B.Link) &&
          field("NoReturn", A.NoReturn, B.NoReturn) &&
          list("return", ArrayRef(A.Returns), ArrayRef(B.Returns),
               cmp<VariableDecl>()) &&
          list("param", ArrayRef(A.Params), ArrayRef(B.Params),
               cmp<VariableDecl>()) &&
          field("NumMaxNTid", A.NumMaxNTid, B.NumMaxNTid) &&
          values("MaxNTid", ArrayRef(A.MaxNTid), ArrayRef(B.MaxNTid)) &&
          field("NumReqNTid", A.NumReqNTid, B.NumReqNTid) &&
          values("ReqNTid", ArrayRef(A.ReqNTid), ArrayRef(B.ReqNTid)) &&
          field("MinNCTAPerSM", A.MinNCTAPerSM, B.MinNCTAPerSM) &&
          field("MaxNReg", A.MaxNReg, B.MaxNReg) &&
          field("MaxNCTAPerSM", A.MaxNCTAPerSM, B.MaxNCTAPerSM) &&
          field("ExplicitCluster", A.ExplicitCluster, B.ExplicitCluster) &&
          field("NumReqNCTAPerCluster", A.NumReqNCTAPerCluster,
                B.NumReqNCTAPerCluster) &&
          values("ReqNCTAPerCluster", ArrayRef(A.ReqNCTAPerCluster),
                 ArrayRef(B.ReqNCTAPerCluster)) &&
          field("MaxClusterRank", A.MaxClusterRank, B.MaxClusterRank) &&
          field("AbiPreserve", A.AbiPreserve, B.AbiPreserve) &&
          field("AbiPreserveControl", A.AbiPreserveControl,
                B.AbiPreserveControl) &&
          list("pragma", ArrayRef(A.Pragmas), ArrayRef(B.Pragmas), String) &&
          field("HasBody", A.HasBody, B.HasBody) &&
          list(nullptr, ArrayRef(A.Locals), ArrayRef(B.Locals),
               cmp<VariableDecl>()) &&
          list("branch target list", ArrayRef(A.TargetLists),
               ArrayRef(B.TargetLists), TargetList) &&
          list("prototype", ArrayRef(A.Prototypes), ArrayRef(B.Prototypes),
               cmp<CallPrototype>()) &&
          compareBodies(A.Body, B.Body));
}

/// Like list(), but names the statement's source line in A, which is what a
/// reader looks for when a round trip fails.
bool Comparer::compareBodies(ArrayRef<Statement> A, ArrayRef<Statement> B) {
  for (size_t I = 0, E = std::min(A.size(), B.size()); I != E; ++I)
    if (!within("statement " + Twine(I) + " (line " +
                    Twine(ModuleA->getLine(A[I].getLoc())) + ")",
                compare(A[I], B[I])))
      return false;
  return field("statements", A.size(), B.size());
}

bool Comparer::compare(const FileDirective &A, const FileDirective &B) {
  return field("Index", A.Index, B.Index) && field("Name", A.Name, B.Name) &&
         field("Rest", A.Rest, B.Rest);
}

bool Comparer::compare(const TopLevel &A, const TopLevel &B) {
  return field("Kind", A.Kind, B.Kind) && field("Index", A.Index, B.Index);
}

bool Comparer::compare(const Module &A, const Module &B) {
  auto String = [&](const std::string &X, const std::string &Y) {
    return field("value", X, Y);
  };
  return field("Version", A.Version, B.Version) &&
         list("target", ArrayRef(A.Targets), ArrayRef(B.Targets), String) &&
         field("AddressSize", A.AddressSize, B.AddressSize) &&
         field("HasAddressSize", A.HasAddressSize, B.HasAddressSize) &&
         list(nullptr, ArrayRef(A.Globals), ArrayRef(B.Globals),
              cmp<VariableDecl>()) &&
         list("file", ArrayRef(A.Files), ArrayRef(B.Files),
              cmp<FileDirective>()) &&
         list("section", ArrayRef(A.Sections), ArrayRef(B.Sections), String) &&
         list("top-level item", ArrayRef(A.Order), ArrayRef(B.Order),
              cmp<TopLevel>()) &&
         list(nullptr, ArrayRef(A.Functions), ArrayRef(B.Functions),
              cmp<Function>());
}

std::optional<std::string> ptxjit::ptx::findASTDifference(const Module &A,
                                                          const Module &B) {
  Comparer C(A);
  if (C.compare(A, B))
    return std::nullopt;
  return std::move(C.Diff);
}

Error ptxjit::ptx::checkRoundTrip(const Module &M) {
  std::string Text;
  raw_string_ostream TextOS(Text);
  printModule(M, TextOS);

  Module Reparsed(MemoryBuffer::getMemBufferCopy(Text, "<printed>"));
  std::string Errors;
  raw_string_ostream ErrorOS(Errors);
  DiagnosticEngine Diags(Reparsed.getSourceMgr(), ErrorOS);
  if (!parseModule(Reparsed, Diags))
    return createStringError(inconvertibleErrorCode(),
                             "printed module does not parse:\n%s",
                             Errors.c_str());
  if (std::optional<std::string> Diff = findASTDifference(M, Reparsed))
    return createStringError(inconvertibleErrorCode(),
                             "printed module parses to a different AST: %s",
                             Diff->c_str());
  return Error::success();
}
