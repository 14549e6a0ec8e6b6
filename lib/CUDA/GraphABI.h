//===- GraphABI.h - CUDA graphs' types, as programs see them ----*- C++ -*-===//
//
// The types of stream capture and CUDA graphs in both APIs, laid out as
// CUDA 13's driver_types.h and cuda.h lay them out (checked below). The
// runtime's and the driver's handles are the same objects (Graph.h).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_GRAPHABI_H
#define PTXJIT_LIB_CUDA_GRAPHABI_H

#include "CUDAABI.h"

extern "C" {

struct CUgraph_st;
struct CUgraphNode_st;
struct CUgraphExec_st;
typedef CUgraph_st *cudaGraph_t;
typedef CUgraphNode_st *cudaGraphNode_t;
typedef CUgraphExec_st *cudaGraphExec_t;

enum cudaStreamCaptureStatus : int {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2,
};

enum cudaStreamCaptureMode : int {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2,
};

/// cudaStreamUpdateCaptureDependencies's flags.
enum : unsigned {
  cudaStreamAddCaptureDependencies = 0x0,
  cudaStreamSetCaptureDependencies = 0x1,
};

/// cudaEventRecordWithFlags's and cudaStreamWaitEvent's flags.
enum : unsigned {
  cudaEventRecordExternal = 0x1,
  cudaEventWaitExternal = 0x1,
};

/// Also CUgraphNodeType.
enum cudaGraphNodeType : int {
  cudaGraphNodeTypeKernel = 0x00,
  cudaGraphNodeTypeMemcpy = 0x01,
  cudaGraphNodeTypeMemset = 0x02,
  cudaGraphNodeTypeHost = 0x03,
  cudaGraphNodeTypeGraph = 0x04,
  cudaGraphNodeTypeEmpty = 0x05,
  cudaGraphNodeTypeWaitEvent = 0x06,
  cudaGraphNodeTypeEventRecord = 0x07,
};

struct cudaKernelNodeParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};

struct cudaMemsetParams {
  void *dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};

struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void *userData;
};

/// Also CUDA_GRAPH_EDGE_DATA; only the default edge (all zero) exists here.
struct cudaGraphEdgeData {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
};

enum cudaGraphInstantiateFlags : unsigned long long {
  cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
  cudaGraphInstantiateFlagUpload = 2,
  cudaGraphInstantiateFlagDeviceLaunch = 4,
  cudaGraphInstantiateFlagUseNodePriority = 8,
};

enum cudaGraphInstantiateResult : int {
  cudaGraphInstantiateSuccess = 0,
  cudaGraphInstantiateError = 1,
  cudaGraphInstantiateInvalidStructure = 2,
  cudaGraphInstantiateNodeOperationNotSupported = 3,
};

/// Also CUDA_GRAPH_INSTANTIATE_PARAMS.
struct cudaGraphInstantiateParams {
  unsigned long long flags;
  cudaStream_t uploadStream;
  cudaGraphNode_t errNode_out;
  cudaGraphInstantiateResult result_out;
};

enum cudaGraphExecUpdateResult : int {
  cudaGraphExecUpdateSuccess = 0x0,
  cudaGraphExecUpdateError = 0x1,
  cudaGraphExecUpdateErrorTopologyChanged = 0x2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
  cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5,
  cudaGraphExecUpdateErrorNotSupported = 0x6,
};

/// Also CUgraphExecUpdateResultInfo.
struct cudaGraphExecUpdateResultInfo {
  cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
};

// The driver API's own parameter structs (cuda.h).

struct CUDA_KERNEL_NODE_PARAMS {
  void *func; ///< CUfunction
  unsigned int gridDimX, gridDimY, gridDimZ;
  unsigned int blockDimX, blockDimY, blockDimZ;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
  void *kern; ///< CUkernel, used when func is null
  void *ctx;
};

struct CUDA_MEMSET_NODE_PARAMS {
  unsigned long long dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};

} // extern "C"

static_assert(sizeof(cudaKernelNodeParams) == 56 &&
                  offsetof(cudaKernelNodeParams, sharedMemBytes) == 32 &&
                  offsetof(cudaKernelNodeParams, kernelParams) == 40 &&
                  offsetof(cudaKernelNodeParams, extra) == 48,
              "cudaKernelNodeParams's layout");
static_assert(sizeof(cudaMemsetParams) == 40 &&
                  offsetof(cudaMemsetParams, value) == 16 &&
                  offsetof(cudaMemsetParams, elementSize) == 20 &&
                  offsetof(cudaMemsetParams, width) == 24 &&
                  offsetof(cudaMemsetParams, height) == 32,
              "cudaMemsetParams's layout");
static_assert(sizeof(cudaHostNodeParams) == 16, "cudaHostNodeParams");
static_assert(sizeof(cudaGraphEdgeData) == 8 &&
                  offsetof(cudaGraphEdgeData, type) == 2,
              "cudaGraphEdgeData's layout");
static_assert(sizeof(cudaGraphInstantiateParams) == 32 &&
                  offsetof(cudaGraphInstantiateParams, errNode_out) == 16 &&
                  offsetof(cudaGraphInstantiateParams, result_out) == 24,
              "cudaGraphInstantiateParams's layout");
static_assert(sizeof(cudaGraphExecUpdateResultInfo) == 24 &&
                  offsetof(cudaGraphExecUpdateResultInfo, errorNode) == 8 &&
                  offsetof(cudaGraphExecUpdateResultInfo, errorFromNode) == 16,
              "cudaGraphExecUpdateResultInfo's layout");
static_assert(sizeof(CUDA_KERNEL_NODE_PARAMS) == 72 &&
                  offsetof(CUDA_KERNEL_NODE_PARAMS, sharedMemBytes) == 32 &&
                  offsetof(CUDA_KERNEL_NODE_PARAMS, kernelParams) == 40 &&
                  offsetof(CUDA_KERNEL_NODE_PARAMS, extra) == 48 &&
                  offsetof(CUDA_KERNEL_NODE_PARAMS, kern) == 56,
              "CUDA_KERNEL_NODE_PARAMS's layout");
static_assert(sizeof(CUDA_MEMSET_NODE_PARAMS) == 40,
              "CUDA_MEMSET_NODE_PARAMS's layout");

#endif
