"""GPU tests: every op against a float64 torch reference at odd shapes, with
non-contiguous inputs and outputs, the wrong dtype/device/shape, the other
ways in (__cuda_array_interface__, DLPack, streams, threads) and CUDA-graph
capture.  They skip visibly without torch or a GPU; KP_REQUIRE_GPU=1 turns
those skips into failures (for the GPU machine).

    python3 -m pytest python/tests          or   python3 python/tests/run_gpu.py
"""
import itertools
import math
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # python/: the source tree's kernpack

import kernpack  # noqa: E402
from harness import skip  # noqa: E402

SHAPES = [(1, 1), (7, 13), (33, 1000), (5, 4097), (3, 4, 129)]


def need_gpu():
    """torch, with a GPU that kernpack can open; else a visible skip."""
    def missing(why):
        if os.environ.get("KP_REQUIRE_GPU") == "1":
            raise AssertionError(f"KP_REQUIRE_GPU=1 but {why}")
        skip(why)
    try:
        import torch
    except ImportError:
        missing("torch is not installed")
    if not torch.cuda.is_available():
        missing("no CUDA device (torch.cuda.is_available() is False)")
    torch.zeros(1, device="cuda")  # torch's context first, current on this thread
    if not kernpack.gpu_available():
        i = kernpack.info()
        missing(f"kernpack cannot open a device: {i.get('error') or i['driver'].get('error')}")
    return torch


def dtypes(torch):
    return [torch.float32, torch.float16, torch.bfloat16]


def tol(torch, dt):
    """(rtol, atol as a fraction of max |ref|), as bench/side_by_side.py."""
    return {torch.bfloat16: (1.6e-2, 4e-3), torch.float16: (4e-3, 1e-3),
            torch.float32: (1e-4, 1e-5)}[dt]


def close(torch, out, ref, dt, what, tols=None):
    rtol, arel = tols or tol(torch, dt)
    o, r = out.double(), ref.double()
    assert o.shape == r.shape, (what, o.shape, r.shape)
    assert bool(torch.isfinite(o).all()), f"{what}: non-finite output"
    if r.numel() == 0:
        return
    d = (o - r).abs()
    lim = arel * r.abs().max() + rtol * r.abs()
    bad = d > lim
    assert not bool(bad.any()), (f"{what}: {int(bad.sum())} of {r.numel()} elements off, "
                                 f"max err {d.max().item():.3g}, max |ref| "
                                 f"{r.abs().max().item():.3g}")


def rand(torch, shape, dt, lo=0.05, hi=1.0, signed=True):
    m = lo + (hi - lo) * torch.rand(shape, device="cuda", dtype=torch.float32)
    if signed:
        m = torch.where(torch.rand(shape, device="cuda") < 0.5, -m, m)
    return m.to(dt)


def raises(cls, fn, text=None):
    try:
        fn()
    except kernpack.Error as e:
        assert isinstance(e, cls), f"expected {cls.__name__}, got {type(e).__name__}: {e}"
        assert e.status_name and e.message
        if text:
            assert text in str(e), f"{text!r} not in {str(e)!r}"
        return e
    raise AssertionError(f"expected {cls.__name__}, nothing raised")


# ---- references (float64) -------------------------------------------------------------
def ref_rmsnorm(torch, x, w, eps):
    x = x.double()
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w.double()


def ref_rope(torch, x, pos, theta, rot, gptj, cos=None, sin=None):
    """x: (tokens, heads, head_dim) -> rotated copy in float64."""
    x = x.double().clone()
    half = rot // 2
    if cos is None:
        inv = theta ** (-torch.arange(half, device=x.device, dtype=torch.float64) * 2.0 / rot)
        ang = pos.double()[:, None] * inv[None, :]
        cos, sin = torch.cos(ang), torch.sin(ang)
    c, s = cos.double()[:, None, :], sin.double()[:, None, :]
    if gptj:
        a, b = x[..., 0:rot:2].clone(), x[..., 1:rot:2].clone()
        x[..., 0:rot:2], x[..., 1:rot:2] = a * c - b * s, b * c + a * s
    else:
        a, b = x[..., :half].clone(), x[..., half:rot].clone()
        x[..., :half], x[..., half:rot] = a * c - b * s, b * c + a * s
    return x


# ---- ops ------------------------------------------------------------------------------
# softmax at odd shapes and all dtypes, allocated and in place.
def test_softmax():
    torch = need_gpu()
    for dt in dtypes(torch):
        for sh in SHAPES:
            x = rand(torch, sh, dt, 0.05, 4.0)
            ref = torch.softmax(x.double(), -1)
            close(torch, kernpack.softmax(x), ref, dt, f"softmax {dt} {sh}")
            kernpack.softmax(x, out=x)
            close(torch, x, ref, dt, f"softmax in place {dt} {sh}")


# rmsnorm at odd shapes and all dtypes.
def test_rmsnorm():
    torch = need_gpu()
    for dt in dtypes(torch):
        for sh in SHAPES:
            x, w = rand(torch, sh, dt), rand(torch, sh[-1:], dt, 0.5, 1.5, signed=False)
            y = kernpack.rmsnorm(x, w, 1e-5)
            close(torch, y, ref_rmsnorm(torch, x, w, 1e-5), dt, f"rmsnorm {dt} {sh}")


