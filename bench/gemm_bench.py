#!/usr/bin/env python3
"""gemm_bench.py -- kp_gemm next to torch.matmul (cuBLAS) in one process on one GPU.

For each dtype and shape (B as (n, k), the nn.Linear weight layout):
  1. correctness: kp_gemm against torch.matmul of the same inputs in float32
     (relative Frobenius error, and the max error scaled by sqrt(k)); every
     output element is poisoned (NaN) before the call;
  2. timing: warm-up, then the median of --reps repetitions each timed with
     CUDA events around the call alone, kernpack and cuBLAS taking turns; L2 is
     flushed (a 256 MB read) before every repetition, outside the timed
     region, so the skinny shapes read B from memory as they would in a model;
     with --allocs N each shape is timed over N fresh allocations of its
     operands and the medians are reported (B's placement moves the times).

TFLOP/s count 2*m*n*k; "% peak" is against --peak (dense bf16/f16 of an
H100/H200 SXM, 989 TFLOP/s by the datasheet); for m <= 16 the B read rate is
shown against the copy rate measured in the same run.  Also checks the
epilogues (bias, C, activations, f32 output), batches and odd shapes.

    python3 bench/gemm_bench.py [--json out.json] [--dtypes bf16,f16] [--quick]
"""
import argparse
import ctypes
import datetime
import json
import math
import os
import re
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from side_by_side import Kernpack, KpError, flush_read, stream  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KDT = {torch.float16: 1, torch.bfloat16: 2}
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16}
ACTS = {"none": 0, "relu": 1, "silu": 2, "gelu_tanh": 3}


class KpGemmDesc(ctypes.Structure):
    _fields_ = [
        ("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64),
        ("batch", ctypes.c_int64), ("b_layout", ctypes.c_int),
        ("lda", ctypes.c_int64), ("ldb", ctypes.c_int64), ("ldc", ctypes.c_int64),
        ("ldd", ctypes.c_int64),
        ("stride_a", ctypes.c_int64), ("stride_b", ctypes.c_int64),
        ("stride_c", ctypes.c_int64), ("stride_d", ctypes.c_int64),
        ("alpha", ctypes.c_float), ("beta", ctypes.c_float),
        ("c", ctypes.c_void_p), ("bias", ctypes.c_void_p),
        ("act", ctypes.c_int), ("out_f32", ctypes.c_int),
    ]


def setup(kp):
    L = kp.lib
    L.kp_gemm_desc_init.restype = None
    L.kp_gemm_desc_init.argtypes = [ctypes.POINTER(KpGemmDesc), ctypes.c_int64, ctypes.c_int64,
                                    ctypes.c_int64]
    L.kp_gemm.restype = ctypes.c_int
    L.kp_gemm.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.c_void_p, ctypes.POINTER(KpGemmDesc), ctypes.c_void_p]


def kp_gemm(kp, a, b, d, *, kn=False, bias=None, c=None, alpha=1.0, beta=0.0, act="none",
            batch=1):
    """a: (batch?, m, k); b: (batch?, n, k) or (k, n) when kn; d: (batch?, m, n)"""
    m, k = a.shape[-2], a.shape[-1]
    n = b.shape[-1] if kn else b.shape[-2]
    g = KpGemmDesc()
    kp.lib.kp_gemm_desc_init(ctypes.byref(g), m, n, k)
    g.batch = batch
    g.b_layout = 1 if kn else 0
    g.lda, g.ldb, g.ldd = a.stride(-2), b.stride(-2), d.stride(-2)
    g.stride_a = a.stride(0) if a.dim() == 3 else 0
    g.stride_b = b.stride(0) if b.dim() == 3 else 0
    g.stride_d = d.stride(0) if d.dim() == 3 else 0
    g.alpha, g.beta = alpha, beta
    g.act = ACTS[act]
    g.out_f32 = 1 if d.dtype == torch.float32 else 0
    if c is not None:
        g.c = c.data_ptr()
        g.ldc = c.stride(-2)
        g.stride_c = c.stride(0) if c.dim() == 3 else 0
    if bias is not None:
        g.bias = bias.data_ptr()
    kp.check(kp.lib.kp_gemm(kp.ctx, KDT[a.dtype], a.data_ptr(), b.data_ptr(), d.data_ptr(),
                            ctypes.byref(g), stream()), "kp_gemm")


