#!/usr/bin/env python3
"""side_by_side.py -- kernpack ops next to PyTorch eager, F.rms_norm / F.softmax and
torch.compile, in one process on one GPU, at the large shapes.

libkernpack.so is loaded with ctypes and runs in torch's primary context
(use_current_context=1) on torch's current stream.  For each op and dtype:

  1. correctness: our output vs the eager formula evaluated in float32 on the same
     inputs (allclose with a bf16/f16 tolerance); the max errors of ours and of
     torch eager (in the storage dtype) are printed;
  2. timing: warm-up (this also compiles torch.compile), then the median of --reps
     repetitions, each timed with torch.cuda.Event around the call alone; L2 is
     flushed before every repetition by reading a 256 MB buffer, then a ~100 us
     spin on the GPU so that the host has queued the call before its start
     event runs, all outside the timed region (as is the reset of
     add_rmsnorm's in-place residual).  --flush zero flushes by zeroing the
     buffer instead (the method before the forty-third session): that leaves
     L2 full of the buffer's dirty lines, whose write-back (~50 MB, ~12 us on
     an H200) then runs under the timed call and is charged to it -- about
     10 us of every call in the row sweeps (bench/NOTES.md 78).  The
     implementations take turns, one repetition each per round, so that clock
     and thermal drift over the run falls on all of them alike.

GB/s counts every input read once and every output written once (the same bytes
for every implementation); "% copy" is against torch copy_ of a 1 GiB tensor
timed in the same run (bytes read + written).  The best peer is the fastest of
eager, F.* and compile measured here.

    python3 bench/side_by_side.py --json out.json [--dtypes bf16,f16] [--ops ...]
        [--shapes 1024x4096,32768x8192]   (a sweep: every op at each shape; rope
                                           then takes the rows as its tokens)

bench/plot_results.py draws the JSON (GB/s against shape, one line per
implementation, the copy rate as the ceiling).
"""
import argparse
import ctypes
import datetime
import json
import math
import os
import statistics
import sys
import time
import traceback

import torch
import torch.nn.functional as F

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EPS = 1e-6
THETA = 10000.0
# rope: 16K tokens, 32 q heads, 8 k heads, head_dim 128, NeoX, rot_dim = head_dim
ROPE_T, ROPE_HQ, ROPE_HK, ROPE_D = 16384, 32, 8, 128
ROWS, COLS = 32768, 8192

KP_F32, KP_F16, KP_BF16 = 0, 1, 2
KP_GELU_ERF, KP_GELU_TANH = 0, 1
KP_ROPE_NEOX = 0
KDT = {torch.float32: KP_F32, torch.float16: KP_F16, torch.bfloat16: KP_BF16}
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
# (rtol, atol as a fraction of max |ref|) for ours vs the float32 formula
TOL = {torch.bfloat16: (1.6e-2, 4e-3), torch.float16: (4e-3, 1e-3), torch.float32: (1e-4, 1e-5)}


# ---- libkernpack through ctypes (mirrors include/kernpack.h) -------------------------
KP_LOG_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p)


class KpOptions(ctypes.Structure):
    _fields_ = [
        ("device", ctypes.c_int),
        ("use_current_context", ctypes.c_int),
        ("pack_dir", ctypes.c_char_p),
        ("pack_path", ctypes.c_char_p),
        ("log", KP_LOG_FN),
        ("log_userdata", ctypes.c_void_p),
        ("log_level", ctypes.c_int),
        ("tune_path", ctypes.c_char_p),
        ("no_jit", ctypes.c_int),
        ("autotune", ctypes.c_int),
        ("pdl", ctypes.c_int),
        ("reserved_", ctypes.c_void_p * 5),
    ]


class KpDeviceInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 128),
        ("ordinal", ctypes.c_int),
        ("sm", ctypes.c_int),
        ("sm_count", ctypes.c_int),
        ("driver_version", ctypes.c_int),
        ("smem_per_block_optin", ctypes.c_size_t),
        ("smem_per_sm", ctypes.c_size_t),
        ("l2_bytes", ctypes.c_size_t),
        ("target", ctypes.c_char * 16),
        ("pack_path", ctypes.c_char * 512),
    ]


