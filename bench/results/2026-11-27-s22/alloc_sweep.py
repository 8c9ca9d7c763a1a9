#!/usr/bin/env python3
# alloc_sweep.py -- the split-KV decode at batch 8 d128 (32 / 8 heads, Lk 32K,
# bf16) on several fresh allocations of q, k, v in one process: does the
# time follow the tensors' placement?  For each allocation: the pick
# (`_s2_sk`), `_s2_skr` (each share begun at its own offset) and `_s3_sk`
# pinned, flash and cuDNN, taking turns (gemm_bench.time_pair); then K and V
# interleaved in one buffer (b, s, 2, h, d) and V offset from K by odd
# amounts within one buffer.
import os, sys, json, ctypes
import torch
sys.path.insert(0, "bench")
import attn_bench as ab
from gemm_bench import time_pair
torch.zeros(1, device="cuda")
lib = os.path.join(ab.REPO, "build/lib/libkernpack.so")
kps = {"pick": ab.Kernpack(lib)}
ab.setup(kps["pick"])
for v in ("s2_skr", "s3_sk"):
    kps[v] = ab.pinned(lib, f"attention_bf16_d128_dec_w4x16_{v}")
be = ab.sdpa_backends()
be = {k: be[k] for k in ("flash", "cudnn") if k in be}
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
b, hq, hkv, lk, d, dt = 8, 32, 8, 32768, 128, torch.bfloat16
out, keep = [], []

def trial(tag, q, k, v):
    o = {n: torch.empty_like(q) for n in kps}
    fns, names = [], []
    for n, kp in kps.items():
        r = ab.kp_attention(kp, q, k, v, o[n], False); r(); fns.append(r); names.append(n)
    for n, f in be.items():
        fns.append(lambda f=f: ab.sdpa(f, q, k, v, False)); names.append(n)
    torch.cuda.synchronize()
    ts = time_pair(fns, 30, l2)
    row = {"tag": tag, "k": k.data_ptr(), "v": v.data_ptr(), **dict(zip(names, ts))}
    out.append(row)
    print(f"{tag:>12} k {k.data_ptr():#x} v-k {(v.data_ptr()-k.data_ptr())/2**20:9.3f} MB  " +
          "  ".join(f"{n} {t:6.1f}" for n, t in zip(names, ts)), flush=True)

for i in range(6):
    q = torch.randn(b, 1, hq, d, device="cuda", dtype=dt)
    k = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
    v = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
    trial(f"fresh{i}", q, k, v)
    keep.append((q, k, v))  # new addresses for the next
keep.clear(); torch.cuda.empty_cache()
q = torch.randn(b, 1, hq, d, device="cuda", dtype=dt)
kv = torch.randn(b, lk, 2, hkv, d, device="cuda", dtype=dt)
trial("kv-interleave", q, kv[:, :, 0], kv[:, :, 1])
del kv
n = b * lk * hkv * d
for off in (0, 1 << 10, 1 << 15, 1 << 19):  # elements: V at K + n + off
    buf = torch.randn(2 * n + (1 << 19), device="cuda", dtype=dt)
    k = buf[:n].view(b, lk, hkv, d); v = buf[n + off: 2 * n + off].view(b, lk, hkv, d)
    trial(f"v+{off * 2 // 1024}K", q, k, v)
    del buf, k, v
json.dump(out, open(os.environ["OUT"] + "/r/alloc.json", "w"), indent=1)
