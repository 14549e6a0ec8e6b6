//===- ArgSpecTest.cpp ----------------------------------------------------===//

#include "ptxjit/Driver/ArgSpec.h"
#include "DriverTestUtil.h"
#include "gtest/gtest.h"

using namespace ptxjit::driver;

static ArgSpec parse(llvm::StringRef Spec) {
  return unwrap(parseArgSpec(Spec));
}

static std::string parseError(llvm::StringRef Spec) {
  return errorOf(parseArgSpec(Spec));
}

TEST(ArgSpecTest, Scalars) {
  ArgSpec A = parse("42");
  EXPECT_FALSE(A.isBuffer());
  EXPECT_EQ(A.Value.Kind, ScalarLiteral::Integer);
  EXPECT_EQ(A.Value.Magnitude, 42u);
  EXPECT_EQ(A.Text, "42");

  for (const char *Spec : {"-2e-3", "inf", "nan", "-inf", "1.5"}) {
    A = parse(Spec);
    EXPECT_FALSE(A.isBuffer()) << Spec;
    EXPECT_EQ(A.Value.Kind, ScalarLiteral::Float) << Spec;
  }
}

TEST(ArgSpecTest, BufferOfEveryType) {
  for (const char *Name : {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64",
                           "f16", "bf16", "f32", "f64"}) {
    ArgSpec A = parse(std::string(Name) + "[7]");
    ASSERT_TRUE(A.isBuffer()) << Name;
    EXPECT_EQ(getElementTypeName(A.Buf.Type), Name);
    EXPECT_EQ(A.Buf.Count, 7u);
    EXPECT_EQ(A.Buf.Init.Kind, BufferInit::Zero);
    EXPECT_EQ(A.Buf.Output.Kind, BufferOutput::None);
  }
}

TEST(ArgSpecTest, TheIssueExample) {
  ArgSpec In = parse("u64[1]=[1]");
  ASSERT_TRUE(In.isBuffer());
  EXPECT_EQ(In.Buf.Type, ElementType::U64);
  EXPECT_EQ(In.Buf.Count, 1u);
  EXPECT_EQ(In.Buf.Init.Kind, BufferInit::List);
  ASSERT_EQ(In.Buf.Init.Values.size(), 1u);
  EXPECT_EQ(In.Buf.Init.Values[0].Magnitude, 1u);
  EXPECT_EQ(In.Buf.Output.Kind, BufferOutput::None);

  ArgSpec Out = parse("u64[1]>-");
  ASSERT_TRUE(Out.isBuffer());
  EXPECT_EQ(Out.Buf.Init.Kind, BufferInit::Zero);
  EXPECT_EQ(Out.Buf.Output.Kind, BufferOutput::Print);
}

TEST(ArgSpecTest, InitForms) {
  EXPECT_EQ(parse("f32[4]=zero").Buf.Init.Kind, BufferInit::Zero);
  EXPECT_EQ(parse("f32[4]=iota").Buf.Init.Kind, BufferInit::Iota);

  ArgSpec A = parse("s8[3]=rand");
  EXPECT_EQ(A.Buf.Init.Kind, BufferInit::Rand);
  EXPECT_FALSE(A.Buf.Init.Seed.has_value());
  A = parse("s8[3]=rand:7");
  EXPECT_EQ(A.Buf.Init.Kind, BufferInit::Rand);
  EXPECT_EQ(A.Buf.Init.Seed, 7u);
  EXPECT_EQ(parse("s8[3]=rand:0x10").Buf.Init.Seed, 16u);

  A = parse("f16[2]=fill:1.5");
  EXPECT_EQ(A.Buf.Init.Kind, BufferInit::Fill);
  ASSERT_EQ(A.Buf.Init.Values.size(), 1u);
  EXPECT_EQ(A.Buf.Init.Values[0].Text, "1.5");

  A = parse("bf16[3]=[1, -2.5 ,nan]>-");
  EXPECT_EQ(A.Buf.Init.Kind, BufferInit::List);
  ASSERT_EQ(A.Buf.Init.Values.size(), 3u);
  EXPECT_EQ(A.Buf.Init.Values[1].Text, "-2.5");
  EXPECT_EQ(A.Buf.Init.Values[2].Kind, ScalarLiteral::Float);
  EXPECT_EQ(A.Buf.Output.Kind, BufferOutput::Print);

  A = parse("u8[0]=[]");
  EXPECT_EQ(A.Buf.Init.Kind, BufferInit::List);
  EXPECT_TRUE(A.Buf.Init.Values.empty());

  A = parse("u8[2]=@in.bin>out.npy");
  EXPECT_EQ(A.Buf.Init.Kind, BufferInit::File);
  EXPECT_EQ(A.Buf.Init.Path, "in.bin");
  EXPECT_EQ(A.Buf.Output.Kind, BufferOutput::File);
  EXPECT_EQ(A.Buf.Output.Path, "out.npy");
}

TEST(ArgSpecTest, OutputPathMayContainGreaterThan) {
  ArgSpec A = parse("u8[2]>dir/a>b.bin");
  EXPECT_EQ(A.Buf.Output.Kind, BufferOutput::File);
  EXPECT_EQ(A.Buf.Output.Path, "dir/a>b.bin");
}

