#!/usr/bin/env python3
"""Run one program and record its wall time, peak memory and CPU time.

    measure.py OUT_FILE TIMEOUT_SECONDS COMMAND [ARG...]

Writes one line "wall_seconds maxrss_kb user_seconds sys_seconds" to OUT_FILE
and exits with the program's status (124 when it ran past the timeout and was
killed, 128+N when a signal N ended it), like `/usr/bin/time` + `timeout`.

Why not /usr/bin/time: it reports times in hundredths of a second, and most
bench workloads run natively for a few hundredths, so a native time of 0.01
or 0.02 s halved or doubled every ratio in the table. wait4's rusage has
microseconds.
"""
import os
import signal
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: measure.py OUT_FILE TIMEOUT_SECONDS COMMAND [ARG...]")
    out_file, timeout, command = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    start = time.monotonic()
    # Its own process group, so a timeout also stops any child it forked.
    proc = subprocess.Popen(command, start_new_session=True)
    timed_out = False

    def on_alarm(signum, frame):
        nonlocal timed_out
        if not timed_out:
            timed_out = True
            os.killpg(proc.pid, signal.SIGTERM)
            signal.setitimer(signal.ITIMER_REAL, 5)  # then SIGKILL, as `timeout -k 5`
        else:
            os.killpg(proc.pid, signal.SIGKILL)

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    _, status, usage = os.wait4(proc.pid, 0)  # retried by Python after the handler
    signal.setitimer(signal.ITIMER_REAL, 0)
    wall = time.monotonic() - start
    with open(out_file, "w") as f:
        f.write(f"{wall:.4f} {usage.ru_maxrss} {usage.ru_utime:.4f} {usage.ru_stime:.4f}\n")
    if timed_out:
        return 124
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
