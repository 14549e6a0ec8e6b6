//===- NpyTest.cpp - .npy headers, from bytes written by hand -------------===//

#include "ptxjit/Driver/Npy.h"
#include "DriverTestUtil.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace ptxjit::driver;

/// A version 1.0 file: magic, version, 2-byte length, dict, data.
static std::string npyV1(llvm::StringRef Dict, llvm::StringRef Data = "") {
  std::string File("\x93NUMPY\x01\x00", 8);
  File += static_cast<char>(Dict.size() & 0xff);
  File += static_cast<char>(Dict.size() >> 8);
  return File + Dict.str() + Data.str();
}

static llvm::Expected<NpyHeader> parse(llvm::StringRef File) {
  return parseNpyHeader(llvm::arrayRefFromStringRef(File));
}

TEST(NpyTest, ParsesAVersion1Header) {
  std::string File =
      npyV1("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n");
  NpyHeader H = unwrap(parse(File));
  EXPECT_EQ(H.MajorVersion, 1u);
  EXPECT_EQ(H.Descr, "<f4");
  EXPECT_FALSE(H.FortranOrder);
  EXPECT_EQ(H.Shape, (llvm::SmallVector<uint64_t, 4>{3}));
  EXPECT_EQ(H.getElementCount(), 3u);
  EXPECT_EQ(H.DataOffset, File.size());
}

TEST(NpyTest, ParsesVersions2And3) {
  std::string Dict = "{'descr':'|u1','fortran_order':True,'shape':(2, 3)}";
  for (char Major : {'\x02', '\x03'}) {
    std::string File("\x93NUMPY", 6);
    File += Major;
    File += '\0';
    File += static_cast<char>(Dict.size());
    File += std::string(3, '\0');
    File += Dict;
    NpyHeader H = unwrap(parse(File));
    EXPECT_EQ(H.MajorVersion, static_cast<unsigned>(Major));
    EXPECT_EQ(H.Descr, "|u1");
    EXPECT_TRUE(H.FortranOrder);
    EXPECT_EQ(H.getElementCount(), 6u);
    EXPECT_EQ(H.DataOffset, 12 + Dict.size());
  }
}

TEST(NpyTest, ShapesAndKeyOrder) {
  NpyHeader H = unwrap(parse(
      npyV1("{\"shape\": (), \"fortran_order\": False, \"descr\": \"<i8\"}")));
  EXPECT_TRUE(H.Shape.empty());
  EXPECT_EQ(H.getElementCount(), 1u); // a 0-d array holds one element
  EXPECT_EQ(H.Descr, "<i8");
  H = unwrap(parse(
      npyV1("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 0, 4), }")));
  EXPECT_EQ(H.getElementCount(), 0u);
}

TEST(NpyTest, MalformedHeaders) {
  EXPECT_EQ(errorOf(parse("NUMPY")),
            "not a .npy file (no \\x93NUMPY magic string)");
  EXPECT_EQ(errorOf(parse(std::string("\x93NUMPY\x04\x00\x00\x00", 10))),
            "unsupported .npy version 4.0");
  EXPECT_EQ(errorOf(parse(std::string("\x93NUMPY\x01\x00\xff\x00{", 11))),
            "truncated .npy header");
  EXPECT_EQ(errorOf(parse(npyV1("{'descr': [('x', '<f4')], "
                                "'fortran_order': False, 'shape': (3,), }"))),
            "unsupported .npy dtype: only plain numeric dtypes are (no "
            "structured arrays)");
  EXPECT_EQ(errorOf(parse(npyV1("{'descr': '<f4', 'shape': (3,), }"))),
            "malformed .npy header: it needs 'descr', 'fortran_order' and "
            "'shape'");
  EXPECT_EQ(errorOf(parse(npyV1("{'descr': '<f4', 'color': 1}"))),
            "malformed .npy header: unknown key 'color'");
  EXPECT_EQ(errorOf(parse(npyV1("{'descr': '<f4' 'shape': (3,)}"))),
            "malformed .npy header: expected ',' or '}' at ''shape': (3,)}'");
  EXPECT_EQ(errorOf(parse(npyV1("{'descr': '<f4', 'fortran_order': No}"))),
            "malformed .npy header: expected True or False at 'No}'");
  EXPECT_EQ(errorOf(parse(npyV1("{'shape': (x,)}"))),
            "malformed .npy header: expected a dimension at 'x,)}'");
}

