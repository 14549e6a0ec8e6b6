//===- KernelArgumentsTest.cpp - Binding --arg SPECs to parameters --------===//

#include "ptxjit/Driver/KernelArguments.h"
#include "DriverTestUtil.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <cstring>

using namespace ptxjit::driver;
using Specs = std::vector<std::string>;

static std::vector<ParamDesc> addKernelParams() {
  return {ParamDesc::getInt("add_param_0", 64, false),
          ParamDesc::getInt("add_param_1", 64, false)};
}

static std::string createError(llvm::ArrayRef<ParamDesc> Params,
                               const Specs &Args) {
  return errorOf(KernelArguments::create(Params, Args));
}

static std::string outputsOf(const KernelArguments &Args) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  EXPECT_EQ(errorOf(Args.writeOutputs(OS)), "");
  OS.flush();
  return Out;
}

TEST(KernelArgumentsTest, TheIssueExample) {
  // ptx-jit run add.ptx -b 1 --arg 'u64[1]=[1]' --arg 'u64[1]>-'
  KernelArguments Args = unwrap(KernelArguments::create(
      addKernelParams(), Specs{"u64[1]=[1]", "u64[1]>-"}));
  llvm::SmallVector<void *, 8> Params = Args.getKernelParams();
  ASSERT_EQ(Params.size(), 2u);
  // What the kernel does: *param_1 = *param_0 + 1, through the addresses the
  // parameters hold.
  uint64_t *In, *Out;
  std::memcpy(&In, Params[0], sizeof(In));
  std::memcpy(&Out, Params[1], sizeof(Out));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(In) % 256, 0u);
  *Out = *In + 1;
  EXPECT_EQ(outputsOf(Args), "add_param_1 = [2]\n");
}

TEST(KernelArgumentsTest, ScalarValues) {
  std::vector<ParamDesc> Params = {ParamDesc::getInt("n", 32, true),
                                   ParamDesc::getFloat("alpha", 32),
                                   ParamDesc::getInt("x", 64, false)};
  KernelArguments Args =
      unwrap(KernelArguments::create(Params, Specs{"-3", "1.5", "f32[4]"}));
  llvm::ArrayRef<BoundArgument> Bound = Args.getArguments();
  ASSERT_EQ(Bound.size(), 3u);
  EXPECT_EQ(Bound[0].Value, std::vector<uint8_t>({0xfd, 0xff, 0xff, 0xff}));
  EXPECT_EQ(Bound[1].Value, std::vector<uint8_t>({0, 0, 0xc0, 0x3f}));
  EXPECT_FALSE(Bound[0].Buffer.has_value());
  ASSERT_TRUE(Bound[2].Buffer.has_value());
  uint64_t Address;
  std::memcpy(&Address, Bound[2].Value.data(), 8);
  EXPECT_EQ(Address, reinterpret_cast<uintptr_t>(Bound[2].Buffer->data()));
  EXPECT_EQ(outputsOf(Args), ""); // nothing asked to be printed
}

TEST(KernelArgumentsTest, WrongCountNamesTheParameter) {
  EXPECT_EQ(createError(addKernelParams(), Specs{"u64[1]"}),
            "missing --arg for parameter 'add_param_1': the kernel has 2 "
            "parameters but 1 --arg was given");
  EXPECT_EQ(createError(addKernelParams(), Specs{}),
            "missing --arg for parameter 'add_param_0': the kernel has 2 "
            "parameters but 0 --arg were given");
  EXPECT_EQ(createError(addKernelParams(), Specs{"u64[1]", "u64[1]", "7"}),
            "--arg '7' has no parameter to bind to: the kernel has 2 "
            "parameters but 3 --arg were given");
}

