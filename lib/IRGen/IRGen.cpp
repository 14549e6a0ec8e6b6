//===- IRGen.cpp - Module-level lowering: globals, layout, functions ------===//

#include "Lowering.h"
#include "ptxjit/ABI/WarpABI.h"
#include "ptxjit/PTX/GlobalImage.h"
#include "ptxjit/PTX/ModuleInfo.h"
#include "ptxjit/PTX/TextureRefs.h"
#include "ptxjit/Transforms/Pipeline.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include <algorithm>
#include <cstdlib>
#include <functional>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Initializer;
using ptx::StateSpace;

ModuleLowering::ModuleLowering(const ptx::Module &PM, Module &LM,
                               const KernelShape &KS,
                               const IRGenOptions &Options)
    : PM(PM), LM(LM), Ctx(LM.getContext()), KS(KS), Options(Options),
      DebugLocs(PM, LM, Options.LineTables) {
  WarpCtxTy = getWarpContextType(Ctx);
}

Error ModuleLowering::makeError(SMLoc Loc, const Twine &Msg) const {
  unsigned Line = PM.getLine(Loc);
  return createStringError(inconvertibleErrorCode(),
                           Line ? ("line " + Twine(Line) + ": " + Msg).str()
                                : Msg.str());
}

GlobalVariable *ModuleLowering::getLoadDummy() {
  constexpr StringLiteral Name = "ptxjit.load.dummy";
  if (GlobalVariable *G = LM.getNamedGlobal(Name))
    return G;
  // As large and as aligned as the widest lane value (an f64 or b64).
  auto *Ty = ArrayType::get(Type::getInt8Ty(Ctx), 8);
  auto *G = new GlobalVariable(LM, Ty, /*isConstant=*/true,
                               GlobalValue::PrivateLinkage,
                               Constant::getNullValue(Ty), Name);
  G->setAlignment(Align(8));
  return G;
}

FunctionCallee ModuleLowering::getRuntimeFunction(RuntimeEntry E) {
  return declareRuntimeEntry(LM, E);
}

/// An instruction whose result may be what another thread wrote while the
/// kernel runs: an atomic, or a volatile, relaxed or acquire load.
static bool readsOthersWrites(const ptx::Instruction &I) {
  using ptx::Modifier;
  const ptx::OpcodeInfo &Info = ptx::getOpcodeInfo(I.Op);
  if (Info.Flags & ptx::OpWaitsOnOthers)
    return true;
  return (Info.Flags & ptx::OpMemRead) && !(Info.Flags & ptx::OpMemWrite) &&
         (I.hasModifier(Modifier::Volatile) ||
          I.hasModifier(Modifier::Relaxed) || I.hasModifier(Modifier::Acquire));
}

/// True if a branch of F depends on a value readsOthersWrites gave (or a
/// call of a function that has such reads returned): a loop that may spin
/// until another warp writes.
static bool branchesOnOthersWrites(const ptx::Function &F, bool CallsRead) {
  using ptx::Operand;
  StringSet<> Tainted;
  std::function<bool(const Operand &)> Reads = [&](const Operand &Op) {
    if ((Op.Kind == Operand::Register || Op.Kind == Operand::Symbol ||
         Op.Kind == Operand::Address) &&
        Tainted.contains(Op.Name))
      return true;
    return any_of(Op.Elements, Reads);
  };
  std::function<bool(const Operand &)> Taint = [&](const Operand &Op) {
    bool New = false;
    if (Op.Kind == Operand::Register || Op.Kind == Operand::Symbol)
      New = Tainted.insert(Op.Name).second;
    for (const Operand &E : Op.Elements)
      New |= Taint(E);
    return New;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const ptx::Statement &S : F.Body) {
      if (S.Kind != ptx::Statement::Inst)
        continue;
      const ptx::Instruction &I = S.Instr;
      bool IsCall = I.Op == ptx::Opcode::Call;
      unsigned Dests = I.getNumDestinations();
      if (!Dests)
        continue;
      bool Source = IsCall ? CallsRead : readsOthersWrites(I);
      for (unsigned K = I.readsFirstOperand() ? 0 : Dests;
           !Source && K < I.Operands.size(); ++K)
        Source = Reads(I.Operands[K]);
      Source |= !I.GuardPredicate.empty() && Tainted.contains(I.GuardPredicate);
      if (Source)
        for (unsigned K = 0; K != Dests; ++K)
          Changed |= Taint(I.Operands[K]);
    }
  }
  for (const ptx::Statement &S : F.Body) {
    if (S.Kind != ptx::Statement::Inst)
      continue;
    const ptx::Instruction &I = S.Instr;
    if (I.Op == ptx::Opcode::Bra && !I.GuardPredicate.empty() &&
        Tainted.contains(I.GuardPredicate))
      return true;
    if (I.Op == ptx::Opcode::BrxIdx && !I.Operands.empty() &&
        (Reads(I.Operands[0]) ||
         (!I.GuardPredicate.empty() && Tainted.contains(I.GuardPredicate))))
      return true;
  }
  return false;
}

