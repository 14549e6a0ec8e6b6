//===- GraphAPIHelpers.h - Shared by the runtime's graph files --*- C++ -*-===//

#ifndef PTXJIT_LIB_CUDA_GRAPHAPIHELPERS_H
#define PTXJIT_LIB_CUDA_GRAPHAPIHELPERS_H

#include "Graph.h"

namespace ptxjit {
namespace cuda {

/// A kernel node from the runtime's parameters (func is a host stub).
llvm::Expected<NodeParams> makeRuntimeKernelNode(const cudaKernelNodeParams *P);
void getKernelNodeParams(const KernelNode &K, cudaKernelNodeParams &P);
/// The device memory of Symbol at Offset, checked to hold Count bytes.
llvm::Expected<char *> getSymbolRange(const void *Symbol, size_t Count,
                                      size_t Offset);
/// A 1D copy to Symbol from Src, or from Symbol to Dst.
llvm::Expected<NodeParams> makeSymbolCopyNode(const void *Symbol,
                                              const void *Src, void *Dst,
                                              size_t Count, size_t Offset,
                                              int Kind, bool ToSymbol);
/// Edges other than default ones (all zero) are not supported.
llvm::Error checkDefaultEdges(const cudaGraphEdgeData *Data, size_t N);

} // namespace cuda
} // namespace ptxjit

#endif
