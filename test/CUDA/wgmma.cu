// wgmma.mma_async (sm_90a) of one warpgroup, m64n32 in two K steps, with
// A and B placed in shared memory in each canonical layout the PTX ISA
// describes ("Shared Memory Matrix Layout": K-major and MN-major, without
// swizzling and with 32, 64 and 128-byte swizzling, the swizzle applied to
// the shared-memory address as CuTe's Swizzle<B,4,3>), or A in registers
// (mma's A layout, "Register Fragments for wgmma"). Every element type:
// .f16 (.f32 and .f16 accumulators, imm-scale-a -1, scale-d 0), .bf16,
// .tf32, .e4m3 x .e5m2, .s8 x .u8 with .satfinite, .b1 with .and.popc.
// Inputs are small integers, so every sum is exact in any order, and the
// host computes each product from the ISA's definition.
// REQUIRES: nvcc
// RUN: %nvcc-sm90a %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: f16 f32, A K-major, B K-major: 2048 of 2048 right
// CHECK-NEXT: f16 f32, A K-major 128B, B K-major 128B: 2048 of 2048 right
// CHECK-NEXT: f16 f32, A K-major 64B, B K-major 32B: 2048 of 2048 right
// CHECK-NEXT: f16 f32 scale-a -1, A M-major 128B, B N-major: 2048 of 2048 right
// CHECK-NEXT: f16 f32, A M-major, B N-major 64B: 2048 of 2048 right
// CHECK-NEXT: f16 f32 scale-d 0, A registers, B N-major 128B: 2048 of 2048 right
// CHECK-NEXT: f16 f16, A K-major 128B, B K-major: 2048 of 2048 right
// CHECK-NEXT: bf16 f32, A K-major 32B, B K-major 64B: 2048 of 2048 right
// CHECK-NEXT: tf32 f32, A K-major 128B, B K-major: 2048 of 2048 right
// CHECK-NEXT: e4m3*e5m2 f32, A K-major, B K-major 128B: 2048 of 2048 right
// CHECK-NEXT: s8*u8 s32 satfinite, A K-major 64B, B K-major 128B: 2048 of 2048 right
// CHECK-NEXT: b1 s32 and.popc, A K-major 128B, B K-major: 2048 of 2048 right
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <vector>

constexpr int M = 64, N = 32, Steps = 2;
constexpr int SharedBytes = 16384; // per operand

enum Op { F16F32, F16F32Neg, F16F32Regs, F16F16, BF16, TF32, FP8, S8U8, B1 };
enum Swizzle { None, B128, B64, B32 }; // the descriptor's encoding

struct Layout {
  int Mode;     // Swizzle
  bool MNMajor; // else K-major
};

struct Case {
  const char *Name;
  Op Kind;
  Layout A, B;
  bool ARegisters;
  bool ScaleD; // scale-d of the first step
};

/// The bits of K one instruction takes: always 32 bytes of a K-major row.
__host__ __device__ int elementBits(Op K) {
  switch (K) {
  case TF32:
    return 32;
  case FP8:
  case S8U8:
    return 8;
  case B1:
    return 1;
  default:
    return 16;
  }
}
__host__ __device__ int stepK(Op K) { return 256 / elementBits(K); }

__host__ __device__ unsigned span(int Mode) {
  return Mode == B128 ? 128 : Mode == B64 ? 64 : Mode == B32 ? 32 : 16;
}

/// CuTe's Swizzle<B,4,3> on a byte offset (from a 1024-byte aligned base).
__host__ __device__ unsigned swizzle(unsigned Off, int Mode) {
  unsigned Bits = Mode == B128 ? 3 : Mode == B64 ? 2 : Mode == B32 ? 1 : 0;
  return Off ^ ((Off >> 7 & ((1u << Bits) - 1)) << 4);
}

/// Where an operand of Rows M (or N) indices and RowBytes bytes of K is
/// placed, and the LBO and SBO its descriptors carry. K-major: core
/// matrices of 8 rows x 16 bytes, or swizzle atoms of 8 rows x W bytes
/// (W-byte K blocks one after another, each holding all rows). MN-major
/// (16-bit): core matrices of 8 K rows x 8 elements, or atoms of 8 K rows x
/// W bytes of M (N) elements.
struct Placement {
  Layout L;
  int Rows, KCount;

