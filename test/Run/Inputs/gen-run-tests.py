#!/usr/bin/env python3
"""Writes the instruction-family tests of test/Run from their descriptions.

Each test is one small kernel: lane L loads element L of each input buffer,
runs one instruction (or a short sequence) per output, and stores element L
of that output's buffer, which `ptx-jit run` prints as `NAME = [...]`. The
expected lines come from ptxref.py, a model of the PTX ISA written with
exact integer and rational arithmetic, never from ptx-jit.

    test/Run/Inputs/gen-run-tests.py            # rewrite every file
    test/Run/Inputs/gen-run-tests.py --check    # exit 1 if one is stale

The kernels are the readable part of each file; the RUN and CHECK lines are
what this script adds. Edit the descriptions here, not the .ptx files.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testgen  # noqa: E402
import families_int  # noqa: E402,F401  (each registers its tests)
import families_float  # noqa: E402,F401
import families_cmp  # noqa: E402,F401
import families_cvt  # noqa: E402,F401
import families_half  # noqa: E402,F401
import families_sreg  # noqa: E402,F401
import families_mem  # noqa: E402,F401
import families_cf  # noqa: E402,F401
import families_video  # noqa: E402,F401
import families_matrix  # noqa: E402,F401

RUN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    check = "--check" in sys.argv
    stale = []
    for make in testgen.TESTS:
        t = make()
        path = os.path.join(RUN_DIR, t.name + ".ptx")
        text = t.render()
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            stale.append(path)
            if not check:
                with open(path, "w") as f:
                    f.write(text)
    if check and stale:
        print("stale (rerun test/Run/Inputs/gen-run-tests.py):\n  " +
              "\n  ".join(stale))
        return 1
    if not check:
        print("wrote %d of %d tests" % (len(stale), len(testgen.TESTS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
