//===- StackSizes.cpp - The native frames of a compiled kernel ------------===//

#include "StackSizes.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DataExtractor.h"

using namespace llvm;

uint64_t ptxjit::getTotalFrameSize(MemoryBufferRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> File =
      object::ObjectFile::createObjectFile(Object);
  if (!File) {
    consumeError(File.takeError());
    return 0;
  }
  uint64_t Total = 0;
  for (const object::SectionRef &Section : (*File)->sections()) {
    Expected<StringRef> Name = Section.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != ".stack_sizes")
      continue;
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      continue;
    }
    // In a relocatable object the addresses are relocations: only the
    // sizes matter here.
    unsigned AddressSize = (*File)->getBytesInAddress();
    DataExtractor Data(*Contents, (*File)->isLittleEndian(), AddressSize);
    DataExtractor::Cursor C(0);
    while (C && !Data.eof(C)) {
      Data.getAddress(C);
      Total += Data.getULEB128(C);
    }
    consumeError(C.takeError());
  }
  return Total;
}