def ref_gemm(a, b, *, kn=False, bias=None, c=None, alpha=1.0, beta=0.0, act="none"):
    bb = b.float() if kn else b.float().transpose(-1, -2)
    r = alpha * torch.matmul(a.float(), bb)
    if c is not None:
        r = r + beta * c.float()
    if bias is not None:
        r = r + bias.float()
    if act == "relu":
        r = torch.relu(r)
    elif act == "silu":
        r = F.silu(r)
    elif act == "gelu_tanh":
        r = F.gelu(r, approximate="tanh")
    return r


def check(kp, dt, m, n, k, *, batch=1, kn=False, bias=False, cterm=False, act="none",
          out_f32=False, bcast_b=False):
    """One call against float32 torch; returns (ok, rel_err, msg)."""
    sh = (batch,) if batch > 1 else ()
    a = torch.randn(*sh, m, k, device="cuda", dtype=dt)
    b_shape = (k, n) if kn else (n, k)
    b = torch.randn(*(() if bcast_b else sh), *b_shape, device="cuda", dtype=dt) / math.sqrt(k)
    odt = torch.float32 if out_f32 else dt
    d = torch.full((*sh, m, n), float("nan"), device="cuda", dtype=odt)
    bi = torch.randn(n, device="cuda", dtype=dt) if bias else None
    c = torch.randn(*sh, m, n, device="cuda", dtype=odt) if cterm else None
    alpha, beta = (0.75, 0.5) if cterm else (1.0, 0.0)
    kp_gemm(kp, a, b, d, kn=kn, bias=bi, c=c, alpha=alpha, beta=beta, act=act, batch=batch)
    torch.cuda.synchronize()
    bref = b if not bcast_b else b.expand(*sh, *b_shape) if sh else b
    r = ref_gemm(a, bref, kn=kn, bias=bi, c=c, alpha=alpha, beta=beta, act=act)
    out = d.float()
    if torch.isnan(out).any():
        return False, float("nan"), "NaN in the output (unwritten or invalid)"
    err = ((out - r).norm() / r.norm().clamp_min(1e-30)).item()
    # rounding of the output dominates: bf16 2^-8, f16 2^-11; fp32 accumulation
    # adds ~sqrt(k) * 2^-24 relative
    tol = (2 ** -7 if dt == torch.bfloat16 else 2 ** -10) if not out_f32 else 1e-4
    tol += 1e-6 * math.sqrt(k)
    return err <= tol, err, f"rel err {err:.2e} (limit {tol:.1e})"


def timed_once(f, l2):
    """us of one call of f, queued behind the L2 flush by a read of l2 and a
    ~100 us spin (side_by_side.flush_read), so that the host's own time to
    issue it (a peer's Python dispatch, up to a few hundred us in a slow
    round: bench/NOTES.md 54) is not timed: the start event waits on the GPU
    until the call is queued behind it"""
    flush_read(l2)
    return event_us(f)


def event_us(f):
    """us of f() between two events around it, waited for"""
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    f()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) * 1e3


# Seconds of idle before each shape's warm-up: the shape before it may have
# left the GPU's clocks low -- after ~90 ms of 8192^3 an H200's SM clock runs
# at ~1400 MHz for ~20 ms and is back to ~1850 in steps over ~80 ms
# (bench/NOTES.md 78), so without the pause a shape timed right after large
# ones is timed at lower clocks than the same shape alone (--settle-ms 0:
# no pause, as before the forty-third session)
SETTLE_S = 0.3


def time_pair(fns, reps, l2):
    """median us per implementation, taking turns each repetition, each call
    timed alone (timed_once), after SETTLE_S of idle"""
    torch.cuda.synchronize()
    time.sleep(SETTLE_S)
    times = [[] for _ in fns]
    for f in fns:  # warm-up
        for _ in range(3):
            f()
    torch.cuda.synchronize()
    for _ in range(reps):
        for i, f in enumerate(fns):
            times[i].append(timed_once(f, l2))
    return [statistics.median(t) for t in times]


def copy_rate(l2):
    x = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    y = torch.empty_like(x)
    (us,) = time_pair([lambda: y.copy_(x)], 10, l2)
    return 2 * x.numel() / us / 1e3  # GB/s


