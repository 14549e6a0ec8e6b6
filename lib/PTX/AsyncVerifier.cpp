//===- AsyncVerifier.cpp - Rules of the asynchronous instructions ---------===//
//
// The operand shapes of Opcodes.def check counts, kinds and the types they
// can name. What else the PTX ISA requires of cp.async, the bulk copies,
// the mbarrier instructions and the cluster instructions is checked here:
// sizes that must be literals, the state spaces of copies, operands whose
// type depends on a modifier (.parity), and modifiers that go together.
//
//===----------------------------------------------------------------------===//

#include "VerifierImpl.h"
#include "ptxjit/PTX/TypeRules.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace ptxjit::ptx;

static bool isShared(StateSpace S) {
  return S == StateSpace::Shared || S == StateSpace::SharedCTA;
}

void FunctionVerifier::checkAsyncRules(const Instruction &I, StringRef Text) {
  auto Rule = [&](SMLoc Loc, const Twine &What) {
    reportRule(Loc, Text, What);
  };
  auto Kind = [&](unsigned Idx, const Twine &What) {
    reportOperandKind(I, Idx, Text, What);
  };
  auto RegType = [&](unsigned Idx) {
    return getRegisterType(I.Operands[Idx], /*Special=*/true);
  };
  auto IsLiteral = [&](unsigned Idx) {
    return I.Operands[Idx].Kind == Operand::IntImm;
  };
  // .sem and .scope are written together or not at all.
  auto SemAndScope = [&](std::initializer_list<Modifier> Sems) {
    bool Sem = llvm::any_of(Sems, [&](Modifier M) { return I.hasModifier(M); });
    bool Scope =
        I.hasModifier(Modifier::Cta) || I.hasModifier(Modifier::Cluster);
    if (Sem != Scope)
      Rule(I.Loc, "a memory order and a scope are written together");
  };

  switch (I.Op) {
  case Opcode::CpAsync: {
    if (!isShared(I.Space) || I.Space2 != StateSpace::Global)
      Rule(I.Loc, "copies from .global to .shared or .shared::cta");
    const Operand &Size = I.Operands[2];
    if (!IsLiteral(2) ||
        (Size.Value != 4 && Size.Value != 8 && Size.Value != 16))
      Kind(2, "4, 8 or 16 (the bytes to copy)");
    else if (I.hasModifier(Modifier::Cg) && Size.Value != 16)
      Kind(2, "16 with .cg");
    // A cache policy comes last (the cache rules check its type).
    bool Policy = getCachePolicyOperand(I) != ~0u;
    if (I.Operands.size() >= (Policy ? 5u : 4u)) {
      // src-size (a .u32) or ignore-src (a predicate).
      ScalarType T = RegType(3);
      if (IsLiteral(3)) {
        if (IsLiteral(2) && I.Operands[3].Value > Size.Value)
          Kind(3, "at most the copy size");
      } else if (T == ScalarType::None ||
                 (T != ScalarType::Pred && !typesAgree(ScalarType::U32, T))) {
        Kind(3, "a .u32 source size or a predicate (ignore-src)");
      }
    }
    if (I.Operands.size() == 5 && !I.hasModifier(Modifier::L2CacheHint))
      Rule(I.Operands[4].Loc, "a cache policy needs .L2::cache_hint");
    return;
  }
  case Opcode::CpAsyncWaitGroup:
  case Opcode::CpAsyncBulkWaitGroup:
    if (!IsLiteral(0))
      Kind(0, "an integer literal (the groups that may stay pending)");
    return;
  case Opcode::CpAsyncBulk:
  case Opcode::CpReduceAsyncBulk: {
    bool ToGlobal = I.Space == StateSpace::Global;
    bool WithMBarrier = I.hasModifier(Modifier::MbarrierCompleteTxBytes);
    bool Spaces = ToGlobal ? isShared(I.Space2)
                           : (I.Space == StateSpace::SharedCluster ||
                              I.Space == StateSpace::SharedCTA) &&
                                 (I.Space2 == StateSpace::Global ||
                                  (isShared(I.Space2) &&
                                   I.Space == StateSpace::SharedCluster));
    if (I.Op == Opcode::CpReduceAsyncBulk && !ToGlobal)
      Spaces = I.Space == StateSpace::SharedCluster && isShared(I.Space2);
    if (!Spaces)
      Rule(I.Loc, "copies .global or .shared::cta to .shared::cluster, or "
                  ".shared::cta to .global");
    else if (ToGlobal == WithMBarrier)
      Rule(I.Loc, ToGlobal ? "a copy to .global completes by .bulk_group"
                           : "a copy to shared memory completes by "
                             ".mbarrier::complete_tx::bytes");
    bool HasMBarrier =
        I.Operands.size() >= 4 && I.Operands[3].Kind == Operand::Address;
    if (WithMBarrier != HasMBarrier)
      Rule(I.Loc, WithMBarrier ? "needs the address of an mbarrier object"
                               : "takes no mbarrier object");
    if (IsLiteral(2) && I.Operands[2].Value % 16)
      Kind(2, "a multiple of 16 (the bytes to copy)");
    if (I.hasModifier(Modifier::MulticastCluster) && I.Operands.size() < 5)
      Rule(I.Loc, ".multicast::cluster needs a CTA mask");
    return;
  }
  case Opcode::CpAsyncBulkTensor:
  case Opcode::CpReduceAsyncBulkTensor: {
    bool ToGlobal = I.Space == StateSpace::Global;
    if (I.Op == Opcode::CpReduceAsyncBulkTensor && !ToGlobal) {
      Rule(I.Loc, "reduces .shared::cta into .global");
      return;
    }
    if (ToGlobal ? !isShared(I.Space2)
                 : (I.Space != StateSpace::SharedCluster &&
                    I.Space != StateSpace::SharedCTA) ||
                       I.Space2 != StateSpace::Global)
      Rule(I.Loc, "copies .global to .shared::cluster, or .shared::cta to "
                  ".global");
    else if (ToGlobal == I.hasModifier(Modifier::MbarrierCompleteTxBytes))
      Rule(I.Loc, ToGlobal ? "a copy to .global completes by .bulk_group"
                           : "a copy to shared memory completes by "
                             ".mbarrier::complete_tx::bytes");
    // The coordinates: as many as the dimensions (.1d to .5d).
    unsigned CoordsIdx = ToGlobal ? 1 : 2;
    if (I.Operands.size() <= CoordsIdx + 1)
      return; // the shapes have said it
    const Operand &Coords = I.Operands[CoordsIdx];
    unsigned Rank = I.hasModifier(Modifier::Geom1D)   ? 1
                    : I.hasModifier(Modifier::Geom2D) ? 2
                    : I.hasModifier(Modifier::Geom3D) ? 3
                    : I.hasModifier(Modifier::Dim4D)  ? 4
                                                      : 5;
    if (Coords.Kind != Operand::Vector || !Coords.InAddress ||
        Coords.Elements.size() != Rank)
      Kind(CoordsIdx, "the tensor map's address and " + Twine(Rank) +
                          " coordinates: [map, {...}]");
    if (!ToGlobal && I.Operands[3].Kind != Operand::Address)
      Kind(3, "the address of an mbarrier object");
    if (I.hasModifier(Modifier::MulticastCluster) &&
        (ToGlobal || I.Operands.size() < 5))
      Rule(I.Loc, ".multicast::cluster needs a CTA mask");
    return;
  }
  case Opcode::StAsync:
  case Opcode::RedAsync: {
    if (I.Space != StateSpace::SharedCluster)
      Rule(I.Loc, "the destination is in .shared::cluster");
    unsigned Bytes = getBitWidth(I.getType()) / 8 * I.VectorWidth;
    if (I.Op == Opcode::RedAsync ? I.VectorWidth != 1
                                 : I.VectorWidth > 4 || Bytes > 16)
      Rule(I.Loc, I.Op == Opcode::RedAsync
                      ? "takes no vector"
                      : "writes .v2 or .v4 of at most 16 bytes");
    return;
  }
  case Opcode::CpAsyncMbarrierArrive:
  case Opcode::MbarrierInit:
  case Opcode::MbarrierInval:
  case Opcode::MbarrierTestWait:
  case Opcode::MbarrierTryWait:
    if (I.Space != StateSpace::None && !isShared(I.Space))
      Rule(I.Loc, "the mbarrier object is in .shared::cta memory");
    break;
  default:
    break;
  }

  switch (I.Op) {
  case Opcode::MbarrierArrive:
  case Opcode::MbarrierArriveDrop: {
    SemAndScope({Modifier::Release, Modifier::Relaxed});
    bool ExpectTx = I.hasModifier(Modifier::ExpectTx);
    if ((ExpectTx || I.hasModifier(Modifier::NoComplete)) &&
        I.Operands.size() != 3)
      Rule(I.Loc, ExpectTx ? ".expect_tx needs a transaction count"
                           : ".noComplete needs an arrival count");
    if (ExpectTx && I.hasModifier(Modifier::NoComplete))
      Rule(I.Loc, ".expect_tx and .noComplete exclude each other");
    if (I.Space == StateSpace::SharedCluster &&
        I.Operands[0].Kind != Operand::Sink)
      Kind(0, "'_': an arrival on .shared::cluster returns no state");
    if (I.Space != StateSpace::None && !isShared(I.Space) &&
        I.Space != StateSpace::SharedCluster)
      Rule(I.Loc, "the mbarrier object is in shared memory");
    return;
  }
  case Opcode::MbarrierExpectTx:
  case Opcode::MbarrierCompleteTx:
    SemAndScope({Modifier::Relaxed});
    if (I.Space != StateSpace::None && !isShared(I.Space) &&
        I.Space != StateSpace::SharedCluster)
      Rule(I.Loc, "the mbarrier object is in shared memory");
    return;
  case Opcode::MbarrierTestWait:
  case Opcode::MbarrierTryWait: {
    SemAndScope({Modifier::Acquire, Modifier::Relaxed});
    // A 64-bit state from mbarrier.arrive, or a 32-bit phase parity.
    bool Parity = I.hasModifier(Modifier::Parity);
    ScalarType Want = Parity ? ScalarType::U32 : ScalarType::B64;
    ScalarType T = RegType(2);
    if (IsLiteral(2) ? !Parity
                     : (T == ScalarType::None || !typesAgree(Want, T)))
      Kind(2, Parity ? "a .u32 phase parity" : "a .b64 state register");
    return;
  }
  case Opcode::BarrierCluster: {
    bool Arrive = I.hasModifier(Modifier::Arrive);
    if (Arrive && I.hasModifier(Modifier::Acquire))
      Rule(I.Loc, ".acquire is for barrier.cluster.wait");
    if (!Arrive &&
        (I.hasModifier(Modifier::Release) || I.hasModifier(Modifier::Relaxed)))
      Rule(I.Loc, ".release and .relaxed are for barrier.cluster.arrive");
    return;
  }
  case Opcode::Mapa:
  case Opcode::Getctarank:
    if (I.Space != StateSpace::None && I.Space != StateSpace::SharedCluster)
      Rule(I.Loc, "the address is generic or in .shared::cluster");
    return;
  case Opcode::Elect:
    if (I.Operands[0].Kind != Operand::PredPair)
      Kind(0, "a pair d|p (the leader's lane, and whether this lane leads)");
    return;
  case Opcode::Setmaxnreg: {
    const Operand &N = I.Operands[0];
    if (!IsLiteral(0) || N.Value < 24 || N.Value > 256 || N.Value % 8)
      Kind(0, "an integer literal from 24 to 256, a multiple of 8");
    return;
  }
  default:
    return;
  }
}
