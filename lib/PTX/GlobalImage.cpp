//===- GlobalImage.cpp - The initial contents of module variables ---------===//

#include "ptxjit/PTX/GlobalImage.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/ModuleInfo.h"
#include "ptxjit/PTX/TextureRefs.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::ptx;

void ptx::flattenInitializer(const Initializer &In,
                             SmallVectorImpl<const Initializer *> &Out) {
  if (In.Kind != Initializer::List) {
    Out.push_back(&In);
    return;
  }
  for (const Initializer &E : In.Elements)
    flattenInitializer(E, Out);
}

static bool namesFunction(const Module &M, const Initializer &In) {
  if (In.Kind == Initializer::List)
    return any_of(In.Elements,
                  [&](const Initializer &E) { return namesFunction(M, E); });
  return (In.Kind == Initializer::Symbol || In.Kind == Initializer::Generic) &&
         M.findFunction(In.Name);
}

bool ptx::isModuleVariable(const Module &M, const VariableDecl &V) {
  if (V.Space != StateSpace::Global && V.Space != StateSpace::Const)
    return false;
  if (V.Link == Linkage::Extern)
    return false;
  return !V.HasInitializer || !namesFunction(M, V.Init);
}

/// Element I of an initializer, as the bits of the variable's element type:
/// integers as written (truncated), floats converted to the element's
/// format with round-to-nearest-even, as ptxas does.
static uint64_t elementBits(const Initializer &In, ScalarType Ty,
                            unsigned Bits) {
  bool IsFloat = ptx::isFloat(Ty) && (Bits == 32 || Bits == 64);
  const fltSemantics &Sem =
      Bits == 64 ? APFloat::IEEEdouble() : APFloat::IEEEsingle();
  if (In.Kind == Initializer::Int) {
    if (!IsFloat)
      return uint64_t(In.Value);
    APFloat F(Sem);
    F.convertFromAPInt(APInt(64, uint64_t(In.Value)), /*IsSigned=*/true,
                       APFloat::rmNearestTiesToEven);
    return F.bitcastToAPInt().getZExtValue();
  }
  APFloat F =
      In.Kind == Initializer::Float
          ? APFloat(APFloat::IEEEsingle(), APInt(32, uint32_t(In.Value)))
          : APFloat(APFloat::IEEEdouble(), APInt(64, uint64_t(In.Value)));
  if (!IsFloat)
    return F.bitcastToAPInt().getZExtValue(); // the bits, as written
  bool Lost;
  F.convert(Sem, APFloat::rmNearestTiesToEven, &Lost);
  return F.bitcastToAPInt().getZExtValue();
}

GlobalImage ptx::buildGlobalImage(const Module &M, const VariableDecl &V) {
  GlobalImage Image;
  Image.Var = &V;
  Image.Align = std::max<uint64_t>(getAlignment(V), 16);
  if (V.Opaque != OpaqueKind::None) {
    // A .texref or .surfref starts unbound (handle 0); a .samplerref holds
    // its initializer's sampler word.
    Image.Size = 8;
    Image.Bytes.assign(8, 0);
    if (V.Opaque == OpaqueKind::SamplerRef) {
      uint32_t W = getSamplerWord(V).encode();
      for (unsigned B = 0; B != 4; ++B)
        Image.Bytes[B] = uint8_t(W >> (8 * B));
    }
    return Image;
  }
  SmallVector<const Initializer *, 16> Flat;
  if (V.HasInitializer)
    flattenInitializer(V.Init, Flat);
  unsigned Bits = std::max(8u, getBitWidth(V.Type));
  uint64_t EltSize = Bits / 8;
  // An unsized array takes its size from its initializer.
  uint64_t Count = V.getSizeInBytes() / EltSize;
  if (Count == 0)
    Count = std::max<uint64_t>(Flat.size(), 1);
  Image.Size = Count * EltSize;
  Image.Bytes.assign(Image.Size, 0);
  for (uint64_t I = 0, E = std::min<uint64_t>(Count, Flat.size()); I != E;
       ++I) {
    const Initializer &In = *Flat[I];
    uint8_t *Dst = Image.Bytes.data() + I * EltSize;
    if (In.Kind == Initializer::Symbol || In.Kind == Initializer::Generic) {
      // Only a 64-bit element holds an address.
      if (Bits == 64)
        Image.Relocations.push_back({I * EltSize, In.Name, In.Value,
                                     M.findFunction(In.Name) != nullptr});
      continue;
    }
    uint64_t Value = elementBits(In, V.Type, Bits);
    for (uint64_t B = 0; B != EltSize; ++B)
      Dst[B] = uint8_t(Value >> (8 * B));
  }
  return Image;
}
