//===- Lowering.h - State shared by the warp lowering -----------*- C++ -*-===//
//
// ModuleLowering owns what is per LLVM module (globals, the shared-memory
// layout, device functions). FunctionLowering owns one PTX function's warp
// function: the registers and variables, and (in a WarpLaneState) the lane
// sets: the execution mask and the divergence state. Like ISPC's
// FunctionEmitContext, it is the only place that knows the mask; instruction
// semantics ask it for operands and hand it results.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_IRGEN_LOWERING_H
#define PTXJIT_LIB_IRGEN_LOWERING_H

#include "DebugLocations.h"
#include "WarpLaneState.h"
#include "ptxjit/IRGen/IRGen.h"
#include "ptxjit/IRGen/RuntimeABI.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/Transforms/CFG.h"
#include "ptxjit/Transforms/Liveness.h"
#include "ptxjit/Transforms/Uniformity.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/MathExtras.h"
#include <optional>

namespace ptxjit {
namespace irgen {

// The analyses of the Transforms layer the lowering reads.
using transforms::findBranchTargets;
using transforms::isSyncPoint;
using transforms::PTXBlock;
using transforms::PTXCFG;
using transforms::Shape;
using transforms::UniformityInfo;

constexpr unsigned Lanes = 32;
/// The bytes of each lane's .local frame that alloca may use (Stack.cpp).
constexpr uint64_t DynamicStackBytes = 4096;

class ModuleLowering {
public:
  ModuleLowering(const ptx::Module &PM, llvm::Module &LM,
                 const KernelShape &KS, const IRGenOptions &Options);

  llvm::Error lowerGlobals(const ptx::Function &Kernel);
  /// The LLVM function for a PTX .func (emitted on first request).
  llvm::Expected<llvm::Function *> getDeviceFunction(const ptx::Function &F);
  llvm::Expected<llvm::Function *> emitKernel(const ptx::Function &F);

  const ptx::Module &PM;
  llvm::Module &LM;
  llvm::LLVMContext &Ctx;
  const KernelShape &KS;
  llvm::StructType *WarpCtxTy;
  llvm::StringMap<llvm::GlobalVariable *> Globals; ///< .global and .const
  llvm::StringMap<uint64_t> SharedOffsets;         ///< .shared: offset
  uint64_t StaticSharedSize = 0;
  /// Where dynamic (extern) shared memory starts: past the static part, at
  /// a 16-byte boundary (KernelLayout::DynamicSharedOffset).
  uint64_t getDynamicSharedOffset() const {
    return llvm::alignTo(StaticSharedSize, 16);
  }
  /// Some function reads where the reserved shared memory lies
  /// (KernelLayout::ReservedSharedSize).
  bool UsesReservedShared = false;
  bool UsesBarriers = false;
  /// Warps wait for each other only at CTA barriers, not in loops on what
  /// other warps write: if those barriers allow, the kernel's CTAs may run
  /// in phases (Phases.cpp).
  bool MayRunInPhases = false;
  /// The kernel's warp function runs warp chains (makeWarpChain).
  bool RunsWarpChains = false;
  /// KernelLayout::PhaseStateSize of the kernel, once lowered.
  uint64_t PhaseStateSize = 0;
  /// The kernel's RoundAtBarrier and RoundBarrier (FunctionLowering), for
  /// its warp chain; null when it has no phase sites.
  llvm::AllocaInst *ChainAtBarrier = nullptr, *ChainBarrier = nullptr;
  /// The kernel's warps may pass barrier rounds ahead of time
  /// (WarpContext::SkipRounds, PhaseProbes.cpp): its chain skips them.
  bool ChainSkipsRounds = false;
  /// KernelLayout::LocalBytesPerLane: the .local frames of every function
  /// lowered, added up.
  uint64_t LocalBytesPerLane = 0;
  IRGenOptions Options;
  /// PTX lines of the generated instructions.
  DebugLocations DebugLocs;
  llvm::DenseMap<const ptx::Function *, llvm::Function *> DeviceFunctions;
  /// Device functions whose bodies still need to be emitted.
  std::vector<const ptx::Function *> Pending;

