#!/usr/bin/env python3
"""pdl_bench.py -- a decode step's chain of small row ops (RMSNorm -> SwiGLU ->
RoPE) replayed from a CUDA graph: kernpack with and without programmatic
dependent launch (kernpack.set_pdl), PyTorch eager and torch.compile, in one
process on one GPU.  The bar (issue 14): with PDL >= 25% less time per call
than without, and no more than eager's or torch.compile's.

    PYTHONPATH=python python3 bench/pdl_bench.py [--tokens 1,16,128] [--layers 32]
        [--json out.json]

The chain, per layer, bf16, hidden 4096 (Llama-3-8B shapes): y = rmsnorm(x) * w
(tokens, 4096); m = silu(gate) * up with [gate | up] (tokens, 2 x 14336), the
MLP's up-projection output; RoPE (NeoX, positions given, theta 1e4) in place on
q (tokens, 32, 128) and k (tokens, 8, 128).  Each layer has its own weight, q
and k and y (as the peers' graphs allocate them); x, [gate | up] and m are
shared, as a model's activations are.  The three ops follow each other on
one stream (stream order is the dependency that PDL relaxes; each kernel
still waits for the one before it before it touches memory).  --layers layers are captured back to back into one graph,
so that a replay is long enough to time: per call = replay time / (3 x layers).
The peers run the same chain in their own graphs: eager the formulas of
side_by_side.py (rmsnorm_eager, swiglu_eager, rope_eager: cos/sin gathered
per token), eager-F with F.rms_norm, compile the layer under torch.compile
(default mode; the graph is captured here, as for the others).

Before timing, every implementation's outputs are checked against float32
formulas.  Timing: CUDA events around --inner replays, the median of --reps
such rounds, the implementations taking turns in each round.  The kernel
count per layer comes from a profiler trace of one replay.
"""
import argparse
import datetime
import functools
import json
import os
import statistics
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, HERE)
import kernpack  # noqa: E402
import kernpack._context  # noqa: E402
import side_by_side as sbs  # noqa: E402  (the eager formulas of the side-by-side benchmark)

H, I, HQ, HK, D = 4096, 14336, 32, 8, 128
EPS, THETA = 1e-6, 10000.0


def uniform(seed, dt):
    """rnd(*shape, lo, hi): uniform values in [lo, hi) of dtype dt, from one seeded generator"""
    g = torch.Generator(device="cuda").manual_seed(seed)

    def rnd(*shape, lo=-1.0, hi=1.0):
        return (lo + (hi - lo) * torch.rand(shape, device="cuda", generator=g)).to(dt)
    return rnd


