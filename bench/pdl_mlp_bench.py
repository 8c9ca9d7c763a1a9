#!/usr/bin/env python3
"""pdl_mlp_bench.py -- a decode step's MLP block (RMSNorm -> GEMM -> SwiGLU ->
GEMM) replayed from a CUDA graph: kernpack with and without programmatic
dependent launch (kernpack.set_pdl: the row ops and GEMM), PyTorch eager
(cuBLAS) and torch.compile, in one process on one GPU.

    PYTHONPATH=python python3 bench/pdl_mlp_bench.py [--tokens 1,16,128] [--layers 4]
        [--json out.json]

Per layer, bf16, Llama-3-8B shapes (hidden 4096, intermediate 14336): h =
rmsnorm(x) * w (tokens, 4096); gu = h Wgu^T (Wgu: 2 x 14336 rows of 4096, gate
and up stacked); m = silu(gu[:, :14336]) * gu[:, 14336:]; y = m Wd^T (Wd: 4096
rows of 14336).  Each layer has its own weights and y; x, h, gu and m are
shared, as a model's activations are.  --layers layers back to back in one
graph; us per layer = replay time / layers.  Every implementation's y is
checked against float32 formulas first (max error over max |ref|).  Timing
as bench/pdl_bench.py: CUDA events around --inner replays, the median of
--reps rounds, the implementations taking turns.  B (the weights, 352 MB a
layer) is read from memory on every replay: the layers' weights together
pass the L2 many times over.
"""
import argparse
import datetime
import json
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
sys.path.insert(0, HERE)
import kernpack  # noqa: E402
import kernpack._context  # noqa: E402
from pdl_bench import Impl, count_kernels, time_impls, uniform  # noqa: E402

H, EPS = 4096, 1e-6
I = 14336  # --inter


class Block:
    """The tensors of `layers` MLP blocks at `tokens` tokens."""

    def __init__(self, tokens, layers, dt):
        rnd = uniform(4321 + tokens, dt)
        self.T, self.L = tokens, layers
        self.x = rnd(tokens, H, lo=-3, hi=3)
        self.w = [rnd(H, lo=0.5, hi=1.5) for _ in range(layers)]
        self.wgu = [rnd(2 * I, H, lo=-H ** -0.5, hi=H ** -0.5) for _ in range(layers)]
        self.wd = [rnd(H, I, lo=-I ** -0.5, hi=I ** -0.5) for _ in range(layers)]
        self.h = torch.empty(tokens, H, device="cuda", dtype=dt)
        self.gu = torch.empty(tokens, 2 * I, device="cuda", dtype=dt)
        self.m = torch.empty(tokens, I, device="cuda", dtype=dt)
        self.y = [torch.empty(tokens, H, device="cuda", dtype=dt) for _ in range(layers)]


def kp_layer(c, l):
    kernpack.rmsnorm(c.x, c.w[l], EPS, out=c.h)
    kernpack.gemm(c.h, c.wgu[l], out=c.gu)
    kernpack.swiglu(c.gu, out=c.m)
    kernpack.gemm(c.m, c.wd[l], out=c.y[l])
    return c.y[l]


def torch_layer(x, w, wgu, wd):
    h = F.rms_norm(x, (x.shape[-1],), w, EPS)
    gu = h @ wgu.t()
    m = F.silu(gu[:, :I]) * gu[:, I:]
    return m @ wd.t()


def ref_layer(c, l):
    """float32 formulas, rounding to bf16 where the chain stores an activation"""
    dt = c.x.dtype
    h = F.rms_norm(c.x.float(), (H,), c.w[l].float(), EPS).to(dt).float()
    gu = (h @ c.wgu[l].float().t()).to(dt).float()
    m = (F.silu(gu[:, :I]) * gu[:, I:]).to(dt).float()
    return m @ c.wd[l].float().t()


def check(impl, c):
    impl.graph.replay()
    torch.cuda.synchronize()
    worst = 0.0
    for l, y in enumerate(impl.outs):
        r = ref_layer(c, l)
        y = y.float()
        if not bool(torch.isfinite(y).all()):
            return f"layer {l}: not finite", float("inf")
        worst = max(worst, ((y - r).abs().max() / r.abs().max()).item())
    return (f"max error {worst:.3g} of max |ref|" if worst > 2e-2 else None), worst