  __device__ unsigned lbo(unsigned KBytes) const {
    if (!L.MNMajor)
      return L.Mode == None ? 128 : 16; // unused when swizzled
    return L.Mode == None ? Rows / 8 * 128 : 8 * span(L.Mode);
  }
  __device__ unsigned sbo(unsigned KBytes) const {
    if (!L.MNMajor)
      return L.Mode == None ? KBytes / 16 * 128 : 8 * span(L.Mode);
    if (L.Mode == None)
      return 128;
    unsigned Per = span(L.Mode) / 2, Blocks = (Rows + Per - 1) / Per;
    return Blocks * 8 * span(L.Mode);
  }
  /// K-major: the byte of row R at byte KB of its K; MN-major: the first
  /// byte of element (R, K).
  __device__ unsigned offset(int R, int KOrByte, unsigned KBytes) const {
    unsigned W = span(L.Mode), Off;
    if (!L.MNMajor) {
      unsigned KB = KOrByte;
      if (L.Mode == None)
        Off = R / 8 * sbo(KBytes) + KB / 16 * 128 + R % 8 * 16 + KB % 16;
      else
        Off = KB / W * (Rows * W) + R / 8 * (8 * W) + R % 8 * W + KB % W;
    } else {
      int K = KOrByte;
      if (L.Mode == None) {
        Off = R / 8 * 128 + K / 8 * lbo(KBytes) + K % 8 * 16 + R % 8 * 2;
      } else {
        unsigned Per = W / 2;
        Off = K / 8 * sbo(KBytes) + R / Per * lbo(KBytes) + K % 8 * W +
              R % Per * 2;
      }
    }
    return swizzle(Off, L.Mode);
  }
  /// Where step S's descriptor starts.
  __device__ unsigned start(int S, Op Kind) const {
    if (!L.MNMajor) {
      unsigned KB = 32 * S, W = span(L.Mode);
      return L.Mode == None ? KB / 16 * 128 : KB / W * (Rows * W) + KB % W;
    }
    unsigned KGroups = stepK(Kind) / 8 * S;
    return KGroups * (L.Mode == None ? lbo(0) : sbo(0));
  }
};

__device__ uint64_t descriptor(const void *Smem, unsigned LBO, unsigned SBO,
                               int Mode) {
  uint32_t A = uint32_t(__cvta_generic_to_shared(Smem));
  return uint64_t((A & 0x3ffff) >> 4) | uint64_t(LBO >> 4) << 16 |
         uint64_t(SBO >> 4) << 32 | uint64_t(Mode) << 62;
}

#define D16                                                                    \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define D16ARGS(d)                                                             \
  "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),      \
      "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]),             \
      "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
#define SCALE_D(n) "{\n.reg .pred p;\nsetp.ne.b32 p, %" #n ", 0;\n"

template <int ScaleA, int TransA, int TransB>
__device__ void mmaF16(uint32_t (&D)[16], uint64_t DA, uint64_t DB, int SD) {
  asm volatile(
      SCALE_D(18) "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 " D16
                  ", %16, %17, p, %19, 1, %20, %21;\n}\n"
      : D16ARGS(D)
      : "l"(DA), "l"(DB), "r"(SD), "n"(ScaleA), "n"(TransA), "n"(TransB));
}

__device__ void mmaF16Regs(uint32_t (&D)[16], const uint32_t (&A)[4],
                           uint64_t DB, int SD) {
  asm volatile(
      SCALE_D(21) "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 " D16
                  ", {%16, %17, %18, %19}, %20, p, 1, 1, 1;\n}\n"
      : D16ARGS(D)
      : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "l"(DB), "r"(SD));
}

__device__ void mmaF16F16(uint32_t (&D)[16], uint64_t DA, uint64_t DB, int SD) {
  asm volatile(
      SCALE_D(
          10) "wgmma.mma_async.sync.aligned.m64n32k16.f16.f16.f16 "
              "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;\n}\n"
      : "+r"(D[0]), "+r"(D[1]), "+r"(D[2]), "+r"(D[3]), "+r"(D[4]), "+r"(D[5]),
        "+r"(D[6]), "+r"(D[7])
      : "l"(DA), "l"(DB), "r"(SD));
}

#define SIMPLE_MMA(Name, Form, Tail)                                           \
  __device__ void Name(uint32_t(&D)[16], uint64_t DA, uint64_t DB, int SD) {   \
    asm volatile(SCALE_D(18) "wgmma.mma_async.sync.aligned." Form " " D16      \
                             ", %16, %17, p" Tail ";\n}\n"                     \
                 : D16ARGS(D)                                                  \
                 : "l"(DA), "l"(DB), "r"(SD));                                 \
  }
