#!/usr/bin/env bash
# Whole processes, start-up included: `ptx-jit run` of fmaloop (16M
# threads x 64 fused multiply-adds, bench/kernels/fmaloop.ptx) against the
# native C++ program doing the same on one thread (bench/process/fmaloop.cpp,
# clang++ -O3 -march=native), built twice: scalar (-fno-vectorize
# -fno-slp-vectorize) and as Clang vectorizes it. Alternated, best and
# median of N runs each (bench/README.md). All print the first and last
# three results, which must agree.
#
# Usage: utils/bench-process.sh [RUNS]   (default 7)
# Environment: PTXJIT_BUILD_DIR (default build/), CXX (default clang++-22).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PTXJIT_BUILD_DIR:-$ROOT/build}"
RUNS="${1:-7}"
CXX="${CXX:-clang++-22}"
N=16777216
"$ROOT/utils/build.sh" ptx-jit >/dev/null

WORK="$(mktemp -d /tmp/ptx-jit-bench-process.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
"$CXX" -O3 -march=native -fno-vectorize -fno-slp-vectorize \
  -o "$WORK/scalar" "$ROOT/bench/process/fmaloop.cpp"
"$CXX" -O3 -march=native -o "$WORK/vector" "$ROOT/bench/process/fmaloop.cpp"

PTXJIT=("$BUILD/bin/ptx-jit" run "$ROOT/bench/kernels/fmaloop.ptx" -g $((N / 256))
        -b 256 --arg "f32[$N]>-" --arg $N --print-limit 6 --no-cache)
SCALAR=("$WORK/scalar" $N)
VECTOR=("$WORK/vector" $N)

# ptx-jit prints `NAME = [a, b, c, ..., x, y, z] (f32[N])`.
got="$("${PTXJIT[@]}" | sed -e 's/^.* = \[//' -e 's/\] .*$//')"
for native in "${SCALAR[@]:0:1}" "${VECTOR[@]:0:1}"; do
  want="$("$native" $N)"
  if [ "$want" != "$got" ]; then
    echo "bench-process: results differ: $native '$want', ptx-jit '$got'" >&2
    exit 1
  fi
done

# Seconds of one run of the command given.
elapsed() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
ptxjit_times=() scalar_times=() vector_times=()
for ((i = 0; i < RUNS; ++i)); do
  ptxjit_times+=("$(elapsed "${PTXJIT[@]}")")
  scalar_times+=("$(elapsed "${SCALAR[@]}")")
  vector_times+=("$(elapsed "${VECTOR[@]}")")
done
summary() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
  printf "best %.3f s, median %.3f s", v[1], v[int((NR + 1) / 2)] }'; }
echo "fmaloop ${N} x 64 FMA, whole process, $RUNS runs each, $(nproc) CPUs"
echo "  native C++, scalar:     $(summary "${scalar_times[@]}")"
echo "  native C++, vectorized: $(summary "${vector_times[@]}")"
echo "  ptx-jit run:            $(summary "${ptxjit_times[@]}") (JIT included: no kernel cache)"
best() { printf '%s\n' "$@" | sort -g | head -1; }
ratio() { printf '%.2f' "$(echo "$(best "${ptxjit_times[@]}") / $(best "$@")" | bc -l)"; }
echo "  ptx-jit / scalar (best): $(ratio "${scalar_times[@]}"); ptx-jit / vectorized (best): $(ratio "${vector_times[@]}")"
