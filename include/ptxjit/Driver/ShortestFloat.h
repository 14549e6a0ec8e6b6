//===- ShortestFloat.h - Shortest round-trip decimal floats -----*- C++ -*-===//
//
// Prints a floating-point value as the shortest decimal that, read back with
// round-to-nearest-even into the same format, gives the same bits. That is
// how `ptx-jit run` prints float buffers, so what it prints can be pasted
// back into a SPEC.
//
// Form: positional when the decimal exponent is in [-4, 16) ("0.1", "100",
// "0.0001"), otherwise scientific with the shortest exponent ("1e-5",
// "3.4028235e38"); "-0" for negative zero; "inf" and "-inf"; every NaN prints
// as "nan".
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_SHORTESTFLOAT_H
#define PTXJIT_DRIVER_SHORTESTFLOAT_H

#include <cstdint>
#include <string>

namespace ptxjit {
namespace driver {

std::string formatShortestDouble(double V);
std::string formatShortestFloat(float V);
/// \p Bits is an IEEE binary16 value.
std::string formatShortestHalf(uint16_t Bits);
/// \p Bits is a bfloat16 value.
std::string formatShortestBFloat(uint16_t Bits);

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_SHORTESTFLOAT_H
