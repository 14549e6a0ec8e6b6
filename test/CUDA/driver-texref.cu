// The driver API's texture references: cuModuleGetTexRef on hand-written
// PTX with .global .texref variables, bound to linear memory
// (cuTexRefSetAddress, integer fetches) and to pitched 2D memory
// (cuTexRefSetAddress2D) with format, filter, address-mode and flag
// changes, each taking effect for the next launch, and to arrays
// (cuTexRefSetArray, cuSurfRefSetArray). Expected values by hand
// from the texture fetching formulas (docs/Textures.md):
//   lin = 1.5 * i for 8 floats; integer fetches out of a linear buffer read 0.
//   img = u8 rows {0, 51, 102, 255} and {255, 255, 0, 0}, pitch 64 bytes,
//   read as normalized floats: {0, 0.2, 0.4, 1} and {1, 1, 0, 0}.
//   Linear at (1, 1): x - 0.5 = 0.5 blends columns 0, 1 and rows 0, 1
//   halfway: (0 + 0.2 + 1 + 1) / 4 = 0.55; at (2, 1): (0.2 + 0.4 + 1 + 0) / 4
//   = 0.4; at (3, 1): (0.4 + 1 + 0 + 0) / 4 = 0.35.
//   Point, CU_TRSF_READ_AS_INTEGER: (2.5, 0.5) reads 102, (1.5, 1.5) 255.
//   Normalized, wrap, point: (1.375, 0.25) wraps x to 0.375, texel
//   (1.5, 0.5): 0.2; (-0.125, 0.75) wraps x to 0.875, texel (3.5, 1.5): 0.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t -lcuda -Wno-deprecated-declarations
// RUN: ptx-jit exec %t | FileCheck %s
// CHECK: fetch: 0.0 1.5 3.0 4.5 6.0 7.5 9.0 10.5 0.0 0.0
// CHECK-NEXT: linear: 0.5500 0.4000 0.3500
// CHECK-NEXT: integer: 102 255
// CHECK-NEXT: wrap: 0.2000 0.0000
// clang-format off
// CHECK-NEXT: missing: CUDA_ERROR_NOT_FOUND, surfref as texref: CUDA_ERROR_NOT_FOUND
// The same image in a CUDA array (cuTexRefSetArray) samples the same; a
// surface reference bound to an array (cuSurfRefSetArray) writes
// 1000 * y + x at (x, y) of 4 x 2 ints; binding needs an array made for
// surfaces and CU_TRSA_OVERRIDE_FORMAT.
// CHECK-NEXT: array linear: 0.5500 0.4000 0.3500
// CHECK-NEXT: surfref: 0 1 2 3 1000 1001 1002 1003
// CHECK-NEXT: no SURFACE_LDST: CUDA_ERROR_INVALID_VALUE, no override flag: CUDA_ERROR_INVALID_VALUE, not an array: CUDA_ERROR_INVALID_HANDLE
// Memory that is not device memory, or runs past its allocation, is
// refused (the 8-float and 2x64-byte allocations above).
// CHECK-NEXT: host: CUDA_ERROR_INVALID_VALUE, past the end: CUDA_ERROR_INVALID_VALUE
// CHECK-NEXT: 2D host: CUDA_ERROR_INVALID_VALUE, 2D past the end: CUDA_ERROR_INVALID_VALUE, 2D inside: CUDA_SUCCESS
// clang-format on
#include <cstdio>
#include <cstring>
#include <cuda.h>

static const char *PTX = R"(
.version 8.0
.target sm_80
.address_size 64
.global .texref lin;
.global .texref img;
.global .surfref surf;

// out[i] = lin[i], integer coordinates
.visible .entry fetch(.param .u64 out)
{
  .reg .f32 %f<5>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [lin, {%r1}];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f1;
  ret;
}

// out[i] = img at (xy[2i], xy[2i+1]), float or (sample_u) integer result
.visible .entry sample_f(.param .u64 out, .param .u64 xy)
{
  .reg .f32 %f<7>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [xy];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.v2.f32 {%f5, %f6}, [%rd4];
  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [img, {%f5, %f6}];
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd1, %rd5;
  st.global.f32 [%rd6], %f1;
  ret;
}
.visible .entry surf_write()
{
  .reg .b32 %r<5>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  shl.b32 %r3, %r1, 2;
  mad.lo.s32 %r4, %r2, 1000, %r1;
  sust.b.2d.b32.trap [surf, {%r3, %r2}], {%r4};
  ret;
}
.visible .entry sample_u(.param .u64 out, .param .u64 xy)
{
  .reg .f32 %f<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [xy];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.v2.f32 {%f1, %f2}, [%rd4];
  tex.2d.v4.u32.f32 {%r2, %r3, %r4, %r5}, [img, {%f1, %f2}];
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r2;
  ret;
}
)";

