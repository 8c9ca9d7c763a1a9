#!/usr/bin/env python3
"""ncu_stalls.py -- a kernel's warp stall samples by reason, and the code where warps wait
for instructions.

    ncu --section SourceCounters --section WarpStateStats -k regex:NAME -s 2 -c 1 -o rep ...
    ncu -i rep.ncu-rep --page source --csv --print-source sass > sass.csv
    python3 bench/ncu_stalls.py sass.csv [--top 12]      (a .csv.xz is read as well)

Prints the samples of each stall reason over the whole kernel, then the
`no_inst` samples -- a warp waiting for its next instruction: an
instruction-cache miss -- in runs of consecutive instructions, with how
often each run executes.  Code that runs once a call (a merge or an
epilogue at the end, a prologue at the start) comes from DRAM when a
call's data has pushed it out of L2, a few lines at a time, and every CTA
that reaches it together waits on the first (bench/NOTES.md 80): a large
`no_inst` share in code executed once a CTA is that.
"""
import argparse

from ncu_segments import load, num as fnum


def num(x):
    return int(fnum(x))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=12, help="no_inst runs to list")
    ap.add_argument("--gap", type=int, default=48,
                    help="instructions without no_inst samples that still join two runs")
    a = ap.parse_args()
    hdr, rows = load(a.csv)
    reasons = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
    total = sum(num(r.get("Warp Stall Sampling (All Samples)")) for r in rows)
    print(f"{a.csv}: {len(rows)} instructions, {total} samples")
    by = sorted(((sum(num(r.get(h)) for r in rows), h[6:]) for h in reasons), reverse=True)
    print("  " + ", ".join(f"{h} {v} ({100.0 * v / max(1, total):.1f}%)" for v, h in by if v))
    # runs of instructions with no_inst samples, joined across short gaps
    runs, cur, quiet = [], None, 0
    for i, r in enumerate(rows):
        n = num(r.get("stall_no_inst"))
        if n:
            if cur is None:
                cur = [i, i, 0, 0]
            cur[1], quiet = i, 0
            cur[2] += n
        elif cur is not None:
            quiet += 1
            if quiet > a.gap:
                runs.append(cur)
                cur = None
    if cur is not None:
        runs.append(cur)
    for run in runs:
        run[3] = sum(num(rows[i].get("Warp Stall Sampling (All Samples)")) for i in
                     range(run[0], run[1] + 1))
    ni = sum(r[2] for r in runs)
    print(f"  no_inst: {ni} samples in {len(runs)} runs; the largest:")
    for s, e, n, allv in sorted(runs, key=lambda x: -x[2])[:a.top]:
        ex = max(num(rows[i].get("Instructions Executed")) for i in range(s, e + 1))
        print(f"    {rows[s]['Address']}..{rows[e]['Address'][-5:]}: {e - s + 1:4d} instructions, "
              f"no_inst {n:4d} of {allv:4d} samples, executed (warp-level) {ex}; "
              f"first: {rows[s]['Source'].strip()[:48]}")


if __name__ == "__main__":
    main()
