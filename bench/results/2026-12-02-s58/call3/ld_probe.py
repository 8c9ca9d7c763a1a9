#!/usr/bin/env python3
"""ld_probe.py (fifty-eighth session, call 3): what holds RMSNorm at odd
131072 x 1001 (bf16) at ~87% of copy against ~98% at aligned 1000 -- the rows'
starts off the 16-byte grid, or the odd length (a partial vector a row)?
Times kp_rmsnorm at (cols, ld) pairs that separate the two: 1000/1000,
1000/1001 (starts off the grid, whole vectors), 1001/1008 (starts on it, odd
length), 1001/1001, 1008/1008, by the ranking's pick and by each variant of
PINS forced through KP_VARIANT (a context each), and softmax's pick (no weight)
at the same rows, L2 flushed by a read before
every call (bench/side_by_side.py's time_all: implementations in turns)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
import torch  # noqa: E402

import side_by_side as sb  # noqa: E402

R = 131072
PAIRS = [(1000, 1000), (1000, 1001), (1001, 1008), (1001, 1001), (1008, 1008)]
PINS = ["", "rmsnorm_bf16_ws_v8_n4_r16_p2", "rmsnorm_bf16_warp_v8_n4"]
lib = os.path.join(sb.REPO, "build", "lib", "libkernpack.so")
torch.zeros(1, device="cuda")  # (torch's primary context current: the library runs in it)
ctxs = []
for p in PINS:
    os.environ["KP_VARIANT"] = p
    ctxs.append(sb.Kernpack(lib))
os.environ.pop("KP_VARIANT")
flush = sb.L2Flush(256 << 20, "read")
src = torch.empty(1 << 29, dtype=torch.uint8, device="cuda")
dst = torch.empty_like(src)
copy = sb.time_fn(lambda: dst.copy_(src), 20, 3, flush)
copy_gbps = 2 * src.numel() / copy / 1e3
print(f"copy {copy_gbps:.0f} GB/s")
for cols, ld in PAIRS:
    x = sb.rand((R, ld), torch.bfloat16)
    w = sb.rand((cols,), torch.bfloat16, 0.5, 1.5, signed=False)
    y = torch.empty_like(x)
    impls = []
    for kp in ctxs:
        def f(kp=kp):
            kp.check(kp.lib.kp_rmsnorm(kp.ctx, sb.KP_BF16, sb.ptr(x), ld, sb.ptr(w), sb.ptr(y), ld, R,
                                       cols, sb.EPS, sb.stream()), "kp_rmsnorm")
        impls.append((f, None))
    ys = torch.empty_like(x)
    kp = ctxs[0]
    impls.append((lambda: kp.check(kp.lib.kp_softmax(kp.ctx, sb.KP_BF16, sb.ptr(x), ld, sb.ptr(ys), ld, R,
                                                      cols, sb.stream()), "kp_softmax"), None))
    us = sb.time_all(impls, 30, 4, flush)
    nbytes = 2 * 2 * R * cols
    cells = []
    for p, u in zip(PINS + ["softmax"], us):
        if isinstance(u, Exception):
            cells.append(f"{p or 'pick'}: {str(u)[:80]}")
        else:
            cells.append(f"{p or 'pick'} {u:.1f} us {100 * nbytes / u / 1e3 / copy_gbps:.1f}%")
    print(f"{R} x {cols} ld {ld}: " + " | ".join(cells), flush=True)
