"""Runs a command, sends it SIGINT once it has had time to start its launch,
and prints its exit status and standard error."""
import signal
import subprocess
import sys
import time

proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
# Whether the signal comes before or during the launch, the launch stops;
# the test checks the report of a running warp, so give the JIT time to
# finish even in a sanitizer build on a loaded machine (at 1 s one such run
# was cancelled before its first warp ran, and reported the CTA only).
time.sleep(3.0)
proc.send_signal(signal.SIGINT)
try:
    out, err = proc.communicate(timeout=60)
except subprocess.TimeoutExpired:
    proc.kill()
    print("did not stop after SIGINT")
    sys.exit(1)
print("exit:", proc.returncode)
sys.stdout.write(err)
