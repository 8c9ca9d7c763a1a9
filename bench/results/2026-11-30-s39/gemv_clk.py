#!/usr/bin/env python3
"""gemv_clk.py -- EXPERIMENT (thirty-ninth session, calls 1-4 and 6): per-CTA
timeline of the TMA GEMV.  The twins of gemv_experiments.patch write
%globaltimer stamps per CTA (entry, first stage full, main loop done, end; the
`_clks` twin also after staging and after the stores):

    _clk   no product at all (the compiler drops the loads and the mma)
    _clkl  the ring's loads, no mma (the product kept live, never stored)
    _clkc  loads and mma, nothing stored
    _clks  the whole kernel, stamps past row 0's N columns of a padded D

    (apply gemv_experiments.patch, make, copy this file to bench/)
    python3 bench/gemv_clk.py [--shapes m,n,k;...] [--variants n128_s5,...] [--reps 5]

Each rep times cuBLAS, the plain variant and the twins in turn
(gemm_bench.timed_once) and reads the stamps; medians over the reps.
"""
import argparse
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemm_bench import Kernpack, kp_gemm, setup, timed_once  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pinned(lib, name):
    os.environ["KP_VARIANT"] = name
    try:
        kp = Kernpack(lib)
    finally:
        del os.environ["KP_VARIANT"]
    setup(kp)
    return kp


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * (len(xs) - 1) + 0.5))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.path.join(REPO, "build/lib/libkernpack.so"))
    ap.add_argument("--shapes", default="1,11008,4096;16,14336,4096;1,8448,4096")
    ap.add_argument("--variants", default="n128_s5,n64_s5,n64_s10,n128_s10")
    ap.add_argument("--reps", type=int, default=7)
    o = ap.parse_args()
    torch.zeros(1, device="cuda")
    l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    print(f"{torch.cuda.get_device_name()}; us; stamps relative to the first CTA's entry, "
          "p0/p50/p100 over the CTAs, median over the reps")
    for t in o.shapes.split(";"):
        m, n, k = (int(x) for x in t.split(","))
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        d = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        dp = torch.empty(m, n + 8192, device="cuda", dtype=torch.bfloat16)[:, :n]  # room for _clks
        print(f"{m}x{n}x{k}: us by events, each callable in turn, median of {o.reps} rounds")
        for v in o.variants.split(","):
            plain = f"gemm_bf16_gemv_m16_{v}_tma_nk"
            rb = int(v.split("_")[0][1:])
            ctas = (n + rb - 1) // rb
            kps = {w: pinned(o.lib, plain.replace("_tma_nk", s + "_tma_nk"))
                   for w, s in (("plain", ""), ("clk", "_clk"), ("clks", "_clks"), ("clkc", "_clkc"),
                                 ("clkl", "_clkl"))}
            calls = {"cuBLAS": lambda: torch.matmul(a, b.t()),
                     "plain": lambda: kp_gemm(kps["plain"], a, b, dp),
                     "clk": lambda: kp_gemm(kps["clk"], a, b, d),
                     "clks": lambda: kp_gemm(kps["clks"], a, b, dp),
                     "clkc": lambda: kp_gemm(kps["clkc"], a, b, d),
                     "clkl": lambda: kp_gemm(kps["clkl"], a, b, d)}
            for f in calls.values():
                for _ in range(3):
                    f()
            ev = {w: [] for w in calls}
            st = {"clk": [], "clks": [], "clkc": [], "clkl": []}
            for _ in range(o.reps):
                for w, f in calls.items():
                    ev[w].append(timed_once(f, l2))
                    if w in st:
                        raw = (d if w != "clks" else dp.as_strided((m, n + 8192), dp.stride()))
                        flat = raw.contiguous().view(torch.int64).flatten()
                        off = 0 if w != "clks" else (n * 2 + 63) // 64 * 8
                        s = flat[off: off + 8 * ctas].view(ctas, 8)[:, :7].cpu().tolist()
                        t0 = min(r[0] for r in s)
                        st[w].append([[(r[i] - t0) / 1000.0 for i in range(4)] + [r[4]] +
                                      [(r[i] - t0) / 1000.0 if w == "clks" else 0 for i in (6, 5)]
                                      for r in s])
            print(f"  {v:9s} " + "  ".join(f"{w} {statistics.median(x):6.2f}" for w, x in ev.items()))
            for w, rows in st.items():
                def med(f):
                    return statistics.median(f(r) for r in rows)
                span = med(lambda r: max(x[3] for x in r))
                print(f"    {w}: stamps span {span:5.2f} us over {len(rows[0])} CTAs on "
                      f"{len(set(x[4] for x in rows[0]))} SMs; p0/p10/p50/p90/p100")
                for i, nm in ((0, "entry"), (1, "first full"), (2, "loop done"), (3, "end"),
                              (5, "staged"), (6, "stored")):
                    if i >= 5 and w != "clks":
                        continue
                    print(f"      {nm:10s} " + " ".join(
                        f"{med(lambda r: pct([x[i] for x in r], p)):6.2f}" for p in (0, 0.1, 0.5, 0.9, 1.0)))
            del kps


if __name__ == "__main__":
    main()
