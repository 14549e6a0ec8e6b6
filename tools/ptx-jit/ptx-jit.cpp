//===- ptx-jit.cpp - The ptx-jit command-line tool ------------------------===//
//
// A thin driver: parses options and calls the libraries. Subcommands:
//   check      parse and verify a PTX file
//   list       print kernels, device functions and their parameters
//   print      parse a PTX file and print it back (the AST printer), or
//              as a pass of the lowering pipeline leaves it (--after)
//   run        run one kernel with arguments given on the command line
//   emit-llvm  print the warp-vectorized LLVM IR of a kernel
//   ptx        print the PTX Clang compiles a CUDA source file to
//   exec       run a CUDA program with ptx-jit's CUDA runtime library
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Cache/DiskCache.h"
#include "ptxjit/Device/Interrupt.h"
#include "ptxjit/Driver/ExecProgram.h"
#include "ptxjit/Driver/ListModule.h"
#include "ptxjit/Driver/LoadInput.h"
#include "ptxjit/Driver/RunKernel.h"
#include "ptxjit/JIT/KernelJIT.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/ASTEquivalence.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/PTX/ModuleInfo.h"
#include "ptxjit/PTX/Printer.h"
#include "ptxjit/Runtime/Checking.h"
#include "ptxjit/Runtime/Launch.h"
#include "ptxjit/Transforms/Pipeline.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include <chrono>
#include <csignal>
#include <cstdlib>

using namespace llvm;
using namespace ptxjit;

// ptx-jit's own options; LLVM's hundreds of backend options stay hidden.
static cl::OptionCategory PtxJitCategory("ptx-jit options");
static cl::OptionCategory LaunchCategory("Launch options (run)");
static cl::OptionCategory ArgumentCategory(
    "Kernel argument options (run): --arg SPEC, one per parameter");
static cl::OptionCategory CUDASourceCategory(
    "CUDA source options (inputs named *.cu, compiled in-process by Clang)");

static cl::SubCommand CheckCmd("check", "Parse and verify a PTX file");
static cl::SubCommand ListCmd("list",
                              "List kernels and device functions of a PTX "
                              "file with their parameters");
static cl::SubCommand PrintCmd("print",
                               "Parse a PTX file and print it back as PTX");

static cl::SubCommand RunCmd("run", "Run one kernel of a PTX file");
static cl::SubCommand
    EmitLLVMCmd("emit-llvm", "Print the warp-vectorized LLVM IR of a kernel");

static cl::SubCommand PTXCmd("ptx",
                             "Print the PTX a CUDA source file (.cu) compiles "
                             "to");

static cl::SubCommand ExecCmd("exec",
                              "Run a CUDA program (built with nvcc -cudart "
                              "shared) with ptx-jit's libcudart.so.13");
static cl::opt<std::string> ExecProgramName(cl::Positional, cl::Required,
                                            cl::desc("<program>"),
                                            cl::sub(ExecCmd),
                                            cl::cat(PtxJitCategory));
// Everything after the program is the program's.
static cl::list<std::string> ExecArgs(cl::ConsumeAfter,
                                      cl::desc("[program arguments...]"),
                                      cl::sub(ExecCmd),
                                      cl::cat(PtxJitCategory));

static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<file.ptx | file.cu | ->"),
                                      cl::sub(CheckCmd), cl::sub(ListCmd),
                                      cl::sub(PrintCmd), cl::sub(RunCmd),
                                      cl::sub(EmitLLVMCmd), cl::sub(PTXCmd),
                                      cl::cat(PtxJitCategory));
static cl::opt<unsigned>
    ErrorLimit("error-limit", cl::init(50),
               cl::desc("Stop printing after N errors (default 50)"),
               cl::sub(CheckCmd), cl::sub(ListCmd), cl::sub(PrintCmd),
               cl::sub(RunCmd), cl::sub(EmitLLVMCmd), cl::cat(PtxJitCategory));

// run and emit-llvm.
static cl::opt<std::string> KernelName("kernel",
                                       cl::desc("Kernel to run: its name, C++ "
                                                "base name or signature (-k; "
                                                "default: the file's only "
                                                ".entry)"),
                                       cl::value_desc("name"), cl::sub(RunCmd),
                                       cl::sub(EmitLLVMCmd),
                                       cl::cat(LaunchCategory));
