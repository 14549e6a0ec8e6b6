//===- Textures.cpp - tex, tld4, txq, suld, sust and suq ------------------===//
//
// Texture and surface instructions on object handles become one runtime
// call per warp (TextureABI.h): the handles and coordinates of all lanes go
// to the runtime in arrays, with the mask of the lanes that run, and the
// four components come back the same way. The runtime touches only the
// lanes of the mask, so inactive lanes never sample or fault. Lanes the
// runtime reports as trapping stop the launch as trap does.
//
// tex.level and tex.grad pass their level of detail or gradients after the
// coordinates; the runtime chooses and blends the mipmap levels. txq.level
// passes its level in the result array. sured reduces and sust.p converts
// through the surface entry points (SurfaceOp says which).
//
//===----------------------------------------------------------------------===//

#include "InstructionVisitor.h"
#include "Lowering.h"
#include "ptxjit/ABI/TextureABI.h"
#include "ptxjit/ABI/WarpABI.h"
#include "ptxjit/PTX/TextureRefs.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Operand;
using ptx::ScalarType;

namespace {

/// The lowering of one texture or surface instruction.
class ImageLowering {
public:
  ImageLowering(FunctionLowering &FL, const ptx::Instruction &I,
                function_ref<void(Value *)> Trap)
      : FL(FL), B(FL.B), I(I), Trap(Trap) {}

  Expected<abi::ImageGeometry> getGeometry() const;
  /// Each lane's handle (the address's base register) in a <32 x i64>.
  Expected<Value *> storeHandles(const Operand &Address);
  /// The sampler word (i32) of a fetch from Address: its .samplerref's
  /// ([tex, smp, {...}]), else its .texref's initializer's, else zero.
  Expected<Value *> samplerWord(const Operand &Address);
  /// The coordinates as 32-bit patterns in a [Components x <32 x i32>].
  Expected<Value *> storeCoordinates(const Operand &Coords, ScalarType CoordTy,
                                     unsigned Components = 4);
  /// Stores the elements of Op (a vector, or one scalar) as F32 bit patterns
  /// in components First... of Array.
  Error storeFloats(const Operand &Op, Value *Array, unsigned First,
                    unsigned Max);
  /// Component K of a [N x <32 x T>] temporary.
  Value *component(Value *Array, unsigned K) {
    return B.CreateConstInBoundsGEP2_32(
        cast<AllocaInst>(Array)->getAllocatedType(), Array, 0, K);
  }
  /// The lanes in Traps (i32) stop the launch as trap does.
  void trapLanes(Value *Traps) { Trap(Traps); }
  Error unsupported(const Twine &What) {
    return FL.error(I, What + " is not supported");
  }

  FunctionLowering &FL;
  IRBuilder<> &B;
  const ptx::Instruction &I;
  function_ref<void(Value *)> Trap;
};

} // namespace

Expected<abi::ImageGeometry> ImageLowering::getGeometry() const {
  using abi::ImageGeometry;
  if (I.hasModifier(Modifier::Geom1D))
    return ImageGeometry::D1;
  if (I.hasModifier(Modifier::Geom2D))
    return ImageGeometry::D2;
  if (I.hasModifier(Modifier::Geom3D))
    return ImageGeometry::D3;
  if (I.hasModifier(Modifier::GeomA1D))
    return ImageGeometry::A1D;
  if (I.hasModifier(Modifier::GeomA2D))
    return ImageGeometry::A2D;
  if (I.hasModifier(Modifier::GeomCube))
    return ImageGeometry::Cube;
  if (I.hasModifier(Modifier::GeomACube))
    return ImageGeometry::ACube;
  return FL.error(I, "the instruction needs a geometry");
}

/// The 64-bit value a .texref, .surfref or .samplerref variable (module
/// scope or kernel parameter) holds: the same for every lane.
static Expected<Value *> loadOpaque(FunctionLowering &FL, StringRef Name,
                                    SMLoc Loc) {
  Expected<LaneValue> A = FL.getAddress(
      Operand::named(Operand::Address, Name, Loc), ptx::StateSpace::Global);
  if (!A)
    return A.takeError();
  return FL.loadLanes(*A, FL.B.getInt64Ty(), FL.getInstMask(),
                      /*AlwaysSafe=*/true);
}

