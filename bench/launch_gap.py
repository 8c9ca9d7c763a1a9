#!/usr/bin/env python3
"""launch_gap.py -- where the time of one timed GEMM call goes, ours and cuBLAS's.

gemm_bench.py times each call alone: an L2 flush, a ~100 us spin, then CUDA
events around the call.  This script runs that same sequence under the
profiler and prints, per repetition, the kernel's own duration and the gap
from the spin's end to the kernel's start (negative: the kernel started
before the spin ended, i.e. it was launched early, as programmatic
dependent launch allows), next to the events' elapsed time.

    python3 bench/launch_gap.py [--shapes m,n,k;...] [--reps 5] [--pdl]
"""
import argparse
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemm_bench import kp_gemm, setup, timed_once  # noqa: E402
from side_by_side import Kernpack  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def trace(fn, reps, l2):
    """[(event us, kernel us, gap us)] over reps timed calls of fn"""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        evs = [timed_once(fn, l2) for _ in range(reps)]
    ks = sorted((k for k in prof.events() if k.device_type.name == "CUDA"),
                key=lambda k: k.time_range.start)
    out, prev_sleep_end = [], None
    for k in ks:
        if "sleep" in k.name or "spin" in k.name:
            prev_sleep_end = k.time_range.end
        elif prev_sleep_end is not None:
            out.append((k.name, k.time_range.end - k.time_range.start,
                        k.time_range.start - prev_sleep_end))
            prev_sleep_end = None
    return [(ev, dur, gap, name) for ev, (name, dur, gap) in zip(evs, out)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.path.join(REPO, "build/lib/libkernpack.so"))
    ap.add_argument("--shapes", default="1,11008,4096;128,11008,4096;4096,4096,4096")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--pdl", action="store_true", help="kernpack's calls with PDL (kp_ctx_set_pdl)")
    o = ap.parse_args()
    torch.zeros(1, device="cuda")
    kp = Kernpack(o.lib)
    setup(kp)
    if o.pdl:
        kp.lib.kp_ctx_set_pdl(kp.ctx, 1)
    l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, PDL {'on' if o.pdl else 'off'}; "
          "us a call: events / kernel / gap after the spin (median of the reps)")
    for t in o.shapes.split(";"):
        m, n, k = (int(x) for x in t.split(","))
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        d = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        for who, fn in (("kernpack", lambda: kp_gemm(kp, a, b, d)), ("cuBLAS", lambda: torch.matmul(a, b.t()))):
            for _ in range(3):
                fn()
            torch.cuda.synchronize()
            rows = trace(fn, o.reps, l2)
            med = [statistics.median(r[i] for r in rows) for i in range(3)]
            print(f"{m:5d} {n:6d} {k:6d} {who:9s} {med[0]:7.1f} {med[1]:7.1f} {med[2]:6.2f}  "
                  f"{rows[0][3][:60] if rows else '?'}")
            print("      gaps: " + " ".join(f"{r[2]:.2f}" for r in rows))


if __name__ == "__main__":
    main()
