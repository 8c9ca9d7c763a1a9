#!/usr/bin/env python3
"""gemm_order.py -- the m = 128 GEMM's order effect (bench/NOTES.md 77) taken
apart: is it where B lies, or a state the GPU is left in?

  1. placements: one shape, B at --places offsets in a 1 GB pool (2 MB
     steps plus a random 64 KB multiple), each pinned variant and cuBLAS in
     turns (gemm_bench's timing: L2 flushed by a read, the call alone);
  2. after: the same tensors (B at offset 0) timed in rounds before and
     after --big-reps cuBLAS GEMMs of --big (default 8192^3) -- with the
     tensors fixed, a slowdown that fades with time is a state, not a
     placement; a --sleep-ms pause instead of the big GEMMs is the control.

    python3 bench/gemm_order.py --variants NAME[,NAME..] [--shape 128,4096,4096]

Each round also probes the GPU's state: its SM clock (a 200k-cycle
torch.cuda._sleep timed by events), an 8 MB read from L2 and a 256 MB read
from HBM.  (It replaces gemm_offsets.py, which moved B alone.)
"""
import argparse
import os
import random
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemm_bench import DTYPES, event_us, kp_gemm, pinned, setup, timed_once  # noqa: E402
from side_by_side import Kernpack  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


PROBE = {}
PHDR = f"{'SM MHz':>7s} {'L2 8MB':>7s} {'HBM 256MB':>9s}"


def fmt_probes(p):
    return f"{p[0]:7.0f} {p[1]:7.1f} {p[2]:9.1f}"


def probes(l2):
    """the GPU's state now: SM MHz (a 200k-cycle torch.cuda._sleep timed by
    events), us to read 8 MB from L2 (read twice, the second timed) and 256
    MB from DRAM (the flush buffer, after another 256 MB)"""
    if "l2" not in PROBE:
        PROBE["l2"] = torch.empty(8 << 20, dtype=torch.uint8, device="cuda").zero_()
        PROBE["other"] = torch.empty(256 << 20, dtype=torch.uint8, device="cuda").zero_()
    x, y = PROBE["l2"].view(torch.int64), PROBE["other"].view(torch.int64)
    mhz = 200_000 / event_us(lambda: torch.cuda._sleep(200_000))
    x.sum()
    l2us = event_us(lambda: x.sum())
    y.sum()
    dram = event_us(lambda: l2.view(torch.int64).sum())
    return mhz, l2us, dram


