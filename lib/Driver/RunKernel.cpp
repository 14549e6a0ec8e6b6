//===- RunKernel.cpp - The `ptx-jit run` command --------------------------===//

#include "ptxjit/Driver/RunKernel.h"
#include "ptxjit/Driver/KernelArguments.h"
#include "ptxjit/JIT/KernelJIT.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/Runtime/GuardedMemory.h"
#include "ptxjit/Runtime/Launch.h"
#include "ptxjit/Runtime/WarpRuntime.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

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

Expected<const ptx::Function *> driver::selectKernel(const ptx::Module &M,
                                                     StringRef Name) {
  SmallVector<StringRef, 4> Entries;
  for (const ptx::Function &F : M.Functions)
    if (F.IsEntry && F.HasBody)
      Entries.push_back(F.Name);
  if (!Name.empty()) {
    const ptx::Function *F = M.findFunction(Name);
    if (F && F->IsEntry && F->HasBody)
      return F;
    return makeError(
        "no kernel named '" + Name + "'; kernels: " +
        (Entries.empty() ? std::string("none") : join(Entries, ", ")));
  }
  if (Entries.size() == 1)
    return M.findFunction(Entries[0]);
  if (Entries.empty())
    return makeError("the module has no kernel (.entry)");
  return makeError("the module has " + Twine(Entries.size()) +
                   " kernels; choose one with -k: " + join(Entries, ", "));
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
/// Cancels a launch after a timeout (--timeout).
class Watchdog {
public:
  Watchdog(double Seconds, std::atomic<bool> &Cancel) {
    if (Seconds <= 0)
      return;
    Thread = std::thread([this, Seconds, &Cancel] {
      std::unique_lock<std::mutex> L(Lock);
      if (!Done.wait_for(L, std::chrono::duration<double>(Seconds),
                         [&] { return Finished; }))
        Cancel = true;
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> L(Lock);
      Finished = true;
    }
    Done.notify_all();
    if (Thread.joinable())
      Thread.join();
  }

private:
  std::thread Thread;
  std::mutex Lock;
  std::condition_variable Done;
  bool Finished = false;
};
} // namespace

Error driver::runKernel(const ptx::Module &M, const RunOptions &Opts,
                        double ParseSeconds, raw_ostream &Out,
                        raw_ostream &Err) {
  using Clock = std::chrono::steady_clock;
  Expected<const ptx::Function *> K = selectKernel(M, Opts.Kernel);
  if (!K)
    return K.takeError();
  const ptx::Function &F = **K;

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

  LaunchConfig Config;
  std::memcpy(Config.Grid, Opts.Grid, sizeof Config.Grid);
  std::memcpy(Config.Block, Opts.Block, sizeof Config.Block);
  Config.DynamicSharedBytes = Opts.DynamicShared;
  Config.NumThreads = Opts.Threads;

  auto JITStart = Clock::now();
  JITOptions JO;
  JO.OptLevel = Opts.OptLevel;
  JO.Symbols = runtime::getRuntimeSymbols();
  Expected<std::unique_ptr<KernelJIT>> J = KernelJIT::create(JO);
  if (!J)
    return J.takeError();
  KernelShape Shape;
  std::memcpy(Shape.BlockDim, Opts.Block, sizeof Shape.BlockDim);
  // Reject bad configurations before spending time compiling.
  KernelLayout Probe;
  Probe.DynamicSharedOffset = 0;
  if (Error E = validateLaunch(Config, Probe))
    return E;
  Expected<CompiledKernel> CK = (*J)->compile(M, F.Name, Shape);
  if (!CK)
    return CK.takeError();
  double JITSeconds =
      std::chrono::duration<double>(Clock::now() - JITStart).count();

  // The parameter buffer, laid out as the kernel declares it.
  std::vector<uint8_t> ParamBuffer(CK->Layout.ParamBufferSize + 16, 0);
  SmallVector<void *, 8> Values = Args->getKernelParams();
  for (unsigned I = 0; I != F.Params.size(); ++I)
    std::memcpy(ParamBuffer.data() + CK->Layout.ParamOffsets[I], Values[I],
                Args->getArguments()[I].Value.size());

  Out.flush(); // device printf writes to the same stdout
  runtime::installKernelFaultHandler();
  std::atomic<bool> Cancel{false};
  Config.Cancel = &Cancel;
  LaunchStats Stats;
  auto RunStart = Clock::now();
  {
    Watchdog Dog(Opts.TimeoutSeconds, Cancel);
    if (Error E = launchKernel(*CK, ParamBuffer.data(), Config, &Stats)) {
      if (Cancel)
        return joinErrors(
            makeError(formatv("kernel '{0}' did not finish within {1} s "
                              "(--timeout)",
                              F.Name, Opts.TimeoutSeconds)),
            std::move(E));
      return E;
    }
  }
  double RunSeconds =
      std::chrono::duration<double>(Clock::now() - RunStart).count();
  if (Error E = Args->writeOutputs(Out))
    return E;
  if (Opts.PrintStats)
    Err << formatv("ptx-jit: parse {0:f3} ms, jit {1:f3} ms, run {2:f3} ms, "
                   "{3} CTAs, {4} warps\n",
                   ParseSeconds * 1e3, JITSeconds * 1e3, RunSeconds * 1e3,
                   Stats.CTAs, Stats.Warps);
  return Error::success();
}