TEST(KernelArgumentsTest, ErrorsNameTheParameter) {
  std::vector<ParamDesc> Params = {ParamDesc::getInt("k_param_0", 8, false)};
  EXPECT_EQ(createError(Params, Specs{"256"}),
            "parameter 'k_param_0' (.u8): '256' does not fit in u8 "
            "(accepted: -128 to 255)");
  EXPECT_EQ(createError(Params, Specs{"u8[4]"}),
            "parameter 'k_param_0' (.u8): a buffer is passed as a 64-bit "
            "address, which this parameter cannot hold");
  EXPECT_EQ(createError(Params, Specs{"q8[4]"}),
            "parameter 'k_param_0': --arg 'q8[4]': unknown element type 'q8' "
            "(expected one of u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 "
            "f64)");
  EXPECT_EQ(createError(addKernelParams(), Specs{"u64[1]", "f32[2]=[1]"}),
            "parameter 'add_param_1': --arg 'f32[2]=[1]': the list has 1 "
            "value, but f32[2] needs exactly 2");
  EXPECT_EQ(
      createError(addKernelParams(), Specs{"u64[1]=@/nonexistent/x", "1"}),
      "parameter 'add_param_0': --arg 'u64[1]=@/nonexistent/x': cannot read "
      "'/nonexistent/x': No such file or directory");
}

TEST(KernelArgumentsTest, UnseededRandUsesThePosition) {
  Specs Args = {"u32[16]=rand", "u32[16]=rand"};
  KernelArguments A = unwrap(KernelArguments::create(addKernelParams(), Args));
  KernelArguments B = unwrap(KernelArguments::create(addKernelParams(), Args));
  auto BytesOf = [](const KernelArguments &K, unsigned I) {
    return K.getArguments()[I].Buffer->bytes().vec();
  };
  EXPECT_NE(BytesOf(A, 0), BytesOf(A, 1));
  EXPECT_EQ(BytesOf(A, 0), BytesOf(B, 0));
  EXPECT_EQ(BytesOf(A, 1), BytesOf(B, 1));
  KernelArguments Seeded = unwrap(KernelArguments::create(
      addKernelParams(), Specs{"u32[16]=rand:0", "u32[16]=rand:1"}));
  EXPECT_EQ(BytesOf(A, 0), BytesOf(Seeded, 0));
  EXPECT_EQ(BytesOf(A, 1), BytesOf(Seeded, 1));
}

TEST(KernelArgumentsTest, OutputsInParameterOrder) {
  TempDir Dir;
  std::string Npy = Dir.path("out.npy");
  std::vector<ParamDesc> Params = {
      ParamDesc::getInt("a", 64, false), ParamDesc::getInt("n", 32, false),
      ParamDesc::getInt("b", 64, false), ParamDesc::getInt("c", 64, false)};
  KernelArguments Args = unwrap(KernelArguments::create(
      Params, Specs{"s16[3]=iota>-", "3", "f32[2]=fill:0.5>" + Npy,
                    "f16[2]=[1,-2]>-"}));
  EXPECT_EQ(outputsOf(Args), "a = [0, 1, 2]\nc = [1, -2]\n");
  auto File = llvm::MemoryBuffer::getFile(Npy);
  ASSERT_TRUE(!!File);
  EXPECT_EQ((*File)->getBufferSize(), 128u + 8u);
}

TEST(KernelArgumentsTest, UnwritableOutputsFailBeforeTheKernelRuns) {
  TempDir Dir;
  std::string Bad = Dir.path("missing/one.bin");
  std::string Error = errorOf(KernelArguments::create(
      addKernelParams(), Specs{"u8[1]>" + Bad, "u8[1]"}));
  EXPECT_NE(Error.find(Bad), std::string::npos) << Error;
  EXPECT_NE(Error.find("No such file or directory"), std::string::npos)
      << Error;
}

TEST(KernelArgumentsTest, FailedWritesAreAllReported) {
  TempDir Dir;
  // The directory exists when the outputs are checked, and is gone when
  // they are written.
  std::string Sub = Dir.path("gone");
  ASSERT_FALSE(llvm::sys::fs::create_directory(Sub));
  std::string Bad1 = Dir.path("gone/one.bin");
  std::string Bad2 = Dir.path("gone/two.bin");
  KernelArguments Args = unwrap(KernelArguments::create(
      addKernelParams(), Specs{"u8[1]>" + Bad1, "u8[1]>" + Bad2}));
  ASSERT_FALSE(llvm::sys::fs::remove_directories(Sub));
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  std::string Error = errorOf(Args.writeOutputs(OS));
  EXPECT_NE(Error.find(Bad1), std::string::npos) << Error;
  EXPECT_NE(Error.find(Bad2), std::string::npos) << Error;
}
