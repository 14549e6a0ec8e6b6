#!/bin/sh
# First-compile time of the benchmark kernels, per phase: each kernel is
# compiled REPS times (default 5) with --no-cache, and the script prints the
# minimum of each phase --stats reports (IRGen, optimization, code
# generation, link) and of "jit total", in ms. Minima, because the other
# load of a shared machine only ever adds time. Usage:
# utils/bench-jit.sh [path/to/ptx-jit] [reps] [extra ptx-jit options...]
set -e
PTXJIT=${1:-build/bin/ptx-jit}
REPS=${2:-5}
[ $# -ge 2 ] && shift 2 || shift $#
EXTRA="$*"
K=bench/kernels
run() { # name ptx kernel args...
  name=$1 ptx=$2 kernel=$3
  shift 3
  i=0
  while [ $i -lt "$REPS" ]; do
    # shellcheck disable=SC2086
    "$PTXJIT" run "$ptx" -k "$kernel" "$@" --no-cache --stats $EXTRA \
      2>&1 >/dev/null
    i=$((i + 1))
  done | awk -v name="$name" '
    function keep(k, v) { if (!(k in min) || v < min[k]) min[k] = v }
    /^  irgen /    { keep("irgen", $2) }
    /^  optimize / { keep("opt", $2) }
    /^  codegen /  { keep("codegen", $2) }
    /^  link /     { keep("link", $2) }
    /^  jit total/ { keep("total", $3) }
    END { printf "%-15s %7.1f %7.1f %7.1f %7.1f %7.1f\n", name, min["irgen"],
          min["opt"], min["codegen"], min["link"], min["total"] }'
}
echo "kernel            irgen     opt codegen    link   total   (min ms of $REPS)"
run vector_add $K/vector_add.ptx vector_add -g 64 -b 256 \
  --arg 'f32[16384]' --arg 'f32[16384]' --arg 'f32[16384]' --arg 16384
run saxpy $K/saxpy.ptx saxpy -g 64 -b 256 --arg 16384 --arg 2.0 \
  --arg 'f32[16384]' --arg 'f32[16384]'
run stencil5 $K/stencil5.ptx stencil5 -g 8,32 -b 32,8 --arg 256 --arg 256 \
  --arg 0.5 --arg 0.125 --arg 'f32[65536]=rand:1' --arg 'f32[65536]'
run sgemm_naive $K/sgemm_naive.ptx sgemm_naive -g 8,32 -b 32,8 --arg 256 \
  --arg 256 --arg 256 --arg 'f32[65536]=rand:1' --arg 'f32[65536]=rand:2' \
  --arg 'f32[65536]'
run sgemm_tiled16 $K/sgemm_tiled.ptx sgemm_tiled16 -g 16,16 -b 16,16 \
  --arg 256 --arg 256 --arg 256 --arg 'f32[65536]=rand:1' \
  --arg 'f32[65536]=rand:2' --arg 'f32[65536]'
run reduce_smem $K/reduce.ptx reduce_smem -g 64 -b 256 \
  --arg 'f32[16384]=rand:1' --arg 'f32[64]' --arg 16384
run reduce_shfl $K/reduce.ptx reduce_shfl -g 64 -b 256 \
  --arg 'f32[16384]=rand:1' --arg 'f32[64]' --arg 16384
run histogram_smem $K/histogram.ptx histogram_smem -g 64 -b 256 \
  --arg 'u8[16384]=rand:1' --arg 16384 --arg 'u32[256]'
