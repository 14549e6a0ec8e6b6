//===- CheckInstrumentation.h - Calls of the checking mode ------*- C++ -*-===//
//
// What a kernel compiled for the checking mode (IRGenOptions::CheckKinds)
// emits around memory accesses, CTA barriers and warp-synchronous
// instructions: calls of the runtime's checks (CheckABI.h). Each function
// emits nothing when the kinds it serves are off.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_IRGEN_CHECKINSTRUMENTATION_H
#define PTXJIT_LIB_IRGEN_CHECKINSTRUMENTATION_H

#include "Lowering.h"
#include "ptxjit/ABI/CheckABI.h"

namespace ptxjit {
namespace irgen {

/// Before I accesses Size bytes at Addr in the lanes of Mask: returns the
/// lanes whose access may happen (Mask itself when nothing is checked).
llvm::Value *emitAccessCheck(FunctionLowering &FL, const ptx::Instruction &I,
                             const LaneValue &Addr, unsigned Size,
                             CheckAccessKind Kind, llvm::Value *Mask);

/// The same for an access in Space, which need not be I's (cp.async's
/// destination, ldmatrix's shared rows).
llvm::Value *emitAccessCheck(FunctionLowering &FL, const ptx::Instruction &I,
                             ptx::StateSpace Space, const LaneValue &Addr,
                             unsigned Size, CheckAccessKind Kind,
                             llvm::Value *Mask);

/// The function's .local frame becomes live (Enter) or dead (memcheck).
void emitLocalFrameCheck(FunctionLowering &FL, bool Enter);

/// At the warp-synchronous instruction I run by Lanes, each naming
/// MemberMask (synccheck).
void emitWarpSyncCheck(FunctionLowering &FL, const ptx::Instruction &I,
                       llvm::Value *Lanes, const LaneValue &MemberMask);

/// Lanes arrive at the CTA barrier I (synccheck).
void emitBarrierCheck(FunctionLowering &FL, const ptx::Instruction &I,
                      llvm::Value *Lanes, llvm::Value *Barrier,
                      llvm::Value *Count);

} // namespace irgen
} // namespace ptxjit

#endif
