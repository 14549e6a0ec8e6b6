//===- FatBinaryTest.cpp - Reading the device code nvcc embeds ------------===//
//
// Fat binaries built here, byte by byte, in the layout nvcc 13 writes, with
// PTX entries stored plain, zstd- and LZ4-compressed (compressed by the
// libraries themselves), ELF entries beside them, and damaged containers.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/CUDA/FatBinary.h"
#include "llvm/Support/Endian.h"
#include "gtest/gtest.h"
#include <lz4.h>
#include <string>
#include <vector>
#include <zstd.h>

using namespace llvm;
using namespace ptxjit::cuda;

namespace {

enum class Compression { None, Zstd, LZ4 };

class FatBinaryBuilder {
public:
  void addEntry(FatBinaryEntryKind Kind, unsigned Arch, unsigned Major,
                unsigned Minor, const std::string &Payload,
                Compression How = Compression::None) {
    std::string Stored = Payload;
    uint64_t Flags = 0x11;
    if (How == Compression::Zstd) {
      Stored.resize(ZSTD_compressBound(Payload.size()));
      Stored.resize(ZSTD_compress(Stored.data(), Stored.size(), Payload.data(),
                                  Payload.size(), 3));
      Flags |= FBF_CompressedZstd;
    } else if (How == Compression::LZ4) {
      Stored.resize(LZ4_compressBound(int(Payload.size())));
      Stored.resize(LZ4_compress_default(Payload.data(), Stored.data(),
                                         int(Payload.size()),
                                         int(Stored.size())));
      Flags |= FBF_CompressedLZ4;
    }
    uint64_t Padded = (Stored.size() + 7) / 8 * 8;
    std::vector<uint8_t> Header(Kind == FatBinaryEntryKind::PTX ? 80 : 64, 0);
    using namespace support::endian;
    write16le(&Header[0], uint16_t(Kind));
    write16le(&Header[2], 0x0101);
    write32le(&Header[4], uint32_t(Header.size()));
    write64le(&Header[8], Padded);
    write32le(&Header[16], How == Compression::None ? 0 : Stored.size());
    write16le(&Header[24], uint16_t(Minor));
    write16le(&Header[26], uint16_t(Major));
    write32le(&Header[28], Arch);
    write64le(&Header[40], Flags);
    write64le(&Header[56], How == Compression::None ? 0 : Payload.size());
    Entries.insert(Entries.end(), Header.begin(), Header.end());
    Entries.insert(Entries.end(), Stored.begin(), Stored.end());
    Entries.resize(Entries.size() + (Padded - Stored.size()), 0);
  }