Expected<Value *> ImageLowering::storeHandles(const Operand &Address) {
  if (Address.Kind != Operand::Address || Address.Name.empty() ||
      Address.Value != 0)
    return FL.error(I, "the texture or surface is a .u64 register holding an "
                       "object handle, or a .texref or .surfref variable");
  Value *Handles;
  if (Address.BaseIsRegister) {
    Expected<LaneValue> H =
        FL.read(Operand::named(Operand::Register, Address.Name, Address.Loc),
                ScalarType::U64);
    if (!H)
      return H.takeError();
    Handles = FL.widen(H->V);
  } else {
    // A .texref or .surfref holds the handle of the object bound to it.
    Expected<Value *> H = loadOpaque(FL, Address.Name, Address.Loc);
    if (!H)
      return H.takeError();
    Handles = FL.widen(*H);
  }
  AllocaInst *Slot = FL.createTemporary(Handles->getType());
  B.CreateStore(Handles, Slot);
  return Slot;
}

Expected<Value *> ImageLowering::samplerWord(const Operand &Address) {
  if (StringRef Sampler = Address.getSampler(); !Sampler.empty()) {
    Expected<Value *> W = loadOpaque(FL, Sampler, Address.Loc);
    if (!W)
      return W.takeError();
    return B.CreateTrunc(*W, FL.getLaneType(ScalarType::B32));
  }
  uint32_t Word = 0;
  if (!Address.BaseIsRegister)
    if (const ptx::VariableDecl *V = FL.ML.PM.findGlobal(Address.Name))
      Word = ptx::getSamplerWord(*V).encode();
  return B.getInt32(Word);
}

Expected<Value *> ImageLowering::storeCoordinates(const Operand &Coords,
                                                  ScalarType CoordTy,
                                                  unsigned Components) {
  Type *I32s = FL.getVectorType(B.getInt32Ty());
  AllocaInst *Slot = FL.createTemporary(ArrayType::get(I32s, Components));
  bool Layered = I.hasModifier(Modifier::GeomA1D) ||
                 I.hasModifier(Modifier::GeomA2D) ||
                 I.hasModifier(Modifier::GeomACube);
  for (unsigned K = 0, E = std::min<size_t>(Coords.Elements.size(), 4); K != E;
       ++K) {
    const Operand &C = Coords.Elements[K];
    if (C.Kind == Operand::Sink)
      continue;
    // An array index is an integer whatever the coordinates are.
    ScalarType T = Layered && K == 0 ? ScalarType::B32 : CoordTy;
    Expected<LaneValue> V = FL.read(C, T);
    if (!V)
      return V.takeError();
    B.CreateStore(B.CreateBitCast(FL.widen(V->V), I32s), component(Slot, K));
  }
  return Slot;
}

Error ImageLowering::storeFloats(const Operand &Op, Value *Array,
                                 unsigned First, unsigned Max) {
  Type *I32s = FL.getVectorType(B.getInt32Ty());
  bool IsVector = Op.Kind == Operand::Vector;
  unsigned N = IsVector ? std::min<size_t>(Op.Elements.size(), Max) : 1;
  for (unsigned K = 0; K != N; ++K) {
    const Operand &E = IsVector ? Op.Elements[K] : Op;
    if (E.Kind == Operand::Sink)
      continue;
    Expected<LaneValue> V = FL.read(E, ScalarType::F32);
    if (!V)
      return V.takeError();
    B.CreateStore(B.CreateBitCast(FL.widen(V->V), I32s),
                  component(Array, First + K));
  }
  return Error::success();
}

void InstructionLowering::trapLanes(Value *Traps) {
  IRBuilder<> &B = FL.B;
  BasicBlock *Trap = BasicBlock::Create(FL.ML.Ctx, "image.trap", FL.Fn);
  BasicBlock *Cont = BasicBlock::Create(FL.ML.Ctx, "image.cont", FL.Fn);
  B.CreateCondBr(B.CreateICmpNE(Traps, B.getInt32(0)), Trap, Cont);
  B.SetInsertPoint(Trap);
  FL.setStatus(WS_Trap, Traps, nullptr);
  B.CreateBr(FL.StopBB);
  B.SetInsertPoint(Cont);
}

