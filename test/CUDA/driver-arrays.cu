// The driver API's arrays and texture and surface objects: cuArrayCreate,
// cuArray3DCreate and cuMipmappedArrayCreate; cuMemcpy2D/3D between host
// memory, pitched device memory and arrays, with offsets on both sides;
// cuMemcpyHtoA and its kin on 1D arrays; cuTexObjectCreate and
// cuSurfObjectCreate over them; and the runtime library seeing the same
// array. Kernels: Inputs/driver-arrays-kernels.cu, loaded with cuModuleLoad.
// Expected values by hand:
//   2D: texel (x, y) = 10y + x, 5 x 3, copied from rows 1-3, bytes 8-27 of
//   a host buffer whose rows are 32 bytes apart (host[8(y+1) + 2 + x]).
//   The 2 x 2 block at (3, 1) back: 13 14 / 23 24.
//   3D: texel (x, y, z) = 100z + 10y + x, 4 x 3 x 2, from pitched device
//   memory (cuMemAllocPitch: 512-byte rows).
//   1D: 16 u32 zeros; HtoA writes 7 8 9 10 at byte 8 (elements 2-5); AtoA
//   copies elements 1-6 (bytes 4-27) to element 0 of a second array; DtoA
//   writes 99 to its element 15; AtoD, AtoH read it back:
//   0 7 8 9 10 0 0 0 0 0 0 0 0 0 0 99.
//   RGBA8 texels (0, 0, 0, 255) and (255, 51, 102, 0), read as normalized
//   floats and filtered linearly at x = 1 (halfway between the centers):
//   (0.5, 0.1, 0.2, 0.5); point sampling at x = 1.5 reads the second
//   texel: (1, 0.2, 0.4, 0).
//   Surface: int (x, y) = 1000y + x, 4 x 2.
// REQUIRES: nvcc
// RUN: %nvcc -ptx %S/Inputs/driver-arrays-kernels.cu -o %t.ptx
// RUN: %nvcc %s -o %t -lcuda
// RUN: ptx-jit exec %t %t.ptx | FileCheck %s
// clang-format off
// CHECK: descriptor: 5 x 3, format 0x20, 1 channel
// CHECK-NEXT: runtime sees: 5 x 3 x 0, 32-bit float
// CHECK-NEXT: 2d: 0 1 2 3 4 10 11 12 13 14 20 21 22 23 24
// CHECK-NEXT: block: 13 14 23 24
// CHECK-NEXT: 3d: 24 mismatches 0, last 123
// CHECK-NEXT: 1d: 0 7 8 9 10 0 0 0 0 0 0 0 0 0 0 99
// CHECK-NEXT: linear: 0.5000 0.1000 0.2000 0.5000
// CHECK-NEXT: point: 1.0000 0.2000 0.4000 0.0000
// CHECK-NEXT: surface: 0 1 2 3 1000 1001 1002 1003
// CHECK-NEXT: mipmap: level 1 is 2 x 2, level 3: CUDA_ERROR_INVALID_VALUE
// CHECK-NEXT: surface without SURFACE_LDST: CUDA_ERROR_INVALID_VALUE
// CHECK-NEXT: past the end: CUDA_ERROR_INVALID_VALUE, HtoA on 2D: CUDA_ERROR_INVALID_VALUE
// CHECK-NEXT: 3 channels: CUDA_ERROR_INVALID_VALUE, destroyed twice: CUDA_ERROR_INVALID_HANDLE
// CHECK-NEXT: no file: CUDA_ERROR_FILE_NOT_FOUND
// clang-format on
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

