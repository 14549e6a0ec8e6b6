// What ptx-jit's own device headers declare, compiled both with them
// (--no-cuda-installation) and, where one is visible, with the CUDA
// installation's headers: the results are the same.
//
// RUN: ptx-jit run %s --no-cuda-installation -k reduce -g 2 -b 64 \
// RUN:   --arg 'u32[1]>-' --arg 'f32[1]>-' --arg 's32[2]=[-5,100]>-' --arg 'u32[4]>-' \
// RUN:   | FileCheck %s
// RUN: ptx-jit run %s -k reduce -g 2 -b 64 \
// RUN:   --arg 'u32[1]>-' --arg 'f32[1]>-' --arg 's32[2]=[-5,100]>-' --arg 'u32[4]>-' \
// RUN:   | FileCheck %s
//
// Each of the 4 warps sums its lanes 0..31 by __shfl_down_sync: 496, printed
// by lane 0 with its warp-in-block number.
// CHECK-DAG: block 0 warp 0 sum 496
// CHECK-DAG: block 0 warp 1 sum 496
// CHECK-DAG: block 1 warp 0 sum 496
// CHECK-DAG: block 1 warp 1 sum 496
// Global thread ids 0..127 add up to 127*128/2 = 8128, as integers (atomicAdd
// of unsigned) and as floats (exact: every partial sum is an integer below 2^24).
// CHECK: reduce_param_0 = [8128]
// CHECK: reduce_param_1 = [8128]
// atomicMax from -5 and atomicMin from 100 over the block ids times 10
// (0 and 10): 10 and 0.
// CHECK: reduce_param_2 = [10, 0]
// Per block the shared counter reaches 64 (atomicAdd on __shared__, read
// after __syncthreads) and the ballot of odd lanes is 0xaaaaaaaa.
// CHECK: reduce_param_3 = [64, 2863311530, 64, 2863311530]

extern "C" __global__ void reduce(unsigned *USum, float *FSum, int *MaxMin,
                       unsigned *PerBlock) {
  __shared__ unsigned Count;
  unsigned Tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned Lane = threadIdx.x % 32;
  if (threadIdx.x == 0)
    Count = 0;
  __syncthreads();
  atomicAdd(&Count, 1u);
  atomicAdd(USum, Tid);
  atomicAdd(FSum, (float)Tid);
  atomicMax(&MaxMin[0], (int)blockIdx.x * 10);
  atomicMin(&MaxMin[1], (int)blockIdx.x * 10);
  int V = Lane;
  for (int Offset = 16; Offset > 0; Offset /= 2)
    V += __shfl_down_sync(0xffffffffu, V, Offset);
  unsigned Odd = __ballot_sync(0xffffffffu, Lane % 2 == 1);
  __syncthreads();
  if (Lane == 0)
    printf("block %u warp %u sum %d\n", blockIdx.x, threadIdx.x / 32, V);
  if (threadIdx.x == 0) {
    PerBlock[2 * blockIdx.x] = Count;
    PerBlock[2 * blockIdx.x + 1] = Odd;
  }
}
