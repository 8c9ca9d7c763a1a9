#!/usr/bin/env python3
# per-CTA globaltimer trace of the split-KV decode (a traced sm_90a pack in
# KP_PACK_DIR: templates edited to record, thread 0 of each CTA, at start,
# Q landed, key loop done, count taken, merge done; 8 u64 a CTA 64 KB past
# the counters)
import ctypes, os, sys, json
import torch
sys.path.insert(0, "bench")
import attn_bench as ab
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
kp = ab.Kernpack("build/lib/libkernpack.so"); ab.setup(kp)
sm = torch.cuda.get_device_properties(0).multi_processor_count
slot = 2 * 2 * sm * (16 * 128 + 32) * 4
out = {}
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
for d in (128, 64):
  for b in (1, 8):
    hq, hkv, lk = 32, 8, 32768
    dt = torch.bfloat16
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
    ws = torch.zeros(need.value + 65536 + 4096 * 64, dtype=torch.uint8, device="cuda")
    a.workspace, a.workspace_bytes = ws.data_ptr(), ws.numel()
    st = ab.stream()
    runs = []
    for rep in range(12):
      l2.zero_()
      torch.cuda.synchronize()
      e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
      e0.record()
      kp.check(kp.lib.kp_attention(kp.ctx, ab.KDT[dt], q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), ctypes.byref(a), st), "attn")
      e1.record(); torch.cuda.synchronize()
      tr = ws[slot + 65536: slot + 65536 + 2 * sm * 64].view(torch.int64).view(-1, 8).cpu().tolist()
      runs.append({"ev_us": e0.elapsed_time(e1) * 1e3, "tr": tr})
    out[f"d{d}_b{b}"] = runs
    # summary of the last 6 runs
    for r in runs[-3:]:
      tr = [x for x in r["tr"] if x[1]]
      t0 = min(x[1] for x in tr)
      rel = lambda i: sorted((x[i] - t0) / 1e3 for x in tr if x[i])
      s, qd, le, cn, en = rel(1), rel(2), rel(3), rel(4), rel(5)
      pct = lambda a: " ".join(f"{a[int(p * (len(a) - 1))]:6.1f}" for p in (0, .1, .5, .9, 1))
      print(f"d{d} b{b} ev {r['ev_us']:.1f} us; CTAs {len(tr)}  [min p10 p50 p90 max] us after the first start")
      print(f"  start    {pct(s)}\n  Q+tile0  {pct(qd)}\n  loopend  {pct(le)}\n  counted  {pct(cn)}\n  end      {pct(en)}")
      per_sm = {}
      for x in tr: per_sm.setdefault(x[0], []).append((x[5] - t0) / 1e3)
      ends = sorted(max(v) for v in per_sm.values()); ns = sorted(len(v) for v in per_sm.values())
      print(f"  SMs {len(per_sm)} CTAs/SM {ns[0]}..{ns[-1]}; SM last end {pct(ends)}")
      lt = sorted((x[3] - x[2]) / 1e3 for x in tr)
      print(f"  loop time (Q landed -> loop end) {pct(lt)}; tiles/CTA {sorted(set(x[6] for x in tr))} merges {sum(x[7] for x in tr)}")
json.dump(out, open(os.environ["OUT"] + "/r/trace.json", "w"))
