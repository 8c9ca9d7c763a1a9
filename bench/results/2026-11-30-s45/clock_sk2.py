#!/usr/bin/env python3
# The split-KV decode's tail, per CTA (forty-fifth session's CLOCK TRACE edit:
# 16 u64 a CTA at WS + 64 KB): loop end, count, first merge loads issued, end,
# for the merging CTAs and for the others' dry pass over the merge code
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
  for tr in runs[-3:]:
    t0 = min(x[1] for x in tr)
    f = lambda v: (v - t0) / 1e3
    le = sorted(f(x[3]) for x in tr if x[3])
    print(f"b{b}: {len(tr)} CTAs; loop end min/p50/max {le[0]:.1f} / {le[len(le)//2]:.1f} / {le[-1]:.1f}")
    dry = sorted((x for x in tr if x[11]), key=lambda x: x[5])
    if dry:
      ds = [f(x[5]) for x in dry]; di = [f(x[9]) for x in dry]; de = [f(x[11]) for x in dry]
      q = lambda v: f"{min(v):.1f} / {sorted(v)[len(v)//2]:.1f} / {max(v):.1f}"
      print(f"   dry CTAs {len(dry)}: counted {q(ds)}; loads issued {q(di)}; end {q(de)}")
      for x in dry[:4]:
        print(f"     first dry sm {x[0]:3d}: counted {f(x[5]):5.1f} issued {f(x[9]):5.1f} end {f(x[11]):5.1f}")
    for x in sorted((x for x in tr if x[7]), key=lambda x: x[7]):
      print(f"   merging CTA sm {x[0]:3d}: loop end {f(x[3]):5.1f} counted {f(x[5]):5.1f} issued {f(x[9]):5.1f} end {f(x[7]):5.1f} us")
json.dump(out, open(os.environ.get("OUT", "/tmp") + "/r/clock.json", "w"))
