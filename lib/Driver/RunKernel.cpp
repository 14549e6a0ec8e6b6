//===- RunKernel.cpp - The `ptx-jit run` command --------------------------===//

#include "ptxjit/Driver/RunKernel.h"
#include "ptxjit/Device/Interrupt.h"
#include "ptxjit/Runtime/Checking.h"
#include "ptxjit/Device/Context.h"
#include "ptxjit/Driver/KernelArguments.h"
#include "ptxjit/Driver/KernelNames.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/Runtime/Launch.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::driver;

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg.str());
}

Error driver::parseDim3(StringRef Text, StringRef What, uint32_t Dims[3]) {
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return makeError("invalid " + What + " '" + Text + "': expected X[,Y[,Z]]");
  for (unsigned D = 0; D != 3; ++D) {
    Dims[D] = 1;
    if (D < Parts.size() && Parts[D].trim().getAsInteger(0, Dims[D]))
      return makeError("invalid " + What + " '" + Text +
                       "': expected X[,Y[,Z]] with positive integers");
  }
  return Error::success();
}

/// "a (x), b, c (y)": each kernel's name with its C++ signature.
static std::string listKernels(ArrayRef<const ptx::Function *> Kernels,
                               StringRef Separator) {
  std::string Text;
  for (const ptx::Function *F : Kernels)
    Text += (Text.empty() ? "" : Separator.str()) + describeKernelName(F->Name);
  return Text;
}

Expected<const ptx::Function *> driver::selectKernel(const ptx::Module &M,
                                                     StringRef Name) {
  SmallVector<const ptx::Function *, 4> Entries;
  for (const ptx::Function &F : M.Functions)
    if (F.IsEntry && F.HasBody)
      Entries.push_back(&F);
  if (!Name.empty()) {
    for (const ptx::Function *F : Entries)
      if (F->Name == Name)
        return F;
    // A C++ kernel by its demangled name: unique base name, or signature.
    SmallVector<const ptx::Function *, 4> Matches;
    for (const ptx::Function *F : Entries)
      if (kernelNameMatches(F->Name, Name))
        Matches.push_back(F);
    if (Matches.size() == 1)
      return Matches[0];
    if (Matches.size() > 1)
      return makeError("kernel name '" + Name + "' is ambiguous: it names " +
                       Twine(Matches.size()) +
                       " kernels; choose one with -k 'SIGNATURE' or the "
                       "mangled name:\n  " +
                       listKernels(Matches, "\n  "));
    return makeError(
        "no kernel named '" + Name + "'; kernels: " +
        (Entries.empty() ? std::string("none") : listKernels(Entries, ", ")));
  }
  if (Entries.size() == 1)
    return Entries[0];
  if (Entries.empty())
    return makeError("the module has no kernel (.entry)");
  return makeError(
      "the module has " + Twine(Entries.size()) +
      " kernels; choose one with -k: " + listKernels(Entries, ", "));
}

Error driver::resolveLaunchShape(const ptx::Function &F, RunOptions &Opts) {
  if (!Opts.BlockGiven && F.NumReqNTid) {
    std::fill(Opts.Block, Opts.Block + 3, 1);
    std::copy(F.ReqNTid, F.ReqNTid + F.NumReqNTid, Opts.Block);
    Opts.BlockGiven = true;
  }
  StringRef Kernel = F.Name;
  if (!Opts.GridGiven && !Opts.BlockGiven)
    return makeError("no launch shape for kernel '" + Kernel +
                     "': give the grid with -g X[,Y[,Z]] (CTAs) and the "
                     "block with -b X[,Y[,Z]] (threads per CTA)");
  if (!Opts.BlockGiven)
    return makeError("no block size for kernel '" + Kernel +
                     "': give it with -b X[,Y[,Z]] (threads per CTA); the "
                     "kernel declares no .reqntid");
  if (!Opts.GridGiven)
    return makeError("no grid size for kernel '" + Kernel +
                     "': give it with -g X[,Y[,Z]] (CTAs)");
  return Error::success();
}

