#!/usr/bin/env python3
# f16_data.py -- GEMM m = 128, n = k = 4096 (B as (n, k)): is the f16 gap of
# the issue table (0.91x cuBLAS, where kp tune has f16 = bf16 at parity) in
# the data or in where the tensors lie?  Three fresh allocations per dtype;
# on each, the same buffers refilled in place with four kinds of data (the
# table's randn / randn/64, kp tune's uniform, the table's values rounded
# through bf16, zeros), ours and cuBLAS timed in turns (time_pair).
import sys
import torch
sys.path.insert(0, "bench")
import gemm_bench as gb

torch.manual_seed(0)
torch.zeros(1, device="cuda")
kp = gb.Kernpack(gb.os.path.join(gb.REPO, "build/lib/libkernpack.so"))
gb.setup(kp)
l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
m, n, k = 128, 4096, 4096
print(torch.cuda.get_device_name(), flush=True)


def fill(kind, a, b):
    if kind == "table":
        a.copy_(torch.randn(m, k, device="cuda")); b.copy_(torch.randn(n, k, device="cuda") / 64)
    elif kind == "tune":
        a.copy_((torch.rand(m, k, device="cuda") * 2 - 1) / 64); b.copy_(torch.rand(n, k, device="cuda") * 2 - 1)
    elif kind == "bf16ish":
        a.copy_(torch.randn(m, k, device="cuda").bfloat16()); b.copy_((torch.randn(n, k, device="cuda") / 64).bfloat16())
    else:
        a.zero_(); b.zero_()


keep = []
for rnd in range(2):
    for dt in (torch.float16, torch.bfloat16):
        for al in range(3):
            a = torch.empty(m, k, device="cuda", dtype=dt)
            b = torch.empty(n, k, device="cuda", dtype=dt)
            d = torch.empty(m, n, device="cuda", dtype=dt)
            keep.append((a, b, d))
            row = []
            for kind in ("table", "tune", "bf16ish", "zeros"):
                fill(kind, a, b)
                bt = b.t()
                ts = gb.time_pair([lambda: gb.kp_gemm(kp, a, b, d), lambda: torch.matmul(a, bt)], 30, l2)
                row.append(f"{kind} {ts[0]:5.1f}/{ts[1]:5.1f}={ts[1] / ts[0]:.2f}")
            print(f"round {rnd} {str(dt)[6:]:8s} alloc {al} b@{b.data_ptr() % (1 << 30):#x}: " + "  ".join(row), flush=True)
