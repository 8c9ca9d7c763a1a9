#!/usr/bin/env python3
"""ncu_gemm.py -- one GEMM shape, kernpack and (optionally) cuBLAS, for a profiler.

    ncu --section SpeedOfLight -k regex:'gemm_|nvjet' python3 bench/ncu_gemm.py M N K [--cublas]

Runs kp_gemm (bf16, B as (n, k); the variant the runtime picks, or the one
named by KP_VARIANT) five times and, with --cublas, torch.matmul of the same
operands five times, so that a profiler's kernel filter can take the last
launch of each.  Times nothing: bench/gemm_bench.py does that.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_bench as gb  # noqa: E402

m, n, k = (int(x) for x in sys.argv[1:4])
torch.zeros(1, device="cuda")
kp = gb.Kernpack(os.path.join(gb.REPO, "build/lib/libkernpack.so"))
gb.setup(kp)
a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
d = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
for _ in range(5):
    gb.kp_gemm(kp, a, b, d)
if "--cublas" in sys.argv[4:]:
    for _ in range(5):
        torch.matmul(a, b.t())
torch.cuda.synchronize()
