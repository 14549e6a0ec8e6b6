//===- KernelBench.cpp - PTX kernels under ptx-jit against native C++ -----===//
//
// For each benchmark: deterministic inputs, the native C++ version (built
// with -O3 -march=native, see NativeKernels.cpp) timed on one thread, then
// the PTX kernel from bench/kernels loaded, JIT-compiled and launched on one
// host thread; native and one-thread runs alternate, so that a change in
// machine load hits both alike. Then the kernel on all cores, alternating
// with the peer: the kernel's OpenCL C twin (bench/kernels/<stem>.cl) on an
// OpenCL CPU device (PoCL), also on all cores. Every output is checked
// against the native one; the kernels are written so that all agree bit for
// bit.
//
// A kernel that does not compile or launch yet (e.g. it needs CTA barriers)
// is reported as "skipped: <error>" and the others still run.
//
//===----------------------------------------------------------------------===//

#include "NativeKernels.h"
#include "OpenCLPeer.h"
#include "ptxjit/JIT/KernelJIT.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "ptxjit/Runtime/Launch.h"
#include "ptxjit/Runtime/WarpRuntime.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::bench;

#ifndef PTXJIT_BENCH_KERNEL_DIR
#define PTXJIT_BENCH_KERNEL_DIR "bench/kernels"
#endif

// --help lists these alone, not the LLVM options the library registers.
static cl::OptionCategory BenchCategory("ptx-jit-bench options");

static cl::opt<std::string>
    KernelDir("kernel-dir", cl::init(PTXJIT_BENCH_KERNEL_DIR),
              cl::cat(BenchCategory),
              cl::desc("Directory holding the benchmark PTX files"));
static cl::opt<bool> AddressChecks(
    "address-checks", cl::cat(BenchCategory),
    cl::desc("Compile kernels with the device-range address checks "
             "(`ptx-jit run` does; off by default here)"),
    cl::init(false));
static cl::opt<unsigned> Reps("reps", cl::init(9), cl::cat(BenchCategory),
                              cl::desc("Timed runs of each version"));
static cl::opt<unsigned> Warmup("warmup", cl::init(1), cl::cat(BenchCategory),
                                cl::desc("Untimed runs before the timed ones"));
static cl::opt<unsigned> OptLevel("O", cl::init(2), cl::Prefix,
                                  cl::cat(BenchCategory),
                                  cl::desc("JIT optimization level 0-3"));
static cl::list<std::string>
    Filter("filter", cl::CommaSeparated, cl::cat(BenchCategory),
           cl::desc("Run only benchmarks whose name contains one of these"));
static cl::opt<bool> Quick("quick", cl::cat(BenchCategory),
                           cl::desc("Smaller sizes (a smoke test, not a "
                                    "measurement)"));
static cl::opt<unsigned> FlushMB(
    "flush-mb", cl::init(0), cl::cat(BenchCategory),
    cl::desc("Before every timed run, read this many MiB of other memory so "
             "that the benchmark's data is not in the caches (0: off)"));
static cl::opt<bool> NoMultiThread("no-mt", cl::cat(BenchCategory),
                                   cl::desc("Skip the all-cores runs (ptx-jit "
                                            "and the OpenCL peer)"));
static cl::opt<bool> NoPeer("no-peer", cl::cat(BenchCategory),
                            cl::desc("Skip the OpenCL peer (PoCL) runs"));

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - Start)
      .count();
}

/// A zero-filled, 64-byte aligned array that owns its memory.
template <typename T> class Buffer {
public:
  Buffer() = default;
  explicit Buffer(size_t N) : N(N) {
    size_t Bytes = (N * sizeof(T) + 63) / 64 * 64;
    // Device memory, as `ptx-jit run` and cudaMalloc give kernels.
    P = static_cast<T *>(runtime::allocateDevice(Bytes ? Bytes : 64, 256));
    if (!P)
      report_fatal_error("out of memory");
    // Touch every page now, so no timed run pays for first-touch faults.
    std::memset(static_cast<void *>(P), 0, Bytes);
  }
  Buffer(Buffer &&O) : P(O.P), N(O.N) { O.P = nullptr; }
  Buffer &operator=(Buffer &&O) {
    std::swap(P, O.P);
    std::swap(N, O.N);
    return *this;
  }
  ~Buffer() { runtime::freeDevice(P); }
  T *data() { return P; }
  const T *data() const { return P; }
  size_t size() const { return N; }
  T &operator[](size_t I) { return P[I]; }

private:
  T *P = nullptr;
  size_t N = 0;
};

