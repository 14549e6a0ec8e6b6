//===- TextureRefs.h - .texref, .samplerref and .surfref --------*- C++ -*-===//
//
// Texture, sampler and surface references are variables of opaque types.
// A .texref or .surfref holds the 64-bit handle of the texture or surface
// object bound to it (0 until something binds it), exactly what a texture
// object's .u64 register holds, so the instructions that name one read the
// handle and proceed as with a register. A .samplerref holds a sampler word
// (TextureABI.h), which replaces the texture's own sampler settings for the
// fetches that name it (independent texturing mode). The initializer
// `= { filter_mode = linear, ... }` of a .samplerref or .texref gives the
// fields of that word; for a .texref they override the bound object's.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_TEXTUREREFS_H
#define PTXJIT_PTX_TEXTUREREFS_H

#include "ptxjit/ABI/TextureABI.h"
#include "llvm/ADT/StringRef.h"

namespace ptxjit {
namespace ptx {

class DiagnosticEngine;
struct VariableDecl;
enum class OpaqueKind : uint8_t;

/// ".texref", ".samplerref" or ".surfref".
llvm::StringRef getOpaqueSpelling(OpaqueKind K);

/// The sampler word of an opaque variable's initializer (zero without one).
/// Reports each unknown field or value to Diags when given; the word then
/// leaves that field out.
abi::SamplerWord getSamplerWord(const VariableDecl &D,
                                DiagnosticEngine *Diags = nullptr);

/// Where an opaque variable may be declared: at module scope in .global,
/// or as a kernel parameter. Reports misplaced ones, arrays, initializers
/// of .surfref and bad initializer fields.
void checkOpaqueDeclaration(const VariableDecl &D, bool AtModuleScope,
                            bool IsKernelParam, DiagnosticEngine &Diags);

} // namespace ptx
} // namespace ptxjit

#endif
