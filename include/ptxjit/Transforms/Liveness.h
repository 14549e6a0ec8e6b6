//===- Liveness.h - Which PTX registers are live at block starts -*- C++
//-*-===//
//
// A register is live at the start of a block if some path from there reads
// it before every lane's value is overwritten. Only a write that covers
// every lane kills: an unguarded one in a block that runs with all of the
// warp's live lanes (the caller says which blocks do). What a warp must
// keep across a barrier where it returns to the runtime is what is live
// there.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_LIVENESS_H
#define PTXJIT_TRANSFORMS_LIVENESS_H

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace ptxjit {
namespace ptx {
struct Function;
} // namespace ptx

namespace transforms {

class PTXCFG;

class RegisterLiveness {
public:
  /// WritesAllLanes(B): block B always runs with every live lane of the
  /// warp, so its unguarded writes overwrite every lane.
  RegisterLiveness(const ptx::Function &F, const PTXCFG &CFG,
                   llvm::function_ref<bool(unsigned Block)> WritesAllLanes);

  /// True if Reg may be read, starting at Block, before it is overwritten.
  bool isLiveIn(unsigned Block, llvm::StringRef Reg) const;

private:
  llvm::StringMap<unsigned> Index;
  std::vector<llvm::BitVector> LiveIn;
};

} // namespace transforms
} // namespace ptxjit

#endif
