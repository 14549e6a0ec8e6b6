#!/usr/bin/env bash
# Regenerate the PTX test corpus from the CUDA sources.
#
# For every test/Inputs/cuda/<stem>.cu this writes
#   test/Inputs/ptx/<stem>.<variant>.ptx
# for each compiler variant below. Compiles run serially (one compiler at a
# time). Exits non-zero if any compile fails.
#
# Environment overrides:
#   NVCC   path to nvcc      (default /usr/local/cuda/bin/nvcc)
#   CLANG  path to clang++   (default clang++-22)
#   CUDA_PATH  CUDA install for clang (default: parent dir of nvcc's bin/)
#   PTXJIT_REGEN_STAGE  fixed staging dir (default /tmp/ptx-jit-regen/cuda);
#              changing it changes .file paths and internal-name hashes.
#
# Optional arguments: stems (e.g. `vector_add atomics`) to regenerate only
# those files.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/.." && pwd)"
src_dir="$repo_root/test/Inputs/cuda"
out_dir="$repo_root/test/Inputs/ptx"

NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
CLANG="${CLANG:-clang++-22}"

# variant name -> nvcc flags. -O0 on its own only affects host code;
# -Xcicc -O0 turns off the NVVM (device) optimizer as well.
nvcc_variants=(
  "nvcc-sm75-O3|-arch=sm_75 -O3"
  "nvcc-sm80-O3|-arch=sm_80 -O3 -lineinfo"
  "nvcc-sm90-O3|-arch=sm_90 -O3"
  "nvcc-sm80-O0|-arch=sm_80 -O0 -Xcicc -O0"
  "nvcc-sm80-G|-arch=sm_80 -G"
)
# cooperative_groups offers cluster_group to nvcc only, unless told that
# the cluster intrinsics are there (clang 22 has them).
clang_variants=(
  "clang-sm80-O3|--cuda-gpu-arch=sm_80 -O3"
  "clang-sm90-O3|--cuda-gpu-arch=sm_90 -O3 -D_CG_CLUSTER_INTRINSICS_AVAILABLE"
)

for tool in "$NVCC" "$CLANG"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "regen-ptx: compiler not found: $tool" >&2
    exit 1
  fi
done

CUDA_PATH="${CUDA_PATH:-$(cd "$(dirname "$(command -v "$NVCC")")/.." && pwd)}"
# CUDA 13 keeps libcu++ (cuda/std/..., which cooperative_groups.h includes)
# in include/cccl, where nvcc looks and clang does not.
clang_includes=()
if [ -d "$CUDA_PATH/include/cccl" ]; then
  clang_includes=(-isystem "$CUDA_PATH/include/cccl")
fi

mkdir -p "$out_dir"

shopt -s nullglob
if [ "$#" -gt 0 ]; then
  sources=()
  for stem in "$@"; do
    stem="${stem%.cu}"
    stem="${stem##*/}"
    sources+=("$src_dir/$stem.cu")
  done
else
  sources=("$src_dir"/*.cu)
fi
if [ "${#sources[@]}" -eq 0 ]; then
  echo "regen-ptx: no sources in $src_dir" >&2
  exit 1
fi

# nvcc embeds the absolute source path in .file directives, debug sections
# and the hash inside internal names (_ZN42_INTERNAL_<hash>_...). To make the
# output independent of where the repository is checked out, the sources are
# copied to a fixed staging directory and compiled there, with relative names.
stage_dir="${PTXJIT_REGEN_STAGE:-/tmp/ptx-jit-regen/cuda}"
rm -rf "$stage_dir"
mkdir -p "$stage_dir"
for f in "$src_dir"/*; do
  case "$f" in
  *.cu | *.h | *.cuh) cp "$f" "$stage_dir/" ;;
  esac
done
cd "$stage_dir"

tmp_dir="$(mktemp -d)"
trap 'rm -rf "$tmp_dir" "$stage_dir"' EXIT

ok=0
failed=()
start=$SECONDS

run_one() { # variant stem cmd...
  local variant="$1" stem="$2"
  shift 2
  local out="$out_dir/$stem.$variant.ptx"
  local tmp="$tmp_dir/$stem.$variant.ptx"
  if "$@" -o "$tmp" 2>"$tmp_dir/err"; then
    mv "$tmp" "$out"
    ok=$((ok + 1))
  else
    echo "regen-ptx: FAILED $stem.cu [$variant]:" >&2
    cat "$tmp_dir/err" >&2
    failed+=("$stem.$variant")
  fi
}

for src in "${sources[@]}"; do
  if [ ! -f "$src" ]; then
    echo "regen-ptx: no such source: $src" >&2
    failed+=("$(basename "$src")")
    continue
  fi
  file="$(basename "$src")"
  stem="${file%.cu}"
  for v in "${nvcc_variants[@]}"; do
    name="${v%%|*}"
    read -r -a flags <<<"${v#*|}"
    run_one "$name" "$stem" "$NVCC" -ptx "${flags[@]}" "$file"
  done
  for v in "${clang_variants[@]}"; do
    name="${v%%|*}"
    read -r -a flags <<<"${v#*|}"
    run_one "$name" "$stem" "$CLANG" --cuda-device-only -S \
      "--cuda-path=$CUDA_PATH" -Wno-unknown-cuda-version "${clang_includes[@]}" \
      "${flags[@]}" "$file"
  done
done

# On a full run, delete outputs that no source/variant produces any more.
if [ "$#" -eq 0 ]; then
  for f in "$out_dir"/*.ptx; do
    name="$(basename "$f" .ptx)"
    stem="${name%%.*}"
    variant="${name#*.}"
    known=0
    for v in "${nvcc_variants[@]}" "${clang_variants[@]}"; do
      [ "${v%%|*}" = "$variant" ] && known=1
    done
    if [ ! -f "$src_dir/$stem.cu" ] || [ "$known" -eq 0 ]; then
      echo "regen-ptx: removing stale $(basename "$f")"
      rm -f "$f"
    fi
  done
fi

total_bytes=0
n_all=0
for f in "$out_dir"/*.ptx; do
  total_bytes=$((total_bytes + $(wc -c <"$f")))
  n_all=$((n_all + 1))
done

echo "regen-ptx: ${#sources[@]} sources, $ok PTX written, ${#failed[@]} failed," \
  "$n_all files / $((total_bytes / 1024)) KiB in test/Inputs/ptx," \
  "$((SECONDS - start))s"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "regen-ptx: failed: ${failed[*]}" >&2
  exit 1
fi