/// Deterministic floats in [-1, 1) from a SplitMix64 stream; multiples of
/// 2^-23 so they are exact in float.
void fillRandom(Buffer<float> &B, uint64_t Seed) {
  uint64_t S = Seed;
  for (size_t I = 0; I != B.size(); ++I) {
    uint64_t Z = (S += 0x9E3779B97F4A7C15ull);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
    Z ^= Z >> 31;
    B[I] = float(int32_t(Z >> 40) - (1 << 23)) * 0x1p-23f;
  }
}

/// The kernel's arguments, each as the bytes its parameter holds.
class ParamList {
public:
  ParamList &addI32(int32_t V) { return addBytes(&V, sizeof V); }
  ParamList &addU32(uint32_t V) { return addBytes(&V, sizeof V); }
  ParamList &addF32(float V) { return addBytes(&V, sizeof V); }
  /// A pointer to Bytes bytes of the harness's memory (the OpenCL twin
  /// gets a buffer over them).
  ParamList &addPtr(const void *V, size_t Bytes) {
    addBytes(&V, sizeof V);
    PointerArg.back() = true;
    Extents.push_back({V, Bytes});
    return *this;
  }

  template <typename T> ParamList &addBuf(const Buffer<T> &B) {
    return addPtr(B.data(), B.size() * sizeof(T));
  }

  /// The same arguments for the OpenCL twin: pointers become buffers.
  std::vector<OpenCLArg> toOpenCL() const {
    std::vector<OpenCLArg> CL;
    for (size_t I = 0, P = 0; I != Args.size(); ++I) {
      OpenCLArg A;
      if (P < Extents.size() && PointerArg[I]) {
        A.IsBuffer = true;
        A.Data = Extents[P].first;
        A.Size = Extents[P].second;
        ++P;
      } else {
        A.Data = Args[I].data();
        A.Size = Args[I].size();
      }
      CL.push_back(A);
    }
    return CL;
  }

  /// Lays the arguments out as the compiled kernel expects them.
  Expected<std::vector<uint8_t>> pack(const ptx::Function &F,
                                      const KernelLayout &L) const {
    if (Args.size() != F.Params.size() || L.ParamOffsets.size() != Args.size())
      return createStringError(
          inconvertibleErrorCode(),
          formatv("kernel takes {0} parameters, the benchmark passes {1}",
                  F.Params.size(), Args.size()));
    std::vector<uint8_t> Buf(L.ParamBufferSize + 16, 0);
    for (size_t I = 0; I != Args.size(); ++I) {
      uint64_t Size = F.Params[I].getSizeInBytes();
      if (Size != Args[I].size() ||
          L.ParamOffsets[I] + Size > L.ParamBufferSize)
        return createStringError(
            inconvertibleErrorCode(),
            formatv("parameter {0} ('{1}') has {2} bytes at offset {3} of "
                    "{4}; the benchmark passes {5}",
                    I, F.Params[I].Name, Size, L.ParamOffsets[I],
                    L.ParamBufferSize, Args[I].size()));
      std::memcpy(Buf.data() + L.ParamOffsets[I], Args[I].data(), Size);
    }
    return Buf;
  }

private:
  ParamList &addBytes(const void *P, size_t N) {
    const uint8_t *B = static_cast<const uint8_t *>(P);
    Args.emplace_back(B, B + N);
    PointerArg.push_back(false);
    return *this;
  }
  std::vector<std::vector<uint8_t>> Args;
  std::vector<bool> PointerArg;
  std::vector<std::pair<const void *, size_t>> Extents;
};

/// A benchmark's output: 32-bit words (floats or unsigned integers),
/// compared with the native version's bit for bit.
struct OutputView {
  void *Data = nullptr;
  size_t Words = 0;
  bool IsFloat = true;
  template <typename T> static OutputView of(Buffer<T> &B) {
    static_assert(sizeof(T) == 4, "outputs are 32-bit words");
    return {B.data(), B.size(), std::is_floating_point_v<T>};
  }
  uint32_t word(size_t I) const {
    uint32_t W;
    std::memcpy(&W, static_cast<const char *>(Data) + 4 * I, 4);
    return W;
  }
};

/// One benchmark. The output is one array of 32-bit words, compared with
/// the native version's bit for bit.
class Benchmark {
public:
  virtual ~Benchmark() = default;