  llvm::Error makeError(llvm::SMLoc Loc, const llvm::Twine &Msg) const;
  /// Lowers the body of F into Fn.
  llvm::Error lowerFunction(const ptx::Function &F, llvm::Function *Fn);
  /// Storage for renamed operands (RegisterWebs).
  llvm::BumpPtrAllocator Alloc;
  /// Zeroed constant storage that loads no lane needs read instead.
  llvm::GlobalVariable *getLoadDummy();
  /// The address and size of each variable the module defines, as an
  /// i64 array, and how many there are (AddressChecks.cpp).
  std::pair<llvm::Constant *, unsigned> getVariableTable();
  /// Declares a runtime entry point (RuntimeEntryPoints.def).
  llvm::FunctionCallee getRuntimeFunction(RuntimeEntry E);

private:
  llvm::Error lowerGlobal(const ptx::VariableDecl &V);
  llvm::Constant *lowerInitializer(const ptx::VariableDecl &V);
};

/// An operand value: a scalar when uniform, a <32 x T> vector otherwise.
struct LaneValue {
  llvm::Value *V = nullptr;
  Shape Sh;
  bool isScalar() const { return !V->getType()->isVectorTy(); }
};

class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &ML, const ptx::Function &F,
                   llvm::Function *Fn, PTXCFG CFG);

  llvm::Error lower();

  // --- Used by instruction semantics (Instructions*.cpp). ---
  llvm::IRBuilder<> B;
  ModuleLowering &ML;
  const ptx::Function &F;

  /// The IR type of one lane's value of a PTX type (f16 and bf16 as i16).
  llvm::Type *getLaneType(ptx::ScalarType T) const;
  llvm::VectorType *getVectorType(llvm::Type *Elt) const;
  llvm::Value *splat(llvm::Value *Scalar);
  /// Makes V a vector if it is a scalar.
  llvm::Value *widen(llvm::Value *V);
  /// Converts V to IR type To (bit casts, integer extension or truncation).
  llvm::Value *coerce(llvm::Value *V, llvm::Type *To, bool Signed);

  /// Reads an operand as a value of PTX type T.
  llvm::Expected<LaneValue> read(const ptx::Operand &Op, ptx::ScalarType T);
  /// Writes V (of PTX type T) to a destination operand under the current
  /// instruction's execution mask.
  /// Names V after the PTX register it is written to, so emitted IR reads
  /// like the PTX.
  void nameAfterRegister(llvm::Value *V, llvm::StringRef Reg);
  llvm::Error write(const ptx::Operand &Dst, llvm::Value *V, ptx::ScalarType T,
                    bool Signed = false);

  /// The active lanes of the current block (i32).
  llvm::Value *getMask();
  /// Mask restricted to the lanes whose guard predicate holds.
  llvm::Expected<llvm::Value *> guardedMask(const ptx::Instruction &I,
                                            llvm::Value *Mask);
  /// A predicate as a lane mask (i32).
  llvm::Value *predicateBits(const LaneValue &P);
  /// The lanes the current instruction applies to (guard included), i32.
  llvm::Value *getInstMask() { return InstMask; }
  llvm::Value *maskToVector(llvm::Value *Mask);
  llvm::Value *laneIndices();

