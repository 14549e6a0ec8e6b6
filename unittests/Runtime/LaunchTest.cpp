//===- LaunchTest.cpp - validateLaunch and launchKernel -------------------===//
//
// validateLaunch rejects what a GPU (compute capability 8.x) rejects, with a
// message; launchKernel runs small hand-written PTX kernels with CTA
// barriers, compiled by KernelJIT with the runtime's symbols, and reports
// deadlocks, cancellation and shape mismatches as errors.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/Launch.h"
#include "ptxjit/JIT/KernelJIT.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/Runtime/CTAErrors.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "ptxjit/Runtime/WarpRuntime.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <atomic>
#include <chrono>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTXJIT_LAUNCH_ASAN 1
#include <sanitizer/common_interface_defs.h>
#endif
#endif

using namespace ptxjit;
using namespace llvm;

namespace {

LaunchConfig config(uint32_t GX, uint32_t GY, uint32_t GZ, uint32_t BX,
                    uint32_t BY, uint32_t BZ, uint32_t Dynamic = 0) {
  LaunchConfig C;
  C.Grid[0] = GX, C.Grid[1] = GY, C.Grid[2] = GZ;
  C.Block[0] = BX, C.Block[1] = BY, C.Block[2] = BZ;
  C.DynamicSharedBytes = Dynamic;
  return C;
}

/// The message of a failed validateLaunch, or "" if it passed.
std::string validate(const LaunchConfig &C, const KernelLayout &L = {}) {
  Error E = validateLaunch(C, L);
  return E ? toString(std::move(E)) : std::string();
}

// --stack-size and PTXJIT_STACK_SIZE: bytes per thread, 1..512 KiB.
TEST(ThreadStackSize, ParsesBytesInRange) {
  Expected<uint32_t> B = parseThreadStackSize("4096");
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  EXPECT_EQ(*B, 4096u);
  B = parseThreadStackSize("0x80000");
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  EXPECT_EQ(*B, 512u * 1024);
  for (const char *Bad :
       {"0", "524289", "-1", "4k", "", "99999999999999999999"}) {
    Expected<uint32_t> E = parseThreadStackSize(Bad);
    ASSERT_FALSE(bool(E)) << Bad;
    EXPECT_NE(toString(E.takeError()).find("1 to 524288"), std::string::npos);
  }
}

// 256 native bytes a warp per byte a thread, at least 64 KiB, plus the
// .local frames (32 copies) past a quarter of that.
TEST(ThreadStackSize, MapsToTheWarpStack) {
  KernelLayout L;
  EXPECT_EQ(getWarpStackSize(L, 1024), 256u * 1024);
  EXPECT_EQ(getWarpStackSize(L, 8192), 2048u * 1024);
  EXPECT_EQ(getWarpStackSize(L, 16), 64u * 1024);
  L.LocalBytesPerLane = 2048; // 64 KiB a warp: a quarter of 256 KiB
  EXPECT_EQ(getWarpStackSize(L, 1024), 256u * 1024);
  L.LocalBytesPerLane = 4096; // 128 KiB a warp
  EXPECT_EQ(getWarpStackSize(L, 1024), 384u * 1024);
}

TEST(ValidateLaunch, AcceptsTheLimits) {
  EXPECT_EQ(validate(config(1, 1, 1, 1, 1, 1)), "");
  EXPECT_EQ(validate(config(1, 1, 1, 1024, 1, 1)), "");
  EXPECT_EQ(validate(config(1, 1, 1, 1, 1024, 1)), "");
  EXPECT_EQ(validate(config(1, 1, 1, 16, 1, 64)), "");
  EXPECT_EQ(validate(config(1, 1, 1, 32, 32, 1)), "");
  EXPECT_EQ(validate(config(0x7fffffff, 65535, 65535, 1, 1, 1)), "");
  KernelLayout L;
  L.StaticSharedSize = 16 * 1024;
  EXPECT_EQ(validate(config(1, 1, 1, 32, 1, 1, 32 * 1024), L), "");
}

TEST(ValidateLaunch, RejectsMoreThan1024ThreadsPerBlock) {
  EXPECT_EQ(validate(config(1, 1, 1, 1025, 1, 1)),
            "block dimension x = 1025 is out of range (1..1024)");
  EXPECT_EQ(validate(config(1, 1, 1, 32, 33, 1)),
            "1056 threads per block exceed the limit of 1024");
  EXPECT_EQ(validate(config(1, 1, 1, 32, 32, 2)),
            "2048 threads per block exceed the limit of 1024");
  EXPECT_EQ(validate(config(1, 1, 1, 1, 1025, 1)),
            "block dimension y = 1025 is out of range (1..1024)");
  EXPECT_EQ(validate(config(1, 1, 1, 1, 1, 65)),
            "block dimension z = 65 is out of range (1..64)");
}

TEST(ValidateLaunch, RejectsZeroDimensions) {
  EXPECT_EQ(validate(config(1, 1, 1, 0, 1, 1)),
            "block dimension x = 0 is out of range (1..1024)");
  EXPECT_EQ(validate(config(1, 1, 1, 1, 0, 1)),
            "block dimension y = 0 is out of range (1..1024)");
  EXPECT_EQ(validate(config(1, 1, 1, 1, 1, 0)),
            "block dimension z = 0 is out of range (1..64)");
  EXPECT_EQ(validate(config(0, 1, 1, 1, 1, 1)),
            "grid dimension x = 0 is out of range (1..2147483647)");
  EXPECT_EQ(validate(config(1, 0, 1, 1, 1, 1)),
            "grid dimension y = 0 is out of range (1..65535)");
  EXPECT_EQ(validate(config(1, 1, 0, 1, 1, 1)),
            "grid dimension z = 0 is out of range (1..65535)");
}

TEST(ValidateLaunch, RejectsLargeGrids) {
  EXPECT_EQ(validate(config(1, 65536, 1, 1, 1, 1)),
            "grid dimension y = 65536 is out of range (1..65535)");
  EXPECT_EQ(validate(config(1, 1, 65536, 1, 1, 1)),
            "grid dimension z = 65536 is out of range (1..65535)");
  EXPECT_EQ(validate(config(0x80000000u, 1, 1, 1, 1, 1)),
            "grid dimension x = 2147483648 is out of range (1..2147483647)");
}

// Static shared memory is at most 48 KiB (as ptxas allows); with dynamic
// shared memory a block may have up to sm_80's opt-in 163 KiB (whether a
// kernel opted in is the device layer's check).
TEST(ValidateLaunch, RejectsTooMuchSharedMemory) {
  EXPECT_EQ(validate(config(1, 1, 1, 32, 1, 1, 163 * 1024)), "");
  EXPECT_EQ(validate(config(1, 1, 1, 32, 1, 1, 163 * 1024 + 1)),
            "166913 bytes of shared memory (0 static + 166913 dynamic) exceed "
            "the limit of 166912 per block");
  KernelLayout L;
  L.StaticSharedSize = 40000;
  L.DynamicSharedOffset = 40000;
  EXPECT_EQ(validate(config(1, 1, 1, 32, 1, 1, 126912), L), "");
  EXPECT_EQ(validate(config(1, 1, 1, 32, 1, 1, 126913), L),
            "166913 bytes of shared memory (40000 static + 126913 dynamic) "
            "exceed the limit of 166912 per block");
  L.StaticSharedSize = 50000;
  L.DynamicSharedOffset = 50000;
  EXPECT_EQ(validate(config(1, 1, 1, 32, 1, 1), L),
            "50000 bytes of static shared memory exceed the limit of 49152 "
            "per block");
  // A dynamic size near 2^32 must not wrap around.
  EXPECT_NE(validate(config(1, 1, 1, 32, 1, 1, 0xffffffffu)), "");
}

TEST(ValidateLaunch, RejectsBlocksThatDoNotFitReqntidOrMaxntid) {
  KernelLayout L;
  L.ReqNTid[0] = 128, L.ReqNTid[1] = 1, L.ReqNTid[2] = 1;
  EXPECT_EQ(validate(config(1, 1, 1, 128, 1, 1), L), "");
  EXPECT_EQ(validate(config(1, 1, 1, 256, 1, 1), L),
            "block 256x1x1 does not match the kernel's .reqntid 128, 1, 1");
  KernelLayout M;
  M.MaxNTid[0] = 16, M.MaxNTid[1] = 16, M.MaxNTid[2] = 1;
  EXPECT_EQ(validate(config(1, 1, 1, 256, 1, 1), M), "");
  EXPECT_EQ(validate(config(1, 1, 1, 32, 16, 1), M),
            "512 threads per block exceed the kernel's .maxntid 16, 16, 1");
}

//===----------------------------------------------------------------------===//
// Kernels compiled by KernelJIT and run by launchKernel.
//===----------------------------------------------------------------------===//

// out[g] = s[(t + 1) % ntid] + 1000 * (number of odd threads in the CTA),
// where every thread first stores 3 t + ctaid to s[t]: a bar.sync and a
// bar.red.popc, with a divergent branch before the barrier.
const char *const BarrierKernels = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry rotate(.param .u64 out)
{
  .shared .align 4 .b32 s[1024];
  .reg .u32 %r<20>;
  .reg .u64 %rd<6>;
  .reg .pred %p<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, s;
  shl.b32 %r5, %r1, 2;
  add.u32 %r5, %r4, %r5;
  mad.lo.u32 %r6, %r1, 3, %r3;
  and.b32 %r7, %r1, 1;
  setp.eq.u32 %p1, %r7, 1;
  @%p1 bra ODD;
  st.shared.u32 [%r5], %r6;
  bra.uni JOIN;
ODD:
  st.shared.u32 [%r5], %r6;
JOIN:
  bar.sync 0;
  add.u32 %r8, %r1, 1;
  rem.u32 %r8, %r8, %r2;
  shl.b32 %r8, %r8, 2;
  add.u32 %r8, %r4, %r8;
  ld.shared.u32 %r9, [%r8];
  bar.red.popc.u32 %r10, 0, %p1;
  mad.lo.u32 %r9, %r10, 1000, %r9;
  mad.lo.u32 %r11, %r3, %r2, %r1;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r11, 4;
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r9;
  ret;
}

.visible .entry deadlock(.param .u64 out)
{
  .reg .u32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra HIGH;
  bar.sync 1;
  ret;
HIGH:
  bar.sync 2;
  ret;
}

.visible .entry pokeAfterBarrier(.param .u64 out)
{
  .reg .u32 %r<2>;
  .reg .u64 %rd<2>;
  bar.sync 0;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1], %r1;
  ret;
}

