"""Runs a command, sends it SIGINT once it has had time to start its launch,
and prints its exit status and standard error."""
import signal
import subprocess
import sys
import time

proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
# Whether the signal comes before or during the launch, the launch stops.
time.sleep(1.0)
proc.send_signal(signal.SIGINT)
try:
    out, err = proc.communicate(timeout=60)
except subprocess.TimeoutExpired:
    proc.kill()
    print("did not stop after SIGINT")
    sys.exit(1)
print("exit:", proc.returncode)
sys.stdout.write(err)
