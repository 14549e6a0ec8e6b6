// SIMD-within-a-word intrinsics, __byte_perm, fp8 conversions and half
// comparisons, checked against host references written from the CUDA Math
// API's definitions (per byte or half-word, exact integers) and, for fp8,
// against <cuda_fp8.h>'s own host conversions. Built for compute_90 as well
// so that ptx-jit runs the PTX with cvt to and from .e4m3x2/.e5m2x2 (the
// newest PTX in the fat binary is the one loaded).
// REQUIRES: nvcc
// RUN: %nvcc -gencode arch=compute_90,code=compute_90 %s -o %t
// RUN: ptx-jit exec %t | FileCheck %s
// CHECK: bytes: 12288 of 12288 right
// CHECK-NEXT: halves: 10240 of 10240 right
// CHECK-NEXT: fp8: 5120 of 5120 right
// CHECK-NEXT: half compare: 3072 of 3072 right
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <vector>

constexpr int N = 1024;

__global__ void simdBytes(const unsigned *a, const unsigned *b,
                          unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i];
  unsigned *o = out + 12 * i;
  o[0] = __vabsdiffu4(x, y);
  o[1] = __vadd4(x, y);
  o[2] = __vsub4(x, y);
  o[3] = __vcmpgtu4(x, y);
  o[4] = __vmaxs4(x, y);
  o[5] = __vminu4(x, y);
  o[6] = __vavgu4(x, y);
  o[7] = __vsadu4(x, y);
  o[8] = __vaddss4(x, y);
  o[9] = __vsetles4(x, y);
  o[10] = __vabsss4(x);
  o[11] = __byte_perm(x, y, 0x7531 ^ (i & 0x3333));
}

__global__ void simdHalves(const unsigned *a, const unsigned *b,
                           unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i];
  unsigned *o = out + 10 * i;
  o[0] = __vadd2(x, y);
  o[1] = __vsub2(x, y);
  o[2] = __vabsdiffs2(x, y);
  o[3] = __vsads2(x, y);
  o[4] = __vavgu2(x, y);
  o[5] = __vhaddu2(x, y);
  o[6] = __vcmpeq2(x, y);
  o[7] = __vsetgts2(x, y);
  o[8] = __vmins2(x, y);
  o[9] = __vsubus2(x, y);
}

__global__ void fp8Convert(const float2 *in, const __half2_raw *h,
                           unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *o = out + 5 * i;
  o[0] = __nv_cvt_float2_to_fp8x2(in[i], __NV_SATFINITE, __NV_E4M3);
  o[1] = __nv_cvt_float2_to_fp8x2(in[i], __NV_SATFINITE, __NV_E5M2);
  o[2] = __nv_cvt_halfraw2_to_fp8x2(h[i], __NV_SATFINITE, __NV_E4M3);
  __half2_raw b4 = __nv_cvt_fp8x2_to_halfraw2(o[0], __NV_E4M3);
  __half2_raw b5 = __nv_cvt_fp8x2_to_halfraw2(o[1], __NV_E5M2);
  o[3] = b4.x | unsigned(b4.y) << 16;
  o[4] = b5.x | unsigned(b5.y) << 16;
}

__global__ void halfCompare(const __half2 *a, const __half2 *b,
                            unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 x = a[i], y = b[i];
  __half2 g = __hgt2(x, y);
  unsigned gbits;
  memcpy(&gbits, &g, 4);
  out[3 * i] = gbits;
  out[3 * i + 1] = __hlt2_mask(x, y);
  int f = 0;
  f |= __hlt(x.x, y.x) << 0;
  f |= __hgeu(x.y, y.y) << 1;
  f |= __hbeq2(x, y) << 2;
  f |= __hbneu2(x, y) << 3;
  f |= __hisnan(x.x) << 4;
  f |= __hne(x.y, y.y) << 5;
  out[3 * i + 2] = f;
}

// --- Host references, one part at a time. ---

