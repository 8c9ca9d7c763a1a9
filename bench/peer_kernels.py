#!/usr/bin/env python3
"""peer_kernels.py -- print the Triton kernels torch.compile generates for the
side-by-side ops (RMSNorm and GeGLU by default) at the benchmark's shapes, with
their launch configuration: what our kernels are measured against, to read
before the next attempt at closing a gap.  GPU machine only.

    python3 bench/peer_kernels.py [--ops rmsnorm,geglu_tanh] > peer_kernels.txt
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import side_by_side as sbs  # noqa: E402  (the same formulas the benchmark compiles)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="rmsnorm,geglu_tanh")
    a = ap.parse_args()
    torch._logging.set_logs(output_code=True)
    dt = torch.bfloat16
    for op in a.ops.split(","):
        print(f"==== {op} (bf16, {sbs.ROWS}x{sbs.COLS})", file=sys.stderr, flush=True)
        if op == "rmsnorm":
            x = torch.randn(sbs.ROWS, sbs.COLS, device="cuda", dtype=dt)
            w = torch.randn(sbs.COLS, device="cuda", dtype=dt)
            torch.compile(sbs.rmsnorm_eager)(x, w, sbs.EPS)
        elif op == "geglu_tanh":
            g = torch.randn(sbs.ROWS, sbs.COLS, device="cuda", dtype=dt)
            u = torch.randn_like(g)
            torch.compile(sbs.geglu_tanh_eager)(g, u)
        else:
            sys.exit(f"peer_kernels.py: unknown op {op}")
        torch.cuda.synchronize()


if __name__ == "__main__":
    main()
