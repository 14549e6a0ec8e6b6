//===- ClusterLaunchTest.cpp - Thread block clusters in launchKernel ------===//
//
// validateLaunch rejects the cluster shapes a GPU rejects; launchKernel runs
// the CTAs of a cluster together, so CTAs that wait for each other through
// distributed shared memory and mbarrier objects make progress, on one host
// thread or several; a cluster that cannot move is a CTADeadlockError, and
// cancelling stops it.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/JIT/KernelJIT.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/Runtime/CTAErrors.h"
#include "ptxjit/Runtime/Launch.h"
#include "ptxjit/Runtime/WarpRuntime.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace ptxjit;
using namespace llvm;

namespace {

LaunchConfig config(uint32_t Grid, uint32_t Block, uint32_t Cluster) {
  LaunchConfig C;
  C.Grid[0] = Grid;
  C.Block[0] = Block;
  C.ClusterDim[0] = Cluster;
  C.ClusterDim[1] = C.ClusterDim[2] = Cluster ? 1 : 0;
  return C;
}

std::string validate(const LaunchConfig &C, const KernelLayout &L = {}) {
  Error E = validateLaunch(C, L);
  return E ? toString(std::move(E)) : std::string();
}

TEST(ValidateClusters, Shapes) {
  EXPECT_EQ(validate(config(8, 32, 4)), "");
  EXPECT_EQ(validate(config(16, 32, 16)), "");
  EXPECT_EQ(validate(config(6, 32, 4)),
            "grid dimension x = 6 is not a multiple of the cluster "
            "dimension 4");
  EXPECT_EQ(validate(config(32, 32, 32)),
            "clusters of 32 CTAs exceed the limit of 16");
  LaunchConfig Coop = config(4, 32, 2);
  Coop.Cooperative = true;
  EXPECT_EQ(validate(Coop),
            "cooperative launches with clusters are not supported");
}

TEST(ValidateClusters, KernelDirectives) {
  KernelLayout L;
  L.ReqNCTAPerCluster[0] = 2;
  L.ReqNCTAPerCluster[1] = L.ReqNCTAPerCluster[2] = 1;
  // The kernel's shape is the launch's when it gives none.
  uint32_t Dim[3];
  bool Explicit;
  getClusterShape(config(4, 32, 0), L, Dim, Explicit);
  EXPECT_EQ(Dim[0], 2u);
  EXPECT_TRUE(Explicit);
  EXPECT_EQ(validate(config(3, 32, 0), L),
            "grid dimension x = 3 is not a multiple of the cluster "
            "dimension 2");
  EXPECT_EQ(validate(config(4, 32, 4), L),
            "cluster 4x1x1 does not match the kernel's .reqnctapercluster "
            "2, 1, 1");
  KernelLayout E;
  E.ExplicitCluster = true;
  EXPECT_EQ(validate(config(4, 32, 0), E),
            "the kernel has .explicitcluster, but the launch gives no "
            "cluster shape");
  KernelLayout R;
  R.MaxClusterRank = 2;
  EXPECT_EQ(validate(config(4, 32, 4), R),
            "clusters of 4 CTAs exceed the kernel's .maxclusterrank 2");
  getClusterShape(config(4, 32, 0), KernelLayout(), Dim, Explicit);
  EXPECT_EQ(Dim[0], 1u);
  EXPECT_FALSE(Explicit);
}

const char *const ClusterKernels = R"(
.version 8.0
.target sm_90
.address_size 64

// A relay: CTA rank r waits until its token arrives (its mbarrier
// completes), adds its rank, and passes the token to rank r + 1 through
// that CTA's shared memory and mbarrier. The last rank writes the sum,
// then every CTA leaves together.
.visible .entry relay(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 token;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %cluster_nctarank;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra INITED;
  mbarrier.init.shared.b64 [bar], 1;
INITED:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  @%p1 bra DONE;
  setp.eq.u32 %p2, %r2, 0;
  mov.u32 %r4, 0;
  @%p2 bra ADD;
WAIT:
  mbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;
  @!%p3 bra WAIT;
  ld.shared.u32 %r4, [token];
ADD:
  add.u32 %r4, %r4, %r2;
  add.u32 %r5, %r2, 1;
  setp.eq.u32 %p2, %r5, %r3;
  @%p2 bra LAST;
  mov.u32 %r6, token;
  mapa.shared::cluster.u32 %r7, %r6, %r5;
  st.shared::cluster.u32 [%r7], %r4;
  mov.u32 %r8, bar;
  mapa.shared::cluster.u32 %r9, %r8, %r5;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r9];
  bra DONE;
LAST:
  ld.param.u64 %rd1, [out];
  mov.u32 %r10, %clusterid.x;
  mul.wide.u32 %rd2, %r10, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
DONE:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}

// The 32 threads of each CTA arrive in pairs (16 phases complete), then
// all wait for phase 16, which nobody completes.
.visible .entry stuck(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 bar;
  mbarrier.init.shared.b64 [bar], 2;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  mbarrier.arrive.shared.b64 _, [bar];
WAIT:
  mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0;
  @!%p1 bra WAIT;
  ret;
}