#define CHECK(X)                                                               \
  if (CUresult R = (X)) {                                                      \
    const char *Name;                                                          \
    cuGetErrorName(R, &Name);                                                  \
    printf("%s failed: %s\n", #X, Name);                                       \
    return 1;                                                                  \
  }

static const char *name(CUresult R) {
  const char *N = "?";
  cuGetErrorName(R, &N);
  return N;
}

int main() {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, PTX));
  CUfunction fetch, sampleF, sampleU;
  CHECK(cuModuleGetFunction(&fetch, mod, "fetch"));
  CHECK(cuModuleGetFunction(&sampleF, mod, "sample_f"));
  CHECK(cuModuleGetFunction(&sampleU, mod, "sample_u"));
  CUtexref lin, img;
  CHECK(cuModuleGetTexRef(&lin, mod, "lin"));
  CHECK(cuModuleGetTexRef(&img, mod, "img"));

  CUdeviceptr out, xy, linMem, imgMem;
  CHECK(cuMemAlloc(&out, 16 * sizeof(float)));
  CHECK(cuMemAlloc(&xy, 16 * sizeof(float)));
  CHECK(cuMemAlloc(&linMem, 8 * sizeof(float)));
  CHECK(cuMemAlloc(&imgMem, 2 * 64));

  // Linear memory, integer fetches of 10 elements (2 past the end).
  float linHost[8];
  for (int i = 0; i < 8; ++i)
    linHost[i] = 1.5f * i;
  CHECK(cuMemcpyHtoD(linMem, linHost, sizeof linHost));
  size_t offset = 1;
  CHECK(cuTexRefSetFormat(lin, CU_AD_FORMAT_FLOAT, 1));
  CHECK(cuTexRefSetAddress(&offset, lin, linMem, sizeof linHost));
  void *fetchArgs[] = {&out};
  CHECK(
      cuLaunchKernel(fetch, 1, 1, 1, 10, 1, 1, 0, nullptr, fetchArgs, nullptr));
  float res[16];
  CHECK(cuMemcpyDtoH(res, out, 10 * sizeof(float)));
  printf("fetch:");
  for (int i = 0; i < 10; ++i)
    printf(" %.1f", res[i]);
  printf("\n");

  // Pitched u8 memory, read as normalized floats, linear filtering.
  unsigned char imgHost[2 * 64] = {};
  const unsigned char rows[2][4] = {{0, 51, 102, 255}, {255, 255, 0, 0}};
  for (int j = 0; j < 2; ++j)
    memcpy(imgHost + 64 * j, rows[j], 4);
  CHECK(cuMemcpyHtoD(imgMem, imgHost, sizeof imgHost));
  CUDA_ARRAY_DESCRIPTOR desc = {4, 2, CU_AD_FORMAT_UNSIGNED_INT8, 1};
  CHECK(cuTexRefSetAddress2D(img, &desc, imgMem, 64));
  CHECK(cuTexRefSetFilterMode(img, CU_TR_FILTER_MODE_LINEAR));
  float coords[] = {1, 1, 2, 1, 3, 1};
  CHECK(cuMemcpyHtoD(xy, coords, sizeof coords));
  void *sampleArgs[] = {&out, &xy};
  CHECK(cuLaunchKernel(sampleF, 1, 1, 1, 3, 1, 1, 0, nullptr, sampleArgs,
                       nullptr));
  CHECK(cuMemcpyDtoH(res, out, 3 * sizeof(float)));
  printf("linear: %.4f %.4f %.4f\n", res[0], res[1], res[2]);

  // Point sampling, integers.
  CHECK(cuTexRefSetFilterMode(img, CU_TR_FILTER_MODE_POINT));
  CHECK(cuTexRefSetFlags(img, CU_TRSF_READ_AS_INTEGER));
  float pointCoords[] = {2.5f, 0.5f, 1.5f, 1.5f};
  CHECK(cuMemcpyHtoD(xy, pointCoords, sizeof pointCoords));
  CHECK(cuLaunchKernel(sampleU, 1, 1, 1, 2, 1, 1, 0, nullptr, sampleArgs,
                       nullptr));
  unsigned ures[2];
  CHECK(cuMemcpyDtoH(ures, out, sizeof ures));
  printf("integer: %u %u\n", ures[0], ures[1]);

  // Normalized coordinates, wrap on x.
  CHECK(cuTexRefSetFlags(img, CU_TRSF_NORMALIZED_COORDINATES));
  CHECK(cuTexRefSetAddressMode(img, 0, CU_TR_ADDRESS_MODE_WRAP));
  float wrapCoords[] = {1.375f, 0.25f, -0.125f, 0.75f};
  CHECK(cuMemcpyHtoD(xy, wrapCoords, sizeof wrapCoords));
  CHECK(cuLaunchKernel(sampleF, 1, 1, 1, 2, 1, 1, 0, nullptr, sampleArgs,
                       nullptr));
  CHECK(cuMemcpyDtoH(res, out, 2 * sizeof(float)));
  printf("wrap: %.4f %.4f\n", res[0], res[1]);

  CUtexref missing;
  CUresult r1 = cuModuleGetTexRef(&missing, mod, "nope");
  CUresult r2 = cuModuleGetTexRef(&missing, mod, "surf");
  printf("missing: %s, surfref as texref: %s\n", name(r1), name(r2));

  // The image again, from an array.
  CUarray imgArray;
  CHECK(cuArrayCreate(&imgArray, &desc));
  CUDA_MEMCPY2D up;
  memset(&up, 0, sizeof up);
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = imgHost;
  up.srcPitch = 64;
  up.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  up.dstArray = imgArray;
  up.WidthInBytes = 4;
  up.Height = 2;
  CHECK(cuMemcpy2D(&up));
  CHECK(cuTexRefSetArray(img, imgArray, CU_TRSA_OVERRIDE_FORMAT));
  CHECK(cuTexRefSetFlags(img, 0));
  CHECK(cuTexRefSetAddressMode(img, 0, CU_TR_ADDRESS_MODE_CLAMP));
  CHECK(cuTexRefSetFilterMode(img, CU_TR_FILTER_MODE_LINEAR));
  CHECK(cuMemcpyHtoD(xy, coords, sizeof coords));
  CHECK(cuLaunchKernel(sampleF, 1, 1, 1, 3, 1, 1, 0, nullptr, sampleArgs,
                       nullptr));
  CHECK(cuMemcpyDtoH(res, out, 3 * sizeof(float)));
  printf("array linear: %.4f %.4f %.4f\n", res[0], res[1], res[2]);

  CUsurfref surf;
  CHECK(cuModuleGetSurfRef(&surf, mod, "surf"));
  CUDA_ARRAY3D_DESCRIPTOR surfDesc = {
      4, 2, 0, CU_AD_FORMAT_SIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST};
  CUarray surfArray;
  CHECK(cuArray3DCreate(&surfArray, &surfDesc));
  CHECK(cuSurfRefSetArray(surf, surfArray, 0));
  CUfunction surfWrite;
  CHECK(cuModuleGetFunction(&surfWrite, mod, "surf_write"));
  CHECK(cuLaunchKernel(surfWrite, 2, 1, 1, 4, 1, 1, 0, nullptr, nullptr,
                       nullptr));
  int ints[8];
  CUDA_MEMCPY2D down;
  memset(&down, 0, sizeof down);
  down.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  down.srcArray = surfArray;
  down.dstMemoryType = CU_MEMORYTYPE_HOST;
  down.dstHost = ints;
  down.dstPitch = 16;
  down.WidthInBytes = 16;
  down.Height = 2;
  CHECK(cuMemcpy2D(&down));
  printf("surfref:");
  for (int v : ints)
    printf(" %d", v);
  printf("\n");
  printf(
      "no SURFACE_LDST: %s, no override flag: %s, not an array: %s\n",
      name(cuSurfRefSetArray(surf, imgArray, 0)),
      name(cuTexRefSetArray(img, imgArray, 0)),
      name(cuTexRefSetArray(img, (CUarray)imgHost, CU_TRSA_OVERRIDE_FORMAT)));

  size_t ignored;
  printf("host: %s, past the end: %s\n",
         name(cuTexRefSetAddress(&ignored, lin, CUdeviceptr(linHost),
                                 sizeof linHost)),
         name(cuTexRefSetAddress(&ignored, lin, linMem + 4, sizeof linHost)));
  CUDA_ARRAY_DESCRIPTOR tall = {4, 3, CU_AD_FORMAT_UNSIGNED_INT8, 1};
  CUDA_ARRAY_DESCRIPTOR exact = {64, 2, CU_AD_FORMAT_UNSIGNED_INT8, 1};
  printf("2D host: %s, 2D past the end: %s, 2D inside: %s\n",
         name(cuTexRefSetAddress2D(img, &desc, CUdeviceptr(imgHost), 64)),
         name(cuTexRefSetAddress2D(img, &tall, imgMem, 64)),
         name(cuTexRefSetAddress2D(img, &exact, imgMem, 64)));
  return 0;
}
