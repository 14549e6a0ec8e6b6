// A GEMM shaped as sm_90 kernels write it: tiles of A and B come into
// 128-byte swizzled shared memory by tensor-map copies (cp.async.bulk.tensor
// with an mbarrier, two stages so the next tile loads while this one is
// multiplied), and one warpgroup per 64x64 tile of C multiplies them with
// wgmma.mma_async from shared-memory descriptors, stepping the descriptors'
// start address 32 bytes along K inside each swizzled row. Tensor maps come
// from cuTensorMapEncodeTiled through cudaGetDriverEntryPointByVersion, as
// CUTLASS gets them. Integer inputs make every sum exact, so the host
// product is the reference, element for element; a second run with a K
// that is not a multiple of the tile checks that the copies fill the rows
// past the matrix with zeros.
// REQUIRES: nvcc
// RUN: %nvcc-sm90a %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: 256x128x256: 32768 of 32768 right
// CHECK-NEXT: 128x192x200: 24576 of 24576 right
#include <cstdint>
#include <cstdio>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <vector>

constexpr int TileM = 64, TileN = 64, TileK = 64; // 64 .f16 = 128 bytes
constexpr int Stages = 2;
constexpr int TileBytes = TileM * TileK * 2;

struct alignas(1024) SharedTiles {
  __half A[Stages][TileM * TileK];
  __half B[Stages][TileN * TileK];
  uint64_t Full[Stages];
};

__device__ uint32_t smem(const void *P) {
  return uint32_t(__cvta_generic_to_shared(P));
}

/// K-major, 128-byte swizzled: LBO unused (1), SBO 1024 (8 rows x 128).
__device__ uint64_t descriptor(const void *P) {
  return uint64_t((smem(P) & 0x3ffff) >> 4) | uint64_t(1) << 16 |
         uint64_t(1024 >> 4) << 32 | uint64_t(1) << 62;
}

__device__ void loadTile(const CUtensorMap *Map, void *Dst, uint64_t *Bar,
                         int Col, int Row) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :
               : "r"(smem(Dst)), "l"(Map), "r"(Col), "r"(Row), "r"(smem(Bar))
               : "memory");
}

__device__ void wait(uint64_t *Bar, uint32_t Parity) {
  asm volatile("{\n.reg .pred done;\nwait_%=:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra wait_%=;\n}"
               :
               : "r"(smem(Bar)), "r"(Parity)
               : "memory");
}

#define D32                                                                    \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "    \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "     \
  "%30, %31}"
#define R4(d, i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define D32ARGS(d)                                                             \
  R4(d, 0), R4(d, 4), R4(d, 8), R4(d, 12), R4(d, 16), R4(d, 20), R4(d, 24),    \
      R4(d, 28)

__device__ void mma(float (&D)[32], uint64_t DA, uint64_t DB) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " D32
               ", %32, %33, 1, 1, 1, 0, 0;"
               : D32ARGS(D)
               : "l"(DA), "l"(DB));
}

/// C (M x N, row-major) = A (M x K, row-major) * B, B given as Bt (N x K,
/// row-major): both operands K-major.
__global__ void __launch_bounds__(128)
    gemm(const __grid_constant__ CUtensorMap MapA,
         const __grid_constant__ CUtensorMap MapB, float *C, int N, int K) {
  // The swizzle pattern repeats every 1024 bytes: align the tiles to it.
  extern __shared__ __align__(16) unsigned char Raw[];
  SharedTiles &S =
      *reinterpret_cast<SharedTiles *>(Raw + (1024 - smem(Raw) % 1024) % 1024);
  int Tid = threadIdx.x, Warp = Tid / 32, Lane = Tid % 32;
  int Row0 = blockIdx.y * TileM, Col0 = blockIdx.x * TileN;
  int Tiles = (K + TileK - 1) / TileK;
  if (Tid == 0) {
    for (int I = 0; I < Stages; ++I)
      asm volatile(
          "mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&S.Full[I])));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  auto Issue = [&](int T) {
    int Stage = T % Stages;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     smem(&S.Full[Stage])),
                 "r"(2 * TileBytes));
    loadTile(&MapA, S.A[Stage], &S.Full[Stage], T * TileK, Row0);
    loadTile(&MapB, S.B[Stage], &S.Full[Stage], T * TileK, Col0);
  };
  if (Tid == 0)
    for (int T = 0; T < Stages && T < Tiles; ++T)
      Issue(T);

  float D[32] = {};
  for (int T = 0; T < Tiles; ++T) {
    int Stage = T % Stages;
    wait(&S.Full[Stage], (T / Stages) & 1);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int KK = 0; KK < TileK / 16; ++KK)
      mma(D, descriptor(reinterpret_cast<char *>(S.A[Stage]) + 32 * KK),
          descriptor(reinterpret_cast<char *>(S.B[Stage]) + 32 * KK));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads(); // every warp is done with this stage
    if (Tid == 0 && T + Stages < Tiles)
      Issue(T + Stages);
  }
  for (int I = 0; I < 32; ++I) {
    int Row = Row0 + 16 * Warp + Lane / 4 + 8 * (I >> 1 & 1);
    int Col = Col0 + Lane % 4 * 2 + (I & 1) + 8 * (I >> 2);
    C[Row * N + Col] = D[I];
  }
}

