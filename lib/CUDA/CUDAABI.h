//===- CUDAABI.h - The CUDA runtime's types, as programs see them -*- C++
//-*-===//
//
// The types of the CUDA runtime API that cross the library boundary, laid
// out as CUDA 13's headers lay them out, so that programs compiled against
// NVIDIA's headers call this library unchanged. Only what the library's
// functions take and return is here; the toolkit is not needed to build.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_CUDAABI_H
#define PTXJIT_LIB_CUDA_CUDAABI_H

#include <cstddef>
#include <cstdint>

namespace ptxjit {
namespace cuda {
class StreamObject;
class EventObject;
struct RegisteredFunction;
} // namespace cuda
} // namespace ptxjit

extern "C" {

/// cudaError_t: the values of ptxjit::device::ErrorCode.
typedef int cudaError_t;
enum : int {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorNotReady = 600,
};

struct dim3 {
  unsigned x, y, z;
};
struct uint3 {
  unsigned x, y, z;
};

// Opaque handles are our own objects.
struct CUstream_st;
struct CUevent_st;
struct CUkern_st;
typedef CUstream_st *cudaStream_t;
typedef CUevent_st *cudaEvent_t;
typedef CUkern_st *cudaKernel_t;

enum cudaMemcpyKind : int {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaMemoryType : int {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3,
};

struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

enum cudaFuncAttribute : int {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
};

struct cudaUUID_t {
  char bytes[16];
};

/// CUDA 13's struct cudaDeviceProp, field for field.
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

// Arrays, textures and surfaces (driver_types.h, texture_types.h).
struct cudaArray; // an ImageArray (ImageArrays.h)
typedef cudaArray *cudaArray_t;
typedef const cudaArray *cudaArray_const_t;
struct cudaMipmappedArray; // a MipmappedImageArray (ImageArrays.h)
typedef cudaMipmappedArray *cudaMipmappedArray_t;
typedef const cudaMipmappedArray *cudaMipmappedArray_const_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

enum cudaChannelFormatKind : int {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
};

struct cudaChannelFormatDesc {
  int x, y, z, w;
  cudaChannelFormatKind f;
};

enum : unsigned {
  cudaArrayDefault = 0x00,
  cudaArrayLayered = 0x01,
  cudaArraySurfaceLoadStore = 0x02,
  cudaArrayCubemap = 0x04,
  cudaArrayTextureGather = 0x08,
};

struct cudaPitchedPtr {
  void *ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};

struct cudaExtent {
  size_t width, height, depth;
};

struct cudaPos {
  size_t x, y, z;
};

struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};

enum cudaResourceType : int {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3,
};

struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      void *mipmap;
    } mipmap;
    struct {
      void *devPtr;
      cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
};

enum cudaTextureAddressMode : int {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};
enum cudaTextureFilterMode : int {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1,
};
enum cudaTextureReadMode : int {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1,
};

struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

struct cudaResourceViewDesc; // only null is accepted

typedef void (*cudaStreamCallback_t)(cudaStream_t Stream, cudaError_t Status,
                                     void *UserData);
typedef void (*cudaHostFn_t)(void *UserData);

} // extern "C"

// CUDA 13's sizes, which programs compiled against its headers rely on.
/// cudaLaunchAttributeID (the driver's CUlaunchAttributeID has the same
/// values).
enum cudaLaunchAttributeID : int {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10,
  cudaLaunchAttributePreferredClusterDimension = 11,
  cudaLaunchAttributeLaunchCompletionEvent = 12,
  cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
  cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
  cudaLaunchAttributeNvlinkUtilCentricScheduling = 16,
};

/// The members of cudaLaunchAttributeValue the library reads.
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  struct {
    unsigned x, y, z;
  } clusterDim;
  int programmaticStreamSerializationAllowed;
  int priority;
};

/// Also the driver's CUlaunchAttribute, field for field.
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};

struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned numAttrs;
};

static_assert(sizeof(cudaDeviceProp) == 1008, "cudaDeviceProp's layout");
static_assert(sizeof(cudaLaunchAttributeValue) == 64,
              "cudaLaunchAttributeValue");
static_assert(sizeof(cudaLaunchAttribute) == 72 &&
                  offsetof(cudaLaunchAttribute, val) == 8,
              "cudaLaunchAttribute's layout");
static_assert(sizeof(cudaLaunchConfig_t) == 56 &&
                  offsetof(cudaLaunchConfig_t, dynamicSmemBytes) == 24 &&
                  offsetof(cudaLaunchConfig_t, stream) == 32 &&
                  offsetof(cudaLaunchConfig_t, attrs) == 40 &&
                  offsetof(cudaLaunchConfig_t, numAttrs) == 48,
              "cudaLaunchConfig_t's layout");
static_assert(offsetof(cudaDeviceProp, sharedMemPerBlockOptin) == 672,
              "cudaDeviceProp's layout");
static_assert(offsetof(cudaDeviceProp, reserved) == 784,
              "cudaDeviceProp's layout");
static_assert(sizeof(cudaFuncAttributes) == 144, "cudaFuncAttributes");
static_assert(sizeof(cudaChannelFormatDesc) == 20, "cudaChannelFormatDesc");
static_assert(sizeof(cudaResourceDesc) == 144 &&
                  offsetof(cudaResourceDesc, res) == 8 &&
                  offsetof(cudaResourceDesc, flags) == 136 &&
                  offsetof(cudaResourceDesc, res.pitch2D.pitchInBytes) == 56,
              "cudaResourceDesc's layout");
static_assert(sizeof(cudaTextureDesc) == 72 &&
                  offsetof(cudaTextureDesc, normalizedCoords) == 40,
              "cudaTextureDesc's layout");
static_assert(sizeof(cudaMemcpy3DParms) == 160 &&
                  offsetof(cudaMemcpy3DParms, kind) == 152,
              "cudaMemcpy3DParms's layout");

#endif
