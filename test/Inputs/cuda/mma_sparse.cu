// Sparse tensor-core products (mma.sp, mma.sp::ordered_metadata) through
// inline PTX, as CUTLASS writes them: each lane loads its fragments of A
// (the kept half of each row), B and C, and its metadata register, from
// buffers that hold register R of lane L at element 32 * R + L; the
// sparsity selector is a constant of the instruction. One form per kernel,
// every multiplicand type (fp8 needs sm_89).
#include <cstdint>

#define LOAD(P, R) ((P)[32 * (R) + Lane])

#define SP_F32_A2B2(Name, Spelling)                                            \
  extern "C" __global__ void Name(const uint32_t *A, const uint32_t *B,        \
                                  const float *C, const uint32_t *E,          \
                                  float *D) {                                  \
    unsigned Lane = threadIdx.x % 32;                                          \
    float D0, D1, D2, D3;                                                      \
    asm volatile(Spelling " {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, "            \
                          "{%8, %9, %10, %11}, %12, " SELECTOR ";\n"           \
                 : "=f"(D0), "=f"(D1), "=f"(D2), "=f"(D3)                      \
                 : "r"(LOAD(A, 0)), "r"(LOAD(A, 1)), "r"(LOAD(B, 0)),          \
                   "r"(LOAD(B, 1)), "f"(LOAD(C, 0)), "f"(LOAD(C, 1)),          \
                   "f"(LOAD(C, 2)), "f"(LOAD(C, 3)), "r"(LOAD(E, 0)));         \
    LOAD(D, 0) = D0;                                                           \
    LOAD(D, 1) = D1;                                                           \
    LOAD(D, 2) = D2;                                                           \
    LOAD(D, 3) = D3;                                                           \
  }

#define SP_F32_A4B4(Name, Spelling)                                            \
  extern "C" __global__ void Name(const uint32_t *A, const uint32_t *B,        \
                                  const float *C, const uint32_t *E,          \
                                  float *D) {                                  \
    unsigned Lane = threadIdx.x % 32;                                          \
    float D0, D1, D2, D3;                                                      \
    asm volatile(Spelling " {%0, %1, %2, %3}, {%4, %5, %6, %7}, "              \
                          "{%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, "    \
                          SELECTOR ";\n"                                       \
                 : "=f"(D0), "=f"(D1), "=f"(D2), "=f"(D3)                      \
                 : "r"(LOAD(A, 0)), "r"(LOAD(A, 1)), "r"(LOAD(A, 2)),          \
                   "r"(LOAD(A, 3)), "r"(LOAD(B, 0)), "r"(LOAD(B, 1)),          \
                   "r"(LOAD(B, 2)), "r"(LOAD(B, 3)), "f"(LOAD(C, 0)),          \
                   "f"(LOAD(C, 1)), "f"(LOAD(C, 2)), "f"(LOAD(C, 3)),          \
                   "r"(LOAD(E, 0)));                                           \
    LOAD(D, 0) = D0;                                                           \
    LOAD(D, 1) = D1;                                                           \
    LOAD(D, 2) = D2;                                                           \
    LOAD(D, 3) = D3;                                                           \
  }

#define SP_S32_A2B2(Name, Spelling)                                            \
  extern "C" __global__ void Name(const uint32_t *A, const uint32_t *B,        \
                                  const int *C, const uint32_t *E, int *D) {   \
    unsigned Lane = threadIdx.x % 32;                                          \
    int D0, D1, D2, D3;                                                        \
    asm volatile(Spelling " {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, "            \
                          "{%8, %9, %10, %11}, %12, " SELECTOR ";\n"           \
                 : "=r"(D0), "=r"(D1), "=r"(D2), "=r"(D3)                      \
                 : "r"(LOAD(A, 0)), "r"(LOAD(A, 1)), "r"(LOAD(B, 0)),          \
                   "r"(LOAD(B, 1)), "r"(LOAD(C, 0)), "r"(LOAD(C, 1)),          \
                   "r"(LOAD(C, 2)), "r"(LOAD(C, 3)), "r"(LOAD(E, 0)));         \
    LOAD(D, 0) = D0;                                                           \
    LOAD(D, 1) = D1;                                                           \
    LOAD(D, 2) = D2;                                                           \
    LOAD(D, 3) = D3;                                                           \
  }

