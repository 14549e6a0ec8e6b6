// out[i] = FACTOR * i, with FACTOR from a header the cache test edits.
#include "factor.h"

extern "C" __global__ void scaled(int *out) {
  out[threadIdx.x] = FACTOR * threadIdx.x;
}
