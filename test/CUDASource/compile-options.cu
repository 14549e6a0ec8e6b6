// -I, -D and -std= reach Clang. The kernel writes SCALE_FROM_HEADER (3,
// from Inputs/scale.h through -I) times FACTOR (-DFACTOR=7): 21, through a
// C++20 consteval function, which -std=c++17 rejects.
// RUN: ptx-jit run %s -I %S/Inputs -DFACTOR=7 -std=c++20 -g 1 -b 1 \
// RUN:   --arg 's32[1]>-' | FileCheck %s
// RUN: ptx-jit run %s -I%S/Inputs -D FACTOR=7 -std=c++20 \
// RUN:   --no-cuda-installation -g 1 -b 1 --arg 's32[1]>-' | FileCheck %s
// CHECK: k_param_0 = [21]
// RUN: not ptx-jit check %s -I %S/Inputs -DFACTOR=7 -std=c++17 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CXX17
// CXX17: compile-options.cu:[[@LINE+9]]:1: error: unknown type name 'consteval'
// RUN: not ptx-jit check %s -DFACTOR=7 -std=c++20 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOINC
// NOINC: compile-options.cu:[[@LINE+3]]:10: fatal error: 'scale.h' file not found
// RUN: not ptx-jit check %s -I %S/Inputs -std=c++20 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NODEF
#include "scale.h"
// NODEF: compile-options.cu:[[@LINE+2]]:{{[0-9]+}}: error: use of undeclared identifier 'FACTOR'

consteval int scaled(int X) { return X * FACTOR; }

extern "C" __global__ void k(int *Out) { *Out = scaled(SCALE_FROM_HEADER); }