#define SP_S32_A4B4(Name, Spelling)                                            \
  extern "C" __global__ void Name(const uint32_t *A, const uint32_t *B,        \
                                  const int *C, const uint32_t *E, int *D) {   \
    unsigned Lane = threadIdx.x % 32;                                          \
    int D0, D1, D2, D3;                                                        \
    asm volatile(Spelling " {%0, %1, %2, %3}, {%4, %5, %6, %7}, "              \
                          "{%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, "    \
                          SELECTOR ";\n"                                       \
                 : "=r"(D0), "=r"(D1), "=r"(D2), "=r"(D3)                      \
                 : "r"(LOAD(A, 0)), "r"(LOAD(A, 1)), "r"(LOAD(A, 2)),          \
                   "r"(LOAD(A, 3)), "r"(LOAD(B, 0)), "r"(LOAD(B, 1)),          \
                   "r"(LOAD(B, 2)), "r"(LOAD(B, 3)), "r"(LOAD(C, 0)),          \
                   "r"(LOAD(C, 1)), "r"(LOAD(C, 2)), "r"(LOAD(C, 3)),          \
                   "r"(LOAD(E, 0)));                                           \
    LOAD(D, 0) = D0;                                                           \
    LOAD(D, 1) = D1;                                                           \
    LOAD(D, 2) = D2;                                                           \
    LOAD(D, 3) = D3;                                                           \
  }

// .f16 accumulators: two .f16x2 registers for C and D.
#define SP_F16_A4B4(Name, Spelling)                                            \
  extern "C" __global__ void Name(const uint32_t *A, const uint32_t *B,        \
                                  const uint32_t *C, const uint32_t *E,       \
                                  uint32_t *D) {                               \
    unsigned Lane = threadIdx.x % 32;                                          \
    uint32_t D0, D1;                                                           \
    asm volatile(Spelling " {%0, %1}, {%2, %3, %4, %5}, {%6, %7, %8, %9}, "    \
                          "{%10, %11}, %12, " SELECTOR ";\n"                   \
                 : "=r"(D0), "=r"(D1)                                          \
                 : "r"(LOAD(A, 0)), "r"(LOAD(A, 1)), "r"(LOAD(A, 2)),          \
                   "r"(LOAD(A, 3)), "r"(LOAD(B, 0)), "r"(LOAD(B, 1)),          \
                   "r"(LOAD(B, 2)), "r"(LOAD(B, 3)), "r"(LOAD(C, 0)),          \
                   "r"(LOAD(C, 1)), "r"(LOAD(E, 0)));                          \
    LOAD(D, 0) = D0;                                                           \
    LOAD(D, 1) = D1;                                                           \
  }

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800

#define SELECTOR "1"
// .f16, m16n8k16: one lane of each group of four holds the metadata.
SP_F32_A2B2(sp_f16_k16_sel1,
            "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
// .tf32, m16n8k16: a pair of lanes holds it.
SP_F32_A4B4(sp_tf32_k16_sel1,
            "mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32")
#undef SELECTOR

#define SELECTOR "3"
SP_F32_A2B2(sp_tf32_k8_sel3,
            "mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32."
            "tf32.f32")
#undef SELECTOR

#define SELECTOR "0"
SP_F32_A4B4(sp_bf16_k32_sel0,
            "mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32")
// .s8 and .u4, the longer shapes: all four lanes hold metadata.
SP_S32_A4B4(sp_s8_u8_k64_satfinite,
            "mma.sp.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.u8.s32")
SP_S32_A4B4(sp_u4_k128_ordered,
            "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.s32.u4."
            "u4.s32")
#undef SELECTOR

#define SELECTOR "1"
SP_F16_A4B4(sp_f16_k32_f16_sel1_ordered,
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16."
            "f16.f16")
SP_S32_A2B2(sp_s4_k64_sel1,
            "mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")
#undef SELECTOR

#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 890
#define SELECTOR "0"
SP_F32_A4B4(sp_e5m2_e4m3_k64,
            "mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32")
#undef SELECTOR
#endif