# add_rmsnorm updates residual in place and normalises the sum.
def test_add_rmsnorm():
    torch = need_gpu()
    for dt in dtypes(torch):
        for sh in SHAPES:
            x, r0 = rand(torch, sh, dt), rand(torch, sh, dt)
            w = rand(torch, sh[-1:], dt, 0.5, 1.5, signed=False)
            r = r0.clone()
            y = kernpack.add_rmsnorm(x, r, w, 1e-6)
            s = x.double() + r0.double()
            close(torch, r, s, dt, f"add_rmsnorm residual {dt} {sh}")
            close(torch, y, ref_rmsnorm(torch, s, w, 1e-6), dt, f"add_rmsnorm y {dt} {sh}")


# swiglu and both geglu forms, with gate and up separate and as one [gate | up] tensor.
def test_glu():
    torch = need_gpu()
    F = torch.nn.functional
    forms = [("swiglu", lambda g, u: kernpack.swiglu(g, u), lambda g: F.silu(g)),
             ("geglu erf", lambda g, u: kernpack.geglu(g, u), lambda g: F.gelu(g)),
             ("geglu tanh", lambda g, u: kernpack.geglu(g, u, approximate="tanh"),
              lambda g: F.gelu(g, approximate="tanh"))]
    for name, fn, act in forms:
        for dt in dtypes(torch):
            for sh in SHAPES:
                g, u = rand(torch, sh, dt, 0.05, 3.0), rand(torch, sh, dt)
                ref = act(g.double()) * u.double()
                close(torch, fn(g, u), ref, dt, f"{name} {dt} {sh}")
                gu = torch.cat([g, u], -1)
                close(torch, fn(gu, None), ref, dt, f"{name} fused [gate|up] {dt} {sh}")


# rmsnorm_swiglu: (.., 2c) -> (.., c).
def test_rmsnorm_swiglu():
    torch = need_gpu()
    F = torch.nn.functional
    for dt in dtypes(torch):
        for sh in [(1, 2), (7, 26), (33, 2000), (3, 4, 258)]:
            x, w = rand(torch, sh, dt), rand(torch, sh[-1:], dt, 0.5, 1.5, signed=False)
            h = ref_rmsnorm(torch, x, w, 1e-6)
            c = sh[-1] // 2
            ref = F.silu(h[..., :c]) * h[..., c:]
            close(torch, kernpack.rmsnorm_swiglu(x, w), ref, dt, f"rmsnorm_swiglu {dt} {sh}")


# rope: NeoX and GPT-J, computed angles (token index or positions), cos/sin
# given, partial rot_dim, k absent, 4-D (batch, seq, heads, dim).
def test_rope():
    torch = need_gpu()
    for dt in dtypes(torch):
        for tokens, hq, hk, d, rot in [(1, 1, 1, 2, 2), (7, 3, 1, 64, 64), (33, 8, 2, 128, 64),
                                       (100, 5, 3, 80, 80)]:
            for layout in ("neox", "gptj"):
                gptj = layout == "gptj"
                q0, k0 = rand(torch, (tokens, hq, d), dt), rand(torch, (tokens, hk, d), dt)
                pos = torch.randint(0, 4096, (tokens,), device="cuda")
                what = f"rope {dt} {layout} t{tokens} q{hq} k{hk} d{d} rot{rot}"
                # angles from positions (int64, converted)
                q, k = q0.clone(), k0.clone()
                kernpack.rope(q, k, positions=pos, rot_dim=rot, layout=layout, theta=10000.0)
                close(torch, q, ref_rope(torch, q0, pos, 1e4, rot, gptj), dt, what + " q pos")
                close(torch, k, ref_rope(torch, k0, pos, 1e4, rot, gptj), dt, what + " k pos")
                # angles from the token index, q only
                q = q0.clone()
                kernpack.rope(q, None, rot_dim=rot, layout=layout, theta=500000.0)
                idx = torch.arange(tokens, device="cuda")
                close(torch, q, ref_rope(torch, q0, idx, 5e5, rot, gptj), dt, what + " q idx")
                # cos/sin given (float32 tables)
                half = rot // 2
                ang = torch.rand(tokens, half, device="cuda", dtype=torch.float64) * 6.28
                cos, sin = torch.cos(ang).float(), torch.sin(ang).float()
                q, k = q0.clone(), k0.clone()
                kernpack.rope(q, k, cos=cos, sin=sin, rot_dim=rot, layout=layout)
                close(torch, q, ref_rope(torch, q0, None, 0, rot, gptj, cos, sin), dt,
                      what + " q cs")
                close(torch, k, ref_rope(torch, k0, None, 0, rot, gptj, cos, sin), dt,
                      what + " k cs")
    # (batch, seq, heads, dim), q and k slices of one fused qkv projection
    dt = torch.bfloat16
    b, s, hq, hk, d = 2, 9, 4, 2, 64
    qkv = rand(torch, (b, s, (hq + 2 * hk) * d), dt)
    ref_q = qkv[..., :hq * d].reshape(b * s, hq, d).clone()
    ref_k = qkv[..., hq * d:(hq + hk) * d].reshape(b * s, hk, d).clone()
    v0 = qkv[..., (hq + hk) * d:].clone()
    q = qkv[..., :hq * d].view(b, s, hq, d)
    k = qkv[..., hq * d:(hq + hk) * d].view(b, s, hk, d)
    kernpack.rope(q, k)
    idx = torch.arange(b * s, device="cuda")
    close(torch, q.reshape(b * s, hq, d), ref_rope(torch, ref_q, idx, 1e4, d, False), dt,
          "rope qkv slices q")
    close(torch, k.reshape(b * s, hk, d), ref_rope(torch, ref_k, idx, 1e4, d, False), dt,
          "rope qkv slices k")
    assert torch.equal(qkv[..., (hq + hk) * d:], v0), "rope wrote outside q and k"


