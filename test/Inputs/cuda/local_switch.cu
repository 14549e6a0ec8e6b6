// Local (stack) arrays indexed dynamically, forcing .local memory, and
// switch statements dense enough for a jump table.
#include <cuda_runtime.h>

extern "C" __global__ void localArray(const int *idx, const float *in,
                                      float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float buf[32];
  for (int k = 0; k < 32; ++k)
    buf[k] = in[t] * (float)k;
  // Runtime index: the array cannot be promoted to registers.
  int j = idx[t] & 31;
  buf[j] += 1.0f;
  int j2 = (j * 7 + 3) & 31;
  out[t] = buf[j2] + buf[31 - j];
}

// Local struct array written through a pointer passed to a device func.
struct Item {
  int key;
  float val;
};

__device__ __noinline__ void fillItems(Item *items, int n, int seed) {
  for (int i = 0; i < n; ++i) {
    items[i].key = (seed * 1103515245 + i * 12345) & 0xff;
    items[i].val = (float)i;
  }
}

extern "C" __global__ void localStructs(float *out, int pick) {
  Item items[16];
  fillItems(items, 16, threadIdx.x);
  // Insertion sort on the local array.
  for (int i = 1; i < 16; ++i) {
    Item x = items[i];
    int j = i - 1;
    while (j >= 0 && items[j].key > x.key) {
      items[j + 1] = items[j];
      --j;
    }
    items[j + 1] = x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = items[pick & 15].val;
}

// Dense switch: candidates for brx.idx / jump tables.
__device__ __noinline__ int dispatch(int op, int a, int b) {
  switch (op) {
  case 0:
    return a + b;
  case 1:
    return a - b;
  case 2:
    return a * b;
  case 3:
    return b != 0 ? a / b : 0;
  case 4:
    return a & b;
  case 5:
    return a | b;
  case 6:
    return a ^ b;
  case 7:
    return a << (b & 31);
  case 8:
    return a >> (b & 31);
  case 9:
    return min(a, b);
  case 10:
    return max(a, b);
  case 11:
    return abs(a - b);
  default:
    return -1;
  }
}

extern "C" __global__ void switchKernel(const int *ops, const int *a,
                                        const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = dispatch(ops[i], a[i], b[i]);
}

// Inline switch with fall-through and side effects in each case.
extern "C" __global__ void switchInline(const unsigned *ops, float *data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = data[i];
  switch (ops[i] % 10) {
  case 0:
    v += 1.0f;
    // fall through
  case 1:
    v *= 3.0f;
    break;
  case 2:
    v = -v;
    break;
  case 3:
    v = v * v;
    break;
  case 4:
    v = sqrtf(fabsf(v));
    break;
  case 5:
    v = v / 7.0f;
    break;
  case 6:
    v = floorf(v);
    break;
  case 7:
    v = ceilf(v);
    break;
  case 8:
    data[i ^ 1] = v; // store to neighbour
    break;
  case 9:
    v = 0.0f;
    break;
  }
  data[i] = v;
}

// Sparse switch (likely a compare chain, not a table).
extern "C" __global__ void switchSparse(const int *in, int *out) {
  int i = threadIdx.x;
  int r;
  switch (in[i]) {
  case -1000:
    r = 1;
    break;
  case 7:
    r = 2;
    break;
  case 4096:
    r = 3;
    break;
  case 1 << 20:
    r = 4;
    break;
  default:
    r = 0;
  }
  out[i] = r;
}
