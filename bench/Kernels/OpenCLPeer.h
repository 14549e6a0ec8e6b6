//===- OpenCLPeer.h - The benchmarks' OpenCL twins on an OpenCL CPU device ===//
//
// ptx-jit-bench's peer column: the OpenCL C twin of each benchmark kernel
// (bench/kernels/<stem>.cl) built and run on the first OpenCL CPU device
// (PoCL on Debian: pocl-opencl-icd), on all of its cores. Each buffer gets the
// harness's array copied in before a run and back after it, untimed; only
// the kernel's run is timed.
//
// Without OpenCL at build time (no headers or ICD loader), create() says so
// and the column shows "-".
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_BENCH_OPENCLPEER_H
#define PTXJIT_BENCH_OPENCLPEER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ptxjit {
namespace bench {

/// One kernel argument: a buffer (Data, Size bytes of the harness's memory)
/// or a scalar (Size bytes at Data).
struct OpenCLArg {
  bool IsBuffer = false;
  const void *Data = nullptr;
  size_t Size = 0;
};

/// A kernel with its arguments bound, ready to run again and again.
class OpenCLLaunch {
public:
  virtual ~OpenCLLaunch() = default;
  /// Runs the kernel over Global work-items in groups of Local, and waits.
  virtual llvm::Error run() = 0;
  /// Copies the harness's arrays into the buffers, and back.
  virtual llvm::Error upload() = 0;
  virtual llvm::Error download() = 0;
};

class OpenCLPeer {
public:
  virtual ~OpenCLPeer() = default;
  /// The first CPU device of any OpenCL platform, or an error saying why
  /// there is none.
  static llvm::Expected<std::unique_ptr<OpenCLPeer>> create();
  /// "PoCL 3.1 pthread-..." for the table's header.
  virtual std::string describe() const = 0;
  /// Builds Kernel from the OpenCL C file Path (each file built once) and
  /// binds Args; Global and Local are 3-D sizes in work-items.
  virtual llvm::Expected<std::unique_ptr<OpenCLLaunch>>
  prepare(llvm::StringRef Path, llvm::StringRef Kernel,
          llvm::ArrayRef<OpenCLArg> Args, const size_t Global[3],
          const size_t Local[3]) = 0;
};

} // namespace bench
} // namespace ptxjit

#endif
