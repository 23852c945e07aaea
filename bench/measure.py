#!/usr/bin/env python3
"""Run one program and record its wall time, peak memory and CPU time.

    measure.py OUT_FILE TIMEOUT_SECONDS COMMAND [ARG...]

Writes one line "wall_seconds maxrss_kb user_seconds sys_seconds" to OUT_FILE
and exits with the program's status (124 when it ran past the timeout and was
killed, 128+N when a signal N ended it), like `/usr/bin/time` + `timeout`.

Why not /usr/bin/time alone: it reports times in hundredths of a second,
and most bench workloads run natively for a few hundredths, so a native time
of 0.01 or 0.02 s halved or doubled every ratio in the table. wait4's rusage
has microseconds. The peak RSS still comes from /usr/bin/time, which runs
the program: a process keeps the high-water mark of the memory it had before
exec, so a program started straight from Python would never show less than
this interpreter's tens of megabytes.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: measure.py OUT_FILE TIMEOUT_SECONDS COMMAND [ARG...]")
    out_file, timeout, command = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    rss_file = tempfile.NamedTemporaryFile("r", prefix="snag-bench-rss.")
    start = time.monotonic()
    # Its own process group, so a timeout also stops any child it forked.
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + command,
                            start_new_session=True)
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
    # time's last line; a line before it says how the program ended.
    lines = rss_file.read().split()
    maxrss = lines[-1] if lines and lines[-1].isdigit() else "NA"
    # CPU: /usr/bin/time's own (a millisecond at most) and the program's,
    # which it waited for.
    with open(out_file, "w") as f:
        f.write(f"{wall:.4f} {maxrss} {usage.ru_utime:.4f} {usage.ru_stime:.4f}\n")
    if timed_out:
        return 124
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
