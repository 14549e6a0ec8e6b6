// Tensor-core instructions through inline PTX, as CUTLASS writes them:
// ldmatrix (.x1/.x2/.x4, .trans) from shared memory feeding
// mma.sync.aligned of several shapes and types, movmatrix, and stmatrix
// (sm_90).
#include <cstdint>

__device__ __forceinline__ uint32_t smemAddress(const void *P) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(P));
}

// One 16x8x16 product per warp: A (16x16, row-major) and B (16x8, stored
// as B^T, 8 rows of 16) staged in shared memory, loaded by ldmatrix.
__global__ void mma_f16_ldmatrix(const uint16_t *A, const uint16_t *Bt,
                                 float *D) {
  __shared__ alignas(16) uint16_t SA[16 * 16];
  __shared__ alignas(16) uint16_t SB[8 * 16];
  int Lane = threadIdx.x % 32;
  for (int I = Lane; I < 256; I += 32)
    SA[I] = A[I];
  for (int I = Lane; I < 128; I += 32)
    SB[I] = Bt[I];
  __syncwarp();
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  uint32_t a0, a1, a2, a3, b0, b1;
  // Lanes 0-15 give rows 0-15 of A's left half, lanes 16-31 of its right.
  const uint16_t *RowA = &SA[(Lane % 16) * 16 + (Lane / 16) * 8];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, "
               "[%4];\n"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(smemAddress(RowA)));
  const uint16_t *RowB = &SB[(Lane % 8) * 16 + ((Lane / 8) % 2) * 8];
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(b0), "=r"(b1)
               : "r"(smemAddress(RowB)));
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  int G = Lane / 4, T = Lane % 4;
  D[G * 8 + 2 * T] = d0;
  D[G * 8 + 2 * T + 1] = d1;
  D[(G + 8) * 8 + 2 * T] = d2;
  D[(G + 8) * 8 + 2 * T + 1] = d3;
#endif
}

// B stored row-major (K x N) needs ldmatrix.trans to become the column
// fragment mma expects.
__global__ void mma_bf16_trans(const uint16_t *A, const uint16_t *B,
                               float *D) {
  __shared__ alignas(16) uint16_t SA[16 * 16];
  __shared__ alignas(16) uint16_t SB[16 * 8];
  int Lane = threadIdx.x % 32;
  for (int I = Lane; I < 256; I += 32)
    SA[I] = A[I];
  for (int I = Lane; I < 128; I += 32)
    SB[I] = B[I];
  __syncwarp();
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  uint32_t a[4], b[2];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, "
               "[%4];\n"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(smemAddress(&SA[(Lane % 16) * 16 + (Lane / 16) * 8])));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, "
               "[%2];\n"
               : "=r"(b[0]), "=r"(b[1])
               : "r"(smemAddress(&SB[(Lane % 16) * 8])));
  float d[4] = {0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]));
  for (int I = 0; I < 4; ++I)
    D[Lane * 4 + I] = d[I];
#endif
}

__global__ void mma_shapes(const uint32_t *A, const uint32_t *B,
                           const uint32_t *C, uint32_t *D) {
  int Lane = threadIdx.x % 32;
  uint32_t a[4], b[2], c[4];
  for (int I = 0; I < 4; ++I) {
    a[I] = A[I * 32 + Lane];
    c[I] = C[I * 32 + Lane];
  }
  b[0] = B[Lane];
  b[1] = B[32 + Lane];
  uint32_t d[4];
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 750
  // .f16 accumulators, m16n8k8 (sm_75).
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, "
               "{%2, %3}, {%4}, {%5, %6};\n"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
  D[Lane] = d[0];
  D[32 + Lane] = d[1];
  // Integers (sm_75): m8n8k16 .s8 and m8n8k32 .u4, and .b1.
  asm volatile("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32 "
               "{%0, %1}, {%2}, {%3}, {%4, %5};\n"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
  D[64 + Lane] = d[0] + d[1];
  asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32 {%0, %1}, "
               "{%2}, {%3}, {%4, %5};\n"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(a[1]), "r"(b[1]), "r"(c[2]), "r"(c[3]));
  D[96 + Lane] = d[0] ^ d[1];
  asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc "
               "{%0, %1}, {%2}, {%3}, {%4, %5};\n"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(a[2]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
  D[128 + Lane] = d[0] - d[1];
  // movmatrix (sm_75): transposes an 8x8 tile held by the warp.
  uint32_t t;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\n"
               : "=r"(t)
               : "r"(a[3]));
  D[160 + Lane] = t;
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  // sm_80 shapes: tf32, .s8 m16n8k32, .u4 m16n8k64, .b1 m16n8k256, f64.
  float f[4] = {0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
               : "r"(a[0] & 0xffffe000u), "r"(a[1] & 0xffffe000u),
                 "r"(a[2] & 0xffffe000u), "r"(a[3] & 0xffffe000u),
                 "r"(b[0] & 0xffffe000u), "r"(b[1] & 0xffffe000u));
  D[192 + Lane] = __float_as_uint(f[0] + f[1] + f[2] + f[3]);
  int s[4] = {int(c[0]), int(c[1]), int(c[2]), int(c[3])};
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]));
  asm volatile("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.s4.s32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]));
  asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]));
  D[224 + Lane] = s[0] + s[1] + s[2] + s[3];
  double x = __int_as_float(a[0] & 0x3fffffff), y = b[0] & 0xff;
  double z[2] = {double(c[0] & 0xfff), double(c[1] & 0xfff)};
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, "
               "{%2}, {%3}, {%0, %1};\n"
               : "+d"(z[0]), "+d"(z[1])
               : "d"(x), "d"(y));
  D[256 + Lane] = uint32_t(z[0] + z[1]);
#endif
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
// stmatrix (sm_90): the inverse of ldmatrix.
__global__ void stmatrix_x4(const uint32_t *R, uint16_t *Out) {
  __shared__ alignas(16) uint16_t S[4 * 64];
  int Lane = threadIdx.x % 32;
  uint32_t r0 = R[Lane], r1 = R[32 + Lane], r2 = R[64 + Lane],
           r3 = R[96 + Lane];
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], "
               "{%1, %2, %3, %4};\n" ::"r"(smemAddress(&S[Lane * 8])),
               "r"(r0), "r"(r1), "r"(r2), "r"(r3));
  __syncwarp();
  for (int I = Lane; I < 256; I += 32)
    Out[I] = S[I];
}
#endif
