//===- FloatFormats.cpp - f16 and bf16 conversions ------------------------===//

#include "ptxjit/Driver/FloatFormats.h"
#include "llvm/ADT/APFloat.h"

using namespace llvm;
using namespace ptxjit::driver;

static uint16_t narrow(APFloat V, const fltSemantics &Sem) {
  bool LosesInfo;
  V.convert(Sem, APFloat::rmNearestTiesToEven, &LosesInfo);
  return static_cast<uint16_t>(V.bitcastToAPInt().getZExtValue());
}

static float widen(uint16_t Bits, const fltSemantics &Sem) {
  APFloat V(Sem, APInt(16, Bits));
  bool LosesInfo;
  V.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &LosesInfo);
  return V.convertToFloat();
}

uint16_t ptxjit::driver::doubleToHalfBits(double V) {
  return narrow(APFloat(V), APFloat::IEEEhalf());
}

uint16_t ptxjit::driver::doubleToBFloatBits(double V) {
  return narrow(APFloat(V), APFloat::BFloat());
}

uint16_t ptxjit::driver::floatToHalfBits(float V) {
  return narrow(APFloat(V), APFloat::IEEEhalf());
}

uint16_t ptxjit::driver::floatToBFloatBits(float V) {
  return narrow(APFloat(V), APFloat::BFloat());
}

float ptxjit::driver::halfBitsToFloat(uint16_t Bits) {
  return widen(Bits, APFloat::IEEEhalf());
}

float ptxjit::driver::bfloatBitsToFloat(uint16_t Bits) {
  return widen(Bits, APFloat::BFloat());
}
