//===- Kernel.cpp - A kernel of a loaded module ---------------------------===//

#include "ptxjit/Device/Kernel.h"
#include "ptxjit/Device/Context.h"
#include "ptxjit/Device/DeviceError.h"
#include "ptxjit/Device/Module.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/ModuleInfo.h"
#include "ptxjit/Runtime/Launch.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::device;

Kernel::Kernel(Module &M, const ptx::Function &F) : M(M), F(F) {
  SmallVector<uint64_t, 8> Offsets;
  Attributes.ParamBytes = ptx::layoutKernelParams(F, Offsets);
  for (unsigned I = 0; I != F.Params.size(); ++I) {
    const ptx::VariableDecl &P = F.Params[I];
    Params.push_back(
        {P.Name, Offsets[I], P.getSizeInBytes(), ptx::getAlignment(P)});
  }
  Attributes.StaticSharedBytes = ptx::getStaticSharedSize(M.getPTX(), F);
  uint64_t Limit = MaxThreadsPerBlock;
  for (unsigned D = 0; D != 3; ++D) {
    // Missing dimensions of a directive that is there are 1.
    Attributes.ReqNTid[D] = D < F.NumReqNTid ? F.ReqNTid[D]
                            : F.NumReqNTid   ? 1
                                             : 0;
    Attributes.MaxNTid[D] = D < F.NumMaxNTid ? F.MaxNTid[D]
                            : F.NumMaxNTid   ? 1
                                             : 0;
  }
  auto Product = [](const uint32_t *D) { return uint64_t(D[0]) * D[1] * D[2]; };
  if (F.NumMaxNTid)
    Limit = std::min(Limit, Product(Attributes.MaxNTid));
  if (F.NumReqNTid)
    Limit = std::min(Limit, Product(Attributes.ReqNTid));
  Attributes.MaxThreadsPerBlock = uint32_t(Limit);
  Attributes.MaxDynamicSharedBytes = uint32_t(
      MaxSharedBytesPerBlock -
      std::min<uint64_t>(Attributes.StaticSharedBytes, MaxSharedBytesPerBlock));
}

Kernel::~Kernel() = default;

StringRef Kernel::getName() const { return F.Name; }

KernelLayout Kernel::getLaunchLayout() const {
  KernelLayout L;
  L.WarpFunctionName = F.Name.str();
  L.ParamBufferSize = Attributes.ParamBytes;
  for (const KernelParam &P : Params)
    L.ParamOffsets.push_back(P.Offset);
  L.StaticSharedSize = Attributes.StaticSharedBytes;
  L.DynamicSharedOffset = alignTo(Attributes.StaticSharedBytes, 16);
  std::copy(Attributes.ReqNTid, Attributes.ReqNTid + 3, L.ReqNTid);
  std::copy(Attributes.MaxNTid, Attributes.MaxNTid + 3, L.MaxNTid);
  for (unsigned D = 0; D != 3; ++D)
    L.ReqNCTAPerCluster[D] = D < F.NumReqNCTAPerCluster ? F.ReqNCTAPerCluster[D]
                             : F.NumReqNCTAPerCluster   ? 1
                                                        : 0;
  L.ExplicitCluster = F.ExplicitCluster;
  L.MaxClusterRank = F.MaxClusterRank;
  return L;
}

Expected<const CompiledKernel *> Kernel::getCompiled(Dim3 Block) {
  std::lock_guard<std::mutex> G(Lock);
  std::unique_ptr<CompiledKernel> &Slot = Compiled[{Block.X, Block.Y, Block.Z}];
  if (!Slot) {
    KernelShape Shape;
    Shape.BlockDim[0] = Block.X;
    Shape.BlockDim[1] = Block.Y;
    Shape.BlockDim[2] = Block.Z;
    auto Start = std::chrono::steady_clock::now();
    Expected<CompiledKernel> K =
        M.getContext().compile(M, F.Name, Shape, &Stats);
    Stats.CompileSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    if (!K) {
      Compiled.erase({Block.X, Block.Y, Block.Z});
      return K.takeError();
    }
    Slot = std::make_unique<CompiledKernel>(std::move(*K));
    ++Stats.Compilations;
  }
  return Slot.get();
}

KernelStats Kernel::getStats() const {
  std::lock_guard<std::mutex> G(Lock);
  return Stats;
}

void Kernel::recordRun(double Seconds, uint64_t CTAs) {
  std::lock_guard<std::mutex> G(Lock);
  ++Stats.Launches;
  Stats.CTAs += CTAs;
  Stats.RunSeconds += Seconds;
}

Error Kernel::setMaxDynamicSharedBytes(int64_t Bytes) {
  uint64_t Static = Attributes.StaticSharedBytes;
  if (Bytes < 0 || uint64_t(Bytes) + Static > MaxSharedBytesPerBlockOptin)
    return makeDeviceError(
        ErrorCode::InvalidValue,
        formatv("{0} bytes of dynamic shared memory and {1} static exceed "
                "the limit of {2} per block",
                Bytes, Static, MaxSharedBytesPerBlockOptin));
  Attributes.MaxDynamicSharedBytes = uint32_t(Bytes);
  return Error::success();
}