SIMPLE_MMA(mmaBF16, "m64n32k16.f32.bf16.bf16", ", 1, 1, 0, 0")
SIMPLE_MMA(mmaTF32, "m64n32k8.f32.tf32.tf32", ", 1, 1")
SIMPLE_MMA(mmaFP8, "m64n32k32.f32.e4m3.e5m2", ", 1, 1")
SIMPLE_MMA(mmaS8U8, "m64n32k32.s32.s8.u8.satfinite", "")
SIMPLE_MMA(mmaB1, "m64n32k256.s32.b1.b1.and.popc", "")

/// Accumulator register I of a lane (f16: element I of the pairs).
__host__ __device__ void accumulatorAt(int Warp, int Lane, int I, int &Row,
                                       int &Col) {
  Row = 16 * Warp + Lane / 4 + 8 * (I >> 1 & 1);
  Col = Lane % 4 * 2 + (I & 1) + 8 * (I >> 2);
}

/// A: M x RowBytes bytes (K-major rows) or M x K 16-bit elements; Bt: the
/// same for N. C and D: M x N 32-bit words (f16: the low half).
__global__ void wgmmaKernel(Case C, const uint8_t *A, const uint8_t *Bt,
                            const uint32_t *CIn, uint32_t *DOut) {
  __shared__ __align__(1024) uint8_t Smem[2 * SharedBytes];
  uint8_t *SA = Smem, *SB = Smem + SharedBytes;
  int Tid = threadIdx.x, Warp = Tid / 32, Lane = Tid % 32;
  int KTotal = stepK(C.Kind) * Steps;
  unsigned KBytes = KTotal * elementBits(C.Kind) / 8;
  Placement PA{C.A, M, KTotal}, PB{C.B, N, KTotal};
  auto Fill = [&](const Placement &P, const uint8_t *From, uint8_t *To) {
    if (!P.L.MNMajor) {
      for (int I = Tid; I < P.Rows * int(KBytes); I += blockDim.x)
        To[P.offset(I / KBytes, I % KBytes, KBytes)] = From[I];
      return;
    }
    for (int I = Tid; I < P.Rows * KTotal; I += blockDim.x) {
      unsigned At = P.offset(I / KTotal, I % KTotal, KBytes);
      To[At] = From[2 * I];
      To[At + 1] = From[2 * I + 1];
    }
  };
  Fill(PA, A, SA);
  Fill(PB, Bt, SB);
  asm volatile("fence.proxy.async.shared::cta;");
  __syncthreads();

  bool Half = C.Kind == F16F16;
  uint32_t D[16] = {};
  for (int I = 0; I < 16; ++I) {
    int Row, Col;
    accumulatorAt(Warp, Lane, I, Row, Col);
    if (!Half)
      D[I] = CIn[Row * N + Col];
    else // two .f16 a register, element I in half I % 2 of register I / 2
      D[I / 2] |= (CIn[Row * N + Col] & 0xffff) << (I % 2 * 16);
  }
  asm volatile("wgmma.fence.sync.aligned;");
  for (int S = 0; S < Steps; ++S) {
    uint64_t DA = descriptor(SA + PA.start(S, C.Kind), PA.lbo(KBytes),
                             PA.sbo(KBytes), C.A.Mode);
    uint64_t DB = descriptor(SB + PB.start(S, C.Kind), PB.lbo(KBytes),
                             PB.sbo(KBytes), C.B.Mode);
    int SD = S == 0 ? C.ScaleD : 1;
    switch (C.Kind) {
    case F16F32:
      if (C.A.MNMajor)
        mmaF16<1, 1, 1>(D, DA, DB, SD);
      else
        mmaF16<1, 0, 0>(D, DA, DB, SD);
      break;
    case F16F32Neg:
      mmaF16<-1, 1, 1>(D, DA, DB, SD);
      break;
    case F16F32Regs: {
      // mma .m16n8k16's A: rows g and g+8, columns 2t, 2t+1 and 8 on.
      const uint16_t *A16 = reinterpret_cast<const uint16_t *>(A);
      uint32_t R[4];
      for (int J = 0; J < 4; ++J) {
        int Row = 16 * Warp + Lane / 4 + 8 * (J & 1);
        int Col = 16 * S + Lane % 4 * 2 + 8 * (J >> 1);
        R[J] = A16[Row * KTotal + Col] | uint32_t(A16[Row * KTotal + Col + 1])
                                             << 16;
      }
      mmaF16Regs(D, R, DB, SD);
      break;
    }
    case F16F16:
      mmaF16F16(D, DA, DB, SD);
      break;
    case BF16:
      mmaBF16(D, DA, DB, SD);
      break;
    case TF32:
      mmaTF32(D, DA, DB, SD);
      break;
    case FP8:
      mmaFP8(D, DA, DB, SD);
      break;
    case S8U8:
      mmaS8U8(D, DA, DB, SD);
      break;
    case B1:
      mmaB1(D, DA, DB, SD);
      break;
    }
    asm volatile("wgmma.commit_group.sync.aligned;");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  for (int I = 0; I < 16; ++I) {
    int Row, Col;
    accumulatorAt(Warp, Lane, I, Row, Col);
    DOut[Row * N + Col] = Half ? D[I / 2] >> (I % 2 * 16) & 0xffff : D[I];
  }
}

//===-- Host: inputs, the reference and the check ------------------------===//

struct Inputs {
  std::vector<uint8_t> A, Bt; // encoded
  std::vector<double> AV, BV; // values, [row][k]
};

/// Small integers, encoded as the element type.
void encode(Op K, bool IsB, int Value, uint8_t *To) {
  switch (K) {
  case BF16: {
    __nv_bfloat16 H = __float2bfloat16(float(Value));
    std::memcpy(To, &H, 2);
    return;
  }
  case TF32: {
    float F = float(Value);
    std::memcpy(To, &F, 4);
    return;
  }
  case FP8:
    if (IsB)
      To[0] = __nv_fp8_e5m2(float(Value)).__x;
    else
      To[0] = __nv_fp8_e4m3(float(Value)).__x;
    return;
  case S8U8:
    To[0] = uint8_t(Value);
    return;
  default: {
    __half H = __float2half(float(Value));
    std::memcpy(To, &H, 2);
    return;
  }
  }
}

Inputs makeInputs(Op K, unsigned Seed) {
  Inputs In;
  int KTotal = stepK(K) * Steps, Bits = elementBits(K);
  In.A.assign(M * KTotal * Bits / 8, 0);
  In.Bt.assign(N * KTotal * Bits / 8, 0);
  In.AV.assign(M * KTotal, 0);
  In.BV.assign(N * KTotal, 0);
  uint32_t X = Seed;
  auto Next = [&] {
    X = X * 1664525u + 1013904223u;
    return X >> 8;
  };
  for (int IsB = 0; IsB < 2; ++IsB) {
    int Rows = IsB ? N : M;
    std::vector<uint8_t> &Enc = IsB ? In.Bt : In.A;
    std::vector<double> &Val = IsB ? In.BV : In.AV;
    for (int R = 0; R < Rows; ++R)
      for (int C = 0; C < KTotal; ++C) {
        int V;
        if (K == B1)
          V = Next() & 1;
        else if (K == S8U8)
          V = IsB ? int(Next() % 256) : int(Next() % 256) - 128;
        else
          V = int(Next() % 9) - 4; // -4..4: exact in every float type
        Val[R * KTotal + C] = V;
        if (K == B1)
          Enc[(R * KTotal + C) / 8] |= uint8_t(V << (C % 8));
        else
          encode(K, IsB, V, &Enc[(R * KTotal + C) * Bits / 8]);
      }
  }
  return In;
}

int run(const Case &C, unsigned Seed) {
  Inputs In = makeInputs(C.Kind, Seed);
  int KTotal = stepK(C.Kind) * Steps;
  bool Int = C.Kind == S8U8 || C.Kind == B1, Half = C.Kind == F16F16;
  // C: integers (f16 bits for an f16 accumulator); near INT32_MAX for
  // .satfinite to clamp.
  std::vector<uint32_t> CIn(M * N);
  std::vector<double> CV(M * N);
  for (int I = 0; I < M * N; ++I) {
    int V = int(I * 7 % 23) - 11;
    CV[I] = C.Kind == S8U8 && I % 3 == 0 ? 2147483600.0 : V;
    if (C.Kind == S8U8 && I % 3 == 1)
      CV[I] = -2147483600.0;
    if (Int)
      CIn[I] = uint32_t(int64_t(CV[I]));
    else if (Half)
      CIn[I] = __half_as_ushort(__float2half(float(CV[I])));
    else {
      float F = float(CV[I]);
      std::memcpy(&CIn[I], &F, 4);
    }
  }
  uint8_t *DA, *DB;
  uint32_t *DC, *DD;
  cudaMalloc(&DA, In.A.size());
  cudaMalloc(&DB, In.Bt.size());
  cudaMalloc(&DC, M * N * 4);
  cudaMalloc(&DD, M * N * 4);
  cudaMemcpy(DA, In.A.data(), In.A.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(DB, In.Bt.data(), In.Bt.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(DC, CIn.data(), M * N * 4, cudaMemcpyHostToDevice);
  wgmmaKernel<<<1, 128>>>(C, DA, DB, DC, DD);
  std::vector<uint32_t> Out(M * N);
  cudaError_t Err = cudaGetLastError();
  if (Err == cudaSuccess)
    Err = cudaMemcpy(Out.data(), DD, M * N * 4, cudaMemcpyDeviceToHost);
  cudaFree(DA);
  cudaFree(DB);
  cudaFree(DC);
  cudaFree(DD);
  if (Err != cudaSuccess) {
    std::printf("%s: %s\n", C.Name, cudaGetErrorString(Err));
    return 1;
  }
  int Right = 0;
  double ScaleA = C.Kind == F16F32Neg ? -1 : 1;
  for (int R = 0; R < M; ++R)
    for (int Col = 0; Col < N; ++Col) {
      double Acc = C.ScaleD ? CV[R * N + Col] : 0;
      for (int S = 0; S < Steps; ++S) {
        double Sum = 0;
        for (int K = S * KTotal / Steps; K < (S + 1) * KTotal / Steps; ++K)
          Sum += ScaleA * In.AV[R * KTotal + K] * In.BV[Col * KTotal + K];
        Acc += Sum;
        if (C.Kind == S8U8) // .satfinite clamps each instruction's D
          Acc = Acc > 2147483647.0    ? 2147483647.0
                : Acc < -2147483648.0 ? -2147483648.0
                                      : Acc;
      }
      uint32_t Got = Out[R * N + Col];
      double GotV;
      if (Int)
        GotV = int32_t(Got);
      else if (Half)
        GotV = __half2float(__ushort_as_half(uint16_t(Got)));
      else {
        float F;
        std::memcpy(&F, &Got, 4);
        GotV = F;
      }
      Right += GotV == Acc;
    }
  std::printf("%s: %d of %d right\n", C.Name, Right, M * N);
  return Right != M * N;
}

int main() {
  const Case Cases[] = {
      {"f16 f32, A K-major, B K-major",
       F16F32,
       {None, false},
       {None, false},
       false,
       true},
      {"f16 f32, A K-major 128B, B K-major 128B",
       F16F32,
       {B128, false},
       {B128, false},
       false,
       true},
      {"f16 f32, A K-major 64B, B K-major 32B",
       F16F32,
       {B64, false},
       {B32, false},
       false,
       true},
      {"f16 f32 scale-a -1, A M-major 128B, B N-major",
       F16F32Neg,
       {B128, true},
       {None, true},
       false,
       true},
      {"f16 f32, A M-major, B N-major 64B",
       F16F32,
       {None, true},
       {B64, true},
       false,
       true},
      {"f16 f32 scale-d 0, A registers, B N-major 128B",
       F16F32Regs,
       {None, false},
       {B128, true},
       true,
       false},
      {"f16 f16, A K-major 128B, B K-major",
       F16F16,
       {B128, false},
       {None, false},
       false,
       true},
      {"bf16 f32, A K-major 32B, B K-major 64B",
       BF16,
       {B32, false},
       {B64, false},
       false,
       true},
      {"tf32 f32, A K-major 128B, B K-major",
       TF32,
       {B128, false},
       {None, false},
       false,
       true},
      {"e4m3*e5m2 f32, A K-major, B K-major 128B",
       FP8,
       {None, false},
       {B128, false},
       false,
       true},
      {"s8*u8 s32 satfinite, A K-major 64B, B K-major 128B",
       S8U8,
       {B64, false},
       {B128, false},
       false,
       true},
      {"b1 s32 and.popc, A K-major 128B, B K-major",
       B1,
       {B128, false},
       {None, false},
       false,
       true},
  };
  int Failures = 0;
  unsigned Seed = 1;
  for (const Case &C : Cases)
    Failures += run(C, Seed++);
  return Failures != 0;
}
