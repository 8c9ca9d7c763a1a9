"""The row ops of include/kernpack.h, one function each.

Common rules:
- Tensors are torch.Tensors, objects with __cuda_array_interface__ (float32
  and float16) or DLPack producers (read through torch), on one CUDA device,
  in one dtype: float32, float16 or bfloat16 (fp32 accumulation inside).
- Row tensors are (..., cols): leading dims are flattened into rows, which
  needs the last dim contiguous and the leading dims to step by one row
  stride (any contiguous tensor, a row slice, a column slice x[:, :n], a
  transposed batch of rows...).  An input that cannot be described so is
  copied (torch only); an output or an argument updated in place never is:
  it raises instead.
- `out=` receives the result (its shape and dtype must match); otherwise a
  torch tensor is allocated.  The result is returned.
- `stream=`: a CUstream as an int, a torch.cuda.Stream, or anything with
  __cuda_stream__; default torch's current stream on the tensors' device
  (the legacy stream without torch).  Calls are asynchronous like torch ops.
- Failures raise kernpack.Error subclasses carrying the kp_status name and
  the library's message; shapes, dtypes and devices are checked here first.
"""
from . import _lib
from ._arrays import (Arr, as_arr, check_device, check_dtype, check_shape, contiguous_input,
                      empty, out_layout, rows_layout)
from ._call import Call
from ._errors import invalid, unsupported

__all__ = ["softmax", "rmsnorm", "add_rmsnorm", "swiglu", "geglu", "rmsnorm_swiglu", "rope"]


def _empty_result(a):
    return a.numel() == 0


def _output(out, shape, dtype, call, name="out"):
    """The output Arr: out checked against shape/dtype/device, or a new tensor."""
    if out is None:
        with call.on_stream():
            return empty(shape, dtype, call.device, call.op)
    o = as_arr(out, name, call.op)
    check_shape(o, shape, call.op)
    return o


def _vector(w, n, name, call, dtype):
    """A 1-D (n,) input (weights): contiguous, in dtype."""
    a = as_arr(w, name, call.op)
    check_shape(a, (n,), call.op)
    check_dtype([a], call.op, (dtype,))
    if n > 1 and a.strides[0] != 1:
        if not a.torch:
            raise invalid(f"{call.op}: {name} must be contiguous")
        with call.on_stream():
            a = as_arr(a.obj.contiguous(), name, call.op)
    return a


def _input_rows(a, call):
    a2 = a
    if rows_layout(a) is None:
        with call.on_stream():
            a2 = contiguous_input(a, call.op)
    return a2


def softmax(x, *, out=None, stream=None):
    """y = softmax(x) along the last dim.  out may be x (in place)."""
    op = "softmax"
    xa = as_arr(x, "x", op)
    dt = check_dtype([xa], op)
    call = Call(op, xa.device, stream)
    ya = _output(out, xa.shape, dt, call)
    check_dtype([xa, ya], op)
    check_device([xa, ya], op)
    if _empty_result(xa):
        return ya.obj
    ldy, _, _ = out_layout(ya, op)
    xa = _input_rows(xa, call) if ya.ptr != xa.ptr else xa
    ldx, rows, cols = out_layout(xa, op)
    call.check(call.lib.kp_softmax(call.ctx.handle, dt, xa.ptr, ldx, ya.ptr, ldy, rows, cols,
                                   call.stream))
    return ya.obj


def rmsnorm(x, weight, eps=1e-6, *, out=None, stream=None):
    """y = x / sqrt(mean(x^2, -1) + eps) * weight.  x: (..., cols); weight: (cols,)."""
    op = "rmsnorm"
    xa = as_arr(x, "x", op)
    dt = check_dtype([xa], op)
    call = Call(op, xa.device, stream)
    wa = _vector(weight, xa.shape[-1] if xa.ndim else 1, "weight", call, dt)
    ya = _output(out, xa.shape, dt, call)
    check_dtype([xa, wa, ya], op)
    check_device([xa, wa, ya], op)
    if _empty_result(xa):
        return ya.obj
    ldy, _, _ = out_layout(ya, op)
    xa = _input_rows(xa, call)
    ldx, rows, cols = rows_layout(xa)
    call.check(call.lib.kp_rmsnorm(call.ctx.handle, dt, xa.ptr, ldx, wa.ptr, ya.ptr, ldy, rows,
                                   cols, float(eps), call.stream))
    return ya.obj


