#!/usr/bin/env python3
"""Groups a perf profile of one program by the system call, fault or user code
each sample falls in, in ms of CPU per schedule: where a schedule's time goes.

  perf record -a -g -F 2000 -o F -- snag explore -j 1 --schedules N --seed 1 PROGRAM
  perf script -i F --comm COMM -F comm,ip,sym,dso | bench/perf_by_syscall.py COMM 2000 N

COMM: the program's name as the kernel keeps it (its first 15 characters);
N: the schedules the run made. A sample counts for the innermost
__x64_sys_*/__do_sys_* frame of its kernel stack (sys_NAME), exc_page_fault
(page_fault), the return to user space after a preemption (exit_to_user), a
new thread's first steps (ret_from_fork), else kernel_other or user; the top
user functions and the outermost frames of kernel_other follow. On a VM
without a PMU, perf's cpu-clock samples land where interrupts come back on,
so a function's own share is unreliable; the grouping by system call is not.
"""
import collections
import re
import sys


def classify(frames):
    for sym, _ in frames:
        m = re.match(r'__(?:x64|do)_sys_(\w+)', sym)
        if m:
            return 'sys_' + m.group(1)
        if sym == 'exc_page_fault':
            return 'page_fault'
        if sym.startswith('ret_from_fork'):
            return 'ret_from_fork (new thread start)'
        if sym in ('irqentry_exit_to_user_mode', 'syscall_exit_to_user_mode', 'exit_to_user_mode_loop'):
            return 'exit_to_user (switch)'
        if sym.startswith('asm_sysvec') or sym.startswith('asm_common_interrupt'):
            return 'irq'
    return None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    comm, hz, schedules = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    cats, user, other = collections.Counter(), collections.Counter(), collections.Counter()
    current, frames = None, []

    def flush():
        if current == comm and frames:
            c = classify(frames) or ('kernel_other' if 'kallsyms' in frames[0][1] else 'user')
            cats[c] += 1
            if c == 'user':
                user[frames[0][0] + ' (' + frames[0][1].split('/')[-1] + ')'] += 1
            elif c == 'kernel_other':
                other[frames[-1][0] + ' <- ' + frames[0][0]] += 1

    for line in sys.stdin:
        if not line.strip():
            flush()
            current, frames = None, []
        elif not line[0].isspace():
            flush()
            current, frames = line.split()[0], []
        else:
            m = re.match(r'\s*[0-9a-f]+ (.*) \((.*)\)\s*$', line)
            if m:
                frames.append((re.sub(r'\+0x[0-9a-f]+$', '', m.group(1)), m.group(2)))
    flush()
    ms = lambda v: v / hz * 1000 / schedules
    total = sum(cats.values()) or 1
    print(f"{sum(cats.values())} samples, {ms(total):.3f} ms per schedule")
    for c, v in cats.most_common():
        print(f"  {c:36s} {ms(v):7.3f} ms  {100 * v / total:5.1f}%")
    print("user code, top:")
    for c, v in user.most_common(15):
        print(f"  {c[:76]:76s} {ms(v):7.3f}")
    print("kernel_other (outermost <- innermost frame):")
    for c, v in other.most_common(5):
        print(f"  {c[:76]:76s} {ms(v):7.3f}")


if __name__ == '__main__':
    main()
