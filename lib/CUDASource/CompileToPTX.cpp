//===- CompileToPTX.cpp - CUDA device code to PTX through Clang -----------===//
//
// Clang's driver, run in-process, turns a device-only CUDA command line into
// the -cc1 invocation it would run (CUDA installation, libdevice, system
// headers, PTX features); a CompilerInstance then runs it with the source
// and ptx-jit's device headers in an in-memory file system and the NVPTX
// back end writing PTX into a string.
//
// This file is the module libptxjit-cuda-source.so, which CompilerModule.cpp
// loads on first use: only the module links Clang's libraries.
//
//===----------------------------------------------------------------------===//

#include "DeviceHeaders.h"
#include "ModuleAPI.h"
#include "ptxjit/Cache/DiskCache.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/Version.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <cstring>
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cudasource;

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg.str());
}

static void initializeNVPTX() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

namespace {
/// Prints Clang's diagnostics in Clang's format and remembers the
/// identifiers reported undeclared, for the hint about ptx-jit's own
/// headers.
class DiagnosticPrinter : public clang::TextDiagnosticPrinter {
public:
  using TextDiagnosticPrinter::TextDiagnosticPrinter;
  std::vector<std::string> Undeclared;

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    TextDiagnosticPrinter::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error)
      return;
    SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    StringRef Rest = Text;
    if (!Rest.consume_front("use of undeclared identifier '"))
      return;
    std::string Name = Rest.take_until([](char C) { return C == '\''; }).str();
    if (!is_contained(Undeclared, Name))
      Undeclared.push_back(Name);
  }
};
} // namespace

/// The driver's command line for a device-only compilation of FileName.
static std::vector<std::string>
getDriverArgs(StringRef FileName, const CompileOptions &Opts,
              const std::optional<CUDAInstallation> &CUDA) {
  std::vector<std::string> Args = {
      PTXJIT_CLANG_EXECUTABLE,
      "-x",
      "cuda",
      "--cuda-device-only",
      "--cuda-gpu-arch=" + Opts.GPUArch,
      "-O" + std::to_string(Opts.OptLevel),
      "-resource-dir",
      PTXJIT_CLANG_RESOURCE_DIR,
      // Clang knows CUDA up to 12.9; newer toolkits work as that.
      "-Wno-unknown-cuda-version",
  };
  if (Opts.LineTables)
    Args.push_back("-gline-tables-only");
  if (CUDA) {
    Args.push_back("--cuda-path=" + CUDA->Path);
  } else {
    // No installation: ptx-jit's headers, no libdevice, and the PTX ISA
    // version Clang would use with the newest CUDA it knows.
    Args.insert(Args.end(),
                {"--cuda-path=" + DeviceHeaderDir.str() + "/no-cuda",
                 "-nocudainc", "-nocudalib", "--cuda-feature=+ptx88",
                 "-isystem", DeviceHeaderDir.str(), "-include",
                 DeviceHeaderName.str()});
  }
  for (const std::string &Dir : Opts.IncludeDirs)
    Args.push_back("-I" + Dir);
  for (const std::string &D : Opts.Defines)
    Args.push_back("-D" + D);
  if (!Opts.Std.empty())
    Args.push_back("-std=" + Opts.Std);
  Args.push_back(FileName.str());
  return Args;
}

/// The source and the embedded headers over the real file system (which
/// holds the CUDA installation, -I directories and the source's neighbours).
static IntrusiveRefCntPtr<vfs::FileSystem>
createFileSystem(StringRef Source, StringRef FileName) {
  auto Memory = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  auto Overlay =
      makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
  Overlay->pushOverlay(Memory);
  for (const EmbeddedFile &F : getDeviceHeaders()) {
    SmallString<128> Path(DeviceHeaderDir);
    sys::path::append(Path, F.Name);
    Memory->addFile(Path, 0, MemoryBuffer::getMemBuffer(F.Text, Path));
  }
  Memory->addFile(FileName, 0,
                  MemoryBuffer::getMemBufferCopy(Source, FileName));
  return Overlay;
}

