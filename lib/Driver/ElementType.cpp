//===- ElementType.cpp - Element types of --arg buffers -------------------===//

#include "ptxjit/Driver/ElementType.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;
using namespace ptxjit::driver;

namespace {
enum class ElementKind : uint8_t { Unsigned, Signed, Float };

struct ElementInfo {
  const char *Name;
  unsigned Size;
  ElementKind Kind;
  const char *NpyDescr;
};
} // namespace

static const ElementInfo ElementTable[] = {
#define ELEMENT_TYPE(Enum, Name, Size, Kind, NpyDescr)                         \
  {Name, Size, ElementKind::Kind, NpyDescr},
#include "ptxjit/Driver/ElementTypes.def"
};

static const ElementInfo &getInfo(ElementType Ty) {
  return ElementTable[static_cast<unsigned>(Ty)];
}

StringRef ptxjit::driver::getElementTypeName(ElementType Ty) {
  return getInfo(Ty).Name;
}

unsigned ptxjit::driver::getElementSize(ElementType Ty) {
  return getInfo(Ty).Size;
}

bool ptxjit::driver::isFloatElement(ElementType Ty) {
  return getInfo(Ty).Kind == ElementKind::Float;
}

bool ptxjit::driver::isSignedElement(ElementType Ty) {
  return getInfo(Ty).Kind == ElementKind::Signed;
}

const fltSemantics &ptxjit::driver::getFloatSemantics(ElementType Ty) {
  switch (Ty) {
  case ElementType::F16:
    return APFloat::IEEEhalf();
  case ElementType::BF16:
    return APFloat::BFloat();
  case ElementType::F32:
    return APFloat::IEEEsingle();
  case ElementType::F64:
    return APFloat::IEEEdouble();
  default:
    llvm_unreachable("not a floating-point element type");
  }
}

StringRef ptxjit::driver::getNpyDescr(ElementType Ty) {
  return getInfo(Ty).NpyDescr;
}

std::optional<ElementType> ptxjit::driver::parseElementType(StringRef Name) {
  for (unsigned I = 0; I != std::size(ElementTable); ++I)
    if (Name == ElementTable[I].Name)
      return static_cast<ElementType>(I);
  return std::nullopt;
}

StringRef ptxjit::driver::getElementTypeNameList() {
  static const char List[] =
#define ELEMENT_TYPE(Enum, Name, Size, Kind, NpyDescr) Name " "
#include "ptxjit/Driver/ElementTypes.def"
      ;
  return StringRef(List).rtrim();
}