def rounds(fns, reps, l2):
    """median us of each fn over reps turns, then the probes' medians"""
    t = [[] for _ in fns]
    p = []
    for _ in range(reps):
        for i, f in enumerate(fns):
            t[i].append(timed_once(f, l2))
        p.append(probes(l2))
    return [statistics.median(x) for x in t] + [statistics.median(q[j] for q in p) for j in range(3)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.path.join(REPO, "build/lib/libkernpack.so"))
    ap.add_argument("--variants", required=True, help="comma-separated variant names to pin")
    ap.add_argument("--dtype", default="bf16")
    ap.add_argument("--shape", default="128,4096,4096")
    ap.add_argument("--places", type=int, default=12)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--big", default="8192,8192,8192")
    ap.add_argument("--big-reps", type=int, default=4)
    ap.add_argument("--after-rounds", type=int, default=12)
    ap.add_argument("--sleep-ms", type=float, default=0, help="control: a pause, not big GEMMs")
    ap.add_argument("--move", default="b", help="which operand the placements move: a, b or d")
    ap.add_argument("--big-kp", action="store_true", help="the big GEMMs by kp_gemm (its pick)")
    ap.add_argument("--every-round", action="store_true",
                    help="the big GEMMs again before each round after (every round in the state "
                    "they leave the GPU in; the first ~25 ms after 60 of 8192^3 on an H200)")
    ap.add_argument("--realloc", type=int, default=0,
                    help="then N rounds after the big GEMMs with a, b, d allocated anew each "
                         "round by torch (gemm_bench's way), their addresses printed")
    o = ap.parse_args()
    random.seed(1)
    torch.manual_seed(0)
    torch.zeros(1, device="cuda")
    dt = DTYPES[o.dtype]
    m, n, k = (int(x) for x in o.shape.split(","))
    names = o.variants.split(",")
    kps = [pinned(o.lib, v) for v in names]
    kp_default = Kernpack(o.lib) if o.big_kp else None  # its pick, for --big-kp
    if kp_default is not None:
        setup(kp_default)
    l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    a = torch.randn(m, k, device="cuda", dtype=dt)
    d = torch.empty(m, n, device="cuda", dtype=dt)
    pool = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    nb = n * k * 2
    hdr = " ".join(f"{v[-28:]:>28s}" for v in names)
    print(f"{o.dtype} {m} x {n} x {k}, {torch.cuda.get_device_name()}")

    def fns_for(b):
        bt, aa, dd = b.t(), a, d
        return [lambda kp=kp: kp_gemm(kp, aa, b, dd) for kp in kps] + [lambda: torch.matmul(aa, bt)]

    b0 = torch.randn(n, k, device="cuda", dtype=dt) / k ** 0.5
    a0 = a.clone()
    print(f"-- placements of {o.move.upper()} in a 1 GB pool (us)\n{'offset MB':>10s} {hdr} {'cuBLAS':>8s} {PHDR}")
    size = {"a": m * k * 2, "b": nb, "d": m * n * 2}[o.move]
    gran = 16 if o.move == "b" else 9  # 64 KB or 512-byte steps
    offs = [0] + [random.randrange(0, ((1 << 30) - size) >> gran) << gran for _ in range(o.places - 1)]
    for off in offs:
        t = pool[off:off + size].view(dt)
        if o.move == "b":
            b = t.view(n, k)
            b.copy_(b0)
        else:
            b = b0
            if o.move == "a":
                a = t.view(m, k)
                a.copy_(a0)
            else:
                d = t.view(m, n)
        fns = fns_for(b)
        for f in fns:
            f()
        torch.cuda.synchronize()
        ts = rounds(fns, o.reps, l2)
        print(f"{off / 2**20:10.1f} " + " ".join(f"{x:28.1f}" for x in ts[:-4]) + f" {ts[-4]:8.1f} " + fmt_probes(ts[-3:]),
              flush=True)

    a = torch.randn(m, k, device="cuda", dtype=dt)
    d = torch.empty(m, n, device="cuda", dtype=dt)
    b = pool[:nb].view(dt).view(n, k)
    b.copy_(b0)
    fns = fns_for(b)
    bm, bn, bk = (int(x) for x in o.big.split(","))
    big_a = torch.randn(bm, bk, device="cuda", dtype=dt)
    big_b = torch.randn(bk, bn, device="cuda", dtype=dt)
    big_d = torch.empty(bm, bn, device="cuda", dtype=dt) if o.big_kp else None
    bw = big_b.t().contiguous() if o.big_kp else None  # B as (n, k) for kp_gemm

    def load():
        for _ in range(o.big_reps):
            if o.big_kp:
                kp_gemm(kp_default, big_a, bw, big_d)
            else:
                torch.matmul(big_a, big_b)
        torch.cuda.synchronize()

    for what in ("before", "after"):
        if what == "after":
            if o.sleep_ms:
                torch.cuda.synchronize()
                time.sleep(o.sleep_ms / 1e3)
            else:
                load()
        t0 = time.perf_counter()
        print(f"-- {what} {'a pause' if o.sleep_ms else f'{o.big_reps} x {o.big}'}: rounds of "
              f"{o.reps} turns, B fixed\n{'ms':>10s} {hdr} {'cuBLAS':>8s} {PHDR}")
        for _ in range(o.after_rounds if what == "after" else 3):
            if what == "after" and o.every_round and _:
                load()
            ts = rounds(fns, o.reps, l2)
            print(f"{(time.perf_counter() - t0) * 1e3:10.1f} " + " ".join(f"{x:28.1f}" for x in ts[:-4])
                  + f" {ts[-4]:8.1f} " + fmt_probes(ts[-3:]), flush=True)
    if o.realloc:
        print(f"-- {o.realloc} rounds, a, b, d allocated anew each (torch.randn / empty), "
              f"addresses mod 2 MB in KB\n{'ms':>10s} {hdr} {'cuBLAS':>8s} {PHDR}  a, b, d")
        t0 = time.perf_counter()
        del a, b, d, fns
        for _ in range(o.realloc):
            a = torch.randn(m, k, device="cuda", dtype=dt)
            b = torch.randn(n, k, device="cuda", dtype=dt) / k ** 0.5
            d = torch.empty(m, n, device="cuda", dtype=dt)
            fns = fns_for(b)
            for f in fns:
                f()
            torch.cuda.synchronize()
            ts = rounds(fns, o.reps, l2)
            ad = ", ".join(f"{(x.data_ptr() % (2 << 20)) >> 10}" for x in (a, b, d))
            print(f"{(time.perf_counter() - t0) * 1e3:10.1f} " + " ".join(f"{x:28.1f}" for x in ts[:-4])
                  + f" {ts[-4]:8.1f} " + fmt_probes(ts[-3:]) + f"  {ad}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
