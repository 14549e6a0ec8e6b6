//===- StackSizes.cpp - The native frame of a compiled kernel -------------===//
//
// In a relocatable object each .stack_sizes entry's address is a
// relocation, against the section symbol of the function's text section
// with the function's offset as the addend, so the entry of a function is
// found through the section's relocations.
//
//===----------------------------------------------------------------------===//

#include "StackSizes.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/DataExtractor.h"

using namespace llvm;

/// Whether Section is a .stack_sizes section.
static bool isStackSizes(const object::SectionRef &Section) {
  Expected<StringRef> Name = Section.getName();
  if (!Name) {
    consumeError(Name.takeError());
    return false;
  }
  return *Name == ".stack_sizes";
}

/// Where a symbol points: its section and its offset there.
using Place = std::pair<object::section_iterator, uint64_t>;

/// Where Sym points, offset by Addend.
static std::optional<Place> getPlace(const object::SymbolRef &Sym,
                                     int64_t Addend) {
  Expected<object::section_iterator> Section = Sym.getSection();
  Expected<uint64_t> Value = Sym.getValue();
  if (!Section || !Value) {
    consumeError(Section.takeError());
    consumeError(Value.takeError());
    return std::nullopt;
  }
  return Place(*Section, *Value + Addend);
}

uint64_t ptxjit::getFrameSize(MemoryBufferRef Object, StringRef Function) {
  Expected<std::unique_ptr<object::ObjectFile>> File =
      object::ObjectFile::createObjectFile(Object);
  if (!File) {
    consumeError(File.takeError());
    return 0;
  }
  auto *ELF = dyn_cast<object::ELFObjectFileBase>(File->get());
  if (!ELF)
    return 0;
  std::optional<Place> FunctionPlace;
  for (const object::SymbolRef &Sym : ELF->symbols()) {
    Expected<StringRef> Name = Sym.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name == Function) {
      FunctionPlace = getPlace(Sym, 0);
      break;
    }
  }
  if (!FunctionPlace)
    return 0;
  for (const object::SectionRef &Relocations : ELF->sections()) {
    Expected<object::section_iterator> Target =
        Relocations.getRelocatedSection();
    if (!Target) {
      consumeError(Target.takeError());
      continue;
    }
    if (*Target == ELF->section_end() || !isStackSizes(**Target))
      continue;
    for (const object::RelocationRef &R : Relocations.relocations()) {
      object::symbol_iterator Sym = R.getSymbol();
      Expected<int64_t> Addend = object::ELFRelocationRef(R).getAddend();
      if (!Addend) {
        consumeError(Addend.takeError());
        continue;
      }
      if (Sym == ELF->symbol_end() || getPlace(*Sym, *Addend) != FunctionPlace)
        continue;
      // The entry: the address R relocates, then the frame size.
      Expected<StringRef> Contents = (*Target)->getContents();
      if (!Contents) {
        consumeError(Contents.takeError());
        return 0;
      }
      unsigned AddressSize = ELF->getBytesInAddress();
      DataExtractor Data(*Contents, ELF->isLittleEndian(), AddressSize);
      DataExtractor::Cursor C(R.getOffset() + AddressSize);
      uint64_t Size = Data.getULEB128(C);
      if (!C) {
        consumeError(C.takeError());
        return 0;
      }
      return Size;
    }
  }
  return 0;
}