class KpRopeDesc(ctypes.Structure):
    _fields_ = [
        ("tokens", ctypes.c_int64),
        ("heads_q", ctypes.c_int64),
        ("heads_k", ctypes.c_int64),
        ("head_dim", ctypes.c_int64),
        ("rot_dim", ctypes.c_int64),
        ("q_stride_token", ctypes.c_int64),
        ("q_stride_head", ctypes.c_int64),
        ("k_stride_token", ctypes.c_int64),
        ("k_stride_head", ctypes.c_int64),
        ("layout", ctypes.c_int),
        ("cos", ctypes.c_void_p),
        ("sin", ctypes.c_void_p),
        ("cs_stride", ctypes.c_int64),
        ("positions", ctypes.c_void_p),
        ("theta", ctypes.c_float),
    ]


class KpError(RuntimeError):
    pass


class Kernpack:
    def __init__(self, path, device=0):
        try:
            self.lib = ctypes.CDLL(path)
        except OSError as e:
            raise KpError(f"cannot load {path}: {e} (build it with `make`)") from None
        L = self.lib
        vp, i64, ci, cf = ctypes.c_void_p, ctypes.c_int64, ctypes.c_int, ctypes.c_float
        sigs = {
            "kp_version": (ctypes.c_char_p, []),
            "kp_status_name": (ctypes.c_char_p, [ci]),
            "kp_strerror": (ctypes.c_char_p, [ci]),
            "kp_dtype_name": (ctypes.c_char_p, [ci]),
            "kp_dtype_size": (ctypes.c_size_t, [ci]),
            "kp_options_init": (None, [ctypes.POINTER(KpOptions)]),
            "kp_ctx_create": (ci, [ctypes.POINTER(KpOptions), ctypes.POINTER(vp)]),
            "kp_ctx_destroy": (None, [vp]),
            "kp_ctx_errmsg": (ctypes.c_char_p, [vp]),
            "kp_ctx_device_info": (ci, [vp, ctypes.POINTER(KpDeviceInfo)]),
            # (ctx, dt, x, ldx, y, ldy, rows, cols, stream)
            "kp_softmax": (ci, [vp, ci, vp, i64, vp, i64, i64, i64, vp]),
            # (ctx, dt, x, ldx, w, y, ldy, rows, cols, eps, stream)
            "kp_rmsnorm": (ci, [vp, ci, vp, i64, vp, vp, i64, i64, i64, cf, vp]),
            # (ctx, dt, x, ldx, residual, ldr, w, y, ldy, rows, cols, eps, stream)
            "kp_add_rmsnorm": (ci, [vp, ci, vp, i64, vp, i64, vp, vp, i64, i64, i64, cf, vp]),
            # (ctx, dt, gate, up, ldin, y, ldy, rows, cols, stream)
            "kp_swiglu": (ci, [vp, ci, vp, vp, i64, vp, i64, i64, i64, vp]),
            # (ctx, dt, form, gate, up, ldin, y, ldy, rows, cols, stream)
            "kp_geglu": (ci, [vp, ci, ci, vp, vp, i64, vp, i64, i64, i64, vp]),
            # (ctx, dt, x, ldx, w, y, ldy, rows, cols, eps, stream)
            "kp_rmsnorm_swiglu": (ci, [vp, ci, vp, i64, vp, vp, i64, i64, i64, cf, vp]),
            # (ctx, dt, q, k, desc, stream)
            "kp_rope": (ci, [vp, ci, vp, vp, ctypes.POINTER(KpRopeDesc), vp]),
        }
        for name, (res, args) in sigs.items():
            fn = getattr(L, name)
            fn.restype = res
            fn.argtypes = args
        self.version = L.kp_version().decode()

        L.kp_options_sizeof.restype = ctypes.c_size_t
        if L.kp_options_sizeof() != ctypes.sizeof(KpOptions):
            raise RuntimeError("kp_options is %d bytes in the library, %d in this mirror: "
                               "update KpOptions" % (L.kp_options_sizeof(), ctypes.sizeof(KpOptions)))
        opt = KpOptions()
        L.kp_options_init(ctypes.byref(opt))
        opt.device = device
        opt.use_current_context = 1  # torch's primary context, current on this thread
        ctx = ctypes.c_void_p()
        st = L.kp_ctx_create(ctypes.byref(opt), ctypes.byref(ctx))
        self.ctx = ctx
        if st != 0:
            msg = self.errtext(st)
            L.kp_ctx_destroy(ctx)
            self.ctx = None
            raise KpError(f"kp_ctx_create: {msg}")
        info = KpDeviceInfo()
        self.check(L.kp_ctx_device_info(self.ctx, ctypes.byref(info)), "kp_ctx_device_info")
        self.info = info

    def errtext(self, st):
        name = self.lib.kp_status_name(st).decode()
        msg = self.lib.kp_ctx_errmsg(self.ctx).decode(errors="replace") if self.ctx else ""
        return f"{name}: {msg}" if msg else name

    def check(self, st, what):
        if st != 0:
            raise KpError(f"{what} failed: {self.errtext(st)}")

    def close(self):
        if self.ctx:
            self.lib.kp_ctx_destroy(self.ctx)
            self.ctx = None


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