static cl::alias KernelNameShort("k", cl::aliasopt(KernelName),
                                 cl::desc("Alias for --kernel"),
                                 cl::cat(LaunchCategory));
static cl::opt<std::string> GridDim("grid",
                                    cl::desc("Grid size X[,Y[,Z]] in CTAs "
                                             "(-g; required)"),
                                    cl::value_desc("x,y,z"), cl::sub(RunCmd),
                                    cl::cat(LaunchCategory));
static cl::alias GridDimShort("g", cl::aliasopt(GridDim),
                              cl::desc("Alias for --grid"),
                              cl::cat(LaunchCategory));
static cl::opt<std::string> BlockDim("block",
                                     cl::desc("Block size X[,Y[,Z]] in "
                                              "threads (-b; default: the "
                                              "kernel's .reqntid)"),
                                     cl::value_desc("x,y,z"), cl::sub(RunCmd),
                                     cl::sub(EmitLLVMCmd),
                                     cl::cat(LaunchCategory));
static cl::alias BlockDimShort("b", cl::aliasopt(BlockDim),
                               cl::desc("Alias for --block"),
                               cl::cat(LaunchCategory));
static cl::opt<std::string>
    ClusterDim("cluster",
               cl::desc("Thread block cluster X[,Y[,Z]] (sm_90; default: the "
                        "kernel's .reqnctapercluster, else no clusters)"),
               cl::value_desc("x,y,z"), cl::sub(RunCmd),
               cl::cat(LaunchCategory));
static cl::opt<unsigned> SharedBytes("shared", cl::init(0),
                                     cl::desc("Dynamic shared memory in bytes "
                                              "(default 0)"),
                                     cl::value_desc("bytes"), cl::sub(RunCmd),
                                     cl::cat(LaunchCategory));
static cl::list<std::string>
    ArgSpecs("arg",
             cl::desc("One kernel argument per parameter, in order: a scalar "
                      "literal, or TYPE[COUNT][=INIT][>OUT] for a buffer"),
             cl::value_desc("spec"), cl::sub(RunCmd),
             cl::cat(ArgumentCategory));
static cl::list<std::string> BindSpecs(
    "bind",
    cl::desc("Bind the module's .texref or .surfref NAME to a texture or "
             "surface: NAME=KIND:TYPE[W,H,D][=INIT][,OPTION...][>OUT], as "
             "--arg's images"),
    cl::value_desc("spec"), cl::sub(RunCmd), cl::cat(ArgumentCategory));
static cl::opt<unsigned>
    OptLevel("O", cl::init(2), cl::Prefix,
             cl::desc("Optimization level 0-3 (default 2; 0 for modules "
                      "compiled for debugging, .target debug)"),
             cl::sub(RunCmd), cl::sub(EmitLLVMCmd), cl::cat(PtxJitCategory));
static cl::opt<uint64_t> PrintLimit(
    "print-limit", cl::init(0),
    cl::desc("Print at most N elements of each '>-' buffer: the first and "
             "last N/2, and the shape (default 0: all)"),
    cl::value_desc("N"), cl::sub(RunCmd), cl::cat(ArgumentCategory));
static cl::opt<bool> PrintStats("stats",
                                cl::desc("Print where the time went (Clang, "
                                         "parse, cache, IRGen, optimization, "
                                         "code generation, run) and what ran "
                                         "(threads, CTAs, warps, barrier "
                                         "waits, fiber switches, bandwidth)"),
                                cl::sub(RunCmd), cl::cat(PtxJitCategory));
static cl::opt<double> Timeout("timeout", cl::init(0),
                               cl::desc("Stop a kernel that runs longer than "
                                        "this many seconds (default: "
                                        "never)"),
                               cl::value_desc("seconds"), cl::sub(RunCmd),
                               cl::cat(LaunchCategory));
static cl::opt<std::string> CheckKinds(
    "check", cl::ValueOptional,
    cl::desc("Check the kernel as compute-sanitizer would: memcheck, "
             "racecheck, synccheck, initcheck, comma-separated (default: "
             "all; PTXJIT_CHECK without it); errors make the exit status "
             "nonzero (docs/CHECKING.md)"),
    cl::value_desc("tools"), cl::sub(RunCmd), cl::sub(EmitLLVMCmd),
    cl::cat(LaunchCategory));
