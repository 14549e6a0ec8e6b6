//===- IRGen.h - Lowering PTX kernels to warp-vectorized LLVM IR ---------===//

#ifndef PTXJIT_IRGEN_IRGEN_H
#define PTXJIT_IRGEN_IRGEN_H

#include "ptxjit/ABI/CompiledKernel.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace ptxjit {
namespace ptx {
class Module;
struct Function;
} // namespace ptx

struct IRGenOptions {
  /// The module's .global and .const variables (ptx::isModuleVariable) are
  /// external declarations named getModuleVariableSymbol(Name), whose
  /// memory the loader owns and shares between kernels. Otherwise each
  /// generated module defines its own, initialized.
  bool ExternalModuleVariables = false;
  /// Global and generic accesses check that their addresses lie in device
  /// memory and are aligned, and stop the warp with a report if not
  /// (IRGen/AddressChecks.cpp). device::Context compiles with them.
  bool CheckAddresses = false;
  /// The checking mode (CheckABI.h's CheckKind bits): accesses, barriers
  /// and warp-synchronous instructions call the runtime's checks, and CTA
  /// barriers run on fibers. Zero: nothing is emitted for it.
  unsigned CheckKinds = 0;
  /// Every instruction carries the PTX line it implements (a line table in
  /// the object: emit-llvm reads like the PTX, gdb shows PTX lines). The
  /// code is the same without; the JIT leaves them out unless a debugger
  /// asks (JITOptions::LineTables): they cost code generation time.
  bool LineTables = true;
  /// Kernels whose CTA barriers are all in CTA-uniform control flow return
  /// at them, and their CTAs run in phases (Phases.cpp); otherwise every
  /// kernel with barriers waits on fibers.
  bool BarrierPhases = true;
  /// A branch that splits a converged warp around a short block runs that
  /// block with the lanes that take it and goes on converged after it, with
  /// no dispatch (Predication.cpp); off, every split goes through the
  /// dispatcher.
  bool PredicatedBlocks = true;
  /// In phases, a warp that returned at a barrier looks ahead: while the
  /// code after it reaches the next barrier without touching memory, the
  /// warp runs it at once and skips that round (PhaseProbes.cpp).
  bool PhaseProbes = true;
  // Each option here changes the code: the kernel cache's key has it
  // (KernelJIT::getCacheKey).
};

/// IRGenOptions::BarrierPhases as the environment asks: on unless
/// PTXJIT_BARRIERS=fibers (read once).
bool phasesEnabled();

/// IRGenOptions::PredicatedBlocks as the environment asks: on unless
/// PTXJIT_PREDICATION=off (read once).
bool predicationEnabled();

/// IRGenOptions::PhaseProbes as the environment asks: on unless
/// PTXJIT_PHASE_PROBES=off (read once).
bool phaseProbesEnabled();

/// Gives every instruction of M's functions that have a subprogram a
/// debug location: passes leave some without one, or at line 0.
void attachMissingDebugLocations(llvm::Module &M);

/// The symbol of a module variable in generated code.
std::string getModuleVariableSymbol(llvm::StringRef Name);

/// Lowers the kernel named Kernel and every function it reaches into a new
/// LLVM module. Errors name the PTX line of the construct that could not be
/// lowered.
llvm::Expected<std::unique_ptr<llvm::Module>>
emitKernel(const ptx::Module &M, llvm::StringRef Kernel,
           const KernelShape &Shape, llvm::LLVMContext &Ctx,
           KernelLayout &Layout, const IRGenOptions &Options = {});

} // namespace ptxjit

#endif