static unsigned byteOf(unsigned v, int k) { return (v >> (8 * k)) & 0xff; }
static int sbyteOf(unsigned v, int k) { return int8_t(byteOf(v, k)); }
static unsigned halfOf(unsigned v, int k) { return (v >> (16 * k)) & 0xffff; }
static int shalfOf(unsigned v, int k) { return int16_t(halfOf(v, k)); }

template <typename F> static unsigned perByte(F Fn) {
  unsigned r = 0;
  for (int k = 0; k < 4; ++k)
    r |= (unsigned(Fn(k)) & 0xff) << (8 * k);
  return r;
}
template <typename F> static unsigned perHalf(F Fn) {
  unsigned r = 0;
  for (int k = 0; k < 2; ++k)
    r |= (unsigned(Fn(k)) & 0xffff) << (16 * k);
  return r;
}
static int clampTo(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static void byteRefs(unsigned x, unsigned y, int i, unsigned *r) {
  r[0] = perByte([&](int k) { return std::abs(int(byteOf(x, k)) - int(byteOf(y, k))); });
  r[1] = perByte([&](int k) { return byteOf(x, k) + byteOf(y, k); });
  r[2] = perByte([&](int k) { return byteOf(x, k) - byteOf(y, k); });
  r[3] = perByte([&](int k) { return byteOf(x, k) > byteOf(y, k) ? 0xff : 0; });
  r[4] = perByte([&](int k) { return std::max(sbyteOf(x, k), sbyteOf(y, k)); });
  r[5] = perByte([&](int k) { return std::min(byteOf(x, k), byteOf(y, k)); });
  r[6] = perByte([&](int k) { return (byteOf(x, k) + byteOf(y, k) + 1) / 2; });
  r[7] = 0;
  for (int k = 0; k < 4; ++k)
    r[7] += std::abs(int(byteOf(x, k)) - int(byteOf(y, k)));
  r[8] = perByte([&](int k) { return clampTo(sbyteOf(x, k) + sbyteOf(y, k), -128, 127); });
  r[9] = perByte([&](int k) { return sbyteOf(x, k) <= sbyteOf(y, k) ? 1 : 0; });
  r[10] = perByte([&](int k) { return std::min(std::abs(sbyteOf(x, k)), 127); });
  unsigned s = 0x7531 ^ (i & 0x3333);
  uint64_t both = uint64_t(y) << 32 | x;
  r[11] = perByte([&](int k) { return unsigned(both >> (8 * ((s >> (4 * k)) & 7))); });
}

static void halfRefs(unsigned x, unsigned y, unsigned *r) {
  r[0] = perHalf([&](int k) { return halfOf(x, k) + halfOf(y, k); });
  r[1] = perHalf([&](int k) { return halfOf(x, k) - halfOf(y, k); });
  r[2] = perHalf([&](int k) { return std::abs(shalfOf(x, k) - shalfOf(y, k)); });
  r[3] = std::abs(shalfOf(x, 0) - shalfOf(y, 0)) +
         std::abs(shalfOf(x, 1) - shalfOf(y, 1));
  r[4] = perHalf([&](int k) { return (halfOf(x, k) + halfOf(y, k) + 1) / 2; });
  r[5] = perHalf([&](int k) { return (halfOf(x, k) + halfOf(y, k)) / 2; });
  r[6] = perHalf([&](int k) { return halfOf(x, k) == halfOf(y, k) ? 0xffff : 0; });
  r[7] = perHalf([&](int k) { return shalfOf(x, k) > shalfOf(y, k) ? 1 : 0; });
  r[8] = perHalf([&](int k) { return std::min(shalfOf(x, k), shalfOf(y, k)); });
  r[9] = perHalf([&](int k) { return std::max(int(halfOf(x, k)) - int(halfOf(y, k)), 0); });
}

static float halfValue(unsigned short h) {
  __half_raw raw;
  raw.x = h;
  return __half2float(__half(raw));
}

/// fp8 results of NaN inputs may be any NaN code: compare NaN-ness there.
static bool sameFp8(unsigned got, unsigned want, bool e4m3) {
  for (int k = 0; k < 2; ++k) {
    unsigned g = byteOf(got, k), w = byteOf(want, k);
    bool gNaN = e4m3 ? (g & 0x7f) == 0x7f : (g & 0x7f) > 0x7c;
    bool wNaN = e4m3 ? (w & 0x7f) == 0x7f : (w & 0x7f) > 0x7c;
    if (gNaN != wNaN || (!wNaN && g != w))
      return false;
  }
  return got >> 16 == 0;
}
static bool sameHalf2(unsigned got, unsigned want) {
  for (int k = 0; k < 2; ++k) {
    float g = halfValue(halfOf(got, k)), w = halfValue(halfOf(want, k));
    if (std::isnan(w) ? !std::isnan(g) : halfOf(got, k) != halfOf(want, k))
      return false;
  }
  return true;
}

int main() {
  std::vector<unsigned> a(N), b(N);
  unsigned seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  const unsigned edges[] = {0, 0xffffffff, 0x80808080, 0x7f7f7f7f, 0x8000ffff,
                            0x7fff0001, 0x01ff7f80, 0xfe0180ff};
  for (int i = 0; i < N; ++i) {
    a[i] = i < 8 ? edges[i] : next();
    b[i] = i < 8 ? edges[(i + 3) % 8] : (i % 5 == 0 ? a[i] : next());
  }
  unsigned *da, *db, *dout;
  cudaMalloc(&da, N * 4);
  cudaMalloc(&db, N * 4);
  cudaMalloc(&dout, N * 12 * 4);
  cudaMemcpy(da, a.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), N * 4, cudaMemcpyHostToDevice);

  std::vector<unsigned> out(N * 12);
  simdBytes<<<N / 128, 128>>>(da, db, dout);
  cudaMemcpy(out.data(), dout, N * 12 * 4, cudaMemcpyDeviceToHost);
  int right = 0;
  for (int i = 0; i < N; ++i) {
    unsigned r[12];
    byteRefs(a[i], b[i], i, r);
    for (int k = 0; k < 12; ++k) {
      if (out[12 * i + k] == r[k])
        ++right;
      else if (right < 20)
        printf("bytes %d/%d: %08x %08x -> %08x, want %08x\n", i, k, a[i], b[i],
               out[12 * i + k], r[k]);
    }
  }
  printf("bytes: %d of %d right\n", right, N * 12);

  simdHalves<<<N / 128, 128>>>(da, db, dout);
  cudaMemcpy(out.data(), dout, N * 10 * 4, cudaMemcpyDeviceToHost);
  right = 0;
  for (int i = 0; i < N; ++i) {
    unsigned r[10];
    halfRefs(a[i], b[i], r);
    for (int k = 0; k < 10; ++k) {
      if (out[10 * i + k] == r[k])
        ++right;
      else
        printf("halves %d/%d: %08x %08x -> %08x, want %08x\n", i, k, a[i],
               b[i], out[10 * i + k], r[k]);
    }
  }
  printf("halves: %d of %d right\n", right, N * 10);

  // fp8: floats across the formats' ranges, their edges and NaN.
  std::vector<float2> f(N);
  std::vector<__half2_raw> h(N);
  const float specials[] = {0.f, -0.f, 448.f, 464.f, 465.f, 57344.f, 61440.f,
                            INFINITY, -INFINITY, NAN, 0x1p-9f, 0x1p-10f,
                            0x1.8p-10f, 0x1p-17f, -1e30f, 1.0625f};
  for (int i = 0; i < N; ++i) {
    float u = ldexpf(float(next() % 10000) / 5000.f - 1.f, int(next() % 40) - 22);
    float v = ldexpf(float(next() % 10000) / 5000.f - 1.f, int(next() % 40) - 22);
    f[i] = make_float2(i < 16 ? specials[i] : u, i < 16 ? specials[15 - i] : v);
    h[i].x = __half_raw(__float2half_rn(f[i].y)).x;
    h[i].y = __half_raw(__float2half_rn(f[i].x)).x;
  }
  float2 *df;
  __half2_raw *dh;
  cudaMalloc(&df, N * sizeof(float2));
  cudaMalloc(&dh, N * sizeof(__half2_raw));
  cudaMemcpy(df, f.data(), N * sizeof(float2), cudaMemcpyHostToDevice);
  cudaMemcpy(dh, h.data(), N * sizeof(__half2_raw), cudaMemcpyHostToDevice);
  fp8Convert<<<N / 128, 128>>>(df, dh, dout);
  cudaMemcpy(out.data(), dout, N * 5 * 4, cudaMemcpyDeviceToHost);
  right = 0;
  for (int i = 0; i < N; ++i) {
    // <cuda_fp8.h>'s host conversions: software, written by NVIDIA to
    // agree with the instructions.
    unsigned e4 = __nv_cvt_float2_to_fp8x2(f[i], __NV_SATFINITE, __NV_E4M3);
    unsigned e5 = __nv_cvt_float2_to_fp8x2(f[i], __NV_SATFINITE, __NV_E5M2);
    unsigned e4h = __nv_cvt_halfraw2_to_fp8x2(h[i], __NV_SATFINITE, __NV_E4M3);
    __half2_raw b4 = __nv_cvt_fp8x2_to_halfraw2(e4, __NV_E4M3);
    __half2_raw b5 = __nv_cvt_fp8x2_to_halfraw2(e5, __NV_E5M2);
    bool ok[5] = {sameFp8(out[5 * i], e4, true), sameFp8(out[5 * i + 1], e5, false),
                  sameFp8(out[5 * i + 2], e4h, true),
                  sameHalf2(out[5 * i + 3], b4.x | unsigned(b4.y) << 16),
                  sameHalf2(out[5 * i + 4], b5.x | unsigned(b5.y) << 16)};
    for (int k = 0; k < 5; ++k) {
      if (ok[k])
        ++right;
      else
        printf("fp8 %d/%d: (%a, %a) -> %08x\n", i, k, f[i].x, f[i].y,
               out[5 * i + k]);
    }
  }
  printf("fp8: %d of %d right\n", right, N * 5);

  // Half comparisons: halves of every kind, NaN and signed zeros included.
  const unsigned short hs[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00,
                               0x7e00, 0x0001, 0x8001, 0x7bff, 0x3555, 0x4000};
  std::vector<unsigned> ha(N), hb(N);
  for (int i = 0; i < N; ++i) {
    ha[i] = hs[next() % 12] | unsigned(hs[next() % 12]) << 16;
    hb[i] = i % 7 == 0 ? ha[i] : hs[next() % 12] | unsigned(hs[next() % 12]) << 16;
  }
  cudaMemcpy(da, ha.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), N * 4, cudaMemcpyHostToDevice);
  halfCompare<<<N / 128, 128>>>((const __half2 *)da, (const __half2 *)db, dout);
  cudaMemcpy(out.data(), dout, N * 3 * 4, cudaMemcpyDeviceToHost);
  right = 0;
  for (int i = 0; i < N; ++i) {
    float x[2] = {halfValue(halfOf(ha[i], 0)), halfValue(halfOf(ha[i], 1))};
    float y[2] = {halfValue(halfOf(hb[i], 0)), halfValue(halfOf(hb[i], 1))};
    unsigned gt = perHalf([&](int k) { return x[k] > y[k] ? 0x3c00 : 0; });
    unsigned lt = perHalf([&](int k) { return x[k] < y[k] ? 0xffff : 0; });
    auto neu = [&](int k) { return !(x[k] == y[k]); };
    int flags = (x[0] < y[0]) | (!(x[1] < y[1])) << 1 |
                (x[0] == y[0] && x[1] == y[1]) << 2 | (neu(0) && neu(1)) << 3 |
                std::isnan(x[0]) << 4 |
                (x[1] != y[1] && !std::isnan(x[1]) && !std::isnan(y[1])) << 5;
    unsigned want[3] = {gt, lt, unsigned(flags)};
    for (int k = 0; k < 3; ++k) {
      if (out[3 * i + k] == want[k])
        ++right;
      else
        printf("half compare %d/%d: %08x %08x -> %08x, want %08x\n", i, k,
               ha[i], hb[i], out[3 * i + k], want[k]);
    }
  }
  printf("half compare: %d of %d right\n", right, N * 3);
  return 0;
}
