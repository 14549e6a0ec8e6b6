#!/usr/bin/env python3
"""Times every test/CUDA program run through `ptx-jit exec`.

Each program is the one the last lit run of test/CUDA built (its %t under
BUILD/test/CUDA/Output), run as its RUN line runs it (arguments and
environment included), output discarded. The time is the whole process's
wall clock, the JIT included; the fastest and the median of REPEATS runs
are printed, one program a line, and the total of the medians.

  utils/time-cuda-programs.py BUILD [REPEATS]
"""

import os
import re
import shlex
import statistics
import subprocess
import sys
import time


def exec_command(test, binary, ptxjit):
    """The `ptx-jit exec %t ...` part of the test's RUN lines, if any."""
    with open(test) as f:
        for line in f:
            m = re.search(r"RUN:(.*)", line)
            if not m or "ptx-jit exec %t" not in m.group(1):
                continue
            # The command after any `&&`, up to the first pipe.
            command = m.group(1).split("&&")[-1].split("|")[0]
            command = re.sub(r"2>&1|>\s*/dev/null", "", command)
            words = shlex.split(command.replace("%t", binary))
            env = dict(os.environ)
            if words and words[0] == "env":
                words = words[1:]
            while words and "=" in words[0]:
                key, value = words[0].split("=", 1)
                env[key] = value
                words = words[1:]
            if words[:2] != ["ptx-jit", "exec"]:
                return None
            return [ptxjit] + words[1:], env
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                          "test", "CUDA")
    ptxjit = os.path.join(build, "bin", "ptx-jit")
    total = 0.0
    print(f"{'program':32} {'fastest s':>10} {'median s':>10}")
    for name in sorted(os.listdir(source)):
        if not name.endswith((".cu", ".test")):
            continue
        binary = os.path.join(build, "test", "CUDA", "Output", name + ".tmp")
        found = exec_command(os.path.join(source, name), binary, ptxjit)
        if not found or not os.path.exists(binary):
            print(f"{name:32} {'(not built or not run by exec)':>21}")
            continue
        command, env = found
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            rc = subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        total += median
        note = "" if rc == 0 else f"  (exit status {rc})"
        print(f"{name:32} {min(times):10.3f} {median:10.3f}{note}")
    print(f"{'total of medians':32} {'':10} {total:10.3f}")


if __name__ == "__main__":
    main()
