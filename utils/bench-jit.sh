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
. "$(dirname "$0")/bench-compile-kernels.sh"
