#!/usr/bin/env python3
# per-CTA %globaltimer trace of the d128 decode at batch 1 / 8 (a traced
# sm_90a pack: templates/attention.lua with the TRACE edit, thread 0 of each
# CTA: smid, start, Q + first tiles landed, key loop done, end; 8 u64 a CTA
# 64 KB past WS).  argv: variant names (pinned by KP_VARIANT) or "pick".
import ctypes, os, sys, json, collections
import torch
sys.path.insert(0, "bench")
import attn_bench as ab, gemm_bench
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
sm = torch.cuda.get_device_properties(0).multi_processor_count
slot = 2 * 2 * sm * (16 * 256 + 32) * 4
out = {}
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
for vname in sys.argv[1:]:
  kp = ab.Kernpack("build/lib/libkernpack.so") if vname == "pick" else gemm_bench.pinned("build/lib/libkernpack.so", vname, ab.setup)
  if vname == "pick": ab.setup(kp)
  for b in (1, 8):
    d, hq, hkv, lk = 128, 32, 8, 32768
    dt = torch.bfloat16
    torch.manual_seed(0)
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
    for rep in range(10):
      ws[slot + 65536:].zero_()
      l2.zero_(); l2.sum()
      torch.cuda.synchronize()
      e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
      e0.record()
      kp.check(kp.lib.kp_attention(kp.ctx, ab.KDT[dt], q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), ctypes.byref(a), st), "attn")
      e1.record(); torch.cuda.synchronize()
      tr = ws[slot + 65536: slot + 65536 + 4096 * 64].view(torch.int64).view(-1, 8).cpu().tolist()
      tr = [x for x in tr if x[1]]
      runs.append({"ev_us": e0.elapsed_time(e1) * 1e3, "tr": tr})
    out[f"{vname}_b{b}"] = runs
    for r in runs[-2:]:
      tr = r["tr"]
      t0 = min(x[1] for x in tr)
      rel = lambda i: sorted((x[i] - t0) / 1e3 for x in tr if x[i])
      pct = lambda a: " ".join(f"{a[int(p * (len(a) - 1))]:6.1f}" for p in (0, .1, .5, .9, 1)) if a else "-"
      print(f"{vname} b{b}: ev {r['ev_us']:.1f} us; CTAs {len(tr)}  [min p10 p50 p90 max] us after the first start")
      for lab, i in (("start", 1), ("Q+tile0", 2), ("loopend", 3), ("end", 4)):
        print(f"  {lab:8s} {pct(rel(i))}")
      per_sm = collections.Counter(x[0] for x in tr)
      work = [x for x in tr if x[6]]
      wsm = collections.Counter(x[0] for x in work)
      print(f"  SMs {len(per_sm)}, CTAs with tiles {len(work)} on {len(wsm)} SMs, SMs with 2 working CTAs: {sum(1 for c in wsm.values() if c > 1)}")
      # per cluster: SMs used, doubled SMs, loop time spread
      cl = collections.defaultdict(list)
      for x in work: cl[x[5]].append(x)
      for c in sorted(cl):
        xs = cl[c]
        sms = collections.Counter(x[0] for x in xs)
        lt = sorted((x[3] - x[2]) / 1e3 for x in xs)
        st0 = min(x[1] for x in xs)
        print(f"   cluster {c:3d}: {len(xs)} CTAs on {len(sms)} SMs (doubled {sum(1 for v in sms.values() if v > 1)}), "
              f"start +{(st0 - t0) / 1e3:5.1f}, loop {lt[0]:5.1f}..{lt[-1]:5.1f}, end max {max((x[4] - t0) / 1e3 for x in xs):5.1f} us; "
              f"SMs {sorted(sms)[:4]}..")
json.dump(out, open(os.environ.get("OUT", "/tmp") + "/r/trace.json", "w"))
# the split-KV tail: per CTA loop end [3], partial written [7], counted [5], staged [6] (last), end [4]
for key, runs in out.items():
  if "_sk" not in key or not key.endswith("_b1"): continue
  r = runs[-1]; tr = r["tr"]; t0 = min(x[1] for x in tr)
  f = lambda v: f"{(v - t0) / 1e3:6.1f}" if v > t0 else "     -"
  print(f"{key}: the 12 CTAs that end last: loopend written counted staged end")
  for x in sorted(tr, key=lambda x: x[4])[-12:]:
    print("   ", f(x[3]), f(x[7]), f(x[5]), f(x[6]), f(x[4]), "sm", x[0])