  std::string Name;   ///< the table's row label
  std::string Size;   ///< problem size, for the table
  std::string File;   ///< PTX file in KernelDir; the OpenCL C twin is the
                      ///< .cl file of the same stem
  std::string Kernel; ///< .entry name
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};

  /// bar.sync each warp executes (kernels with CTA barriers), for the
  /// time per barrier per warp; 0 for kernels without.
  virtual uint64_t barriersPerWarp() const { return 0; }
  uint64_t warpBarriers() const {
    uint64_t Threads = uint64_t(Block[0]) * Block[1] * Block[2];
    uint64_t CTAs = uint64_t(Grid[0]) * Grid[1] * Grid[2];
    return CTAs * ((Threads + 31) / 32) * barriersPerWarp();
  }

  /// Allocates and fills the inputs.
  virtual void setUp() = 0;
  /// Puts the output (and any in-place input) back in its initial state;
  /// runs before every run, untimed.
  virtual void reset() = 0;
  virtual void runNative() = 0;
  virtual ParamList params() = 0;
  virtual OutputView output() = 0;

  /// Resets the output to a pattern no kernel produces, so a kernel that
  /// writes nothing is caught.
  void poisonOutput() { std::memset(output().Data, 0xff, output().Words * 4); }
};

/// Writes a fresh NaN pattern into the output before each run.
class PoisonedOutputBenchmark : public Benchmark {
public:
  void reset() override { poisonOutput(); }
};

class VectorAddBench : public PoisonedOutputBenchmark {
public:
  explicit VectorAddBench(int64_t N) : N(N) {
    Name = "vector_add";
    Size = formatv("{0}M", N >> 20);
    File = "vector_add.ptx";
    Kernel = "vector_add";
    Block[0] = 256;
    Grid[0] = uint32_t((N + 255) / 256);
  }
  void setUp() override {
    A = Buffer<float>(N);
    B = Buffer<float>(N);
    C = Buffer<float>(N);
    fillRandom(A, 1);
    fillRandom(B, 2);
  }
  void runNative() override {
    nativeVectorAdd(A.data(), B.data(), C.data(), N);
  }
  ParamList params() override {
    return ParamList().addBuf(A).addBuf(B).addBuf(C).addI32(int32_t(N));
  }
  OutputView output() override { return OutputView::of(C); }

private:
  int64_t N;
  Buffer<float> A, B, C;
};

class SaxpyBench : public Benchmark {
public:
  explicit SaxpyBench(int64_t N) : N(N) {
    Name = "saxpy";
    Size = formatv("{0}M", N >> 20);
    File = "saxpy.ptx";
    Kernel = "saxpy";
    Block[0] = 256;
    Grid[0] = uint32_t((N + 255) / 256);
  }
  void setUp() override {
    X = Buffer<float>(N);
    Y0 = Buffer<float>(N);
    Y = Buffer<float>(N);
    fillRandom(X, 3);
    fillRandom(Y0, 4);
  }
  // y is updated in place: start every run from the same y.
  void reset() override { std::memcpy(Y.data(), Y0.data(), N * sizeof(float)); }
  void runNative() override { nativeSaxpy(N, Alpha, X.data(), Y.data()); }
  ParamList params() override {
    return ParamList().addI32(int32_t(N)).addF32(Alpha).addBuf(X).addBuf(Y);
  }
  OutputView output() override { return OutputView::of(Y); }

private:
  int64_t N;
  const float Alpha = 1.75f;
  Buffer<float> X, Y0, Y;
};

class SgemmBench : public PoisonedOutputBenchmark {
public:
  SgemmBench(StringRef BenchName, StringRef KernelName, int Dim, uint32_t BX,
             uint32_t BY)
      : M(Dim), N(Dim), K(Dim) {
    Name = BenchName.str();
    Size = formatv("{0}x{1}x{2} b{3}x{4}", M, N, K, BX, BY);
    File = KernelName.starts_with("sgemm_tiled") ? "sgemm_tiled.ptx"
                                                 : "sgemm_naive.ptx";
    Kernel = KernelName.str();
    Block[0] = BX;
    Block[1] = BY;
    Grid[0] = (N + BX - 1) / BX;
    Grid[1] = (M + BY - 1) / BY;
  }
  void setUp() override {
    A = Buffer<float>(size_t(M) * K);
    B = Buffer<float>(size_t(K) * N);
    C = Buffer<float>(size_t(M) * N);
    fillRandom(A, 5);
    fillRandom(B, 6);
  }
  void runNative() override {
    nativeSgemm(M, N, K, A.data(), B.data(), C.data());
  }
  ParamList params() override {
    return ParamList().addI32(M).addI32(N).addI32(K).addBuf(A).addBuf(B).addBuf(
        C);
  }
  OutputView output() override { return OutputView::of(C); }
  /// Two per tile (sgemm_tiled.cu).
  uint64_t barriersPerWarp() const override {
    return StringRef(Kernel).starts_with("sgemm_tiled") ? 2 * (K / Block[0])
                                                        : 0;
  }

private:
  int M, N, K;
  Buffer<float> A, B, C;
};

