#!/usr/bin/env python3
"""gemm_offsets.py -- is GEMM m = 128 sensitive to where its operands sit?

GEMM m = 128, n = k = 4096 ran 0.96-0.97x cuBLAS alone and 0.83-0.93x right
after the table's large shapes in one process (bench/NOTES.md 43, 44).
This times the shape (kernpack and cuBLAS in turns, L2 flushed, as
gemm_bench.py does) with B placed at several byte offsets inside one large
allocation (and with A and D freshly allocated each time), so that a
placement effect shows as a spread of one implementation's times at equal
work.  Checks each result against torch.matmul.  Times nothing else.

    python3 bench/gemm_offsets.py [--m 128] [--n 4096] [--k 4096] [--reps 30]
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_bench as gb  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--m", type=int, default=128)
ap.add_argument("--n", type=int, default=4096)
ap.add_argument("--k", type=int, default=4096)
ap.add_argument("--reps", type=int, default=30)
ap.add_argument("--dtype", default="bf16")
o = ap.parse_args()
dt = gb.DTYPES[o.dtype]
torch.zeros(1, device="cuda")
kp = gb.Kernpack(os.path.join(gb.REPO, "build/lib/libkernpack.so"))
gb.setup(kp)
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
nb = o.n * o.k
pool = torch.empty(nb + (64 << 20), dtype=dt, device="cuda")  # B's room plus 128 MB of offsets
a = torch.randn(o.m, o.k, device="cuda", dtype=dt)
d = torch.empty(o.m, o.n, device="cuda", dtype=dt)
print(f"gemm_offsets: {torch.cuda.get_device_name()}, m n k = {o.m} {o.n} {o.k} {o.dtype}, "
      f"pool at 0x{pool.data_ptr():x}, median of {o.reps}")
print(f"{'B offset':>12} {'ours us':>9} {'cuBLAS us':>9} {'ratio':>6} {'rel err':>8}")
for off in [0, 256, 4096, 65536, 1 << 20, 2 << 20, 3 << 20, 7 << 20, 33 << 20, 96 << 20]:
    e = off // pool.element_size()
    b = pool[e:e + nb].view(o.n, o.k)
    b.normal_(0, o.k ** -0.5)
    gb.kp_gemm(kp, a, b, d)
    r = torch.matmul(a, b.t())
    err = ((d.float() - r.float()).norm() / r.float().norm()).item()
    t = gb.time_pair([lambda: gb.kp_gemm(kp, a, b, d), lambda: torch.matmul(a, b.t())], o.reps, l2)
    print(f"{off:>12} {t[0]:9.2f} {t[1]:9.2f} {t[1] / t[0]:6.3f} {err:8.1e}", flush=True)
