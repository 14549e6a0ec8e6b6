// Copies through tensor maps (TMA): the host encodes 2-D tiled maps of a
// 70 x 100 float matrix with cuTensorMapEncodeTiled, fetched through
// cudaGetDriverEntryPointByVersion (the program does not link libcuda); an
// sm_90a kernel loads boxes with cp.async.bulk.tensor and an mbarrier, dumps
// the shared memory they landed in, and stores them back with the
// shared-to-global form into a matrix of 128-float rows, whose 28 padding
// floats per row must stay untouched (a store writes no element outside
// the tensor). The expected values are computed here from the CUDA rules:
// out-of-bound elements of a load are zeros (or NaN with the NaN fill), and
// the 128-byte swizzle puts the 16-byte chunk c of box row r at chunk
// c ^ (r % 8) of a 1024-byte aligned box. The swizzled input map is
// encoded for another buffer and moved to the input with
// cuTensorMapReplaceAddress.
// REQUIRES: nvcc
// RUN: %nvcc -gencode arch=compute_90a,code=compute_90a %s -o %t
// RUN: ptx-jit exec %t | FileCheck %s
// CHECK: entry point: found
// CHECK-NEXT: misaligned address: 1, box of 300: 1, 128-byte swizzle of a 256-byte row: 1, im2col: 801
// CHECK-NEXT: zero fill: 20 boxes, dump 10240 of 10240 right, matrix 7000 of 7000 right, padding untouched
// CHECK-NEXT: NaN fill: dump 10240 of 10240 right
// CHECK-NEXT: replace address: misaligned 1, not a map 1, aligned 0
// CHECK-NEXT: 128B swizzle: dump 256 of 256 right, matrix 7000 of 7000 right, padding untouched
// CHECK-NEXT: errors: cudaSuccess
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

constexpr int Rows = 70, Cols = 100, Pitch = 128;
constexpr float Sentinel = -7.0f;

typedef CUresult (*EncodeTiledFn)(CUtensorMap *, CUtensorMapDataType,
                                  cuuint32_t, void *, const cuuint64_t *,
                                  const cuuint64_t *, const cuuint32_t *,
                                  const cuuint32_t *, CUtensorMapInterleave,
                                  CUtensorMapSwizzle, CUtensorMapL2promotion,
                                  CUtensorMapFloatOOBfill);
typedef CUresult (*EncodeIm2colFn)(CUtensorMap *, CUtensorMapDataType,
                                   cuuint32_t, void *, const cuuint64_t *,
                                   const cuuint64_t *, const int *, const int *,
                                   cuuint32_t, cuuint32_t, const cuuint32_t *,
                                   CUtensorMapInterleave, CUtensorMapSwizzle,
                                   CUtensorMapL2promotion,
                                   CUtensorMapFloatOOBfill);

static EncodeTiledFn Encode;

static float valueAt(int R, int C) { return R * 1000.0f + C + 0.5f; }

static CUresult encode(CUtensorMap *Map, float *Base, unsigned PitchFloats,
                       unsigned BoxCols, unsigned BoxRows,
                       CUtensorMapSwizzle Swizzle,
                       CUtensorMapFloatOOBfill Fill) {
  cuuint64_t Dims[2] = {Cols, Rows};
  cuuint64_t Strides[1] = {PitchFloats * sizeof(float)};
  cuuint32_t Box[2] = {BoxCols, BoxRows};
  cuuint32_t ElementStrides[2] = {1, 1};
  return Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Base, Dims, Strides,
                Box, ElementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, Swizzle,
                CU_TENSOR_MAP_L2_PROMOTION_NONE, Fill);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ uint32_t sharedAddress(const void *P) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(P));
}

/// Loads the box at (X, Y) of Map into Box (thread 0 issues, all wait).
__device__ void loadBox(const CUtensorMap *Map, void *Box, uint64_t *Bar, int X,
                        int Y, unsigned Bytes) {
  uint32_t B = sharedAddress(Bar), S = sharedAddress(Box);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(B));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(B),
        "r"(Bytes)
        : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile."
        "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(S),
        "l"(Map), "r"(X), "r"(Y), "r"(B)
        : "memory");
  }
  __syncthreads();
  uint32_t Done = 0;
  while (!Done)
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(Done)
                 : "r"(B)
                 : "memory");
}

/// Stores Box to the box at (X, Y) of Map.
__device__ void storeBox(const CUtensorMap *Map, const void *Box, int X,
                         int Y) {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
                 "[%0, {%1, %2}], [%3];" ::"l"(Map),
                 "r"(X), "r"(Y), "r"(sharedAddress(Box))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}
