//===- ptx-jit.cpp - The ptx-jit command-line tool ------------------------===//
//
// A thin driver: parses options and calls the libraries. Subcommands:
//   check      parse and verify a PTX file
//   list       print kernels, device functions and their parameters
//   print      parse a PTX file and print it back (the AST printer)
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/ASTEquivalence.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/PTX/ModuleInfo.h"
#include "ptxjit/PTX/Printer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit;

static cl::SubCommand CheckCmd("check", "Parse and verify a PTX file");
static cl::SubCommand ListCmd("list",
                              "List kernels and device functions of a PTX "
                              "file with their parameters");
static cl::SubCommand PrintCmd("print",
                               "Parse a PTX file and print it back as PTX");

static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<file.ptx | ->"),
                                      cl::sub(CheckCmd), cl::sub(ListCmd),
                                      cl::sub(PrintCmd));
static cl::opt<unsigned> ErrorLimit("error-limit", cl::init(50),
                                    cl::desc("Stop printing after N errors"),
                                    cl::sub(CheckCmd), cl::sub(ListCmd),
                                    cl::sub(PrintCmd));
static cl::opt<bool> NoVerify("no-verify",
                              cl::desc("Parse only; skip the verifier"),
                              cl::sub(PrintCmd), cl::sub(CheckCmd));
// For the round-trip tests: print, parse the text again in-process and
// compare the two ASTs node by node instead of writing the text out.
static cl::opt<bool> CheckRoundTrip(
    "check-roundtrip", cl::Hidden,
    cl::desc("Check that the printed module parses back to the same AST"),
    cl::sub(PrintCmd));

static int reportError(Error E) {
  handleAllErrors(std::move(E), [](const ErrorInfoBase &EI) {
    WithColor::error(errs(), "ptx-jit") << EI.message() << '\n';
  });
  return 1;
}

static Expected<std::unique_ptr<ptx::Module>> load() {
  ptx::FrontEndOptions Opts;
  Opts.ErrorLimit = ErrorLimit;
  Opts.Verify = !NoVerify;
  return ptx::loadModuleFile(InputFile, errs(), Opts);
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "ptx-jit: run NVIDIA PTX kernels on the CPU\n");
  if (!CheckCmd && !ListCmd && !PrintCmd) {
    WithColor::error(errs(), "ptx-jit")
        << "no subcommand given; see 'ptx-jit --help'\n";
    return 1;
  }
  Expected<std::unique_ptr<ptx::Module>> M = load();
  if (!M)
    return reportError(M.takeError());
  if (ListCmd)
    ptx::printModuleSummary(**M, outs());
  else if (PrintCmd && CheckRoundTrip) {
    if (Error E = ptx::checkRoundTrip(**M))
      return reportError(std::move(E));
  } else if (PrintCmd)
    ptx::printModule(**M, outs());
  return 0;
}
