#!/usr/bin/env python3
# c16_order.py -- the decode clusters' batch-1 mode (d128, bf16, 32/8 heads,
# Lk 32K) against the launches before each timed call: one kernpack context
# (the pick: `_c16`), timed 30 times after the L2 flush and k tiny kernels
# (k = 0..7), each k its own rotation; then a second and third context the
# same way.  Does the mode follow k (the hardware's cluster placement
# starting where the kernels before it left it) or the context?
import os, sys, statistics
import torch
sys.path.insert(0, "bench")
import attn_bench as ab
from gemm_bench import flush
torch.zeros(1, device="cuda")
lib = os.path.join(ab.REPO, "build/lib/libkernpack.so")
b, hq, hkv, lk, d, dt = 1, 32, 8, 32768, 128, torch.bfloat16
q = torch.randn(b, 1, hq, d, device="cuda", dtype=dt)
k = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
v = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
tiny = torch.zeros(1, device="cuda")
for ci in range(3):
    kp = ab.Kernpack(lib); ab.setup(kp)
    o = torch.empty_like(q)
    run = ab.kp_attention(kp, q, k, v, o, False)
    run(); torch.cuda.synchronize()
    res = []
    for nk in range(8):
        ts = []
        for rep in range(30):
            flush(l2)
            torch.cuda._sleep(200_000)
            for _ in range(nk):
                tiny.add_(1)
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); run(); e.record(); e.synchronize()
            ts.append(s.elapsed_time(e) * 1e3)
        res.append(f"{statistics.median(ts):5.1f}")
    print(f"context {ci}: k = 0..7 tiny kernels before: " + " ".join(res), flush=True)
