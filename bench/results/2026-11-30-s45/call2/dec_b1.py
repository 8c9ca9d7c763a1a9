#!/usr/bin/env python3
# The d128 decode at batch 1 (32 / 8 heads, Lk 32K, bf16) with a split-KV
# workspace, N calls of one variant pinned by KP_VARIANT (argv[1]; default
# attention_bf16_d128_dec_w4x16_s2_sk): a small process for ncu (run_2.sh,
# NOTES item 79's next step).
import ctypes, os, sys
import torch
sys.path.insert(0, "bench")
import attn_bench as ab, gemm_bench
name = sys.argv[1] if len(sys.argv) > 1 else "attention_bf16_d128_dec_w4x16_s2_sk"
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 5
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
kp = gemm_bench.pinned("build/lib/libkernpack.so", name, ab.setup)
b, hq, hkv, lk, d, dt = 1, 32, 8, 32768, 128, torch.bfloat16
q = torch.randn(b, 1, hq, d, device="cuda", dtype=dt)
k = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
v = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
o = torch.empty_like(q)
run = ab.kp_attention(kp, q, k, v, o, False)
for _ in range(calls):
    run()
torch.cuda.synchronize()
print(f"{name}: {calls} calls, out of {o.float().abs().max().item():.3f}")
