//===- ParamDesc.h - Kernel parameters as --arg sees them -------*- C++ -*-===//
//
// What `ptx-jit run` needs to know about a kernel parameter to bind an --arg
// to it, independent of the PTX AST. The tool fills it from the declaration:
//
//   .param .u64 p               Int,   8 bytes, unsigned
//   .param .s32 p               Int,   4 bytes, signed
//   .param .b32 p               Int,   4 bytes, unsigned
//   .param .f32 p               Float, 4 bytes   (.f16: 2, .f64: 8)
//   .param .align 8 .b8 p[16]   Blob, 16 bytes   (a struct passed by value)
//
// A scalar SPEC may bind to Int and Float parameters; a buffer SPEC to an Int
// parameter of 8 bytes, which receives the buffer's address. No SPEC binds to
// a Blob: the grammar has no way to spell a struct.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_PARAMDESC_H
#define PTXJIT_DRIVER_PARAMDESC_H

#include "ptxjit/Driver/ArgSpec.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace ptxjit {
namespace driver {

struct ParamDesc {
  enum KindTy : uint8_t { Int, Float, Blob };

  /// The PTX parameter name, e.g. "add_param_1".
  std::string Name;
  KindTy Kind = Int;
  /// 1, 2, 4 or 8 for Int; 2, 4 or 8 for Float; anything for Blob.
  unsigned SizeInBytes = 0;
  /// Int only: .sN rather than .uN/.bN. It changes no conversion (see
  /// ScalarLiteral.h); it is kept for messages.
  bool IsSigned = false;

  static ParamDesc getInt(std::string Name, unsigned Bits, bool IsSigned) {
    return {std::move(Name), Int, Bits / 8, IsSigned};
  }
  static ParamDesc getFloat(std::string Name, unsigned Bits) {
    return {std::move(Name), Float, Bits / 8, false};
  }
  static ParamDesc getBlob(std::string Name, unsigned SizeInBytes) {
    return {std::move(Name), Blob, SizeInBytes, false};
  }

  /// The PTX type as written in messages: ".u8", ".f32", ".b8[16]".
  std::string getTypeName() const;
};

/// The bytes of a scalar argument: the literal of \p Arg converted to the
/// type of \p Param, little-endian, SizeInBytes long. Errors name the
/// parameter: binding a buffer, a Blob parameter, a float literal for an
/// integer parameter, or a value that does not fit.
llvm::Expected<std::vector<uint8_t>> encodeScalar(const ArgSpec &Arg,
                                                  const ParamDesc &Param);

/// Succeeds if a buffer's address may be passed in \p Param (an 8-byte Int);
/// otherwise an error naming the parameter.
llvm::Error checkBufferParam(const ParamDesc &Param);

/// The bytes of a buffer argument: its device address, little-endian.
std::vector<uint8_t> encodePointer(uint64_t Address);

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_PARAMDESC_H
