//===- FloatFormats.h - f16 and bf16 conversions ----------------*- C++ -*-===//
//
// Conversions between the 16-bit float formats (IEEE binary16 "f16" and
// bfloat16 "bf16"), held as their bit patterns, and float/double. Narrowing
// rounds to nearest, ties to even, in one step (no double rounding), with
// subnormals, overflow to infinity and NaN handled as IEEE 754 says; a NaN
// stays a (quiet) NaN. Widening is exact. Built on llvm::APFloat.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_FLOATFORMATS_H
#define PTXJIT_DRIVER_FLOATFORMATS_H

#include <cstdint>

namespace ptxjit {
namespace driver {

uint16_t doubleToHalfBits(double V);
uint16_t doubleToBFloatBits(double V);
uint16_t floatToHalfBits(float V);
uint16_t floatToBFloatBits(float V);

/// Exact: every f16 and bf16 value is a float.
float halfBitsToFloat(uint16_t Bits);
float bfloatBitsToFloat(uint16_t Bits);

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_FLOATFORMATS_H
