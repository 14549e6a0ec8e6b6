// Without a CUDA installation there is no libdevice: a math function is an
// undeclared identifier (Clang's diagnostic, in Clang's format), and a note
// says what ptx-jit's own headers cover and where math comes from.
// RUN: not ptx-jit check %s --no-cuda-installation 2>&1 | FileCheck %s
// RUN: not ptx-jit ptx %s --cuda-path=%t.none 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,WARN
// WARN: ptx-jit: warning: no CUDA installation at '{{.*}}.none'
// CHECK: missing-math.cu:[[@LINE+8]]:10: error: use of undeclared identifier 'sinf'
// CHECK-NEXT: {{^}}   [[@LINE+7]] |   y[i] = sinf(y[i]) * expf(y[i]);
// CHECK: missing-math.cu:[[@LINE+6]]:23: error: use of undeclared identifier 'expf'
// CHECK: 2 errors generated
// CHECK: ptx-jit: note: '{{.*}}missing-math.cu' was compiled without a CUDA installation, with ptx-jit's own device headers ({{.*}}); 'sinf', 'expf' are not among them: math functions need libdevice from a CUDA installation (--cuda-path=DIR or CUDA_PATH)
// CHECK: ptx-jit: error: cannot compile '{{.*}}missing-math.cu'
extern "C" __global__ void m(float *y) {
  int i = threadIdx.x;
  y[i] = sinf(y[i]) * expf(y[i]);
}
