//===- FloatEnvironmentTest.cpp - The state kernels run in ----------------===//

#include "ptxjit/Runtime/FloatEnvironment.h"
#include "gtest/gtest.h"
#include <cstring>
#include <xmmintrin.h>

using namespace ptxjit::runtime;

namespace {

uint16_t getX87CW() {
  uint16_t CW;
  __asm__ volatile("fnstcw %0" : "=m"(CW));
  return CW;
}

void setX87CW(uint16_t CW) { __asm__ volatile("fldcw %0" : : "m"(CW)); }

unsigned bitsOf(float F) {
  unsigned B;
  std::memcpy(&B, &F, sizeof B);
  return B;
}

/// The exception flags: sticky, not control.
constexpr unsigned FlagBits = 0x3f;

TEST(KernelFloatEnvironmentTest, DefaultsWhileAliveThenRestores) {
  const unsigned Saved = _mm_getcsr();
  const uint16_t SavedCW = getX87CW();
  // Flush to zero, denormals are zero, round toward zero; x87 at single
  // precision and rounding down.
  const unsigned Host = (Saved & ~0x6000u) | 0x8000u | 0x0040u | 0x6000u;
  const uint16_t HostCW = uint16_t((SavedCW & ~0xf00u) | 0x400u);
  _mm_setcsr(Host);
  setX87CW(HostCW);
  volatile float Normal = 0x1p-126f, Half = 0.5f;
  volatile float One = 1.0f, Three = 3.0f;
  unsigned Flushed, Kept, Third;
  {
    KernelFloatEnvironment Env;
    EXPECT_EQ(_mm_getcsr() & ~FlagBits, DefaultMXCSR & ~FlagBits);
    EXPECT_EQ(getX87CW(), DefaultX87ControlWord);
    // 2^-126 / 2 is the denormal 2^-127; 1/3 rounds to nearest.
    Kept = bitsOf(Normal * Half);
    Third = bitsOf(One / Three);
  }
  Flushed = bitsOf(Normal * Half);
  EXPECT_EQ(Kept, 0x00400000u);
  EXPECT_EQ(Third, 0x3eaaaaabu);
  EXPECT_EQ(Flushed, 0u);
  EXPECT_EQ(_mm_getcsr() & ~FlagBits, Host & ~FlagBits);
  EXPECT_EQ(getX87CW(), HostCW);
  _mm_setcsr(Saved);
  setX87CW(SavedCW);
}

} // namespace