  /// A global, generic or .local access of Bytes bytes through AddrOp (at
  /// Addr): checks that its active lanes' addresses lie in device memory
  /// (.local: the thread's frames) and are aligned, and stops the warp with
  /// a report if not (AddressChecks.cpp).
  void checkAccess(const ptx::Instruction &I, const ptx::Operand &AddrOp,
                   const LaneValue &Addr, unsigned Bytes, AccessKind Kind);
  /// checkAccess of a .local access: the lanes outside their own copy of
  /// the function's frame fault.
  void checkLocalAccess(const LaneValue &Addr, unsigned Bytes, uint32_t Site);
  /// The cold path of the checks: the runtime looks at the lanes of Bad and
  /// stops the warp if one faults; else on to Cont.
  void callAddressCheck(const LaneValue &Addr, llvm::Value *Bad, uint32_t Site,
                        llvm::BasicBlock *Cont);
  /// The cold path of an affine address's check (AnyOutside: a segment's
  /// first or last lane failed): the runtime looks at the active lanes of
  /// the segments starting at Firsts, SegmentLanes lanes Stride apart.
  void callSegmentCheck(llvm::ArrayRef<llvm::Value *> Firsts, int64_t Stride,
                        unsigned SegmentLanes, llvm::Value *AnyOutside,
                        uint32_t Site, llvm::BasicBlock *Cont);
  /// Host address of a memory operand for each lane.
  llvm::Expected<LaneValue> getAddress(const ptx::Operand &Op,
                                       ptx::StateSpace Space);
  /// AlwaysSafe: the address is valid even for inactive lanes (kernel
  /// parameters), so a uniform load needs no mask.
  llvm::Value *loadLanes(const LaneValue &Addr, llvm::Type *Elt,
                         llvm::Value *Mask, bool AlwaysSafe = false);
  void storeLanes(const LaneValue &Addr, llvm::Value *Val, llvm::Value *Mask);
  /// One Elt from Ptr if Any (i1) holds; an unspecified value otherwise.
  llvm::Value *loadIfAny(llvm::Type *Elt, llvm::Value *Ptr, llvm::Align Al,
                         llvm::Value *Any);
  /// Lane Lane of V, with additions of splats done after the extraction.
  llvm::Value *extractLane(llvm::Value *V, unsigned Lane);
  /// The same for a lane known at run time (an i32 below 32).
  llvm::Value *extractLaneAt(llvm::Value *V, llvm::Value *Lane);
  /// V's value in the instruction's first active lane (lane 0 if none): a
  /// value the warp's lanes hold alike.
  llvm::Value *extractFirstActiveLane(llvm::Value *V);
  /// Lanes [K*Width, K*Width+Width) of a vector, and the reverse.
  llvm::Value *sliceVector(llvm::Value *V, unsigned K, unsigned Width);
  llvm::Value *concatVectors(llvm::ArrayRef<llvm::Value *> Parts);

  llvm::Value *getContextField(unsigned Field, llvm::Type *Ty);
  /// Host address of each lane's .local frame in this function, or null if
  /// it has no .local variables. Local-space addresses are host addresses:
  /// cvta to and from .local is the identity.
  llvm::Value *getLocalFrames();
  uint64_t getLocalFrameSize() const { return FrameSize; }
  /// The frame's bytes below the dynamic stack (Stack.cpp): its variables.
  uint64_t getStaticFrameSize() const { return StaticFrameSize; }
  /// Functions with alloca: each lane's stack pointer as a depth below the
  /// top of its frame (<32 x i64>); null in others.
  llvm::AllocaInst *getStackDepths() const { return StackDepths; }
  /// Device functions: the stack addresses [returned value, Top) that hold
  /// the .local frames of this function and its callers (as i64).
  llvm::Value *getLocalStackRange(llvm::Value *&Top);
  /// Kernels: the parameter buffer and its size.
  llvm::Value *getParamsArg() const { return ParamsArg; }
  uint64_t getParamBufferSize() const;
  /// Runs Body(Lane) for each lane of Mask in ascending order, in an IR
  /// loop (atomics, ordered accesses, printf).
  void forEachActiveLane(llvm::Value *Mask,
                         llvm::function_ref<void(llvm::Value *Lane)> Body);
  /// Lane Lane (an i32 that varies, as in forEachActiveLane's body) of V, or
  /// V itself if it is a scalar. Goes through memory: the x86 backend gives
  /// every variable-index extractelement a stack slot of its own, and a
  /// kernel with many lane loops outgrew its fiber's stack.
  llvm::Value *laneOf(llvm::Value *V, llvm::Value *Lane);
  /// A vector's lanes in stack slot Slot (< NumLaneStashSlots; one per
  /// vector a lane loop reads), stored where this is called (before the
  /// loop, not in it), or a scalar (every lane's).
  struct LaneStash {
    llvm::Value *V;                               ///< the slot, or the scalar
    llvm::Type *Elt = nullptr, *MemElt = nullptr; ///< null for a scalar
  };
  static constexpr unsigned NumLaneStashSlots = 3;
  LaneStash stashLanes(llvm::Value *V, unsigned Slot);
  /// Lane Lane (an i32) of what stashLanes stored.
  llvm::Value *loadStashedLane(const LaneStash &A, llvm::Value *Lane);
  /// Calls PerLane(Lane) for each lane of Mask, in ascending order, and
  /// returns the <32 x Elt> of its results (zero in the other lanes).
  llvm::Value *collectActiveLanes(
      llvm::Value *Mask, llvm::Type *Elt,
      llvm::function_ref<llvm::Value *(llvm::Value *Lane)> PerLane);
  /// A zero-initialized stack slot in the entry block (never in a loop).
  llvm::AllocaInst *createTemporary(llvm::Type *Ty);
  /// The carry flag of add.cc/addc chains, one bit per lane (<32 x i1>).
  llvm::Value *readCarry();
  void writeCarry(llvm::Value *Carry);
  llvm::Error error(const ptx::Instruction &I, const llvm::Twine &Msg);
  /// Whether Op names a .pred register.
  bool isPredicateRegister(const ptx::Operand &Op);
  /// The bytes of one mapping of the cluster's shared memory: its CTAs'
  /// windows, ClusterSharedStride apart (Async.cpp), as an i64.
  llvm::Value *getClusterSharedSpan();

