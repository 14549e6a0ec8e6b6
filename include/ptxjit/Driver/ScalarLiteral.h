//===- ScalarLiteral.h - Numbers written in an --arg SPEC -------*- C++ -*-===//
//
// A scalar SPEC, a `fill:VALUE` and each value of an `[v0,v1,...]` list is a
// literal: a decimal or `0x` hex integer, optionally negative, or a float
// (`1.5`, `-2e-3`, `0x1.8p1`, `inf`, `-inf`, `nan`).
//
// Converting a literal to an element type:
//  * An integer into an N-bit integer type must lie in [-2^(N-1), 2^N - 1],
//    whatever the type's signedness, and is stored in two's complement: `-1`
//    into u32 is 0xffffffff and `0xffffffff` into s32 is -1, as PTX's untyped
//    `.b32` registers would have it. Anything outside that range is an error.
//  * A float into an integer type is an error.
//  * Either kind into a float type rounds to nearest, ties to even, directly
//    from the decimal (no double rounding). A finite value that rounds to
//    infinity (1e39 into f32, 70000 into f16) is an error.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_SCALARLITERAL_H
#define PTXJIT_DRIVER_SCALARLITERAL_H

#include "ptxjit/Driver/ElementType.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace ptxjit {
namespace driver {

struct ScalarLiteral {
  enum KindTy : uint8_t { Integer, Float };

  KindTy Kind = Integer;
  /// For an integer, its value is (IsNegative ? -Magnitude : Magnitude).
  bool IsNegative = false;
  uint64_t Magnitude = 0;
  /// The literal as written, for messages and for float conversion.
  std::string Text;
};

/// Parses one literal; surrounding whitespace is ignored.
llvm::Expected<ScalarLiteral> parseScalarLiteral(llvm::StringRef Text);

/// Converts \p Lit to \p Ty under the rules above and returns the element's
/// bit pattern in the low getElementBits(Ty) bits. The message of an error
/// says what does not fit and why, but names no parameter: callers add that.
llvm::Expected<uint64_t> convertLiteral(const ScalarLiteral &Lit,
                                        ElementType Ty);

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_SCALARLITERAL_H