/// Whether environment variable Name is set to Off (read by each caller
/// once, into a static).
static bool switchedOff(const char *Name, StringRef Off) {
  const char *V = std::getenv(Name);
  return V && StringRef(V) == Off;
}

bool ptxjit::phasesEnabled() {
  static const bool On = !switchedOff("PTXJIT_BARRIERS", "fibers");
  return On;
}

bool ptxjit::predicationEnabled() {
  static const bool On = !switchedOff("PTXJIT_PREDICATION", "off");
  return On;
}

bool ptxjit::phaseProbesEnabled() {
  static const bool On = !switchedOff("PTXJIT_PHASE_PROBES", "off");
  return On;
}

namespace {
/// Why a kernel's warps must be able to wait for each other.
enum class WarpWaits {
  None,     ///< they never do: warps run one after another
  Barriers, ///< at CTA barriers only
  Memory,   ///< also in loops on what other warps write (spin waits)
};
} // namespace

/// Kernels whose warps may wait for each other run their warps as fibers
/// (or in phases between barriers): those with CTA barriers, and those with
/// a branch on memory other warps write while they run (volatile, relaxed
/// or acquire loads, atomics), since a warp may spin until another one
/// writes.
static WarpWaits findWarpWaits(const ptx::Module &M,
                               const ptx::Function &Kernel) {
  using ptx::Modifier;
  auto Callees = ptx::getCallees(M, Kernel);
  bool Barriers = false, Reads = false;
  for (const ptx::Function *F : Callees)
    for (const ptx::Statement &S : F->Body) {
      if (S.Kind != ptx::Statement::Inst)
        continue;
      const ptx::Instruction &I = S.Instr;
      if (ptx::hasFlag(I.Op, ptx::OpCTABarrier) &&
          !I.hasModifier(Modifier::Warp))
        Barriers = true;
      // mbarrier and cluster waits park lanes in the runtime, branch or not.
      if (ptx::hasFlag(I.Op, ptx::OpParksLanes))
        return WarpWaits::Memory;
      Reads |= readsOthersWrites(I);
    }
  if (Reads && any_of(Callees, [&](const ptx::Function *F) {
        // Calls return what their callees read (conservatively).
        return branchesOnOthersWrites(*F, /*CallsRead=*/true);
      }))
    return WarpWaits::Memory;
  return Barriers ? WarpWaits::Barriers : WarpWaits::None;
}