#endif

/// One CTA per 32 x 16 box: box (bx, by) starts at (32 bx, 16 by).
__global__ void tiles(const __grid_constant__ CUtensorMap In,
                      const __grid_constant__ CUtensorMap Out, float *Dump) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ alignas(128) float Box[16][32];
  __shared__ uint64_t Bar;
  int X = blockIdx.x * 32, Y = blockIdx.y * 16;
  loadBox(&In, Box, &Bar, X, Y, sizeof Box);
  float *D = Dump + (blockIdx.y * gridDim.x + blockIdx.x) * 512;
  for (int I = threadIdx.x; I < 512; I += blockDim.x)
    D[I] = Box[I / 32][I % 32];
  storeBox(&Out, Box, X, Y);
#endif
}

/// The 128-byte swizzle: 32 x 8 boxes at (X0 + 32 bx, Y0 + 8 by); the
/// shared memory is dumped as it lies.
__global__ void swizzled(const __grid_constant__ CUtensorMap In,
                         const __grid_constant__ CUtensorMap Out, int X0,
                         int Y0, float *Dump) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ alignas(1024) float Box[8 * 32];
  __shared__ uint64_t Bar;
  int X = X0 + blockIdx.x * 32, Y = Y0 + blockIdx.y * 8;
  loadBox(&In, Box, &Bar, X, Y, sizeof Box);
  if (blockIdx.x == 0 && blockIdx.y == 0)
    for (int I = threadIdx.x; I < 256; I += blockDim.x)
      Dump[I] = Box[I];
  storeBox(&Out, Box, X, Y);
#endif
}

/// Counts the right elements of the padded matrix Out (every element of
/// the tensor must equal the input's) and whether the padding kept the
/// sentinel.
static int checkMatrix(const std::vector<float> &Out, bool &PaddingKept) {
  int Right = 0;
  PaddingKept = true;
  for (int R = 0; R < Rows; ++R)
    for (int C = 0; C < Pitch; ++C) {
      float V = Out[R * Pitch + C];
      if (C < Cols)
        Right += V == valueAt(R, C);
      else
        PaddingKept &= V == Sentinel;
    }
  return Right;
}