  unsigned getLine(llvm::SMLoc Loc) const { return ML.PM.getLine(Loc); }

private:
  struct Register {
    ptx::ScalarType Type;
    Shape Sh;
    llvm::AllocaInst *Slot = nullptr;
    /// Set when every write of the register is a mov of this immediate
    /// (of ConstantType): reads use it (findConstantRegisters).
    std::optional<int64_t> Constant;
    ptx::ScalarType ConstantType = ptx::ScalarType::None;
  };
  /// A variable declared in the body or a parameter of this function.
  struct LocalVariable {
    ptx::StateSpace Space;
    uint64_t Offset = 0; ///< .local: offset in the frame
    uint64_t Size = 0;
    llvm::Value *Storage = nullptr; ///< .param: [32 x Size] lane-major
    bool IsKernelParam = false;
  };

  /// A register's value: a scalar if uniform, else <32 x T> (affine
  /// registers keep only their segments' bases).
  llvm::Value *loadRegister(const Register &R);
  /// What R's slot holds for the value V (a scalar or <32 x T>).
  llvm::Value *packRegister(const Register &R, llvm::Value *V);
  /// The lanes of affine register R from the segment bases Packed.
  llvm::Value *unpackAffine(const Register &R, llvm::Value *Packed);
  /// Whether I widens an affine value that may wrap in the narrow type
  /// (Shape::widensExactly): its result's lanes must be checked.
  bool mayWrapWhenWidened(const ptx::Instruction &I) const;
  /// Stops the warp (WS_AffineWrap) if a run of running lanes of Exact, the
  /// value for affine register R, wrapped around: R's bases and step would
  /// not give it back. Returns R's slot value for Exact when it differs
  /// from packRegister's (the base of the first running lane), else null.
  llvm::Value *checkAffineWrap(const Register &R, llvm::Value *Exact);
  /// checkAffineWrap's stop: the status naming the running lanes that R's
  /// Bases do not give back, then the stop block.
  void stopAffineWrap(const Register &R, llvm::Value *Exact,
                      llvm::Value *Bases);
  /// True if a device function of the module has isspacep: the kernel
  /// then records where its stack frame ends (WCF_LocalStackTop).
  bool calleesTestLocalSpace() const;
  void declareRegisters();
  /// Sets Register::Constant of the registers only ever written by a mov of
  /// one integer immediate.
  void findConstantRegisters();
  void declareVariables();
  Register *findRegister(llvm::StringRef Name);
  llvm::Expected<LaneValue> readSpecial(const ptx::Operand &Op);
  llvm::Expected<LaneValue> symbolAddress(llvm::StringRef Name, int64_t Off,
                                          ptx::StateSpace *SpaceOut);

