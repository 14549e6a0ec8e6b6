#!/usr/bin/env bash
# The checking mode's cost: each benchmark kernel (bench/kernels) run by
# `ptx-jit run` unchecked and with --check (all four tools), on one host
# thread, best of REPS runs each; prints a Markdown table of the run times
# (--stats) and their ratio, and fails if a checked run reports an error.
#
#   utils/check-overhead.sh            # sizes below, 3 runs each
#   REPS=5 SCALE=2 utils/check-overhead.sh   # 5 runs, 2x the elements
#
# Environment: PTXJIT_BUILD_DIR (default build/), REPS, SCALE.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PTXJIT="${PTXJIT_BUILD_DIR:-$ROOT/build}/bin/ptx-jit"
REPS="${REPS:-3}"
S="${SCALE:-1}"
K="$ROOT/bench/kernels"

N=$((1048576 * S))        # vector_add, saxpy, reduce, histogram elements
G=$((N / 256))
D=$((128 * S))            # sgemm: D x D x D
W=$((512 * S))            # stencil5: W x W

# name | ptx | arguments after the file
CASES=(
  "vector_add|vector_add.ptx|-g $G -b 256 --arg f32[$N]=rand --arg f32[$N]=rand --arg f32[$N] --arg $N"
  "saxpy|saxpy.ptx|-g $G -b 256 --arg $N --arg 2.0 --arg f32[$N]=rand --arg f32[$N]=rand"
  "sgemm_naive|sgemm_naive.ptx|-g $((D / 32)),$((D / 8)) -b 32,8 --arg $D --arg $D --arg $D --arg f32[$((D * D))]=rand --arg f32[$((D * D))]=rand --arg f32[$((D * D))]"
  "sgemm_tiled16|sgemm_tiled.ptx|-k sgemm_tiled16 -g $((D / 16)),$((D / 16)) -b 16,16 --arg $D --arg $D --arg $D --arg f32[$((D * D))]=rand --arg f32[$((D * D))]=rand --arg f32[$((D * D))]"
  "sgemm_tiled32|sgemm_tiled.ptx|-k sgemm_tiled32 -g $((D / 32)),$((D / 32)) -b 32,32 --arg $D --arg $D --arg $D --arg f32[$((D * D))]=rand --arg f32[$((D * D))]=rand --arg f32[$((D * D))]"
  "stencil5|stencil5.ptx|-g $((W / 32)),$((W / 8)) -b 32,8 --arg $W --arg $W --arg 0.5 --arg 0.125 --arg f32[$((W * W))]=rand --arg f32[$((W * W))]"
  "reduce_smem|reduce.ptx|-k reduce_smem -g $G -b 256 --arg f32[$N]=rand --arg f32[$G] --arg $N"
  "reduce_shfl|reduce.ptx|-k reduce_shfl -g $G -b 256 --arg f32[$N]=rand --arg f32[$G] --arg $N"
  "histogram|histogram.ptx|-g 256 -b 256 --arg u8[$N]=rand --arg $N --arg u32[256]"
)

# The best run time in ms of `ptx-jit run` with the given arguments.
best() {
  local Best="" T
  for _ in $(seq "$REPS"); do
    T=$("$PTXJIT" run "$@" --threads 1 --stats 2>&1 >/dev/null |
        sed -n 's/^  run *\([0-9.]*\) ms.*/\1/p')
    [ -n "$T" ] || { echo "failed: ptx-jit run $*" >&2; "$PTXJIT" run "$@" --threads 1 >/dev/null; exit 1; }
    Best=$(awk -v a="$Best" -v b="$T" 'BEGIN { print (a == "" || b < a) ? b : a }')
  done
  echo "$Best"
}

echo "| kernel | unchecked ms | checked ms | checked / unchecked |"
echo "| --- | ---: | ---: | ---: |"
for C in "${CASES[@]}"; do
  IFS='|' read -r Name File Args <<<"$C"
  # shellcheck disable=SC2086
  U=$(best "$K/$File" $Args)
  # shellcheck disable=SC2086
  V=$(best "$K/$File" $Args --check)
  awk -v n="$Name" -v u="$U" -v v="$V" \
    'BEGIN { printf "| %s | %.1f | %.1f | %.1fx |\n", n, u, v, v / u }'
done
