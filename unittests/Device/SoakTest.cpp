//===- SoakTest.cpp - Many launches in one process ------------------------===//
//
// A process that launches 10,000 kernels, allocating and freeing device
// memory around each, keeps its resident memory: after a warm-up, what it
// holds must not grow with the number of launches (a leak of 200 bytes per
// launch would fail). Stopping launches on an interrupt is tested here too,
// since both are about long-lived processes.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Device/Context.h"
#include "ptxjit/Device/Interrupt.h"
#include "gtest/gtest.h"
#include <cstdio>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::device;

namespace {

// p[i] += i for i < n.
const char *AddIndexPTX = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry addIndex(.param .u64 p, .param .u32 n)
{
  .reg .b32 %r<7>;
  .reg .b64 %rd<4>;
  .reg .pred %p1;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.u32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd2, %r5, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.u32 %r6, [%rd3];
  add.u32 %r6, %r6, %r5;
  st.global.u32 [%rd3], %r6;
DONE:
  ret;
}
.visible .entry spin()
{
LOOP:
  bra LOOP;
}
)";

std::string describe(Error E) { return toString(std::move(E)); }

/// Resident memory of this process in bytes (/proc/self/statm).
uint64_t residentBytes() {
  FILE *F = std::fopen("/proc/self/statm", "r");
  if (!F)
    return 0;
  unsigned long long Size = 0, Resident = 0;
  int N = std::fscanf(F, "%llu %llu", &Size, &Resident);
  std::fclose(F);
  return N == 2 ? Resident * uint64_t(sysconf(_SC_PAGESIZE)) : 0;
}

Kernel *loadKernel(Context &C, StringRef Name) {
  Expected<device::Module &> M = C.loadPTX(AddIndexPTX);
  if (!M) {
    ADD_FAILURE() << describe(M.takeError());
    return nullptr;
  }
  Expected<Kernel &> K = M->getKernel(Name);
  if (!K) {
    ADD_FAILURE() << describe(K.takeError());
    return nullptr;
  }
  return &*K;
}

/// One launch with its own buffer: allocate, upload, run, check, free.
/// Returns false (with a failure) if anything went wrong.
bool launchOnce(Context &C, Kernel &K, unsigned Iteration) {
  constexpr uint32_t N = 1000;
  std::vector<uint32_t> Host(N, Iteration);
  Expected<void *> P = C.allocate(N * 4);
  if (!P) {
    ADD_FAILURE() << describe(P.takeError());
    return false;
  }
  uint32_t Count = N;
  void *Args[] = {&*P, &Count};
  Error E = C.copy(*P, Host.data(), N * 4);
  if (!E)
    E = C.launch(K, {(N + 127) / 128, 1, 1}, {128, 1, 1}, 0, nullptr, Args);
  if (!E)
    E = C.synchronize();
  if (!E)
    E = C.copy(Host.data(), *P, N * 4);
  if (Error F = C.free(*P))
    E = joinErrors(std::move(E), std::move(F));
  if (E) {
    ADD_FAILURE() << "launch " << Iteration << ": " << describe(std::move(E));
    return false;
  }
  for (uint32_t I = 0; I != N; ++I)
    if (Host[I] != Iteration + I) {
      ADD_FAILURE() << "launch " << Iteration << ": element " << I << " is "
                    << Host[I] << ", expected " << Iteration + I;
      return false;
    }
  return true;
}

TEST(SoakTest, TenThousandLaunchesKeepTheirMemory) {
  Expected<std::unique_ptr<Context>> C = Context::create({});
  ASSERT_TRUE(bool(C)) << describe(C.takeError());
  Kernel *K = loadKernel(**C, "addIndex");
  ASSERT_TRUE(K);
  // The warm-up compiles the kernel and fills the allocators' pools.
  constexpr unsigned WarmUp = 1000, Total = 10000;
  unsigned I = 0;
  for (; I != WarmUp; ++I)
    ASSERT_TRUE(launchOnce(**C, *K, I));
  uint64_t Before = residentBytes();
  ASSERT_NE(Before, 0u);
  for (; I != Total; ++I)
    ASSERT_TRUE(launchOnce(**C, *K, I));
  uint64_t After = residentBytes();
  EXPECT_LT(After, Before + (2u << 20))
      << "resident memory grew from " << Before << " to " << After
      << " bytes over " << Total - WarmUp << " launches";
}

TEST(SoakTest, AnInterruptStopsLaunchesThatAskForIt) {
  Expected<std::unique_ptr<Context>> C = Context::create({});
  ASSERT_TRUE(bool(C)) << describe(C.takeError());
  Kernel *Spin = loadKernel(**C, "spin");
  ASSERT_TRUE(Spin);
  // The request is process-wide and stays: only this test asks for it.
  requestInterrupt();
  ASSERT_TRUE(interruptRequested());
  LaunchOptions LO;
  LO.StopOnInterrupt = true;
  Error E = (*C)->launch(*Spin, {2, 1, 1}, {64, 1, 1}, 0, nullptr, nullptr, LO);
  ASSERT_FALSE(bool(E)) << describe(std::move(E));
  EXPECT_EQ(takeError((*C)->synchronize()).first, ErrorCode::LaunchTimeout);
}

} // namespace
