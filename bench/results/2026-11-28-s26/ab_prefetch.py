#!/usr/bin/env python3
# ab_prefetch.py OLD_PACK_DIR -- the TMA kernels with and without
# prefetch.tensormap at entry, in one process: two kernpack contexts (the
# new packs from $KP_PACK_DIR, the old ones from OLD_PACK_DIR), each call
# on the same tensors, in turns with cuBLAS / SDPA (time_pair), on three
# fresh allocations a shape.  GEMM: issue 12's one-round shapes (m = 1, 16,
# 128) and 4096^3; attention: FA3 prefill d128 / d64 at 1K (16 heads, batch
# 16), causal and not.
import os, sys
import torch
sys.path.insert(0, "bench")
import gemm_bench as gb
import attn_bench as ab

torch.manual_seed(0)
torch.zeros(1, device="cuda")
lib = os.path.join(gb.REPO, "build/lib/libkernpack.so")
new = gb.Kernpack(lib)
os.environ["KP_PACK_DIR"], keep_dir = sys.argv[1], os.environ["KP_PACK_DIR"]
old = gb.Kernpack(lib)
os.environ["KP_PACK_DIR"] = keep_dir
for kp in (new, old):
    gb.setup(kp)
    ab.setup(kp)
print(torch.cuda.get_device_name(), "new", new.info.pack_path.decode(), "old", old.info.pack_path.decode(), flush=True)
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
dt = torch.bfloat16
for (m, n, k) in [(128, 4096, 4096), (128, 11008, 4096), (128, 14336, 4096), (16, 11008, 4096),
                  (1, 4096, 4096), (64, 8192, 4096), (4096, 4096, 4096)]:
    for al in range(3):
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(n, k, device="cuda", dtype=dt) / 64
        d1, d2 = (torch.empty(m, n, device="cuda", dtype=dt) for _ in range(2))
        bt = b.t()
        ts = gb.time_pair([lambda: gb.kp_gemm(new, a, b, d1), lambda: gb.kp_gemm(old, a, b, d2),
                           lambda: torch.matmul(a, bt)], 30, l2)
        same = torch.equal(d1, d2)
        print(f"gemm {m}x{n}x{k} alloc {al}: new {ts[0]:7.1f}  old {ts[1]:7.1f}  cuBLAS {ts[2]:7.1f}"
              f"  new/old {ts[1] / ts[0]:.3f}  (same bits: {same})", flush=True)
cudnn = ab.sdpa_backends().get("cudnn")
for d in (128, 64):
    for causal in (False, True):
        for al in range(2):
            q, kk, v = (torch.randn(16, 1024, 16, d, device="cuda", dtype=dt) for _ in range(3))
            o1, o2 = torch.empty_like(q), torch.empty_like(q)
            r1, r2 = ab.kp_attention(new, q, kk, v, o1, causal), ab.kp_attention(old, q, kk, v, o2, causal)
            fns = [r1, r2] + ([lambda: ab.sdpa(cudnn, q, kk, v, causal)] if cudnn else [])
            ts = gb.time_pair(fns, 20, l2)
            print(f"attn d{d} 1K causal={causal} alloc {al}: new {ts[0]:7.1f}  old {ts[1]:7.1f}"
                  + (f"  cuDNN {ts[2]:7.1f}" if cudnn else "") +
                  f"  new/old {ts[1] / ts[0]:.3f}  (same bits: {torch.equal(o1, o2)})", flush=True)