# ---- layouts --------------------------------------------------------------------------
# Inputs that are column slices, row-strided, transposed (copied) or expanded
# (copied); outputs that are column slices, leaving their neighbours alone.
def test_non_contiguous():
    torch = need_gpu()
    for dt in dtypes(torch):
        big = rand(torch, (40, 1100), dt)
        w = rand(torch, (1000,), dt, 0.5, 1.5, signed=False)
        views = {"column slice": big[:33, 3:1003], "every other row": big[::2, :1000],
                 "transposed": rand(torch, (1000, 33), dt).t(),
                 "expanded": rand(torch, (1, 1000), dt).expand(33, 1000)}
        for name, x in views.items():
            ref = ref_rmsnorm(torch, x, w, 1e-6)
            close(torch, kernpack.rmsnorm(x, w), ref, dt, f"rmsnorm {name} {dt}")
            close(torch, kernpack.softmax(x), torch.softmax(x.double(), -1), dt,
                  f"softmax {name} {dt}")
        # strided weight (copied)
        w2 = rand(torch, (2000,), dt, 0.5, 1.5, signed=False)[::2]
        x = rand(torch, (9, 1000), dt)
        close(torch, kernpack.rmsnorm(x, w2), ref_rmsnorm(torch, x, w2, 1e-6), dt,
              f"rmsnorm strided weight {dt}")
        # output: a column slice of a poisoned buffer, one element off alignment
        obuf = torch.full((33, 1010), float("nan"), device="cuda", dtype=dt)
        out = obuf[:, 1:1001]
        x = rand(torch, (33, 1000), dt)
        r = kernpack.rmsnorm(x, w, out=out)
        assert r.data_ptr() == out.data_ptr()
        close(torch, out, ref_rmsnorm(torch, x, w, 1e-6), dt, f"rmsnorm into a slice {dt}")
        assert bool(torch.isnan(obuf[:, 0]).all() and torch.isnan(obuf[:, 1001:]).all()), \
            "wrote outside out"
        # gate and up with different strides (copied to one)
        g = rand(torch, (17, 300), dt)[:, :200]
        u = rand(torch, (17, 200), dt)
        close(torch, kernpack.swiglu(g, u), torch.nn.functional.silu(g.double()) * u.double(),
              dt, f"swiglu mixed strides {dt}")
    # an output that cannot be described raises instead of being copied
    x = rand(torch, (8, 16), torch.float32)
    raises(kernpack.InvalidArgumentError,
           lambda: kernpack.softmax(x, out=torch.empty(16, 8, device="cuda").t()),
           "softmax: out with shape")
    raises(kernpack.InvalidArgumentError,
           lambda: kernpack.rope(torch.empty(4, 2, 16, device="cuda").transpose(0, 1)),
           "updated in place")


# Empty tensors give empty results without a launch.
def test_empty():
    torch = need_gpu()
    x = torch.empty(0, 64, device="cuda", dtype=torch.float16)
    assert kernpack.softmax(x).shape == (0, 64)
    assert kernpack.rmsnorm(x, torch.ones(64, device="cuda", dtype=torch.float16)).shape == (0, 64)