PERF_SHAPES = [  # (m, n, k)
    (4096, 4096, 4096), (8192, 8192, 8192),
    (4096, 4096, 4096), (4096, 11008, 4096), (4096, 4096, 11008), (4096, 14336, 4096),
    (128, 4096, 4096), (128, 11008, 4096), (128, 4096, 11008), (128, 14336, 4096),
    (64, 4096, 4096), (64, 11008, 4096), (64, 4096, 11008), (64, 14336, 4096),  # (batch-64 decode)
    (16, 4096, 4096), (16, 11008, 4096), (16, 4096, 11008), (16, 14336, 4096),
    (1, 4096, 4096), (1, 11008, 4096), (1, 4096, 11008), (1, 14336, 4096),
]


def run_checks(kp, dts, res, tag=""):
    """the correctness cases; returns the number of failures ("n/a": a
    forced variant that does not apply to the case)"""
    fails = 0
    for dt in dts:
        for cs in CASES:
            try:
                ok, err, msg = check(kp, dt, **cs)
            except KpError as e:
                if "does not apply" in str(e):
                    continue
                ok, err, msg = False, float("nan"), str(e)
            fails += not ok
            print(f"check {'ok  ' if ok else 'FAIL'} {tag}{str(dt)[6:]:9s} {cs}: {msg}")
            res["checks"].append({"variant": tag.strip() or None, "dtype": str(dt)[6:], **cs,
                                  "ok": ok, "err": err})
    return fails


CASES = [
    dict(m=1, n=8, k=8), dict(m=7, n=13, k=24), dict(m=130, n=260, k=72),
    dict(m=257, n=509, k=1000), dict(m=1000, n=1000, k=4096),
    dict(m=64, n=256, k=8), dict(m=300, n=700, k=200, bias=True),
    dict(m=300, n=700, k=200, cterm=True), dict(m=300, n=700, k=200, act="relu", bias=True),
    dict(m=300, n=700, k=200, act="silu"), dict(m=300, n=700, k=200, act="gelu_tanh"),
    dict(m=300, n=700, k=200, out_f32=True, cterm=True),
    dict(m=100, n=200, k=64, batch=3), dict(m=100, n=200, k=64, batch=3, bcast_b=True),
    dict(m=16, n=4096, k=4096), dict(m=1, n=11008, k=4096), dict(m=5, n=100, k=33),
    dict(m=200, n=300, k=136, kn=True), dict(m=3, n=50, k=7), dict(m=9, n=1000, k=3000, kn=True),
    dict(m=16, n=520, k=4104, bias=True, act="silu"),
]


def time_shape(kp, dt, m, n, k, l2, reps, with_cublas=True, kn=False):
    a = torch.randn(m, k, device="cuda", dtype=dt)
    b = torch.randn(*((k, n) if kn else (n, k)), device="cuda", dtype=dt) / math.sqrt(k)
    d = torch.empty(m, n, device="cuda", dtype=dt)
    bt = b if kn else b.t()
    kp_gemm(kp, a, b, d, kn=kn)
    r = torch.matmul(a, bt)
    err = ((d.float() - r.float()).norm() / r.float().norm()).item()
    fns = [lambda: kp_gemm(kp, a, b, d, kn=kn)]
    if with_cublas:
        fns.append(lambda: torch.matmul(a, bt))
    ts = time_pair(fns, reps, l2)
    return ts[0], (ts[1] if with_cublas else None), err


def time_allocs(kp, dt, m, n, k, l2, reps, allocs, kn=False):
    """time_shape over `allocs` fresh allocations of the operands: the medians
    of kernpack's and cuBLAS's times, the largest error, the sorted
    per-allocation ratios (cuBLAS / kernpack)"""
    runs = [time_shape(kp, dt, m, n, k, l2, reps, True, kn) for _ in range(max(1, allocs))]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
            max(r[2] for r in runs), sorted(r[1] / r[0] for r in runs))


def profiled(fn):
    """[(kernel name, us)] of one call of fn (a profiler trace: the kernels'
    own durations, without the launch gaps that the events around a call see)"""
    fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return [(e.name, e.device_time) for e in prof.events() if e.device_type.name == "CUDA"]