.visible .entry forever(.param .u64 out)
{
  .reg .u32 %r<4>;
  mov.u32 %r1, 0;
LOOP:
  add.u32 %r1, %r1, 1;
  bar.sync 0;
  bra.uni LOOP;
}
)";

/// The 1-based line of BarrierKernels that starts with Text.
unsigned lineOf(StringRef Text) {
  StringRef Rest = BarrierKernels;
  for (unsigned Line = 1; !Rest.empty(); ++Line) {
    auto [Head, Tail] = Rest.split('\n');
    if (Head.starts_with(Text))
      return Line;
    Rest = Tail;
  }
  return 0;
}

#ifdef PTXJIT_LAUNCH_ASAN
/// The bounds of the stack AddressSanitizer takes this thread to run on,
/// asked for by a switch to nowhere and back.
std::pair<uintptr_t, size_t> asanCurrentStack() {
  static thread_local void *Fake = nullptr;
  static thread_local const void *Bottom = nullptr;
  static thread_local size_t Size = 0;
  __sanitizer_start_switch_fiber(&Fake, nullptr, 0);
  __sanitizer_finish_switch_fiber(Fake, &Bottom, &Size);
  __sanitizer_start_switch_fiber(&Fake, Bottom, Size);
  __sanitizer_finish_switch_fiber(Fake, nullptr, nullptr);
  return {reinterpret_cast<uintptr_t>(Bottom), Size};
}
#endif

class LaunchKernelTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Diags;
    raw_string_ostream OS(Diags);
    Expected<std::unique_ptr<ptx::Module>> M = ptx::loadModule(
        MemoryBuffer::getMemBuffer(BarrierKernels, "barriers.ptx"), OS);
    ASSERT_TRUE(bool(M)) << toString(M.takeError()) << Diags;
    Module = std::move(*M);
    JITOptions Opts;
    Opts.Symbols = runtime::getRuntimeSymbols();
    Expected<std::unique_ptr<KernelJIT>> J = KernelJIT::create(Opts);
    ASSERT_TRUE(bool(J)) << toString(J.takeError());
    JIT = std::move(*J);
  }

  /// Compiles Name for a 1-D block of BlockX threads.
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

  /// The parameter buffer of a kernel whose only parameter is a pointer.
  static std::vector<uint8_t> pointerParam(const CompiledKernel &K, void *P) {
    std::vector<uint8_t> Buf(K.Layout.ParamBufferSize + 16, 0);
    std::memcpy(Buf.data() + K.Layout.ParamOffsets.at(0), &P, sizeof P);
    return Buf;
  }

  /// What rotate writes, computed on the host.
  static std::vector<uint32_t> expectedRotate(uint32_t Grid, uint32_t Block) {
    std::vector<uint32_t> Out;
    for (uint32_t C = 0; C < Grid; ++C)
      for (uint32_t T = 0; T < Block; ++T)
        Out.push_back(3 * ((T + 1) % Block) + C + 1000 * (Block / 2));
    return Out;
  }

  std::unique_ptr<ptx::Module> Module;
  std::unique_ptr<KernelJIT> JIT;
};

