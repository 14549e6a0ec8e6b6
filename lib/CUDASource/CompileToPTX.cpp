//===- CompileToPTX.cpp - CUDA device code to PTX through Clang -----------===//
//
// Clang's driver, run in-process, turns a device-only CUDA command line into
// the -cc1 invocation it would run (CUDA installation, libdevice, system
// headers, PTX features); a CompilerInstance then runs it with the source
// and ptx-jit's device headers in an in-memory file system and the NVPTX
// back end writing PTX into a string.
//
//===----------------------------------------------------------------------===//

#include "DeviceHeaders.h"
#include "ptxjit/CUDASource/CUDASource.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace llvm;
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

Expected<std::string>
ptxjit::cudasource::compileToPTX(StringRef Source, StringRef FileName,
                                 const CompileOptions &Opts,
                                 raw_ostream &Diag) {
  if (!sys::fs::is_directory(PTXJIT_CLANG_RESOURCE_DIR))
    return makeError("Clang's resource directory '" PTXJIT_CLANG_RESOURCE_DIR
                     "' is missing: CUDA sources need the clang-22 package");
  initializeNVPTX();
  std::optional<CUDAInstallation> CUDA = findCUDAInstallation(Opts, Diag);
  IntrusiveRefCntPtr<vfs::FileSystem> FS = createFileSystem(Source, FileName);

  std::vector<std::string> Args = getDriverArgs(FileName, Opts, CUDA);
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

  SmallString<0> PTX;
  CI.setOutputStream(std::make_unique<raw_svector_ostream>(PTX));
  clang::EmitAssemblyAction Action;
  bool OK = CI.ExecuteAction(Action);
  if (!OK || CI.getDiagnostics().hasErrorOccurred()) {
    if (!CUDA && !Printer->Undeclared.empty())
      printMissingHint(Diag, FileName, Printer->Undeclared);
    return makeError("cannot compile '" + FileName + "'");
  }
  return std::string(PTX);
}