# ---- errors -----------------------------------------------------------------------------
# Wrong dtype, device and shape give clear exceptions naming op and argument;
# the library's own checks come back with its status and message.
def test_errors():
    torch = need_gpu()
    x = rand(torch, (4, 8), torch.float16)
    w = torch.ones(8, device="cuda", dtype=torch.float16)
    raises(kernpack.UnsupportedError, lambda: kernpack.softmax(x.to(torch.float64)),
           "softmax: x dtype torch.float64: must be one of float32, float16, bfloat16")
    raises(kernpack.UnsupportedError, lambda: kernpack.rmsnorm(x, w.float()),
           "rmsnorm: weight dtype torch.float32")
    raises(kernpack.InvalidArgumentError, lambda: kernpack.softmax(x.cpu()),
           "softmax: x is on cpu: kernpack needs CUDA tensors")
    raises(kernpack.InvalidArgumentError, lambda: kernpack.rmsnorm(x, w[:7]),
           "rmsnorm: weight has shape (7,), expected (8,)")
    raises(kernpack.InvalidArgumentError, lambda: kernpack.add_rmsnorm(x, x[:3], w),
           "add_rmsnorm: residual has shape (3, 8), expected (4, 8)")
    raises(kernpack.InvalidArgumentError, lambda: kernpack.swiglu(x, x, out=torch.empty_like(x.t())),
           "swiglu: out has shape (8, 4)")
    raises(kernpack.UnsupportedError, lambda: kernpack.gemm(x.float(), x.float()),
           "gemm: a dtype torch.float32")
    raises(kernpack.InvalidArgumentError, lambda: kernpack.gemm(x, x[:, :5]), "k=5")
    # checked by the library itself: its status name and message come through
    e = raises(kernpack.InvalidArgumentError, lambda: kernpack.rmsnorm(x, w, eps=-1.0),
               "rmsnorm: eps=-1: must be finite and >= 0")
    assert e.status_name == "KP_ERR_INVALID_ARG" and e.status == 1
    if torch.cuda.device_count() > 1:
        raises(kernpack.InvalidArgumentError, lambda: kernpack.rmsnorm(x, w.to("cuda:1")),
               "all tensors must be on one device")


# Misaligned pointers (through __cuda_array_interface__) are refused by the library.
def test_misaligned():
    torch = need_gpu()
    t = torch.zeros(64, device="cuda", dtype=torch.float32)

    class Off:
        __cuda_array_interface__ = {"shape": (4, 8), "typestr": "<f4",
                                    "data": (t.data_ptr() + 2, False), "strides": None,
                                    "version": 3}
    e = raises(kernpack.MisalignedError, lambda: kernpack.softmax(Off(), out=t[:32].view(4, 8)))
    assert e.status_name == "KP_ERR_MISALIGNED" and "not aligned" in e.message


# ---- other ways in --------------------------------------------------------------------
class CAI:
    """Only __cuda_array_interface__ (as CuPy or Numba arrays have)."""

    def __init__(self, t):
        self.t = t
        self.__cuda_array_interface__ = t.__cuda_array_interface__