def add_rmsnorm(x, residual, weight, eps=1e-6, *, out=None, stream=None):
    """residual += x (in place, stored in the dtype); returns
    rmsnorm(residual) * weight.  x, residual: (..., cols); weight: (cols,)."""
    op = "add_rmsnorm"
    xa = as_arr(x, "x", op)
    dt = check_dtype([xa], op)
    ra = as_arr(residual, "residual", op)
    check_shape(ra, xa.shape, op, "as x")
    call = Call(op, xa.device, stream)
    wa = _vector(weight, xa.shape[-1] if xa.ndim else 1, "weight", call, dt)
    ya = _output(out, xa.shape, dt, call)
    check_dtype([xa, ra, wa, ya], op)
    check_device([xa, ra, wa, ya], op)
    if _empty_result(xa):
        return ya.obj
    ldr, _, _ = out_layout(ra, op)
    ldy, _, _ = out_layout(ya, op)
    xa = _input_rows(xa, call)
    ldx, rows, cols = rows_layout(xa)
    call.check(call.lib.kp_add_rmsnorm(call.ctx.handle, dt, xa.ptr, ldx, ra.ptr, ldr, wa.ptr,
                                       ya.ptr, ldy, rows, cols, float(eps), call.stream))
    return ya.obj


def _halves(a, call):
    """(gate, up): the two halves of the last dim of a (..., 2*cols) array."""
    op = call.op
    if a.ndim == 0 or a.shape[-1] % 2:
        raise invalid(f"{op}: gate has shape {a.shape}: with up=None the last dim must be even "
                      f"(gate and up halves)")
    if rows_layout(a) is None:
        with call.on_stream():
            a = contiguous_input(a, op)
    c = a.shape[-1] // 2
    if a.torch:
        return as_arr(a.obj[..., :c], "gate", op), as_arr(a.obj[..., c:], "up", op)
    es = a.itemsize
    return tuple(Arr(a.obj, name, a.ptr + i * c * es, a.shape[:-1] + (c,), a.strides, a.dtype,
                     a.dtype_str, es, a.device, False) for i, name in enumerate(("gate", "up")))


def _glu(op, gate, up, form, out, stream):
    ga = as_arr(gate, "gate", op)
    dt = check_dtype([ga], op)
    call = Call(op, ga.device, stream)
    if up is None:  # one (..., 2*cols) tensor: [gate | up]
        ga, ua = _halves(ga, call)
    else:
        ua = as_arr(up, "up", op)
        check_shape(ua, ga.shape, op, "as gate")
    ya = _output(out, ga.shape, dt, call)
    check_dtype([ga, ua, ya], op)
    check_device([ga, ua, ya], op)
    if _empty_result(ga):
        return ya.obj
    ldy, _, _ = out_layout(ya, op)
    ga, ua = _input_rows(ga, call), _input_rows(ua, call)
    ldg, rows, cols = rows_layout(ga)
    ldu = rows_layout(ua)[0]
    if ldg != ldu and rows > 1:  # the C API takes one stride for both
        if not (ga.torch and ua.torch):
            raise invalid(f"{op}: gate and up have row strides {ldg} and {ldu}: they must share "
                          f"one")
        with call.on_stream():
            ga = as_arr(ga.obj.contiguous(), "gate", op)
            ua = as_arr(ua.obj.contiguous(), "up", op)
        ldg = cols
    L = call.lib
    if form is None:
        st = L.kp_swiglu(call.ctx.handle, dt, ga.ptr, ua.ptr, ldg, ya.ptr, ldy, rows, cols,
                         call.stream)
    else:
        st = L.kp_geglu(call.ctx.handle, dt, form, ga.ptr, ua.ptr, ldg, ya.ptr, ldy, rows, cols,
                        call.stream)
    call.check(st)
    return ya.obj


def swiglu(gate, up=None, *, out=None, stream=None):
    """y = silu(gate) * up.  gate, up: (..., cols); or up=None and gate is
    one (..., 2*cols) tensor holding [gate | up] along the last dim."""
    return _glu("swiglu", gate, up, None, out, stream)


