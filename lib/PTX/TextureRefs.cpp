//===- TextureRefs.cpp - .texref, .samplerref and .surfref ----------------===//
//
// The declarations' rules and the sampler word of their initializers. The
// fields are the PTX ISA's sampler properties: filter_mode (nearest,
// linear), addr_mode_0..2 (wrap, mirror, clamp_to_edge, clamp_to_border;
// clamp_ogl is refused), normalized_coords for a .texref and
// force_unnormalized_coords for a .samplerref (0 or 1).
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/TextureRefs.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::ptx;

StringRef ptx::getOpaqueSpelling(OpaqueKind K) {
  switch (K) {
  case OpaqueKind::TexRef:
    return ".texref";
  case OpaqueKind::SamplerRef:
    return ".samplerref";
  case OpaqueKind::SurfRef:
    return ".surfref";
  case OpaqueKind::None:
    break;
  }
  return "";
}

abi::SamplerWord ptx::getSamplerWord(const VariableDecl &D,
                                     DiagnosticEngine *Diags) {
  abi::SamplerWord W;
  bool IsTexRef = D.Opaque == OpaqueKind::TexRef;
  StringRef Kind = getOpaqueSpelling(D.Opaque);
  auto BadValue = [&](const SamplerField &F, StringRef Want) {
    if (Diags)
      Diags->report(F.Loc, DiagID::err_opaque_value, F.Value, F.Name, Want);
  };
  auto Bool = [&](const SamplerField &F, bool &Out) {
    if (F.Value != "0" && F.Value != "1") {
      BadValue(F, "0 or 1");
      return false;
    }
    Out = F.Value == "1";
    return true;
  };
  for (const SamplerField &F : D.SamplerFields) {
    if (F.Name == "filter_mode") {
      if (F.Value != "nearest" && F.Value != "linear") {
        BadValue(F, "nearest or linear");
        continue;
      }
      W.HasFilter = true;
      W.Linear = F.Value == "linear";
    } else if (F.Name.size() == 11 && F.Name.starts_with("addr_mode_") &&
               F.Name[10] >= '0' && F.Name[10] <= '2') {
      unsigned Axis = F.Name[10] - '0';
      if (F.Value == "clamp_ogl") {
        if (Diags)
          Diags->report(F.Loc, DiagID::err_opaque_clamp_ogl);
        continue;
      }
      auto Mode = StringSwitch<int>(F.Value)
                      .Case("wrap", abi::SamplerWord::Wrap)
                      .Case("mirror", abi::SamplerWord::Mirror)
                      .Case("clamp_to_edge", abi::SamplerWord::Clamp)
                      .Case("clamp_to_border", abi::SamplerWord::Border)
                      .Default(-1);
      if (Mode < 0) {
        BadValue(F, "wrap, mirror, clamp_to_edge or clamp_to_border");
        continue;
      }
      W.HasAddress[Axis] = true;
      W.Address[Axis] = abi::SamplerWord::AddressMode(Mode);
    } else if (IsTexRef && F.Name == "normalized_coords") {
      if (Bool(F, W.Normalized))
        W.HasNormalized = true;
    } else if (!IsTexRef && F.Name == "force_unnormalized_coords") {
      // 1 reads the coordinates unnormalized whatever the texture says.
      bool Force;
      if (Bool(F, Force) && Force)
        W.HasNormalized = true, W.Normalized = false;
    } else if (Diags) {
      Diags->report(F.Loc, DiagID::err_opaque_field, F.Name, Kind,
                    IsTexRef ? "filter_mode, addr_mode_0, addr_mode_1, "
                               "addr_mode_2 or normalized_coords"
                             : "filter_mode, addr_mode_0, addr_mode_1, "
                               "addr_mode_2 or force_unnormalized_coords");
    }
  }
  return W;
}

void ptx::checkOpaqueDeclaration(const VariableDecl &D, bool AtModuleScope,
                                 bool IsKernelParam, DiagnosticEngine &Diags) {
  if (D.Opaque == OpaqueKind::None)
    return;
  StringRef Kind = getOpaqueSpelling(D.Opaque);
  bool Placed = (AtModuleScope && D.Space == StateSpace::Global) ||
                (IsKernelParam && D.Space == StateSpace::Param);
  if (!Placed) {
    Diags.report(D.Loc, DiagID::err_opaque_placement, Kind);
    return;
  }
  if (!D.Dims.empty() || D.VectorWidth != 1)
    Diags.report(D.Loc, DiagID::err_opaque_array, Kind);
  if (!D.HasInitializer)
    return;
  if (D.Opaque == OpaqueKind::SurfRef || IsKernelParam) {
    Diags.report(D.Loc, DiagID::err_opaque_field,
                 D.SamplerFields.empty() ? StringRef("{}")
                                         : D.SamplerFields[0].Name,
                 Kind, "no initializer");
    return;
  }
  getSamplerWord(D, &Diags);
}