static Expected<abi::ImageQuery> getQuery(const ptx::Instruction &I) {
  using abi::ImageQuery;
  static const std::pair<Modifier, ImageQuery> Queries[] = {
      {Modifier::Width, ImageQuery::Width},
      {Modifier::Height, ImageQuery::Height},
      {Modifier::Depth, ImageQuery::Depth},
      {Modifier::ChannelDataType, ImageQuery::ChannelDataType},
      {Modifier::ChannelOrder, ImageQuery::ChannelOrder},
      {Modifier::NormalizedCoords, ImageQuery::NormalizedCoords},
      {Modifier::ForceUnnormalizedCoords, ImageQuery::ForceUnnormalizedCoords},
      {Modifier::FilterMode, ImageQuery::FilterMode},
      {Modifier::AddrMode0, ImageQuery::AddrMode0},
      {Modifier::AddrMode1, ImageQuery::AddrMode1},
      {Modifier::AddrMode2, ImageQuery::AddrMode2},
      {Modifier::ArraySize, ImageQuery::ArraySize},
      {Modifier::NumMipmapLevels, ImageQuery::NumMipmapLevels},
      {Modifier::NumSamples, ImageQuery::NumSamples},
      {Modifier::MemoryLayout, ImageQuery::MemoryLayout},
  };
  for (auto [M, Q] : Queries)
    if (I.hasModifier(M))
      return Q;
  return createStringError("no attribute to query");
}

/// txq of a .samplerref: the attribute from the sampler word it holds
/// (abi::SamplerWord), the same in every lane. A field the initializer
/// leaves out reads as CUDA's default: nearest, clamp, not forced.
static Error lowerSamplerQuery(ImageLowering &L, abi::ImageQuery Q) {
  FunctionLowering &FL = L.FL;
  IRBuilder<> &B = L.B;
  const ptx::Instruction &I = L.I;
  Expected<Value *> W64 = loadOpaque(FL, I.Operands[1].Name, I.Operands[1].Loc);
  if (!W64)
    return W64.takeError();
  Value *W = B.CreateTrunc(*W64, B.getInt32Ty());
  auto Bit = [&](unsigned N) {
    return B.CreateICmpNE(B.CreateAnd(W, B.getInt32(1u << N)), B.getInt32(0));
  };
  auto C = [&](uint32_t V) { return B.getInt32(V); };
  Value *Result;
  using abi::SamplerWord;
  switch (Q) {
  case abi::ImageQuery::FilterMode:
    Result =
        B.CreateSelect(B.CreateAnd(Bit(0), Bit(1)), C(abi::CL_FILTER_LINEAR),
                       C(abi::CL_FILTER_NEAREST));
    break;
  case abi::ImageQuery::ForceUnnormalizedCoords:
    Result = B.CreateZExt(B.CreateAnd(Bit(11), B.CreateNot(Bit(12))),
                          B.getInt32Ty());
    break;
  default: {
    unsigned Axis = unsigned(Q) - unsigned(abi::ImageQuery::AddrMode0);
    Value *Mode = B.CreateAnd(B.CreateLShr(W, 5 + 2 * Axis), 3);
    Constant *Values =
        ConstantVector::get({C(abi::getAddressModeValue(SamplerWord::Wrap)),
                             C(abi::getAddressModeValue(SamplerWord::Clamp)),
                             C(abi::getAddressModeValue(SamplerWord::Mirror)),
                             C(abi::getAddressModeValue(SamplerWord::Border))});
    Result = B.CreateSelect(Bit(2 + Axis), B.CreateExtractElement(Values, Mode),
                            C(abi::getAddressModeValue(SamplerWord::Clamp)));
    break;
  }
  }
  return FL.write(I.Operands[0], FL.widen(Result), ScalarType::B32);
}

