//===- FloatEnvironment.cpp - The floating-point state kernels run in -----===//

#include "ptxjit/Runtime/FloatEnvironment.h"
#include <xmmintrin.h>

using namespace ptxjit::runtime;

static uint16_t getX87ControlWord() {
  uint16_t CW;
  __asm__ volatile("fnstcw %0" : "=m"(CW));
  return CW;
}

static void setX87ControlWord(uint16_t CW) {
  __asm__ volatile("fldcw %0" : : "m"(CW));
}

KernelFloatEnvironment::KernelFloatEnvironment()
    : SavedMXCSR(_mm_getcsr()), SavedX87ControlWord(getX87ControlWord()) {
  _mm_setcsr(DefaultMXCSR);
  setX87ControlWord(DefaultX87ControlWord);
}

KernelFloatEnvironment::~KernelFloatEnvironment() {
  _mm_setcsr(SavedMXCSR);
  setX87ControlWord(SavedX87ControlWord);
}