class Stencil5Bench : public PoisonedOutputBenchmark {
public:
  explicit Stencil5Bench(int Dim) : W(Dim), H(Dim) {
    Name = "stencil5";
    Size = formatv("{0}x{1} b32x8", W, H);
    File = "stencil5.ptx";
    Kernel = "stencil5";
    Block[0] = 32;
    Block[1] = 8;
    Grid[0] = (W + 31) / 32;
    Grid[1] = (H + 7) / 8;
  }
  void setUp() override {
    In = Buffer<float>(size_t(W) * H);
    Out = Buffer<float>(size_t(W) * H);
    fillRandom(In, 7);
  }
  void runNative() override {
    nativeStencil5(W, H, C0, C1, In.data(), Out.data());
  }
  ParamList params() override {
    return ParamList()
        .addI32(W)
        .addI32(H)
        .addF32(C0)
        .addF32(C1)
        .addBuf(In)
        .addBuf(Out);
  }
  OutputView output() override { return OutputView::of(Out); }

private:
  int W, H;
  const float C0 = 0.5f, C1 = 0.125f;
  Buffer<float> In, Out;
};

class ReduceBench : public PoisonedOutputBenchmark {
public:
  ReduceBench(StringRef KernelName, uint32_t N) : N(N) {
    Name = KernelName.str();
    Size = formatv("{0}M b256", N >> 20);
    File = "reduce.ptx";
    Kernel = KernelName.str();
    Block[0] = BlockSize;
    Grid[0] = (N + 2 * BlockSize - 1) / (2 * BlockSize);
  }
  void setUp() override {
    In = Buffer<float>(N);
    Partial = Buffer<float>(Grid[0]);
    fillRandom(In, 8);
  }
  void runNative() override {
    nativeBlockReduce(In.data(), Partial.data(), N, BlockSize);
  }
  ParamList params() override {
    return ParamList().addBuf(In).addBuf(Partial).addU32(N);
  }
  OutputView output() override { return OutputView::of(Partial); }
  /// After the load, then per halving step: 8 steps down to 1 with shared
  /// memory only, 3 (128, 64, 32) before the shuffles (reduce.cu).
  uint64_t barriersPerWarp() const override {
    return 1 + (Kernel == "reduce_smem" ? 8 : 3);
  }

private:
  static constexpr unsigned BlockSize = 256; // BLOCK in reduce.cu
  uint32_t N;
  Buffer<float> In, Partial;
};

class HistogramBench : public Benchmark {
public:
  explicit HistogramBench(uint32_t N) : N(N) {
    Name = "histogram";
    Size = formatv("{0}M bytes b256", N >> 20);
    File = "histogram.ptx";
    Kernel = "histogram_smem";
    Block[0] = BlockSize;
    Grid[0] = NumBlocks;
  }
  void setUp() override {
    Data = Buffer<uint8_t>(N);
    Hist = Buffer<uint32_t>(Bins);
    // Uniformly distributed bytes: few lanes of a warp hit the same bin.
    uint64_t S = 9;
    for (size_t I = 0; I < N; I += 8) {
      uint64_t Z = (S += 0x9E3779B97F4A7C15ull);
      Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
      Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
      Z ^= Z >> 31;
      std::memcpy(Data.data() + I, &Z, std::min<size_t>(8, N - I));
    }
  }
  // The kernel adds to the histogram: start from zero.
  void reset() override { std::memset(Hist.data(), 0, Bins * 4); }
  void runNative() override {
    nativeHistogram(Data.data(), N, Hist.data(), NumBlocks, BlockSize);
  }
  ParamList params() override {
    return ParamList().addBuf(Data).addU32(N).addBuf(Hist);
  }
  OutputView output() override { return OutputView::of(Hist); }
  /// One after clearing the block's histogram, one before adding it up.
  uint64_t barriersPerWarp() const override { return 2; }

private:
  static constexpr unsigned Bins = 256, BlockSize = 256, NumBlocks = 1024;
  uint32_t N;
  Buffer<uint8_t> Data;
  Buffer<uint32_t> Hist;
};