static cl::opt<std::string> StackSize(
    "stack-size",
    cl::desc("Device stack per thread in bytes, as cudaLimitStackSize "
             "(default 1024; at most 524288): each warp runs on a native "
             "stack 256 times as large, plus its .local frames"),
    cl::value_desc("bytes"), cl::sub(RunCmd), cl::cat(LaunchCategory));
static cl::opt<std::string>
    MallocHeapSize("malloc-heap-size",
                   cl::desc("Bytes of the heap of device malloc and free, as "
                            "cudaLimitMallocHeapSize (default 8 MiB)"),
                   cl::value_desc("bytes"), cl::sub(RunCmd),
                   cl::cat(LaunchCategory));
static cl::opt<unsigned> Threads("threads", cl::init(0),
                                 cl::desc("Host threads running CTAs (default: "
                                          "one per core)"),
                                 cl::sub(RunCmd), cl::cat(LaunchCategory));
static cl::opt<std::string>
    OutputFile("o", cl::init("-"),
               cl::desc("Write the output to <file> (default: standard "
                        "output); nothing is left there if ptx-jit fails"),
               cl::value_desc("file"), cl::sub(PrintCmd), cl::sub(ListCmd),
               cl::sub(EmitLLVMCmd), cl::sub(PTXCmd), cl::cat(PtxJitCategory));
static cl::opt<bool> NoVerify("no-verify",
                              cl::desc("Parse only; skip the verifier"),
                              cl::sub(PrintCmd), cl::sub(CheckCmd),
                              cl::cat(PtxJitCategory));
// For the round-trip tests: print, parse the text again in-process and
// compare the two ASTs node by node instead of writing the text out.
static cl::opt<bool> CheckRoundTrip(
    "check-roundtrip", cl::Hidden,
    cl::desc("Check that the printed module parses back to the same AST"),
    cl::sub(PrintCmd), cl::cat(PtxJitCategory));

static cl::opt<std::string>
    AfterPass("after",
              cl::desc("Print each function as the pipeline pass PASS "
                       "leaves it (inline, register-webs, ...)"),
              cl::value_desc("PASS"), cl::sub(PrintCmd),
              cl::cat(PtxJitCategory));

// CUDA source inputs, for every subcommand that reads a file.
#define PTXJIT_INPUT_SUBCOMMANDS                                               \
  cl::sub(CheckCmd), cl::sub(ListCmd), cl::sub(PrintCmd), cl::sub(RunCmd),     \
      cl::sub(EmitLLVMCmd), cl::sub(PTXCmd)
static cl::list<std::string> IncludeDirs("I", cl::Prefix,
                                         cl::desc("Add a header search "
                                                  "directory"),
                                         cl::value_desc("dir"),
                                         PTXJIT_INPUT_SUBCOMMANDS,
                                         cl::cat(CUDASourceCategory));
static cl::list<std::string> Defines("D", cl::Prefix,
                                     cl::desc("Define a macro"),
                                     cl::value_desc("name[=value]"),
                                     PTXJIT_INPUT_SUBCOMMANDS,
                                     cl::cat(CUDASourceCategory));
static cl::opt<std::string> LanguageStd("std",
                                        cl::desc("C++ standard (c++17, ...)"),
                                        cl::value_desc("standard"),
                                        PTXJIT_INPUT_SUBCOMMANDS,
                                        cl::cat(CUDASourceCategory));
static cl::opt<std::string> GPUArch("gpu-arch", cl::init("sm_80"),
                                    cl::desc("GPU architecture to compile "
                                             "for (default sm_80)"),
                                    cl::value_desc("sm_XX"),
                                    PTXJIT_INPUT_SUBCOMMANDS,
                                    cl::cat(CUDASourceCategory));
static cl::opt<std::string>
    CUDAPath("cuda-path",
             cl::desc("CUDA installation for headers and libdevice "
                      "(default: $CUDA_PATH, then /usr/local/cuda)"),
             cl::value_desc("dir"), PTXJIT_INPUT_SUBCOMMANDS,
             cl::cat(CUDASourceCategory));
static cl::opt<bool> NoCUDAInstallation(
    "no-cuda-installation",
    cl::desc("Use ptx-jit's own device headers even if CUDA is installed "
             "(no libdevice math)"),
    PTXJIT_INPUT_SUBCOMMANDS, cl::cat(CUDASourceCategory));