static Expected<driver::ParamDesc> describeParam(const ptx::VariableDecl &P) {
  std::string Name = P.Name.str();
  if (!P.Dims.empty() || P.VectorWidth != 1)
    return driver::ParamDesc::getBlob(Name, unsigned(P.getSizeInBytes()));
  unsigned Bits = ptx::getBitWidth(P.Type);
  switch (ptx::getTypeKind(P.Type)) {
  case ptx::TypeKind::Float:
    if (Bits == 16 || Bits == 32 || Bits == 64)
      return driver::ParamDesc::getFloat(Name, Bits);
    break;
  case ptx::TypeKind::Signed:
    return driver::ParamDesc::getInt(Name, Bits, true);
  case ptx::TypeKind::Unsigned:
  case ptx::TypeKind::Bit:
    if (Bits >= 8)
      return driver::ParamDesc::getInt(Name, Bits, false);
    break;
  default:
    break;
  }
  return makeError("parameter '" + Name + "' has type " +
                   ptx::getSpelling(P.Type) + ", which --arg cannot set");
}

namespace {
/// What --stats reports of a run.
struct RunStats {
  double JITSeconds = 0;
  double RunSeconds = -1; ///< negative: the launch did not start
  uint64_t BufferBytes = 0;
  LaunchStats Launch;
  device::KernelStats Kernel;
};
} // namespace

static void printRunStats(raw_ostream &Err, const RunOptions &Opts,
                          StringRef Kernel, double ParseSeconds,
                          const RunStats &S, bool Failed) {
  auto Ms = [](double Seconds) {
    return formatv("{0,9:f3} ms", Seconds * 1e3);
  };
  const device::KernelStats &K = S.Kernel;
  Err << "ptx-jit: stats for kernel '" << Kernel << "'"
      << (Failed ? " (the launch failed)" : "") << ":\n";
  if (Opts.Input.CompiledSource)
    Err << "  clang     " << Ms(Opts.Input.ClangSeconds) << "  (PTX cache: "
        << (!Opts.Input.PTXCacheUsed ? "off"
            : Opts.Input.PTXCacheHit ? "hit"
                                     : "miss")
        << ")\n";
  Err << "  parse     " << Ms(ParseSeconds) << '\n';
  Err << "  cache     " << Ms(K.CacheSeconds) << "  (cache: "
      << (!Opts.Cache      ? "off"
          : K.CacheHits    ? "hit"
          : K.Compilations ? "miss"
                           : "not reached")
      << ")\n";
  Err << "  irgen     " << Ms(K.IRGenSeconds) << '\n';
  Err << "  optimize  " << Ms(K.OptimizeSeconds);
  if (!K.NotOptimized.empty())
    Err << "  (-O0: " << K.NotOptimized << ")";
  Err << '\n';
  Err << "  codegen   " << Ms(K.CodeGenSeconds) << '\n';
  Err << "  link      " << Ms(K.LinkSeconds) << '\n';
  Err << "  jit total " << Ms(S.JITSeconds)
      << "  (context, cache, compilation and linking)\n";
  if (S.RunSeconds >= 0)
    Err << "  run       " << Ms(S.RunSeconds) << '\n';
  const LaunchStats &L = S.Launch;
  Err << formatv("  {0} threads, {1} CTAs, {2} warps, {3} barrier waits, {4} "
                 "fiber switches\n",
                 L.Threads, L.CTAs, L.Warps, L.BarrierWaits, L.FiberSwitches);
  Err << formatv("  buffers {0} bytes", S.BufferBytes);
  // Each buffer counted once: a lower bound of what the kernel moved.
  if (S.RunSeconds > 0)
    Err << formatv(", {0:f3} GB/s over the run",
                   S.BufferBytes / S.RunSeconds / 1e9);
  Err << '\n';
}

