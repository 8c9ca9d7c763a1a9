#!/usr/bin/env python3
"""attn_bits.py (sixty-seventh session, call 10): the output bits of every
d64 128-row Hopper attention variant, pinned, on fixed inputs (seeded) at
masked shapes -- causal square, causal bottom-right (lq < lk), lengths off
the tile grid, GQA -- one line a (variant, shape): its SHA-1.  Run it once
with main's pack and once with the changed one (KP_PACK_DIR); the lines
must match (the skipped exponentials were exact zeros).  From the
repository root."""
import hashlib, os, sys
import torch
sys.path.insert(0, "bench")
import attn_bench as ab
from side_by_side import Kernpack, KpError

LIB = "build/lib/libkernpack.so"
VARS = [n for n, dt in ab.attn_variants(Kernpack(LIB), "d64_wg_128x128") if dt == "bf16"]
CASES = [(2, 8, 8, 1024, 1024, True), (2, 8, 8, 777, 1000, True), (1, 16, 4, 300, 2049, True),
         (3, 4, 4, 129, 129, True), (2, 8, 8, 1000, 1000, False), (1, 8, 2, 64, 4000, True)]
for name in VARS:
    kp = ab.pinned(LIB, name)
    for i, (b, hq, hkv, lq, lk, causal) in enumerate(CASES):
        g = torch.Generator(device="cuda").manual_seed(1000 + i)
        q = torch.randn(b, lq, hq, 64, device="cuda", dtype=torch.bfloat16, generator=g)
        k = torch.randn(b, lk, hkv, 64, device="cuda", dtype=torch.bfloat16, generator=g)
        v = torch.randn(b, lk, hkv, 64, device="cuda", dtype=torch.bfloat16, generator=g)
        o = torch.full_like(q, float("nan"))
        try:
            ab.kp_attention(kp, q, k, v, o, causal)()
        except KpError as e:
            print(f"{name} case {i}: {'n/a' if 'does not apply' in str(e) else e}")
            continue
        torch.cuda.synchronize()
        h = hashlib.sha1(o.view(torch.int16).cpu().numpy().tobytes()).hexdigest()[:16]
        print(f"{name} case {i} b{b} {hq}/{hkv} {lq}x{lk} causal={causal}: {h}"
              f"{' NaN' if torch.isnan(o).any().item() else ''}")
