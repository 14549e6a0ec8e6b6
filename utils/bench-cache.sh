#!/bin/sh
# First compile against cached start of the benchmark kernels, in one run:
# each kernel runs twice with a fresh cache directory, and the script prints
# --stats' "jit total" (context, cache lookup, compilation or load, link) of
# both runs, and the whole process time of both. Usage: utils/bench-cache.sh
# [path/to/ptx-jit]
set -e
PTXJIT=${1:-build/bin/ptx-jit}
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
. "$(dirname "$0")/bench-compile-kernels.sh"
