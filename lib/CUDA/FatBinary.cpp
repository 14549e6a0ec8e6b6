//===- FatBinary.cpp - Reading the device code nvcc embeds ----------------===//
//
// The container: a 16-byte header (magic, version, header size, size of
// the entries that follow), then entries, each a header of its own followed
// by its payload:
//
//   offset  size  field
//   0       2     kind (1 PTX, 2 ELF)
//   4       4     header size
//   8       8     payload size (padded)
//   16      4     compressed size (0 when not compressed)
//   24      2+2   minor, major version
//   28      4     architecture
//   40      8     flags (compression)
//   56      8     uncompressed size
//
//===----------------------------------------------------------------------===//

#include "ptxjit/CUDA/FatBinary.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include <lz4.h>
#include <zstd.h>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

static Error fatbinError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid fat binary: " + Msg);
}

static uint16_t read16(const uint8_t *P) {
  return support::endian::read16le(P);
}
static uint32_t read32(const uint8_t *P) {
  return support::endian::read32le(P);
}
static uint64_t read64(const uint8_t *P) {
  return support::endian::read64le(P);
}

static Expected<std::string> decompress(ArrayRef<uint8_t> Stored,
                                        uint64_t Flags, uint64_t Compressed,
                                        uint64_t Uncompressed) {
  if (!(Flags & (FBF_CompressedLZ4 | FBF_CompressedZstd)))
    return std::string(Stored.begin(), Stored.end());
  if (Compressed > Stored.size())
    return fatbinError("a compressed payload is larger than its entry");
  // Sizes are the entry's own; a damaged one must not make us allocate
  // without bound.
  if (Uncompressed > (uint64_t(1) << 32))
    return fatbinError("an uncompressed size of " + Twine(Uncompressed) +
                       " bytes");
  std::string Out(Uncompressed, '\0');
  if (Flags & FBF_CompressedZstd) {
    size_t N =
        ZSTD_decompress(Out.data(), Out.size(), Stored.data(), Compressed);
    if (ZSTD_isError(N))
      return fatbinError(Twine("zstd: ") + ZSTD_getErrorName(N));
    Out.resize(N);
    return Out;
  }
  int N = LZ4_decompress_safe(reinterpret_cast<const char *>(Stored.data()),
                              Out.data(), int(Compressed), int(Out.size()));
  if (N < 0)
    return fatbinError("an LZ4 payload does not decompress");
  Out.resize(size_t(N));
  return Out;
}

Expected<std::vector<FatBinaryEntry>> cuda::readFatBinary(const void *Data,
                                                          uint64_t MaxSize) {
  const auto *Base = static_cast<const uint8_t *>(Data);
  if (!Base || MaxSize < 16)
    return fatbinError("too short");
  if (read32(Base) != FatBinaryMagic)
    return fatbinError(
        formatv("magic {0:x8} is not {1:x8}", read32(Base), FatBinaryMagic));
  uint64_t HeaderSize = read16(Base + 6);
  uint64_t EntriesSize = read64(Base + 8);
  if (HeaderSize < 16 || HeaderSize > MaxSize ||
      EntriesSize > MaxSize - HeaderSize)
    return fatbinError("its size runs past the data");
  std::vector<FatBinaryEntry> Entries;
  uint64_t Offset = HeaderSize, End = HeaderSize + EntriesSize;
  while (Offset < End) {
    if (End - Offset < 64)
      return fatbinError(
          formatv("an entry header at offset {0} is cut short", Offset));
    const uint8_t *E = Base + Offset;
    uint64_t EntryHeader = read32(E + 4), PayloadSize = read64(E + 8);
    if (EntryHeader < 64 || EntryHeader > End - Offset ||
        PayloadSize > End - Offset - EntryHeader)
      return fatbinError(
          formatv("the entry at offset {0} runs past the container", Offset));
    FatBinaryEntry Entry;
    uint16_t Kind = read16(E);
    if (Kind != uint16_t(FatBinaryEntryKind::PTX) &&
        Kind != uint16_t(FatBinaryEntryKind::ELF)) {
      // Kinds we do not know (e.g. future ones) are skipped, not fatal.
      Offset += EntryHeader + PayloadSize;
      continue;
    }
    Entry.Kind = FatBinaryEntryKind(Kind);
    Entry.Minor = read16(E + 24);
    Entry.Major = read16(E + 26);
    Entry.Arch = read32(E + 28);
    Entry.Flags = read64(E + 40);
    Expected<std::string> Payload =
        decompress(ArrayRef<uint8_t>(E + EntryHeader, PayloadSize), Entry.Flags,
                   read32(E + 16), read64(E + 56));
    if (!Payload)
      return Payload.takeError();
    Entry.Payload = std::move(*Payload);
    if (Entry.Kind == FatBinaryEntryKind::PTX)
      Entry.Payload.resize(strnlen(Entry.Payload.data(), Entry.Payload.size()));
    Entries.push_back(std::move(Entry));
    Offset += EntryHeader + PayloadSize;
  }
  return Entries;
}

Expected<const FatBinaryEntry *>
cuda::selectPTXEntry(ArrayRef<FatBinaryEntry> Entries, unsigned MaxArch) {
  const FatBinaryEntry *Best = nullptr;
  std::vector<unsigned> SASS;
  for (const FatBinaryEntry &E : Entries) {
    if (E.Kind != FatBinaryEntryKind::PTX) {
      SASS.push_back(E.Arch);
      continue;
    }
    if (E.Arch > MaxArch)
      continue;
    if (!Best || std::tie(E.Arch, E.Major, E.Minor) >
                     std::tie(Best->Arch, Best->Major, Best->Minor))
      Best = &E;
  }
  if (Best)
    return Best;
  std::string Archs;
  for (unsigned A : SASS)
    Archs += (Archs.empty() ? "sm_" : ", sm_") + std::to_string(A);
  return createStringError(
      inconvertibleErrorCode(),
      "the program's fat binary has no PTX that ptx-jit can run (it holds "
      "machine code only%s%s); rebuild it with PTX embedded, e.g. with "
      "-arch=sm_80 or -gencode arch=compute_80,code=compute_80",
      Archs.empty() ? "" : " for ", Archs.c_str());
}
