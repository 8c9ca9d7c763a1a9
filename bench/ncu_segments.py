#!/usr/bin/env python3
"""ncu_segments.py -- where a persistent kernel's warp samples go, per tile or per key step.

    ncu --section SourceCounters -k regex:attention_ --launch-skip 2 -c 1 -o rep python3 bench/ncu_attn.py ...
    ncu -i rep.ncu-rep --page source --csv --print-source sass > short.csv     (1K, say)
    ... the same kernel at a length with 16x the key steps a tile > long.csv    (16K)
    python3 bench/ncu_segments.py short.csv long.csv

Classifies each SASS instruction by how its execution count grows from the
short run to the long one (the same number of tiles, more key steps each):
"step" if it grows more than 8x (the main loop), "tile" if not (code that
runs once a tile: the prologue, the first S and softmax, the last P V, the
epilogue, and the producer's per-tile work), and prints runs of
consecutive instructions of one class with their stall samples in each run,
then the short run's costliest per-tile instructions with their main stall
reason and how many threads execute them on average (1: a producer's
elected thread or a lead thread -- its waits are that warp idling, not the
critical path; the summary counts such samples apart).  With one CSV, runs are classified by execution count alone
(> --step-min executions: "step").
"""
import argparse
import csv
import lzma


def load(path):
    """ncu's source page as (header, rows as dicts); a .csv.xz is read as well"""
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        rows = list(csv.reader(f))
    hdr = rows[1]
    return hdr, [dict(zip(hdr, r)) for r in rows[2:] if len(r) >= len(hdr) - 1]


def num(x):
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("short")
    ap.add_argument("long", nargs="?")
    ap.add_argument("--step-min", type=float, default=20000)
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    hdr, s = load(a.short)
    l = load(a.long)[1] if a.long else None
    stalls = [c for c in hdr if c.startswith("stall_") and "Not Issued" not in c]
    S = "Warp Stall Sampling (All Samples)"
    rows = []
    for i, r in enumerate(s):
        es = num(r["Instructions Executed"])
        el = num(l[i]["Instructions Executed"]) if l else None
        k = ("step" if (el > 8 * es if l else es > a.step_min) else "tile") if es > 0 else "none"
        rows.append((int(r["Address"], 16), k, num(r[S]), num(l[i][S]) if l else 0.0,
                     r["Source"].strip(), max(stalls, key=lambda c: num(r[c])),
                     num(r.get("Avg. Threads Executed", "32"))))
    tot = sum(r[2] for r in rows)
    print(f"{a.short}: {tot:.0f} samples" + (f"; {a.long}: {sum(r[3] for r in rows):.0f}" if l else ""))
    for k in ("tile", "step", "none"):
        n = sum(r[2] for r in rows if r[1] == k)
        # one thread executing: a producer's elected thread or a lead
        # thread's code -- its waits are that warp idling, not the
        # consumers' critical path
        n1 = sum(r[2] for r in rows if r[1] == k and 0 < r[6] <= 1.5)
        print(f"  {k:5s} {n:8.0f} ({100 * n / tot:.1f}%), {n1:.0f} of them in one-thread code")
    print("runs (address, instructions, samples short [long], first instruction):")
    runs = []
    for r in rows:
        if not runs or runs[-1][0] != r[1]:
            runs.append([r[1], r[0], r[0], 0, 0.0, 0.0, r[4]])
        u = runs[-1]
        u[2], u[3], u[4], u[5] = r[0], u[3] + 1, u[4] + r[2], u[5] + r[3]
    for u in runs:
        if u[4] >= 20:
            extra = f" [{u[5]:8.0f}]" if l else ""
            print(f"  {u[0]:5s} {u[1] & 0xfffff:05x}-{u[2] & 0xfffff:05x} n={u[3]:4d} {u[4]:7.0f}{extra}  {u[6][:50]}")
    print("costliest per-tile instructions (threads: the average executing it):")
    for r in sorted((r for r in rows if r[1] == "tile"), key=lambda r: -r[2])[: a.top]:
        print(f"  {r[2]:6.0f} {r[0] & 0xfffff:05x} {r[5][6:]:14s} {r[6]:4.1f} {r[4][:64]}")


if __name__ == "__main__":
    main()