def peer_kernels(kp, dt, m, n, k, kn):
    """the kernels of one torch.matmul call and of one kp_gemm call at this shape:
    ([(name, us)] cuBLAS, [(name, us)] kernpack)"""
    a = torch.randn(m, k, device="cuda", dtype=dt)
    b = torch.randn(*((k, n) if kn else (n, k)), device="cuda", dtype=dt)
    d = torch.empty(m, n, device="cuda", dtype=dt)
    bt = b if kn else b.t()
    return profiled(lambda: torch.matmul(a, bt)), profiled(lambda: kp_gemm(kp, a, b, d, kn=kn))


def pinned(lib, name, setup_fn=None):
    """a Kernpack whose every call of name's family runs variant `name`
    (KP_VARIANT), its ctypes signatures set by setup_fn (default: gemm's)"""
    os.environ["KP_VARIANT"] = name
    try:
        kp = Kernpack(lib)
    finally:
        del os.environ["KP_VARIANT"]
    (setup_fn or setup)(kp)
    return kp


def gemm_variants(kp):
    """the gemm variants of the pack in use (kp list --json)"""
    import subprocess
    out = subprocess.run([os.path.join(REPO, "build/bin/kp"), "list", kp.info.pack_path.decode(),
                          "--json"], capture_output=True, text=True, check=True).stdout
    return [(v["name"], v["dtype"]) for v in json.loads(out) if v["family"] == "gemm"]


KN_SHAPES = [(4096, 4096, 4096), (128, 4096, 4096), (1, 4096, 4096)]  # B as (k, n)


