//===- KernelJIT.cpp - Compiling PTX kernels with ORC LLJIT ---------------===//

#include "ptxjit/JIT/KernelJIT.h"
#include "KernelPipeline.h"
#include "PerfMap.h"
#include "StackSizes.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include <chrono>
#include <cstdlib>
#include <mutex>

using namespace llvm;
using namespace llvm::orc;
using namespace ptxjit;

static void initializeNativeTarget() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
}

/// The host's target machine builder, generating code at -O OptLevel.
static Expected<JITTargetMachineBuilder> detectHost(unsigned OptLevel) {
  initializeNativeTarget();
  auto JTMB = JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  JTMB->setCodeGenOptLevel(OptLevel == 0   ? CodeGenOptLevel::None
                           : OptLevel == 1 ? CodeGenOptLevel::Less
                           : OptLevel == 2 ? CodeGenOptLevel::Default
                                           : CodeGenOptLevel::Aggressive);
  // The frames a warp's stack must hold (StackSizes.h).
  JTMB->getOptions().EmitStackSizeSection = true;
  return JTMB;
}

static Expected<std::unique_ptr<TargetMachine>>
createHostTargetMachine(unsigned OptLevel) {
  auto JTMB = detectHost(OptLevel);
  if (!JTMB)
    return JTMB.takeError();
  return JTMB->createTargetMachine();
}

Error ptxjit::optimizeModule(Module &M, unsigned OptLevel, TargetMachine &TM) {
  if (OptLevel == 0)
    return Error::success();
  M.setDataLayout(TM.createDataLayout());
  M.setTargetTriple(TM.getTargetTriple());
  for (Function &F : M)
    if (!F.isDeclaration()) {
      F.addFnAttr("target-cpu", TM.getTargetCPU());
      F.addFnAttr("target-features", TM.getTargetFeatureString());
    }
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  // LLVM's -time-passes, -print-after and the like cover this pipeline too.
  PassInstrumentationCallbacks PIC;
  StandardInstrumentations SI(M.getContext(), /*DebugLogging=*/false);
  SI.registerCallbacks(PIC, &MAM);
  PassBuilder PB(&TM, PipelineTuningOptions(), std::nullopt, &PIC);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  Expected<ModulePassManager> MPM = buildKernelPipeline(PB, OptLevel);
  if (!MPM)
    return createStringError("PTXJIT_PASSES: " + toString(MPM.takeError()));
  MPM->run(M, MAM);
  attachMissingDebugLocations(M);
  return Error::success();
}

KernelJIT::KernelJIT(std::unique_ptr<LLJIT> J,
                     std::unique_ptr<TargetMachine> TM, const JITOptions &Opts)
    : J(std::move(J)), TM(std::move(TM)), Opts(Opts) {}

KernelJIT::~KernelJIT() = default;

Expected<std::unique_ptr<KernelJIT>> KernelJIT::create(const JITOptions &Opts) {
  // The code generator works at the -O level too (-O0: fast, for debugging).
  auto JTMB = detectHost(Opts.OptLevel);
  if (!JTMB)
    return JTMB.takeError();
  // Objects are made here, with what the JIT would use, so that they can be
  // cached.
  auto TM = JTMB->createTargetMachine();
  if (!TM)
    return TM.takeError();
  auto J = LLJITBuilder().setJITTargetMachineBuilder(std::move(*JTMB)).create();
  if (!J)
    return J.takeError();
  // PTXJIT_GDB=1: each kernel's object, with its PTX line table, is
  // registered through the GDB JIT interface, so gdb can break on and show
  // PTX lines (docs/Debugging.md).
  JITOptions Options = Opts;
  if (const char *GDB = std::getenv("PTXJIT_GDB");
      GDB && *GDB && *GDB != '0') {
    if (Error E = enableDebuggerSupport(**J))
      return std::move(E);
    Options.LineTables = true;
  }
  // Math intrinsics that scalarize become libm calls.
  auto Gen = DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*J)->getDataLayout().getGlobalPrefix());
  if (!Gen)
    return Gen.takeError();
  (*J)->getMainJITDylib().addGenerator(std::move(*Gen));
  SymbolMap Runtime;
  for (const auto &[Name, Addr] : Opts.Symbols)
    Runtime[(*J)->mangleAndIntern(Name)] = {ExecutorAddr::fromPtr(Addr),
                                            JITSymbolFlags::Exported};
  if (!Runtime.empty())
    if (Error E = (*J)->getMainJITDylib().define(absoluteSymbols(Runtime)))
      return std::move(E);
  return std::unique_ptr<KernelJIT>(
      new KernelJIT(std::move(*J), std::move(*TM), Options));
}

/// Whether M was compiled for debugging: `.target sm_XX, debug` (nvcc -G).
static bool isDebugModule(const ptx::Module &M) {
  return is_contained(M.Targets, "debug");
}