/// Tells the checks about the --arg buffers: host data, written unless
/// their INIT is `uninit`.
static void registerBuffers(runtime::CheckSession &Check,
                            const KernelArguments &Args) {
  for (const BoundArgument &A : Args.getArguments()) {
    if (!A.Buffer)
      continue;
    // Numbered from 0, as the fault reports of unchecked runs number them.
    unsigned I = &A - Args.getArguments().data();
    std::string Name = formatv("--arg {0}, {1}[{2}], parameter '{3}'", I,
                               getElementTypeName(A.Spec.Buf.Type),
                               A.Spec.Buf.Count, A.Param.Name)
                           .str();
    Check.addAllocation(A.Buffer->data(), A.Buffer->getSizeInBytes(), Name,
                        A.Spec.Buf.Init.Kind != BufferInit::Uninit);
  }
}

/// --bind: each texture or surface's handle goes into the module's .texref
/// or .surfref of its NAME, before any kernel runs.
static Error bindReferences(device::Module &M, KernelArguments &Args,
                            ArrayRef<std::string> Bindings) {
  for (const std::string &Spec : Bindings) {
    Expected<std::string> Name = KernelArguments::getBindingName(Spec);
    if (!Name)
      return Name.takeError();
    const ptx::VariableDecl *V = M.getPTX().findGlobal(*Name);
    if (!V || (V->Opaque != ptx::OpaqueKind::TexRef &&
               V->Opaque != ptx::OpaqueKind::SurfRef))
      return makeError(formatv("--bind '{0}': the module has no .texref or "
                               ".surfref named '{1}'",
                               Spec, *Name));
    std::string Bound;
    Expected<uint64_t> Handle =
        Args.bindReference(Spec, V->Opaque == ptx::OpaqueKind::SurfRef, Bound);
    if (!Handle)
      return Handle.takeError();
    Expected<device::Allocation> Storage = M.getGlobal(*Name);
    if (!Storage)
      return Storage.takeError();
    std::memcpy(Storage->Base, &*Handle, sizeof(uint64_t));
  }
  return Error::success();
}