def geglu(gate, up=None, *, approximate="none", out=None, stream=None):
    """y = gelu(gate) * up, approximate "none" (erf) or "tanh" as in
    torch.nn.functional.gelu.  gate/up as for swiglu."""
    forms = {"none": _lib.KP_GELU_ERF, "erf": _lib.KP_GELU_ERF, "tanh": _lib.KP_GELU_TANH}
    if approximate not in forms:
        raise invalid(f"geglu: approximate={approximate!r}: must be 'none' or 'tanh'")
    return _glu("geglu", gate, up, forms[approximate], out, stream)


def rmsnorm_swiglu(x, weight, eps=1e-6, *, out=None, stream=None):
    """h = rmsnorm(x) * weight over the whole row; y = silu(h[..., :c]) * h[..., c:].
    x: (..., 2*c); weight: (2*c,); y: (..., c)."""
    op = "rmsnorm_swiglu"
    xa = as_arr(x, "x", op)
    dt = check_dtype([xa], op)
    if xa.ndim == 0 or xa.shape[-1] % 2:
        raise invalid(f"{op}: x has shape {xa.shape}: the last dim must be even (2*cols)")
    call = Call(op, xa.device, stream)
    wa = _vector(weight, xa.shape[-1], "weight", call, dt)
    ya = _output(out, xa.shape[:-1] + (xa.shape[-1] // 2,), dt, call)
    check_dtype([xa, wa, ya], op)
    check_device([xa, wa, ya], op)
    if _empty_result(xa):
        return ya.obj
    ldy, _, _ = out_layout(ya, op)
    xa = _input_rows(xa, call)
    ldx, rows, cols2 = rows_layout(xa)
    call.check(call.lib.kp_rmsnorm_swiglu(call.ctx.handle, dt, xa.ptr, ldx, wa.ptr, ya.ptr, ldy,
                                          rows, cols2 // 2, float(eps), call.stream))
    return ya.obj


def _heads_layout(a):
    """(tokens, heads, head_dim, stride_token, stride_head) of a (..., heads,
    head_dim) array with the last dim contiguous and the leading dims
    flattening into tokens; None otherwise."""
    if a.ndim < 3:
        return None
    head_dim, heads = a.shape[-1], a.shape[-2]
    if head_dim > 1 and a.strides[-1] != 1:
        return None
    sh = a.strides[-2] if heads > 1 else head_dim
    lead = _lib_rows(a.shape[:-2], a.strides[:-2])
    if lead is None:
        return None
    tokens, st = lead
    row = (heads - 1) * sh + head_dim
    if tokens == 1:
        st = max(st, row)
    if sh < head_dim or st < row:
        return None
    return tokens, heads, head_dim, st, sh


def _lib_rows(shape, strides):
    """(count, stride) flattening dims that step uniformly; None if they do not."""
    n, st = 1, None
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size == 1:
            continue
        if st is None:
            st = stride
        elif stride != st * n:
            return None
        n *= size
    return n, (st if st is not None else 0)


def rope(q, k=None, *, cos=None, sin=None, positions=None, theta=10000.0, rot_dim=None,
         layout="neox", stream=None):
    """RoPE on q and k in place, one launch; returns (q, k).

    q: (..., heads_q, head_dim), k: (..., heads_k, head_dim) (or None), the
    leading dims (tokens, or batch and sequence) flattened into tokens, the
    last dim contiguous.  The first rot_dim (default head_dim, even) dims
    of each head rotate: layout "neox" pairs (i, i + rot_dim/2), "gptj"
    pairs (2i, 2i+1).  Angles: cos and sin (tokens, rot_dim/2), float32
    (other float dtypes are converted), or pos * theta^(-2i/rot_dim) with
    pos = positions[token] (int32 or int64 (tokens,)) or the token index.
    """
    op = "rope"
    layouts = {"neox": _lib.KP_ROPE_NEOX, "gptj": _lib.KP_ROPE_GPTJ}
    if layout not in layouts:
        raise invalid(f"rope: layout={layout!r}: must be 'neox' or 'gptj'")
    if q is None and k is None:
        raise invalid("rope: give q, k or both")
    qa = as_arr(q, "q", op) if q is not None else None
    ka = as_arr(k, "k", op) if k is not None else None
    heads = [a for a in (qa, ka) if a is not None]
    dt = check_dtype(heads, op)
    dev = check_device(heads, op)
    lays = []
    for a in heads:
        lay = _heads_layout(a)
        if lay is None:
            raise invalid(f"{op}: {a.name} with shape {a.shape} and strides {a.strides}: need "
                          f"(..., heads, head_dim) with the last dim contiguous and the leading "
                          f"dims flattening into tokens (it is updated in place: no copy)")
        lays.append(lay)
    tokens, _, head_dim, _, _ = lays[0]
    for a, lay in zip(heads, lays):
        if lay[0] != tokens or lay[2] != head_dim:
            raise invalid(f"{op}: q has {lays[0][0]} tokens of head_dim {lays[0][2]}, k "
                          f"{lay[0]} of {lay[2]}: they must agree")
    rot = head_dim if rot_dim is None else int(rot_dim)
    call = Call(op, dev, stream)
    d = _lib.KpRopeDesc()
    d.tokens, d.head_dim, d.rot_dim, d.layout = tokens, head_dim, rot, layouts[layout]
    d.theta = float(theta)
    if qa is not None:
        _, d.heads_q, _, d.q_stride_token, d.q_stride_head = _heads_layout(qa)
    if ka is not None:
        _, d.heads_k, _, d.k_stride_token, d.k_stride_head = _heads_layout(ka)
    if (cos is None) != (sin is None):
        raise invalid(f"{op}: give both cos and sin, or neither")
    if cos is not None:
        if positions is not None:
            raise invalid(f"{op}: positions are used only when cos/sin are not given "
                          f"(cos/sin are per token: gather them by position first)")
        half = rot // 2
        cs = []
        for t, name in ((cos, "cos"), (sin, "sin")):
            a = as_arr(t, name, op)
            check_device([heads[0], a], op)
            if a.shape[-1:] != (half,) or a.numel() != tokens * half:
                raise invalid(f"{op}: {name} has shape {a.shape}, expected ({tokens}, {half}) "
                              f"(tokens, rot_dim/2)")
            if a.dtype != _lib.KP_F32 or rows_layout(a) is None:
                if not a.torch:
                    raise invalid(f"{op}: {name} must be float32 rows with a stride")
                import torch
                with call.on_stream():
                    a = as_arr(a.obj.to(torch.float32).reshape(tokens, half).contiguous(),
                               name, op)
            cs.append(a)
        ldc, lds = rows_layout(cs[0])[0], rows_layout(cs[1])[0]
        if ldc != lds:
            if not (cs[0].torch and cs[1].torch):
                raise invalid(f"{op}: cos and sin must share one row stride")
            with call.on_stream():
                cs = [as_arr(a.obj.reshape(tokens, half).contiguous(), a.name, op) for a in cs]
            ldc = half
        d.cos, d.sin, d.cs_stride = cs[0].ptr, cs[1].ptr, ldc
    elif positions is not None:
        p = as_arr(positions, "positions", op)
        check_device([heads[0], p], op)
        if p.numel() != tokens:
            raise invalid(f"{op}: positions has shape {p.shape}, expected ({tokens},)")
        contiguous = p.ndim == 1 and (p.shape[0] <= 1 or p.strides[0] == 1)
        if p.dtype_str not in ("torch.int32", "<i4") or not contiguous:
            if not p.torch or p.dtype_str not in ("torch.int32", "torch.int64"):
                raise unsupported(f"{op}: positions dtype {p.dtype_str}: must be int32 (or a "
                                  f"torch int64 tensor, converted), one (tokens,) vector")
            import torch
            with call.on_stream():
                p = as_arr(p.obj.reshape(-1).to(torch.int32).contiguous(), "positions", op)
        d.positions = p.ptr
    if tokens == 0:
        return q, k
    call.check(call.lib.kp_rope(call.ctx.handle, dt, qa.ptr if qa else None,
                                ka.ptr if ka else None, d, call.stream))
    return q, k

