//===- Interrupt.h - Stopping launches on Ctrl-C ----------------*- C++ -*-===//
//
// A process-wide request, raised from a signal handler, that launches which
// asked for it (LaunchOptions::StopOnInterrupt) stop as a timeout stops
// them: each CTA is cancelled where its warps are and the launch fails with
// the lines they were at.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DEVICE_INTERRUPT_H
#define PTXJIT_DEVICE_INTERRUPT_H

namespace ptxjit {
namespace device {

/// Makes the first SIGINT (or SIGTERM) request the stop, through LLVM's
/// interrupt hook; LLVM then restores the default handlers, so a second
/// Ctrl-C ends the process at once.
void stopLaunchesOnInterrupt();

/// Requests the stop (async-signal-safe).
void requestInterrupt();

/// Whether the stop was requested.
bool interruptRequested();

} // namespace device
} // namespace ptxjit

#endif
