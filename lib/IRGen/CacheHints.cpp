//===- CacheHints.cpp - createpolicy, applypriority, discard --------------===//
//
// ptx-jit has no cache model. A cache eviction policy (createpolicy) is an
// opaque 64-bit value to the program: the .L2::cache_hint operands of ld,
// st, cp.async and the rest accept it and ignore it. Ours is a constant made
// from the priorities (CachePolicyTag below), the same in every lane and
// run; the fraction and the range change nothing. createpolicy.cvt passes
// the CUDA access property through. applypriority has no effect, and discard
// leaves its 128 bytes as they were, one of the values the ISA lets it leave
// (the line's contents become indeterminate). Both check their address as
// an access of 128 bytes would: in device memory, 128-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "InstructionVisitor.h"
#include "Lowering.h"
#include "ptxjit/ABI/WarpABI.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Opcode;
using ptx::ScalarType;

namespace {
/// The high half of every policy createpolicy makes ("cache").
constexpr uint64_t CachePolicyTag = 0xcac4e000;

/// The code of an eviction priority in a policy.
unsigned priorityCode(Modifier M) {
  switch (M) {
  case Modifier::L2EvictNormal:
    return 1;
  case Modifier::L2EvictFirst:
    return 2;
  case Modifier::L2EvictLast:
    return 3;
  case Modifier::L2EvictUnchanged:
    return 4;
  default:
    return 0;
  }
}
} // namespace

Error InstructionLowering::visitCacheHint(const ptx::Instruction &I) {
  IRBuilder<> &B = FL.B;
  if (I.Op == Opcode::Createpolicy) {
    if (I.hasModifier(Modifier::CvtPolicy)) {
      Expected<LaneValue> P = FL.read(I.Operands[1], ScalarType::B64);
      if (!P)
        return P.takeError();
      return FL.write(I.Operands[0], P->V, ScalarType::B64);
    }
    // (tag << 32) | primary << 8 | secondary, the priorities in the order
    // written (the verifier checked which may come second).
    uint64_t Policy = CachePolicyTag << 32;
    unsigned Shift = 8;
    for (Modifier M : I.Modifiers)
      if (unsigned Code = priorityCode(M)) {
        Policy |= uint64_t(Code) << Shift;
        Shift = 0;
      }
    return FL.write(I.Operands[0], B.getInt64(Policy), ScalarType::B64);
  }
  // applypriority and discard: [a], 128.
  const ptx::Operand &AddrOp = I.Operands[0];
  Expected<LaneValue> Addr = FL.getAddress(AddrOp, I.Space);
  if (!Addr)
    return Addr.takeError();
  FL.checkAccess(I, AddrOp, *Addr, 128,
                 I.Op == Opcode::Discard ? AK_Store : AK_Load);
  return Error::success();
}
