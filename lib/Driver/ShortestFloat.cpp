//===- ShortestFloat.cpp - Shortest round-trip decimal floats -------------===//
//
// For P = 1, 2, ... digits, take the P-digit decimal nearest to the value
// (printf's "%.*e" is exact) and keep the first that reads back to the same
// bits. Where the value is a power of two its round-trip interval is lopsided,
// so the nearest P-digit decimal may miss it while its neighbour on the other
// side hits it; the neighbours are therefore tried too. A 17-digit decimal
// always reads back, as every value here is exactly a double.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Driver/ShortestFloat.h"
#include "ptxjit/Driver/FloatFormats.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace ptxjit::driver;

namespace {
/// The decimal Mantissa * 10^Exponent.
struct Decimal {
  uint64_t Mantissa;
  int Exponent;

  std::string toScientific() const {
    return std::to_string(Mantissa) + "e" + std::to_string(Exponent);
  }
};
} // namespace

/// Whether a decimal string (no sign) reads back to the value being printed.
using RoundTripFn = function_ref<bool(const char *)>;

/// The P-digit decimal nearest to \p V, which is finite and positive.
static Decimal nearestDecimal(double V, int P) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*e", P - 1, V);
  // Buf is "d.ddde[+-]xx".
  uint64_t Mantissa = 0;
  const char *C = Buf;
  for (; *C != 'e'; ++C)
    if (*C != '.')
      Mantissa = Mantissa * 10 + (*C - '0');
  int Exponent = std::atoi(C + 1);
  return {Mantissa, Exponent - (P - 1)};
}

static std::string render(Decimal D) {
  while (D.Mantissa % 10 == 0) {
    D.Mantissa /= 10;
    ++D.Exponent;
  }
  std::string Digits = std::to_string(D.Mantissa);
  int Len = static_cast<int>(Digits.size());
  // The exponent of the leading digit: value = d.ddd * 10^Lead.
  int Lead = D.Exponent + Len - 1;
  if (Lead < -4 || Lead >= 16) {
    std::string Out = Digits.substr(0, 1);
    if (Len > 1)
      Out += "." + Digits.substr(1);
    return Out + "e" + std::to_string(Lead);
  }
  if (D.Exponent >= 0)
    return Digits + std::string(D.Exponent, '0');
  if (Lead >= 0)
    return Digits.substr(0, Lead + 1) + "." + Digits.substr(Lead + 1);
  return "0." + std::string(-Lead - 1, '0') + Digits;
}

static std::string formatShortest(double V, RoundTripFn RoundTrips) {
  if (std::isnan(V))
    return "nan";
  std::string Sign = std::signbit(V) ? "-" : "";
  V = std::fabs(V);
  if (std::isinf(V))
    return Sign + "inf";
  if (V == 0)
    return Sign + "0";
  for (int P = 1; P < 17; ++P) {
    Decimal Nearest = nearestDecimal(V, P);
    if (RoundTrips(Nearest.toScientific().c_str()))
      return Sign + render(Nearest);
    for (int64_t Step : {1, -1}) {
      Decimal Neighbour = {Nearest.Mantissa + Step, Nearest.Exponent};
      if (Neighbour.Mantissa != 0 &&
          RoundTrips(Neighbour.toScientific().c_str()))
        return Sign + render(Neighbour);
    }
  }
  return Sign + render(nearestDecimal(V, 17));
}

std::string ptxjit::driver::formatShortestDouble(double V) {
  double Abs = std::fabs(V);
  return formatShortest(
      V, [Abs](const char *Text) { return std::strtod(Text, nullptr) == Abs; });
}

std::string ptxjit::driver::formatShortestFloat(float V) {
  float Abs = std::fabs(V);
  return formatShortest(
      V, [Abs](const char *Text) { return std::strtof(Text, nullptr) == Abs; });
}

/// Reads \p Text into \p Sem, correctly rounded, as the bit pattern.
static uint64_t parseBits(const fltSemantics &Sem, const char *Text) {
  APFloat F(Sem);
  auto Status = F.convertFromString(Text, APFloat::rmNearestTiesToEven);
  if (!Status) {
    consumeError(Status.takeError());
    return ~uint64_t(0);
  }
  return F.bitcastToAPInt().getZExtValue();
}

std::string ptxjit::driver::formatShortestHalf(uint16_t Bits) {
  uint16_t AbsBits = Bits & 0x7fff;
  return formatShortest(halfBitsToFloat(Bits), [AbsBits](const char *Text) {
    return parseBits(APFloat::IEEEhalf(), Text) == AbsBits;
  });
}

std::string ptxjit::driver::formatShortestBFloat(uint16_t Bits) {
  uint16_t AbsBits = Bits & 0x7fff;
  return formatShortest(bfloatBitsToFloat(Bits), [AbsBits](const char *Text) {
    return parseBits(APFloat::BFloat(), Text) == AbsBits;
  });
}