static Error lowerQuery(ImageLowering &L) {
  FunctionLowering &FL = L.FL;
  IRBuilder<> &B = L.B;
  const ptx::Instruction &I = L.I;
  Expected<abi::ImageQuery> Q = getQuery(I);
  if (!Q)
    return FL.error(I, toString(Q.takeError()));
  const Operand &Target = I.Operands[1];
  if (I.Op == ptx::Opcode::Txq && Target.Kind == Operand::Address &&
      !Target.BaseIsRegister) {
    // A kernel's .param .samplerref, or one at module scope.
    const ptx::VariableDecl *V = nullptr;
    for (const ptx::VariableDecl &P : FL.F.Params)
      if (P.Name == Target.Name)
        V = &P;
    if (!V)
      V = FL.ML.PM.findGlobal(Target.Name);
    if (V && V->Opaque == ptx::OpaqueKind::SamplerRef)
      return lowerSamplerQuery(L, *Q);
  }
  Expected<Value *> Handles = L.storeHandles(I.Operands[1]);
  if (!Handles)
    return Handles.takeError();
  AllocaInst *Result = FL.createTemporary(FL.getVectorType(B.getInt32Ty()));
  uint32_t Query = uint32_t(*Q);
  if (I.hasModifier(Modifier::Level)) {
    // txq.level: the level goes in through the result array.
    if (*Q != abi::ImageQuery::Width && *Q != abi::ImageQuery::Height &&
        *Q != abi::ImageQuery::Depth)
      return FL.error(I, "txq.level queries .width, .height or .depth");
    if (I.Operands.size() != 3)
      return FL.error(I, "txq.level needs the level as its third operand");
    Expected<LaneValue> Level = FL.read(I.Operands[2], ScalarType::B32);
    if (!Level)
      return Level.takeError();
    B.CreateStore(FL.widen(Level->V), Result);
    Query |= abi::ImageQueryAtLevel;
  } else if (I.Operands.size() != 2) {
    return FL.error(I, "only txq.level takes a level");
  }
  Value *Traps =
      B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::ImageQuery),
                   {B.getInt32(Query), B.getInt32(I.Op == ptx::Opcode::Suq),
                    FL.getInstMask(), *Handles, Result});
  L.trapLanes(Traps);
  return FL.write(I.Operands[0],
                  B.CreateLoad(Result->getAllocatedType(), Result),
                  ScalarType::B32);
}

/// istypep: the lanes whose handle names a live object of the type; no
/// lane traps. Texture objects carry their sampler, so no handle is a
/// sampler of its own.
static Error lowerTypeTest(ImageLowering &L) {
  FunctionLowering &FL = L.FL;
  IRBuilder<> &B = L.B;
  const ptx::Instruction &I = L.I;
  if (I.hasModifier(Modifier::SamplerRef))
    return FL.write(I.Operands[0], FL.maskToVector(B.getInt32(0)),
                    ScalarType::Pred);
  Expected<LaneValue> H = FL.read(I.Operands[1], ScalarType::U64);
  if (!H)
    return H.takeError();
  AllocaInst *Handles = FL.createTemporary(FL.getVectorType(B.getInt64Ty()));
  B.CreateStore(FL.widen(H->V), Handles);
  AllocaInst *Result = FL.createTemporary(FL.getVectorType(B.getInt32Ty()));
  B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::ImageQuery),
               {B.getInt32(uint32_t(abi::ImageQuery::IsObject)),
                B.getInt32(I.hasModifier(Modifier::SurfRef)), FL.getInstMask(),
                Handles, Result});
  Value *Bits = B.CreateLoad(Result->getAllocatedType(), Result);
  return FL.write(I.Operands[0],
                  B.CreateICmpNE(Bits, Constant::getNullValue(Bits->getType())),
                  ScalarType::Pred);
}