# ---- eager formulas (dtype-agnostic: called with fp32 tensors they are the reference) --
def softmax_eager(x):
    xf = x.float()
    e = torch.exp(xf - xf.amax(-1, keepdim=True))
    return (e / e.sum(-1, keepdim=True)).to(x.dtype)


def softmax_F(x):
    return torch.softmax(x, dim=-1)


def rmsnorm_eager(x, w, eps):
    xf = x.float()
    y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)
    return (y * w.float()).to(x.dtype)


def rmsnorm_F(x, w, eps):
    return F.rms_norm(x, (x.shape[-1],), w, eps)


def add_rmsnorm_eager(x, res, w, eps):
    r = x + res
    return rmsnorm_eager(r, w, eps), r


def add_rmsnorm_F(x, res, w, eps):
    r = x + res
    return F.rms_norm(r, (r.shape[-1],), w, eps), r


def swiglu_eager(g, u):
    return F.silu(g) * u


def geglu_tanh_eager(g, u):
    return F.gelu(g, approximate="tanh") * u


def geglu_erf_eager(g, u):
    return F.gelu(g) * u


def rmsnorm_swiglu_eager(x, w, eps):
    xf = x.float()
    h = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * w.float()
    c = h.shape[-1] // 2
    return (F.silu(h[:, :c]) * h[:, c:]).to(x.dtype)


def rmsnorm_swiglu_F(x, w, eps):
    h = F.rms_norm(x, (x.shape[-1],), w, eps)
    c = h.shape[-1] // 2
    return F.silu(h[:, :c]) * h[:, c:]


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def rope_eager(q, k, cos_cache, sin_cache, pos):
    """NeoX RoPE, the usual formulation: cos/sin gathered per token, rotate_half."""
    cos = cos_cache[pos]
    sin = sin_cache[pos]
    cos = torch.cat((cos, cos), dim=-1)[:, None, :].to(q.dtype)  # (tokens, 1, head_dim)
    sin = torch.cat((sin, sin), dim=-1)[:, None, :].to(q.dtype)
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


# ---- inputs ----------------------------------------------------------------------------
def rand(shape, dt, lo=0.05, hi=1.0, signed=True):
    """Magnitudes uniform in [lo, hi] (never zero), random sign."""
    m = lo + (hi - lo) * torch.rand(shape, device="cuda", dtype=torch.float32)
    if signed:
        m = torch.where(torch.rand(shape, device="cuda") < 0.5, -m, m)
    return m.to(dt)


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


class Case:
    """One op at one dtype: ours, the peers, the fp32 reference, the byte count."""

    def __init__(self, name, shape, nbytes, ours, ours_out, eager, ref, fimpl=None,
                 compile_fn=None, compile_args=(), reset=None, peer_out=None):
        self.name, self.shape, self.nbytes = name, shape, nbytes
        self.ours, self.ours_out, self.eager, self.ref = ours, ours_out, eager, ref
        self.fimpl, self.compile_fn, self.compile_args = fimpl, compile_fn, compile_args
        self.reset = reset
        # which outputs of eager/F/compile correspond to ours_out (default: all of them)
        self.peer_out = peer_out or (lambda out: out if isinstance(out, tuple) else (out,))


