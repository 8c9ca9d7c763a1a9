#!/usr/bin/env python3
"""ncu_attn.py -- one attention shape, kernpack and SDPA's backends, for a profiler.

    ncu --section SpeedOfLight -k regex:'attention_|flash|fmha|sdpa|cudnn' \
        python3 bench/ncu_attn.py B HQ HKV LQ LK D [--causal] [--paged PAGE] [--sdpa]

Runs kp_attention (bf16, non-causal unless --causal; the variant the runtime picks, or the one
named by KP_VARIANT) three times, with --paged also through a paged KV cache of
that page size (pages shuffled), and with --sdpa each SDPA backend three
times, so that a profiler's kernel filter can take each one's last launch.
Times nothing: bench/attn_bench.py does that.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attn_bench as ab  # noqa: E402

b, hq, hkv, lq, lk, d = (int(x) for x in sys.argv[1:7])
rest = sys.argv[7:]
causal = "--causal" in rest
torch.zeros(1, device="cuda")
kp = ab.Kernpack(os.path.join(ab.REPO, "build/lib/libkernpack.so"))
ab.setup(kp)
dt = torch.bfloat16
q = torch.randn(b, lq, hq, d, device="cuda", dtype=dt)
k = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
v = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
o = torch.empty_like(q)
run = ab.kp_attention(kp, q, k, v, o, causal)
for _ in range(3):
    run()
if "--paged" in rest:
    page = int(rest[rest.index("--paged") + 1])
    per = (lk + page - 1) // page
    perm = torch.randperm(b * per, device="cuda", dtype=torch.int32)
    kc = torch.randn(b * per, page, hkv, d, device="cuda", dtype=dt)
    vc = torch.randn_like(kc)
    runp = ab.kp_attention(kp, q, kc, vc, torch.empty_like(q), causal, paged=(perm.view(b, per), lk))
    for _ in range(3):
        runp()
if "--sdpa" in rest:
    for name, be in ab.sdpa_backends().items():
        try:
            for _ in range(3):
                ab.sdpa(be, q, k, v, causal)
        except RuntimeError:
            pass
torch.cuda.synchronize()
