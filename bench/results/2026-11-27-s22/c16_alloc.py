#!/usr/bin/env python3
# c16_alloc.py -- the decode clusters' batch-1 mode (d128) against the
# allocation of q, k, v: one context, eight fresh allocations (the old kept
# alive), each timed 30 times; then K and V copied into one new buffer.
import os, sys, statistics
import torch
sys.path.insert(0, "bench")
import attn_bench as ab
from gemm_bench import time_pair
torch.zeros(1, device="cuda")
kp = ab.Kernpack(os.path.join(ab.REPO, "build/lib/libkernpack.so")); ab.setup(kp)
b, hq, hkv, lk, d, dt = 1, 32, 8, 32768, 128, torch.bfloat16
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
keep = []
for i in range(8):
    q = torch.randn(b, 1, hq, d, device="cuda", dtype=dt)
    k = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
    v = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
    o = torch.empty_like(q)
    run = ab.kp_attention(kp, q, k, v, o, False)
    (t,) = time_pair([run], 30, l2)
    print(f"alloc {i}: k {k.data_ptr():#x} v {v.data_ptr():#x} q {q.data_ptr():#x}: {t:5.1f} us", flush=True)
    keep.append((q, k, v, o, run))