int main() {
  cudaDriverEntryPointQueryResult Status;
  void *Fn = nullptr;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Fn, 12000,
                                   cudaEnableDefault, &Status);
  Encode = reinterpret_cast<EncodeTiledFn>(Fn);
  printf("entry point: %s\n",
         Fn && Status == cudaDriverEntryPointSuccess ? "found" : "missing");
  if (!Fn)
    return 1;

  std::vector<float> Host(Rows * Cols);
  for (int R = 0; R < Rows; ++R)
    for (int C = 0; C < Cols; ++C)
      Host[R * Cols + C] = valueAt(R, C);
  float *In, *Out, *Dump;
  cudaMalloc(&In, Host.size() * sizeof(float));
  cudaMalloc(&Out, Rows * Pitch * sizeof(float));
  cudaMalloc(&Dump, 20 * 512 * sizeof(float));
  cudaMemcpy(In, Host.data(), Host.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  std::vector<float> Pad(Rows * Pitch, Sentinel);

  // Arguments the driver refuses, and what ptx-jit does not run.
  alignas(64) CUtensorMap Map, OutMap;
  CUresult Misaligned =
      encode(&Map, In + 1, Cols, 32, 16, CU_TENSOR_MAP_SWIZZLE_NONE,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  CUresult BigBox = encode(&Map, In, Cols, 300, 1, CU_TENSOR_MAP_SWIZZLE_NONE,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  CUresult WideRow = encode(&Map, In, Cols, 64, 8, CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &Fn, 12000,
                                   cudaEnableDefault, &Status);
  cuuint64_t Dims3[3] = {16, 16, 16}, Strides3[2] = {64, 1024};
  int Lower[1] = {0}, Upper[1] = {0};
  cuuint32_t One3[3] = {1, 1, 1};
  CUresult Im2col = reinterpret_cast<EncodeIm2colFn>(Fn)(
      &Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, In, Dims3, Strides3, Lower,
      Upper, 16, 16, One3, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("misaligned address: %d, box of 300: %d, 128-byte swizzle of a "
         "256-byte row: %d, im2col: %d\n",
         Misaligned, BigBox, WideRow, Im2col);

  // 32 x 16 boxes over the whole matrix: 4 x 5 of them, the last column
  // of boxes 28 columns past the edge, the last row 10 rows past it.
  for (int NaNFill = 0; NaNFill < 2; ++NaNFill) {
    cudaMemcpy(Out, Pad.data(), Pad.size() * sizeof(float),
               cudaMemcpyHostToDevice);
    if (encode(&Map, In, Cols, 32, 16, CU_TENSOR_MAP_SWIZZLE_NONE,
               NaNFill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                       : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ||
        encode(&OutMap, Out, Pitch, 32, 16, CU_TENSOR_MAP_SWIZZLE_NONE,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE))
      return printf("encoding failed\n"), 1;
    tiles<<<dim3(4, 5), 128>>>(Map, OutMap, Dump);
    std::vector<float> D(20 * 512), O(Rows * Pitch);
    cudaMemcpy(D.data(), Dump, D.size() * sizeof(float),
               cudaMemcpyDeviceToHost);
    cudaMemcpy(O.data(), Out, O.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int Right = 0;
    for (int BY = 0; BY < 5; ++BY)
      for (int BX = 0; BX < 4; ++BX)
        for (int I = 0; I < 512; ++I) {
          int R = BY * 16 + I / 32, C = BX * 32 + I % 32;
          float V = D[(BY * 4 + BX) * 512 + I];
          bool Inside = R < Rows && C < Cols;
          Right += Inside    ? V == valueAt(R, C)
                   : NaNFill ? std::isnan(V)
                             : V == 0.0f && !std::signbit(V);
        }
    bool Kept;
    int MatrixRight = checkMatrix(O, Kept);
    if (NaNFill)
      printf("NaN fill: dump %d of 10240 right\n", Right);
    else
      printf("zero fill: 20 boxes, dump %d of 10240 right, matrix %d of %d "
             "right, padding %s\n",
             Right, MatrixRight, Rows * Cols, Kept ? "untouched" : "written");
  }

  // The 128-byte swizzle: boxes of 32 x 8 from (-12, -2), so the first
  // hangs off the top-left corner and the last ones off the right and
  // bottom edges; 4 x 10 of them cover the matrix.
  // The input map is encoded for the output and moved to the input by
  // cuTensorMapReplaceAddress, which refuses a misaligned address and 128
  // bytes that are not a map.
  cudaMemcpy(Out, Pad.data(), Pad.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  cudaGetDriverEntryPointByVersion("cuTensorMapReplaceAddress", &Fn, 12000,
                                   cudaEnableDefault, &Status);
  auto Replace = reinterpret_cast<CUresult (*)(CUtensorMap *, void *)>(Fn);
  alignas(64) CUtensorMap Zeros;
  std::memset(&Zeros, 0, sizeof Zeros);
  if (encode(&Map, Out, Cols, 32, 8, CU_TENSOR_MAP_SWIZZLE_128B,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE))
    return printf("encoding failed\n"), 1;
  CUresult ReplaceMisaligned = Replace(&Map, In + 2);
  CUresult ReplaceZeros = Replace(&Zeros, In);
  CUresult Replaced = Replace(&Map, In);
  printf("replace address: misaligned %d, not a map %d, aligned %d\n",
         ReplaceMisaligned, ReplaceZeros, Replaced);
  if (Replaced || encode(&OutMap, Out, Pitch, 32, 8, CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE))
    return printf("encoding failed\n"), 1;
  const int X0 = -12, Y0 = -2;
  swizzled<<<dim3(4, 10), 128>>>(Map, OutMap, X0, Y0, Dump);
  std::vector<float> D(256), O(Rows * Pitch);
  cudaMemcpy(D.data(), Dump, D.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(O.data(), Out, O.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int Right = 0;
  for (int R = 0; R < 8; ++R)
    for (int C = 0; C < 32; ++C) {
      // Element (R, C) of the box: chunk C / 4 of row R moves to chunk
      // (C / 4) ^ R; within the chunk it keeps its place.
      int At = R * 32 + ((C / 4) ^ R) * 4 + C % 4;
      int GR = Y0 + R, GC = X0 + C;
      bool Inside = GR >= 0 && GR < Rows && GC >= 0 && GC < Cols;
      Right += D[At] == (Inside ? valueAt(GR, GC) : 0.0f);
    }
  bool Kept;
  int MatrixRight = checkMatrix(O, Kept);
  printf("128B swizzle: dump %d of 256 right, matrix %d of %d right, padding "
         "%s\n",
         Right, MatrixRight, Rows * Cols, Kept ? "untouched" : "written");
  printf("errors: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