Error driver::runKernel(std::unique_ptr<ptx::Module> PTX, RunOptions Opts,
                        double ParseSeconds, raw_ostream &Out,
                        raw_ostream &Err) {
  using Clock = std::chrono::steady_clock;
  Expected<const ptx::Function *> K = selectKernel(*PTX, Opts.Kernel);
  if (!K)
    return K.takeError();
  const ptx::Function &F = **K;
  if (Error E = resolveLaunchShape(F, Opts))
    return E;
  std::string KernelName = F.Name.str();

  std::vector<driver::ParamDesc> Params;
  for (const ptx::VariableDecl &P : F.Params) {
    Expected<driver::ParamDesc> D = describeParam(P);
    if (!D)
      return D.takeError();
    Params.push_back(std::move(*D));
  }
  Expected<KernelArguments> Args = KernelArguments::create(Params, Opts.Args);
  if (!Args)
    return Args.takeError();

  RunStats Stats;
  for (const BoundArgument &A : Args->getArguments())
    if (A.Buffer)
      Stats.BufferBytes += A.Buffer->getSizeInBytes();
  // --stats is printed whatever happens once a kernel was chosen.
  bool Failed = true;
  // Declared before PrintStats, which reads StatsKernel: the context, and
  // the kernel in it, must outlive it.
  std::unique_ptr<device::Context> Context;
  device::Kernel *StatsKernel = nullptr;
  llvm::scope_exit PrintStats([&] {
    if (!Opts.PrintStats)
      return;
    if (StatsKernel)
      Stats.Kernel = StatsKernel->getStats();
    // After the outputs, whatever streams they share.
    Out.flush();
    printRunStats(Err, Opts, KernelName, ParseSeconds, Stats, Failed);
  });

  auto JITStart = Clock::now();
  device::ContextOptions CO;
  CO.OptLevel = Opts.OptLevel;
  CO.OptimizeDebugModules = Opts.OptLevelGiven;
  CO.NumThreads = Opts.Threads;
  CO.Cache = Opts.Cache;
  CO.CheckKinds = Opts.CheckKinds;
  CO.StackSize = Opts.StackSize;
  Expected<std::unique_ptr<device::Context>> Ctx = device::Context::create(CO);
  if (!Ctx)
    return Ctx.takeError();
  Context = std::move(*Ctx);
  if (Opts.MallocHeapSize)
    if (Error E = Context->setLimit(device::Limit::MallocHeapSize,
                                    *Opts.MallocHeapSize))
      return E;
  runtime::CheckSession *Check = Context->getCheckSession();
  if (Check)
    registerBuffers(*Check, *Args);
  Expected<device::Module &> M = Context->loadModule(std::move(PTX));
  if (!M)
    return M.takeError();
  if (Error E = bindReferences(*M, *Args, Opts.Bindings))
    return E;
  Expected<device::Kernel &> DK = M->getKernel(KernelName);
  if (!DK)
    return DK.takeError();
  StatsKernel = &*DK;
  device::Dim3 Grid{Opts.Grid[0], Opts.Grid[1], Opts.Grid[2]};
  device::Dim3 Block{Opts.Block[0], Opts.Block[1], Opts.Block[2]};
  // Compiling first keeps JIT time out of the run time --stats reports; a
  // configuration a GPU rejects fails before anything is compiled.
  LaunchConfig Config;
  std::memcpy(Config.Grid, Opts.Grid, sizeof Config.Grid);
  std::memcpy(Config.Block, Opts.Block, sizeof Config.Block);
  Config.DynamicSharedBytes = Opts.DynamicShared;
  std::copy(Opts.Cluster, Opts.Cluster + 3, Config.ClusterDim);
  if (Error E = validateLaunch(Config, DK->getLaunchLayout()))
    return E;
  // --shared is what a CUDA program asks for with the opt-in attribute
  // (cudaFuncAttributeMaxDynamicSharedMemorySize).
  if (Opts.DynamicShared > DK->getAttributes().MaxDynamicSharedBytes)
    if (Error E = DK->setMaxDynamicSharedBytes(Opts.DynamicShared))
      return E;
  Expected<const CompiledKernel *> CK = DK->getCompiled(Block);
  Stats.JITSeconds =
      std::chrono::duration<double>(Clock::now() - JITStart).count();
  if (!CK)
    return CK.takeError();

  Out.flush(); // device printf writes to the same stdout
  SmallVector<void *, 8> Values = Args->getKernelParams();
  device::LaunchOptions LO;
  LO.TimeoutSeconds = Opts.TimeoutSeconds;
  std::copy(Opts.Cluster, Opts.Cluster + 3, LO.ClusterDim);
  LO.Stats = &Stats.Launch;
  LO.StopOnInterrupt = true;
  auto RunStart = Clock::now();
  Error E = Context->launch(*DK, Grid, Block, Opts.DynamicShared, nullptr,
                            Values.data(), LO);
  if (!E)
    E = Context->synchronize();
  Stats.RunSeconds =
      std::chrono::duration<double>(Clock::now() - RunStart).count();
  if (E) {
    if (Check)
      Check->printSummary();
    auto [Code, Message] = device::takeError(std::move(E));
    if (Code == device::ErrorCode::LaunchTimeout && device::interruptRequested())
      return joinErrors(
          makeError(formatv("kernel '{0}' was interrupted (Ctrl-C)",
                            KernelName)),
          makeError(Message));
    if (Code == device::ErrorCode::LaunchTimeout && Opts.TimeoutSeconds > 0)
      return joinErrors(
          makeError(formatv("kernel '{0}' did not finish within {1} s "
                            "(--timeout)",
                            KernelName, Opts.TimeoutSeconds)),
          makeError(Message));
    return makeError(Message);
  }
  if (Error E = Args->writeOutputs(Out, Opts.PrintLimit))
    return E;
  if (Check) {
    Out.flush();
    Check->printSummary();
    if (uint64_t N = Check->numErrors())
      return makeError(formatv("--check found {0} error{1} in kernel '{2}'",
                               N, N == 1 ? "" : "s", KernelName));
  }
  Failed = false;
  return Error::success();
}
