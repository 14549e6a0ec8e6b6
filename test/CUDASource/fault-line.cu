// A fault in a kernel compiled from CUDA names the .cu line as well as the
// PTX line: the front end keeps line tables (.file/.loc in the PTX).
// Thread t stores out[t * 2048]; out has 8 elements, so lane 1 is the first
// to miss, 8192 - 32 = 8160 bytes past the end.
// RUN: not ptx-jit run %s -k spread -g 1 -b 32 --no-cuda-installation \
// RUN:   --arg 'u32[8]' 2>&1 | FileCheck %s
// CHECK: ptx-jit: error: out-of-bounds global store of 4 bytes in kernel '{{.*}}spread{{.*}}', CTA (0,0,0), warp 0, at line {{[0-9]+}} of {{.*}} ({{.*}}fault-line.cu:[[@LINE+6]])
// CHECK-NEXT: address 0x{{[0-9a-f]+}} is 8160 bytes past the end of buffer 0 (`u32[8]`, `--arg 0`

__global__ void spread(unsigned *out) {
  unsigned t = threadIdx.x;
  // The store.
  out[t * 2048] = t;
}