Error InstructionLowering::visitTexture(const ptx::Instruction &I) {
  auto Trap = [this](Value *Traps) { trapLanes(Traps); };
  ImageLowering L(FL, I, Trap);
  IRBuilder<> &B = FL.B;
  if (I.Op == ptx::Opcode::Txq || I.Op == ptx::Opcode::Suq)
    return lowerQuery(L);
  if (I.Op == ptx::Opcode::Istypep)
    return lowerTypeTest(L);

  Expected<abi::ImageGeometry> Geometry = L.getGeometry();
  if (!Geometry)
    return Geometry.takeError();
  if (I.hasModifier(Modifier::Base) && I.Operands.size() != 3)
    return L.unsupported("tex.base with a level of detail");
  abi::TexOp Op;
  Op.Geometry = *Geometry;
  Op.FloatCoords = I.getType(1) == ScalarType::F32;
  ScalarType ResultTy = I.getType(0);
  Op.Result = ResultTy == ScalarType::F32   ? abi::TexResultKind::F32
              : ResultTy == ScalarType::S32 ? abi::TexResultKind::S32
                                            : abi::TexResultKind::U32;
  Op.Gather = 0;
  Op.Lod = I.hasModifier(Modifier::Level)  ? abi::TexLod::Level
           : I.hasModifier(Modifier::Grad) ? abi::TexLod::Grad
                                           : abi::TexLod::Base;
  unsigned LodOperands = Op.Lod == abi::TexLod::Level  ? 1
                         : Op.Lod == abi::TexLod::Grad ? 2
                                                       : 0;
  // After the level of detail or gradients: the texel offsets e (a vector)
  // and the depth compare value f (a scalar), each optional.
  unsigned Extra = 3 + LodOperands;
  const Operand *Offsets = nullptr;
  if (I.Operands.size() > Extra && I.Operands[Extra].Kind == Operand::Vector)
    Offsets = &I.Operands[Extra++];
  if (I.Operands.size() > Extra)
    return FL.error(
        I, "a depth compare operand (after the coordinates, level of detail, "
           "gradients or offsets) is not supported: the PTX ISA does not say "
           "which comparison passes, and CUDA's texture objects have no "
           "comparison function to take it from");
  Op.Offsets = Offsets != nullptr;
  if (Offsets && (Op.Geometry == abi::ImageGeometry::Cube ||
                  Op.Geometry == abi::ImageGeometry::ACube))
    return FL.error(I, "cubemaps take no texel offsets");
  if (Op.Lod != abi::TexLod::Base && !Op.FloatCoords)
    return FL.error(I, "tex.level and tex.grad take .f32 coordinates");
  if (I.Op == ptx::Opcode::Tld4) {
    const Modifier Components[] = {Modifier::R, Modifier::G, Modifier::B,
                                   Modifier::A};
    for (unsigned K = 0; K != 4; ++K)
      if (I.hasModifier(Components[K]))
        Op.Gather = K + 1;
  }

  const Operand &Dst = I.Operands[0];
  if (Dst.Kind != Operand::Vector || Dst.Elements.size() != 4)
    return FL.error(I, "the destination must be a vector {a, b, c, d}");
  Expected<Value *> Handles = L.storeHandles(I.Operands[1]);
  if (!Handles)
    return Handles.takeError();
  Expected<Value *> Coords =
      L.storeCoordinates(I.Operands[2], I.getType(1), abi::TexArgComponents);
  if (!Coords)
    return Coords.takeError();
  if (Op.Lod == abi::TexLod::Grad) {
    // One gradient component per dimension; 3d and cubes write four.
    unsigned Want = Op.Geometry == abi::ImageGeometry::D1 ||
                            Op.Geometry == abi::ImageGeometry::A1D
                        ? 1
                    : Op.Geometry == abi::ImageGeometry::D2 ||
                            Op.Geometry == abi::ImageGeometry::A2D
                        ? 2
                        : 4;
    for (unsigned K = 0; K != 2; ++K) {
      const Operand &G = I.Operands[3 + K];
      unsigned N = G.Kind == Operand::Vector ? G.Elements.size() : 1;
      if (N != Want)
        return FL.error(I, "tex.grad's gradients have " + Twine(Want) +
                               (Want == 1 ? " component" : " components") +
                               " for this geometry");
    }
  }
  for (unsigned K = 0; K != LodOperands; ++K)
    if (Error E = L.storeFloats(I.Operands[3 + K], *Coords,
                                abi::TexLodArgs + 4 * K, 3))
      return E;
  if (Offsets) {
    unsigned Want = Op.Geometry == abi::ImageGeometry::D1 ||
                            Op.Geometry == abi::ImageGeometry::A1D
                        ? 1
                    : Op.Geometry == abi::ImageGeometry::D3 ? 4
                                                            : 2;
    if (Offsets->Elements.size() != Want)
      return FL.error(I, "the texel offsets have " + Twine(Want) +
                             (Want == 1 ? " component" : " components") +
                             " for this geometry");
    for (unsigned K = 0; K != std::min(Want, 3u); ++K) {
      Expected<LaneValue> V = FL.read(Offsets->Elements[K], ScalarType::S32);
      if (!V)
        return V.takeError();
      B.CreateStore(FL.widen(V->V),
                    L.component(*Coords, abi::TexOffsetArgs + K));
    }
  }
  Expected<Value *> Word = L.samplerWord(I.Operands[1]);
  if (!Word)
    return Word.takeError();
  B.CreateStore(FL.widen(*Word), L.component(*Coords, abi::TexSamplerArg));
  Type *I32s = FL.getVectorType(B.getInt32Ty());
  AllocaInst *Result = FL.createTemporary(ArrayType::get(I32s, 4));
  Value *Traps = B.CreateCall(
      FL.ML.getRuntimeFunction(RuntimeEntry::TexFetch),
      {B.getInt32(Op.encode()), FL.getInstMask(), *Handles, *Coords, Result});
  L.trapLanes(Traps);
  Type *LaneTy = FL.getVectorType(FL.getLaneType(ResultTy));
  for (unsigned K = 0; K != 4; ++K) {
    Value *V = B.CreateLoad(I32s, L.component(Result, K));
    if (Error E = FL.write(Dst.Elements[K], B.CreateBitCast(V, LaneTy),
                           ResultTy, ptx::isSigned(ResultTy)))
      return E;
  }
  return Error::success();
}

