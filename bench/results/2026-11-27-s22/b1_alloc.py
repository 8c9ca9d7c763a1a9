#!/usr/bin/env python3
# c16r_alloc.py -- batch 1 d128 (bf16, 32/8 heads, Lk 32K) on eight fresh
# allocations of q, k, v in one process: the pick (`_c16`), `_c16r` (each
# CTA of a cluster begun at its own offset into its keys), `_s2_sk` and
# cuDNN, in turns on the same tensors.  Call 13: `_c16`'s 53-55 or 60-61 us
# follows the allocation.
import os, sys
import torch
sys.path.insert(0, "bench")
import attn_bench as ab
from gemm_bench import time_pair
torch.zeros(1, device="cuda")
lib = os.path.join(ab.REPO, "build/lib/libkernpack.so")
kps = {"pick": ab.Kernpack(lib)}
ab.setup(kps["pick"])
for v in ("s3_c16", "s2_sk"):
    kps[v] = ab.pinned(lib, f"attention_bf16_d128_dec_w4x16_{v}")
cudnn = ab.sdpa_backends().get("cudnn")
b, hq, hkv, lk, d, dt = 1, 32, 8, 32768, 128, torch.bfloat16
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
keep = []
for i in range(8):
    q = torch.randn(b, 1, hq, d, device="cuda", dtype=dt)
    k = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
    v = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
    outs, fns = [], []
    for n, kp in kps.items():
        o = torch.empty_like(q); outs.append(o)
        r = ab.kp_attention(kp, q, k, v, o, False); r(); fns.append(r)
    if cudnn:
        fns.append(lambda: ab.sdpa(cudnn, q, k, v, False))
    torch.cuda.synchronize()
    ref = outs[0].float()
    err = max((x.float() - ref).abs().max().item() for x in outs[1:])
    ts = time_pair(fns, 30, l2)
    print(f"alloc {i}: " + "  ".join(f"{n} {t:5.1f}" for n, t in zip(list(kps) + ["cudnn"], ts)) +
          f"  (max diff to the pick {err:.1e})", flush=True)
    keep.append((q, k, v, outs, fns))
