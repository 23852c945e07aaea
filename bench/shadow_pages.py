#!/usr/bin/env python3
"""Where a snag-built program's state words cost memory, at its peak.

    shadow_pages.py [--at FRACTION] PROGRAM [ARGS...]

Runs PROGRAM once to its end to learn its peak RSS (/usr/bin/time), then again,
stopping it (SIGSTOP) as soon as its VmRSS reaches FRACTION (default 0.95)
of that peak, and reads, for every page of application memory, the page of
state words that shadows it (address + __snag_slot_offset[address >> 39],
runtime/engines/race/shadow.h). A shadow page counts when it is in memory
and is not the system's zero page (which a load of a never-written word
maps, and RSS does not count). Each is classed by its non-zero words:

  coarse-only        every one is an Indirect word to a heap block record
                     (its type byte 0x62): the page only says "these
                     granules belong to these coarse blocks"
  coarse+freed-only  the others are all the Exclusive write words a free
                     leaves on the freed block's granules (kind 1, wrote bit)
  other              some granule has a state of its own (fine blocks,
                     split granules, stacks, globals)
  all-zero           a page of zeros the process owns (reset in place)

and prints KB per class, per application mapping kind, and the count of
each kind of the words that are not block words.

It also estimates what a quarter-density record index (section 73's b,
section 78's plan: 4 bytes per 16 bytes of heap naming a block's record,
in place of the block's Indirect words) would leave at that moment:
  index pages        one 4 KB page of entries per 16 KB of application
                     memory that has block words
  words kept         shadow pages with any word but a block word (frees
                     still writing their words into the granules), or
                     with a word that is neither a block's nor a free's
                     (frees named in the index too, and pages of freed
                     memory then get index pages)
  freed records      one packed record (88 B) per run of freed words: an
                     upper bound (a free's stamp can be shared, section 78)
Root (or ptrace rights over the child) is needed to read /proc/PID/mem,
pagemap's frame numbers and /proc/kpageflags. SNAG_OPTIONS defaults to engine=race.

Why: every 8-byte granule has a 64-bit word, so a page of small heap
blocks costs a page of words however coarse the blocks stay; this tells
how much of the state-word memory at the peak is only that
(bench/results/race_bench.txt section 73).
"""
import collections
import os
import signal
import struct
import subprocess
import sys
import time

BLOCK_TYPE = 0x62        # IndirectType::kBlock
KIND_INDIRECT = 7
FREED_WORD_LOW = 0x9     # Kind::kExclusive0 | kWroteBit: what a free writes
ZERO_PAGE_FLAG = 1 << 24  # KPF_ZERO_PAGE in /proc/kpageflags
PFN_MASK = (1 << 55) - 1


def peak_kb(argv, env):
    # From /usr/bin/time, as bench/measure.py: a Python child's own ru_maxrss
    # would start at the interpreter's RSS (it is kept across execve).
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    return int(result.stderr.strip().splitlines()[-1])


def stop_near_peak(argv, env, threshold_kb):
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    rss = 0
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status") as f:
                rss = int(next(l for l in f if l.startswith("VmRSS")).split()[1])
        except (OSError, StopIteration, ValueError):
            pass
        if rss >= threshold_kb:
            os.kill(proc.pid, signal.SIGSTOP)
            time.sleep(0.05)
            return proc, rss
        time.sleep(0.001)
    return None, rss