class Chain:
    """The tensors of `layers` layers at `tokens` tokens."""

    def __init__(self, tokens, layers, dt):
        rnd = uniform(1234 + tokens, dt)
        self.T, self.L = tokens, layers
        self.x = rnd(tokens, H, lo=-3, hi=3)
        self.gu = rnd(tokens, 2 * I, lo=-4, hi=4)
        self.w = [rnd(H, lo=0.5, hi=1.5) for _ in range(layers)]
        self.q0 = [rnd(tokens, HQ, D, lo=-2, hi=2) for _ in range(layers)]
        self.k0 = [rnd(tokens, HK, D, lo=-2, hi=2) for _ in range(layers)]
        self.q = [t.clone() for t in self.q0]
        self.k = [t.clone() for t in self.k0]
        # y a layer (as the torch peers' graphs allocate one): with one shared y
        # the replay leaves only the last layer's in it, and check() compares
        # every layer's against its own weight (the first H100 run "failed" so)
        self.y = [torch.empty(tokens, H, device="cuda", dtype=dt) for _ in range(layers)]
        self.m = torch.empty(tokens, I, device="cuda", dtype=dt)
        # decode positions: a KV cache of ~1000 tokens; the torch peers gather cos/sin
        self.pos32 = torch.arange(1000, 1000 + tokens, device="cuda", dtype=torch.int32)
        self.pos = self.pos32.long()
        inv = THETA ** (-torch.arange(D // 2, device="cuda", dtype=torch.float64) * 2.0 / D)
        ang = torch.arange(4096, device="cuda", dtype=torch.float64)[:, None] * inv[None, :]
        self.cos, self.sin = torch.cos(ang).float(), torch.sin(ang).float()

    def reset_qk(self):
        for q, q0, k, k0 in zip(self.q, self.q0, self.k, self.k0):
            q.copy_(q0)
            k.copy_(k0)


ALL_OPS = ("rmsnorm", "swiglu", "rope")  # a layer's ops (--ops: a subset, its own chain)


def kp_layer(c, l, ops=ALL_OPS):
    """A layer's ops (those in ops); (y, m, q, k), None for an op left out."""
    out = [None] * 4
    if "rmsnorm" in ops:
        kernpack.rmsnorm(c.x, c.w[l], EPS, out=c.y[l])
        out[0] = c.y[l]
    if "swiglu" in ops:
        kernpack.swiglu(c.gu, out=c.m)
        out[1] = c.m
    if "rope" in ops:
        kernpack.rope(c.q[l], c.k[l], positions=c.pos32, theta=THETA)
        out[2:] = c.q[l], c.k[l]
    return tuple(out)


def torch_layer(x, w, gu, q, k, cos, sin, pos, use_f=False):
    y = F.rms_norm(x, (x.shape[-1],), w, EPS) if use_f else sbs.rmsnorm_eager(x, w, EPS)
    m = sbs.swiglu_eager(gu[:, :I], gu[:, I:])
    qr, kr = sbs.rope_eager(q, k, cos, sin, pos)
    return y, m, qr, kr


def torch_f_layer(x, w, gu, q, k, cos, sin, pos):
    return torch_layer(x, w, gu, q, k, cos, sin, pos, use_f=True)


class Impl:
    """One implementation of the chain: layer(c, l) -> (y, m, q, k) outputs."""

    def __init__(self, name, layer, pdl=None):
        self.name, self.layer, self.pdl = name, layer, pdl
        self.graph, self.outs, self.kernels, self.error = None, None, None, None

    def run_layers(self, c):
        return [self.layer(c, l) for l in range(c.L)]

    def capture(self, c):
        if self.pdl is not None:
            kernpack.set_pdl(self.pdl)
        s = torch.cuda.Stream()  # warm-up off the default stream, as torch asks
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(2):
                self.run_layers(c)
        torch.cuda.current_stream().wait_stream(s)
        torch.cuda.synchronize()
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.outs = self.run_layers(c)
        if self.pdl is not None:
            kernpack.set_pdl(False)
        torch.cuda.synchronize()


def torch_impl(name, fn):
    return Impl(name, lambda c, l: fn(c.x, c.w[l], c.gu, c.q[l], c.k[l], c.cos, c.sin, c.pos))


def check(impl, c, dt):
    """Replay once on fresh q, k; every layer's outputs against float32 formulas
    (side_by_side.py's tolerance).  Returns (first failure or None, worst error
    relative to the output's max |ref|)."""
    c.reset_qk()
    impl.graph.replay()
    torch.cuda.synchronize()
    rtol, arel = sbs.TOL[dt]
    worst, bad = 0.0, None
    for l, outs in enumerate(impl.outs):
        ref = torch_layer(c.x.float(), c.w[l].float(), c.gu.float(), c.q0[l].float(),
                          c.k0[l].float(), c.cos, c.sin, c.pos)
        for name, o, r in zip(("y", "m", "q", "k"), outs, ref):
            if o is None:  # an op left out (--ops)
                continue
            o, r = o.float(), r.float()
            d = (o - r).abs()
            maxref = r.abs().max().item()
            fin = bool(torch.isfinite(o).all())
            if bad is None and (not fin or not bool((d <= arel * maxref + rtol * r.abs()).all())):
                bad = (f"layer {l} {name}: max error {d.max().item():.3g} (max |ref| "
                       f"{maxref:.3g})" if fin else f"layer {l} {name}: not finite")
            worst = max(worst, d.max().item() / maxref if fin else float("inf"))
    c.reset_qk()
    return bad, worst


def count_kernels(impl):
    """Kernels one replay runs (profiler trace), or None."""
    try:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            impl.graph.replay()
            torch.cuda.synchronize()
        return sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA
                   and "memcpy" not in e.name.lower() and "memset" not in e.name.lower())
    except Exception:  # noqa: BLE001 -- a count is a nicety
        return None


def time_impls(impls, reps, inner):
    """Median microseconds per replay of each impl's graph, in turns."""
    ev = {i.name: [] for i in impls}
    for _ in range(3):  # warm the clocks
        for i in impls:
            i.graph.replay()
    torch.cuda.synchronize()
    for _ in range(reps):
        for i in impls:
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            for _ in range(inner):
                i.graph.replay()
            b.record()
            ev[i.name].append((a, b))
    torch.cuda.synchronize()
    return {n: 1e3 * statistics.median(a.elapsed_time(b) for a, b in v) / inner
            for n, v in ev.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tokens", default="1,16,128", help="comma list (default 1,16,128)")
    ap.add_argument("--layers", type=int, default=32, help="layers per graph (default 32)")
    ap.add_argument("--reps", type=int, default=30, help="timed rounds (median)")
    ap.add_argument("--inner", type=int, default=10, help="replays per timed round")
    ap.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    ap.add_argument("--ops", default=",".join(ALL_OPS),
                    help="the ops of a layer, a comma list of rmsnorm,swiglu,rope (default all; "
                         "a subset times that chain alone, kernpack only: per-op PDL savings)")
    ap.add_argument("--json", help="write the numbers here")
    args = ap.parse_args()
    ops = tuple(o for o in args.ops.split(",") if o)
    if not ops or any(o not in ALL_OPS for o in ops):
        ap.error(f"--ops {args.ops}: a comma list of {','.join(ALL_OPS)}")
    peers = set(ops) == set(ALL_OPS)  # the peers run the whole chain only
    dt = torch.bfloat16
    torch.manual_seed(0)
    torch.zeros(1, device="cuda")  # torch's context current first: kernpack's calls run in it
    props = torch.cuda.get_device_properties(0)
    active = kernpack.set_pdl(True)
    kernpack.set_pdl(False)
    di = kernpack._context.for_device(torch.cuda.current_device()).device_info()
    print(f"==== pdl_bench: {props.name} (sm_{props.major}{props.minor}, driver "
          f"{di['driver_version']}), torch {torch.__version__}, kernpack "
          f"{kernpack.library_version()}, pack {di['pack_path']} ({di['target']})", flush=True)
    print(f"PDL takes effect here: {'yes' if active else 'NO (needs sm_90+ and a CUDA 12.3+ driver)'}",
          flush=True)
    if not active:
        print("(the 'kp PDL' column then measures plain launches)", flush=True)
    print(f"chain per layer: rmsnorm ({{T}}, {H}) -> swiglu ({{T}}, 2x{I}) -> rope q ({{T}}, {HQ}, {D}) "
          f"+ k ({{T}}, {HK}, {D}); ops run: {','.join(ops)}; bf16; {args.layers} layers per graph; "
          f"median of {args.reps} rounds of {args.inner} replays", flush=True)
    results = []
    for T in [int(t) for t in args.tokens.split(",")]:
        c = Chain(T, args.layers, dt)
        layer = functools.partial(kp_layer, ops=ops)
        impls = [Impl("kp_pdl", layer, pdl=True), Impl("kp", layer, pdl=False)]
        if peers:
            impls += [torch_impl("eager", torch_layer), torch_impl("eager_F", torch_f_layer)]
        if peers and not args.no_compile:
            impls.append(torch_impl("compile", torch.compile(torch_layer, dynamic=False)))
        live = []
        for i in impls:
            try:
                i.capture(c)
                bad, i.err = check(i, c, dt)
                if bad and i.pdl is not None:  # ours must be right to be timed
                    raise AssertionError(bad)
                if bad:  # a peer's rounding is its own affair: noted, timed
                    print(f"T={T} {i.name}: note: outside the tolerance: {bad}", flush=True)
                i.kernels = count_kernels(i)
                live.append(i)
            except Exception as e:  # noqa: BLE001 -- reported in the table
                i.error = f"{type(e).__name__}: {e}"
                print(f"T={T} {i.name}: FAILED: {i.error}", flush=True)
        us = time_impls(live, args.reps, args.inner)
        calls = len(ops) * args.layers
        rec = {"tokens": T, "layers": args.layers, "calls": calls}
        for i in impls:
            rec[i.name] = {"us_per_call": us[i.name] / calls if i.name in us else None,
                           "us_per_replay": us.get(i.name),
                           "kernels_per_layer": i.kernels / args.layers if i.kernels else None,
                           "max_rel_err": getattr(i, "err", None), "error": i.error}
        results.append(rec)
        print(f"T={T}: " + ", ".join(f"{i.name} {us[i.name] / calls:.2f} us/call" for i in live),
              flush=True)

    print(f"\n==== pdl_bench: us per call (replay time / ({len(ops)} x layers)), lower is better")
    cols = ["kp_pdl", "kp"] + (["eager", "eager_F"] if peers else []) + \
        (["compile"] if peers and not args.no_compile else [])
    print(f"{'tokens':>6s} | " + " | ".join(f"{n:>9s}" for n in cols) +
          " | PDL saves | bar: >=25%, <= eager(_F), compile | kernels/layer")
    ok_all = True
    for r in results:
        v = {n: r[n]["us_per_call"] for n in cols}
        cells = " | ".join(f"{v[n]:9.2f}" if v[n] is not None else f"{'FAIL':>9s}" for n in cols)
        save = (1 - v["kp_pdl"] / v["kp"]) if v["kp_pdl"] and v["kp"] else None
        peers = [v[n] for n in ("eager", "eager_F", "compile") if n in v and v[n] is not None]
        ok = save is not None and save >= 0.25 and all(v["kp_pdl"] <= p for p in peers)
        ok_all = ok_all and ok
        kern = ", ".join(f"{n} {r[n]['kernels_per_layer']:.1f}" if r[n]["kernels_per_layer"]
                         else f"{n} ?" for n in cols)
        print(f"{r['tokens']:6d} | {cells} | " + (f"{100 * save:8.1f}%" if save is not None else
                                                  f"{'-':>9s}") +
              f" | {'met' if ok else 'NOT met':>30s} | {kern}")
    print("bar met at every token count" if ok_all else "bar NOT met at every token count")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": props.name, "sm": props.major * 10 + props.minor, "ops": list(ops),
                       "torch": torch.__version__, "pdl_active": active,
                       "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                       "layers": args.layers, "results": results}, f, indent=1)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
