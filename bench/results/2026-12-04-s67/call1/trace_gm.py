#!/usr/bin/env python3
"""trace_gm.py (from trace_m128.py, bench/results/2026-12-04-s66/call9/) -- per-CTA globaltimer stamps of the m = 128 GEMM picks
(`_tr` twins, bench/results/2026-12-04-s66/call11/tr_ei.patch): where a CTA's time goes, against cuBLAS's
whole-call time in the same process.  Stamps (ns): 1 entry, 2 the producer's
first load issued, 3 the first stage full, 4/5/6 k-tile 16/32/48 full, 7 the
last k-tile full, 8 the main loop's last wgmma retired, 9 consumer 0's
epilogue in shared memory, 10 store warp 0's last store done, 11 the
producer's last load issued.  Run from the repository root."""
import os, sys, statistics, json
import torch
sys.path.insert(0, "bench")
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
import gemm_bench as gb
from side_by_side import flush_read

out = {}
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
GMF = "gemm_bf16_wg_128x88_s6_e88_tr_gmf_pl_nk"
PICK = "gemm_bf16_wg_128x88_s6_e88_tr_pl_nk"
RUNS = [(128, 11008, 4096, v, fl) for fl in (True, False) for v in (PICK, GMF, PICK, GMF)]
if len(sys.argv) > 1 and sys.argv[1] == "ei":  # (call 11's runs)
    RUNS = [(128, 11008, 4096, v, True) for v in (PICK, "gemm_bf16_wg_128x88_s6_e88_ei_tr_pl_nk") * 2]
for (m, n, k, var, flush) in RUNS:
    kp = gb.pinned("build/lib/libkernpack.so", var)
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16) / k ** 0.5
    big = torch.zeros(m * n + 256 + 40000, device="cuda", dtype=torch.bfloat16)  # (trace, then the maps' copy 64 KiB on)
    d = big[: m * n].view(m, n)
    ntile = -(-n // int(var.split("x")[1].split("_")[0]))
    kus, cus, traces = [], [], []
    for rep in range(12):
        for who in ("kp", "cb"):
            if flush:
                flush_read(l2)
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            if who == "kp":
                gb.kp_gemm(kp, a, b, d)
            else:
                torch.matmul(a, b.t())
            e.record(); e.synchronize()
            (kus if who == "kp" else cus).append(s.elapsed_time(e) * 1e3)
            if who == "kp":
                off = (m * n * 2 + 255) // 256 * 256 // 2
                tr = big[off: off + ntile * 64].view(torch.int64).view(ntile, 16).cpu().tolist()
                traces.append(tr)
    ref = a.float() @ b.float().t()
    err = ((d.float() - ref).norm() / ref.norm()).item()
    print(f"{m}x{n}x{k} {var}{'' if flush else ' (no L2 flush)'}: kp {statistics.median(kus):.1f} us, cuBLAS {statistics.median(cus):.1f} us, rel err {err:.1e}")
    # the median rep's trace
    order = sorted(range(len(kus)), key=lambda i: kus[i])
    for tag, i in (("median", order[len(order) // 2]),):
        tr = traces[i]
        t0 = min(x[1] for x in tr)
        def q(j):
            v = sorted((x[j] - t0) / 1e3 for x in tr)
            return f"{v[0]:6.2f} {v[len(v)//2]:6.2f} {v[-1]:6.2f}"
        print(f"  {tag} rep (event {kus[i]:.1f} us), stamps in us from the first CTA's entry, min / p50 / max over {len(tr)} CTAs:")
        for j, name in ((1, "entry"), (12, "grid wait done"), (13, "barriers ready"),
                        (14, "producer's setmaxnreg"), (15, "first tile decoded"), (2, "first load issued"), (3, "first stage full"), (4, "k-tile 16 full"),
                        (5, "k-tile 32 full"), (6, "k-tile 48 full"), (7, "last k-tile full"),
                        (11, "last load issued"), (8, "main loop done"), (9, "epilogue in smem"),
                        (10, "stores done")):
            print(f"    {j:2d} {name:18s} {q(j)}")
        per = sorted((x[7] - x[3]) / 1e3 / 63 * 1e3 for x in tr)
        print(f"    ns a k-tile (first full to last full / 63): min {per[0]:.0f} p50 {per[len(per)//2]:.0f} max {per[-1]:.0f}")
        sms = sorted(x[0] for x in tr)
        print(f"    SMs used: {len(set(sms))} distinct of {len(sms)}")
        out.setdefault(f"{m}x{n}x{k}", []).append({"event_us": kus[i], "trace": tr})
json.dump(out, open(os.environ.get("OUT", "/tmp") + "/r/trace_m128.json", "w"))