static void printMissingHint(raw_ostream &Diag, StringRef FileName,
                             ArrayRef<std::string> Undeclared) {
  WithColor::note(Diag, "ptx-jit")
      << "'" << FileName
      << "' was compiled without a CUDA installation, with ptx-jit's own "
         "device headers (built-in variables, __syncthreads, atomics, warp "
         "shuffles and votes, printf); "
      << (Undeclared.size() == 1 ? "'" + Undeclared[0] + "' is"
                                 : "'" + join(Undeclared, "', '") + "' are")
      << " not among them: math functions need libdevice from a CUDA "
         "installation (--cuda-path=DIR or CUDA_PATH)\n";
}

namespace {
/// Every file the compilation reads through the preprocessor, system
/// headers included.
class IncludedFiles : public clang::DependencyCollector {
  bool needSystemDependencies() override { return true; }
};

/// A cached compilation: the files it read with their digests, and the PTX.
struct PTXEntry {
  std::vector<std::pair<std::string, cache::CacheDigest>> Files;
  std::string PTX;
};
} // namespace

namespace endian = llvm::support::endian;

static void writeBytes(std::string &Out, StringRef Bytes) {
  char Size[8];
  endian::write64le(Size, Bytes.size());
  Out.append(Size, 8);
  Out += Bytes;
}

static bool readBytes(StringRef &In, StringRef &Bytes) {
  if (In.size() < 8)
    return false;
  uint64_t Size = endian::read64le(In.data());
  In = In.drop_front(8);
  if (Size > In.size())
    return false;
  Bytes = In.take_front(Size);
  In = In.drop_front(Size);
  return true;
}

static std::string encodePTXEntry(const PTXEntry &E) {
  std::string Out;
  writeBytes(Out, utostr(E.Files.size()));
  for (const auto &[Path, Digest] : E.Files) {
    writeBytes(Out, Path);
    writeBytes(Out, StringRef(reinterpret_cast<const char *>(Digest.data()),
                              Digest.size()));
  }
  writeBytes(Out, E.PTX);
  return Out;
}

static std::optional<PTXEntry> decodePTXEntry(StringRef In) {
  PTXEntry E;
  StringRef Count;
  uint64_t N;
  if (!readBytes(In, Count) || Count.getAsInteger(10, N) || N > In.size())
    return std::nullopt;
  for (uint64_t I = 0; I != N; ++I) {
    StringRef Path, Digest;
    if (!readBytes(In, Path) || !readBytes(In, Digest) ||
        Digest.size() != sizeof(cache::CacheDigest))
      return std::nullopt;
    cache::CacheDigest D;
    std::memcpy(D.data(), Digest.data(), D.size());
    E.Files.push_back({Path.str(), D});
  }
  StringRef PTX;
  if (!readBytes(In, PTX) || !In.empty())
    return std::nullopt;
  E.PTX = PTX.str();
  return E;
}

/// The digest of the file at Path as FS reads it; std::nullopt if it
/// cannot be read.
static std::optional<cache::CacheDigest> hashFile(vfs::FileSystem &FS,
                                                  StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = FS.getBufferForFile(Path);
  if (!Buf)
    return std::nullopt;
  return cache::hashBytes((*Buf)->getBuffer());
}

/// The key of a compilation of Source with the driver command line Args.
static cache::CacheDigest getPTXKey(StringRef Source, StringRef FileName,
                                    ArrayRef<std::string> Args) {
  cache::CacheKeyBuilder B("cuda-ptx");
  B.add("source", Source);
  B.add("file", FileName);
  for (const std::string &A : Args)
    B.add("arg", A);
  B.add("clang", clang::getClangFullVersion());
  // Relative -I directories and file names resolve from here.
  SmallString<128> CWD;
  if (!sys::fs::current_path(CWD))
    B.add("cwd", CWD);
  // Header search paths Clang reads from the environment.
  for (const char *Var :
       {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "CUDA_PATH"})
    if (const char *V = std::getenv(Var))
      B.add(Var, V);
  return B.final();
}

