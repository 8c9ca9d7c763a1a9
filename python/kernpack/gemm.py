"""kp_gemm: D = act(alpha * A @ op(B) + beta * C + bias), batched.

Shapes (a 2-D operand in a batched call is shared by every batch, stride 0):
  a:    (m, k) or (batch, m, k)
  b:    b_layout "nk": (n, k) or (batch, n, k) -- nn.Linear's weight, D = A @ B^T
        b_layout "kn": (k, n) or (batch, k, n) -- D = A @ B
  c:    (m, n) or (batch, m, n), in the output dtype (may be `out` itself)
  bias: (n,), in the input dtype
  out:  (batch, m, n) when any operand is 3-D, else (m, n)
Inputs float16 or bfloat16 (one dtype), fp32 accumulation; the output is the
input dtype or float32 (out_dtype=torch.float32, or an `out` of that dtype).
Each matrix needs its last dim contiguous and a row stride >= its row
length; a B given transposed (b.t() of a contiguous weight) is passed with
the other b_layout instead of being copied; other inputs that do not fit
are copied, an `out` that does not fit raises.
"""
from . import _lib
from ._arrays import DTYPE_NAMES, as_arr, check_device, check_dtype, empty
from ._call import Call
from ._errors import invalid, unsupported

__all__ = ["gemm"]

ACTS = {None: 0, "none": 0, "relu": 1, "silu": 2, "gelu_tanh": 3}


def _mat(a):
    """(ld, batch_stride) of a 2-D or 3-D array whose matrices are rows of
    contiguous elements; None if it is not one."""
    if a.ndim not in (2, 3):
        return None
    rows, cols = a.shape[-2:]
    if cols > 1 and a.strides[-1] != 1:
        return None
    ld = a.strides[-2] if rows > 1 else cols
    if ld < cols:
        return None
    bs = a.strides[0] if a.ndim == 3 and a.shape[0] > 1 else 0
    if bs < 0:
        return None
    return ld, bs


def _transposed(a):
    """The same memory seen with its last two dims swapped."""
    from ._arrays import Arr
    sh, st = list(a.shape), list(a.strides)
    sh[-1], sh[-2] = sh[-2], sh[-1]
    st[-1], st[-2] = st[-2], st[-1]
    obj = a.obj.transpose(-1, -2) if a.torch else a.obj
    return Arr(obj, a.name, a.ptr, sh, st, a.dtype, a.dtype_str, a.itemsize, a.device, a.torch)


def _input(a, call):
    if _mat(a) is not None:
        return a
    if not a.torch:
        raise invalid(f"gemm: {a.name} with shape {a.shape} and strides {a.strides}: need the "
                      f"last dim contiguous and a row stride >= the row length")
    with call.on_stream():
        return as_arr(a.obj.contiguous(), a.name, call.op)


