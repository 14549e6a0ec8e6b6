#!/usr/bin/env bash
# Installs what is needed, builds ptx-jit, and runs the shipped example
# kernel, as PTX (examples/saxpy.ptx) and as CUDA source compiled by Clang
# inside ptx-jit (examples/saxpy.cu), checking its output.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/utils/install-deps.sh"
"$ROOT/utils/build.sh" ptx-jit
PTXJIT="${PTXJIT_BUILD_DIR:-$ROOT/build}/bin/ptx-jit"

echo "\$ ptx-jit list examples/saxpy.ptx"
"$PTXJIT" list "$ROOT/examples/saxpy.ptx"
# y = 2*x + y over 8 elements, x = 0..7, y = 1: expect 1, 3, 5, ..., 15.
cmd=("$PTXJIT" run "$ROOT/examples/saxpy.ptx" -g 1 -b 32
     --arg 8 --arg 2.0 --arg 'f32[8]=iota' --arg 'f32[8]=fill:1>-')
echo "\$ ptx-jit run examples/saxpy.ptx -g 1 -b 32 --arg 8 --arg 2.0 --arg 'f32[8]=iota' --arg 'f32[8]=fill:1>-'"
out="$("${cmd[@]}")"
echo "$out"
expected="saxpy_param_3 = [1, 3, 5, 7, 9, 11, 13, 15]"
if [ "$out" != "$expected" ]; then
  echo "quickstart: unexpected output; expected: $expected" >&2
  exit 1
fi

# The same kernel from its CUDA source, in one command.
echo "\$ ptx-jit run examples/saxpy.cu -k saxpy -g 1 -b 32 --arg 8 --arg 2.0 --arg 'f32[8]=iota' --arg 'f32[8]=fill:1>-'"
out="$("$PTXJIT" run "$ROOT/examples/saxpy.cu" -k saxpy -g 1 -b 32 \
       --arg 8 --arg 2.0 --arg 'f32[8]=iota' --arg 'f32[8]=fill:1>-')"
echo "$out"
if [ "$out" != "$expected" ]; then
  echo "quickstart: unexpected output from saxpy.cu; expected: $expected" >&2
  exit 1
fi
echo "quickstart: OK"