static PFN_cuTensorMapEncodeTiled_v12000 getEncode() {
  void *Fn = nullptr;
  cudaDriverEntryPointQueryResult Q;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Fn, 12000,
                                       cudaEnableDefault, &Q) != cudaSuccess ||
      Q != cudaDriverEntryPointSuccess)
    return nullptr;
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Fn);
}

/// A map of a Rows x K row-major .f16 matrix, boxes of 64 rows x 64 K,
/// 128-byte swizzled, zeros past the edges.
static bool makeMap(CUtensorMap &Map, const __half *Data, int Rows, int K) {
  static PFN_cuTensorMapEncodeTiled_v12000 Encode = getEncode();
  if (!Encode)
    return false;
  cuuint64_t Dims[2] = {cuuint64_t(K), cuuint64_t(Rows)};
  cuuint64_t Strides[1] = {cuuint64_t(K) * 2};
  cuuint32_t Box[2] = {TileK, 64}, Steps[2] = {1, 1};
  return Encode(&Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                const_cast<__half *>(Data), Dims, Strides, Box, Steps,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

static int run(int M, int N, int K) {
  // K rows of 16 bytes: the tensor map's strides are multiples of 16.
  std::vector<__half> A(M * K), Bt(N * K);
  std::vector<int> AV(M * K), BV(N * K);
  for (int I = 0; I < M * K; ++I) {
    AV[I] = (I * 7 + I / K) % 9 - 4;
    A[I] = __int2half_rn(AV[I]);
  }
  for (int I = 0; I < N * K; ++I) {
    BV[I] = (I * 5 + 3 * (I / K)) % 7 - 3;
    Bt[I] = __int2half_rn(BV[I]);
  }
  __half *DA, *DB;
  float *DC;
  cudaMalloc(&DA, A.size() * 2);
  cudaMalloc(&DB, Bt.size() * 2);
  cudaMalloc(&DC, size_t(M) * N * 4);
  cudaMemcpy(DA, A.data(), A.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(DB, Bt.data(), Bt.size() * 2, cudaMemcpyHostToDevice);
  cudaMemset(DC, 0xff, size_t(M) * N * 4);
  CUtensorMap MapA, MapB;
  if (!makeMap(MapA, DA, M, K) || !makeMap(MapB, DB, N, K)) {
    std::printf("%dx%dx%d: no tensor map\n", M, N, K);
    return 1;
  }
  size_t Shared = sizeof(SharedTiles) + 1024;
  cudaFuncSetAttribute(gemm, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       int(Shared));
  gemm<<<dim3(N / TileN, M / TileM), 128, Shared>>>(MapA, MapB, DC, N, K);
  cudaError_t Err = cudaGetLastError();
  std::vector<float> C(size_t(M) * N);
  if (Err == cudaSuccess)
    Err = cudaMemcpy(C.data(), DC, C.size() * 4, cudaMemcpyDeviceToHost);
  cudaFree(DA);
  cudaFree(DB);
  cudaFree(DC);
  if (Err != cudaSuccess) {
    std::printf("%dx%dx%d: %s\n", M, N, K, cudaGetErrorString(Err));
    return 1;
  }
  int Right = 0;
  for (int R = 0; R < M; ++R)
    for (int Col = 0; Col < N; ++Col) {
      long Sum = 0;
      for (int L = 0; L < K; ++L)
        Sum += long(AV[R * K + L]) * BV[Col * K + L];
      Right += C[size_t(R) * N + Col] == float(Sum);
    }
  std::printf("%dx%dx%d: %d of %d right\n", M, N, K, Right, M * N);
  return Right != M * N;
}

int main() {
  int Failures = run(256, 128, 256);
  Failures += run(128, 192, 200);
  return Failures != 0;
}