def make_case(op, dt, kp):
    es = torch.tensor([], dtype=dt).element_size()
    kdt = KDT[dt]
    L = kp.lib
    R, C = ROWS, COLS
    if op == "softmax":
        x = rand((R, C), dt, 0.05, 4.0)
        y = torch.empty_like(x)

        def ours():
            kp.check(L.kp_softmax(kp.ctx, kdt, ptr(x), C, ptr(y), C, R, C, stream()), "kp_softmax")

        return Case(op, f"{R}x{C}", es * 2 * R * C, ours, lambda: (y,),
                    lambda: softmax_eager(x), lambda: (softmax_eager(x.float()),),
                    fimpl=lambda: softmax_F(x), compile_fn=softmax_eager, compile_args=(x,))
    if op == "rmsnorm":
        x, w = rand((R, C), dt), rand((C,), dt, 0.5, 1.5, signed=False)
        y = torch.empty_like(x)

        def ours():
            kp.check(L.kp_rmsnorm(kp.ctx, kdt, ptr(x), C, ptr(w), ptr(y), C, R, C, EPS, stream()),
                     "kp_rmsnorm")

        return Case(op, f"{R}x{C}", es * (2 * R * C + C), ours, lambda: (y,),
                    lambda: rmsnorm_eager(x, w, EPS),
                    lambda: (rmsnorm_eager(x.float(), w.float(), EPS),),
                    fimpl=lambda: rmsnorm_F(x, w, EPS), compile_fn=rmsnorm_eager,
                    compile_args=(x, w, EPS))
    if op == "add_rmsnorm":
        x, res0 = rand((R, C), dt), rand((R, C), dt)
        w = rand((C,), dt, 0.5, 1.5, signed=False)
        res, y = res0.clone(), torch.empty_like(x)

        def ours():  # in place on res
            kp.check(L.kp_add_rmsnorm(kp.ctx, kdt, ptr(x), C, ptr(res), C, ptr(w), ptr(y), C, R, C,
                                      EPS, stream()), "kp_add_rmsnorm")

        return Case(op, f"{R}x{C}", es * (4 * R * C + C), ours, lambda: (y, res),
                    lambda: add_rmsnorm_eager(x, res0, w, EPS),
                    lambda: add_rmsnorm_eager(x.float(), res0.float(), w.float(), EPS),
                    fimpl=lambda: add_rmsnorm_F(x, res0, w, EPS), compile_fn=add_rmsnorm_eager,
                    compile_args=(x, res0, w, EPS), reset=lambda: res.copy_(res0))
    if op in ("swiglu", "geglu_tanh", "geglu_erf"):
        g, u = rand((R, C), dt), rand((R, C), dt)
        y = torch.empty_like(g)
        fn = {"swiglu": swiglu_eager, "geglu_tanh": geglu_tanh_eager,
              "geglu_erf": geglu_erf_eager}[op]
        if op == "swiglu":
            def ours():
                kp.check(L.kp_swiglu(kp.ctx, kdt, ptr(g), ptr(u), C, ptr(y), C, R, C, stream()),
                         "kp_swiglu")
        else:
            form = KP_GELU_TANH if op == "geglu_tanh" else KP_GELU_ERF

            def ours():
                kp.check(L.kp_geglu(kp.ctx, kdt, form, ptr(g), ptr(u), C, ptr(y), C, R, C,
                                    stream()), "kp_geglu")

        return Case(op, f"{R}x{C}", es * 3 * R * C, ours, lambda: (y,), lambda: fn(g, u),
                    lambda: (fn(g.float(), u.float()),), compile_fn=fn, compile_args=(g, u))
    if op == "rmsnorm_swiglu":
        x, w = rand((R, 2 * C), dt), rand((2 * C,), dt, 0.5, 1.5, signed=False)
        y = torch.empty((R, C), device="cuda", dtype=dt)

        def ours():
            kp.check(L.kp_rmsnorm_swiglu(kp.ctx, kdt, ptr(x), 2 * C, ptr(w), ptr(y), C, R, C, EPS,
                                         stream()), "kp_rmsnorm_swiglu")

        return Case(op, f"{R}x{2 * C}->{C}", es * (3 * R * C + 2 * C), ours, lambda: (y,),
                    lambda: rmsnorm_swiglu_eager(x, w, EPS),
                    lambda: (rmsnorm_swiglu_eager(x.float(), w.float(), EPS),),
                    fimpl=lambda: rmsnorm_swiglu_F(x, w, EPS), compile_fn=rmsnorm_swiglu_eager,
                    compile_args=(x, w, EPS))
    if op == "rope":
        T, HQ, HK, D = ROPE_T, ROPE_HQ, ROPE_HK, ROPE_D
        half = D // 2
        q0, k0 = rand((T, HQ, D), dt), rand((T, HK, D), dt)
        pos = torch.arange(T, device="cuda")
        inv = THETA ** (-torch.arange(half, device="cuda", dtype=torch.float64) * 2.0 / D)
        ang = pos.to(torch.float64)[:, None] * inv[None, :]
        cos_t, sin_t = torch.cos(ang).float().contiguous(), torch.sin(ang).float().contiguous()
        q, k = q0.clone(), k0.clone()
        desc = KpRopeDesc(tokens=T, heads_q=HQ, heads_k=HK, head_dim=D, rot_dim=D,
                          q_stride_token=HQ * D, q_stride_head=D, k_stride_token=HK * D,
                          k_stride_head=D, layout=KP_ROPE_NEOX, cos=cos_t.data_ptr(),
                          sin=sin_t.data_ptr(), cs_stride=half, positions=None, theta=THETA)

        def ours():  # in place on q, k; a rotation keeps them bounded over the reps
            kp.check(L.kp_rope(kp.ctx, kdt, ptr(q), ptr(k), ctypes.byref(desc), stream()),
                     "kp_rope")

        nbytes = es * 2 * T * (HQ + HK) * D + 2 * 4 * T * half
        case = Case(op, f"{T}x({HQ}+{HK})x{D}", nbytes, ours, lambda: (q, k),
                    lambda: rope_eager(q0, k0, cos_t, sin_t, pos),
                    lambda: rope_eager(q0.float(), k0.float(), cos_t, sin_t, pos),
                    compile_fn=rope_eager, compile_args=(q0, k0, cos_t, sin_t, pos),
                    reset=None)
        case.desc = desc  # keep the struct alive with the case
        case.fresh = lambda: (q.copy_(q0), k.copy_(k0))
        return case
    raise ValueError(f"unknown op {op}")


