#!/usr/bin/env python3
# per-CTA globaltimer trace of stream-K (branch gemm-streamk + trace edits):
# consumer 0's thread 0 records start, per item (start, main loop end,
# stream-K section end, role, k-tiles, tile) and its end, 32 MiB into ws
import ctypes, os, sys, json
import torch
sys.path.insert(0, "bench")
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
import gemm_bench as gb
from side_by_side import Kernpack, stream
kp = Kernpack("build/lib/libkernpack.so"); gb.setup(kp)
sm = torch.cuda.get_device_properties(0).multi_processor_count
out = {}
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
for (m, n, k) in ((4096, 4096, 4096), (2048, 4096, 4096), (8192, 8192, 8192)):
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    d = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    ws = torch.zeros((32 << 20) + 4096 * 512, dtype=torch.uint8, device="cuda")
    for use in (None, ws, None, ws):
        ts = []
        for rep in range(8):
            l2.zero_()
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record(); gb.kp_gemm(kp, a, b, d, ws=use); e1.record(); torch.cuda.synchronize()
            ts.append(e0.elapsed_time(e1) * 1e3)
        print(f"{m}x{n}x{k} {'ws' if use is not None else 'no ws'}: us {' '.join(f'{t:.1f}' for t in ts)}")
    ref = a.float() @ b.float().t()
    print("  max rel err", ((d.float() - ref).abs().max() / ref.abs().max()).item())
    tr = ws[32 << 20: (32 << 20) + sm * 512].view(torch.int64).view(sm, 64).cpu().tolist()
    out[f"{m}x{n}x{k}"] = tr
    t0 = min(x[1] for x in tr if x[1])
    ends = sorted((x[3] - t0) / 1e3 for x in tr)
    print(f"  CTA ends us: min {ends[0]:.1f} p10 {ends[len(ends)//10]:.1f} p50 {ends[len(ends)//2]:.1f} p90 {ends[len(ends)*9//10]:.1f} max {ends[-1]:.1f}")
    print(f"  starts us: max {max((x[1]-t0)/1e3 for x in tr):.2f}")
    # per item stats
    for w in range(6):
        rows = [x for x in tr if x[2] > w]
        if not rows: break
        st = lambda j: sorted((x[4 + 8*w + j] - t0) / 1e3 for x in rows)
        roles = sorted(set(x[8 + 8*w] for x in rows))
        main = sorted((x[5+8*w] - x[4+8*w]) / 1e3 / max(1, x[9+8*w]) * 64 for x in rows if x[9+8*w])
        fix = sorted((x[6+8*w] - x[5+8*w]) / 1e3 for x in rows)
        print(f"  item {w}: n {len(rows)} roles {roles} start p50 {st(0)[len(rows)//2]:.1f} max {st(0)[-1]:.1f}; "
              f"main per 64 k-tiles p50 {main[len(main)//2]:.1f} max {main[-1]:.1f}; stream-K section p50 {fix[len(fix)//2]:.2f} max {fix[-1]:.2f}")
    for role in (1, 2):
        f = sorted((x[6+8*w] - x[5+8*w]) / 1e3 for x in tr for w in range(min(6, x[2])) if x[8+8*w] == role)
        if f: print(f"  role {role}: n {len(f)} section us p50 {f[len(f)//2]:.2f} max {f[-1]:.2f}")
    # the slowest CTA's timeline
    sl = max(tr, key=lambda x: x[3])
    print("  slowest CTA", [(w, sl[8+8*w], sl[9+8*w], round((sl[4+8*w]-t0)/1e3,1), round((sl[5+8*w]-t0)/1e3,1), round((sl[6+8*w]-t0)/1e3,1)) for w in range(min(6, sl[2]))], "end", round((sl[3]-t0)/1e3,1))
json.dump(out, open(os.environ.get("OUT", "/tmp") + "/r/trace_gemm.json", "w"))