struct Timing {
  double Min = 0, Median = 0;
};

Timing summarize(std::vector<double> Ms) {
  Timing T;
  if (Ms.empty())
    return T;
  std::sort(Ms.begin(), Ms.end());
  T.Min = Ms.front();
  size_t H = Ms.size() / 2;
  T.Median = Ms.size() % 2 ? Ms[H] : (Ms[H - 1] + Ms[H]) / 2;
  return T;
}

/// Evicts the benchmark's data from the caches (--flush-mb): reads a
/// buffer bigger than the last-level cache. Reading, not writing, so that no
/// dirty lines of its own are left to write back during the timed run.
class CacheFlusher {
public:
  CacheFlusher() {
    if (FlushMB)
      Lines = Buffer<uint64_t>(size_t(FlushMB) << 17);
  }
  void flush() {
    uint64_t Sum = 0;
    for (size_t I = 0; I < Lines.size(); I += 8)
      Sum += Lines[I];
    Sink = Sum;
  }

private:
  Buffer<uint64_t> Lines;
  volatile uint64_t Sink = 0;
};

CacheFlusher &flusher() {
  static CacheFlusher F;
  return F;
}

/// Runs Body Warmup + Reps times, each after Reset; times only Body.
template <typename ResetFn, typename BodyFn>
Expected<Timing> measure(ResetFn Reset, BodyFn Body) {
  std::vector<double> Ms;
  for (unsigned R = 0; R != Warmup + Reps; ++R) {
    Reset();
    flusher().flush();
    auto Start = Clock::now();
    if (Error E = Body())
      return std::move(E);
    double T = msSince(Start);
    if (R >= Warmup)
      Ms.push_back(T);
  }
  return summarize(std::move(Ms));
}

/// Compares the output with the native one: "exact" or what differs.
std::string compareOutputs(const OutputView &Got,
                           const std::vector<uint32_t> &Want, bool &OK) {
  size_t Diff = 0, First = 0;
  double MaxRel = 0;
  auto Value = [&](uint32_t W) -> double {
    if (!Got.IsFloat)
      return W;
    float F;
    std::memcpy(&F, &W, 4);
    return F;
  };
  for (size_t I = 0; I != Want.size(); ++I) {
    uint32_t G = Got.word(I), W = Want[I];
    if (G == W)
      continue;
    if (!Diff++)
      First = I;
    double A = Value(G), B = Value(W);
    double Rel = std::fabs(A - B) / std::max(std::fabs(B), 1e-30);
    MaxRel = std::isnan(Rel) ? INFINITY : std::max(MaxRel, Rel);
  }
  OK = Diff == 0;
  if (OK)
    return "exact";
  return formatv("MISMATCH: {0} of {1} differ (first at {2}: {3} vs {4}), "
                 "max rel err {5:e}",
                 Diff, Want.size(), First, Value(Got.word(First)),
                 Value(Want[First]), MaxRel);
}

struct Row {
  std::string Name, Size;
  Timing Native, JIT1, JITAll, Peer;
  double JITCompileMs = 0;
  bool HasMultiThread = false, HasPeer = false;
  uint64_t WarpBarriers = 0;
  std::string Check;
  std::string Skipped; ///< why the kernel did not run, if it did not
};

void printHeader(raw_ostream &OS) {
  OS << formatv("{0,-14} {1,-20} {2,9} {3,9} {4,9} {5,9} {6,8} {7,8} {8,7} "
                "{9,8}  {10}\n",
                "benchmark", "size", "native", "PoCL", "ptx-jit", "ptx-jit",
                "ptx-jit", "ptx-jit", "JIT", "1T ns/", "check");
  OS << formatv("{0,-14} {1,-20} {2,9} {3,9} {4,9} {5,9} {6,8} {7,8} {8,7} "
                "{9,8}\n",
                "", "", "1T ms", "MT ms", "1T ms", "MT ms", "/native", "/PoCL",
                "ms", "warp-bar");
  OS << std::string(120, '-') << "\n";
}

