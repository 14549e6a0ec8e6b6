//===- InstructionHelpers.cpp - Rare instructions done lane by lane -------===//
//
// Instructions too rare to deserve vector code are computed per lane by
// these functions, exactly as the PTX ISA's pseudocode states.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/ABI/RuntimeEntryPoints.h"

/// fns.b32 d, mask, base, offset: the position of the offset-th set bit of
/// mask counting from bit base (upwards for offset > 0, downwards for
/// offset < 0); 0xffffffff if there is none.
extern "C" uint32_t ptxjit_rt_fns(uint32_t Mask, uint32_t Base,
                                  int32_t Offset) {
  if (Base > 31)
    return 0xffffffff; // undefined in the ISA
  if (Offset == 0)
    return (Mask >> Base & 1) ? Base : 0xffffffff;
  int64_t Count = (Offset < 0 ? -int64_t(Offset) : int64_t(Offset)) - 1;
  int Inc = Offset > 0 ? 1 : -1;
  for (int Pos = int(Base); Pos >= 0 && Pos < 32; Pos += Inc) {
    if (!(Mask >> Pos & 1))
      continue;
    if (Count == 0)
      return uint32_t(Pos);
    --Count;
  }
  return 0xffffffff;
}
