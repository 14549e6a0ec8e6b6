//===- Targets.h - The PTX versions and targets ptx-jit knows ---*- C++ -*-===//

#ifndef PTXJIT_PTX_TARGETS_H
#define PTXJIT_PTX_TARGETS_H

#include "llvm/ADT/StringRef.h"

namespace ptxjit {
namespace ptx {

/// The newest PTX ISA version whose instructions ptx-jit knows (CUDA 13.0).
constexpr unsigned SupportedVersionMajor = 9;
constexpr unsigned SupportedVersionMinor = 0;

/// Whether a `.version` of Major.Minor is newer than ptx-jit supports.
bool isNewerThanSupported(unsigned Major, unsigned Minor);

/// Whether Name is a `.target` of the PTX ISA: sm_XX or compute_XX of a
/// real architecture (with its `a`/`f` variants), or one of the target
/// options (texmode_unified, map_f64_to_f32, debug, ...).
bool isKnownTarget(llvm::StringRef Name);

} // namespace ptx
} // namespace ptxjit

#endif // PTXJIT_PTX_TARGETS_H