def trace(impl, layers=2):
    """Each kernel of one replay's first `layers` layers: name, start (us after the
    replay's first kernel starts) and duration (profiler trace)"""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        impl.graph.replay()
        torch.cuda.synchronize()
    ks = sorted((e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA),
                key=lambda e: e.time_range.start)
    t0 = ks[0].time_range.start if ks else 0
    return [(e.name[:48], e.time_range.start - t0, e.time_range.end - e.time_range.start)
            for e in ks[:4 * layers]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tokens", default="1,16,128")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--inner", type=int, default=5)
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--inter", type=int, default=14336,
                    help="the intermediate size (default 14336; Llama-2-7B's 11008 makes gate and up "
                         "2 x 11008 = 22016 rows)")
    ap.add_argument("--trace", action="store_true",
                    help="also print kernpack's kernels (start, duration) of one replay, PDL on and off")
    ap.add_argument("--json")
    args = ap.parse_args()
    global I
    I = args.inter
    dt = torch.bfloat16
    torch.manual_seed(0)
    torch.zeros(1, device="cuda")
    props = torch.cuda.get_device_properties(0)
    active = kernpack.set_pdl(True)
    kernpack.set_pdl(False)
    di = kernpack._context.for_device(torch.cuda.current_device()).device_info()
    print(f"==== pdl_mlp_bench: {props.name}, driver {di['driver_version']}, torch {torch.__version__}, "
          f"pack {di['pack_path']}; PDL takes effect: {'yes' if active else 'NO'}", flush=True)
    print(f"per layer: rmsnorm ({{T}}, {H}) -> gemm ({{T}}, {H}) x ({2 * I}, {H})^T -> swiglu -> "
          f"gemm ({{T}}, {I}) x ({H}, {I})^T; bf16; {args.layers} layers a graph", flush=True)
    results = []
    for T in [int(t) for t in args.tokens.split(",")]:
        c = Block(T, args.layers, dt)
        tl = lambda c_, l: torch_layer(c_.x, c_.w[l], c_.wgu[l], c_.wd[l])  # noqa: E731
        impls = [Impl("kp_pdl", kp_layer, pdl=True), Impl("kp", kp_layer, pdl=False),
                 Impl("eager", tl)]
        if not args.no_compile:
            cl = torch.compile(torch_layer, dynamic=False)
            impls.append(Impl("compile", lambda c_, l: cl(c_.x, c_.w[l], c_.wgu[l], c_.wd[l])))
        live = []
        for i in impls:
            try:
                i.capture(c)
                bad, i.err = check(i, c)
                if bad and i.pdl is not None:
                    raise AssertionError(bad)
                if bad:
                    print(f"T={T} {i.name}: note: {bad}", flush=True)
                i.kernels = count_kernels(i)
                live.append(i)
            except Exception as e:  # noqa: BLE001 -- reported
                i.error = f"{type(e).__name__}: {e}"
                print(f"T={T} {i.name}: FAILED: {i.error}", flush=True)
        us = time_impls(live, args.reps, args.inner)
        rec = {"tokens": T, "layers": args.layers}
        for i in impls:
            rec[i.name] = {"us_per_layer": us[i.name] / args.layers if i.name in us else None,
                           "kernels_per_layer": i.kernels / args.layers if i.kernels else None,
                           "max_rel_err": getattr(i, "err", None), "error": i.error}
        results.append(rec)
        line = ", ".join(f"{i.name} {us[i.name] / args.layers:.1f}" for i in live)
        wbytes = (3 * I * H) * 2
        best = min(us[i.name] for i in live) / args.layers
        print(f"T={T}: us a layer: {line}  (weights {wbytes / 1e6:.0f} MB a layer: "
              f"{wbytes / best / 1e3:.0f} GB/s at the fastest)", flush=True)
        for i in live:
            print(f"      {i.name}: {i.kernels / args.layers if i.kernels else '?'} kernels a layer, "
                  f"max error {i.err:.2e}", flush=True)
        for i in live if args.trace else []:
            if i.pdl is None:
                continue
            for name, t, d in trace(i):
                print(f"      trace {i.name:6s} {t:8.1f} {d:7.1f}  {name}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": props.name, "torch": torch.__version__, "pdl_active": active,
                       "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