// Rank 0 spins on a flag nobody sets.
.visible .entry spin(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .pred %p<4>;
  .shared .align 4 .b32 flag;
  mov.u32 %r1, %cluster_ctarank;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
LOOP:
  ld.volatile.shared.u32 %r2, [flag];
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra LOOP;
DONE:
  ret;
}
)";

class ClusterLaunchTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Diags;
    raw_string_ostream OS(Diags);
    Expected<std::unique_ptr<ptx::Module>> M = ptx::loadModule(
        MemoryBuffer::getMemBuffer(ClusterKernels, "clusters.ptx"), OS);
    ASSERT_TRUE(bool(M)) << toString(M.takeError()) << Diags;
    Module = std::move(*M);
    JITOptions Opts;
    Opts.Symbols = runtime::getRuntimeSymbols();
    Expected<std::unique_ptr<KernelJIT>> J = KernelJIT::create(Opts);
    ASSERT_TRUE(bool(J)) << toString(J.takeError());
    JIT = std::move(*J);
  }

  CompiledKernel compile(StringRef Name, uint32_t BlockX) {
    KernelShape Shape;
    Shape.BlockDim[0] = BlockX;
    Expected<CompiledKernel> K = JIT->compile(*Module, Name, Shape);
    if (!K) {
      ADD_FAILURE() << toString(K.takeError());
      return {};
    }
    return std::move(*K);
  }

  static std::vector<uint8_t> pointerParam(const CompiledKernel &K, void *P) {
    std::vector<uint8_t> Buf(K.Layout.ParamBufferSize + 16, 0);
    std::memcpy(Buf.data() + K.Layout.ParamOffsets.at(0), &P, sizeof P);
    return Buf;
  }

  std::unique_ptr<ptx::Module> Module;
  std::unique_ptr<KernelJIT> JIT;
};

// The token passes rank 0 -> 1 -> ... -> size - 1, so each cluster's sum
// is 0 + 1 + ... + size - 1; every CTA waits for its predecessor, which
// only works if the cluster's CTAs run together.
TEST_F(ClusterLaunchTest, RelayThroughTheCluster) {
  CompiledKernel K = compile("relay", 64);
  ASSERT_NE(K.Entry, nullptr);
  for (unsigned Size : {2u, 4u, 16u})
    for (unsigned Threads : {1u, 3u}) {
      SCOPED_TRACE("clusters of " + std::to_string(Size) + " on " +
                   std::to_string(Threads) + " threads");
      unsigned Clusters = 5;
      std::vector<uint32_t> Out(Clusters, ~0u);
      std::vector<uint8_t> Params = pointerParam(K, Out.data());
      LaunchConfig C = config(Clusters * Size, 64, Size);
      C.NumThreads = Threads;
      LaunchStats Stats;
      ASSERT_EQ(toString(launchKernel(K, Params.data(), C, &Stats)), "");
      EXPECT_EQ(Out, std::vector<uint32_t>(Clusters, Size * (Size - 1) / 2));
      EXPECT_EQ(Stats.CTAs, Clusters * Size);
      EXPECT_EQ(Stats.Warps, Clusters * Size * 2);
    }
}

TEST_F(ClusterLaunchTest, StuckClusterIsADeadlock) {
  CompiledKernel K = compile("stuck", 32);
  ASSERT_NE(K.Entry, nullptr);
  std::vector<uint8_t> Params = pointerParam(K, nullptr);
  Error E = launchKernel(K, Params.data(), config(4, 32, 2));
  ASSERT_TRUE(bool(E));
  bool IsDeadlock = false;
  std::string Message;
  handleAllErrors(
      std::move(E),
      [&](const runtime::CTADeadlockError &D) {
        IsDeadlock = true;
        Message = D.message();
      },
      [&](const ErrorInfoBase &Other) { Message = Other.message(); });
  EXPECT_TRUE(IsDeadlock) << Message;
  EXPECT_NE(Message.find("deadlock in kernel 'stuck', cluster ("),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find("of 2 CTAs: CTA ("), std::string::npos) << Message;
  EXPECT_NE(Message.find("warp 0 lanes 0-31 wait for the phase of parity 0 "
                         "of the mbarrier at shared 0x0"),
            std::string::npos)
      << Message;
}

TEST_F(ClusterLaunchTest, CancelStopsASpinningCluster) {
  CompiledKernel K = compile("spin", 32);
  ASSERT_NE(K.Entry, nullptr);
  std::vector<uint8_t> Params = pointerParam(K, nullptr);
  std::atomic<bool> Cancel{false};
  LaunchConfig C = config(4, 32, 4);
  C.Cancel = &Cancel;
  std::thread Stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    Cancel = true;
  });
  Error E = launchKernel(K, Params.data(), C);
  Stopper.join();
  ASSERT_TRUE(bool(E));
  std::string Message = toString(std::move(E));
  EXPECT_NE(Message.find("cancelled"), std::string::npos) << Message;
}

} // namespace
