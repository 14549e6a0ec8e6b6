#!/usr/bin/env bash
# PTX front-end throughput and memory.
#
# Generates the benchmark input (a >1.5 MB PTX file of template
# instantiations, with utils/gen-big-ptx.py and nvcc) into the build
# directory if it is not there yet, builds ptx-parse-bench and runs it.
#
# Usage: utils/bench-parse.sh [BUILD_DIR] [ptx-parse-bench options...]
#   BUILD_DIR  default: <repo>/build
#   options    e.g. -runs 50, --no-verify
# Environment: NVCC (see gen-big-ptx.py), JOBS (ninja -j, default 2).
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/.." && pwd)"
build="$repo_root/build"
if [ "$#" -gt 0 ] && [ "${1#-}" = "$1" ]; then
  build="$1"
  shift
fi

input="$build/bench/big-templates.ptx"
if [ ! -f "$input" ]; then
  python3 "$script_dir/gen-big-ptx.py" "$input"
fi

ninja -C "$build" -j "${JOBS:-2}" ptx-parse-bench >/dev/null
if [ "$#" -eq 0 ]; then
  set -- -runs 20
fi
exec "$build/bin/ptx-parse-bench" "$input" "$@"
