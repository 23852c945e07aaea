#!/usr/bin/env python3
"""Summarize bench/run.sh results into one table.

Input: a TSV with rows
`workload cfg run seconds maxrss_kb exit races checksum [cpu_seconds]`
(cfg is native, snag or tsan). Output: median wall time, CPU time (user +
system, all threads) and peak RSS per configuration, snag/tsan ratios against
native, race-report counts, geometric
means, and a final snag-vs-tsan line. Exit status 1 if any build or run failed
or a checksum differed from the native one.
"""
import math
import statistics
import sys
from collections import defaultdict

CFGS = ("native", "snag", "tsan")


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def fmt(x, width, prec=1):
    return f"{'-':>{width}}" if x is None else f"{x:>{width}.{prec}f}"


def main(path):
    rows = defaultdict(list)  # (workload, cfg) -> [(secs, rss, rc, races, sum, cpu)]
    order = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 8:
                parts.append("NA")  # written before CPU time was recorded
            if len(parts) != 9:
                continue
            w, cfg, _run, secs, rss, rc, races, csum, cpu = parts
            if w not in order:
                order.append(w)
            rows[(w, cfg)].append((secs, rss, rc, int(races), csum, cpu))

    problems = []
    table = []
    for w in order:
        med = {}
        races = {}
        native_sums = {r[4] for r in rows[(w, "native")] if r[2] == "0"}
        for cfg in CFGS:
            runs = rows[(w, cfg)]
            ok = [r for r in runs if r[2] in ("0", "66") and r[0] != "NA"]
            if cfg == "native":
                ok = [r for r in ok if r[2] == "0"]
            bad = [r for r in runs if r not in ok]
            for r in bad:
                why = "build failed" if r[2] == "build" else (
                    "timed out" if r[2] == "124" else f"exit status {r[2]}")
                problems.append(f"{w}: {cfg} {why}")
            if ok:
                cpus = [float(r[5]) for r in ok if r[5] != "NA"]
                med[cfg] = (statistics.median(float(r[0]) for r in ok),
                            statistics.median(float(r[1]) for r in ok),
                            statistics.median(cpus) if cpus else None)
            counts = [r[3] for r in runs if r[2] != "build"]
            races[cfg] = (min(counts), max(counts)) if counts else None
            for r in ok:
                if native_sums and r[4] not in native_sums:
                    problems.append(f"{w}: {cfg} checksum {r[4]} != native "
                                    f"{'/'.join(sorted(native_sums))}")
            if cfg == "native" and len(native_sums) > 1:
                problems.append(f"{w}: native checksums differ between runs: "
                                f"{' '.join(sorted(native_sums))}")
        table.append((w, med, races))

    hdr = (f"{'workload':<18}  {'native(s)':>9}  {'snag x':>6}  {'tsan x':>6}  "
           f"{'snag cpu x':>10}  {'tsan cpu x':>10}  "
           f"{'snag mem x':>10}  {'tsan mem x':>10}  {'snag races':>10}  {'tsan races':>10}")
    print(hdr)
    cols = {"snag_t": [], "tsan_t": [], "snag_c": [], "tsan_c": [], "snag_m": [], "tsan_m": []}

    def ratio(med, cfg, i):
        if "native" not in med or cfg not in med:
            return None
        base, value = med["native"][i], med[cfg][i]
        if base is None or value is None:
            return None
        # A native run can take less than a millisecond of CPU: count it as 1 ms.
        return value / max(base, 0.001)

    def races_str(rc):
        if rc is None:
            return "-"
        lo, hi = rc
        return str(hi) if lo == hi else f"{lo}-{hi}"

    for w, med, races in table:
        st, tt = ratio(med, "snag", 0), ratio(med, "tsan", 0)
        sc, tc = ratio(med, "snag", 2), ratio(med, "tsan", 2)
        sm, tm = ratio(med, "snag", 1), ratio(med, "tsan", 1)
        for k, v in (("snag_t", st), ("tsan_t", tt), ("snag_c", sc), ("tsan_c", tc),
                     ("snag_m", sm), ("tsan_m", tm)):
            cols[k].append(v)
        nat = med.get("native", (None,))[0]
        print(f"{w:<18}  {fmt(nat, 9, 3)}  {fmt(st, 6)}  {fmt(tt, 6)}  "
              f"{fmt(sc, 10)}  {fmt(tc, 10)}  "
              f"{fmt(sm, 10)}  {fmt(tm, 10)}  {races_str(races['snag']):>10}  "
              f"{races_str(races['tsan']):>10}")

    g = {k: geomean(v) for k, v in cols.items()}
    print(f"{'geomean':<18}  {'':>9}  {fmt(g['snag_t'], 6)}  {fmt(g['tsan_t'], 6)}  "
          f"{fmt(g['snag_c'], 10)}  {fmt(g['tsan_c'], 10)}  "
          f"{fmt(g['snag_m'], 10)}  {fmt(g['tsan_m'], 10)}")
    # Per-workload snag/tsan, over workloads where both ran (equals the ratio of
    # the geomeans when nothing failed).
    both_t = [s / t for s, t in zip(cols["snag_t"], cols["tsan_t"]) if s and t]
    both_c = [s / t for s, t in zip(cols["snag_c"], cols["tsan_c"]) if s and t]
    both_m = [s / t for s, t in zip(cols["snag_m"], cols["tsan_m"]) if s and t]
    gt, gc, gm = geomean(both_t), geomean(both_c), geomean(both_m)
    print(f"snag/tsan slowdown ratio: {fmt(gt, 0, 2).strip()}  "
          f"cpu ratio: {fmt(gc, 0, 2).strip()}  "
          f"memory ratio: {fmt(gm, 0, 2).strip()}")

    for p in dict.fromkeys(problems):
        print(f"WARNING {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: summarize.py RESULTS.tsv")
    sys.exit(main(sys.argv[1]))