def main():
    global SETTLE_S
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.path.join(REPO, "build/lib/libkernpack.so"))
    ap.add_argument("--dtypes", default="bf16,f16")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--peak", type=float, default=989.0)
    ap.add_argument("--quick", action="store_true", help="checks only, no timing")
    ap.add_argument("--variants", action="store_true",
                    help="also check and time every gemm variant of the pack, each pinned "
                         "with KP_VARIANT (the per-shape winners are printed)")
    ap.add_argument("--only", help="with --variants: only the variants whose name matches "
                    "this regular expression")
    ap.add_argument("--shapes", help="perf shapes m,n,k;m,n,k;... (default: the issue's); "
                    "timed in this order, a shape given twice timed twice")
    ap.add_argument("--kn", action="store_true", help="--shapes with B as (k, n) (form 1)")
    ap.add_argument("--peer-kernels", action="store_true",
                    help="name the kernels torch.matmul launches for each perf shape (one "
                         "profiled call: cuBLAS's tile, cluster and split-K, as its names tell), "
                         "and kp_gemm's, each with its duration by the profiler")
    ap.add_argument("--allocs", type=int, default=1,
                    help="time each perf shape over this many allocations of its operands "
                    "(fresh tensors each): the medians of both times and of the per-allocation "
                    "ratios are reported (where B lands in memory moves both libraries' times, "
                    "ours more: bench/NOTES.md 60, 108)")
    ap.add_argument("--settle-ms", type=float, default=1e3 * SETTLE_S,
                    help="idle before each shape's timing, for the clocks to recover from the "
                    "shape before (default %(default)s; 0: none)")
    ap.add_argument("--json")
    o = ap.parse_args()
    SETTLE_S = o.settle_ms / 1e3
    torch.manual_seed(0)
    torch.zeros(1, device="cuda")  # torch first: it makes the primary context current
    torch.cuda.synchronize()
    kp = Kernpack(o.lib)
    setup(kp)
    dev = torch.cuda.get_device_name()
    print(f"kernpack {kp.version} on {dev} (sm_{kp.info.sm}, pack {kp.info.pack_path.decode()}), "
          f"torch {torch.__version__}, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%MZ}")
    res = {"device": dev, "torch": torch.__version__, "date": f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d}",
           "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "checks": [], "perf": [], "variants": []}
    dts = [DTYPES[x] for x in o.dtypes.split(",")]
    shapes = PERF_SHAPES
    if o.shapes:
        shapes = [tuple(int(x) for x in t.split(",")) for t in o.shapes.split(";")]
    fails = run_checks(kp, dts, res)
    variants = gemm_variants(kp) if o.variants else []
    pins = {}
    for name, vdt in variants:
        if vdt not in o.dtypes.split(",") or (o.only and not re.search(o.only, name)):
            continue
        pins[name] = (pinned(o.lib, name), vdt)
        fails += run_checks(pins[name][0], [DTYPES[vdt]], res, tag=name + " ")
    if o.quick:
        print(f"{fails} check(s) failed")
        return 1 if fails else 0
    l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    gbs = copy_rate(l2)
    print(f"copy rate {gbs:.0f} GB/s")
    res["copy_GBps"] = gbs
    print(f"{'dtype':5s} {'m':>5s} {'n':>6s} {'k':>6s} | {'kp us':>8s} {'TF':>6s} {'%peak':>6s} | "
          f"{'cuBLAS us':>9s} {'TF':>6s} | {'ratio':>6s} {'B GB/s':>7s} {'%copy':>5s}")
    seen = set()
    todo = [(m, n, k, o.kn) for (m, n, k) in shapes]
    if not o.shapes:
        todo += [(m, n, k, True) for (m, n, k) in KN_SHAPES]
    for dt in dts:
        for (m, n, k, kn) in todo:
            if (dt, m, n, k, kn) in seen and not o.shapes:  # (--shapes: repeats are meant)
                continue
            seen.add((dt, m, n, k, kn))
            kus, cus, err, ratios = time_allocs(kp, dt, m, n, k, l2, o.reps, o.allocs, kn)
            ratio = statistics.median(ratios)
            fl = 2.0 * m * n * k
            ktf, ctf = fl / kus / 1e6, fl / cus / 1e6
            bgb = n * k * 2 / kus / 1e3
            print(f"{str(dt)[6:]:5s}{'/kn' if kn else ''} {m:5d} {n:6d} {k:6d} | {kus:8.1f} {ktf:6.1f} {100 * ktf / o.peak:5.1f}% | "
                  f"{cus:9.1f} {ctf:6.1f} | {ratio:5.2f}x {bgb:7.0f} {100 * bgb / gbs:4.0f}%"
                  f"  (vs cuBLAS rel err {err:.1e})"
                  + (f"  ratios {ratios[0]:.2f}-{ratios[-1]:.2f} over {len(ratios)} allocations"
                     if len(ratios) > 1 else ""))
            res["perf"].append({"dtype": str(dt)[6:], "m": m, "n": n, "k": k, "b": "kn" if kn else "nk",
                                "kp_us": kus,
                                "cublas_us": cus, "kp_TF": ktf, "cublas_TF": ctf,
                                "ratio": ratio, "ratios": ratios, "B_GBps": bgb})
            if o.peer_kernels:
                peers, ours = peer_kernels(kp, dt, m, n, k, kn)
                res["perf"][-1]["peer_kernels"], res["perf"][-1]["kp_kernels"] = peers, ours
                for who, ks in (("cuBLAS", peers), ("kernpack", ours)):
                    for kname, kus_ in ks:
                        print(f"      {who}: {kus_:7.1f} us  {kname[:150]}")
            best = None
            for name, (vkp, vdt) in pins.items():
                if DTYPES[vdt] != dt:
                    continue
                try:
                    # cuBLAS timed again in turns with this variant: the clock
                    # drifts with the GPU's temperature over a long run
                    vus, vcus, verr, vr = time_allocs(vkp, dt, m, n, k, l2, max(5, o.reps // 2),
                                                      o.allocs, kn)
                except KpError as e:
                    if "does not apply" in str(e):
                        # said, not silent: a pin outside the variant's
                        # bounds (max_m, min_k, ...) times nothing
                        print(f"      {name:40s} does not apply here (its bounds: kp list)")
                        continue
                    raise
                # the ratio as the table's: the median of the per-allocation
                # ratios (not the ratio of the two medians, which can differ)
                vratio = statistics.median(vr)
                print(f"      {name:40s} {vus:8.1f} us {fl / vus / 1e6:6.1f} TF  {vratio:5.2f}x"
                      f" cuBLAS ({vcus:.1f} us; rel err {verr:.1e})"
                      + (f"  ratios {vr[0]:.2f}-{vr[-1]:.2f}" if len(vr) > 1 else ""))
                res["variants"].append({"dtype": str(dt)[6:], "m": m, "n": n, "k": k,
                                        "b": "kn" if kn else "nk",
                                        "variant": name, "us": vus, "cublas_us": vcus,
                                        "ratio": vratio, "ratios": vr})
                if best is None or vratio > best[1]:
                    best = (name, vratio)
            if best:
                print(f"      best: {best[0]} {best[1]:.2f}x cuBLAS")
    if o.json:
        with open(o.json, "w") as f:
            json.dump(res, f, indent=1)
    print(f"{fails} check(s) failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
