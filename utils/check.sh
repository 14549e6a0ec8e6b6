#!/usr/bin/env bash
# Builds ptx-jit and runs every test: lit + FileCheck tests (test/) and the
# GoogleTest unit tests (through lit's GoogleTest format). Prints a closing
# "N passed, N failed" line and fails if any test fails.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PTXJIT_BUILD_DIR:-$ROOT/build}"
"$ROOT/utils/install-deps.sh"
"$ROOT/utils/build.sh"
LIT=/usr/lib/llvm-22/bin/lit
set +e
"$LIT" -v --xunit-xml-output "$BUILD/test-results.xml" \
  "$BUILD/test" "$BUILD/test/Unit" 2>&1 | tee "$BUILD/lit.log"
status=${PIPESTATUS[0]}
set -e
# lit's summary: "  Passed           : 303 (98.06%)" and so on.
count() {
  local n
  n=$(sed -nE "s/^ *$1 *: *([0-9]+).*/\1/p" "$BUILD/lit.log" | tail -1)
  echo "${n:-0}"
}
passed=$(( $(count Passed) + $(count 'Expectedly Failed') ))
failed=0
for kind in Failed 'Unexpectedly Passed' Unresolved 'Timed Out'; do
  failed=$(( failed + $(count "$kind") ))
done
echo "ptx-jit tests: $passed passed, $failed failed"
exit "$status"
