//===- ElementType.h - Element types of --arg buffers -----------*- C++ -*-===//
//
// The element types a buffer SPEC may name ("u8" ... "f64"), listed once in
// ElementTypes.def, and the facts about each that parsing, initialization and
// output need.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_ELEMENTTYPE_H
#define PTXJIT_DRIVER_ELEMENTTYPE_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace llvm {
struct fltSemantics;
} // namespace llvm

namespace ptxjit {
namespace driver {

enum class ElementType : uint8_t {
#define ELEMENT_TYPE(Enum, Name, Size, Kind, NpyDescr) Enum,
#include "ptxjit/Driver/ElementTypes.def"
};

/// The spelling in a SPEC: "u8", "bf16", ...
llvm::StringRef getElementTypeName(ElementType Ty);
/// Size of one element in bytes.
unsigned getElementSize(ElementType Ty);
/// Size of one element in bits.
inline unsigned getElementBits(ElementType Ty) {
  return 8 * getElementSize(Ty);
}
bool isFloatElement(ElementType Ty);
bool isSignedElement(ElementType Ty);
/// The APFloat semantics of a floating-point element type.
const llvm::fltSemantics &getFloatSemantics(ElementType Ty);
/// The NumPy descr written to .npy files, e.g. "<f4".
llvm::StringRef getNpyDescr(ElementType Ty);

/// Parses a type name as spelled in a SPEC; std::nullopt if it is none.
std::optional<ElementType> parseElementType(llvm::StringRef Name);
/// "u8 s8 u16 ... f64", for error messages.
llvm::StringRef getElementTypeNameList();

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_ELEMENTTYPE_H