static cl::opt<bool>
    PrintCC1("print-clang-cc1", cl::Hidden,
             cl::desc("Print the arguments of Clang's -cc1 compilation"),
             PTXJIT_INPUT_SUBCOMMANDS, cl::cat(CUDASourceCategory));
static cl::opt<unsigned> CUDAOptLevel(
    "cuda-opt-level", cl::init(3),
    cl::desc("Clang's optimization level for CUDA source (default 3)"),
    cl::value_desc("0-3"), PTXJIT_INPUT_SUBCOMMANDS,
    cl::cat(CUDASourceCategory));
static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Keep compiled kernels and the PTX of CUDA sources in <dir> "
             "(default: $PTXJIT_CACHE_DIR, else $XDG_CACHE_HOME/ptx-jit, else "
             "~/.cache/ptx-jit; size limit $PTXJIT_CACHE_MAX_SIZE, default "
             "1G)"),
    cl::value_desc("dir"), PTXJIT_INPUT_SUBCOMMANDS, cl::sub(ExecCmd),
    cl::cat(PtxJitCategory));
static cl::opt<bool> EmitAddressChecks(
    "address-checks",
    cl::desc("Include the address checks `run` compiles kernels with "
             "(docs/Debugging.md)"),
    cl::sub(EmitLLVMCmd), cl::cat(PtxJitCategory));
static cl::opt<bool> NoCache("no-cache",
                             cl::desc("Compile everything; neither read nor "
                                      "write the cache"),
                             PTXJIT_INPUT_SUBCOMMANDS, cl::sub(ExecCmd),
                             cl::cat(PtxJitCategory));
#undef PTXJIT_INPUT_SUBCOMMANDS

static int reportError(Error E) {
  handleAllErrors(std::move(E), [](const ErrorInfoBase &EI) {
    WithColor::error(errs(), "ptx-jit") << EI.message() << '\n';
  });
  return 1;
}

/// The cache --cache-dir, --no-cache and the environment choose.
static const std::optional<cache::DiskCacheOptions> &getCacheOptions() {
  static const std::optional<cache::DiskCacheOptions> Opts =
      cache::getDiskCacheOptions(
          CacheDir.getNumOccurrences()
              ? std::optional<StringRef>(CacheDir.getValue())
              : std::nullopt,
          NoCache, errs());
  return Opts;
}

/// The cache CUDA sources' PTX is kept in, if any.
static cache::DiskCache *getPTXCache() {
  static std::unique_ptr<cache::DiskCache> Cache =
      getCacheOptions() ? std::make_unique<cache::DiskCache>(*getCacheOptions())
                        : nullptr;
  return Cache.get();
}

static driver::InputOptions getInputOptions() {
  driver::InputOptions Opts;
  Opts.FrontEnd.ErrorLimit = ErrorLimit;
  Opts.FrontEnd.Verify = !NoVerify;
  cudasource::CompileOptions &CUDA = Opts.CUDA;
  CUDA.IncludeDirs.assign(IncludeDirs.begin(), IncludeDirs.end());
  CUDA.Defines.assign(Defines.begin(), Defines.end());
  CUDA.Std = LanguageStd;
  CUDA.GPUArch = GPUArch;
  CUDA.CUDAPath = CUDAPath;
  CUDA.NoCUDAInstallation = NoCUDAInstallation;
  CUDA.OptLevel = CUDAOptLevel;
  CUDA.Cache = getPTXCache();
  if (PrintCC1)
    CUDA.PrintCC1Args = &errs();
  return Opts;
}

/// Prints M with each function body replaced by what the pipeline makes of
/// it up to the pass AfterPass.
static Error printAfterPass(ptx::Module &M, raw_ostream &OS) {
  if (!transforms::isPassName(AfterPass)) {
    std::string Names;
    for (const transforms::PassInfo &P : transforms::getPasses())
      Names += (Names.empty() ? "" : ", ") + P.Name.str();
    return createStringError(inconvertibleErrorCode(),
                             "unknown pass '%s' for --after (passes: %s)",
                             AfterPass.c_str(), Names.c_str());
  }
  // Every function is transformed from the module as parsed (the inliner
  // reads callees there) before any is replaced.
  BumpPtrAllocator Alloc;
  std::vector<ptx::Function> Results;
  for (const ptx::Function &F : M.Functions) {
    if (!F.HasBody) {
      Results.push_back(F);
      continue;
    }
    Expected<transforms::PreparedFunction> P =
        transforms::runPipeline(M, F, Alloc, AfterPass);
    if (!P)
      return P.takeError();
    Results.push_back(std::move(P->F));
  }
  M.Functions = std::move(Results);
  ptx::printModule(M, OS);
  return Error::success();
}