static Expected<std::string> compileInProcess(
    StringRef Source, StringRef FileName, const CompileOptions &Opts,
    const std::optional<CUDAInstallation> &CUDA, raw_ostream &Diag) {
  if (!sys::fs::is_directory(PTXJIT_CLANG_RESOURCE_DIR))
    return makeError("Clang's resource directory '" PTXJIT_CLANG_RESOURCE_DIR
                     "' is missing: CUDA sources need the clang-22 package");
  initializeNVPTX();
  IntrusiveRefCntPtr<vfs::FileSystem> FS = createFileSystem(Source, FileName);

  std::vector<std::string> Args = getDriverArgs(FileName, Opts, CUDA);
  if (Opts.CacheHit)
    *Opts.CacheHit = false;
  // Printing -cc1 arguments needs a compilation.
  cache::DiskCache *Cache = Opts.PrintCC1Args ? nullptr : Opts.Cache;
  cache::CacheDigest Key;
  if (Cache) {
    Key = getPTXKey(Source, FileName, Args);
    if (std::optional<std::string> Payload = Cache->lookup(Key))
      if (std::optional<PTXEntry> E = decodePTXEntry(*Payload))
        if (all_of(E->Files, [&](const auto &F) {
              return hashFile(*FS, F.first) == F.second;
            })) {
          if (Opts.CacheHit)
            *Opts.CacheHit = true;
          return std::move(E->PTX);
        }
  }
  std::vector<const char *> ArgPtrs;
  for (const std::string &A : Args)
    ArgPtrs.push_back(A.c_str());

  clang::DiagnosticOptions DriverDiagOpts;
  DriverDiagOpts.ShowColors = Diag.has_colors();
  auto *DriverPrinter = new DiagnosticPrinter(Diag, DriverDiagOpts);
  clang::CreateInvocationOptions CIOpts;
  CIOpts.Diags = clang::CompilerInstance::createDiagnostics(
      *FS, DriverDiagOpts, DriverPrinter, /*ShouldOwnClient=*/true);
  // The driver reads no -W options itself; -Wno-unknown-cuda-version above
  // is for the -cc1 side.
  CIOpts.Diags->setSeverityForGroup(clang::diag::Flavor::WarningOrError,
                                    "unknown-cuda-version",
                                    clang::diag::Severity::Ignored);
  CIOpts.VFS = FS;
  std::vector<std::string> CC1Args;
  CIOpts.CC1Args = &CC1Args;
  std::shared_ptr<clang::CompilerInvocation> Invocation =
      clang::createInvocation(ArgPtrs, std::move(CIOpts));
  if (!Invocation)
    return makeError("cannot compile '" + FileName +
                     "': the CUDA compiler options were rejected");
  if (Opts.PrintCC1Args) {
    for (const std::string &A : CC1Args)
      *Opts.PrintCC1Args << ' ' << A;
    *Opts.PrintCC1Args << '\n';
  }
  Invocation->getFrontendOpts().DisableFree = false;
  Invocation->getDiagnosticOpts().ShowColors = Diag.has_colors();

  clang::CompilerInstance CI(std::move(Invocation));
  CI.setVirtualFileSystem(FS);
  auto *Printer = new DiagnosticPrinter(Diag, CI.getDiagnosticOpts());
  CI.createDiagnostics(Printer, /*ShouldOwnClient=*/true);

  auto Included = std::make_shared<IncludedFiles>();
  if (Cache)
    CI.addDependencyCollector(Included);

  SmallString<0> PTX;
  CI.setOutputStream(std::make_unique<raw_svector_ostream>(PTX));
  clang::EmitAssemblyAction Action;
  bool OK = CI.ExecuteAction(Action);
  if (!OK || CI.getDiagnostics().hasErrorOccurred()) {
    if (!CUDA && !Printer->Undeclared.empty())
      printMissingHint(Diag, FileName, Printer->Undeclared);
    return makeError("cannot compile '" + FileName + "'");
  }
  if (Cache) {
    PTXEntry E;
    E.PTX = std::string(PTX);
    std::vector<std::string> Files(Included->getDependencies().begin(),
                                   Included->getDependencies().end());
    // libdevice is linked, not included.
    if (CUDA)
      Files.push_back(CUDA->LibDevice);
    bool AllRead = true;
    for (const std::string &F : Files) {
      std::optional<cache::CacheDigest> D = hashFile(*FS, F);
      AllRead &= D.has_value();
      if (D)
        E.Files.push_back({F, *D});
    }
    // A file that cannot be read again could not be checked next time.
    if (AllRead)
      Cache->store(Key, encodePTXEntry(E));
  }
  return std::string(PTX);
}

const ModuleAPI *ptxjitGetCUDASourceModule() {
  static const ModuleAPI API = {ModuleABIVersion, sizeof(CompileOptions),
                                compileInProcess};
  return &API;
}