  std::vector<uint8_t> build() const {
    std::vector<uint8_t> Out(16, 0);
    using namespace support::endian;
    write32le(&Out[0], FatBinaryMagic);
    write16le(&Out[4], 1);
    write16le(&Out[6], 16);
    write64le(&Out[8], Entries.size());
    Out.insert(Out.end(), Entries.begin(), Entries.end());
    return Out;
  }

private:
  std::vector<uint8_t> Entries;
};

std::string ptxText(unsigned Arch) {
  std::string Text = ".version 9.0\n.target sm_" + std::to_string(Arch) +
                     "\n.address_size 64\n";
  // Long enough that compression has something to find.
  for (int I = 0; I != 50; ++I)
    Text += "// line " + std::to_string(I) + " of the kernel's text\n";
  return Text;
}

std::string errorText(Error E) { return toString(std::move(E)); }

TEST(FatBinaryTest, ReadsPlainZstdAndLZ4Entries) {
  FatBinaryBuilder B;
  B.addEntry(FatBinaryEntryKind::ELF, 80, 1, 8,
             std::string("\x7f"
                         "ELF....",
                         8));
  B.addEntry(FatBinaryEntryKind::PTX, 75, 8, 4, ptxText(75));
  B.addEntry(FatBinaryEntryKind::PTX, 80, 9, 0, ptxText(80), Compression::Zstd);
  B.addEntry(FatBinaryEntryKind::PTX, 86, 9, 0, ptxText(86), Compression::LZ4);
  std::vector<uint8_t> Data = B.build();
  Expected<std::vector<FatBinaryEntry>> Entries =
      readFatBinary(Data.data(), Data.size());
  ASSERT_TRUE(!!Entries) << errorText(Entries.takeError());
  ASSERT_EQ(Entries->size(), 4u);
  EXPECT_EQ((*Entries)[0].Kind, FatBinaryEntryKind::ELF);
  EXPECT_EQ((*Entries)[0].Payload.size(), 8u);
  // PTX text without the padding after it.
  EXPECT_EQ((*Entries)[1].Payload, ptxText(75));
  EXPECT_EQ((*Entries)[1].Major, 8u);
  EXPECT_EQ((*Entries)[1].Minor, 4u);
  EXPECT_EQ((*Entries)[2].Payload, ptxText(80));
  EXPECT_EQ((*Entries)[2].Arch, 80u);
  EXPECT_EQ((*Entries)[3].Payload, ptxText(86));
}

TEST(FatBinaryTest, SelectsTheHighestArchitectureItCanRun) {
  FatBinaryBuilder B;
  B.addEntry(FatBinaryEntryKind::PTX, 70, 8, 0, ptxText(70));
  B.addEntry(FatBinaryEntryKind::PTX, 90, 9, 0, ptxText(90), Compression::Zstd);
  B.addEntry(FatBinaryEntryKind::PTX, 80, 9, 0, ptxText(80));
  std::vector<uint8_t> Data = B.build();
  Expected<std::vector<FatBinaryEntry>> Entries =
      readFatBinary(Data.data(), Data.size());
  ASSERT_TRUE(!!Entries);
  Expected<const FatBinaryEntry *> Best = selectPTXEntry(*Entries, 120);
  ASSERT_TRUE(!!Best);
  EXPECT_EQ((*Best)->Arch, 90u);
  Expected<const FatBinaryEntry *> UpTo86 = selectPTXEntry(*Entries, 86);
  ASSERT_TRUE(!!UpTo86);
  EXPECT_EQ((*UpTo86)->Arch, 80u);
}

TEST(FatBinaryTest, MachineCodeOnlySaysHowToRebuild) {
  FatBinaryBuilder B;
  B.addEntry(FatBinaryEntryKind::ELF, 80, 1, 8, std::string(64, 'x'));
  B.addEntry(FatBinaryEntryKind::ELF, 90, 1, 8, std::string(64, 'y'));
  std::vector<uint8_t> Data = B.build();
  Expected<std::vector<FatBinaryEntry>> Entries =
      readFatBinary(Data.data(), Data.size());
  ASSERT_TRUE(!!Entries);
  Expected<const FatBinaryEntry *> PTX = selectPTXEntry(*Entries, 120);
  ASSERT_FALSE(!!PTX);
  std::string Message = errorText(PTX.takeError());
  EXPECT_NE(Message.find("machine code only for sm_80, sm_90"),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find("-gencode arch=compute_80,code=compute_80"),
            std::string::npos);
}

TEST(FatBinaryTest, DamagedContainersAreErrors) {
  FatBinaryBuilder B;
  B.addEntry(FatBinaryEntryKind::PTX, 80, 9, 0, ptxText(80), Compression::Zstd);
  std::vector<uint8_t> Good = B.build();

  std::vector<uint8_t> BadMagic = Good;
  BadMagic[0] ^= 1;
  EXPECT_NE(
      errorText(readFatBinary(BadMagic.data(), BadMagic.size()).takeError())
          .find("magic"),
      std::string::npos);

  // Cut short: the header says more than there is.
  EXPECT_FALSE(!!readFatBinary(Good.data(), Good.size() - 8));
  EXPECT_FALSE(!!readFatBinary(Good.data(), 10));

  // An entry whose payload size runs past the container.
  std::vector<uint8_t> Long = Good;
  support::endian::write64le(&Long[16 + 8], uint64_t(1) << 40);
  EXPECT_FALSE(!!readFatBinary(Long.data(), Long.size()));

  // Compressed bytes that are not zstd.
  std::vector<uint8_t> Garbled = Good;
  for (size_t I = 16 + 80; I != 16 + 80 + 16; ++I)
    Garbled[I] = 0xA5;
  Expected<std::vector<FatBinaryEntry>> E =
      readFatBinary(Garbled.data(), Garbled.size());
  ASSERT_FALSE(!!E);
  EXPECT_NE(errorText(E.takeError()).find("zstd"), std::string::npos);
}

} // namespace
