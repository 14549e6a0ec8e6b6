//===- KernelShape.h - What generated code assumes about a launch -*- C++ -*-===//
//
// The block shape is a compile-time constant of the generated code: it makes
// %ntid uniform constants and lets %tid.x be recognised as affine in the lane
// index. The analyses, the code generator and the runtime all read it.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_KERNELSHAPE_H
#define PTXJIT_ABI_KERNELSHAPE_H

#include <cstdint>

namespace ptxjit {

struct KernelShape {
  uint32_t BlockDim[3] = {1, 1, 1};

  uint32_t getNumThreads() const {
    return BlockDim[0] * BlockDim[1] * BlockDim[2];
  }
  bool operator==(const KernelShape &O) const {
    return BlockDim[0] == O.BlockDim[0] && BlockDim[1] == O.BlockDim[1] &&
           BlockDim[2] == O.BlockDim[2];
  }
  bool operator!=(const KernelShape &O) const { return !(*this == O); }
};

} // namespace ptxjit

#endif