Error InstructionLowering::visitSurface(const ptx::Instruction &I) {
  auto Trap = [this](Value *Traps) { trapLanes(Traps); };
  ImageLowering L(FL, I, Trap);
  IRBuilder<> &B = FL.B;
  Expected<abi::ImageGeometry> Geometry = L.getGeometry();
  if (!Geometry)
    return Geometry.takeError();
  bool IsStore = I.Op == ptx::Opcode::Sust || I.Op == ptx::Opcode::Sured;
  ScalarType T = I.getType(0);
  abi::SurfaceOp Op;
  Op.Geometry = *Geometry;
  Op.Formatted = I.hasModifier(Modifier::P);
  Op.Data = T == ScalarType::F32   ? abi::SurfaceData::F32
            : ptx::isSigned(T)     ? abi::SurfaceData::S32
            : T == ScalarType::U32 ? abi::SurfaceData::U32
                                   : abi::SurfaceData::B;
  if (I.Op == ptx::Opcode::Sured) {
    static const std::pair<Modifier, abi::SurfaceReduction> Ops[] = {
        {Modifier::Add, abi::SurfaceReduction::Add},
        {Modifier::Min, abi::SurfaceReduction::Min},
        {Modifier::Max, abi::SurfaceReduction::Max},
        {Modifier::And, abi::SurfaceReduction::And},
        {Modifier::Or, abi::SurfaceReduction::Or}};
    for (auto [M, R] : Ops)
      if (I.hasModifier(M))
        Op.Reduction = R;
  } else if (Op.Formatted && ptx::getBitWidth(T) != 32) {
    return FL.error(I, "sust.p stores .b32, .u32, .s32 or .f32 data");
  }
  Op.Clamp = I.hasModifier(Modifier::Clamp)  ? abi::SurfaceClamp::Clamp
             : I.hasModifier(Modifier::Zero) ? abi::SurfaceClamp::Zero
                                             : abi::SurfaceClamp::Trap;
  Op.ElementBytes = ptx::getBitWidth(T) / 8;
  Op.VectorWidth = I.VectorWidth;

  const Operand &Address = I.Operands[IsStore ? 0 : 1];
  const Operand &Coordinates = I.Operands[IsStore ? 1 : 2];
  const Operand &Data = I.Operands[IsStore ? 2 : 0];
  unsigned N = Data.Kind == Operand::Vector ? Data.Elements.size() : 1;
  if (N != Op.VectorWidth && I.Op != ptx::Opcode::Sured)
    return FL.error(I, "the data must have as many elements as the vector");
  auto Element = [&](unsigned K) -> const Operand & {
    return Data.Kind == Operand::Vector ? Data.Elements[K] : Data;
  };

  Expected<Value *> Handles = L.storeHandles(Address);
  if (!Handles)
    return Handles.takeError();
  Expected<Value *> Coords = L.storeCoordinates(Coordinates, ScalarType::B32);
  if (!Coords)
    return Coords.takeError();
  Type *I64s = FL.getVectorType(B.getInt64Ty());
  AllocaInst *Values = FL.createTemporary(ArrayType::get(I64s, 4));
  Type *EltTy = B.getIntNTy(ptx::getBitWidth(T));
  if (IsStore) {
    for (unsigned K = 0; K != N; ++K) {
      if (Element(K).Kind == Operand::Sink)
        continue;
      Expected<LaneValue> V = FL.read(Element(K), T);
      if (!V)
        return V.takeError();
      Value *Bits = B.CreateBitCast(FL.widen(V->V), FL.getVectorType(EltTy));
      B.CreateStore(B.CreateZExt(Bits, I64s), L.component(Values, K));
    }
  }
  Value *Traps = B.CreateCall(
      FL.ML.getRuntimeFunction(IsStore ? RuntimeEntry::SurfaceStore
                                       : RuntimeEntry::SurfaceLoad),
      {B.getInt32(Op.encode()), FL.getInstMask(), *Handles, *Coords, Values});
  L.trapLanes(Traps);
  if (IsStore)
    return Error::success();
  for (unsigned K = 0; K != N; ++K) {
    Value *V = B.CreateLoad(I64s, L.component(Values, K));
    V = B.CreateTrunc(V, FL.getVectorType(EltTy));
    if (Error E = FL.write(Element(K), V, T))
      return E;
  }
  return Error::success();
}