/// The -o file, or standard output for "-".
static Expected<std::unique_ptr<ToolOutputFile>> openOutput() {
  std::error_code EC;
  auto Out = std::make_unique<ToolOutputFile>(OutputFile, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write '%s': %s", OutputFile.c_str(),
                             EC.message().c_str());
  return std::move(Out);
}

static void printVersion(raw_ostream &OS) {
  OS << "ptx-jit version " << PTXJIT_VERSION << "\n"
     << "  LLVM version " << LLVM_VERSION_STRING << "\n"
     << "  host CPU: " << sys::getHostCPUName() << "\n";
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter(printVersion);
  for (cl::SubCommand *Sub :
       {&cl::SubCommand::getTopLevel(), &CheckCmd, &ListCmd, &PrintCmd, &RunCmd,
        &EmitLLVMCmd, &PTXCmd, &ExecCmd})
    cl::HideUnrelatedOptions({&PtxJitCategory, &LaunchCategory,
                              &ArgumentCategory, &CUDASourceCategory},
                             *Sub);
  cl::ParseCommandLineOptions(argc, argv,
                              "ptx-jit: run NVIDIA PTX kernels on the CPU\n");
  if (ExecCmd) {
    Expected<std::string> Dir = driver::findCUDALibraryDir(argv[0]);
    if (!Dir)
      return reportError(Dir.takeError());
    // The CUDA libraries read the cache's place from the environment.
    if (NoCache)
      setenv("PTXJIT_CACHE_DIR", "off", 1);
    else if (CacheDir.getNumOccurrences())
      setenv("PTXJIT_CACHE_DIR", CacheDir.empty() ? "off" : CacheDir.c_str(),
             1);
    std::vector<std::string> Args{ExecProgramName};
    Args.insert(Args.end(), ExecArgs.begin(), ExecArgs.end());
    Expected<int> Status = driver::execProgram(*Dir, Args);
    if (!Status)
      return reportError(Status.takeError());
    return *Status;
  }
  if (!CheckCmd && !ListCmd && !PrintCmd && !RunCmd && !EmitLLVMCmd &&
      !PTXCmd) {
    WithColor::error(errs(), "ptx-jit")
        << "no subcommand given; see 'ptx-jit --help'\n";
    return 1;
  }
  if (OptLevel > 3)
    return reportError(
        createStringError(inconvertibleErrorCode(), "-O must be 0, 1, 2 or 3"));
  if (CUDAOptLevel > 3)
    return reportError(createStringError(
        inconvertibleErrorCode(), "--cuda-opt-level must be 0, 1, 2 or 3"));
  if (PTXCmd) {
    Expected<std::unique_ptr<MemoryBuffer>> PTX =
        driver::readPTX(InputFile, getInputOptions(), errs());
    if (!PTX)
      return reportError(PTX.takeError());
    Expected<std::unique_ptr<ToolOutputFile>> Out = openOutput();
    if (!Out)
      return reportError(Out.takeError());
    (*Out)->os() << (*PTX)->getBuffer();
    (*Out)->keep();
    return 0;
  }
  driver::InputStats InputStats;
  driver::InputOptions InputOpts = getInputOptions();
  InputOpts.Stats = &InputStats;
  Expected<std::unique_ptr<ptx::Module>> M =
      driver::loadInput(InputFile, InputOpts, errs());
  if (!M)
    return reportError(M.takeError());
  if (RunCmd || EmitLLVMCmd) {
    driver::RunOptions Opts;
    Opts.Kernel = KernelName;
    Opts.OptLevel = OptLevel;
    Opts.OptLevelGiven = OptLevel.getNumOccurrences();
    Opts.BlockGiven = BlockDim.getNumOccurrences();
    Opts.GridGiven = GridDim.getNumOccurrences();
    if (Opts.BlockGiven)
      if (Error E = driver::parseDim3(BlockDim, "block size", Opts.Block))
        return reportError(std::move(E));
    if (Opts.GridGiven)
      if (Error E = driver::parseDim3(GridDim, "grid size", Opts.Grid))
        return reportError(std::move(E));
    if (CheckKinds.getNumOccurrences()) {
      Expected<unsigned> K = runtime::parseCheckKinds(CheckKinds);
      if (!K)
        return reportError(K.takeError());
      Opts.CheckKinds = *K;
    }
    if (EmitLLVMCmd) {
      Expected<const ptx::Function *> K = driver::selectKernel(**M, KernelName);
      if (!K)
        return reportError(K.takeError());
      // The IR depends on the block shape only: without -b, the kernel's
      // .reqntid, or one thread.
      Opts.GridGiven = true;
      if (!Opts.BlockGiven && !(*K)->NumReqNTid)
        Opts.BlockGiven = true;
      if (Error E = driver::resolveLaunchShape(**K, Opts))
        return reportError(std::move(E));
      KernelShape Shape;
      std::copy(Opts.Block, Opts.Block + 3, Shape.BlockDim);
      Expected<std::unique_ptr<ToolOutputFile>> Out = openOutput();
      if (!Out)
        return reportError(Out.takeError());
      if (Error E = KernelJIT::emitIR(**M, (*K)->Name, Shape, OptLevel,
                                      (*Out)->os(), Opts.CheckKinds.value_or(0),
                                      EmitAddressChecks, Opts.OptLevelGiven))
        return reportError(std::move(E));
      (*Out)->keep();
      return 0;
    }
    if (!ClusterDim.empty()) {
      if (Error E = driver::parseDim3(ClusterDim, "cluster size", Opts.Cluster))
        return reportError(std::move(E));
      // 0,0,0 would mean "none given".
      if (!Opts.Cluster[0] || !Opts.Cluster[1] || !Opts.Cluster[2])
        return reportError(createStringError(
            inconvertibleErrorCode(),
            "invalid cluster size '" + ClusterDim + "': a dimension is 0"));
    }
    Opts.DynamicShared = SharedBytes;
    Opts.Args.assign(ArgSpecs.begin(), ArgSpecs.end());
    Opts.Bindings.assign(BindSpecs.begin(), BindSpecs.end());
    Opts.PrintStats = PrintStats;
    Opts.PrintLimit = PrintLimit;
    Opts.TimeoutSeconds = Timeout;
    Opts.Threads = Threads;
    if (StackSize.getNumOccurrences()) {
      Expected<uint32_t> Bytes = parseThreadStackSize(StackSize);
      if (!Bytes)
        return reportError(Bytes.takeError());
      Opts.StackSize = *Bytes;
    }
    if (MallocHeapSize.getNumOccurrences()) {
      uint64_t Bytes;
      if (StringRef(MallocHeapSize).trim().getAsInteger(0, Bytes))
        return reportError(createStringError(
            inconvertibleErrorCode(), "invalid heap size '" + MallocHeapSize +
                                          "': give bytes, decimal or 0x hex"));
      Opts.MallocHeapSize = Bytes;
    }
    Opts.Cache = getCacheOptions();
    Opts.Input = InputStats;
    // The first Ctrl-C stops the launch and says where its warps were.
    device::stopLaunchesOnInterrupt();
    if (Error E = driver::runKernel(std::move(*M), Opts,
                                    InputStats.ParseSeconds, outs(), errs())) {
      reportError(std::move(E));
      // As a shell reports a process SIGINT ended.
      return device::interruptRequested() ? 128 + SIGINT : 1;
    }
    return 0;
  }
  // What is left reads the module and exits: as clang's -disable-free,
  // leave its statements and slabs to the exit instead of freeing them one
  // by one (kept reachable, for LeakSanitizer).
  ptx::Module &Mod = **M;
  BuryPointer(std::move(*M));
  if (CheckCmd)
    return 0;
  if (PrintCmd && CheckRoundTrip) {
    if (Error E = ptx::checkRoundTrip(Mod))
      return reportError(std::move(E));
    return 0;
  }
  Expected<std::unique_ptr<ToolOutputFile>> Out = openOutput();
  if (!Out)
    return reportError(Out.takeError());
  if (ListCmd)
    driver::printModuleList(Mod, (*Out)->os(), InputFile);
  else if (PrintCmd && !AfterPass.empty()) {
    if (Error E = printAfterPass(Mod, (*Out)->os()))
      return reportError(std::move(E));
  } else if (PrintCmd)
    ptx::printModule(Mod, (*Out)->os());
  (*Out)->keep();
  return 0;
}
