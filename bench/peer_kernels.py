#!/usr/bin/env python3
"""peer_kernels.py -- print the Triton kernels torch.compile generates for the
side-by-side ops (RMSNorm and GeGLU by default) at the benchmark's shapes, with
their launch configuration: what our kernels are measured against, to read
before the next attempt at closing a gap.  GPU machine only.

    python3 bench/peer_kernels.py [--ops rmsnorm,geglu_tanh] > peer_kernels.txt

After each op's source (Inductor's output_code log, on stderr) comes the
launch that autotuning settled on, from a profiler trace of one more call:
"launch <kernel> grid=[..] block=[..] regs=.. smem=.." on stdout.
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
            fn, args = torch.compile(sbs.rmsnorm_eager), (x, w, sbs.EPS)
            fn(*args)
        elif op in ("geglu_tanh", "geglu_erf"):
            g = torch.randn(sbs.ROWS, sbs.COLS, device="cuda", dtype=dt)
            u = torch.randn_like(g)
            eager = sbs.geglu_tanh_eager if op == "geglu_tanh" else sbs.geglu_erf_eager
            fn, args = torch.compile(eager), (g, u)
            fn(*args)
        else:
            sys.exit(f"peer_kernels.py: unknown op {op}")
        torch.cuda.synchronize()
        launches(op, fn, args)
    best_configs()


def best_configs():
    """Inductor's autotuning results: the .best_config files of its cache
    (R0_BLOCK/XBLOCK, num_warps, num_stages of each kernel it tuned)."""
    import glob
    import tempfile
    roots = [os.environ.get("TORCHINDUCTOR_CACHE_DIR", ""),
             os.path.join(tempfile.gettempdir(), "torchinductor_" + os.environ.get("USER", "root"))]
    for root in roots:
        for f in sorted(glob.glob(os.path.join(root, "**", "*.best_config"), recursive=True)):
            with open(f) as fh:
                print(f"best_config {os.path.basename(f)}: {fh.read().strip()}", flush=True)


def launches(op, fn, args):
    """The GPU kernels one call of fn launches, with grid, block, registers
    and shared memory (the profiler's trace records them per launch)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*args)
        torch.cuda.synchronize()
    path = f"/tmp/peer_{op}_trace.json"
    prof.export_chrome_trace(path)
    import json
    with open(path) as f:
        ev = json.load(f).get("traceEvents", [])
    for e in ev:
        a = e.get("args", {})
        if e.get("cat") == "kernel":
            print(f"launch {op}: {e.get('name')} grid={a.get('grid')} block={a.get('block')} "
                  f"regs={a.get('registers per thread')} smem={a.get('shared memory')} "
                  f"dur={e.get('dur')} us", flush=True)


if __name__ == "__main__":
    main()