  llvm::Error lowerCall(const ptx::Instruction &I);
  /// vprintf, __assertfail, malloc and free: calls into the runtime.
  llvm::Error lowerSystemCall(const ptx::Instruction &I, llvm::StringRef Name);
  /// Lane-major storage ([32 x size] bytes) holding a call argument or
  /// return value; registers are copied through a temporary.
  llvm::Expected<llvm::Value *> getCallSlot(
      const ptx::Operand &Op, bool IsReturn,
      llvm::SmallVectorImpl<std::pair<const ptx::Operand *, llvm::Value *>>
          &CopyBack);
  /// The storage of a call's returns and arguments, in operand order.
  llvm::Error getCallSlots(
      const ptx::Instruction &I, llvm::SmallVectorImpl<llvm::Value *> &Slots,
      llvm::SmallVectorImpl<std::pair<const ptx::Operand *, llvm::Value *>>
          &CopyBack);
  /// Register results come back from their temporaries.
  llvm::Error copyBack(
      llvm::ArrayRef<std::pair<const ptx::Operand *, llvm::Value *>> CopyBack);
  void emitCall(llvm::FunctionCallee Callee, llvm::Value *Mask,
                llvm::ArrayRef<llvm::Value *> Slots);
  llvm::Error lowerBlock(unsigned Index);
  llvm::Error lowerInstruction(const ptx::Instruction &I);
  llvm::Error lowerTerminator(unsigned Index, const ptx::Instruction *Last);
  /// Sends Lanes to block Target: directly if no other lanes wait,
  /// otherwise through the dispatcher.
  void transition(unsigned Target, llvm::Value *LaneMask);
  /// Checks the cancel flag and counts backward branches (forward progress
  /// of divergent spin loops; yielding to other warps).
  void emitBackEdgeChecks(unsigned Target);
  /// The warp stops (trap, cancel, deadlock): every lane leaves.
  void emitStop();
  /// Sync points: the prologue that waits for the other lanes.
  llvm::Error lowerSyncPoint(unsigned Index, const ptx::Instruction &I);
  /// The prologue of a warp-synchronous instruction: lanes that complete
  /// its member mask go on, others block.
  llvm::Error lowerWarpSyncPrologue(unsigned Index, const ptx::Instruction &I);
  /// The prologue of a CTA barrier: arriving lanes are counted and parked,
  /// released ones go on.
  llvm::Error lowerCTABarrierPrologue(unsigned Index,
                                      const ptx::Instruction &I);
  /// The prologue of mbarrier.test_wait, try_wait and barrier.cluster.wait
  /// (Async.cpp): lanes whose phase is incomplete are parked until the
  /// runtime releases them; AsyncWaitResult gets the lanes whose wait
  /// completed.
  llvm::Error lowerAsyncWaitPrologue(unsigned Index, const ptx::Instruction &I);
  llvm::Value *AsyncWaitResult = nullptr;
  /// %total_smem_size, %aggr_smem_size and %reserved_smem_offset_*.
  LaneValue readSharedSizeSpecial(llvm::StringRef Name);
  /// %clusterid, %cluster_ctarank, ... (Async.cpp); Dim is the component.
  llvm::Expected<LaneValue> readClusterSpecial(llvm::StringRef Name,
                                               unsigned Dim);
  llvm::Error lowerWarpSync(const ptx::Instruction &I);
  llvm::Error lowerWarpSyncOp(const ptx::Instruction &I);
  /// A redux over per-lane member masks (PerLane): each lane combines,
  /// from Identity, the values of V of the lanes its mask names.
  llvm::Value *reduceOverMemberMasks(
      llvm::Value *V, llvm::Value *PerLane, llvm::Value *Identity,
      llvm::function_ref<llvm::Value *(llvm::Value *, llvm::Value *)> Combine);
  /// redux.sync.min/max.f32 of V over the member lanes (Sync.cpp).
  llvm::Value *reduceFloats(const ptx::Instruction &I, llvm::Value *V,
                            llvm::Value *On, llvm::Value *PerLane);
  /// Warp-synchronous instructions that exchange data, of one kind (the
  /// same opcode and qualifiers) at several places in the function: lanes
  /// blocked at one of them complete with lanes arriving at another (sm_70
  /// semantics). Blocked lanes leave their operands here, and the group that
  /// completes leaves them their results.
  struct SyncExchange {
    unsigned Blocked = 0; ///< WarpLaneState's set of lanes blocked at one
    /// <32 x i64> per operand index of the instruction.
    llvm::SmallVector<llvm::AllocaInst *, 5> Operands;
    llvm::AllocaInst *Results[2] = {}; ///< <32 x i64>: d and the p of d|p
  };
  /// Lanes let through an instance of X because a group at another one
  /// completed the set take their results and go on (a path that ends at
  /// ExchangePassedEnd); the builder is left where the others arrive.
  llvm::Error lowerExchangePassThrough(unsigned Index,
                                       const ptx::Instruction &I,
                                       const SyncExchange &X,
                                       llvm::Value *Mask);
  /// Finds the kinds with more than one instance (declareExchanges).
  void declareExchanges();
  SyncExchange *getExchange(const ptx::Instruction &I);
  /// Source operand K of the warp-synchronous instruction I, as the type it
  /// has in I: with an exchange, the lanes of ExchangeOthers take theirs
  /// from it.
  llvm::Expected<LaneValue> syncOperand(const ptx::Instruction &I, unsigned K);
  /// Writes result Slot of I (0: d, 1: p) for the running lanes, and with an
  /// exchange leaves it for ExchangeOthers.
  llvm::Error syncResult(const ptx::Instruction &I, const ptx::Operand &Dst,
                         unsigned Slot, llvm::Value *V);
  llvm::Error lowerBarrierOp(const ptx::Instruction &I);
  llvm::Value *runtimeArg();