def gemm(a, b, *, b_layout="nk", bias=None, c=None, alpha=1.0, beta=None, act=None, out=None,
         out_dtype=None, stream=None):
    """act(alpha * a @ op(b) + beta * c + bias); see the module doc for shapes.

    beta defaults to 1 when c is given (0 otherwise); act is None, "relu",
    "silu" or "gelu_tanh".  Returns out (allocated when not given)."""
    op = "gemm"
    if b_layout not in ("nk", "kn"):
        raise invalid(f"gemm: b_layout={b_layout!r}: must be 'nk' ((n, k), D = A B^T) or "
                      f"'kn' ((k, n), D = A B)")
    if act not in ACTS:
        raise invalid(f"gemm: act={act!r}: must be None, 'relu', 'silu' or 'gelu_tanh'")
    aa, ba = as_arr(a, "a", op), as_arr(b, "b", op)
    for x in (aa, ba):
        if x.ndim not in (2, 3):
            raise invalid(f"gemm: {x.name} has shape {x.shape}: must be 2-D or 3-D (batch first)")
    dt = check_dtype([aa, ba], op, (_lib.KP_F16, _lib.KP_BF16))
    dev = check_device([aa, ba], op)
    nk = b_layout == "nk"
    if _mat(ba) is None and _mat(_transposed(ba)) is not None:  # b.t() of a weight
        ba, nk = _transposed(ba), not nk
    m, k = aa.shape[-2:]
    n, kb = (ba.shape[-2], ba.shape[-1]) if nk else (ba.shape[-1], ba.shape[-2])
    if kb != k:
        raise invalid(f"gemm: a is {tuple(aa.shape)} (k={k}) but b "
                      f"{tuple(ba.shape)} as {'(n, k)' if b_layout == 'nk' else '(k, n)'} has "
                      f"k={kb}")
    batches = {x.shape[0] for x in (aa, ba) if x.ndim == 3}
    ca = as_arr(c, "c", op) if c is not None else None
    oa = as_arr(out, "out", op) if out is not None else None
    for x in (ca, oa):
        if x is not None and x.ndim == 3:
            batches.add(x.shape[0])
    batches.discard(1)
    if len(batches) > 1:
        raise invalid(f"gemm: batch sizes {sorted(batches)} differ")
    batch = batches.pop() if batches else 1
    batched = any(x is not None and x.ndim == 3 for x in (aa, ba, ca, oa))
    out_shape = (batch, m, n) if batched else (m, n)

    if oa is not None:
        odt = oa.dtype
        if out_dtype is not None and _dtype_code(out_dtype) != odt:
            raise unsupported(f"gemm: out dtype {oa.dtype_str} differs from out_dtype={out_dtype}")
    else:
        odt = dt if out_dtype is None else _dtype_code(out_dtype)
    if odt not in (dt, _lib.KP_F32):
        raise unsupported(f"gemm: output dtype {DTYPE_NAMES.get(odt, odt)}: must be the input "
                          f"dtype ({DTYPE_NAMES[dt]}) or float32")
    call = Call(op, dev, stream)
    if oa is None:
        with call.on_stream():
            oa = empty(out_shape, odt, dev, op)
    if tuple(oa.shape) != out_shape:
        raise invalid(f"gemm: out has shape {tuple(oa.shape)}, expected {out_shape}")
    checked = [aa, ba, oa]
    if ca is not None:
        if tuple(ca.shape) not in ((m, n), (batch, m, n), (1, m, n)):
            raise invalid(f"gemm: c has shape {tuple(ca.shape)}, expected ({m}, {n}) or "
                          f"({batch}, {m}, {n})")
        check_dtype([oa, ca], op, (odt,))
        checked.append(ca)
    if bias is not None:
        bi = as_arr(bias, "bias", op)
        if tuple(bi.shape) != (n,):
            raise invalid(f"gemm: bias has shape {tuple(bi.shape)}, expected ({n},)")
        check_dtype([aa, bi], op)
        if n > 1 and bi.strides[0] != 1:
            bi = _contig_vector(bi, call)
        checked.append(bi)
    else:
        bi = None
    check_device(checked, op)
    if oa.numel() == 0:
        return oa.obj
    lay_o = _mat(oa)
    if lay_o is None:
        raise invalid(f"gemm: out with shape {oa.shape} and strides {oa.strides}: need the last "
                      f"dim contiguous and a row stride >= n")
    aa, ba = _input(aa, call), _input(ba, call)
    if ca is not None and ca.ptr != oa.ptr:
        ca = _input(ca, call)
    lay_c = _mat(ca) if ca is not None else (0, 0)
    if lay_c is None:
        raise invalid(f"gemm: c is out but its strides {ca.strides} cannot be described")

    g = _lib.KpGemmDesc()
    call.lib.kp_gemm_desc_init(g, m, n, k)
    g.batch = batch
    g.b_layout = _lib.KP_B_NK if nk else _lib.KP_B_KN
    g.lda, g.stride_a = _mat(aa)
    g.ldb, g.stride_b = _mat(ba)
    g.ldd, g.stride_d = lay_o
    g.alpha = float(alpha)
    g.beta = float(beta if beta is not None else (1.0 if c is not None else 0.0))
    if ca is not None:
        g.c = ca.ptr
        g.ldc, g.stride_c = lay_c
    if bi is not None:
        g.bias = bi.ptr
    g.act = ACTS[act]
    g.out_f32 = 1 if odt == _lib.KP_F32 else 0
    call.check(call.lib.kp_gemm(call.ctx.handle, dt, aa.ptr, ba.ptr, oa.ptr, g, call.stream))
    return oa.obj


def _contig_vector(a, call):
    if not a.torch:
        raise invalid(f"gemm: {a.name} must be contiguous")
    with call.on_stream():
        return as_arr(a.obj.contiguous(), a.name, call.op)


def _dtype_code(dtype):
    """kp dtype of a torch dtype or a name ("float32", "f32", "bf16", ...)."""
    names = {"float32": _lib.KP_F32, "f32": _lib.KP_F32, "float16": _lib.KP_F16,
             "f16": _lib.KP_F16, "half": _lib.KP_F16, "bfloat16": _lib.KP_BF16,
             "bf16": _lib.KP_BF16}
    key = str(dtype).replace("torch.", "")
    if key not in names:
        raise unsupported(f"gemm: out_dtype={dtype}: must be float32, float16 or bfloat16")
    return names[key]