void printRow(raw_ostream &OS, const Row &R) {
  if (!R.Skipped.empty()) {
    OS << formatv("{0,-14} {1,-20} {2,9:f2}  skipped: {3}\n", R.Name, R.Size,
                  R.Native.Min, R.Skipped);
    return;
  }
  auto Ms = [](bool Has, double V) {
    return Has ? formatv("{0:f2}", V).str() : std::string("-");
  };
  auto Ratio = [](bool Has, double A, double B) {
    return Has ? formatv("{0:f2}x", A / B).str() : std::string("-");
  };
  // The whole run time per warp per barrier: what one barrier costs at
  // most, everything else included.
  std::string PerBarrier =
      R.WarpBarriers
          ? formatv("{0:f1}", R.JIT1.Min * 1e6 / R.WarpBarriers).str()
          : std::string("-");
  OS << formatv("{0,-14} {1,-20} {2,9:f2} {3,9} {4,9:f2} {5,9} {6,8} {7,8} "
                "{8,7:f1} {9,8}  {10}\n",
                R.Name, R.Size, R.Native.Min, Ms(R.HasPeer, R.Peer.Min),
                R.JIT1.Min, Ms(R.HasMultiThread, R.JITAll.Min),
                Ratio(true, R.JIT1.Min, R.Native.Min),
                Ratio(R.HasMultiThread && R.HasPeer, R.JITAll.Min, R.Peer.Min),
                R.JITCompileMs, PerBarrier, R.Check);
}

std::string errorText(Error E) {
  std::string S = toString(std::move(E));
  // One line in the table.
  std::replace(S.begin(), S.end(), '\n', ' ');
  return S;
}

class Harness {
public:
  Harness(std::unique_ptr<KernelJIT> J, std::unique_ptr<OpenCLPeer> Peer)
      : J(std::move(J)), Peer(std::move(Peer)) {}

  /// Runs one benchmark; false if its output was wrong.
  bool run(Benchmark &B) {
    Row R;
    R.Name = B.Name;
    R.Size = B.Size;
    R.WarpBarriers = B.warpBarriers();
    B.setUp();
    bool OK = runBoth(B, R);
    printRow(outs(), R);
    outs().flush();
    return OK;
  }

private:
  /// Compiles the kernel, or says in R.Skipped why it cannot run.
  std::optional<CompiledKernel> compile(Benchmark &B, const ptx::Function *&F,
                                        Row &R) {
    Expected<const ptx::Module *> M = getModule(B.File);
    if (!M) {
      R.Skipped = errorText(M.takeError());
      return std::nullopt;
    }
    F = (*M)->findFunction(B.Kernel);
    if (!F || !F->IsEntry) {
      R.Skipped = "no kernel '" + B.Kernel + "' in " + B.File;
      return std::nullopt;
    }
    KernelShape Shape;
    std::copy(B.Block, B.Block + 3, Shape.BlockDim);
    auto Start = Clock::now();
    Expected<CompiledKernel> K = J->compile(**M, B.Kernel, Shape);
    R.JITCompileMs = msSince(Start);
    if (!K) {
      R.Skipped = errorText(K.takeError());
      return std::nullopt;
    }
    return std::move(*K);
  }