# ---- timing and checks -------------------------------------------------------------------
def flush_read(buf):
    """evict L2 by reading buf (256 MB: clean lines, where a memset would leave
    ~50 MB of dirty ones whose write-back competes with the timed kernel),
    then a ~100 us torch.cuda._sleep so that the GPU waits for the host to
    queue the timed call (its start event would otherwise run while Python
    still dispatches it)"""
    buf.view(torch.int64).sum()
    torch.cuda._sleep(200_000)  # headroom for the host (cycles)


class L2Flush:
    """flush(): evict L2 before a timed call, by flush_read ("read") or by
    zeroing the buffer ("zero")"""

    def __init__(self, nbytes, how):
        self.buf = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
        self.buf.zero_()
        self.bytes, self.how = nbytes, how

    def __call__(self):
        if self.how == "zero":
            self.buf.zero_()
        else:
            flush_read(self.buf)


def time_fn(fn, reps, warmup, flush, reset=None):
    """Median microseconds of fn(), events around fn alone, L2 flushed before each rep."""
    us = time_all([(fn, reset)], reps, warmup, flush)[0]
    if isinstance(us, Exception):
        raise us
    return us


def time_all(impls, reps, warmup, flush):
    """Median microseconds of each (fn, reset) of impls, timed in turns: every
    round runs each once (reset and L2 flush before it, untimed), so drift over
    the run affects them all alike.  An impl that raises in its warm-up gets
    its exception instead of a time."""
    live = []
    for fn, reset in impls:
        try:
            for _ in range(warmup):
                if reset:
                    reset()
                fn()
            torch.cuda.synchronize()
            live.append(True)
        except Exception as e:  # noqa: BLE001 -- reported by the caller
            live.append(e)
    ev = [[(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
           for _ in range(reps)] for _ in impls]
    for i in range(reps):
        for k, (fn, reset) in enumerate(impls):
            if live[k] is not True:
                continue
            if reset:
                reset()
            flush()
            ev[k][i][0].record()
            fn()
            ev[k][i][1].record()
    torch.cuda.synchronize()
    return [1e3 * statistics.median(s.elapsed_time(e) for s, e in ev[k]) if live[k] is True
            else live[k] for k in range(len(impls))]


def compare(outs, refs, dt):
    """(ok, max abs error, max abs error / max |ref|) of outs vs the fp32 refs."""
    rtol, arel = TOL[dt]
    ok, worst_abs, worst_norm = True, 0.0, 0.0
    for o, r in zip(outs, refs):
        o, r = o.float(), r.float()
        if not bool(torch.isfinite(o).all()):
            return False, math.inf, math.inf
        d = (o - r).abs()
        maxref = r.abs().max().item()
        ok = ok and bool((d <= arel * maxref + rtol * r.abs()).all())
        dmax = d.max().item()
        worst_abs = max(worst_abs, dmax)
        worst_norm = max(worst_norm, dmax / maxref if maxref > 0 else dmax)
    return ok, worst_abs, worst_norm


def run_one(op, dname, kp, args, flush, copy_gbps):
    """Check, then time ours and the peers for one op and dtype; returns its record.
    A kernpack failure is recorded and the peers are still timed."""
    dt = DTYPES[dname]
    rec = {"op": op, "dtype": dname, "us": {}, "gbps": {}, "errors": {}, "_failed": 0}
    print(f"\n--- {op} {dname}", flush=True)
    try:
        case = make_case(op, dt, kp)
    except Exception as e:  # noqa: BLE001
        rec["errors"]["setup"] = f"{type(e).__name__}: {e}"[:500]
        print(f"  setup FAILED: {rec['errors']['setup']}", flush=True)
        traceback.print_exc()
        rec["_failed"] = 1
        return finish(rec, copy_gbps)
    rec["shape"], rec["bytes"] = case.shape, case.nbytes
    ours_ok = True
    # 1. correctness on fresh inputs, before any timing
    try:
        case.ours()
        torch.cuda.synchronize()
        refs = case.ref()
        refs = refs if isinstance(refs, tuple) else (refs,)
        ok, eabs, enorm = compare(case.ours_out(), refs, dt)
        _, pabs, pnorm = compare(case.peer_out(case.eager()), refs, dt)
        del refs
        rec.update(check_ok=ok, max_abs_err=eabs, max_norm_err=enorm,
                   eager_max_abs_err=pabs, eager_max_norm_err=pnorm)
        print(f"check vs fp32 formula: {'ok' if ok else 'MISMATCH'}; max abs err ours "
              f"{eabs:.3g} (norm {enorm:.3g}), torch eager {dname} {pabs:.3g} "
              f"(norm {pnorm:.3g})", flush=True)
        if not ok:
            rec["_failed"] = 1
        if hasattr(case, "fresh"):
            case.fresh()
    except KpError as e:
        rec["errors"]["ours"] = str(e)
        print(f"  kernpack FAILED: {e}", flush=True)
        rec["_failed"] = 1
        ours_ok = False
    except Exception as e:  # noqa: BLE001
        rec["errors"]["check"] = f"{type(e).__name__}: {e}"[:500]
        print(f"  check FAILED: {rec['errors']['check']}", flush=True)
        traceback.print_exc()
        rec["_failed"] = 1
    # 2. timing
    impls = [("ours", case.ours, case.reset)] if ours_ok else []
    impls.append(("eager", case.eager, None))
    if case.fimpl:
        impls.append(("F", case.fimpl, None))
    if case.compile_fn and not args.no_compile:
        torch._dynamo.reset()
        cfn = torch.compile(case.compile_fn)
        cargs = case.compile_args
        impls.append(("compile", lambda: cfn(*cargs), None))
    t0 = time.time()
    try:
        times = time_all([(fn, reset) for _, fn, reset in impls], args.reps, args.warmup, flush)
    except Exception as e:  # noqa: BLE001 -- a failure inside the timed rounds
        times = [e] * len(impls)
    for (name, _, _), us in zip(impls, times):
        if isinstance(us, float):
            rec["us"][name] = us
            rec["gbps"][name] = case.nbytes / (us * 1e3)
            print(f"  {name:8s} {us:10.1f} us {rec['gbps'][name]:8.0f} GB/s", flush=True)
        else:  # reported, the others still count
            rec["errors"][name] = f"{type(us).__name__}: {us}"[:500]
            print(f"  {name:8s} FAILED: {rec['errors'][name]}", flush=True)
            if name == "ours":
                rec["_failed"] = 1
    print(f"  ({time.time() - t0:.1f} s for all, warm-up included)", flush=True)
    # ours must still be finite after all the reps (in-place ops drift)
    if "ours" in rec["us"]:
        finite = all(bool(torch.isfinite(t).all()) for t in case.ours_out())
        rec["finite_after_timing"] = finite
        if not finite:
            print("  WARNING: our outputs hold inf/NaN after the timed reps", flush=True)
            rec["_failed"] = 1
    return finish(rec, copy_gbps)


def finish(rec, copy_gbps):
    """Best peer, ratio and % of copy from the GB/s measured."""
    g = rec["gbps"]
    peers = {k: v for k, v in g.items() if k != "ours"}
    if peers:
        best = max(peers, key=peers.get)
        rec["best_peer"], rec["best_peer_gbps"] = best, peers[best]
        if "ours" in g:
            rec["ratio_ours_best_peer"] = g["ours"] / peers[best]
    if "ours" in g:
        rec["pct_copy_ours"] = 100.0 * g["ours"] / copy_gbps
    return rec


def fmt(v, w=8, prec=0):
    return f"{v:{w}.{prec}f}" if isinstance(v, (int, float)) and v is not None else f"{'-':>{w}}"


def main():
    global ROWS, COLS, ROPE_T
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="write all numbers here")
    ap.add_argument("--dtypes", default="bf16", help="comma list of bf16,f16,f32 (default bf16)")
    ap.add_argument("--ops", default="softmax,rmsnorm,add_rmsnorm,swiglu,geglu_tanh,geglu_erf,rmsnorm_swiglu,rope",
                    help="comma list")
    ap.add_argument("--reps", type=int, default=100, help="timed repetitions (>= 50 advised)")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--lib", default=os.path.join(REPO, "build", "lib", "libkernpack.so"))
    ap.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--flush", choices=("read", "zero"), default="read",
                    help="how L2 is flushed before each rep: read a 256 MB buffer (default) or "
                    "zero it (its dirty lines then drain under the timed call)")
    ap.add_argument("--rows", type=int, default=ROWS, help="row ops: rows (default 32768)")
    ap.add_argument("--cols", type=int, default=COLS,
                    help="row ops: cols; swiglu-type: cols of the output (default 8192)")
    ap.add_argument("--tokens", type=int, default=ROPE_T, help="rope: tokens (default 16384)")
    ap.add_argument("--shapes", help="sweep: comma list of ROWSxCOLS, each op at each shape "
                    "(rope: ROWS tokens); overrides --rows/--cols/--tokens")
    ap.add_argument("--shapes-file", help="sweep: the distinct ROWS x COLS of a `kp tune "
                    "--shapes` file (lines 'family rows cols', # comments), in file order")
    args = ap.parse_args()
    ROWS, COLS, ROPE_T = args.rows, args.cols, args.tokens
    if args.shapes_file:
        seen = []
        with open(args.shapes_file) as f:
            for ln in f:
                w = ln.split("#")[0].split()
                if len(w) == 3 and f"{w[1]}x{w[2]}" not in seen:
                    seen.append(f"{w[1]}x{w[2]}")
        if not seen:
            ap.error(f"--shapes-file {args.shapes_file}: no 'family rows cols' line")
        args.shapes = ",".join(seen)
    try:
        sweep = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")] \
            if args.shapes else [(ROWS, COLS, ROPE_T)]
        sweep = [(t[0], t[1], t[2] if len(t) > 2 else t[0]) for t in sweep]
    except ValueError:
        ap.error(f"--shapes {args.shapes}: expected ROWSxCOLS,...")
    for d in args.dtypes.split(","):
        if d not in DTYPES:
            ap.error(f"unknown dtype {d}")
    known = {"softmax", "rmsnorm", "add_rmsnorm", "swiglu", "geglu_tanh", "geglu_erf",
             "rmsnorm_swiglu", "rope"}
    for o in args.ops.split(","):
        if o not in known:
            ap.error(f"unknown op {o} (known: {', '.join(sorted(known))})")
    os.environ.setdefault("KP_PACK_DIR", os.path.join(REPO, "build", "packs"))

    # torch first: it creates (and makes current) the device's primary context
    torch.cuda.set_device(args.device)
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    kp = Kernpack(args.lib, args.device)
    dev_name = torch.cuda.get_device_name(args.device)
    date = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    print(f"side_by_side: {dev_name}, torch {torch.__version__} (CUDA {torch.version.cuda}), "
          f"kernpack {kp.version}, pack {kp.info.target.decode()} {kp.info.pack_path.decode()}, {date}")
    print(f"timing: torch.cuda.Event around each call, median of {args.reps} after {args.warmup} "
          f"warm-up; L2 flushed (256 MB {'read, then a spin' if args.flush == 'read' else 'zero_'}) "
          f"before each rep, untimed", flush=True)

    flush = L2Flush(256 << 20, args.flush)
    report = {"device": dev_name, "date": date, "torch": torch.__version__,
              "cuda": torch.version.cuda, "kernpack": kp.version,
              "pack_target": kp.info.target.decode(), "pack_path": kp.info.pack_path.decode(),
              "reps": args.reps, "warmup": args.warmup, "flush_bytes": flush.bytes,
              "flush": args.flush,
              "bytes_rule": "each input read once + each output written once", "results": []}
    try:
        import triton
        report["triton"] = triton.__version__
    except Exception:  # noqa: BLE001 -- only for the record
        pass

    def save():
        if args.json:
            os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)

    # device copy reference: 1 GiB, bytes read + written
    src = torch.ones(1 << 30, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy_us = time_fn(lambda: dst.copy_(src), max(20, args.reps // 2), 3, flush)
    copy_gbps = 2 * src.numel() / (copy_us * 1e3)
    del src, dst
    report["copy_us"], report["copy_gbps"] = copy_us, copy_gbps
    print(f"copy reference: torch copy_ 1 GiB: {copy_us:.1f} us, {copy_gbps:.1f} GB/s", flush=True)
    save()

    failures = 0
    rows = []
    for ROWS, COLS, ROPE_T in sweep:
        for dname in args.dtypes.split(","):
            for op in args.ops.split(","):
                torch.cuda.empty_cache()
                rec = run_one(op, dname, kp, args, flush, copy_gbps)
                rec["rows"], rec["cols"] = (ROPE_T, None) if op == "rope" else (ROWS, COLS)
                failures += rec.pop("_failed")
                report["results"].append(rec)
                rows.append(rec)
                save()

    # ---- table --------------------------------------------------------------------------
    print(f"\n==== side-by-side on {dev_name}: GB/s (bytes read + written once), median of "
          f"{args.reps}, L2 flushed; copy {copy_gbps:.0f} GB/s ====")
    print(f"{'op':15s} {'dt':4s} {'shape':>18s} | {'ours GB/s':>9s} | {'eager':>7s} | {'F.rms_norm':>10s} | "
          f"{'compile':>7s} | {'copy% ours':>10s} | {'best peer':>15s} | {'ours/best':>9s} | check")
    for r in rows:
        g = r["gbps"]
        best = f"{r['best_peer_gbps']:.0f} {r['best_peer']}" if "best_peer" in r else "-"
        ratio = f"{r['ratio_ours_best_peer']:.2f}x" if "ratio_ours_best_peer" in r else "-"
        pct = f"{r['pct_copy_ours']:.1f}" if "pct_copy_ours" in r else "-"
        if "ours" in r["errors"] or "setup" in r["errors"] or "check" in r["errors"]:
            chk = "FAIL"
        elif "check_ok" in r:
            chk = ("ok" if r["check_ok"] else "MISMATCH") + f" {r['max_norm_err']:.1e}"
        else:
            chk = "-"
        print(f"{r['op']:15s} {r['dtype']:4s} {r.get('shape', '-'):>18s} | {fmt(g.get('ours'), 9)} | {fmt(g.get('eager'), 7)} | "
              f"{fmt(g.get('F'), 10)} | {fmt(g.get('compile'), 7)} | {pct:>10s} | {best:>15s} | "
              f"{ratio:>9s} | {chk}")
    print(f"shapes: row ops RxC; swiglu/geglu RxC output (gate, up separate tensors); "
          f"rmsnorm_swiglu x Rx2C -> C; rope tokens x ({ROPE_HQ}+{ROPE_HK}) heads x {ROPE_D}, "
          f"NeoX, cos/sin given")
    print("F.rms_norm column: F.rms_norm for rmsnorm, add_rmsnorm, rmsnorm_swiglu; torch.softmax "
          "for softmax.  check: ours vs the fp32 formula, max |err| / max |ref|")
    for r in rows:
        for k, v in r["errors"].items():
            print(f"error: {r['op']} {r['dtype']} {k}: {v}")
    report["failures"] = failures
    save()
    kp.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
