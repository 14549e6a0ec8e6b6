#!/usr/bin/env bash
# Builds and runs ptx-jit-bench: the PTX kernels in bench/kernels under
# ptx-jit against native C++ (see bench/README.md). Arguments go to the
# benchmark, e.g. `utils/bench.sh --reps=9 --filter=saxpy,vector_add`.
#
# Environment: PTXJIT_BUILD_DIR (default build/), JOBS (Ninja jobs, default 2).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PTXJIT_BUILD_DIR:-$ROOT/build}"
"$ROOT/utils/build.sh" -j"${JOBS:-2}" ptx-jit-bench
exec "$BUILD/bin/ptx-jit-bench" "$@"