  // --- CTAs in phases (Phases.cpp). ---
  /// Decides whether this kernel's barriers all allow it to run in phases
  /// (each a bar.sync of all threads in CTA-uniform control flow) and
  /// computes what the warp keeps across them. Before the blocks.
  void preparePhases();
  /// A barrier where a warp running in phases returns (one per copy of
  /// its block): the blocks that save and restore the warp's state.
  struct PhaseSite {
    uint32_t Id = 0;
    unsigned Block = 0;
    bool Converged = false;
    llvm::BasicBlock *Save = nullptr, *Resume = nullptr;
    /// A divergent copy: where the general barrier path starts. A
    /// converged site: where the code after the barrier starts.
    llvm::BasicBlock *Fiber = nullptr, *Done = nullptr;
    /// A converged site: the block of its own where it says where the warp
    /// returned (it reads no value of the blocks before it), its PTX line,
    /// and its barrier id when that is an immediate.
    llvm::BasicBlock *Site = nullptr;
    uint32_t Line = 0;
    llvm::ConstantInt *FixedId = nullptr;
    /// The stack slots its save stores, and where in the state.
    llvm::SmallVector<std::pair<llvm::AllocaInst *, uint64_t>, 8> Saved;
  };
  /// At the start of a barrier's prologue: the warp saves its state and
  /// returns (a divergent copy only in phases; otherwise the builder is left
  /// where the general path goes on; a converged site has none, and the
  /// builder is left after the barrier). Returns the site's index in
  /// PhaseSites, or -1 if the barrier is not one where warps return.
  llvm::Expected<int> lowerPhaseReturn(unsigned Index,
                                       const ptx::Instruction &I);
  /// After the blocks: the saves, the restores and the entry's dispatch
  /// to them.
  void emitPhaseSites();
  /// Copies a stack slot of type T to or from its place in the state.
  void copyPhaseSlot(llvm::Value *To, llvm::Align ToAlign, llvm::Value *From,
                     llvm::Align FromAlign, llvm::Type *T);
  /// After the saves: where the code after a converged site reaches the
  /// next one without touching memory, the warp runs it at once and passes
  /// that barrier's round ahead of time (PhaseProbes.cpp).
  void emitPhaseProbes();
  /// ptxjit_rt_bar_sync(runtime, Args...), called from one block shared by
  /// all barriers of the function; returns its result. The i32 values in
  /// Carried are replaced by their values after the call.
  llvm::Value *callBarrierSync(llvm::ArrayRef<llvm::Value *> Args,
                               llvm::ArrayRef<llvm::Value **> Carried);
  void setStatus(uint32_t Status, llvm::Value *Lanes, llvm::Value *Aux);
  bool usesBarriers() const { return ML.UsesBarriers; }
  llvm::Error branchDivergent(llvm::Value *TakenMask, unsigned Taken,
                              unsigned NotTaken);
  /// Whether a converged warp split at CurBlock's branch may run block Then
  /// with the lanes that go there and then go on converged at Join, the
  /// branch's other target (Predication.cpp).
  bool canPredicate(unsigned Then, unsigned Join);
  /// Then with the lanes of ThenMask, lowered as its divergent version is,
  /// then every lane of Mask on to Join.
  llvm::Error lowerPredicated(unsigned Then, llvm::Value *ThenMask,
                              unsigned Join, llvm::Value *Mask);
  /// Lanes in Leaving exit the warp (ret/exit).
  void exitLanes(llvm::Value *Leaving, bool IsReturn);
  /// The same where Leaving may be no lane at run time: then nothing is
  /// done (no runtime call, no dispatch).
  void exitSomeLanes(llvm::Value *Leaving, bool IsReturn);
  /// Device functions: .reg return registers of the lanes in Leaving go to
  /// the caller's storage.
  void storeRegisterReturns(llvm::Value *Leaving);
  void emitDispatcher();

