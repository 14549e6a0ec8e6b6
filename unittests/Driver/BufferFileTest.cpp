//===- BufferFileTest.cpp - Reading and writing buffer files --------------===//

#include "ptxjit/Driver/BufferFile.h"
#include "DriverTestUtil.h"
#include "ptxjit/Driver/HostBuffer.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace ptxjit::driver;

static std::string npyV1(llvm::StringRef Dict, llvm::StringRef Data) {
  std::string File("\x93NUMPY\x01\x00", 8);
  File += static_cast<char>(Dict.size() & 0xff);
  File += static_cast<char>(Dict.size() >> 8);
  return File + Dict.str() + Data.str();
}

static std::string readAll(const std::string &Path) {
  auto File = llvm::MemoryBuffer::getFile(Path);
  EXPECT_TRUE(!!File);
  return File ? (*File)->getBuffer().str() : "";
}

static HostBuffer fromFile(ElementType Ty, uint64_t Count,
                           const std::string &Path) {
  HostBuffer Buf = unwrap(HostBuffer::create(Ty, Count));
  EXPECT_EQ(errorOf(readBufferFile(Path, Buf)), "");
  return Buf;
}

static std::string readError(ElementType Ty, uint64_t Count,
                             const std::string &Path) {
  HostBuffer Buf = unwrap(HostBuffer::create(Ty, Count));
  return errorOf(readBufferFile(Path, Buf));
}

TEST(BufferFileTest, ReadsAHandWrittenNpy) {
  TempDir Dir;
  // 1.0f and -2.0f, little-endian.
  std::string Path = Dir.write(
      "a.npy",
      npyV1("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n",
            llvm::StringRef("\x00\x00\x80\x3f\x00\x00\x00\xc0", 8)));
  HostBuffer Buf = fromFile(ElementType::F32, 2, Path);
  EXPECT_EQ(Buf.getBits(0), 0x3f800000u);
  EXPECT_EQ(Buf.getBits(1), 0xc0000000u);
}

TEST(BufferFileTest, NpyByMagicWithoutTheExtension) {
  TempDir Dir;
  std::string Path = Dir.write(
      "a.dat", npyV1("{'descr': '|i1', 'fortran_order': False, 'shape': "
                     "(1, 2), }",
                     llvm::StringRef("\xff\x05", 2)));
  HostBuffer Buf = fromFile(ElementType::S8, 2, Path);
  EXPECT_EQ(Buf.getBits(0), 0xffu);
  EXPECT_EQ(Buf.getBits(1), 5u);
}

TEST(BufferFileTest, BigEndianNpyIsSwapped) {
  TempDir Dir;
  std::string Path = Dir.write(
      "be.npy",
      npyV1("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
            llvm::StringRef("\x00\x00\x01\x02\xff\xff\xff\xfe", 8)));
  HostBuffer Buf = fromFile(ElementType::S32, 2, Path);
  EXPECT_EQ(Buf.getBits(0), 0x0102u);
  EXPECT_EQ(Buf.getBits(1), 0xfffffffeu);
}

TEST(BufferFileTest, NpyMismatches) {
  TempDir Dir;
  std::string F4 = Dir.write(
      "f4.npy", npyV1("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(2, 3), }",
                      std::string(24, '\0')));
  EXPECT_EQ(readError(ElementType::F32, 5, F4),
            "'" + F4 +
                "': the .npy file has shape (2, 3), 6 elements, but the "
                "buffer is f32[5]");
  EXPECT_EQ(readError(ElementType::F64, 6, F4),
            "'" + F4 +
                "': the .npy file holds '<f4' data, but the buffer is f64 "
                "(expected '<f8')");
  EXPECT_EQ(readError(ElementType::F32, 6, F4), "");

  std::string Fortran = Dir.write(
      "fortran.npy", npyV1("{'descr': '<f4', 'fortran_order': True, 'shape': "
                           "(2, 3), }",
                           std::string(24, '\0')));
  EXPECT_EQ(readError(ElementType::F32, 6, Fortran),
            "'" + Fortran +
                "': the .npy file is in Fortran order; save it in C order");
  std::string Fortran1D = Dir.write(
      "fortran1d.npy", npyV1("{'descr': '<f4', 'fortran_order': True, "
                             "'shape': (2,), }",
                             std::string(8, '\0')));
  EXPECT_EQ(readError(ElementType::F32, 2, Fortran1D), "");

  std::string Short = Dir.write(
      "short.npy", npyV1("{'descr': '<u2', 'fortran_order': False, 'shape': "
                         "(2,), }",
                         std::string(3, '\0')));
  EXPECT_EQ(readError(ElementType::U16, 2, Short),
            "'" + Short +
                "': the .npy file has 3 data bytes, but its header promises "
                "4");

  std::string NotNpy = Dir.write("fake.npy", "hello");
  EXPECT_EQ(readError(ElementType::U8, 5, NotNpy),
            "'" + NotNpy + "': not a .npy file (no \\x93NUMPY magic string)");
}

TEST(BufferFileTest, NpyRoundTripForEveryType) {
  TempDir Dir;
  for (const char *Name : {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64",
                           "f16", "bf16", "f32", "f64"}) {
    SCOPED_TRACE(Name);
    ArgSpec Spec =
        unwrap(parseArgSpec(std::string(Name) + "[37]=rand:" + "11"));
    HostBuffer Original = unwrap(HostBuffer::create(Spec.Buf));
    std::string Path = Dir.path(std::string(Name) + ".npy");
    ASSERT_EQ(errorOf(writeBuffer(Path, Original)), "");
    std::string File = readAll(Path);
    EXPECT_EQ(File.size(), 128 + Original.getSizeInBytes());
    HostBuffer Copy = fromFile(Spec.Buf.Type, 37, Path);
    EXPECT_EQ(Copy.bytes(), Original.bytes());
  }
}

TEST(BufferFileTest, RawRoundTrip) {
  TempDir Dir;
  ArgSpec Spec = unwrap(parseArgSpec("f64[5]=iota"));
  HostBuffer Original = unwrap(HostBuffer::create(Spec.Buf));
  std::string Path = Dir.path("out.bin");
  ASSERT_EQ(errorOf(writeBuffer(Path, Original)), "");
  std::string File = readAll(Path);
  ASSERT_EQ(File.size(), 40u);
  EXPECT_EQ(File.substr(8, 8), llvm::StringRef("\0\0\0\0\0\0\xf0\x3f", 8));
  HostBuffer Copy = fromFile(ElementType::F64, 5, Path);
  EXPECT_EQ(Copy.bytes(), Original.bytes());
}

TEST(BufferFileTest, WriteFailsIntoAMissingDirectory) {
  TempDir Dir;
  HostBuffer Buf = unwrap(HostBuffer::create(ElementType::U8, 1));
  std::string Path = Dir.path("no/such/dir/out.bin");
  std::string Error = errorOf(writeBuffer(Path, Buf));
  EXPECT_EQ(Error.rfind("cannot write '" + Path + "': ", 0), 0u) << Error;
}
