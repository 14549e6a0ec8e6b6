//===- ScalarLiteral.cpp - Numbers written in an --arg SPEC ---------------===//

#include "ptxjit/Driver/ScalarLiteral.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;
using namespace ptxjit::driver;

/// Splits off a leading sign; returns whether it was '-'.
static bool consumeSign(StringRef &Body) {
  if (Body.consume_front("-"))
    return true;
  Body.consume_front("+");
  return false;
}

static bool isInfinity(StringRef Body) {
  return Body.equals_insensitive("inf") || Body.equals_insensitive("infinity");
}

static bool isNaN(StringRef Body) { return Body.equals_insensitive("nan"); }

/// DIGITS [. DIGITS] [e [+-] DIGITS], or . DIGITS [e ...].
static bool isDecimalFloat(StringRef Body) {
  StringRef Integer = Body.take_while(isDigit);
  Body = Body.drop_front(Integer.size());
  StringRef Fraction;
  if (Body.consume_front("."))
    Fraction = Body.take_while(isDigit);
  Body = Body.drop_front(Fraction.size());
  if (Integer.empty() && Fraction.empty())
    return false;
  if (Body.consume_front_insensitive("e")) {
    if (!Body.consume_front("-"))
      Body.consume_front("+");
    return !Body.empty() && all_of(Body, isDigit);
  }
  return Body.empty();
}

static bool isValidHexFloat(StringRef Body) {
  APFloat Check(APFloat::IEEEdouble());
  Expected<APFloat::opStatus> Status =
      Check.convertFromString(Body, APFloat::rmNearestTiesToEven);
  if (Status)
    return true;
  consumeError(Status.takeError());
  return false;
}

Expected<ScalarLiteral> ptxjit::driver::parseScalarLiteral(StringRef Text) {
  Text = Text.trim();
  ScalarLiteral Lit;
  Lit.Text = Text.str();
  if (Text.empty())
    return createStringError("expected a number, found nothing");

  StringRef Body = Text;
  Lit.IsNegative = consumeSign(Body);
  if (isInfinity(Body) || isNaN(Body)) {
    Lit.Kind = ScalarLiteral::Float;
    return Lit;
  }

  StringRef Digits = Body;
  unsigned Radix = 10;
  if (Digits.consume_front_insensitive("0x"))
    Radix = 16;
  bool IsInteger = !Digits.empty() && all_of(Digits, [Radix](char C) {
    return Radix == 16 ? isHexDigit(C) : isDigit(C);
  });
  if (IsInteger) {
    if (Digits.getAsInteger(Radix, Lit.Magnitude))
      return createStringError("integer '%s' does not fit in 64 bits",
                               Lit.Text.c_str());
    return Lit;
  }

  // Anything else must be a float: decimal ("1.5", "-2e-3", ".5") or hex
  // ("0x1.8p1", whose syntax APFloat checks).
  Lit.Kind = ScalarLiteral::Float;
  bool IsHex = Body.starts_with_insensitive("0x");
  if (IsHex ? !isValidHexFloat(Body) : !isDecimalFloat(Body))
    return createStringError("'%s' is not a number (expected a decimal or 0x "
                             "hex integer, or a float such as 1.5, -2e-3, "
                             "inf, nan)",
                             Lit.Text.c_str());
  return Lit;
}

static Expected<uint64_t> convertToInteger(const ScalarLiteral &Lit,
                                           ElementType Ty) {
  StringRef Name = getElementTypeName(Ty);
  if (Lit.Kind == ScalarLiteral::Float)
    return createStringError("'%s' is not an integer, but %s is an integer "
                             "type",
                             Lit.Text.c_str(), Name.data());
  unsigned Bits = getElementBits(Ty);
  uint64_t Mask = Bits == 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
  uint64_t MaxNegative = uint64_t(1) << (Bits - 1);
  if (Lit.IsNegative ? Lit.Magnitude > MaxNegative : Lit.Magnitude > Mask)
    return createStringError("'%s' does not fit in %s (accepted: -%llu to "
                             "%llu)",
                             Lit.Text.c_str(), Name.data(),
                             static_cast<unsigned long long>(MaxNegative),
                             static_cast<unsigned long long>(Mask));
  uint64_t Value = Lit.IsNegative ? 0 - Lit.Magnitude : Lit.Magnitude;
  return Value & Mask;
}

static Expected<uint64_t> convertToFloat(const ScalarLiteral &Lit,
                                         ElementType Ty) {
  const fltSemantics &Sem = getFloatSemantics(Ty);
  APFloat Value(Sem);
  APFloat::opStatus Status = APFloat::opOK;
  StringRef Body = Lit.Text;
  consumeSign(Body);
  if (Lit.Kind == ScalarLiteral::Integer) {
    Status = Value.convertFromAPInt(APInt(64, Lit.Magnitude),
                                    /*IsSigned=*/false,
                                    APFloat::rmNearestTiesToEven);
    // "-0" is negative zero, as the buffer printer writes it.
    if (Lit.IsNegative)
      Value.changeSign();
  } else if (isInfinity(Body)) {
    Value = APFloat::getInf(Sem, Lit.IsNegative);
  } else if (isNaN(Body)) {
    Value = APFloat::getNaN(Sem, Lit.IsNegative);
  } else {
    Expected<APFloat::opStatus> Parsed =
        Value.convertFromString(Lit.Text, APFloat::rmNearestTiesToEven);
    if (!Parsed)
      return Parsed.takeError();
    Status = *Parsed;
  }
  if (Status & APFloat::opOverflow)
    return createStringError("'%s' is too large for %s", Lit.Text.c_str(),
                             getElementTypeName(Ty).data());
  return Value.bitcastToAPInt().getZExtValue();
}

Expected<uint64_t> ptxjit::driver::convertLiteral(const ScalarLiteral &Lit,
                                                  ElementType Ty) {
  if (isFloatElement(Ty))
    return convertToFloat(Lit, Ty);
  return convertToInteger(Lit, Ty);
}