  llvm::Function *Fn;
  PTXCFG CFG;
  UniformityInfo UI;
  /// Phases: set by preparePhases when the kernel may run in phases.
  bool Phased = false;
  std::optional<transforms::RegisterLiveness> Live;
  std::vector<PhaseSite> PhaseSites;
  /// The entry's switch on WarpContext::ResumeSite.
  llvm::SwitchInst *PhaseEntry = nullptr;
  /// The lane sets: running, waiting, blocked, parked and exited lanes.
  WarpLaneState Warp;
  llvm::Value *ParamsArg = nullptr, *CtxArg = nullptr;
  llvm::BasicBlock *StopBB = nullptr;
  /// The shared barrier call (callBarrierSync): the call's block, its result
  /// and which barrier called it.
  llvm::BasicBlock *BarrierCall = nullptr;
  llvm::AllocaInst *BarrierResultVar = nullptr;
  llvm::PHINode *BarrierSite = nullptr;
  llvm::SwitchInst *BarrierResume = nullptr;
  llvm::SmallVector<llvm::AllocaInst *, 4> BarrierCarried;
  llvm::StringMap<SyncExchange> Exchanges;
  /// While lowering a completion with lanes blocked elsewhere: the kind and
  /// those lanes (i32).
  SyncExchange *CurExchange = nullptr;
  /// Set by the prologue for the instruction after it: the kind, and the
  /// lanes elsewhere that take part (i32, possibly none at run time).
  SyncExchange *PendingExchange = nullptr;
  llvm::Value *PendingOthers = nullptr;
  llvm::Value *ExchangeOthers = nullptr;
  /// Set by the prologue of an exchange instruction: the end of the path of
  /// lanes that were let through, to join after the instruction.
  llvm::BasicBlock *ExchangePassedEnd = nullptr;
  unsigned CurBlock = 0;
  llvm::Value *LocalFrame = nullptr;    ///< [32 x FrameSize] bytes
  llvm::AllocaInst *CarryVar = nullptr; ///< <32 x i1> carry flags
  uint64_t FrameSize = 0;
  uint64_t StaticFrameSize = 0;
  llvm::AllocaInst *StackDepths = nullptr;
  llvm::Value *InstMask = nullptr;
  llvm::StringMap<unsigned> RegisterNameUses;
  /// laneOf's scratch: room for the widest vector register, shared by all
  /// its uses (each stores a vector and reads one lane right after).
  llvm::AllocaInst *LaneScratch = nullptr;
  llvm::AllocaInst *LaneStashSlots[NumLaneStashSlots] = {};
  /// Stores V's lanes in Slot (a lane-sized array, created on first use).
  LaneStash stashIn(llvm::AllocaInst *&Slot, llvm::Value *V);
  /// checkAccess's <32 x i64> of the addresses for the runtime.
  llvm::AllocaInst *AccessAddresses = nullptr;
  /// callSegmentCheck's segment addresses for the runtime.
  llvm::AllocaInst *AccessSegments = nullptr;
  /// In phases: whether the warp returned at a converged site with lanes
  /// arriving at a barrier id in range, and the id (false and 0 at the
  /// warp's start, so at every other return).
  llvm::AllocaInst *RoundAtBarrier = nullptr, *RoundBarrier = nullptr;
  const ptx::Instruction *CurInst = nullptr;
  llvm::StringMap<Register> Registers;
  /// Variables by block scope: `{ .param .b64 param0; ... }` call sequences
  /// reuse names with different sizes. Scope 0 holds the parameters.
  struct VariableScope {
    unsigned Parent = 0;
    llvm::StringMap<LocalVariable> Variables;
  };
  std::vector<VariableScope> Scopes;
  std::vector<unsigned> StatementScope; ///< scope of each body statement
  unsigned CurScope = 0;
  LocalVariable *findVariable(llvm::StringRef Name);
  /// Each PTX block is emitted twice: [1] runs while no other lanes wait
  /// (converged: register writes need no blend), [0] otherwise; [0] only
  /// for the blocks in SplitBlocks (null for the others).
  std::vector<llvm::BasicBlock *> BlockBBs[2];
  /// The blocks that may run while lanes wait elsewhere (findSplitBlocks).
  llvm::BitVector SplitBlocks;
  /// Registers some instruction reads (transforms::collectReadRegisters).
  llvm::StringSet<> ReadRegisters;
  bool Converged = false;
  llvm::BasicBlock *AllocaBB = nullptr;

