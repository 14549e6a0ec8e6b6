//===- KernelEntry.cpp - A compiled kernel as a cache entry ---------------===//

#include "ptxjit/Cache/KernelEntry.h"
#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cache;
namespace endian = llvm::support::endian;

namespace {
class Writer {
public:
  std::string Out;
  void u64(uint64_t V) {
    char B[8];
    endian::write64le(B, V);
    Out.append(B, 8);
  }
  void bytes(StringRef S) {
    u64(S.size());
    Out += S;
  }
  void dims(const uint32_t D[3]) {
    for (unsigned I = 0; I != 3; ++I)
      u64(D[I]);
  }
};

/// Reads what Writer wrote; any read past the end makes it fail.
class Reader {
public:
  explicit Reader(StringRef In) : In(In) {}
  bool Failed = false;
  uint64_t u64() {
    if (In.size() < 8) {
      Failed = true;
      In = {};
      return 0;
    }
    uint64_t V = endian::read64le(In.data());
    In = In.drop_front(8);
    return V;
  }
  StringRef bytes() {
    uint64_t N = u64();
    if (Failed || N > In.size()) {
      Failed = true;
      return {};
    }
    StringRef S = In.take_front(N);
    In = In.drop_front(N);
    return S;
  }
  void dims(uint32_t D[3]) {
    for (unsigned I = 0; I != 3; ++I) {
      uint64_t V = u64();
      Failed |= V > UINT32_MAX;
      D[I] = uint32_t(V);
    }
  }
  bool atEnd() const { return In.empty(); }

private:
  StringRef In;
};
} // namespace

std::string cache::encodeKernelEntry(const KernelLayout &L, StringRef Object) {
  Writer W;
  W.bytes(L.WarpFunctionName);
  W.u64(L.ParamBufferSize);
  W.u64(L.ParamOffsets.size());
  for (uint64_t Offset : L.ParamOffsets)
    W.u64(Offset);
  W.u64(L.StaticSharedSize);
  W.u64(L.DynamicSharedOffset);
  W.u64(L.ReservedSharedSize);
  W.u64(L.UsesCTABarriers);
  W.u64(L.PhaseStateSize);
  W.u64(L.RunsWarpChains);
  W.u64(L.LocalBytesPerLane);
  W.dims(L.ReqNTid);
  W.dims(L.MaxNTid);
  W.dims(L.ReqNCTAPerCluster);
  W.u64(L.ExplicitCluster);
  W.u64(L.MaxClusterRank);
  W.bytes(L.PTXFile);
  W.u64(L.SourceFiles.size());
  for (const std::string &F : L.SourceFiles)
    W.bytes(F);
  W.u64(L.SourceLines.size());
  for (const SourceLine &S : L.SourceLines) {
    W.u64(S.PTXLine);
    W.u64(S.File);
    W.u64(S.Line);
  }
  W.bytes(Object);
  return std::move(W.Out);
}

Expected<KernelEntry> cache::decodeKernelEntry(StringRef Payload) {
  Reader R(Payload);
  KernelEntry E;
  KernelLayout &L = E.Layout;
  L.WarpFunctionName = R.bytes().str();
  L.ParamBufferSize = R.u64();
  uint64_t NumParams = R.u64();
  // Each offset takes 8 bytes: a count beyond the payload is damage.
  if (NumParams > Payload.size() / 8)
    R.Failed = true;
  for (uint64_t I = 0; !R.Failed && I != NumParams; ++I)
    L.ParamOffsets.push_back(R.u64());
  L.StaticSharedSize = R.u64();
  L.DynamicSharedOffset = R.u64();
  L.ReservedSharedSize = R.u64();
  L.UsesCTABarriers = R.u64() != 0;
  L.PhaseStateSize = R.u64();
  L.RunsWarpChains = R.u64() != 0;
  L.LocalBytesPerLane = R.u64();
  R.dims(L.ReqNTid);
  R.dims(L.MaxNTid);
  R.dims(L.ReqNCTAPerCluster);
  L.ExplicitCluster = R.u64() != 0;
  uint64_t Rank = R.u64();
  L.MaxClusterRank = uint32_t(Rank);
  L.PTXFile = R.bytes().str();
  // Each name takes at least 8 bytes and each line 24: larger counts are
  // damage.
  uint64_t NumFiles = R.u64();
  if (NumFiles > Payload.size() / 8)
    R.Failed = true;
  for (uint64_t I = 0; !R.Failed && I != NumFiles; ++I)
    L.SourceFiles.push_back(R.bytes().str());
  uint64_t NumLines = R.u64();
  if (NumLines > Payload.size() / 24)
    R.Failed = true;
  for (uint64_t I = 0; !R.Failed && I != NumLines; ++I) {
    uint64_t PTXLine = R.u64(), File = R.u64(), Line = R.u64();
    if (PTXLine > UINT32_MAX || File >= NumFiles || Line > UINT32_MAX)
      R.Failed = true;
    L.SourceLines.push_back(
        {uint32_t(PTXLine), uint32_t(File), uint32_t(Line)});
  }
  E.Object = R.bytes();
  if (R.Failed || !R.atEnd() || Rank > UINT32_MAX || E.Object.empty() ||
      L.WarpFunctionName.empty())
    return createStringError(inconvertibleErrorCode(),
                             "not a whole kernel cache entry");
  return E;
}