Constant *ModuleLowering::lowerInitializer(const ptx::VariableDecl &V) {
  // A .samplerref holds its sampler word; a .texref or .surfref a handle,
  // 0 until bound.
  if (V.Opaque != ptx::OpaqueKind::None)
    return ConstantInt::get(Type::getInt64Ty(Ctx),
                            V.Opaque == ptx::OpaqueKind::SamplerRef
                                ? ptx::getSamplerWord(V).encode()
                                : 0);
  // Elements of the variable's type, as many as its size holds.
  Type *Elt;
  switch (V.Type) {
  case ptx::ScalarType::F32:
    Elt = Type::getFloatTy(Ctx);
    break;
  case ptx::ScalarType::F64:
    Elt = Type::getDoubleTy(Ctx);
    break;
  default:
    Elt = Type::getIntNTy(Ctx, std::max(8u, ptx::getBitWidth(V.Type)));
  }
  SmallVector<const Initializer *, 16> Flat;
  if (V.HasInitializer)
    ptx::flattenInitializer(V.Init, Flat);
  uint64_t EltSize = Elt->getPrimitiveSizeInBits() / 8;
  uint64_t Count = V.getSizeInBytes() / EltSize;
  if (Count == 0)
    Count = std::max<uint64_t>(Flat.size(), 1);
  SmallVector<Constant *, 16> Elts;
  for (uint64_t I = 0; I != Count; ++I) {
    if (I >= Flat.size()) {
      Elts.push_back(Constant::getNullValue(Elt));
      continue;
    }
    const Initializer &In = *Flat[I];
    Constant *C = nullptr;
    switch (In.Kind) {
    case Initializer::Int:
      C = Elt->isFloatingPointTy() ? ConstantFP::get(Elt, double(In.Value))
                                   : ConstantInt::get(Elt, In.Value, true);
      break;
    case Initializer::Float:
    case Initializer::Double: {
      APFloat F =
          In.Kind == Initializer::Float
              ? APFloat(APFloat::IEEEsingle(), APInt(32, uint32_t(In.Value)))
              : APFloat(APFloat::IEEEdouble(), APInt(64, uint64_t(In.Value)));
      if (Elt->isFloatingPointTy()) {
        bool Lost;
        F.convert(Elt->getFltSemantics(), APFloat::rmNearestTiesToEven, &Lost);
        C = ConstantFP::get(Elt, F);
      } else {
        C = ConstantInt::get(
            Elt, F.bitcastToAPInt().zextOrTrunc(Elt->getIntegerBitWidth()));
      }
      break;
    }
    case Initializer::Symbol:
    case Initializer::Generic: {
      Constant *Target = Globals.lookup(In.Name);
      if (!Target) {
        if (const ptx::Function *F = PM.findFunction(In.Name)) {
          if (Expected<Function *> Fn = getDeviceFunction(*F))
            Target = *Fn;
          else
            consumeError(Fn.takeError());
        }
      }
      if (!Target || !Elt->isIntegerTy(64)) {
        C = Constant::getNullValue(Elt);
        break;
      }
      Constant *Addr = ConstantExpr::getGetElementPtr(
          Type::getInt8Ty(Ctx), Target,
          ConstantInt::get(Type::getInt64Ty(Ctx), In.Value));
      C = ConstantExpr::getPtrToInt(Addr, Elt);
      break;
    }
    case Initializer::List:
      llvm_unreachable("flattened");
    }
    Elts.push_back(C);
  }
  return ConstantArray::get(ArrayType::get(Elt, Count), Elts);
}

std::string ptxjit::getModuleVariableSymbol(StringRef Name) {
  return ("ptx.global." + Name).str();
}

Error ModuleLowering::lowerGlobal(const ptx::VariableDecl &V) {
  if (V.Space != StateSpace::Global && V.Space != StateSpace::Const)
    return Error::success();
  if (Globals.count(V.Name))
    return Error::success();
  if (Options.ExternalModuleVariables && ptx::isModuleVariable(PM, V)) {
    ptx::GlobalImage Image = ptx::buildGlobalImage(PM, V);
    Type *Ty = ArrayType::get(Type::getInt8Ty(Ctx), Image.Size);
    auto *GV = new GlobalVariable(LM, Ty, V.Space == StateSpace::Const,
                                  GlobalValue::ExternalLinkage, nullptr,
                                  getModuleVariableSymbol(V.Name));
    GV->setAlignment(Align(Image.Align));
    Globals[V.Name] = GV;
    return Error::success();
  }
  if (V.Link == ptx::Linkage::Extern)
    return makeError(V.Loc, "external variable '" + V.Name +
                                "' is not defined in this module");
  // Create first, initialize later: initializers may name each other.
  Type *Ty = ArrayType::get(Type::getInt8Ty(Ctx), 1);
  auto *GV = new GlobalVariable(LM, Ty, V.Space == StateSpace::Const,
                                GlobalValue::InternalLinkage, nullptr, V.Name);
  GV->setAlignment(Align(std::max<uint64_t>(ptx::getAlignment(V), 16)));
  Globals[V.Name] = GV;
  return Error::success();
}

Error ModuleLowering::lowerGlobals(const ptx::Function &Kernel) {
  for (const ptx::VariableDecl &V : PM.Globals)
    if (Error E = lowerGlobal(V))
      return E;
  // Give each global its real type and initializer.
  for (const ptx::VariableDecl &V : PM.Globals) {
    GlobalVariable *Old = Globals.lookup(V.Name);
    if (!Old || Old->hasInitializer() || Old->hasExternalLinkage())
      continue;
    Constant *Init = lowerInitializer(V);
    auto *GV = new GlobalVariable(LM, Init->getType(), Old->isConstant(),
                                  GlobalValue::InternalLinkage, Init, "");
    GV->takeName(Old);
    GV->setAlignment(Old->getAlign());
    Old->replaceAllUsesWith(GV);
    Old->eraseFromParent();
    Globals[V.Name] = GV;
  }
  // Static shared memory: every .shared variable the kernel can reach.
  SmallVector<ptx::SharedVariableOffset, 8> Layout;
  StaticSharedSize = ptx::layoutStaticShared(PM, Kernel, Layout);
  for (const ptx::SharedVariableOffset &S : Layout)
    SharedOffsets[S.Var->Name] = S.Offset;
  // Dynamic shared arrays all start where static memory ends.
  uint64_t Dynamic = getDynamicSharedOffset();
  for (const ptx::VariableDecl &V : PM.Globals)
    if (V.Space == StateSpace::Shared &&
        (V.Link == ptx::Linkage::Extern ||
         (V.Dims.size() == 1 && V.Dims[0] == 0)))
      SharedOffsets[V.Name] = Dynamic;
  return Error::success();
}

