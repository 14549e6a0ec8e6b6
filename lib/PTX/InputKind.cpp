//===- InputKind.cpp - Recognize inputs that are not PTX text -------------===//

#include "ptxjit/PTX/InputKind.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/Endian.h"

using namespace llvm;

// The fat binary container nvcc embeds (little-endian 0xBA55ED50), and the
// wrapper's magic in a host object's .nvFatBinSegment (0x466243B1).
static constexpr uint32_t FatBinaryMagic = 0xBA55ED50;
static constexpr uint32_t FatBinaryWrapperMagic = 0x466243B1;

static constexpr StringLiteral RunProgramHint =
    "; give the PTX (nvcc -ptx, or cuobjdump -ptx on the program), or run "
    "the program with 'ptx-jit exec PROGRAM'";

static std::optional<std::string> describeELF(StringRef Bytes) {
  if (Bytes.size() < sizeof(ELF::Elf64_Ehdr) ||
      Bytes[ELF::EI_CLASS] != ELF::ELFCLASS64 ||
      Bytes[ELF::EI_DATA] != ELF::ELFDATA2LSB)
    return "this is an ELF file, not PTX text" + RunProgramHint.str();
  uint16_t Machine = support::endian::read16le(
      Bytes.data() + offsetof(ELF::Elf64_Ehdr, e_machine));
  uint16_t Type = support::endian::read16le(Bytes.data() +
                                            offsetof(ELF::Elf64_Ehdr, e_type));
  if (Machine == ELF::EM_CUDA)
    return std::string("this is a cubin (GPU machine code), not PTX text; "
                       "ptx-jit runs PTX: compile with 'nvcc -ptx' or embed "
                       "PTX in the program (e.g. -arch=sm_80, or -gencode "
                       "arch=compute_80,code=compute_80) and run it with "
                       "'ptx-jit exec PROGRAM'");
  if (Type == ELF::ET_EXEC || Type == ELF::ET_DYN)
    return "this is a compiled program or shared library, not PTX text" +
           RunProgramHint.str();
  return "this is a compiled object file, not PTX text" + RunProgramHint.str();
}

/// Text is what an editor writes: no NUL bytes and few other control
/// characters. PTX comments may hold any UTF-8, so bytes >= 0x80 count as
/// text.
static bool looksLikeText(StringRef Bytes) {
  StringRef Head = Bytes.take_front(4096);
  size_t Control = 0;
  for (unsigned char C : Head) {
    if (C == 0)
      return false;
    if (C < 0x20 && C != '\n' && C != '\r' && C != '\t' && C != '\f' &&
        C != '\v')
      ++Control;
  }
  return Control * 100 <= Head.size();
}

std::optional<std::string> ptxjit::ptx::describeNonPTXInput(StringRef Bytes) {
  if (Bytes.size() >= 4) {
    uint32_t Word = support::endian::read32le(Bytes.data());
    if (Word == FatBinaryMagic || Word == FatBinaryWrapperMagic)
      return "this is a CUDA fat binary, not PTX text" + RunProgramHint.str();
  }
  switch (identify_magic(Bytes)) {
  case file_magic::elf:
  case file_magic::elf_relocatable:
  case file_magic::elf_executable:
  case file_magic::elf_shared_object:
  case file_magic::elf_core:
    return describeELF(Bytes);
  case file_magic::archive:
    return "this is a static library (ar archive), not PTX text" +
           RunProgramHint.str();
  default:
    break;
  }
  if (!looksLikeText(Bytes))
    return std::string("this file is binary, not PTX text");
  return std::nullopt;
}