TEST_F(LaunchKernelTest, RunsBarrierKernelForManyBlockSizes) {
  for (uint32_t Block : {1u, 16u, 32u, 33u, 64u, 100u, 256u, 1024u}) {
    SCOPED_TRACE("block " + std::to_string(Block));
    CompiledKernel K = compile("rotate", Block);
    ASSERT_NE(K.Entry, nullptr);
    EXPECT_TRUE(K.Layout.UsesCTABarriers);
    const uint32_t Grid = 5;
    std::vector<uint32_t> Out(Grid * Block, 0xdeadbeef);
    std::vector<uint8_t> Params = pointerParam(K, Out.data());
    LaunchConfig C = config(Grid, 1, 1, Block, 1, 1);
    LaunchStats Stats;
    Error E = launchKernel(K, Params.data(), C, &Stats);
    ASSERT_FALSE(bool(E)) << toString(std::move(E));
    EXPECT_EQ(Out, expectedRotate(Grid, Block));
    EXPECT_EQ(Stats.CTAs, Grid);
    EXPECT_EQ(Stats.Warps, Grid * ((Block + 31) / 32));
  }
}

TEST_F(LaunchKernelTest, SameResultsOnOneOrManyHostThreads) {
  CompiledKernel K = compile("rotate", 96);
  ASSERT_NE(K.Entry, nullptr);
  for (unsigned Threads : {1u, 2u, 7u, 0u}) {
    SCOPED_TRACE("threads " + std::to_string(Threads));
    const uint32_t Grid = 40;
    std::vector<uint32_t> Out(Grid * 96, 0);
    std::vector<uint8_t> Params = pointerParam(K, Out.data());
    LaunchConfig C = config(Grid, 1, 1, 96, 1, 1);
    C.NumThreads = Threads;
    Error E = launchKernel(K, Params.data(), C);
    ASSERT_FALSE(bool(E)) << toString(std::move(E));
    EXPECT_EQ(Out, expectedRotate(Grid, 96));
  }
}

TEST_F(LaunchKernelTest, LaunchesTheSameKernelAgain) {
  // Nothing in the runtime may assume one launch per process (DESIGN.md).
  CompiledKernel K = compile("rotate", 64);
  ASSERT_NE(K.Entry, nullptr);
  for (int Round = 0; Round < 3; ++Round) {
    std::vector<uint32_t> Out(3 * 64, 0);
    std::vector<uint8_t> Params = pointerParam(K, Out.data());
    Error E = launchKernel(K, Params.data(), config(3, 1, 1, 64, 1, 1));
    ASSERT_FALSE(bool(E)) << toString(std::move(E));
    EXPECT_EQ(Out, expectedRotate(3, 64));
  }
}

TEST_F(LaunchKernelTest, RejectsABlockShapeItWasNotCompiledFor) {
  CompiledKernel K = compile("rotate", 64);
  ASSERT_NE(K.Entry, nullptr);
  std::vector<uint32_t> Out(128, 0);
  std::vector<uint8_t> Params = pointerParam(K, Out.data());
  Error E = launchKernel(K, Params.data(), config(1, 1, 1, 128, 1, 1));
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(toString(std::move(E)),
            "kernel was compiled for a different block shape");
}

