//===- AccessChecks.h - Reports of wild global and generic accesses -*- C++
//-*-===//
//
// Generated code checks each global or generic access against the device
// range (DeviceArena.h) and calls ptxjit_rt_check_address for lanes outside
// it or misaligned; that tells legitimate shared, local and host addresses
// from faults and records a fault with every lane's address. A fault the
// check let through (an address in the range but in no allocation) is
// caught by a signal; the warp's AccessSite still names the access.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_ACCESSCHECKS_H
#define PTXJIT_RUNTIME_ACCESSCHECKS_H

#include "ptxjit/ABI/CompiledKernel.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace ptxjit {
namespace runtime {

/// "line 23 of k.ptx (k.cu:12)": the PTX line and, where the PTX carries
/// .loc, the CUDA source line.
std::string describeLine(const KernelLayout &L, unsigned PTXLine);

/// The CUDA source line ("saxpy.cu:12") PTXLine came from, per the PTX's
/// .loc directives; empty if not known.
std::string describeSourceLine(const KernelLayout &L, unsigned PTXLine);

/// The report of a warp stopped with WS_MemoryFault; Where names kernel,
/// CTA and warp.
std::string describeAccessFault(const WarpContext &Ctx, const KernelLayout &L,
                                const std::string &Where);

/// The report of a fault a signal caught at Address while the warp at Ctx
/// ran (null if not known), with the stack pointer at the fault (0 if not
/// known). A stack overflow's report gives the warp's call depth, the
/// launch's stack of ThreadStackSize bytes per thread and StackSizeOption,
/// how to raise it.
std::string describeSignalFault(const WarpContext *Ctx, uint64_t Address,
                                uint64_t StackPointer, const KernelLayout &L,
                                const std::string &Where,
                                uint64_t ThreadStackSize,
                                llvm::StringRef StackSizeOption);

} // namespace runtime
} // namespace ptxjit

#endif
