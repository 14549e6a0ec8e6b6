#!/usr/bin/env python3
"""The checks' no-false-positive sweep: runs each launch of a list under
`ptx-jit run --check=CHECKS` and fails if any check reports an error. The
kernels are correct and their launches fit them, so a report is a false
positive.

A list line is `CHECKS ARGS...`: the checks to run, then what follows
`ptx-jit run` (relative paths from the source root). `#` starts a comment.

usage: sweep.py PTXJIT SRCROOT LIST
       sweep.py --propose PTXJIT FILE...   prints the launches `ptx-jit list`
                                           proposes, with one CTA
"""
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys


def propose(ptxjit, files):
    for path in files:
        out = subprocess.run([ptxjit, "list", path], capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            line = line.strip()
            if line.startswith("run: ptx-jit run "):
                args = shlex.split(line[len("run: "):])[2:]
                args[args.index("-g") + 1] = "1"
                print("all " + shlex.join(args))


def run(ptxjit, root, line):
    checks, *args = shlex.split(line)
    cmd = [ptxjit, "run"] + args + ["--check=" + checks, "--threads", "1",
                                    "--timeout", "30"]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
    m = re.search(r"ERROR SUMMARY: (\d+) error", p.stderr)
    ok = m and m.group(1) == "0" and p.returncode == 0
    return line, ok, p.stderr


def main():
    if sys.argv[1] == "--propose":
        propose(sys.argv[2], sys.argv[3:])
        return 0
    ptxjit, root, listfile = sys.argv[1:4]
    lines = []
    for l in open(listfile):
        l = l.split("#", 1)[0].strip()
        if l:
            lines.append(l)
    bad = 0
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for line, ok, stderr in pool.map(lambda l: run(ptxjit, root, l),
                                         lines):
            if not ok:
                bad += 1
                print("FAILED: ptx-jit run " + line + "\n" + stderr)
    print(f"{len(lines)} launches checked, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