def main():
    args = sys.argv[1:]
    fraction = 0.95
    if len(args) >= 2 and args[0] == "--at":
        fraction, args = float(args[1]), args[2:]
    if not args:
        sys.exit(__doc__)
    env = dict(os.environ)
    env.setdefault("SNAG_OPTIONS", "engine=race")
    peak = peak_kb(args, env)
    proc, rss = stop_near_peak(args, env, fraction * peak)
    if not proc:
        sys.exit(f"shadow_pages.py: the run ended below {fraction} x {peak} KB; try a lower --at")
    pid = proc.pid
    try:
        mem = os.open(f"/proc/{pid}/mem", os.O_RDONLY)
        pagemap = os.open(f"/proc/{pid}/pagemap", os.O_RDONLY)
        kflags = os.open("/proc/kpageflags", os.O_RDONLY)
        with open(f"/proc/{pid}/maps") as f:
            maps = f.read().splitlines()
        exe = os.path.realpath(args[0])
        base = min(int(l.split()[0].split("-")[0], 16) for l in maps if l.endswith(exe))
        nm = subprocess.run(["nm", exe], capture_output=True, text=True, check=True).stdout
        offset = int(next(l for l in nm.splitlines() if l.endswith(" __snag_slot_offset")).split()[0], 16)
        slots = struct.unpack("<256Q", os.pread(mem, 256 * 8, base + offset))

        def resident(address):
            entry = struct.unpack("<Q", os.pread(pagemap, 8, (address >> 12) * 8))[0]
            if not entry >> 63:
                return False
            flags = struct.unpack("<Q", os.pread(kflags, 8, (entry & PFN_MASK) * 8))[0]
            return not flags & ZERO_PAGE_FLAG

        record_type = {}

        def block_word(w):
            if w & 7 != KIND_INDIRECT:
                return False
            record = w & 0x0000FFFFFFFFFFF8
            if record not in record_type:
                try:
                    record_type[record] = os.pread(mem, 1, record)[0]
                except OSError:
                    record_type[record] = -1
            return record_type[record] == BLOCK_TYPE

        by_class = collections.Counter()
        index_pages = set()   # application address >> 14 of pages with block words
        index_pages_freed = set()  # ... or freed words
        kept_live = kept_with_frees = 0
        freed_runs = 0
        by_mapping = collections.Counter()
        word_kinds = collections.Counter()
        seen = set()
        for line in maps:
            fields = line.split()
            lo, hi = (int(x, 16) for x in fields[0].split("-"))
            if hi - lo > (1 << 30) or "rw" not in fields[1]:
                continue  # the shadow's own reservation, and read-only memory
            name = fields[5] if len(fields) > 5 else "anonymous"
            kind = name if name.startswith("[") else "anonymous" if name == "anonymous" else "file"
            for page in range(lo, hi, 4096):
                slot_offset = slots[page >> 39]
                if not slot_offset:
                    continue
                shadow = (page + slot_offset) & ((1 << 64) - 1)
                if shadow in seen or not resident(shadow):
                    continue
                seen.add(shadow)
                words = [w for w in struct.unpack("<512Q", os.pread(mem, 4096, shadow)) if w]
                own = [w for w in words if not block_word(w)]
                if len(own) < len(words):
                    index_pages.add(page >> 14)
                    index_pages_freed.add(page >> 14)
                if any(w & 0xF == FREED_WORD_LOW for w in own):
                    index_pages_freed.add(page >> 14)
                if own:
                    kept_live += 4
                    if not all(w & 0xF == FREED_WORD_LOW for w in own):
                        kept_with_frees += 4
                    run = False
                    for w in struct.unpack("<512Q", os.pread(mem, 4096, shadow)):
                        freed = w & 0xF == FREED_WORD_LOW and not block_word(w)
                        freed_runs += freed and not run
                        run = freed
                for w in own:
                    word_kinds[w & 0xF] += 1
                if not words:
                    cls = "all-zero"
                elif not own:
                    cls = "coarse-only"
                elif all(w & 0xF == FREED_WORD_LOW for w in own):
                    cls = "coarse+freed-only"
                else:
                    cls = "other"
                by_class[cls] += 4
                by_mapping[(kind, cls)] += 4
    finally:
        os.kill(pid, signal.SIGKILL)
        proc.wait()
    print(f"{os.path.basename(args[0])}: peak {peak} KB, stopped at VmRSS {rss} KB; "
          f"state-word pages in memory: {sum(by_class.values())} KB")
    for cls, kb in by_class.most_common():
        print(f"  {kb:8d} KB  {cls}")
    for (kind, cls), kb in by_mapping.most_common():
        print(f"  {kb:8d} KB  under {kind} memory: {cls}")
    print("  words that are not block words, by low 4 bits (kind | wrote bit << 3): " +
          ", ".join(f"{k:#x}: {n}" for k, n in sorted(word_kinds.items())))
    words = sum(by_class.values())
    index_kb = 4 * len(index_pages)
    index_freed_kb = 4 * len(index_pages_freed)
    freed_kb = freed_runs * 88 // 1024
    live = kept_live + index_kb
    with_frees = kept_with_frees + index_freed_kb + freed_kb
    print(f"  with a record index: words kept {kept_live} KB and index pages {index_kb} KB (frees writing words); "
          f"words kept {kept_with_frees} KB, index pages {index_freed_kb} KB and at most {freed_kb} KB of "
          f"freed records (frees in the index)")
    print(f"  state words (+ index): {words} KB now -> {live} KB ({live - words:+d} KB), or {with_frees} KB "
          f"({with_frees - words:+d} KB) with frees in the index")


if __name__ == "__main__":
    main()
