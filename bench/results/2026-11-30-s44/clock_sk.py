#!/usr/bin/env python3
# SM clock of the split-KV decode's CTAs during their key loop and, for the
# tile-merging CTAs, during the merge (CLOCK TRACE edit: 16 u64 a CTA at
# WS + 64 KB: smid, start / loop end / counted / end as globaltimer, clock64)
import ctypes, os, sys, json
import torch
sys.path.insert(0, "bench")
import attn_bench as ab, gemm_bench
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
sm = torch.cuda.get_device_properties(0).multi_processor_count
slot = 2 * 2 * sm * (16 * 256 + 32) * 4
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
out = {}
kp = gemm_bench.pinned("build/lib/libkernpack.so", sys.argv[1], ab.setup)
for b in (1, 8):
  d, hq, hkv, lk, dt = 128, 32, 8, 32768, torch.bfloat16
  q = torch.randn(b, 1, hq, d, device="cuda", dtype=dt)
  k = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
  v = torch.randn(b, lk, hkv, d, device="cuda", dtype=dt)
  o = torch.empty_like(q)
  a = ab.KpAttnDesc()
  kp.lib.kp_attn_desc_init(ctypes.byref(a), b, hq, hkv, 1, lk, d)
  for name, t in (("q", q), ("k", k), ("v", v), ("o", o)):
    setattr(a, f"{name}_stride_batch", t.stride(0)); setattr(a, f"{name}_stride_seq", t.stride(1))
    setattr(a, f"{name}_stride_head", t.stride(2))
  need = ctypes.c_size_t(0)
  kp.check(kp.lib.kp_attention_workspace_size(kp.ctx, ab.KDT[dt], ctypes.byref(a), ctypes.byref(need)), "ws")
  ws = torch.zeros(need.value + 65536 + 4096 * 128, dtype=torch.uint8, device="cuda")
  a.workspace, a.workspace_bytes = ws.data_ptr(), ws.numel()
  st = ab.stream()
  runs = []
  for rep in range(8):
    ws[slot + 65536:].zero_(); l2.zero_(); l2.sum(); torch.cuda.synchronize()
    kp.check(kp.lib.kp_attention(kp.ctx, ab.KDT[dt], q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), ctypes.byref(a), st), "attn")
    torch.cuda.synchronize()
    tr = ws[slot + 65536: slot + 65536 + 4096 * 128].view(torch.int64).view(-1, 16).cpu().tolist()
    runs.append([x for x in tr if x[1]])
  out[f"b{b}"] = runs
  for tr in runs[-2:]:
    t0 = min(x[1] for x in tr)
    mhz = lambda c0, c1, g0, g1: (c1 - c0) / max(1, g1 - g0) * 1e3
    loop = sorted(mhz(x[2], x[4], x[1], x[3]) for x in tr if x[3])
    print(f"b{b}: {len(tr)} CTAs; loop MHz min/p50/max {loop[0]:.0f} / {loop[len(loop)//2]:.0f} / {loop[-1]:.0f}")
    for x in sorted((x for x in tr if x[7]), key=lambda x: x[7]):
      print(f"   merging CTA sm {x[0]:3d}: loop end {(x[3]-t0)/1e3:5.1f} counted {(x[5]-t0)/1e3:5.1f} end {(x[7]-t0)/1e3:5.1f} us;"
            f" first partials landed {(x[9]-t0)/1e3:5.1f}; MHz count->end {mhz(x[6], x[8], x[5], x[7]):.0f}, cycles count->end {x[8]-x[6]}")
json.dump(out, open(os.environ.get("OUT", "/tmp") + "/r/clock.json", "w"))
