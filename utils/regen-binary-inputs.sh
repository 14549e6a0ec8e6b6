#!/usr/bin/env bash
# Regenerates the compiled CUDA files test/Driver/non-ptx-inputs.test hands
# to ptx-jit (which must recognize them and say what to do instead): a cubin
# and a fat binary of examples/saxpy.cu.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
OUT="$ROOT/test/Driver/Inputs"
"$NVCC" -cubin -arch=sm_80 -o "$OUT/saxpy.sm_80.cubin" "$ROOT/examples/saxpy.cu"
"$NVCC" -fatbin -arch=sm_80 -o "$OUT/saxpy.fatbin" "$ROOT/examples/saxpy.cu"
