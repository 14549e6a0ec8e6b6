//===- FloatEnvironment.h - The floating-point state kernels run in -*- C++
//-*-===//
//
// The PTX ISA fixes each instruction's rounding and denormal handling in
// the instruction (.rn, .ftz, ...), so a kernel's results must not depend
// on the control state of the host thread that runs it. Host programs do
// change that state: one built with -ffast-math sets flush-to-zero and
// denormals-are-zero at start-up (crtfastmath), and worker threads inherit
// it. Each thread that runs CTAs therefore switches to the IEEE defaults for
// the launch, and back afterwards. Warp code never changes them: directed
// rounding goes through exact helpers, not the rounding mode.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_FLOATENVIRONMENT_H
#define PTXJIT_RUNTIME_FLOATENVIRONMENT_H

#include <cstdint>

namespace ptxjit {
namespace runtime {

/// MXCSR with every exception masked, round to nearest, no flush-to-zero
/// and no denormals-are-zero; the x87 control word likewise (64-bit
/// precision), both as the SysV ABI starts a process.
constexpr uint32_t DefaultMXCSR = 0x1f80;
constexpr uint16_t DefaultX87ControlWord = 0x037f;

/// Sets the thread's floating-point control state to the defaults while it
/// lives and restores the previous one (and its exception flags) after.
class KernelFloatEnvironment {
public:
  KernelFloatEnvironment();
  ~KernelFloatEnvironment();
  KernelFloatEnvironment(const KernelFloatEnvironment &) = delete;
  KernelFloatEnvironment &operator=(const KernelFloatEnvironment &) = delete;

private:
  uint32_t SavedMXCSR;
  uint16_t SavedX87ControlWord;
};

} // namespace runtime
} // namespace ptxjit

#endif