  friend class InstructionLowering;
};

/// Instruction semantics, one function per family (Instructions*.cpp).
llvm::Error lowerConversion(FunctionLowering &FL, const ptx::Instruction &I);
/// cvt to or from .tf32 and the packed 4-, 6- and 8-bit formats
/// (NarrowFloats.cpp).
bool isNarrowFloatConversion(const ptx::Instruction &I);
llvm::Error lowerNarrowFloatConversion(FunctionLowering &FL,
                                       const ptx::Instruction &I);
llvm::Error lowerMemory(FunctionLowering &FL, const ptx::Instruction &I);

/// Makes kernel Fn run the chain of warps WarpContext::NextWarp links, one
/// after another (KernelLayout::RunsWarpChains); given the slots where a
/// kernel whose barriers return says what its return was (AtBarrier, i1,
/// and Barrier, i32), also the barrier rounds that need nothing of the
/// runtime. False, leaving Fn as it was, when a warp needs stack beyond its
/// entry block's allocas.
bool makeWarpChain(llvm::Function &Fn, llvm::StructType *CtxTy,
                   llvm::AllocaInst *AtBarrier = nullptr,
                   llvm::AllocaInst *Barrier = nullptr,
                   bool SkipsRounds = false);

/// An atomic on the CTA's shared memory (not half precision).
struct SharedAtomic {
  LaneValue Addr;
  llvm::Value *Val = nullptr;
  llvm::Value *Swap = nullptr; ///< atom.cas: the new value
  bool IsCas = false;
  llvm::AtomicRMWInst::BinOp Op = llvm::AtomicRMWInst::Add;
  llvm::Type *Elt = nullptr;
  /// Whether the lanes' old values are read (not for red).
  bool WantOld = true;
  /// atom.add.f32: subnormal inputs and results become signed zeros.
  bool FlushSubnormals = false;
};
/// Lowers it without locked instructions (SharedAtomics.cpp); returns the
/// old value of each active lane (a <32 x Elt>), or null if !WantOld.
llvm::Value *lowerSharedAtomic(FunctionLowering &FL, const SharedAtomic &A);

/// The reduction intrinsic and identity of an integer atomic operation of
/// Bits bits whose lanes combine before memory is touched (add, min, max,
/// and, or, xor; not inc/dec, exch or cas), or none.
std::optional<std::pair<llvm::Intrinsic::ID, llvm::APInt>>
getCombinableAtomicOp(llvm::AtomicRMWInst::BinOp Op, unsigned Bits);
/// An atomic Op (getCombinableAtomicOp has it) at one address for the whole
/// warp: ReadModifyWrite(Total) applies the active lanes' combined operand
/// once and returns the memory's old value. Each lane's old value is that
/// combined with the lanes below it, as if the lanes had taken turns in
/// lane order. Returns the <32 x Elt> old values, or null if !WantOld.
llvm::Value *lowerWarpAggregatedAtomic(
    FunctionLowering &FL, llvm::AtomicRMWInst::BinOp Op, llvm::Value *Val,
    llvm::Type *Elt, bool WantOld,
    llvm::function_ref<llvm::Value *(llvm::Value *Total)> ReadModifyWrite);

} // namespace irgen
} // namespace ptxjit

#endif