/// The -O level a kernel is compiled at: Requested, but 0 for a module
/// compiled for debugging (unless OptimizeDebugModules) and for a kernel
/// too large to optimize in reasonable time, with the reason in Why.
static unsigned chooseOptLevel(const ptx::Module &M, const Module &IR,
                               unsigned Requested, bool OptimizeDebugModules,
                               std::string &Why) {
  if (!Requested)
    return 0;
  if (isDebugModule(M) && !OptimizeDebugModules) {
    Why = "the module is compiled for debugging (.target debug), which ptxas "
          "does not optimize either; -O<N> optimizes it";
    return 0;
  }
  // A pipeline given for an experiment runs whatever the size.
  if (!getKernelPipelineOverride().empty())
    return Requested;
  uint64_t Cost = estimatePromotionCost(IR);
  if (Cost <= MaxPromotionCost)
    return Requested;
  Why = formatv("the kernel is too large to optimize in reasonable time "
                "(about {0} phi operands at its busiest join; at most {1} "
                "are optimized)",
                Cost, MaxPromotionCost)
            .str();
  return 0;
}

/// IRGen's options with the code-changing switches the environment sets
/// (PTXJIT_BARRIERS, PTXJIT_PREDICATION, PTXJIT_PHASE_PROBES); the cache
/// key has each (getCacheKey).
static IRGenOptions getEnvironmentIRGenOptions() {
  IRGenOptions O;
  O.BarrierPhases = phasesEnabled();
  O.PredicatedBlocks = predicationEnabled();
  O.PhaseProbes = phaseProbesEnabled();
  return O;
}

static std::string shapeSuffix(const KernelShape &S) {
  return "." + std::to_string(S.BlockDim[0]) + "x" +
         std::to_string(S.BlockDim[1]) + "x" + std::to_string(S.BlockDim[2]);
}

namespace {
/// Adds the seconds since it was made to a counter when it goes.
class ScopedTimer {
public:
  explicit ScopedTimer(double *Seconds) : Seconds(Seconds) {}
  ~ScopedTimer() {
    if (Seconds)
      *Seconds += std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - Start)
                      .count();
  }

private:
  double *Seconds;
  std::chrono::steady_clock::time_point Start =
      std::chrono::steady_clock::now();
};
} // namespace

Expected<KernelObject> KernelJIT::compileToObject(const ptx::Module &M,
                                                  StringRef Kernel,
                                                  const KernelShape &Shape,
                                                  bool ExternalModuleVariables,
                                                  unsigned CheckKinds,
                                                  CompileTimes *Times) {
  auto Ctx = std::make_unique<LLVMContext>();
  // Value names are for people reading emit-llvm; compiling needs none.
  Ctx->setDiscardValueNames(true);
  KernelObject K;
  IRGenOptions IROpts = getEnvironmentIRGenOptions();
  IROpts.ExternalModuleVariables = ExternalModuleVariables;
  IROpts.CheckKinds = CheckKinds;
  IROpts.CheckAddresses = Opts.CheckAddresses;
  IROpts.LineTables = Opts.LineTables;
  Expected<std::unique_ptr<Module>> LM = [&] {
    ScopedTimer T(Times ? &Times->IRGenSeconds : nullptr);
    return emitKernel(M, Kernel, Shape, *Ctx, K.Layout, IROpts);
  }();
  if (!LM)
    return LM.takeError();
  // Each kernel is linked into a JITDylib of its own, so its symbols need
  // only differ from the runtime's; a name that depends on nothing else
  // keeps the object cacheable.
  Function *Entry = (*LM)->getFunction(K.Layout.WarpFunctionName);
  Entry->setName(K.Layout.WarpFunctionName + shapeSuffix(Shape));
  K.Layout.WarpFunctionName = Entry->getName().str();
  (*LM)->setDataLayout(J->getDataLayout());
  (*LM)->setTargetTriple(J->getTargetTriple());
  std::string Why;
  unsigned Level =
      chooseOptLevel(M, **LM, Opts.OptLevel, Opts.OptimizeDebugModules, Why);
  if (Times)
    Times->Downgrade = Why;
  TargetMachine *CodeGen = TM.get();
  if (Level != Opts.OptLevel) {
    if (!UnoptimizedTM) {
      auto Unoptimized = createHostTargetMachine(0);
      if (!Unoptimized)
        return Unoptimized.takeError();
      UnoptimizedTM = std::move(*Unoptimized);
    }
    CodeGen = UnoptimizedTM.get();
  }
  {
    ScopedTimer T(Times ? &Times->OptimizeSeconds : nullptr);
    // The code generator's own target machine: the subtarget it builds
    // for the kernel's attributes serves both.
    if (Error E = optimizeModule(**LM, Level, *CodeGen))
      return std::move(E);
  }
  ScopedTimer T(Times ? &Times->CodeGenSeconds : nullptr);
  SimpleCompiler Compile(*CodeGen);
  Expected<std::unique_ptr<MemoryBuffer>> Object = Compile(**LM);
  if (!Object)
    return Object.takeError();
  K.Object = std::move(*Object);
  return std::move(K);
}

