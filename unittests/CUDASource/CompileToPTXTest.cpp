//===- CompileToPTXTest.cpp - The CUDA source compiler module -------------===//
//
// This executable lives in unittests/, not bin/: compileToPTX finds the
// module where the build wrote it, and loads it once for every call.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/CUDASource/CUDASource.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ptxjit::cudasource;

namespace {

CompileOptions withoutCUDA() {
  CompileOptions Opts;
  Opts.NoCUDAInstallation = true;
  Opts.LineTables = false;
  return Opts;
}

TEST(CompileToPTXTest, LoadsTheModuleAndCompiles) {
  std::string Diag;
  raw_string_ostream DiagOS(Diag);
  StringRef Source = "__global__ void twice(int *p) { p[threadIdx.x] *= 2; }\n";
  for (int Round = 0; Round != 2; ++Round) {
    Expected<std::string> PTX =
        compileToPTX(Source, "twice.cu", withoutCUDA(), DiagOS);
    ASSERT_TRUE(static_cast<bool>(PTX)) << toString(PTX.takeError());
    EXPECT_NE(PTX->find(".target sm_80"), std::string::npos);
    EXPECT_NE(PTX->find(".visible .entry _Z5twicePi("), std::string::npos);
  }
  EXPECT_EQ(Diag, "");
}

TEST(CompileToPTXTest, ClangDiagnosticsAndError) {
  std::string Diag;
  raw_string_ostream DiagOS(Diag);
  Expected<std::string> PTX = compileToPTX("__global__ void f() { x = 1; }\n",
                                           "bad.cu", withoutCUDA(), DiagOS);
  ASSERT_FALSE(static_cast<bool>(PTX));
  EXPECT_EQ(toString(PTX.takeError()), "cannot compile 'bad.cu'");
  EXPECT_NE(Diag.find("bad.cu:1:23: error: use of undeclared identifier 'x'"),
            std::string::npos)
      << Diag;
}

} // namespace
