//===- ParseBench.cpp - Throughput and memory of the PTX front end --------===//
//
// Parses and verifies one PTX file several times in-process and reports the
// median throughput in MB/s (1 MB = 10^6 bytes of PTX text), and how much
// memory a parsed module costs relative to its text. The memory figures are
// taken on the first run, before freed blocks can be reused:
//   heap     bytes malloc'ed and still held by the live module (mallinfo2);
//   peak     growth of the process's peak resident set while parsing and
//            verifying, over the resident set before (getrusage, /proc).
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/Parser.h"
#include "ptxjit/PTX/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <fstream>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace ptxjit::ptx;

static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<file.ptx>"));
static cl::opt<unsigned> Runs("runs", cl::init(10),
                              cl::desc("Number of timed runs (default 10)"));
static cl::opt<bool> NoVerify("no-verify", cl::desc("Time the parser alone"));

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

/// Current resident set in bytes.
uint64_t currentRSS() {
  std::ifstream Statm("/proc/self/statm");
  uint64_t Pages = 0, Resident = 0;
  Statm >> Pages >> Resident;
  return Resident * uint64_t(sysconf(_SC_PAGESIZE));
}

/// Peak resident set of the process so far, in bytes.
uint64_t peakRSS() {
  struct rusage Usage;
  getrusage(RUSAGE_SELF, &Usage);
  return uint64_t(Usage.ru_maxrss) * 1024;
}

/// Bytes malloc'ed and not freed, counting the large blocks malloc serves
/// with mmap, which uordblks leaves out.
uint64_t heapInUse() {
  struct mallinfo2 Info = mallinfo2();
  return Info.uordblks + Info.hblkhd;
}

struct RunTimes {
  double Parse = 0, Verify = 0;
};

/// Parses (and verifies) Text once into a fresh module, which is returned
/// (null on errors, which go to DiagOS) so the caller decides when it is
/// freed.
std::unique_ptr<Module> runOnce(StringRef Text, StringRef Name,
                                raw_ostream &DiagOS, RunTimes &Times) {
  auto M = std::make_unique<Module>(MemoryBuffer::getMemBuffer(Text, Name));
  DiagnosticEngine Diags(M->getSourceMgr(), DiagOS);
  Clock::time_point Start = Clock::now();
  bool OK = parseModule(*M, Diags);
  Times.Parse = secondsSince(Start);
  if (OK && !NoVerify) {
    Start = Clock::now();
    OK = verifyModule(*M, Diags);
    Times.Verify = secondsSince(Start);
  }
  return OK ? std::move(M) : nullptr;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "ptx-parse-bench: PTX front-end throughput\n");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(InputFile, /*IsText=*/true);
  if (!Buf) {
    WithColor::error(errs(), "ptx-parse-bench")
        << "cannot read '" << InputFile << "': " << Buf.getError().message()
        << '\n';
    return 1;
  }
  StringRef Text = (*Buf)->getBuffer();
  double MB = Text.size() / 1e6;
  if (Runs == 0)
    Runs = 1;

  // First run: memory.
  uint64_t RSSBefore = currentRSS(), HeapBefore = heapInUse();
  RunTimes First;
  std::unique_ptr<Module> M = runOnce(Text, InputFile, errs(), First);
  if (!M) {
    WithColor::error(errs(), "ptx-parse-bench") << "the input has errors\n";
    return 1;
  }
  uint64_t HeapModule = heapInUse() - HeapBefore;
  uint64_t PeakGrowth = peakRSS() > RSSBefore ? peakRSS() - RSSBefore : 0;
  size_t NumStatements = 0, StatementBytes = 0;
  for (const Function &F : M->Functions) {
    NumStatements += F.Body.size();
    StatementBytes += F.Body.capacity() * sizeof(Statement);
  }
  size_t ArenaBytes = M->getAllocatorBytes();
  size_t NumFunctions = M->Functions.size();
  M.reset();

  // Timed runs.
  std::vector<double> Parse, Verify, Total;
  for (unsigned I = 0; I != Runs; ++I) {
    RunTimes T;
    raw_null_ostream Null;
    std::unique_ptr<Module> Run = runOnce(Text, InputFile, Null, T);
    Parse.push_back(T.Parse);
    Verify.push_back(T.Verify);
    Total.push_back(T.Parse + T.Verify);
  }

  raw_ostream &OS = outs();
  OS << "input:   " << InputFile << ": " << format("%.2f", MB) << " MB, "
     << NumFunctions << " functions, " << NumStatements << " statements\n";
  auto Report = [&](StringRef What, const std::vector<double> &Times) {
    double Med = median(Times);
    OS << What << format("%8.2f ms  %8.1f MB/s", Med * 1e3, MB / Med)
       << "  (median of " << Times.size() << " runs; best "
       << format("%.2f", *std::min_element(Times.begin(), Times.end()) * 1e3)
       << " ms)\n";
  };
  Report("parse:  ", Parse);
  if (!NoVerify) {
    Report("verify: ", Verify);
    Report("total:  ", Total);
  }
  OS << "memory:  module heap " << format("%.1f", HeapModule / 1e6) << " MB ("
     << format("%.1f", HeapModule / double(Text.size()))
     << "x input); peak RSS growth " << format("%.1f", PeakGrowth / 1e6)
     << " MB (" << format("%.1f", PeakGrowth / double(Text.size()))
     << "x input)\n";
  OS << "         of which statements " << format("%.1f", StatementBytes / 1e6)
     << " MB (" << sizeof(Statement) << " bytes each), arena "
     << format("%.1f", ArenaBytes / 1e6) << " MB (operands: " << sizeof(Operand)
     << " bytes each)\n";
  return 0;
}