  /// Times the native version and the kernel on one thread, alternating
  /// run by run so that a change in machine load hits both alike; then the
  /// kernel on all cores. Fills in R; false on a wrong result.
  bool runBoth(Benchmark &B, Row &R) {
    const ptx::Function *F = nullptr;
    std::optional<CompiledKernel> K = compile(B, F, R);
    std::vector<uint8_t> Params;
    if (K) {
      Expected<std::vector<uint8_t>> P = B.params().pack(*F, K->Layout);
      if (P)
        Params = std::move(*P);
      else
        R.Skipped = errorText(P.takeError());
    }
    LaunchConfig Config;
    std::copy(B.Grid, B.Grid + 3, Config.Grid);
    std::copy(B.Block, B.Block + 3, Config.Block);
    auto Launch = [&](unsigned Threads) {
      Config.NumThreads = Threads;
      return launchKernel(*K, Params.data(), Config);
    };

    // The native output is the reference; every native run gives the same.
    std::vector<uint32_t> Reference(B.output().Words);
    std::vector<double> NativeMs, OneMs;
    for (unsigned Run = 0; Run != Warmup + Reps; ++Run) {
      B.reset();
      flusher().flush();
      auto Start = Clock::now();
      B.runNative();
      double T = msSince(Start);
      if (Run >= Warmup)
        NativeMs.push_back(T);
      if (Run == 0)
        std::memcpy(Reference.data(), B.output().Data, Reference.size() * 4);
      if (!R.Skipped.empty())
        continue;
      B.reset();
      flusher().flush();
      Start = Clock::now();
      Error E = Launch(1);
      T = msSince(Start);
      if (E)
        R.Skipped = errorText(std::move(E));
      else if (Run >= Warmup)
        OneMs.push_back(T);
    }
    R.Native = summarize(NativeMs);
    if (!R.Skipped.empty())
      return true;
    R.JIT1 = summarize(OneMs);
    bool OK;
    R.Check = compareOutputs(B.output(), Reference, OK);
    if (!OK || NoMultiThread)
      return OK;

    // All cores: ptx-jit and the OpenCL twin, alternating.
    std::unique_ptr<OpenCLLaunch> CL = preparePeer(B, R);
    std::vector<double> AllMs, PeerMs;
    for (unsigned Run = 0; Run != Warmup + Reps; ++Run) {
      bool Last = Run + 1 == Warmup + Reps;
      B.reset();
      flusher().flush();
      auto Start = Clock::now();
      Error E = Launch(0);
      double T = msSince(Start);
      if (E) {
        R.Check += "; all cores: " + errorText(std::move(E));
        return false;
      }
      if (Run >= Warmup)
        AllMs.push_back(T);
      if (Last) {
        std::string MTCheck = compareOutputs(B.output(), Reference, OK);
        if (!OK) {
          R.Check += "; all cores: " + MTCheck;
          return false;
        }
      }
      if (!CL)
        continue;
      if (Error E = runPeer(B, *CL, Reference, Run >= Warmup, Last, PeerMs)) {
        R.Check += "; PoCL: " + errorText(std::move(E));
        CL.reset();
        PeerMs.clear();
      }
    }
    R.JITAll = summarize(AllMs);
    R.HasMultiThread = true;
    if (!PeerMs.empty()) {
      R.Peer = summarize(PeerMs);
      R.HasPeer = true;
    }
    return true;
  }

  /// The OpenCL twin with the benchmark's buffers bound, or null (with a
  /// note in R.Check when it should have run).
  std::unique_ptr<OpenCLLaunch> preparePeer(Benchmark &B, Row &R) {
    if (!Peer || NoPeer)
      return nullptr;
    std::string Path =
        (KernelDir + "/" + StringRef(B.File).rsplit('.').first + ".cl").str();
    size_t Global[3], Local[3];
    for (unsigned D = 0; D != 3; ++D) {
      Global[D] = size_t(B.Grid[D]) * B.Block[D];
      Local[D] = B.Block[D];
    }
    // The scalars' bytes live in the list: keep it until the kernel has
    // its arguments.
    ParamList Params = B.params();
    std::vector<OpenCLArg> Args = Params.toOpenCL();
    Expected<std::unique_ptr<OpenCLLaunch>> L =
        Peer->prepare(Path, B.Kernel, Args, Global, Local);
    if (!L) {
      R.Check += "; PoCL: " + errorText(L.takeError());
      return nullptr;
    }
    return std::move(*L);
  }

  /// One run of the OpenCL twin: the reset arrays copied in, the timed run,
  /// and on the last run the output copied back and checked. A wrong
  /// output is an error.
  Error runPeer(Benchmark &B, OpenCLLaunch &CL,
                const std::vector<uint32_t> &Reference, bool Timed, bool Last,
                std::vector<double> &Ms) {
    B.reset();
    if (Error E = CL.upload())
      return E;
    flusher().flush();
    auto Start = Clock::now();
    if (Error E = CL.run())
      return E;
    double T = msSince(Start);
    if (Timed)
      Ms.push_back(T);
    if (!Last)
      return Error::success();
    if (Error E = CL.download())
      return E;
    bool OK;
    std::string Check = compareOutputs(B.output(), Reference, OK);
    if (!OK)
      return createStringError(Check);
    return Error::success();
  }

  Expected<const ptx::Module *> getModule(StringRef File) {
    auto It = Modules.find(File);
    if (It != Modules.end())
      return It->second.get();
    std::string Path = (KernelDir + "/" + File).str();
    std::string Diags;
    raw_string_ostream DiagOS(Diags);
    Expected<std::unique_ptr<ptx::Module>> M =
        ptx::loadModuleFile(Path, DiagOS);
    if (!M) {
      std::string Msg = toString(M.takeError());
      if (!StringRef(Msg).contains(Path))
        Msg = Path + ": " + Msg;
      if (!Diags.empty())
        Msg += ": " + Diags;
      return createStringError(inconvertibleErrorCode(), Msg);
    }
    const ptx::Module *P = M->get();
    Modules[File] = std::move(*M);
    return P;
  }