#define CHECK(X)                                                               \
  if (CUresult R = (X)) {                                                      \
    printf("%s failed: %s\n", #X, name(R));                                    \
    return 1;                                                                  \
  }

static const char *name(CUresult R) {
  const char *N = "?";
  cuGetErrorName(R, &N);
  return N;
}

static CUDA_TEXTURE_DESC pointSampler() {
  CUDA_TEXTURE_DESC T;
  memset(&T, 0, sizeof T);
  for (CUaddress_mode &M : T.addressMode)
    M = CU_TR_ADDRESS_MODE_CLAMP;
  T.filterMode = CU_TR_FILTER_MODE_POINT;
  return T;
}

static CUDA_RESOURCE_DESC arrayResource(CUarray A) {
  CUDA_RESOURCE_DESC R;
  memset(&R, 0, sizeof R);
  R.resType = CU_RESOURCE_TYPE_ARRAY;
  R.res.array.hArray = A;
  return R;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));
  CUmodule mod;
  CHECK(cuModuleLoad(&mod, argv[1]));
  CUfunction fetch2d, fetch3d, sample2d, surfWrite;
  CHECK(cuModuleGetFunction(&fetch2d, mod, "fetch2d"));
  CHECK(cuModuleGetFunction(&fetch3d, mod, "fetch3d"));
  CHECK(cuModuleGetFunction(&sample2d, mod, "sample2d"));
  CHECK(cuModuleGetFunction(&surfWrite, mod, "surfWrite"));
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, 64 * sizeof(float)));

  // A 5 x 3 float array from the middle of a pitched host buffer.
  CUDA_ARRAY_DESCRIPTOR desc = {5, 3, CU_AD_FORMAT_FLOAT, 1};
  CUarray arr2d;
  CHECK(cuArrayCreate(&arr2d, &desc));
  CUDA_ARRAY_DESCRIPTOR got;
  CHECK(cuArrayGetDescriptor(&got, arr2d));
  printf("descriptor: %zu x %zu, format 0x%x, %u channel\n", got.Width,
         got.Height, unsigned(got.Format), got.NumChannels);
  cudaChannelFormatDesc channels;
  cudaExtent extent;
  unsigned flags;
  if (cudaArrayGetInfo(&channels, &extent, &flags, (cudaArray_t)arr2d))
    return 1;
  printf("runtime sees: %zu x %zu x %zu, %d-bit %s\n", extent.width,
         extent.height, extent.depth, channels.x,
         channels.f == cudaChannelFormatKindFloat ? "float" : "other");
  float host[8 * 4] = {};
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x)
      host[8 * (y + 1) + 2 + x] = 10 * y + x;
  CUDA_MEMCPY2D c2;
  memset(&c2, 0, sizeof c2);
  c2.srcMemoryType = CU_MEMORYTYPE_HOST;
  c2.srcHost = host;
  c2.srcPitch = 32;
  c2.srcXInBytes = 8;
  c2.srcY = 1;
  c2.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c2.dstArray = arr2d;
  c2.WidthInBytes = 5 * sizeof(float);
  c2.Height = 3;
  CHECK(cuMemcpy2D(&c2));
  CUDA_RESOURCE_DESC res2d = arrayResource(arr2d);
  CUDA_TEXTURE_DESC point = pointSampler();
  CUtexObject tex2d;
  CHECK(cuTexObjectCreate(&tex2d, &res2d, &point, nullptr));
  int w = 5;
  void *args2d[] = {&tex2d, &out, &w};
  CHECK(cuLaunchKernel(fetch2d, 3, 1, 1, 5, 1, 1, 0, nullptr, args2d, nullptr));
  float res[64];
  CHECK(cuMemcpyDtoH(res, out, 15 * sizeof(float)));
  printf("2d:");
  for (int i = 0; i < 15; ++i)
    printf(" %g", res[i]);
  printf("\n");
  // The 2 x 2 block at (3, 1), asynchronously into a 2-float-pitch buffer.
  float block[4] = {};
  CUDA_MEMCPY2D back;
  memset(&back, 0, sizeof back);
  back.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  back.srcArray = arr2d;
  back.srcXInBytes = 3 * sizeof(float);
  back.srcY = 1;
  back.dstMemoryType = CU_MEMORYTYPE_HOST;
  back.dstHost = block;
  back.dstPitch = 2 * sizeof(float);
  back.WidthInBytes = 2 * sizeof(float);
  back.Height = 2;
  CUstream stream;
  CHECK(cuStreamCreate(&stream, 0));
  CHECK(cuMemcpy2DAsync(&back, stream));
  CHECK(cuStreamSynchronize(stream));
  printf("block: %g %g %g %g\n", block[0], block[1], block[2], block[3]);

  // A 4 x 3 x 2 float array from pitched device memory.
  CUdeviceptr pitched;
  size_t pitch;
  CHECK(cuMemAllocPitch(&pitched, &pitch, 4 * sizeof(float), 3 * 2, 4));
  static float slab[6][128];
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x)
        slab[z * 3 + y][x] = 100 * z + 10 * y + x;
  if (pitch != sizeof slab[0])
    printf("pitch %zu\n", pitch);
  CHECK(cuMemcpyHtoD(pitched, slab, sizeof slab));
  CUDA_ARRAY3D_DESCRIPTOR desc3 = {4, 3, 2, CU_AD_FORMAT_FLOAT, 1, 0};
  CUarray arr3d;
  CHECK(cuArray3DCreate(&arr3d, &desc3));
  CUDA_MEMCPY3D c3;
  memset(&c3, 0, sizeof c3);
  c3.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c3.srcDevice = pitched;
  c3.srcPitch = pitch;
  c3.srcHeight = 3;
  c3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c3.dstArray = arr3d;
  c3.WidthInBytes = 4 * sizeof(float);
  c3.Height = 3;
  c3.Depth = 2;
  CHECK(cuMemcpy3D(&c3));
  CUDA_RESOURCE_DESC res3d = arrayResource(arr3d);
  CUtexObject tex3d;
  CHECK(cuTexObjectCreate(&tex3d, &res3d, &point, nullptr));
  void *args3d[] = {&tex3d, &out};
  CHECK(cuLaunchKernel(fetch3d, 2, 1, 1, 4, 3, 1, 0, nullptr, args3d, nullptr));
  CHECK(cuMemcpyDtoH(res, out, 24 * sizeof(float)));
  int mismatches = 0;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x)
        mismatches += res[(z * 3 + y) * 4 + x] != 100 * z + 10 * y + x;
  printf("3d: 24 mismatches %d, last %g\n", mismatches, res[23]);

  // 1D arrays of 16 u32, copied by bytes.
  CUDA_ARRAY_DESCRIPTOR desc1 = {16, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1};
  CUarray a1, b1;
  CHECK(cuArrayCreate(&a1, &desc1));
  CHECK(cuArrayCreate(&b1, &desc1));
  unsigned zeros[16] = {}, vals[4] = {7, 8, 9, 10}, ninetyNine = 99;
  CHECK(cuMemcpyHtoA(a1, 0, zeros, sizeof zeros));
  CHECK(cuMemcpyHtoA(b1, 0, zeros, sizeof zeros));
  CHECK(cuMemcpyHtoA(a1, 8, vals, sizeof vals));
  CHECK(cuMemcpyAtoA(b1, 0, a1, 4, 6 * sizeof(unsigned)));
  CHECK(cuMemcpyHtoD(out, &ninetyNine, sizeof ninetyNine));
  CHECK(cuMemcpyDtoA(b1, 15 * sizeof(unsigned), out, sizeof ninetyNine));
  CHECK(cuMemcpyAtoD(out + 64, b1, 0, 16 * sizeof(unsigned)));
  unsigned ones[16];
  CHECK(cuMemcpyDtoH(ones, out + 64, sizeof ones));
  unsigned direct[16];
  CHECK(cuMemcpyAtoH(direct, b1, 0, sizeof direct));
  printf("1d:");
  for (int i = 0; i < 16; ++i)
    printf(" %u", ones[i] == direct[i] ? ones[i] : ~0u);
  printf("\n");

  // RGBA8 read as normalized floats (no CU_TRSF_READ_AS_INTEGER).
  CUDA_ARRAY3D_DESCRIPTOR rgbaDesc = {2, 1, 0, CU_AD_FORMAT_UNSIGNED_INT8,
                                      4, 0};
  CUarray rgba;
  CHECK(cuArray3DCreate(&rgba, &rgbaDesc));
  unsigned char texels[8] = {0, 0, 0, 255, 255, 51, 102, 0};
  CUDA_MEMCPY3D up;
  memset(&up, 0, sizeof up);
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = texels;
  up.srcPitch = sizeof texels;
  up.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  up.dstArray = rgba;
  up.WidthInBytes = sizeof texels;
  up.Height = 1;
  up.Depth = 1;
  CHECK(cuMemcpy3D(&up));
  CUDA_RESOURCE_DESC rgbaRes = arrayResource(rgba);
  CUDA_TEXTURE_DESC linear = pointSampler();
  linear.filterMode = CU_TR_FILTER_MODE_LINEAR;
  CUtexObject rgbaLinear, rgbaPoint;
  CHECK(cuTexObjectCreate(&rgbaLinear, &rgbaRes, &linear, nullptr));
  CHECK(cuTexObjectCreate(&rgbaPoint, &rgbaRes, &point, nullptr));
  float xy[2] = {1.0f, 0.5f}, xyPoint[2] = {1.5f, 0.5f};
  CUdeviceptr xyDev;
  CHECK(cuMemAlloc(&xyDev, sizeof xy));
  for (CUtexObject *T : {&rgbaLinear, &rgbaPoint}) {
    CHECK(cuMemcpyHtoD(xyDev, T == &rgbaLinear ? xy : xyPoint, sizeof xy));
    void *argsS[] = {T, &xyDev, &out};
    CHECK(
        cuLaunchKernel(sample2d, 1, 1, 1, 1, 1, 1, 0, nullptr, argsS, nullptr));
    CHECK(cuMemcpyDtoH(res, out, 4 * sizeof(float)));
    printf("%s: %.4f %.4f %.4f %.4f\n", T == &rgbaLinear ? "linear" : "point",
           res[0], res[1], res[2], res[3]);
  }
  CUDA_TEXTURE_DESC got3;
  CHECK(cuTexObjectGetTextureDesc(&got3, rgbaLinear));
  if (got3.filterMode != CU_TR_FILTER_MODE_LINEAR)
    printf("texture descriptor lost\n");

  // A surface of 4 x 2 ints.
  CUDA_ARRAY3D_DESCRIPTOR surfDesc = {
      4, 2, 0, CU_AD_FORMAT_SIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST};
  CUarray surfArr;
  CHECK(cuArray3DCreate(&surfArr, &surfDesc));
  CUDA_RESOURCE_DESC surfRes = arrayResource(surfArr);
  CUsurfObject surf;
  CHECK(cuSurfObjectCreate(&surf, &surfRes));
  void *argsW[] = {&surf};
  CHECK(
      cuLaunchKernel(surfWrite, 2, 1, 1, 4, 1, 1, 0, nullptr, argsW, nullptr));
  int ints[8];
  CUDA_MEMCPY2D down;
  memset(&down, 0, sizeof down);
  down.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  down.srcArray = surfArr;
  down.dstMemoryType = CU_MEMORYTYPE_HOST;
  down.dstHost = ints;
  down.dstPitch = 4 * sizeof(int);
  down.WidthInBytes = 4 * sizeof(int);
  down.Height = 2;
  CHECK(cuMemcpy2D(&down));
  printf("surface:");
  for (int v : ints)
    printf(" %d", v);
  printf("\n");
  CHECK(cuSurfObjectDestroy(surf));

  // Mipmapped: 4 x 4, 3 levels.
  CUDA_ARRAY3D_DESCRIPTOR mipDesc = {4, 4, 0, CU_AD_FORMAT_FLOAT, 1, 0};
  CUmipmappedArray mip;
  CHECK(cuMipmappedArrayCreate(&mip, &mipDesc, 3));
  CUarray level;
  CHECK(cuMipmappedArrayGetLevel(&level, mip, 1));
  CUDA_ARRAY3D_DESCRIPTOR levelDesc;
  CHECK(cuArray3DGetDescriptor(&levelDesc, level));
  printf("mipmap: level 1 is %zu x %zu, level 3: %s\n", levelDesc.Width,
         levelDesc.Height, name(cuMipmappedArrayGetLevel(&level, mip, 3)));
  CHECK(cuMipmappedArrayDestroy(mip));

  // Errors.
  CUsurfObject bad;
  printf("surface without SURFACE_LDST: %s\n",
         name(cuSurfObjectCreate(&bad, &res2d)));
  c2.dstY = 1; // three rows from row 1 of a 3-row array
  CUresult past = cuMemcpy2D(&c2);
  printf("past the end: %s, HtoA on 2D: %s\n", name(past),
         name(cuMemcpyHtoA(arr2d, 0, host, 4)));
  CUDA_ARRAY_DESCRIPTOR three = {4, 4, CU_AD_FORMAT_FLOAT, 3};
  CUarray unused;
  CHECK(cuTexObjectDestroy(tex2d));
  CHECK(cuArrayDestroy(arr2d));
  printf("3 channels: %s, destroyed twice: %s\n",
         name(cuArrayCreate(&unused, &three)), name(cuArrayDestroy(arr2d)));
  CUmodule none;
  printf("no file: %s\n", name(cuModuleLoad(&none, "/nonexistent.ptx")));
  CHECK(cuStreamDestroy(stream));
  return 0;
}