Expected<CompiledKernel> KernelJIT::link(
    KernelObject Object, StringRef Kernel, const KernelShape &Shape,
    const std::vector<std::pair<std::string, void *>> *ModuleVariables,
    CompileTimes *Times) {
  ScopedTimer T(Times ? &Times->LinkSeconds : nullptr);
  // The module's variables resolve before the runtime's and the process's
  // symbols.
  Expected<JITDylib &> JD = J->createJITDylib(
      "kernel" + shapeSuffix(Shape) + "." + std::to_string(NextModule++));
  if (!JD)
    return JD.takeError();
  if (ModuleVariables) {
    SymbolMap Vars;
    for (const auto &[Name, Addr] : *ModuleVariables)
      Vars[J->mangleAndIntern(Name)] = {ExecutorAddr::fromPtr(Addr),
                                        JITSymbolFlags::Exported};
    if (Error E = JD->define(absoluteSymbols(std::move(Vars))))
      return std::move(E);
  }
  // Then the runtime's entry points, defined in the main JITDylib.
  JD->addToLinkOrder(J->getMainJITDylib());
  uint64_t PerfMapSize = getPerfMapSize(Object.Object->getMemBufferRef(),
                                        Object.Layout.WarpFunctionName);
  Object.Layout.NativeFrameBytes = getFrameSize(
      Object.Object->getMemBufferRef(), Object.Layout.WarpFunctionName);
  if (Error E = J->addObjectFile(*JD, std::move(Object.Object)))
    return std::move(E);
  auto Addr = J->lookup(*JD, Object.Layout.WarpFunctionName);
  if (!Addr)
    return Addr.takeError();
  addToPerfMap(Addr->getValue(), PerfMapSize,
               "ptx-jit kernel " + Kernel.str() + shapeSuffix(Shape));
  CompiledKernel K;
  K.Entry = Addr->toPtr<WarpFunction>();
  K.Layout = std::move(Object.Layout);
  K.Shape = Shape;
  K.Name = Kernel.str();
  return K;
}

Expected<CompiledKernel> KernelJIT::compile(
    const ptx::Module &M, StringRef Kernel, const KernelShape &Shape,
    const std::vector<std::pair<std::string, void *>> *ModuleVariables,
    unsigned CheckKinds, CompileTimes *Times) {
  Expected<KernelObject> Object = compileToObject(
      M, Kernel, Shape, ModuleVariables != nullptr, CheckKinds, Times);
  if (!Object)
    return Object.takeError();
  return link(std::move(*Object), Kernel, Shape, ModuleVariables, Times);
}

cache::CacheDigest KernelJIT::getCacheKey(const ptx::Module &M,
                                          StringRef Kernel,
                                          const KernelShape &Shape,
                                          bool ExternalModuleVariables,
                                          unsigned CheckKinds) const {
  cache::CacheKeyBuilder B("kernel");
  B.add("ptx", M.getSourceText());
  B.add("kernel", Kernel);
  // Reports and debug information name the file.
  const SourceMgr &SM = M.getSourceMgr();
  B.add("ptx-file",
        SM.getMemoryBuffer(SM.getMainFileID())->getBufferIdentifier());
  for (unsigned D = 0; D != 3; ++D)
    B.add("block", Shape.BlockDim[D]);
  // Every option that changes the generated code.
  B.add("opt-level", Opts.OptLevel);
  B.add("optimize-debug-modules", Opts.OptimizeDebugModules);
  B.add("external-module-variables", ExternalModuleVariables);
  B.add("phases", phasesEnabled());
  B.add("predication", predicationEnabled());
  B.add("phase-probes", phaseProbesEnabled());
  B.add("check-kinds", CheckKinds);
  B.add("check-addresses", Opts.CheckAddresses);
  B.add("line-tables", Opts.LineTables);
  B.add("passes", getKernelPipelineOverride());
  return B.final();
}

Error KernelJIT::emitIR(const ptx::Module &M, StringRef Kernel,
                        const KernelShape &Shape, unsigned OptLevel,
                        raw_ostream &OS, unsigned CheckKinds,
                        bool CheckAddresses, bool OptimizeDebugModules) {
  LLVMContext Ctx;
  KernelLayout Layout;
  IRGenOptions IROpts = getEnvironmentIRGenOptions();
  IROpts.CheckAddresses = CheckAddresses;
  IROpts.CheckKinds = CheckKinds;
  Expected<std::unique_ptr<Module>> LM =
      emitKernel(M, Kernel, Shape, Ctx, Layout, IROpts);
  if (!LM)
    return LM.takeError();
  std::string Why;
  OptLevel = chooseOptLevel(M, **LM, OptLevel, OptimizeDebugModules, Why);
  if (!Why.empty())
    OS << "; ptx-jit: not optimized: " << Why << "\n";
  if (OptLevel != 0) {
    auto TM = createHostTargetMachine(OptLevel);
    if (!TM)
      return TM.takeError();
    if (Error E = optimizeModule(**LM, OptLevel, **TM))
      return E;
  }
  (*LM)->print(OS, nullptr);
  return Error::success();
}
