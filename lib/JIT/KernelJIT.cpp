//===- KernelJIT.cpp - Compiling PTX kernels with ORC LLJIT ---------------===//

#include "ptxjit/JIT/KernelJIT.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
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

static Expected<std::unique_ptr<TargetMachine>>
createHostTargetMachine(unsigned OptLevel) {
  initializeNativeTarget();
  auto JTMB = JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  JTMB->setCodeGenOptLevel(OptLevel == 0   ? CodeGenOptLevel::None
                           : OptLevel == 1 ? CodeGenOptLevel::Less
                           : OptLevel == 2 ? CodeGenOptLevel::Default
                                           : CodeGenOptLevel::Aggressive);
  return JTMB->createTargetMachine();
}

void ptxjit::optimizeModule(Module &M, unsigned OptLevel) {
  if (OptLevel == 0)
    return;
  auto TM = createHostTargetMachine(OptLevel);
  if (!TM) {
    consumeError(TM.takeError());
    return;
  }
  M.setDataLayout((*TM)->createDataLayout());
  M.setTargetTriple((*TM)->getTargetTriple());
  for (Function &F : M)
    if (!F.isDeclaration()) {
      F.addFnAttr("target-cpu", (*TM)->getTargetCPU());
      F.addFnAttr("target-features", (*TM)->getTargetFeatureString());
    }
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM->get());
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  OptimizationLevel Level = OptLevel == 1   ? OptimizationLevel::O1
                            : OptLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(Level);
  MPM.run(M, MAM);
}

KernelJIT::KernelJIT(std::unique_ptr<LLJIT> J, const JITOptions &Opts)
    : J(std::move(J)), Opts(Opts) {}

KernelJIT::~KernelJIT() = default;

Expected<std::unique_ptr<KernelJIT>> KernelJIT::create(const JITOptions &Opts) {
  initializeNativeTarget();
  auto JTMB = JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  auto J = LLJITBuilder().setJITTargetMachineBuilder(std::move(*JTMB)).create();
  if (!J)
    return J.takeError();
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
  return std::unique_ptr<KernelJIT>(new KernelJIT(std::move(*J), Opts));
}

static std::string shapeSuffix(const KernelShape &S) {
  return "." + std::to_string(S.BlockDim[0]) + "x" +
         std::to_string(S.BlockDim[1]) + "x" + std::to_string(S.BlockDim[2]);
}

Expected<CompiledKernel> KernelJIT::compile(
    const ptx::Module &M, StringRef Kernel, const KernelShape &Shape,
    const std::vector<std::pair<std::string, void *>> *ModuleVariables,
    unsigned CheckKinds) {
  auto Ctx = std::make_unique<LLVMContext>();
  // Value names are for people reading emit-llvm; compiling needs none.
  Ctx->setDiscardValueNames(true);
  CompiledKernel K;
  IRGenOptions IROpts;
  IROpts.ExternalModuleVariables = ModuleVariables != nullptr;
  IROpts.CheckKinds = CheckKinds;
  Expected<std::unique_ptr<Module>> LM =
      emitKernel(M, Kernel, Shape, *Ctx, K.Layout, IROpts);
  if (!LM)
    return LM.takeError();
  // Each compilation gets unique symbol names in the shared JITDylib.
  std::string Unique = shapeSuffix(Shape) + "." + std::to_string(NextModule++);
  Function *Entry = (*LM)->getFunction(K.Layout.WarpFunctionName);
  Entry->setName(K.Layout.WarpFunctionName + Unique);
  K.Layout.WarpFunctionName = Entry->getName().str();
  (*LM)->setDataLayout(J->getDataLayout());
  (*LM)->setTargetTriple(J->getTargetTriple());
  optimizeModule(**LM, Opts.OptLevel);
  // Each kernel links in a JITDylib of its own, where the module's
  // variables resolve before the runtime's and the process's symbols.
  JITDylib *JD = &J->getMainJITDylib();
  if (ModuleVariables) {
    Expected<JITDylib &> Own = J->createJITDylib("kernel" + Unique);
    if (!Own)
      return Own.takeError();
    SymbolMap Vars;
    for (const auto &[Name, Addr] : *ModuleVariables)
      Vars[J->mangleAndIntern(Name)] = {ExecutorAddr::fromPtr(Addr),
                                        JITSymbolFlags::Exported};
    if (Error E = Own->define(absoluteSymbols(std::move(Vars))))
      return std::move(E);
    // Then the runtime's entry points, defined in the main JITDylib.
    Own->addToLinkOrder(J->getMainJITDylib());
    JD = &*Own;
  }
  if (Error E =
          J->addIRModule(*JD, ThreadSafeModule(std::move(*LM), std::move(Ctx))))
    return std::move(E);
  auto Addr = J->lookup(*JD, K.Layout.WarpFunctionName);
  if (!Addr)
    return Addr.takeError();
  K.Entry = Addr->toPtr<WarpFunction>();
  K.Shape = Shape;
  K.Name = Kernel.str();
  return K;
}

Error KernelJIT::emitIR(const ptx::Module &M, StringRef Kernel,
                        const KernelShape &Shape, unsigned OptLevel,
                        raw_ostream &OS, unsigned CheckKinds) {
  LLVMContext Ctx;
  KernelLayout Layout;
  IRGenOptions IROpts;
  IROpts.CheckKinds = CheckKinds;
  Expected<std::unique_ptr<Module>> LM =
      emitKernel(M, Kernel, Shape, Ctx, Layout, IROpts);
  if (!LM)
    return LM.takeError();
  optimizeModule(**LM, OptLevel);
  (*LM)->print(OS, nullptr);
  return Error::success();
}
