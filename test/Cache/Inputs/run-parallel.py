"""Starts the same command N times at once and prints each one's output,
in order, after all have ended: `run-parallel.py N command args...`."""
import subprocess
import sys

count = int(sys.argv[1])
procs = [subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
         for _ in range(count)]
status = 0
for i, p in enumerate(procs):
    out, _ = p.communicate()
    print(f"process {i}: exit {p.returncode}")
    sys.stdout.write(out)
    status |= p.returncode
sys.exit(status)