TEST_F(LaunchKernelTest, ValidatesBeforeRunning) {
  CompiledKernel K = compile("rotate", 64);
  ASSERT_NE(K.Entry, nullptr);
  std::vector<uint32_t> Out(64, 7);
  std::vector<uint8_t> Params = pointerParam(K, Out.data());
  Error E = launchKernel(K, Params.data(), config(1, 65536, 1, 64, 1, 1));
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(toString(std::move(E)),
            "grid dimension y = 65536 is out of range (1..65535)");
  EXPECT_EQ(Out, std::vector<uint32_t>(64, 7)) << "nothing ran";
}

TEST_F(LaunchKernelTest, ReportsADeadlockAsCTADeadlockError) {
  CompiledKernel K = compile("deadlock", 64);
  ASSERT_NE(K.Entry, nullptr);
  std::vector<uint8_t> Params = pointerParam(K, nullptr);
  Error E = launchKernel(K, Params.data(), config(2, 1, 1, 64, 1, 1));
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
  EXPECT_NE(Message.find("deadlock in kernel 'deadlock', CTA ("),
            std::string::npos)
      << Message;
  std::string Warp0 = "warp 0 lanes 0-31 wait at barrier 1 (line " +
                      std::to_string(lineOf("  bar.sync 1;")) + ")";
  std::string Warp1 = "warp 1 lanes 0-31 wait at barrier 2 (line " +
                      std::to_string(lineOf("  bar.sync 2;")) + ")";
  EXPECT_NE(Message.find(Warp0), std::string::npos) << Message;
  EXPECT_NE(Message.find(Warp1), std::string::npos) << Message;
}

TEST_F(LaunchKernelTest, AFaultOnAFiberReturnsToTheThreadsOwnStack) {
  // A store into the unmapped gap after a device buffer faults on a fiber
  // (the kernel has a barrier) of this thread (one worker): the launch
  // fails, and the thread goes on, on its own stack.
  CompiledKernel Poke = compile("pokeAfterBarrier", 64);
  ASSERT_NE(Poke.Entry, nullptr);
  char *Buffer = static_cast<char *>(runtime::allocateDevice(256, 16));
  ASSERT_NE(Buffer, nullptr);
  std::vector<uint8_t> Params = pointerParam(Poke, Buffer + 4096);
  LaunchConfig C = config(1, 1, 1, 64, 1, 1);
  C.NumThreads = 1;
  Error E = launchKernel(Poke, Params.data(), C);
  ASSERT_TRUE(bool(E));
  std::string Message = toString(std::move(E));
  EXPECT_NE(Message.find("kernel 'pokeAfterBarrier'"), std::string::npos)
      << Message;
  runtime::freeDevice(Buffer);
#ifdef PTXJIT_LAUNCH_ASAN
  // The jump back from the fiber is a stack switch ASan must know about.
  auto [Bottom, Size] = asanCurrentStack();
  uintptr_t Frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  EXPECT_TRUE(Frame >= Bottom && Frame - Bottom < Size)
      << "ASan takes the stack to be [" << Bottom << ", +" << Size << ")";
#endif
  // Fibers run on this thread again.
  CompiledKernel K = compile("rotate", 64);
  ASSERT_NE(K.Entry, nullptr);
  std::vector<uint32_t> Out(2 * 64, 0);
  std::vector<uint8_t> RotateParams = pointerParam(K, Out.data());
  LaunchConfig RC = config(2, 1, 1, 64, 1, 1);
  RC.NumThreads = 1;
  Error RE = launchKernel(K, RotateParams.data(), RC);
  ASSERT_FALSE(bool(RE)) << toString(std::move(RE));
  EXPECT_EQ(Out, expectedRotate(2, 64));
}

TEST_F(LaunchKernelTest, CancelStopsAnEndlessKernel) {
  CompiledKernel K = compile("forever", 64);
  ASSERT_NE(K.Entry, nullptr);
  std::vector<uint8_t> Params = pointerParam(K, nullptr);
  std::atomic<bool> Cancel{false};
  LaunchConfig C = config(16, 1, 1, 64, 1, 1);
  C.Cancel = &Cancel;
  auto Start = std::chrono::steady_clock::now();
  std::thread Stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    Cancel = true;
  });
  Error E = launchKernel(K, Params.data(), C);
  Stopper.join();
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  ASSERT_TRUE(bool(E));
  std::string Message = toString(std::move(E));
  EXPECT_NE(Message.find("cancelled"), std::string::npos) << Message;
  EXPECT_LT(Seconds, 10.0);
}

} // namespace
