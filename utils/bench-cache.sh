#!/bin/sh
# First compile against cached start of the benchmark kernels, in one run:
# each kernel runs twice with a fresh cache directory, and the script prints
# --stats' "jit total" (context, cache lookup, compilation or load, link) of
# both runs, and the whole process time of both. Usage: utils/bench-cache.sh
# [path/to/ptx-jit]
set -e
PTXJIT=${1:-build/bin/ptx-jit}
K=bench/kernels
run() { # name ptx kernel args...
  name=$1 ptx=$2 kernel=$3
  shift 3
  dir=$(mktemp -d)
  line="$name"
  for i in 1 2; do
    start=$(date +%s%N)
    jit=$("$PTXJIT" run "$ptx" -k "$kernel" "$@" --cache-dir="$dir" --stats \
      2>&1 >/dev/null | sed -n 's/^  jit total *\([0-9.]*\) ms.*/\1/p')
    end=$(date +%s%N)
    line="$line $jit $(( (end - start) / 1000000 ))"
  done
  rm -rf "$dir"
  echo "$line"
}
echo "kernel first-jit-ms first-process-ms cached-jit-ms cached-process-ms"
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
run histogram_smem $K/histogram.ptx histogram_smem -g 64 -b 256 \
  --arg 'u8[16384]=rand:1' --arg 16384 --arg 'u32[256]'