class DLPack:
    """Only the DLPack protocol."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, **kw):
        return self.t.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


# __cuda_array_interface__ objects in and out, DLPack producers in.
def test_interfaces():
    torch = need_gpu()
    for dt in (torch.float32, torch.float16):
        x, w = rand(torch, (9, 300), dt), rand(torch, (300,), dt, 0.5, 1.5, signed=False)
        y = torch.empty_like(x)
        r = kernpack.rmsnorm(CAI(x), CAI(w), out=CAI(y))
        assert isinstance(r, CAI)
        close(torch, y, ref_rmsnorm(torch, x, w, 1e-6), dt, f"rmsnorm via CAI {dt}")
    for dt in dtypes(torch):
        x = rand(torch, (9, 300), dt)
        close(torch, kernpack.softmax(DLPack(x)), torch.softmax(x.double(), -1), dt,
              f"softmax via DLPack {dt}")


# Calls follow torch's current stream, or the stream given.
def test_streams():
    torch = need_gpu()
    x = rand(torch, (4096, 1024), torch.bfloat16)
    ref = torch.softmax(x.double(), -1)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = kernpack.softmax(x)
        z = y * 1  # ordered after the kernel on s
    s.synchronize()
    close(torch, z, ref, torch.bfloat16, "softmax on a side stream")
    s2 = torch.cuda.Stream()
    s2.wait_stream(torch.cuda.current_stream())
    out = torch.empty_like(x)
    kernpack.softmax(x, out=out, stream=s2)
    kernpack.softmax(x, out=out, stream=s2.cuda_stream)
    s2.synchronize()
    close(torch, out, ref, torch.bfloat16, "softmax with stream=")


# Several threads share the per-device context; each gets its own results and errors.
def test_threads():
    torch = need_gpu()
    errors = []

    def work(i):
        try:
            with torch.cuda.stream(torch.cuda.Stream()):
                for j in range(20):
                    x = rand(torch, (64 + i, 200 + j), torch.float16)
                    w = rand(torch, (200 + j,), torch.float16, 0.5, 1.5, signed=False)
                    y = kernpack.rmsnorm(x, w)
                    torch.cuda.current_stream().synchronize()
                    close(torch, y, ref_rmsnorm(torch, x, w, 1e-6), torch.float16,
                          f"thread {i} call {j}")
                    if j % 5 == 0:
                        raises(kernpack.InvalidArgumentError,
                               lambda: kernpack.rmsnorm(x, w, eps=-float(i + 1)),
                               f"eps={-(i + 1)}:")
        except BaseException as e:  # noqa: BLE001 -- reported below
            errors.append(f"thread {i}: {type(e).__name__}: {e}")
    ts = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


# A sequence of ops captured in a CUDA graph replays on new inputs.
def test_cuda_graph():
    torch = need_gpu()
    dt = torch.bfloat16
    x = rand(torch, (77, 1000), dt)
    w = rand(torch, (1000,), dt, 0.5, 1.5, signed=False)
    g_in = rand(torch, (77, 2 * 300), dt)
    q = rand(torch, (77, 4, 64), dt)
    pos = torch.arange(77, device="cuda", dtype=torch.int32)

    def body():
        y = kernpack.rmsnorm(x, w)
        z = kernpack.softmax(y)
        h = kernpack.swiglu(g_in)
        kernpack.rope(q, None, positions=pos)
        return y, z, h

    s = torch.cuda.Stream()  # warm-up (loads the modules) on a side stream, as torch asks
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        body()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y, z, h = body()
    for _ in range(2):
        x.copy_(rand(torch, x.shape, dt))
        g_in.copy_(rand(torch, g_in.shape, dt))
        q0 = rand(torch, q.shape, dt)
        q.copy_(q0)
        graph.replay()
        torch.cuda.synchronize()
        yr = ref_rmsnorm(torch, x, w, 1e-6)
        close(torch, y, yr, dt, "graph rmsnorm")
        close(torch, z, torch.softmax(y.double(), -1), dt, "graph softmax")
        close(torch, h, torch.nn.functional.silu(g_in[:, :300].double()) * g_in[:, 300:].double(),
              dt, "graph swiglu")
        close(torch, q, ref_rope(torch, q0, pos, 1e4, 64, False), dt, "graph rope")


# The same graph with programmatic dependent launch on: the same results.
def test_cuda_graph_pdl():
    need_gpu()
    kernpack.set_pdl(True)
    try:
        test_cuda_graph()
    finally:
        kernpack.set_pdl(False)


# ---- gemm ------------------------------------------------------------------------------
def _gemm_ref(torch, a, b, kn, bias=None, c=None, alpha=1.0, beta=0.0, act=None):
    F = torch.nn.functional
    bb = b.double() if kn else b.double().transpose(-1, -2)
    r = alpha * torch.matmul(a.double(), bb)
    if c is not None:
        r = r + beta * c.double()
    if bias is not None:
        r = r + bias.double()
    if act == "relu":
        r = torch.relu(r)
    elif act == "silu":
        r = F.silu(r)
    elif act == "gelu_tanh":
        r = F.gelu(r, approximate="tanh")
    return r


def _gemm_close(torch, out, ref, dt, k, what):
    """Relative Frobenius error within the output rounding (bench/gemm_bench.py)."""
    try:
        torch.cuda.synchronize()  # a fault in this call is reported as this call's
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"{what}: {type(e).__name__}: {e}") from None
    o = out.double()
    assert bool(torch.isfinite(o).all()), f"{what}: non-finite output"
    err = ((o - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    lim = ({torch.bfloat16: 2 ** -7, torch.float16: 2 ** -10}.get(dt, 1e-4)) + 1e-6 * math.sqrt(k)
    assert err <= lim, f"{what}: relative error {err:.2e} > {lim:.1e}"


def _gemm_cases(torch, dt):
    """(what, call, reference, output dtype, k) for one input dtype."""
    F32 = torch.float32

    def r(*sh):
        return torch.randn(*sh, device="cuda", dtype=dt)

    def ref(*a, **kw):
        return lambda: _gemm_ref(torch, *a, **kw)

    cases = []
    for (m, n, k) in [(1, 8, 8), (64, 128, 64), (7, 13, 24), (130, 260, 72), (257, 509, 1000),
                      (5, 100, 33), (1000, 1000, 4096)]:
        a, b = r(m, k), r(n, k) / math.sqrt(k)
        cases.append((f"{m}x{n}x{k}", lambda a=a, b=b: kernpack.gemm(a, b), ref(a, b, False),
                      dt, k))
    m, n, k = 256, 704, 192
    a, b, bias = r(m, k), r(n, k) / math.sqrt(k), r(n)
    for act in ("relu", "silu", "gelu_tanh"):
        cases.append((f"bias + {act}", lambda act=act: kernpack.gemm(a, b, bias=bias, act=act),
                      ref(a, b, False, bias=bias, act=act), dt, k))
    c = r(m, n)
    cases.append(("C, alpha 0.75, beta 0.5",
                  lambda: kernpack.gemm(a, b, c=c, alpha=0.75, beta=0.5),
                  ref(a, b, False, c=c, alpha=0.75, beta=0.5), dt, k))
    c32 = torch.randn(m, n, device="cuda", dtype=F32)
    cases.append(("C is out, f32 (accumulate in place)",
                  lambda: kernpack.gemm(a, b, c=c32, out=c32),
                  ref(a, b, False, c=c32.clone(), beta=1.0), F32, k))
    cases.append(("out_dtype float32", lambda: kernpack.gemm(a, b, out_dtype=F32),
                  ref(a, b, False), F32, k))
    a3, b3 = r(3, 128, 64), r(3, 256, 64) / 8
    cases.append(("batch 3", lambda: kernpack.gemm(a3, b3), ref(a3, b3, False), dt, 64))
    cases.append(("batch 3, B shared", lambda: kernpack.gemm(a3, b3[0]),
                  ref(a3, b3[0].expand(3, -1, -1), False), dt, 64))
    abig = r(m, k + 40)
    cases.append(("A a column slice", lambda: kernpack.gemm(abig[:, 8:8 + k], b),
                  ref(abig[:, 8:8 + k], b, False), dt, k))
    cases.append(("B given as W.t() with b_layout kn",
                  lambda: kernpack.gemm(a, b.t(), b_layout="kn"), ref(a, b, False), dt, k))
    bkn = r(k, n) / math.sqrt(k)
    cases.append(("B (k, n)", lambda: kernpack.gemm(a, bkn, b_layout="kn"), ref(a, bkn, True),
                  dt, k))
    return cases


# gemm at odd shapes, batched and broadcast, both B layouts, the epilogues
# (bias, C with alpha/beta, activations, f32 output, C == out) and
# non-contiguous operands, against float64 torch.  Calls that no variant of
# the pack takes (KP_ERR_NO_VARIANT) are listed; the test skips on them only
# when nothing else failed.
def test_gemm():
    torch = need_gpu()
    failures, no_variant, ran = [], [], 0
    for dt in (torch.bfloat16, torch.float16):
        for what, call, ref, odt, k in _gemm_cases(torch, dt):
            what = f"gemm {str(dt)[6:]} {what}"
            reference = ref()  # before the call: C may be the output
            try:
                out = call()
                _gemm_close(torch, out, reference, odt, k, what)
                ran += 1
            except kernpack.NoVariantError as e:
                no_variant.append(f"{what}: {e.message}")
            except (AssertionError, kernpack.Error) as e:
                failures.append(str(e))
    print(f"gemm: {ran} calls correct, {len(no_variant)} without a variant, "
          f"{len(failures)} failed")
    for x in no_variant:
        print(f"  no variant: {x}")
    assert not failures, "\n".join(failures)
    if no_variant:
        skip(f"{len(no_variant)} gemm calls have no variant in this pack (first: "
             f"{no_variant[0]})")


# ---- info -------------------------------------------------------------------------------
# info() on a GPU machine: the device, its pack and the packs found.
def test_info_gpu():
    need_gpu()
    i = kernpack.info()
    assert i["gpu"] is True and i["driver"]["available"], i
    d = i["devices"][0]
    assert d["name"] and d["sm"] >= 70 and d["sm_count"] > 0 and d["target"], d
    assert d["pack_path"], d
    assert any("error" not in p for p in i["packs"]), i["packs"]


# ---- attention --------------------------------------------------------------------------
def ref_attention(torch, q, k, v, causal, scale, window=(-1, -1)):
    """float64 (out, lse) in (batch, heads, seq, dim) with kernpack's mask:
    causal and the window aligned bottom-right; GQA by repeating KV heads; a
    row with no visible key gives zeros and -inf."""
    hq, hkv, lq, lk = q.shape[1], k.shape[1], q.shape[2], k.shape[2]
    k = k.double().repeat_interleave(hq // hkv, dim=1)
    v = v.double().repeat_interleave(hq // hkv, dim=1)
    s = (q.double() @ k.transpose(-1, -2)) * scale
    i = torch.arange(lq, device=q.device)[:, None]
    j = torch.arange(lk, device=q.device)[None, :]
    off, (wl, wr) = lk - lq, window
    vis = torch.ones(lq, lk, dtype=torch.bool, device=q.device)
    if causal:
        vis &= j <= i + off
    if wr >= 0:
        vis &= j <= i + off + wr
    if wl >= 0:
        vis &= j >= i + off - wl
    s = s.masked_fill(~vis, -math.inf)
    return torch.softmax(s, -1).nan_to_num(0.0) @ v, torch.logsumexp(s, -1)


def attn_tol(torch, dt):
    """(rtol, atol as a fraction of max |ref|) for attention: P is rounded to
    dt before P V, so a term errs by u (2^-8 bf16, 2^-11 f16) of |p v|, the
    output once more by u |out|; an indexing error is O(max |ref|)."""
    u = 2.0 ** -8 if dt == torch.bfloat16 else 2.0 ** -11
    return 2 * u, 8 * u


ATTN_CASES = [  # batch, heads_q, heads_kv, len_q, len_k, head_dim, causal, window
    (1, 1, 1, 1, 1, 64, False, (-1, -1)),
    (2, 4, 4, 1, 300, 128, False, (-1, -1)),
    (1, 8, 2, 100, 100, 128, True, (-1, -1)),
    (2, 4, 1, 37, 200, 64, True, (-1, -1)),
    (1, 2, 2, 200, 37, 128, True, (-1, -1)),  # rows with no key
    (2, 3, 3, 130, 260, 64, False, (50, 20)),
    (1, 2, 2, 65, 513, 96, False, (-1, -1)),  # the fallback
]


# attention against float64 in both layouts (bshd as a transposed view of
# bhsd storage, no copy), GQA/MQA, causal Lq <=> Lk, windows; lse too.
def test_attention():
    torch = need_gpu()
    for dt in (torch.float16, torch.bfloat16):
        for n, (b, hq, hkv, lq, lk, d, causal, window) in enumerate(ATTN_CASES):
            layout = "bhsd" if n % 2 else "bshd"
            q, k, v = (rand(torch, (b, h, s, d), dt) for h, s in ((hq, lq), (hkv, lk), (hkv, lk)))
            ref, ref_lse = ref_attention(torch, q, k, v, causal, 1 / math.sqrt(d), window)
            if layout == "bshd":  # (b, s, h, d) views of (b, h, s, d) storage: strides only
                q, k, v = (x.transpose(1, 2) for x in (q, k, v))
            out, lse = kernpack.attention(q, k, v, causal=causal, window=window, layout=layout,
                                          return_lse=True)
            if layout == "bshd":
                out = out.transpose(1, 2)
            what = f"attention {dt} {layout} case {n}"
            close(torch, out, ref, dt, what, attn_tol(torch, dt))
            fin = torch.isfinite(ref_lse)
            assert bool((lse[~fin] == -math.inf).all()), f"{what}: lse of empty rows"
            err = (lse.double()[fin] - ref_lse[fin]).abs()
            assert err.numel() == 0 or err.max().item() < 2e-3, f"{what}: lse off by {err.max()}"


# varlen batches as flash_attn_varlen_func takes them: packed (total, heads,
# dim) tensors, int32 offsets, empty and length-1 sequences, a sequence past
# max_seqlen_k (cut to it), causal per sequence with Lq_b < Lk_b and Lq_b =
# Lk_b, GQA; each sequence against float64, lse (total_q, heads_q) too, and
# the rows of a cut query sequence left as they were.
def test_attention_varlen():
    torch = need_gpu()
    for dt in (torch.float16, torch.bfloat16):
        for d, hq, hkv, causal in ((64, 4, 2, True), (128, 8, 8, False), (96, 2, 1, True)):
            lq, lk = [5, 0, 1, 77, 40, 3], [60, 10, 1, 200, 40, 0]
            mq, mk = 64, 150  # bounds: sequence 3 is cut to 64 rows and 150 keys
            cq = torch.tensor([0] + list(itertools.accumulate(lq)), dtype=torch.int32,
                              device="cuda")
            ck = torch.tensor([0] + list(itertools.accumulate(lk)), dtype=torch.int32,
                              device="cuda")
            q, k, v = (rand(torch, (sum(n), h, d), dt) for n, h in ((lq, hq), (lk, hkv), (lk, hkv)))
            out = torch.full_like(q, math.nan)
            out, lse = kernpack.attention(q, k, v, causal=causal, cu_seqlens_q=cq,
                                          cu_seqlens_k=ck, max_seqlen_q=mq, max_seqlen_k=mk,
                                          out=out, return_lse=True)
            what = f"attention varlen {dt} d={d} causal={causal}"
            for b in range(len(lq)):
                q0, k0, nq, nk = int(cq[b]), int(ck[b]), min(lq[b], mq), min(lk[b], mk)
                if nq == 0:
                    continue
                qs = q[q0:q0 + nq].transpose(0, 1)[None]
                ks, vs = (x[k0:k0 + nk].transpose(0, 1)[None] for x in (k, v))
                if nk == 0:
                    assert bool((out[q0:q0 + nq] == 0).all()), f"{what}: seq {b} with no keys"
                    assert bool((lse[q0:q0 + nq] == -math.inf).all()), f"{what}: seq {b} lse"
                    continue
                ref, ref_lse = ref_attention(torch, qs, ks, vs, causal, 1 / math.sqrt(d))
                close(torch, out[q0:q0 + nq], ref[0].transpose(0, 1), dt, f"{what} seq {b}",
                      attn_tol(torch, dt))
                got_lse, ref_lse = lse[q0:q0 + nq].double(), ref_lse[0].transpose(0, 1)
                fin = torch.isfinite(ref_lse)
                assert bool((got_lse[~fin] == -math.inf).all()), f"{what}: lse of empty rows"
                err = (got_lse[fin] - ref_lse[fin]).abs()
                assert err.numel() == 0 or err.max().item() < 2e-3, f"{what}: lse off by {err.max()}"
            cut = out[int(cq[3]) + mq:int(cq[4])]
            assert bool(cut.isnan().all()), f"{what}: rows past max_seqlen_q were written"


# A paged KV cache (vLLM's layout): (pages, page, heads_kv, dim) caches, pages
# shuffled, pages of 16 and 7 tokens, a partial last page, decode (Lq 1, 4:
# the fast kernels) and Lq 20 (the fallback), GQA, causal; then per-sequence
# lengths through cu_seqlens (one of them 0); each against float64 on the
# keys gathered back into order.
def test_attention_paged():
    torch = need_gpu()
    g = torch.Generator(device="cuda").manual_seed(7)
    for dt in (torch.float16, torch.bfloat16):
        for (b, hq, hkv, lq, lk, d, page, causal) in ((2, 8, 2, 1, 300, 128, 16, False),
                                                       (3, 4, 4, 4, 77, 64, 7, True),
                                                       (1, 4, 1, 20, 50, 128, 16, True)):
            per = -(-lk // page)
            npages = b * per + 2
            kc, vc = (rand(torch, (npages, page, hkv, d), dt) for _ in range(2))
            bt = torch.randperm(npages, device="cuda", generator=g)[:b * per].to(torch.int32)
            bt = bt.view(b, per)
            q = rand(torch, (b, lq, hq, d), dt)
            out = kernpack.attention(q, kc, vc, block_table=bt, seqlen_k=lk, causal=causal)
            k, v = (c[bt.long()].reshape(b, per * page, hkv, d)[:, :lk] for c in (kc, vc))
            ref, _ = ref_attention(torch, *(x.transpose(1, 2) for x in (q, k, v)), causal,
                                   1 / math.sqrt(d))
            close(torch, out, ref.transpose(1, 2), dt, f"attention paged {dt} b={b} lq={lq} "
                  f"lk={lk} page={page}", attn_tol(torch, dt))
        # varlen: each sequence its own number of keys (the offsets give lengths only)
        hq, hkv, d, page, lks = 8, 2, 128, 16, [40, 0, 1, 100]
        per, lq = 7, 1
        kc, vc = (rand(torch, (len(lks) * per, page, hkv, d), dt) for _ in range(2))
        bt = torch.randperm(len(lks) * per, device="cuda", generator=g).to(torch.int32)
        bt = bt.view(len(lks), per)
        cq = torch.arange(len(lks) + 1, device="cuda", dtype=torch.int32) * lq
        ck = torch.tensor([0] + list(itertools.accumulate(lks)), dtype=torch.int32, device="cuda")
        q = rand(torch, (len(lks) * lq, hq, d), dt)
        out = kernpack.attention(q, kc, vc, block_table=bt, cu_seqlens_q=cq, cu_seqlens_k=ck,
                                 max_seqlen_q=lq, max_seqlen_k=per * page)
        for i, n in enumerate(lks):
            what = f"attention paged varlen {dt} seq {i} ({n} keys)"
            if n == 0:
                assert bool((out[i] == 0).all()), f"{what}: no keys, not zeros"
                continue
            k, v = (c[bt[i].long()].reshape(per * page, hkv, d)[:n] for c in (kc, vc))
            ref, _ = ref_attention(torch, q[i:i + 1].transpose(0, 1)[None],
                                   k.transpose(0, 1)[None], v.transpose(0, 1)[None], False,
                                   1 / math.sqrt(d))
            close(torch, out[i:i + 1], ref[0].transpose(0, 1), dt, what, attn_tol(torch, dt))


# A workspace zeroed once and kept: decode calls of several shapes through it
# with workspace_zeroed=True give the bits of calls that clear their own, and
# leave it usable for the next (each call leaves its counters zero).
def test_attention_workspace_zeroed():
    torch = need_gpu()
    ws = torch.zeros(64 << 20, dtype=torch.uint8, device="cuda")
    for dt in (torch.float16, torch.bfloat16):
        for (b, hq, hkv, lq, lk, d) in ((1, 32, 8, 1, 4096, 128), (8, 32, 8, 1, 3000, 64),
                                         (3, 4, 1, 16, 700, 128), (40, 8, 8, 1, 260, 64)):
            q = rand(torch, (b, lq, hq, d), dt)
            k, v = (rand(torch, (b, lk, hkv, d), dt) for _ in range(2))
            want = kernpack.attention(q, k, v)
            for _ in range(2):
                got = kernpack.attention(q, k, v, workspace=ws, workspace_zeroed=True)
                assert torch.equal(got, want), f"attention {dt} b={b} lk={lk} d={d}: " \
                    "a kept workspace gave other bits"
    try:
        kernpack.attention(q, k, v, workspace_zeroed=True)
    except kernpack.Error as e:
        assert "workspace_zeroed needs a workspace" in str(e), str(e)
    else:
        raise AssertionError("workspace_zeroed without a workspace was taken")

# The same calls as torch's scaled_dot_product_attention (Lq = Lk, where its
# top-left causal diagonal is ours), with GQA expanded for it; a run twice
# gives the same bits; the library's own check of the head counts comes back.
def test_attention_vs_sdpa():
    torch = need_gpu()
    import torch.nn.functional as F
    for dt in (torch.float16, torch.bfloat16):
        for d in (64, 96, 128, 256):
            for causal in (False, True):
                q = rand(torch, (2, 8, 333, d), dt)
                k, v = rand(torch, (2, 2, 333, d), dt), rand(torch, (2, 2, 333, d), dt)
                want = F.scaled_dot_product_attention(q, k.repeat_interleave(4, 1),
                                                      v.repeat_interleave(4, 1), is_causal=causal)
                got = kernpack.attention(q, k, v, causal=causal, layout="bhsd")
                close(torch, got, want, dt, f"attention vs sdpa {dt} d={d} causal={causal}",
                      attn_tol(torch, dt))
                again = kernpack.attention(q, k, v, causal=causal, layout="bhsd")
                assert torch.equal(got, again), "two runs differ"
    q = rand(torch, (1, 4, 16, 64), torch.float16)
    kv = rand(torch, (1, 3, 16, 64), torch.float16)
    raises(kernpack.InvalidArgumentError, lambda: kernpack.attention(q, kv, kv, layout="bhsd"),
           "attention: heads_kv=3 does not divide heads_q=4")
