//===- DevicePrintf.h - Device printf and assert ----------------*- C++ -*-===//

#ifndef PTXJIT_RUNTIME_DEVICEPRINTF_H
#define PTXJIT_RUNTIME_DEVICEPRINTF_H

#include <string>

namespace ptxjit {

/// Formats a device printf: Format as in C, Args as vprintf packs them (each
/// argument aligned to its size; floats promoted to double).
std::string formatDevicePrintf(const char *Format, const char *Args);

/// Writes out what device printf buffered (call after a launch, before the
/// host prints).
void flushDeviceOutput();

} // namespace ptxjit

#endif
