//===- KernelEntryTest.cpp - A compiled kernel's entry round-trips --------===//

#include "ptxjit/Cache/KernelEntry.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cache;

namespace {

/// A layout with every field set to a value of its own.
KernelLayout layout() {
  KernelLayout L;
  L.WarpFunctionName = "kernel.32x2x1";
  L.ParamBufferSize = 40;
  L.ParamOffsets = {0, 8, 16, 32};
  L.StaticSharedSize = 4096;
  L.DynamicSharedOffset = 4096 + 16;
  L.UsesCTABarriers = true;
  L.PhaseStateSize = 1234;
  L.LocalBytesPerLane = 262144;
  for (unsigned D = 0; D != 3; ++D) {
    L.ReqNTid[D] = 10 + D;
    L.MaxNTid[D] = 20 + D;
    L.ReqNCTAPerCluster[D] = 30 + D;
  }
  L.ExplicitCluster = true;
  L.MaxClusterRank = 8;
  L.PTXFile = "kernels.ptx";
  L.SourceFiles = {"kernels.cu", "helpers.cuh"};
  L.SourceLines = {{12, 0, 40}, {13, 1, 7}};
  return L;
}

TEST(KernelEntryTest, RoundTripsEveryField) {
  KernelLayout L = layout();
  std::string Payload = encodeKernelEntry(L, "\x7f"
                                             "ELF object bytes");
  Expected<KernelEntry> E = decodeKernelEntry(Payload);
  ASSERT_TRUE(bool(E)) << toString(E.takeError());
  const KernelLayout &R = E->Layout;
  EXPECT_EQ(R.WarpFunctionName, L.WarpFunctionName);
  EXPECT_EQ(R.ParamBufferSize, L.ParamBufferSize);
  EXPECT_EQ(R.ParamOffsets, L.ParamOffsets);
  EXPECT_EQ(R.StaticSharedSize, L.StaticSharedSize);
  EXPECT_EQ(R.DynamicSharedOffset, L.DynamicSharedOffset);
  EXPECT_EQ(R.UsesCTABarriers, L.UsesCTABarriers);
  EXPECT_EQ(R.PhaseStateSize, L.PhaseStateSize);
  EXPECT_EQ(R.LocalBytesPerLane, L.LocalBytesPerLane);
  for (unsigned D = 0; D != 3; ++D) {
    EXPECT_EQ(R.ReqNTid[D], L.ReqNTid[D]);
    EXPECT_EQ(R.MaxNTid[D], L.MaxNTid[D]);
    EXPECT_EQ(R.ReqNCTAPerCluster[D], L.ReqNCTAPerCluster[D]);
  }
  EXPECT_EQ(R.ExplicitCluster, L.ExplicitCluster);
  EXPECT_EQ(R.MaxClusterRank, L.MaxClusterRank);
  EXPECT_EQ(R.PTXFile, L.PTXFile);
  EXPECT_EQ(R.SourceFiles, L.SourceFiles);
  ASSERT_EQ(R.SourceLines.size(), L.SourceLines.size());
  for (size_t I = 0; I != L.SourceLines.size(); ++I) {
    EXPECT_EQ(R.SourceLines[I].PTXLine, L.SourceLines[I].PTXLine);
    EXPECT_EQ(R.SourceLines[I].File, L.SourceLines[I].File);
    EXPECT_EQ(R.SourceLines[I].Line, L.SourceLines[I].Line);
  }
  EXPECT_EQ(E->Object, "\x7f"
                       "ELF object bytes");
}

TEST(KernelEntryTest, EveryCutIsRejected) {
  std::string Payload = encodeKernelEntry(layout(), "object");
  for (size_t N = 0; N != Payload.size(); ++N) {
    Expected<KernelEntry> E =
        decodeKernelEntry(StringRef(Payload).take_front(N));
    EXPECT_FALSE(bool(E)) << "cut at " << N;
    consumeError(E.takeError());
  }
  Expected<KernelEntry> E = decodeKernelEntry(Payload + "x");
  EXPECT_FALSE(bool(E));
  consumeError(E.takeError());
}

} // namespace