Expected<Function *> ModuleLowering::getDeviceFunction(const ptx::Function &F) {
  auto It = DeviceFunctions.find(&F);
  if (It != DeviceFunctions.end())
    return It->second;
  if (!F.HasBody)
    return makeError(F.Loc,
                     "function '" + F.Name + "' is declared but not defined");
  // i32 (ptr Warp, i32 Mask, ptr Returns..., ptr Params...): each pointer
  // is lane-major storage of one .param; the result is the lanes that exited.
  SmallVector<Type *, 8> Args{PointerType::getUnqual(Ctx),
                              Type::getInt32Ty(Ctx)};
  for (size_t I = 0, E = F.Returns.size() + F.Params.size(); I != E; ++I)
    Args.push_back(PointerType::getUnqual(Ctx));
  auto *Ty = FunctionType::get(Type::getInt32Ty(Ctx), Args, false);
  Function *Fn =
      Function::Create(Ty, GlobalValue::InternalLinkage, "ptx." + F.Name, LM);
  DeviceFunctions[&F] = Fn;
  Pending.push_back(&F);
  return Fn;
}

Error ModuleLowering::lowerFunction(const ptx::Function &F, Function *Fn) {
  Expected<transforms::PreparedFunction> P =
      transforms::runPipeline(PM, F, Alloc);
  if (!P)
    return P.takeError();
  DebugLocs.beginFunction(F, Fn);
  FunctionLowering FL(*this, P->F, Fn, std::move(*P->CFG));
  return FL.lower();
}

Expected<Function *> ModuleLowering::emitKernel(const ptx::Function &F) {
  Type *Ptr = PointerType::getUnqual(Ctx);
  auto *Ty = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
  Function *Fn =
      Function::Create(Ty, GlobalValue::ExternalLinkage, F.Name + ".warp", LM);
  Fn->getArg(0)->setName("params");
  Fn->getArg(1)->setName("warp");
  // The parameters are read-only for the kernel's run (their loads are
  // invariant), and all of them may be read at once.
  SmallVector<uint64_t, 8> Offsets;
  if (uint64_t ParamBytes = ptx::layoutKernelParams(F, Offsets))
    Fn->addParamAttr(0,
                     Attribute::getWithDereferenceableBytes(Ctx, ParamBytes));
  if (Error E = lowerFunction(F, Fn))
    return std::move(E);
  // Without CTA barriers no warp waits for another: one call may run them
  // all. In phases, one call runs them all up to their next barrier.
  if (!UsesBarriers || PhaseStateSize)
    RunsWarpChains = irgen::makeWarpChain(*Fn, WarpCtxTy, ChainAtBarrier,
                                          ChainBarrier, ChainSkipsRounds);
  while (!Pending.empty()) {
    const ptx::Function *DF = Pending.back();
    Pending.pop_back();
    if (Error E = lowerFunction(*DF, DeviceFunctions[DF]))
      return std::move(E);
  }
  return Fn;
}

