#!/usr/bin/env bash
# Regenerate the benchmark PTX: bench/kernels/<stem>.cu -> <stem>.ptx, with
# nvcc 13 (-arch=sm_80 -O3). Optional arguments: stems to regenerate only
# those. Exits non-zero if any compile fails.
#
# Environment: NVCC (default /usr/local/cuda/bin/nvcc); CU_DIR, the folder of
# .cu files (default bench/kernels; `CU_DIR=examples` regenerates the
# README's example kernel).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$repo_root/${CU_DIR:-bench/kernels}"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "regen-bench-ptx: nvcc not found: $NVCC" >&2
  exit 1
fi

if [ "$#" -gt 0 ]; then
  stems=()
  for s in "$@"; do
    s="${s%.cu}"
    stems+=("${s##*/}")
  done
else
  stems=()
  for f in "$dir"/*.cu; do
    s="$(basename "$f")"
    stems+=("${s%.cu}")
  done
fi

# nvcc writes the source path into .file directives: compile from a fixed
# staging directory with relative names so the output does not depend on
# where the repository is checked out.
stage="$(mktemp -d /tmp/ptx-jit-bench-regen.XXXXXX)"
trap 'rm -rf "$stage"' EXIT
failed=()
for s in "${stems[@]}"; do
  if [ ! -f "$dir/$s.cu" ]; then
    echo "regen-bench-ptx: no such source: ${dir#$repo_root/}/$s.cu" >&2
    failed+=("$s")
    continue
  fi
  cp "$dir/$s.cu" "$stage/"
  if (cd "$stage" && "$NVCC" -ptx -arch=sm_80 -O3 "$s.cu" -o "$s.ptx"); then
    mv "$stage/$s.ptx" "$dir/$s.ptx"
    echo "regen-bench-ptx: ${dir#$repo_root/}/$s.ptx"
  else
    failed+=("$s")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "regen-bench-ptx: failed: ${failed[*]}" >&2
  exit 1
fi
