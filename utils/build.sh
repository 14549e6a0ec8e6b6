#!/usr/bin/env bash
# Configures (once) and builds ptx-jit in build/ (or $PTXJIT_BUILD_DIR) with
# Ninja and clang 22; $PTXJIT_CMAKE_ARGS adds CMake options to that first
# configuration. Extra arguments are Ninja targets (default: everything).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PTXJIT_BUILD_DIR:-$ROOT/build}"
if [ ! -f "$BUILD/build.ninja" ]; then
  # shellcheck disable=SC2086 # PTXJIT_CMAKE_ARGS is a list of options
  cmake -G Ninja -S "$ROOT" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    ${PTXJIT_CMAKE_ARGS:-}
fi
ninja -C "$BUILD" "$@"