TEST(NpyTest, Descrs) {
  EXPECT_EQ(unwrap(checkNpyDescr("<f4", ElementType::F32)), false);
  EXPECT_EQ(unwrap(checkNpyDescr("=f4", ElementType::F32)), false);
  EXPECT_EQ(unwrap(checkNpyDescr(">f4", ElementType::F32)), true);
  EXPECT_EQ(unwrap(checkNpyDescr("|u1", ElementType::U8)), false);
  EXPECT_EQ(unwrap(checkNpyDescr("<u1", ElementType::U8)), false);
  EXPECT_EQ(unwrap(checkNpyDescr(">i1", ElementType::S8)), false);
  EXPECT_EQ(unwrap(checkNpyDescr("<f2", ElementType::F16)), false);
  EXPECT_EQ(unwrap(checkNpyDescr("<i8", ElementType::S64)), false);
  EXPECT_EQ(unwrap(checkNpyDescr("<V2", ElementType::BF16)), false);
  EXPECT_EQ(unwrap(checkNpyDescr("|V2", ElementType::BF16)), false);
  EXPECT_EQ(unwrap(checkNpyDescr(">V2", ElementType::BF16)), false);
  EXPECT_EQ(unwrap(checkNpyDescr("<u2", ElementType::BF16)), false);
  EXPECT_EQ(unwrap(checkNpyDescr(">u2", ElementType::BF16)), true);

  EXPECT_EQ(errorOf(checkNpyDescr("<f8", ElementType::F32)),
            "the .npy file holds '<f8' data, but the buffer is f32 (expected "
            "'<f4')");
  EXPECT_NE(errorOf(checkNpyDescr("<u4", ElementType::S32)), "");
  EXPECT_NE(errorOf(checkNpyDescr("<f2", ElementType::BF16)), "");
  EXPECT_NE(errorOf(checkNpyDescr("<V2", ElementType::F16)), "");
  EXPECT_NE(errorOf(checkNpyDescr("f4", ElementType::F32)), "");
  EXPECT_NE(errorOf(checkNpyDescr("", ElementType::F32)), "");
}

TEST(NpyTest, WritesAVersion1Header) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeNpyHeader(OS, ElementType::F32, 3);
  OS.flush();
  std::string Dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  // 10 + 57 + 1 = 68 bytes unpadded; NumPy pads the whole header to 128.
  ASSERT_EQ(Out.size(), 128u);
  EXPECT_EQ(Out.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(Out[8], 118);
  EXPECT_EQ(Out[9], 0);
  EXPECT_EQ(Out.substr(10, Dict.size()), Dict);
  EXPECT_EQ(Out.substr(10 + Dict.size(), 128 - 10 - Dict.size() - 1),
            std::string(128 - 10 - Dict.size() - 1, ' '));
  EXPECT_EQ(Out.back(), '\n');

  NpyHeader H = unwrap(parse(Out));
  EXPECT_EQ(H.DataOffset, 128u);
  EXPECT_EQ(H.getElementCount(), 3u);
}

TEST(NpyTest, WritesEveryDescr) {
  for (ElementType Ty : {ElementType::U8, ElementType::S16, ElementType::BF16,
                         ElementType::F64}) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    writeNpyHeader(OS, Ty, 12345);
    OS.flush();
    EXPECT_EQ(Out.size() % 64, 0u);
    NpyHeader H = unwrap(parse(Out));
    EXPECT_EQ(H.Descr, getNpyDescr(Ty));
    EXPECT_EQ(H.getElementCount(), 12345u);
    EXPECT_EQ(unwrap(checkNpyDescr(H.Descr, Ty)), false);
  }
}
