#!/usr/bin/env bash
# Runs the CUDA test programs (test/CUDA/*.cu) on a real GPU, to confirm
# that the outputs their CHECK lines expect are what the hardware computes.
# Three steps, so that the GPU machine needs only the driver:
#
#   utils/gpu-check-cuda-tests.sh build DIR      # here: nvcc for sm_90
#   utils/gpu-check-cuda-tests.sh run DIR OUT    # on the GPU machine
#   utils/gpu-check-cuda-tests.sh check DIR OUT  # here: FileCheck
#
# `build` takes each test's first `%nvcc` RUN line, with %nvcc standing for
# `nvcc -arch=ARCH -O2 -std=c++17` (ARCH from $GPU_ARCH, default sm_90) and
# the static CUDA runtime. `check` applies each test's CHECK prefix only:
# other prefixes test ptx-jit's own output (statistics, checking reports).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
ARCH="${GPU_ARCH:-sm_90}"
FILECHECK="${FILECHECK:-/usr/lib/llvm-22/bin/FileCheck}"

build() {
  local Dir=$1 Src Name Cmd
  mkdir -p "$Dir"
  for Src in "$ROOT"/test/CUDA/*.cu; do
    Name=$(basename "$Src" .cu)
    Cmd=$(sed -n 's|^// RUN: \(%nvcc[^&]*\).*|\1|p' "$Src" | head -1)
    [ -n "$Cmd" ] || continue
    Cmd=${Cmd//%nvcc/$NVCC -arch=$ARCH -O2 -std=c++17}
    Cmd=${Cmd//%s/$Src}
    Cmd=${Cmd//%S/$ROOT/test/CUDA}
    Cmd=${Cmd//%t/$Dir/$Name}
    # A test built for compute_90 PTX only still runs: the driver JITs it.
    echo "build $Name"
    eval "$Cmd" || echo "build failed: $Name" >&2
  done
}

run() {
  local Dir=$1 Out=$2 Exe Name Status
  mkdir -p "$Out"
  for Exe in "$Dir"/*; do
    [ -x "$Exe" ] && [ -f "$Exe" ] || continue
    Name=$(basename "$Exe")
    Status=0
    timeout 120 "$Exe" >"$Out/$Name.out" 2>&1 || Status=$?
    echo "$Name exit $Status" | tee -a "$Out/status.txt"
  done
}

check() {
  local Dir=$1 Out=$2 Src Name Good=0 Bad=0
  for Src in "$ROOT"/test/CUDA/*.cu; do
    Name=$(basename "$Src" .cu)
    [ -f "$Out/$Name.out" ] || continue
    grep -q '// CHECK' "$Src" || continue
    if "$FILECHECK" --check-prefix=CHECK "$Src" <"$Out/$Name.out" \
        >"$Out/$Name.filecheck" 2>&1; then
      Good=$((Good + 1))
    else
      Bad=$((Bad + 1))
      echo "MISMATCH $Name (see $Out/$Name.filecheck)"
    fi
  done
  echo "$Good programs give what their CHECK lines expect, $Bad do not"
  [ "$Bad" = 0 ]
}

case "${1:-}" in
build) build "$2" ;;
run) run "$2" "$3" ;;
check) check "$2" "$3" ;;
*) sed -n '2,13p' "$0" >&2; exit 2 ;;
esac