/// The PTX file's name, and where .loc directives say each PTX line of the
/// kernel's functions came from (KernelLayout::SourceLines).
static void recordSourceLines(const ptx::Module &M, const ptx::Function &Kernel,
                              KernelLayout &Layout) {
  const SourceMgr &SM = M.getSourceMgr();
  Layout.PTXFile =
      sys::path::filename(
          SM.getMemoryBuffer(SM.getMainFileID())->getBufferIdentifier())
          .str();
  DenseMap<unsigned, uint32_t> FileIndex; // .file number -> SourceFiles
  for (const ptx::FileDirective &FD : M.Files) {
    FileIndex[FD.Index] = Layout.SourceFiles.size();
    Layout.SourceFiles.push_back(FD.Name);
  }
  if (FileIndex.empty())
    return;
  for (const ptx::Function *Fn : ptx::getCallees(M, Kernel)) {
    const ptx::Statement *Loc = nullptr;
    for (const ptx::Statement &S : Fn->Body) {
      if (S.Kind == ptx::Statement::Loc)
        Loc = S.Dir.LocLine && FileIndex.count(S.Dir.LocFile) ? &S : nullptr;
      if (S.Kind != ptx::Statement::Inst || !Loc)
        continue;
      if (unsigned Line = M.getLine(S.Instr.Loc))
        Layout.SourceLines.push_back(
            {Line, FileIndex[Loc->Dir.LocFile], Loc->Dir.LocLine});
    }
  }
  llvm::sort(Layout.SourceLines, [](const SourceLine &A, const SourceLine &B) {
    return A.PTXLine < B.PTXLine;
  });
  Layout.SourceLines.erase(
      std::unique(Layout.SourceLines.begin(), Layout.SourceLines.end(),
                  [](const SourceLine &A, const SourceLine &B) {
                    return A.PTXLine == B.PTXLine;
                  }),
      Layout.SourceLines.end());
}

Expected<std::unique_ptr<Module>>
ptxjit::emitKernel(const ptx::Module &M, StringRef Kernel,
                   const KernelShape &Shape, LLVMContext &Ctx,
                   KernelLayout &Layout, const IRGenOptions &Opts) {
  const ptx::Function *F = M.findFunction(Kernel);
  if (!F || !F->IsEntry)
    return createStringError(inconvertibleErrorCode(), "no kernel named '%s'",
                             Kernel.str().c_str());
  auto LM = std::make_unique<Module>("ptx." + Kernel.str(), Ctx);
  ModuleLowering ML(M, *LM, Shape, Opts);
  WarpWaits Waits = findWarpWaits(M, *F);
  ML.UsesBarriers = Waits != WarpWaits::None;
  // Checked kernels keep fibers: the checks see each warp's lanes at barriers.
  ML.MayRunInPhases =
      Waits == WarpWaits::Barriers && Opts.BarrierPhases && !Opts.CheckKinds;
  if (Error E = ML.lowerGlobals(*F))
    return std::move(E);
  Expected<Function *> Fn = ML.emitKernel(*F);
  if (!Fn)
    return Fn.takeError();
  ML.DebugLocs.finalize();
  attachMissingDebugLocations(*LM);
  // Stacks end at one guard page: a frame larger than a page (a warp's
  // .local arrays) is probed page by page, so that deep recursion faults on
  // the guard instead of writing past it.
  for (Function &Fn : *LM)
    if (!Fn.isDeclaration())
      Fn.addFnAttr("probe-stack", "inline-asm");
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(*LM, &OS))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: invalid LLVM IR for kernel "
                             "'%s': %s",
                             Kernel.str().c_str(), Broken.c_str());
  SmallVector<uint64_t, 8> Offsets;
  Layout.WarpFunctionName = (*Fn)->getName().str();
  Layout.ParamBufferSize = ptx::layoutKernelParams(*F, Offsets);
  Layout.ParamOffsets.assign(Offsets.begin(), Offsets.end());
  Layout.StaticSharedSize = ML.StaticSharedSize;
  Layout.DynamicSharedOffset = ML.getDynamicSharedOffset();
  Layout.ReservedSharedSize = ML.UsesReservedShared ? ReservedSharedBytes : 0;
  Layout.UsesCTABarriers = ML.UsesBarriers;
  Layout.PhaseStateSize = ML.PhaseStateSize;
  Layout.RunsWarpChains = ML.RunsWarpChains;
  Layout.LocalBytesPerLane = ML.LocalBytesPerLane;
  for (unsigned D = 0; D != 3; ++D) {
    Layout.ReqNTid[D] = D < F->NumReqNTid ? F->ReqNTid[D]
                        : F->NumReqNTid   ? 1
                                          : 0;
    Layout.MaxNTid[D] = D < F->NumMaxNTid ? F->MaxNTid[D]
                        : F->NumMaxNTid   ? 1
                                          : 0;
    Layout.ReqNCTAPerCluster[D] = D < F->NumReqNCTAPerCluster
                                      ? F->ReqNCTAPerCluster[D]
                                  : F->NumReqNCTAPerCluster ? 1
                                                            : 0;
  }
  recordSourceLines(M, *F, Layout);
  Layout.ExplicitCluster = F->ExplicitCluster;
  Layout.MaxClusterRank = F->MaxClusterRank;
  return std::move(LM);
}
