//===- FiberTest.cpp - Context switches preserve what they must -----------===//

#include "ptxjit/Runtime/Fiber.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <xmmintrin.h>

using namespace ptxjit::runtime;

extern "C" void ptxjit_test_probe(const uint64_t In[6], void (*Fn)(void *),
                                  void *Arg, uint64_t Out[6]);

namespace {

/// Owns a fiber and its stack for one test.
struct TestFiber {
  FiberStackPool Pool;
  Fiber F;
  explicit TestFiber(Fiber::EntryFn Entry, void *Arg,
                     size_t StackSize = FiberStackPool::DefaultStackSize)
      : Pool(StackSize) {
    F.reset(llvm::cantFail(Pool.acquire()), Entry, Arg);
  }
  ~TestFiber() { Pool.release(F.takeStack()); }
};

uint16_t getX87CW() {
  uint16_t CW;
  __asm__ volatile("fnstcw %0" : "=m"(CW));
  return CW;
}

void setX87CW(uint16_t CW) { __asm__ volatile("fldcw %0" : : "m"(CW)); }

TEST(FiberTest, RunsAndYields) {
  struct State {
    Fiber *Self;
    std::string Trace;
  } S;
  TestFiber T(
      [](void *P) {
        auto &S = *static_cast<State *>(P);
        for (int I = 0; I < 3; ++I) {
          S.Trace += 'f';
          S.Self->yieldToScheduler();
        }
        S.Trace += 'e';
      },
      &S);
  S.Self = &T.F;
  while (T.F.isRunnable()) {
    S.Trace += 'm';
    T.F.resume();
  }
  EXPECT_TRUE(T.F.isFinished());
  EXPECT_EQ(S.Trace, "mfmfmfme");
}

// Many live integer and floating-point values across switches, while the
// other side computes with different ones.
TEST(FiberTest, LocalsSurviveSwitches) {
  struct State {
    Fiber *Self;
    uint64_t IntResult = 0;
    double FPResult = 0;
  } S;
  TestFiber T(
      [](void *P) {
        auto &S = *static_cast<State *>(P);
        uint64_t A = 1, B = 2, C = 3, D = 4, E = 5, F = 6, G = 7;
        double X = 1.5, Y = 2.25, Z = -3.0, W = 0.125;
        for (int I = 0; I < 50; ++I) {
          A = A * 3 + B;
          B ^= C << 1;
          C += D * E;
          D = D * 7 + F;
          E += G;
          F ^= A;
          G += 11;
          X = X * 0.5 + Y;
          Y = std::sqrt(Y + W);
          Z = Z - X * W;
          W = W * 1.01;
          S.Self->yieldToScheduler();
        }
        S.IntResult = A + B + C + D + E + F + G;
        S.FPResult = X + Y + Z + W;
      },
      &S);
  S.Self = &T.F;
  volatile double Noise = 0;
  while (T.F.isRunnable()) {
    for (int I = 0; I < 10; ++I)
      Noise = Noise * 1.5 + std::sin(double(I));
    T.F.resume();
  }

  uint64_t A = 1, B = 2, C = 3, D = 4, E = 5, F = 6, G = 7;
  double X = 1.5, Y = 2.25, Z = -3.0, W = 0.125;
  for (int I = 0; I < 50; ++I) {
    A = A * 3 + B;
    B ^= C << 1;
    C += D * E;
    D = D * 7 + F;
    E += G;
    F ^= A;
    G += 11;
    X = X * 0.5 + Y;
    Y = std::sqrt(Y + W);
    Z = Z - X * W;
    W = W * 1.01;
  }
  EXPECT_EQ(S.IntResult, A + B + C + D + E + F + G);
  EXPECT_EQ(S.FPResult, X + Y + Z + W);
}

// rbx, rbp and r12-r15 hold different values on each side of the switch.
TEST(FiberTest, CalleeSavedRegistersSurviveSwitches) {
  struct State {
    Fiber *Self;
    uint64_t In[6] = {0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666};
    uint64_t Out[6] = {};
  } S;
  TestFiber T(
      [](void *P) {
        auto &S = *static_cast<State *>(P);
        ptxjit_test_probe(
            S.In, [](void *P) { static_cast<Fiber *>(P)->yieldToScheduler(); },
            S.Self, S.Out);
      },
      &S);
  S.Self = &T.F;

  const uint64_t MainIn[6] = {0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6};
  uint64_t MainOut[6] = {};
  auto Resume = [](void *F) { static_cast<Fiber *>(F)->resume(); };
  // First resume: the fiber stops inside its probe. Second: it finishes.
  ptxjit_test_probe(MainIn, Resume, &T.F, MainOut);
  ptxjit_test_probe(MainIn, Resume, &T.F, MainOut);
  ASSERT_TRUE(T.F.isFinished());
  for (int I = 0; I < 6; ++I) {
    EXPECT_EQ(S.Out[I], S.In[I]) << "register " << I << " in the fiber";
    EXPECT_EQ(MainOut[I], MainIn[I]) << "register " << I << " in main";
  }
}

TEST(FiberTest, FloatingPointControlIsPerFiber) {
  struct State {
    Fiber *Self;
    unsigned FiberMXCSRAfterYield = 0;
    uint16_t FiberCWAfterYield = 0;
    float Quotient = 0;
  } S;
  const unsigned MainMXCSR = _mm_getcsr();
  const uint16_t MainCW = getX87CW();
  // Round toward zero, flush to zero; x87 single precision.
  const unsigned FiberMXCSR = (MainMXCSR & ~0x6000u) | 0x6000u | 0x8000u;
  const uint16_t FiberCW = uint16_t((MainCW & ~0x300u) | 0x000u);

  TestFiber T(
      [](void *P) {
        auto &S = *static_cast<State *>(P);
        unsigned M = _mm_getcsr();
        _mm_setcsr((M & ~0x6000u) | 0x6000u | 0x8000u);
        setX87CW(uint16_t(getX87CW() & ~0x300u));
        S.Self->yieldToScheduler();
        S.FiberMXCSRAfterYield = _mm_getcsr();
        S.FiberCWAfterYield = getX87CW();
        volatile float One = 1.0f, Three = 3.0f;
        S.Quotient = One / Three;
      },
      &S);
  S.Self = &T.F;
  T.F.resume();
  // The fiber changed its control words; ours are untouched.
  EXPECT_EQ(_mm_getcsr(), MainMXCSR);
  EXPECT_EQ(getX87CW(), MainCW);
  T.F.resume();
  ASSERT_TRUE(T.F.isFinished());
  EXPECT_EQ(S.FiberMXCSRAfterYield & ~0x3Fu, FiberMXCSR & ~0x3Fu);
  EXPECT_EQ(S.FiberCWAfterYield, FiberCW);
  // 1/3 rounded toward zero is one ulp below round-to-nearest.
  volatile float One = 1.0f, Three = 3.0f;
  float Nearest = One / Three;
  EXPECT_EQ(S.Quotient, std::nextafter(Nearest, 0.0f));
  EXPECT_EQ(_mm_getcsr() & ~0x3Fu, MainMXCSR & ~0x3Fu);
}

TEST(FiberTest, NewFiberStartsWithCreatorsControlState) {
  const unsigned Saved = _mm_getcsr();
  _mm_setcsr((Saved & ~0x6000u) | 0x2000u); // round down
  unsigned Seen = 0;
  TestFiber T([](void *P) { *static_cast<unsigned *>(P) = _mm_getcsr(); },
              &Seen);
  _mm_setcsr(Saved);
  T.F.resume();
  EXPECT_EQ(Seen & 0x6000u, 0x2000u);
  EXPECT_EQ(_mm_getcsr(), Saved);
}

// switchTo goes straight to another fiber; a yield then returns to the
// caller of resume().
TEST(FiberTest, SwitchToAnotherFiber) {
  struct State {
    Fiber *A, *B;
    std::string Trace;
  } S;
  TestFiber TA(
      [](void *P) {
        auto &S = *static_cast<State *>(P);
        S.Trace += "a1 ";
        S.A->switchTo(*S.B);
        S.Trace += "a2 ";
      },
      &S);
  TestFiber TB(
      [](void *P) {
        auto &S = *static_cast<State *>(P);
        S.Trace += "b1 ";
        S.B->yieldToScheduler();
        S.Trace += "b2 ";
        S.B->switchTo(*S.A);
        S.Trace += "b3 ";
      },
      &S);
  S.A = &TA.F;
  S.B = &TB.F;
  TA.F.resume(); // a1, switch to b1, b yields
  S.Trace += "m ";
  TB.F.resume(); // b2, switch to a2, a finishes
  S.Trace += "m ";
  EXPECT_TRUE(TA.F.isFinished());
  TB.F.resume(); // b3
  EXPECT_TRUE(TB.F.isFinished());
  EXPECT_EQ(S.Trace, "a1 b1 m b2 a2 m b3 ");
}

// finishAndSwitchTo ends a fiber and runs the next one in its place; when
// that one finishes, control returns to the caller of resume().
TEST(FiberTest, FinishAndSwitchTo) {
  struct State {
    Fiber *A, *B;
    std::string Trace;
  } S;
  TestFiber TA(
      [](void *P) {
        auto &S = *static_cast<State *>(P);
        S.Trace += "a1 ";
        S.A->finishAndSwitchTo(*S.B);
      },
      &S);
  TestFiber TB(
      [](void *P) {
        auto &S = *static_cast<State *>(P);
        S.Trace += "b1 ";
      },
      &S);
  S.A = &TA.F;
  S.B = &TB.F;
  TA.F.resume();
  S.Trace += "m";
  EXPECT_TRUE(TA.F.isFinished());
  EXPECT_TRUE(TB.F.isFinished());
  EXPECT_EQ(S.Trace, "a1 b1 m");
  // A finished fiber's stack can be reused.
  int Ran = 0;
  TA.F.reset(TA.F.stack(), [](void *P) { *static_cast<int *>(P) = 7; }, &Ran);
  TA.F.resume();
  EXPECT_EQ(Ran, 7);
}

// Library code that needs an aligned stack (varargs with doubles) works.
TEST(FiberTest, StackIsAlignedForLibraryCalls) {
  char Buffer[64] = {};
  TestFiber T(
      [](void *P) {
        alignas(32) double V[4] = {1.5, 2.5, 3.5, 4.5};
        std::snprintf(static_cast<char *>(P), 64, "%.1f %.1f %.1f %.1f", V[0],
                      V[1], V[2], V[3]);
      },
      Buffer);
  T.F.resume();
  EXPECT_STREQ(Buffer, "1.5 2.5 3.5 4.5");
}

TEST(FiberTest, ResetReusesStack) {
  int Count = 0;
  TestFiber T([](void *P) { ++*static_cast<int *>(P); }, &Count);
  FiberStack Stack = T.F.stack();
  for (int I = 0; I < 100; ++I) {
    T.F.resume();
    ASSERT_TRUE(T.F.isFinished());
    T.F.reset(Stack, [](void *P) { ++*static_cast<int *>(P); }, &Count);
  }
  EXPECT_EQ(Count, 100);
}

// An abandoned fiber (suspended, never finished) leaves nothing behind.
TEST(FiberTest, AbandonSuspendedFiber) {
  struct State {
    Fiber *Self;
    int Runs = 0;
  } S;
  auto Entry = [](void *P) {
    auto &S = *static_cast<State *>(P);
    ++S.Runs;
    S.Self->yieldToScheduler();
    ADD_FAILURE() << "an abandoned fiber ran on";
  };
  TestFiber T(Entry, &S);
  S.Self = &T.F;
  for (int I = 0; I < 10; ++I) {
    T.F.resume();
    ASSERT_TRUE(T.F.isRunnable());
    T.F.reset(T.F.stack(), Entry, &S);
  }
  EXPECT_EQ(S.Runs, 10);
}

#ifndef __has_feature
#define __has_feature(X) 0
#endif
#if !__has_feature(address_sanitizer)
int recurse(volatile char *Prev, int Depth) {
  volatile char Frame[1024];
  Frame[0] = Prev ? Prev[0] + 1 : 0;
  return Depth ? recurse(Frame, Depth - 1) + Frame[0] : Frame[0];
}

TEST(FiberDeathTest, GuardPageStopsOverflow) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        TestFiber T([](void *) { recurse(nullptr, 1000); }, nullptr, 64 * 1024);
        T.F.resume();
      },
      "");
}
#endif

} // namespace
