#!/usr/bin/env bash
# Builds ptx-jit and runs every test: lit + FileCheck tests (test/) and the
# GoogleTest unit tests (through lit's GoogleTest format). Then builds it
# again with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DPTXJIT_SANITIZE=address,undefined, in build-asan/ or
# $PTXJIT_SANITIZE_BUILD_DIR) and runs the same tests there; any sanitizer
# report fails its test. PTXJIT_CI_SANITIZE=0 skips that second run.
# Prints a closing "N passed, N failed" line per run and fails if any test
# fails.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PTXJIT_BUILD_DIR:-$ROOT/build}"
SANITIZE_BUILD="${PTXJIT_SANITIZE_BUILD_DIR:-$ROOT/build-asan}"
LIT=/usr/lib/llvm-22/bin/lit
"$ROOT/utils/install-deps.sh"

# lit's summary: "  Passed           : 303 (98.06%)" and so on.
count() {
  local n
  n=$(sed -nE "s/^ *$2 *: *([0-9]+).*/\1/p" "$1" | tail -1)
  echo "${n:-0}"
}

# run_suite BUILD_DIR NAME: runs every test of BUILD_DIR, prints the
# summary line and returns lit's status.
run_suite() {
  local build=$1 name=$2 status passed failed kind
  set +e
  "$LIT" -v --xunit-xml-output "$build/test-results.xml" \
    "$build/test" "$build/test/Unit" 2>&1 | tee "$build/lit.log"
  status=${PIPESTATUS[0]}
  set -e
  passed=$(( $(count "$build/lit.log" Passed) +
             $(count "$build/lit.log" 'Expectedly Failed') ))
  failed=0
  for kind in Failed 'Unexpectedly Passed' Unresolved 'Timed Out'; do
    failed=$(( failed + $(count "$build/lit.log" "$kind") ))
  done
  echo "$name: $passed passed, $failed failed"
  return "$status"
}

"$ROOT/utils/build.sh"
status=0
run_suite "$BUILD" "ptx-jit tests" || status=$?

if [ "${PTXJIT_CI_SANITIZE:-1}" != 0 ]; then
  # Only what the tests run: the fuzzers are sanitized in every build, and
  # the benchmarks measure nothing under a sanitizer.
  PTXJIT_BUILD_DIR="$SANITIZE_BUILD" \
  PTXJIT_CMAKE_ARGS="-DPTXJIT_SANITIZE=address,undefined -DPTXJIT_BUILD_FUZZERS=OFF" \
    "$ROOT/utils/build.sh" ptxjit-test-deps
  run_suite "$SANITIZE_BUILD" "ptx-jit tests (ASan+UBSan)" || status=$?
fi
exit "$status"
