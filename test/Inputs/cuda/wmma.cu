// Warp matrix functions (nvcuda::wmma) of every fragment type: .f16 with
// .f16 and .f32 accumulators in the three 16-bit shapes, .bf16, .tf32 and
// double (sm_80), .s8/.u8 (sm_72), and the sub-byte .s4/.u4 and .b1 types
// (sm_75), with row- and column-major loads, strides and element-wise
// fragment updates.
#include <cuda_fp16.h>
#include <mma.h>
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#include <cuda_bf16.h>
#endif

using namespace nvcuda;

template <int M, int N, int K, typename AccT>
__device__ void gemmHalf(const half *A, const half *B, const AccT *C, AccT *D,
                         int lda, int ldb, int ldc, AccT alpha) {
  wmma::fragment<wmma::matrix_a, M, N, K, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, M, N, K, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, M, N, K, AccT> c;
  wmma::load_matrix_sync(a, A, lda);
  wmma::load_matrix_sync(b, B, ldb);
  wmma::load_matrix_sync(c, C, ldc, wmma::mem_row_major);
  for (int i = 0; i < c.num_elements; ++i)
    c.x[i] = c.x[i] * alpha;
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, ldc, wmma::mem_col_major);
}

__global__ void wmma_f16_f32(const half *A, const half *B, const float *C,
                             float *D) {
  gemmHalf<16, 16, 16, float>(A, B, C, D, 16, 16, 16, 2.0f);
  gemmHalf<32, 8, 16, float>(A, B, C + 256, D + 256, 16, 16, 8, 1.0f);
  gemmHalf<8, 32, 16, float>(A, B, C + 512, D + 512, 16, 16, 32, 0.5f);
}

__global__ void wmma_f16_f16(const half *A, const half *B, const half *C,
                             half *D) {
  gemmHalf<16, 16, 16, half>(A, B, C, D, 16, 16, 16, __float2half(2.0f));
  gemmHalf<32, 8, 16, half>(A, B, C + 256, D + 256, 16, 16, 8,
                            __float2half(1.0f));
}

// A tiled product of a larger matrix: the K loop accumulates in registers,
// and each warp owns a 16x16 tile of D.
__global__ void wmma_tiled(const half *A, const half *B, float *D, int M,
                           int N, int K) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int tilesN = N / 16;
  int tm = warp / tilesN, tn = warp % tilesN;
  if (tm * 16 >= M)
    return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + tn * 16, N);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(D + tm * 16 * N + tn * 16, c, N,
                          wmma::mem_row_major);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 720
__global__ void wmma_s8(const signed char *A, const signed char *B,
                        const int *C, int *D) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
  wmma::mma_sync(c, a, b, c, /*satf=*/true);
  wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

__global__ void wmma_u8(const unsigned char *A, const unsigned char *B,
                        int *D) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::col_major> a;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 32, 8, 16, int> c;
  wmma::fill_fragment(c, 7);
  wmma::load_matrix_sync(a, A, 32);
  wmma::load_matrix_sync(b, B, 8);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}
#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 750
__global__ void wmma_u4(const unsigned *A, const unsigned *B, int *D) {
  using namespace wmma::experimental;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::u4, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::u4, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> c;
  wmma::fill_fragment(c, 0);
  wmma::load_matrix_sync(a, A, 32);
  wmma::load_matrix_sync(b, B, 32);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

__global__ void wmma_s4(const unsigned *A, const unsigned *B, int *D) {
  using namespace wmma::experimental;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> c;
  wmma::fill_fragment(c, -3);
  wmma::load_matrix_sync(a, A, 64);
  wmma::load_matrix_sync(b, B, 32);
  wmma::mma_sync(c, a, b, c, true);
  wmma::store_matrix_sync(D, c, 8, wmma::mem_col_major);
}

__global__ void wmma_b1(const unsigned *A, const unsigned *B, int *D) {
  using namespace wmma::experimental;
  wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> c;
  wmma::fill_fragment(c, 0);
  wmma::load_matrix_sync(a, A, 128);
  wmma::load_matrix_sync(b, B, 128);
  wmma::bmma_sync(c, a, b, c, bmmaBitOpXOR, bmmaAccumulateOpPOPC);
  wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  wmma::bmma_sync(c, a, b, c, bmmaBitOpAND, bmmaAccumulateOpPOPC);
  wmma::store_matrix_sync(D + 64, c, 8, wmma::mem_row_major);
#endif
}
#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__global__ void wmma_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                          float *D) {
  wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 8, 32, 16, float> c;
  wmma::fill_fragment(c, 1.0f);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 32);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 32, wmma::mem_row_major);
}

__global__ void wmma_tf32(const float *A, const float *B, float *D) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                 wmma::row_major>
      a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                 wmma::col_major>
      b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0.0f);
  wmma::load_matrix_sync(a, A, 8);
  wmma::load_matrix_sync(b, B, 8);
  for (int i = 0; i < a.num_elements; ++i)
    a.x[i] = wmma::__float_to_tf32(a.x[i]);
  for (int i = 0; i < b.num_elements; ++i)
    b.x[i] = wmma::__float_to_tf32(b.x[i]);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

__global__ void wmma_f64(const double *A, const double *B, const double *C,
                         double *D) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
  wmma::load_matrix_sync(a, A, 4);
  wmma::load_matrix_sync(b, B, 4);
  wmma::load_matrix_sync(c, C, 8, wmma::mem_row_major);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}
#endif
