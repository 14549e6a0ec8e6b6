//===- CacheVerifier.cpp - Rules of cache policies, hints, tensor maps ----===//
//
// What the PTX ISA requires of createpolicy, applypriority, discard,
// prefetch.tensormap and the tensormap instructions beyond their operand
// shapes: which priorities may come second, sizes that must be 128, the
// state spaces they take, and the operands each form has.
//
//===----------------------------------------------------------------------===//

#include "VerifierImpl.h"
#include "ptxjit/PTX/TypeRules.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace ptxjit::ptx;

static bool isPriority(Modifier M) {
  return M == Modifier::L2EvictLast || M == Modifier::L2EvictNormal ||
         M == Modifier::L2EvictFirst || M == Modifier::L2EvictUnchanged;
}

unsigned ptxjit::ptx::getCachePolicyOperand(const Instruction &I) {
  if (!I.hasModifier(Modifier::L2CacheHint))
    return ~0u;
  // After the values, where cas takes a second one; after cp.async's
  // size, and its src-size or ignore-src if it has one.
  size_t Size = I.Operands.size();
  switch (I.Op) {
  case Opcode::Ld:
  case Opcode::St:
  case Opcode::Red:
    return Size == 3 ? 2 : ~0u;
  case Opcode::Atom:
    return Size == (I.hasModifier(Modifier::Cas) ? 5u : 4u) ? Size - 1 : ~0u;
  case Opcode::CpAsync:
    return Size >= 4 ? Size - 1 : ~0u;
  default:
    return ~0u;
  }
}

void FunctionVerifier::checkCacheRules(const Instruction &I, StringRef Text) {
  auto Rule = [&](SMLoc Loc, const Twine &What) {
    reportRule(Loc, Text, What);
  };
  auto Kind = [&](unsigned Idx, const Twine &What) {
    reportOperandKind(I, Idx, Text, What);
  };
  auto RegType = [&](unsigned Idx) { return getRegisterType(I.Operands[Idx]); };
  auto Is128 = [&](unsigned Idx) {
    if (I.Operands[Idx].Kind != Operand::IntImm || I.Operands[Idx].Value != 128)
      Kind(Idx, "128 (the bytes of the line)");
  };
  auto GlobalOrGeneric = [&] {
    if (I.Space != StateSpace::None && I.Space != StateSpace::Global)
      Rule(I.Loc, "the address is generic or in .global");
  };

  unsigned Policy = getCachePolicyOperand(I);
  if (Policy != ~0u && !typesAgree(ScalarType::B64, RegType(Policy)))
    Kind(Policy, "a .b64 cache policy");
  if (!I.hasModifier(Modifier::L2CacheHint) && I.Operands.size() == 3 &&
      (I.Op == Opcode::Ld || I.Op == Opcode::St || I.Op == Opcode::Red))
    Rule(I.Operands[2].Loc, "a cache policy needs .L2::cache_hint");

  switch (I.Op) {
  case Opcode::Createpolicy: {
    SmallVector<Modifier, 3> Priorities;
    for (Modifier M : I.Modifiers)
      if (isPriority(M))
        Priorities.push_back(M);
    if (I.hasModifier(Modifier::CvtPolicy)) {
      // createpolicy.cvt.L2.b64 policy, access-property.
      if (!I.hasModifier(Modifier::L2) || !Priorities.empty())
        Rule(I.Loc, ".cvt takes .L2 and no priority");
      if (I.Operands.size() != 2)
        Rule(I.Loc, ".cvt converts one access property");
      else if (!typesAgree(ScalarType::B64, RegType(1)))
        Kind(1, "a .b64 register (an access property)");
      return;
    }
    if (I.hasModifier(Modifier::L2))
      Rule(I.Loc, ".L2 is for .cvt; the priorities name the level");
    if (Priorities.empty() || Priorities.size() > 2)
      Rule(I.Loc, "needs a primary priority and at most a secondary one");
    else if (Priorities.size() == 2 &&
             Priorities[1] != Modifier::L2EvictFirst &&
             Priorities[1] != Modifier::L2EvictUnchanged)
      Rule(I.Loc, "the secondary priority is .L2::evict_first or "
                  ".L2::evict_unchanged");
    bool Range = I.hasModifier(Modifier::Range);
    if (Range != (I.Operands.size() == 4))
      Rule(I.Loc, Range ? ".range needs [a], primary-size, total-size"
                        : ".fractional takes at most a fraction");
    if (!Range && I.Space != StateSpace::None)
      Rule(I.Loc, "only .range takes a state space");
    if (Range)
      GlobalOrGeneric();
    if (!Range && I.Operands.size() == 2) {
      const Operand &Frac = I.Operands[1];
      bool Literal =
          Frac.Kind == Operand::FloatImm || Frac.Kind == Operand::DoubleImm;
      if (!Literal && !typesAgree(ScalarType::F32, RegType(1)))
        Kind(1, "an .f32 fraction");
    }
    return;
  }
  case Opcode::Applypriority:
  case Opcode::Discard:
    GlobalOrGeneric();
    Is128(1);
    return;
  case Opcode::Prefetch:
    if (I.hasModifier(Modifier::Tensormap) &&
        (I.hasModifier(Modifier::L2EvictLast) ||
         I.hasModifier(Modifier::L2EvictNormal) ||
         (I.Space != StateSpace::None && I.Space != StateSpace::Const &&
          I.Space != StateSpace::Param)))
      Rule(I.Loc, ".tensormap takes a generic, .const or .param address and "
                  "no priority");
    return;
  case Opcode::TensormapReplace: {
    // The dimension fields take an ordinal (which dimension) first.
    bool Ordinal = I.hasModifier(Modifier::BoxDim) ||
                   I.hasModifier(Modifier::GlobalDim) ||
                   I.hasModifier(Modifier::GlobalStride) ||
                   I.hasModifier(Modifier::ElementStride);
    if (Ordinal != (I.Operands.size() == 3))
      Rule(I.Loc, Ordinal ? "this field needs an ordinal and a value"
                          : "this field takes one value");
    if (Ordinal && I.Operands[1].Kind != Operand::IntImm)
      Kind(1, "an integer literal (the dimension)");
    if (I.Space != StateSpace::None && I.Space != StateSpace::Global &&
        I.Space != StateSpace::SharedCTA)
      Rule(I.Loc, "the tensor map is generic, in .global or .shared::cta");
    return;
  }
  case Opcode::Fence: {
    // The tensor-map proxy fence: a release, or an acquire of the 128
    // bytes of one map (generic, or .global, .const or .param).
    bool Tensormap = I.hasModifier(Modifier::TensormapGeneric);
    bool Acquire = I.hasModifier(Modifier::Acquire);
    if (Tensormap && !Acquire && !I.hasModifier(Modifier::Release))
      Rule(I.Loc, ".tensormap::generic is an .acquire or a .release");
    bool WithAddress = Tensormap && Acquire;
    if (WithAddress != (I.Operands.size() == 2))
      Rule(I.Loc, WithAddress ? "needs the tensor map's address and 128"
                              : "takes no operands");
    else if (WithAddress)
      Is128(1);
    return;
  }
  case Opcode::TensormapCpFenceproxy:
    if (I.Space != StateSpace::Global || I.Space2 != StateSpace::SharedCTA)
      Rule(I.Loc, "copies from .shared::cta to .global");
    Is128(2);
    return;
  default:
    return;
  }
}
