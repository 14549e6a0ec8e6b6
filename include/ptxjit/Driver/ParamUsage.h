//===- ParamUsage.h - How a kernel uses its parameters ----------*- C++ -*-===//
//
// What `ptx-jit list` needs to suggest a `run` command line: which 64-bit
// parameters are pointers (a `.ptr` attribute, or an address the kernel
// loads or stores through), the element type of those accesses, and whether
// the kernel reads or writes the memory. PTX registers are not SSA, so this
// follows registers through the moves, cvta and 64-bit additions nvcc and
// clang emit; it is a hint, not a proof.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_PARAMUSAGE_H
#define PTXJIT_DRIVER_PARAMUSAGE_H

#include "ptxjit/PTX/InstructionTable.h"
#include "llvm/ADT/SmallVector.h"

namespace ptxjit {
namespace ptx {
struct Function;
} // namespace ptx

namespace driver {

struct ParamUsage {
  /// A `.ptr` attribute, or an address of a load, store or atomic.
  bool IsPointer = false;
  /// The type of the first access through it (None if never accessed).
  ptx::ScalarType ElementType = ptx::ScalarType::None;
  /// The state space of the first access (None: generic).
  ptx::StateSpace Space = ptx::StateSpace::None;
  bool Read = false;
  bool Written = false;
};

/// One entry per parameter of F, in order.
llvm::SmallVector<ParamUsage, 8> analyzeParamUsage(const ptx::Function &F);

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_PARAMUSAGE_H