  std::unique_ptr<KernelJIT> J;
  std::unique_ptr<OpenCLPeer> Peer;
  StringMap<std::unique_ptr<ptx::Module>> Modules;
};

using BenchmarkFactory = std::function<std::unique_ptr<Benchmark>()>;

std::vector<BenchmarkFactory> allBenchmarks() {
  int64_t Vec = Quick ? 1 << 20 : 16 << 20;
  int Gemm = Quick ? 128 : 512;
  int Grid2D = Quick ? 512 : 2048;
  uint32_t Red = Quick ? 1 << 20 : 16 << 20;
  std::vector<BenchmarkFactory> L;
  L.push_back([=] { return std::make_unique<VectorAddBench>(Vec); });
  L.push_back([=] { return std::make_unique<SaxpyBench>(Vec); });
  // The same naive kernel with two block shapes: with 32 threads in x a
  // warp is one row, so B's loads are consecutive and A's are uniform; with
  // 16x16 a warp spans two rows.
  L.push_back([=] {
    return std::make_unique<SgemmBench>("sgemm_naive", "sgemm_naive", Gemm, 32,
                                        8);
  });
  L.push_back([=] {
    return std::make_unique<SgemmBench>("sgemm_naive", "sgemm_naive", Gemm, 16,
                                        16);
  });
  L.push_back([=] { return std::make_unique<Stencil5Bench>(Grid2D); });
  // These need CTA barriers (and reduce_shfl, shfl.sync).
  L.push_back([=] {
    return std::make_unique<SgemmBench>("sgemm_tiled16", "sgemm_tiled16", Gemm,
                                        16, 16);
  });
  L.push_back([=] {
    return std::make_unique<SgemmBench>("sgemm_tiled32", "sgemm_tiled32", Gemm,
                                        32, 32);
  });
  L.push_back(
      [=] { return std::make_unique<ReduceBench>("reduce_smem", Red); });
  L.push_back(
      [=] { return std::make_unique<ReduceBench>("reduce_shfl", Red); });
  L.push_back([=] { return std::make_unique<HistogramBench>(Red); });
  return L;
}

bool selected(StringRef Name) {
  if (Filter.empty())
    return true;
  for (const std::string &F : Filter)
    if (Name.contains(F))
      return true;
  return false;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(BenchCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ptx-jit-bench: PTX kernels under ptx-jit against native C++\n");
  if (OptLevel > 3) {
    errs() << "ptx-jit-bench: -O must be 0-3\n";
    return 2;
  }
  if (Reps == 0) {
    errs() << "ptx-jit-bench: --reps must be at least 1\n";
    return 2;
  }
  JITOptions JO;
  JO.OptLevel = OptLevel;
  JO.CheckAddresses = AddressChecks;
  // Barriers and warp-synchronous instructions call into the runtime.
  JO.Symbols = runtime::getRuntimeSymbols();
  Expected<std::unique_ptr<KernelJIT>> J = KernelJIT::create(JO);
  if (!J) {
    errs() << "ptx-jit-bench: " << toString(J.takeError()) << "\n";
    return 1;
  }

  outs() << formatv("ptx-jit-bench: JIT -O{0}, {1} warm-up + {2} timed runs "
                    "each; {3} hardware threads; min times in ms (1T: one "
                    "host thread, MT: all cores)\n",
                    unsigned(OptLevel), unsigned(Warmup), unsigned(Reps),
                    std::thread::hardware_concurrency());
  std::unique_ptr<OpenCLPeer> Peer;
  if (!NoPeer && !NoMultiThread) {
    Expected<std::unique_ptr<OpenCLPeer>> P = OpenCLPeer::create();
    if (P) {
      Peer = std::move(*P);
      outs() << "peer: " << Peer->describe() << "\n";
    } else {
      outs() << "peer: none: " << errorText(P.takeError()) << "\n";
    }
  }
  outs() << "\n";
  printHeader(outs());
  Harness H(std::move(*J), std::move(Peer));
  unsigned Failures = 0;
  for (const BenchmarkFactory &Make : allBenchmarks()) {
    std::unique_ptr<Benchmark> B = Make();
    if (!selected(B->Name))
      continue;
    if (!H.run(*B))
      ++Failures;
  }
  if (Failures) {
    errs() << "ptx-jit-bench: " << Failures
           << " benchmark(s) gave wrong results\n";
    return 1;
  }
  return 0;
}
