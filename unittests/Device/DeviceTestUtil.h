//===- DeviceTestUtil.h - What the device tests share ----------*- C++ -*-===//

#ifndef PTXJIT_UNITTESTS_DEVICE_DEVICETESTUTIL_H
#define PTXJIT_UNITTESTS_DEVICE_DEVICETESTUTIL_H

#include "ptxjit/Device/Context.h"
#include "ptxjit/Device/DeviceError.h"
#include "gtest/gtest.h"

namespace ptxjit {
namespace device {
namespace devtest {

// p[i] += 1 for i < n, one thread per element.
inline const char *AddOnePTX = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry addOne(.param .u64 p, .param .u32 n)
{
  .reg .b32 %r<7>;
  .reg .b64 %rd<4>;
  .reg .pred %p1;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.u32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd2, %r5, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.u32 %r6, [%rd3];
  add.u32 %r6, %r6, 1;
  st.global.u32 [%rd3], %r6;
DONE:
  ret;
}
// p[i] = p[i] * k
.visible .entry scale(.param .u64 p, .param .u32 k)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [k];
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd2, %r2, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.u32 %r3, [%rd3];
  mul.lo.u32 %r3, %r3, %r1;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

// Kernels that fail: a store through the pointer it is given, a trap, and
// a loop that never ends.
inline const char *FaultPTX = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry storeTo(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry trapNow()
{
  trap;
  ret;
}
.visible .entry spin()
{
LOOP:
  bra LOOP;
}
)";

/// Success, or a failure that prints the error.
inline ::testing::AssertionResult ok(llvm::Error E) {
  if (!E)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << llvm::toString(std::move(E));
}
/// The same for an Expected; its value stays usable.
template <typename T>::testing::AssertionResult ok(llvm::Expected<T> &E) {
  return ok(E.takeError());
}

inline std::unique_ptr<Context> makeContext(const ContextOptions &Opts = {}) {
  llvm::Expected<std::unique_ptr<Context>> C = Context::create(Opts);
  EXPECT_TRUE(ok(C));
  return C ? std::move(*C) : nullptr;
}

inline ErrorCode codeOf(llvm::Error E) {
  return device::takeError(std::move(E)).first;
}

template <typename T> ErrorCode codeOf(llvm::Expected<T> &E) {
  return E ? ErrorCode::Success : codeOf(E.takeError());
}

/// Loads PTX into C and finds the kernel Name (null, with a failure, if
/// either fails).
inline Kernel *loadKernel(Context &C, const char *PTX, llvm::StringRef Name) {
  llvm::Expected<device::Module &> M = C.loadPTX(PTX);
  EXPECT_TRUE(ok(M));
  if (!M)
    return nullptr;
  llvm::Expected<Kernel &> K = M->getKernel(Name);
  EXPECT_TRUE(ok(K));
  return K ? &*K : nullptr;
}

} // namespace devtest
} // namespace device
} // namespace ptxjit

#endif