TEST(ArgSpecTest, WhitespaceAroundTheSpec) {
  ArgSpec A = parse("  u32[2]=iota  ");
  ASSERT_TRUE(A.isBuffer());
  EXPECT_EQ(A.Buf.Init.Kind, BufferInit::Iota);
  EXPECT_EQ(A.Text, "u32[2]=iota");
}

TEST(ArgSpecTest, Errors) {
  EXPECT_EQ(parseError(""), "empty SPEC");
  EXPECT_EQ(parseError("x32[4]"),
            "unknown element type 'x32' (expected one of u8 s8 u16 s16 u32 "
            "s32 u64 s64 f16 bf16 f32 f64)");
  EXPECT_EQ(parseError("f32"), "expected '[COUNT]' after 'f32'");
  EXPECT_EQ(parseError("f32[4"), "expected '[COUNT]' after 'f32'");
  EXPECT_EQ(parseError("f32(4)"), "expected '[COUNT]' after 'f32'");
  EXPECT_EQ(parseError("f32[abc]"), "'abc' is not a valid element count");
  EXPECT_EQ(parseError("f32[-1]"), "'-1' is not a valid element count");
  EXPECT_EQ(parseError("f32[]"), "'' is not a valid element count");
  EXPECT_EQ(parseError("f64[99999999999999999999]"),
            "'99999999999999999999' is not a valid element count");
  EXPECT_EQ(parseError("f64[4611686018427387904]"),
            "f64[4611686018427387904] is too large");
  EXPECT_EQ(parseError("f32[4]foo"),
            "expected '=INIT' or '>OUT' after 'f32[4]', found 'foo'");
  EXPECT_EQ(parseError("f32[4]=bogus"),
            "unknown initializer 'bogus' (expected zero, iota, rand, "
            "rand:SEED, fill:VALUE, [v0,v1,...] or @PATH)");
  EXPECT_EQ(parseError("f32[4]=rand:-1"),
            "rand seed '-1' is not a non-negative integer");
  EXPECT_EQ(parseError("f32[4]=rand:1.5"),
            "rand seed '1.5' is not a non-negative integer");
  EXPECT_EQ(parseError("f32[4]=fill:"), "expected a number, found nothing");
  EXPECT_EQ(parseError("f32[2]=[1,,2]"),
            "element 1 of the list: expected a number, found nothing");
  EXPECT_EQ(parseError("f32[2]=[1,2"), "a value list is written [v0,v1,...]");
  EXPECT_EQ(parseError("f32[4]=@"), "expected a file name after '@'");
  EXPECT_EQ(parseError("f32[4]>"), "expected '-' or a file name after '>'");
  EXPECT_NE(parseError("abc").find("'abc' is not a number"), std::string::npos);
}

TEST(ArgSpecTest, NamedBuffers) {
  ArgSpec Y = parse("y=f32[8]=fill:1>-");
  ASSERT_TRUE(Y.isBuffer());
  EXPECT_EQ(Y.Buf.Name, "y");
  EXPECT_EQ(Y.Buf.Type, ElementType::F32);
  EXPECT_EQ(Y.Buf.Count, 8u);
  EXPECT_EQ(Y.Buf.Init.Kind, BufferInit::Fill);
  EXPECT_EQ(Y.Buf.Output.Kind, BufferOutput::Print);
  EXPECT_EQ(parse("out_2 = u8[3]>-").Buf.Name, "out_2");
  EXPECT_EQ(parse("f32[8]>-").Buf.Name, "");
  // A name is only for buffers; a literal never looks like one.
  EXPECT_EQ(parseError("n=16"), "expected a buffer 'TYPE[COUNT]' after "
                                "'n=', found '16' (only buffers take a "
                                "name)");
  EXPECT_FALSE(parse("16").isBuffer());
}

TEST(ArgSpecTest, ImageKindsAndTexelCounts) {
  // The texel buffer holds channels x texels x layers (x 6 faces).
  struct Case {
    const char *Spec;
    unsigned Dimensions, Channels;
    bool Layered, Cubemap;
    uint64_t Count;
  } Cases[] = {
      {"tex1d:f32[5]", 1, 1, false, false, 5},
      {"tex3d:u8[2,3,4]", 3, 1, false, false, 24},
      {"tex2d:f32x4[3,2]", 2, 4, false, false, 24},
      {"tex1dlayered:s16x2[4,3]", 1, 2, true, false, 24},
      {"tex2dlayered:f16[2,3,4]", 2, 1, true, false, 24},
      {"texcube:f32[2]", 2, 1, false, true, 24},
      {"texcubelayered:u32[2,3]", 2, 1, true, true, 72},
      {"surf2d:u32[4,4]", 2, 1, false, false, 16},
  };
  for (const Case &C : Cases) {
    ArgSpec A = parse(C.Spec);
    ASSERT_TRUE(A.isImage()) << C.Spec;
    EXPECT_EQ(A.Img.Dimensions, C.Dimensions) << C.Spec;
    EXPECT_EQ(A.Img.Channels, C.Channels) << C.Spec;
    EXPECT_EQ(A.Img.Layered, C.Layered) << C.Spec;
    EXPECT_EQ(A.Img.Cubemap, C.Cubemap) << C.Spec;
    EXPECT_EQ(A.Buf.Count, C.Count) << C.Spec;
  }
  EXPECT_NE(parseError("tex2d:f32x3[2,2]").find("not a texel type"),
            std::string::npos);
  EXPECT_NE(parseError("texcubelayered:f32[2]").find("takes 2 sizes"),
            std::string::npos);
}
